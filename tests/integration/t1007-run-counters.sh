#!/bin/sh
test_description='plumb run: hardware counters recorded, or marked unavailable with the reason'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test_expect_success 'a run records whether counters were available' '
	make_project proj &&
	run_conf proj/plumb.conf run.pads=1 &&
	run_plumb -c proj/plumb.conf -o c.plumb >out 2>err &&
	manifest c.plumb c &&
	python3 -c "import json
j = json.load(open(\"c/manifest.json\"))
print(\"yes\" if j[\"run\"][\"counters\"][\"available\"] else \"no\")" >available
'

if test "$(cat "$TRASH/available" 2>/dev/null)" = yes; then
	test_set_prereq COUNTERS
else
	test_set_prereq NO_COUNTERS
	say "hardware counters are unavailable here, the COUNTERS tests skip: $(sed -n \
		's/.*"reason": "\(.*\)".*/\1/p' "$TRASH/c/manifest.json" 2>/dev/null)"
fi

test_expect_success NO_COUNTERS 'unavailable: a reason, no number anywhere' '
	test_json c/manifest.json "(
j[\"run\"][\"counters\"][\"available\"] is False and
j[\"run\"][\"counters\"][\"reason\"].startswith(\"perf_event_open(\") and
all(\"counters\" not in s for b in j[\"benches\"] for s in b[\"sides\"].values())
)" &&
	test_grep_not "	cycles	" c/samples.tsv &&
	test_grep_not "	instructions	" c/samples.tsv &&
	test_grep "^counters: unavailable: perf_event_open(" out
'

test_expect_success NO_COUNTERS 'unavailable: a metric that needs them is refused before building' '
	run_conf proj/cycles.conf bench.b.metric=cycles &&
	test_expect_code 3 run_plumb -c proj/cycles.conf -o x.plumb 2>err &&
	test_grep "bench.b.metric: .cycles. needs hardware counters, and this host has none: perf_event_open(" err &&
	! test -e x.plumb
'

test_expect_success COUNTERS 'available: cycles, instructions and branch misses per run' '
	test_json c/manifest.json "(
j[\"run\"][\"counters\"][\"available\"] is True and
j[\"benches\"][0][\"sides\"][\"base\"][\"counters\"][\"cycles\"] > 0 and
j[\"benches\"][0][\"sides\"][\"base\"][\"counters\"][\"instructions\"] > 0
)" &&
	test_grep "	cycles	" c/samples.tsv &&
	test_grep "	branch-misses	" c/samples.tsv
'

test_expect_success COUNTERS 'available: metric = instructions is measured' '
	run_conf proj/ins.conf bench.b.metric=instructions &&
	run_plumb -c proj/ins.conf -o i.plumb >out 2>err &&
	test_grep "^b  *instructions  " out
'

test_done
