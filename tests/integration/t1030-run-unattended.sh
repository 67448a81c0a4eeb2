#!/bin/sh
test_description='plumb run for cron and CI: --fail-on gates in one command, --quiet, progress with --keep-going'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

lines() {
	wc -l <"$1" | tr -d " "
}

# The candidate sleeps 200 ms a run (slower even under a heavy load): a swept `slower` at 2 pads, 3 rounds
# under the overlap rule (the margin rule calls 2 + 2 pads unswept).
test_expect_success 'set up a project' '
	make_project proj &&
	mkdir out &&
	run_conf proj/slow.conf \
		"bench.b.command=case {artifact} in */v/c*) sleep 0.2;; esac; {artifact}" \
		verdict.rule=overlap &&
	git config -f proj/slow.conf --unset bench.b.hot &&
	run_conf proj/kg.conf \
		"bench.b.command=case {artifact} in */c01/*) echo broken >&2; exit 3;; esac; {artifact}" &&
	git config -f proj/kg.conf bench.ok.command "{artifact}"
'

test_expect_success 'run --fail-on slower: exit 1 naming the benchmark, the bundle written' '
	test_expect_code 1 run_plumb -c proj/slow.conf -o out/slow.plumb --fail-on slower >stdout 2>err &&
	test_grep "^plumb: 1 benchmark slower (--fail-on slower): b$" err &&
	test_grep "^b  *wall  .* slower$" stdout &&
	plumb bundle verify out/slow.plumb >/dev/null &&
	test_expect_code 1 plumb report out/slow.plumb --fail-on slower >/dev/null 2>&1 &&
	test_expect_code 1 plumb report out/slow.plumb --fail-on noisy >/dev/null 2>&1
'

test_expect_success 'run --fail-on any and noisy gate on the same report; without it the run exits 0' '
	test_expect_code 1 run_plumb -c proj/slow.conf -o out/slow2.plumb --fail-on any >/dev/null 2>&1 &&
	test_expect_code 1 run_plumb -c proj/slow.conf -o out/slow3.plumb --fail-on noisy --json >out.json 2>err &&
	test_grep "(--fail-on noisy): b$" err &&
	test_json out.json "j[\"benches\"][0][\"verdict\"] == \"slower\"" &&
	run_plumb -c proj/slow.conf -o out/slow4.plumb >/dev/null 2>&1
'

test_expect_success 'a bad --fail-on is a usage error; so is --fail-on with --build-only' '
	test_expect_code 2 run_plumb -c proj/slow.conf --fail-on faster 2>err &&
	test_grep "fail-on takes slower, any or noisy" err &&
	test_expect_code 2 run_plumb -c proj/slow.conf --build-only --fail-on any 2>err &&
	test_grep "needs a measuring run" err &&
	test_expect_code 2 run_plumb -c proj/slow.conf --quiet --json 2>err
'

test_expect_success 'a failed benchmark: run and report exit 5 under --fail-on any, never 0' '
	test_expect_code 5 run_plumb -c proj/kg.conf -o out/kg.plumb --keep-going --fail-on any >stdout 2>err &&
	test_grep "^plumb: 1 benchmark failed (--fail-on any): b$" err &&
	test_expect_code 5 plumb report out/kg.plumb --fail-on any >/dev/null 2>err &&
	test_grep "^plumb: 1 benchmark failed (--fail-on any): b$" err &&
	test_expect_code 5 plumb report out/kg.plumb --fail-on slower >/dev/null 2>&1 &&
	test_expect_code 5 plumb report out/kg.plumb --fail-on noisy >/dev/null 2>&1 &&
	plumb report out/kg.plumb >/dev/null 2>&1 &&
	test_expect_code 5 plumb report out/kg.plumb --fail-on any --format json >kg.json 2>/dev/null &&
	test_json kg.json "j[\"failOn\"] == \"any\""
'

test_expect_success 'with --keep-going the progress never counts past its total' '
	test_expect_code 5 run_plumb -c proj/kg.conf -o out/kg2.plumb --keep-going >/dev/null 2>err &&
	sed -n "s/.* done: \([0-9]*\) of \([0-9]*\) runs.*/\1 \2/p" err >counts &&
	test -s counts &&
	while read done total; do
		test "$done" -le "$total" || { echo "$done of $total" >&2; return 1; }
	done <counts &&
	tail -n 1 counts >last &&
	read done total <last &&
	test "$done" = "$total" &&
	test_grep_not "ETA [0-9]\{6,\}" err
'

test_expect_success '--quiet prints nothing on a run that exits 0, else the verdict line and errors' '
	test_expect_code 1 run_plumb -c proj/slow.conf -o out/q.plumb --quiet --fail-on slower >stdout 2>err &&
	test_grep "^plumb: 1 benchmark: 1 slower$" stdout &&
	test "$(lines stdout)" = 1 &&
	test_grep "^plumb: 1 benchmark slower (--fail-on slower): b$" err &&
	test "$(lines err)" = 1 &&
	# Not gated, the same slower run exits 0: nothing at all, the bundle written.
	run_plumb -c proj/slow.conf -o out/q2.plumb -q >stdout 2>err &&
	! test -s stdout &&
	! test -s err &&
	plumb report out/q2.plumb >report &&
	test_grep "slower" report &&
	test_expect_code 5 run_plumb -c proj/kg.conf -o out/kg3.plumb --keep-going -q >stdout 2>err &&
	test_grep "^plumb: 2 benchmarks: .*1 failed" stdout &&
	test "$(lines stdout)" = 1 &&
	test_grep "benchmark.* failed" err
'

test_done
