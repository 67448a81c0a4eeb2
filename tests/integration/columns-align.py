#!/usr/bin/env python3
# tests/integration/columns-align.py: check that a text table's rows start
# their left-aligned cells where the header starts those columns, in
# terminal columns (a wide character counts two, a combining mark none).
#
#   columns-align.py FILE NAME...
#
# The header is the first line holding every NAME in order; its rows are
# the lines after it up to the first empty one, but for a line indented
# past the first NAME's column (a note under a row).  Exits 1 naming the
# first row whose cell starts elsewhere.
import sys
import unicodedata


def width(s):
    n = 0
    for ch in s:
        if unicodedata.combining(ch):
            continue
        n += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return n


def at(line, col):
    """The character that starts at terminal column col, or None."""
    w = 0
    for i, ch in enumerate(line):
        if w == col:
            return i
        w += width(ch)
    return None


def main():
    path, names = sys.argv[1], sys.argv[2:]
    lines = open(path, encoding="utf-8").read().split("\n")
    for h, line in enumerate(lines):
        pos, cols = 0, []
        for name in names:
            i = line.find(name, pos)
            if i < 0:
                break
            cols.append(width(line[:i]))
            pos = i + len(name)
        if len(cols) == len(names):
            break
    else:
        sys.exit("%s: no header with %s" % (path, names))
    rows = 0
    for row in lines[h + 1:]:
        if not row:
            break
        if len(row) - len(row.lstrip(" ")) > cols[0]:
            continue
        rows += 1
        for name, col in zip(names, cols):
            i = at(row, col)
            if i is None or row[i] == " " or (i > 0 and row[i - 1] != " "):
                sys.exit("%s: column %r (at %d) misaligned in: %s" % (path, name, col, row))
    if rows == 0:
        sys.exit("%s: no rows under the header" % path)


main()
