#!/bin/sh
test_description='plumb analyze: bad input exits 3 naming line and column, and prints nothing'
. "$(dirname "$0")/test-lib.sh"

H=$(printf 'bench\tside\tpad\tround\titer\tmetric\tvalue')
SQ="'"

# expect_bad NAME MESSAGE: `plumb analyze NAME` exits 3, prints MESSAGE
# on stderr, and nothing on stdout (in text and JSON).
expect_bad() {
	test_expect_code 3 plumb analyze "$1" >out 2>err &&
	printf "plumb: %s\n" "$2" >expect &&
	test_cmp expect err &&
	! test -s out &&
	test_expect_code 3 plumb analyze --json "$1" >out 2>err &&
	! test -s out
}

row() {
	# row bench side pad round iter metric value
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"
}

good_rows() {
	for r in 1 2 3; do
		row b base 0 $r - wall 1.0
		row b candidate 0 $r - wall 1.1
	done
}

test_expect_success 'empty input' '
	: >empty.tsv &&
	expect_bad empty.tsv "empty.tsv: empty input (no header row)"
'

test_expect_success 'empty standard input' '
	test_expect_code 3 plumb analyze - </dev/null >out 2>err &&
	test_grep "standard input: empty input (no header row)" err &&
	! test -s out
'

test_expect_success 'a header and no rows' '
	echo "$H" >header.tsv &&
	expect_bad header.tsv "header.tsv: no samples (a header row but no data rows)"
'


test_expect_success 'missing header' '
	good_rows >nohead.tsv &&
	expect_bad nohead.tsv "nohead.tsv: line 1: column 1: expected header ${SQ}bench${SQ}, found ${SQ}b${SQ} (the first line must be the header row)"
'

test_expect_success 'wrong header' '
	{ printf "bench\tside\tpad\tround\titeration\tmetric\tvalue\n" && good_rows; } >badhead.tsv &&
	expect_bad badhead.tsv "badhead.tsv: line 1: column 5: expected header ${SQ}iter${SQ}, found ${SQ}iteration${SQ}"
'

test_expect_success 'too few columns' '
	{ echo "$H" && good_rows && printf "b\tbase\t0\t4\t-\twall\n"; } >few.tsv &&
	expect_bad few.tsv "few.tsv: line 8: column ${SQ}value${SQ}: missing (the row has 6 of 7 tab-separated columns)"
'

test_expect_success 'too many columns' '
	{ echo "$H" && row b base 0 1 - wall 1 && printf "b\tbase\t0\t2\t-\twall\t1\textra\n"; } >many.tsv &&
	expect_bad many.tsv "many.tsv: line 3: column 8: unexpected (a row has 7 tab-separated columns)"
'

test_expect_success 'unknown side' '
	{ echo "$H" && good_rows && row b baseline 0 4 - wall 1; } >side.tsv &&
	expect_bad side.tsv "side.tsv: line 8: column ${SQ}side${SQ}: unknown side ${SQ}baseline${SQ} (expected base, candidate or control)"
'

test_expect_success 'non-numeric value' '
	{ echo "$H" && row b base 0 1 - wall 1.5ms; } >nan1.tsv &&
	expect_bad nan1.tsv "nan1.tsv: line 2: column ${SQ}value${SQ}: not a number ${SQ}1.5ms${SQ}"
'

test_expect_success 'negative value' '
	{ echo "$H" && good_rows && row b base 1 1 - wall -3; } >neg.tsv &&
	expect_bad neg.tsv "neg.tsv: line 8: column ${SQ}value${SQ}: negative value ${SQ}-3${SQ}"
'

test_expect_success 'NaN value' '
	{ echo "$H" && row b base 0 1 - wall nan; } >nan.tsv &&
	expect_bad nan.tsv "nan.tsv: line 2: column ${SQ}value${SQ}: not a finite number ${SQ}nan${SQ}"
'

test_expect_success 'infinite values' '
	{ echo "$H" && row b base 0 1 - wall inf; } >inf.tsv &&
	expect_bad inf.tsv "inf.tsv: line 2: column ${SQ}value${SQ}: not a finite number ${SQ}inf${SQ}" &&
	{ echo "$H" && row b base 0 1 - wall 1e400; } >inf2.tsv &&
	expect_bad inf2.tsv "inf2.tsv: line 2: column ${SQ}value${SQ}: not a finite number (out of range) ${SQ}1e400${SQ}"
'

test_expect_success 'over-long line' '
	long=$(printf "%05000d" 0) &&
	{ echo "$H" && row "b$long" base 0 1 - wall 1; } >long.tsv &&
	expect_bad long.tsv "long.tsv: line 2: column 4097: line longer than 4096 bytes (the limit)"
'

test_expect_success 'bad pad, round and iter' '
	{ echo "$H" && row b base x 1 - wall 1; } >pad.tsv &&
	expect_bad pad.tsv "pad.tsv: line 2: column ${SQ}pad${SQ}: not a whole number ${SQ}x${SQ}" &&
	{ echo "$H" && row b base 0 -1 - wall 1; } >round.tsv &&
	expect_bad round.tsv "round.tsv: line 2: column ${SQ}round${SQ}: not a whole number ${SQ}-1${SQ}" &&
	{ echo "$H" && row b base 0 1 0 ns 1 && row b base 0 1 2 ns 1; } >iter.tsv &&
	expect_bad iter.tsv "iter.tsv: line 3: column ${SQ}iter${SQ}: 2 out of order for bench ${SQ}b${SQ} metric ${SQ}ns${SQ} side base pad 0 round 1 (expected 1: iterations are numbered 0, 1, 2, ... in order)"
'

test_expect_success 'duplicate process-mode row, and mixed modes' '
	{ echo "$H" && row b base 0 1 - wall 1 && row b base 0 1 - wall 2; } >dup.tsv &&
	expect_bad dup.tsv "dup.tsv: line 3: column ${SQ}iter${SQ}: a second ${SQ}-${SQ} row for bench ${SQ}b${SQ} metric ${SQ}wall${SQ} side base pad 0 round 1 (one value per round)" &&
	{ echo "$H" && row b base 0 1 - wall 1 && row b base 0 2 0 wall 2; } >mixed.tsv &&
	expect_bad mixed.tsv "mixed.tsv: line 3: column ${SQ}iter${SQ}: iteration 0 in bench ${SQ}b${SQ} metric ${SQ}wall${SQ}, whose other rows have ${SQ}-${SQ} (one value per round)"
'

test_expect_success 'CRLF line ends are named, not guessed' '
	{ echo "$H" && row b base 0 1 - wall 1; } | sed "s/\$/\r/" >crlf.tsv &&
	expect_bad crlf.tsv "crlf.tsv: line 1: column 7: expected header ${SQ}value${SQ}, found ${SQ}value\\x0d${SQ}"
'

test_expect_success 'a bad row after many good ones still prints nothing' '
	{ echo "$H" && good_rows && good_rows | sed "s/^b/c/" && row c base 0 9 - wall x; } >late.tsv &&
	expect_bad late.tsv "late.tsv: line 14: column ${SQ}value${SQ}: not a number ${SQ}x${SQ}"
'

test_expect_success 'a fixed warmup that discards a whole round' '
	{ echo "$H" && row b base 0 1 0 ns 1 && row b base 0 1 1 ns 1; } >short.tsv &&
	test_expect_code 3 plumb analyze --warmup 2 short.tsv >out 2>err &&
	! test -s out &&
	test_grep "short.tsv: bench .b. metric .ns. side base pad 0 round 1: warmup 2 discards all 2 samples" err
'

test_expect_success 'a missing file exits 3 naming it; a folder too' '
	test_expect_code 3 plumb analyze nosuch.tsv >out 2>err &&
	test_grep "nosuch.tsv: No such file" err &&
	! test -s out &&
	mkdir dir &&
	test_expect_code 3 plumb analyze dir 2>err &&
	test_grep "dir: is a folder" err
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 plumb analyze 2>err &&
	test_grep "FILE.tsv" err &&
	test_expect_code 2 plumb analyze a.tsv b.tsv 2>err &&
	test_expect_code 2 plumb analyze --warmup sometimes header.tsv 2>err &&
	test_grep "warmup takes auto, none or a whole number" err &&
	test_expect_code 2 plumb analyze --frob header.tsv 2>err
'

test_expect_success 'good rows still pass (the harness can tell good from bad)' '
	{ echo "$H" && good_rows; } >good.tsv &&
	plumb analyze good.tsv >out &&
	test_grep "verdict  unswept: 1+1 pads can reach 0% at most" out
'

test_done
