#!/bin/sh
test_description='archive list, trend and changes keep their columns when a benchmark or host name is long or not ASCII: every table is laid out by common/table.h, in terminal columns, and no name is cut'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

A="$TRASH/archive"
LONG=bench-with-a-long-name-of-sixty-bytes-0123456789abcdefghijkl
UTF=bénch-über-é
FP=fp-aaaaaaaaé-ü

# aligned FILE HEADING...: in the rows of the table below the line holding
# every HEADING (the lines up to one without two spaces in a row), a cell
# starts in the column where each heading starts, two spaces after the
# cell before it (positions in characters: every character here, names and
# units such as "µs", takes one terminal column).
aligned() {
	python3 - "$@" <<-\PY
	import sys
	lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
	heads = sys.argv[2:]
	top = next(i for i, l in enumerate(lines) if all(h in l for h in heads))
	cols = [lines[top].index(h) for h in heads]
	rows = []
	for l in lines[top + 1:]:
	    if "  " not in l:
	        break
	    rows.append(l)
	assert rows, "no rows under the heading"
	for l in rows:
	    for c in cols[1:]:
	        if l[c - 2:c] != "  " or l[c] == " ":
	            sys.exit("column %d of %r is not where its heading is" % (c, l))
	PY
}

test_expect_success 'an archive with a 60-byte benchmark name and a multibyte one, on two host classes' '
	test ${#LONG} = 60 &&
	archive_nights "$A" 40 2 -p 0.02 -n "$LONG" b0@20:10 &&
	archive_nights "$A" 40 2 -p 0.02 -i 1000 -H "$FP" -n "$UTF" b0@20:10 b1@25:10
'

test_expect_success PYTHON 'archive changes: the columns after BENCH and HOST stay in line, the names whole' '
	plumb archive changes --archive-dir "$A" >c.txt &&
	test_grep "^3 change points$" c.txt &&
	test_grep "  $LONG  *up  " c.txt &&
	test_grep "  $FP  *$UTF  *up  " c.txt &&
	aligned c.txt "FIRST NIGHT AFTER" HOST BENCH DIR "SIZE [95%]" "LAST NIGHT BEFORE" COMMITS SERIES CAUSE
'

test_expect_success PYTHON 'archive trend of each: the whole name in the heading, the points in line' '
	plumb archive trend "$LONG" --archive-dir "$A" >t1.txt &&
	test_grep "^bench $LONG, metric wall, host 5ca1ab1e0000c0de: 40 points$" t1.txt &&
	aligned t1.txt TIME COMMIT VERDICT BUNDLE &&
	plumb archive trend "$UTF" --archive-dir "$A" >t2.txt &&
	test_grep "^bench $UTF, metric wall, host $FP: 40 points$" t2.txt &&
	aligned t2.txt TIME COMMIT VERDICT BUNDLE
'

test_expect_success PYTHON 'archive list: a host cut to its short form at a character, not inside one' '
	plumb archive list --host "$FP" --last 3 --archive-dir "$A" >l.txt &&
	test_grep "  fp-aaaaaaaa   *2  job=nightly$" l.txt &&
	aligned l.txt ID CREATED BASE CANDIDATE HOST LABELS
'

test_done
