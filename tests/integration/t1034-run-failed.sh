#!/bin/sh
test_description='plumb run: a failure keeps its whole log under $XDG_STATE_HOME/plumb/failed and quotes its diagnostics; --prune'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# A build log of 55 lines: 5 warnings, the three errors at lines 6-8 (and
# make's at 9), then 46 more warnings, as a compiler under -Wall prints.
test_expect_success 'set up a project' '
	make_project proj &&
	cat >proj/build.sh <<-\EOF &&
	i=0; while test $i -lt 5; do echo "work.c:$i:5: warning: unused variable x$i [-Wunused-variable]"; i=$((i + 1)); done
	echo "work.c:7:1: error: expected identifier before numeric constant"
	echo "work.c:9:3: error: unknown type name foo"
	echo "main.o: in function main: main.c:12: undefined reference to cold2"
	echo "make: *** [Makefile:2: bench] Error 1"
	i=0; while test $i -lt 45; do echo "work.c:$i:9: warning: unused parameter p$i [-Wunused-parameter]"; i=$((i + 1)); done
	exit 2
	EOF
	run_conf proj/broken.conf run.pads=1 run.control=false "build.command=sh $TRASH/proj/build.sh" &&
	run_conf proj/tail.conf run.pads=1 run.control=false \
		"build.command=echo compiling; echo linking; echo giving up; exit 1" &&
	run_conf proj/bench.conf run.pads=1 run.control=false \
		"bench.b.command=case {artifact} in */c00/*) echo warming up >&2; echo fatal error: no input >&2; exit 3;; esac; {artifact}"
'

test_expect_success 'a failed build names its kept log and quotes the error lines, not the warnings' '
	test_expect_code 4 run_plumb -c proj/broken.conf 2>err &&
	log=$(sed -n "s/.*the build failed: exit status 2; log: \(.*\)$/\1/p" err) &&
	test -n "$log" &&
	case $log in "$XDG_STATE_HOME"/plumb/failed/run-*/b00.log) ;; *) echo "$log" >&2; false ;; esac &&
	test -f "$log" &&
	test_grep "unused parameter p44" "$log" &&
	# The log begins with the lines plumb writes (the command): errors at 8-11.
	test_grep "^plumb: the diagnostics in the build log (lines [6-9]-[0-9]* of 5[0-9]):$" err &&
	test_grep "^  | work.c:7:1: error: expected identifier" err &&
	test_grep "^  | main.o: in function main: main.c:12: undefined reference to cold2" err &&
	test_grep "^  | make: \*\*\* \[Makefile:2: bench\] Error 1" err &&
	test_grep_not "  | .*warning: unused" err &&
	ls wd >left && test_grep_not "^run-" left
'

test_expect_success 'without diagnostics the message quotes the tail of the log' '
	test_expect_code 4 run_plumb -c proj/tail.conf --build-only 2>err &&
	test_grep "^plumb: the last lines of the build log:$" err &&
	test_grep "^  | giving up$" err &&
	log=$(sed -n "s/.*; log: \(.*\)$/\1/p" err) &&
	test_grep "^compiling$" "$log"
'

test_expect_success 'a failed benchmark keeps its log and quotes its diagnostics' '
	test_expect_code 5 run_plumb -c proj/bench.conf -o b.plumb 2>err &&
	test_grep "benchmark b: candidate/0 (c00) failed in round 1: exit status 3; nothing was published; log: $XDG_STATE_HOME/plumb/failed/run-.*/bench-b-c00.log$" err &&
	test_grep "^plumb: the diagnostics in its standard error (line 2 of 2):$" err &&
	test_grep "^  | fatal error: no input$" err &&
	log=$(sed -n "s/.*; log: \(.*\)$/\1/p" err) &&
	test_grep "^warming up$" "$log"
'

test_expect_success '--keep-going names the kept log too; the bundle holds the failure and its log' '
	test_expect_code 5 run_plumb -c proj/bench.conf -o kg.plumb --keep-going 2>err &&
	test_grep "recorded, going on (--keep-going); log: $XDG_STATE_HOME/plumb/failed/run-.*/bench-b-c00.log$" err &&
	manifest kg.plumb kg &&
	test_grep "fatal error: no input" kg/logs/bench-b-c00.log &&
	test_json kg/manifest.json "j[\"benches\"][0][\"failure\"].startswith(\"candidate/0 (c00) failed in round 1\") and j[\"benches\"][0][\"failureLog\"] == \"logs/bench-b-c00.log\"" &&
	sed "s|\"failureLog\": \"logs/|\"failureLog\": \"../|" kg/manifest.json >kg/m2 && mv kg/m2 kg/manifest.json &&
	rm -f kg/SHA256SUMS kg/SHA256SUMS.sig &&
	test_expect_code 3 plumb report kg 2>err &&
	test_grep "failureLog: expected a member under logs/" err
'

test_expect_success 'the logs of failures are pruned by age: 30 days, or --prune AGE' '
	ls "$XDG_STATE_HOME/plumb/failed" >before &&
	test "$(wc -l <before)" -ge 3 &&
	old=$(head -n 1 before) &&
	touch -d "40 days ago" "$XDG_STATE_HOME/plumb/failed/$old" &&
	run_plumb -c proj/tail.conf --build-only 2>/dev/null;
	! test -e "$XDG_STATE_HOME/plumb/failed/$old" &&
	next=$(sed -n 2p before) &&
	touch -d "3 days ago" "$XDG_STATE_HOME/plumb/failed/$next" &&
	run_plumb -c proj/tail.conf --build-only 2>/dev/null;
	test -e "$XDG_STATE_HOME/plumb/failed/$next" &&
	run_conf proj/ok.conf run.pads=1 run.control=false &&
	run_plumb -c proj/ok.conf --build-only --prune=2d >/dev/null 2>err &&
	! test -e "$XDG_STATE_HOME/plumb/failed/$next"
'

test_expect_success '--prune removes kept run folders older than AGE, never a live run'"'"'s' '
	rm -rf wd &&
	run_plumb -c proj/ok.conf --build-only --keep >/dev/null 2>&1 &&
	run_plumb -c proj/ok.conf --build-only --keep >/dev/null 2>&1 &&
	ls -d wd/run-* >kept &&
	test "$(wc -l <kept)" = 2 &&
	first=$(head -n 1 kept) && second=$(sed -n 2p kept) &&
	touch -d "20 days ago" "$first/kept" &&
	mkdir wd/run-20200101T000000Z-$$ && touch -d "20 days ago" wd/run-20200101T000000Z-$$/kept &&
	run_plumb -c proj/ok.conf --build-only --prune >/dev/null 2>err &&
	test_grep "^plumb: --prune: removed 1 kept run folder ([0-9.]* [kMG]i*B) older than 14d from .*wd$" err &&
	! test -e "$first" &&
	test -e "$second" &&
	test -e wd/run-20200101T000000Z-$$ &&
	touch -d "3 days ago" "$second/kept" &&
	run_plumb -c proj/ok.conf --build-only --prune=36h -q >out 2>err &&
	! test -e "$second" &&
	! test -s err
'

test_expect_success 'a bad --prune age is a usage error' '
	test_expect_code 2 run_plumb -c proj/ok.conf --prune=soon 2>err &&
	test_grep "prune: .soon. is not an age" err &&
	test_expect_code 2 run_plumb -c proj/ok.conf --prune --dry-run 2>err
'

test_done
