#!/bin/sh
test_description='plumb audit: the frozen corpus of tests/fixtures/audit audits identically, in text and JSON'
. "$(dirname "$0")/test-lib.sh"

corpus="$FIXTURES/audit"

test_expect_success 'the corpus holds a bundle of each kind' '
	for n in process samples signed failure imported; do
		test -f "$corpus/$n.plumb" || { echo "no $n.plumb" >&2; return 1; }
	done
'

for b in "$corpus"/*.plumb; do
	n=$(basename "$b" .plumb)
	test_expect_success "$n: the text audit is the frozen one" '
		(cd "$corpus" && plumb audit $n.plumb $(cat $n.args 2>/dev/null)) >$n.txt &&
		test_cmp "$corpus/$n.expect.txt" $n.txt
	'
	test_expect_success "$n: the JSON audit is the frozen one" '
		(cd "$corpus" && plumb audit $n.plumb $(cat $n.args 2>/dev/null) --format json) >$n.json &&
		test_cmp "$corpus/$n.expect.json" $n.json
	'
done

test_expect_success 'the corpus covers both modes, a signature and a failure' '
	grep -q "samples mode" "$corpus/samples.expect.txt" &&
	grep -q "process mode" "$corpus/process.expect.txt" &&
	grep -q "^  signature  *good, key " "$corpus/signed.expect.txt" &&
	grep -q "^  broken  *failed " "$corpus/failure.expect.txt" &&
	grep -q "^  written by  *pyperf 0.8.2" "$corpus/imported.expect.txt"
'

test_expect_success 'a corpus bundle changed by one byte no longer audits identically' '
	cp "$corpus/process.plumb" p.plumb &&
	printf "x" >>p.plumb &&
	test_expect_code 3 plumb audit p.plumb >p.txt &&
	! test_cmp "$corpus/process.expect.txt" p.txt 2>/dev/null
'

test_done
