#!/usr/bin/env python3
"""no-controls.py FILE...: fail when a file holds a character that could
repaint a terminal or reorder a line: a C0 control other than newline and
tab, DEL, a C1 control, a bidirectional embedding, override, isolate or
mark, a line or paragraph separator, or bytes that are not UTF-8.  Each
finding is printed as FILE:LINE: U+XXXX."""
import sys

BAD = set(range(0x00, 0x20)) - {0x0A, 0x09}
BAD |= {0x7F} | set(range(0x80, 0xA0))
BAD |= {0x061C, 0x200E, 0x200F, 0x2028, 0x2029}
BAD |= set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))

status = 0
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print("%s: byte %d: not UTF-8" % (path, e.start))
        status = 1
        continue
    for n, line in enumerate(text.split("\n"), 1):
        for ch in line:
            if ord(ch) in BAD:
                print("%s:%d: U+%04X" % (path, n, ord(ch)))
                status = 1
sys.exit(status)
