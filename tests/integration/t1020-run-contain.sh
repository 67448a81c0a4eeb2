#!/bin/sh
test_description='plumb run: daemons, double forks and grandchildren of builds and benchmarks are killed at the end of their run, under cgroup2 and under the subreaper fallback, and a SIGKILLed plumb leaves nothing running after the next run'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

LEFTOVER=32
. "$TEST_SRCDIR/tests/integration/lib-contain.sh"

method() {
	manifest "$1" m &&
	test_json m/manifest.json "j[\"run\"][\"containment\"][\"method\"] == \"$2\""
}

test_expect_success 'set up a project' '
	make_project proj &&
	mkdir out
'

# A daemon (setsid, out of the group and the session) started by every run.
test_expect_success PYTHON 'a benchmark that starts a daemon: killed after each run, said, recorded (cgroup2 or subreaper)' '
	run_conf proj/daemon.conf run.pads=1 run.control=false \
		"bench.b.command=setsid sleep 3201.$MARK >/dev/null 2>&1 & {artifact}" &&
	run_plumb -c proj/daemon.conf -o out/daemon.plumb >stdout 2>err &&
	leftovers &&
	test_grep "benchmark b: base/0, round 1, left 1 process running; killed" err &&
	manifest out/daemon.plumb m &&
	test_json m/manifest.json "\"6 runs left processes running (6 in all); plumb killed them as each run ended\" in j[\"benches\"][0][\"notes\"]" &&
	test_json m/manifest.json "j[\"run\"][\"containment\"][\"method\"] in (\"cgroup2\", \"subreaper\")"
'

test_expect_success PYTHON,CGROUP2 'where a cgroup2 can be made, it is the method' '
	method out/daemon.plumb cgroup2
'

test_expect_success PYTHON 'PLUMB_CONTAIN=subreaper: the fallback kills the daemon too, and says why it was used' '
	PLUMB_CONTAIN=subreaper run_plumb -c proj/daemon.conf -o out/sub.plumb >stdout 2>err &&
	leftovers &&
	test_grep "left 1 process running; killed" err &&
	method out/sub.plumb subreaper &&
	test_json m/manifest.json "\"reason\" not in j[\"run\"][\"containment\"]"
'

test_expect_success 'a bad PLUMB_CONTAIN is exit 3 naming it' '
	test_expect_code 3 env PLUMB_CONTAIN=jail "$PLUMB" run --workdir "$TRASH/wd" \
		-c proj/daemon.conf -o out/bad.plumb 2>err &&
	test_grep "PLUMB_CONTAIN: .jail. is not auto, cgroup or subreaper" err &&
	! test -e out/bad.plumb
'

# `sleep | cat` in a new session, holding the benchmark's stdout: the
# harness used to wait 2 s per run for the pipe to close.
for mode in auto subreaper; do
	test_expect_success "a sleep | cat daemon holding the output pipes ($mode): no process left, no wait for the pipes" '
		run_conf proj/pipe.conf run.pads=1 run.control=false bench.b.checksum=required \
			"bench.b.command=setsid sh -c \"sleep 3202.$MARK | cat\" & echo checksum=1; {artifact}" &&
		t0=$(date +%s) &&
		PLUMB_CONTAIN='"$mode"' run_plumb -c proj/pipe.conf -o out/pipe.plumb >stdout 2>err &&
		t1=$(date +%s) &&
		leftovers &&
		test_grep "left [0-9]* process\(es\)\{0,1\} running; killed" err &&
		# 6 runs: at 2 s each for the drain it would take 12 s or more.
		test $((t1 - t0)) -lt 10
	'
done

test_expect_success 'a build that double-forks a daemon: killed, and said' '
	write_conf proj/bd.conf run.pads=1 run.control=false \
		"build.command=sh -c \"setsid sleep 3203.$MARK >/dev/null 2>&1 &\"; make" &&
	run_build -c proj/bd.conf >out.txt 2>err &&
	leftovers &&
	test_grep "b00: the build left 1 process running; killed" err
'

test_expect_success 'a daemon started by a failing benchmark is killed too' '
	run_conf proj/fail.conf run.pads=1 run.control=false \
		"bench.b.command=setsid sleep 3204.$MARK >/dev/null 2>&1 & {artifact} && exit 3" &&
	test_expect_code 5 run_plumb -c proj/fail.conf -o out/fail.plumb >stdout 2>err &&
	leftovers
'

# kill9 CONF MARKER [ARGS]: start plumb run, wait for the marker sleep,
# SIGKILL plumb (no handler runs).
kill9() {
	rm -rf wd9 && rm -f status round2 &&
	conf=$1 marker=$2 && shift 2 || return 1
	("$PLUMB" run --workdir "$TRASH/wd9" -c "$conf" "$@" >run9.out 2>run9.err; echo $? >status) &
	wait_for pgrep -f "sleep $marker\.$MARK([^0-9]|$)" &&
	pid=$(sed -n "s/^pid \([0-9]*\) .*/\1/p" wd9/lock) &&
	test -n "$pid" &&
	kill -KILL "$pid" &&
	wait_for test -s status &&
	test "$(cat status)" = 137
}

# The documented clean-up: the next plumb that runs a child in the same
# cgroup kills and removes what a dead plumb's cgroup still holds.
next_run() {
	run_build -c proj/plain.conf >next.out 2>next.err
}

test_expect_success CGROUP2 'plumb SIGKILLed during a build (sleep | cat): nothing runs after the next plumb run' '
	write_conf proj/plain.conf run.pads=1 run.control=false &&
	write_conf proj/k9b.conf "build.command=sleep 3205.$MARK | cat; make" &&
	kill9 proj/k9b.conf 3205 --build-only &&
	next_run &&
	leftovers
'

test_expect_success CGROUP2 'plumb SIGKILLed while measuring (sleep | cat): nothing runs after the next plumb run' '
	run_conf proj/k9m.conf \
		"bench.b.command=if test -e round2; then sleep 3206.$MARK | cat; fi; touch round2; {artifact}" &&
	kill9 proj/k9m.conf 3206 -o out/k9.plumb &&
	next_run &&
	leftovers &&
	! test -e out/k9.plumb
'

test_expect_success CGROUP2 'the direct child goes with plumb at once (PR_SET_PDEATHSIG), before any clean-up' '
	write_conf proj/k9d.conf "build.command=sleep 3207.$MARK" &&
	kill9 proj/k9d.conf 3207 --build-only &&
	wait_for sh -c "! pgrep -f \"sleep 3207\\.$MARK([^0-9]|\$)\" >/dev/null"
'

test_done
