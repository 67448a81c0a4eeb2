#!/bin/sh
test_description='plumb run: daemons, double forks and grandchildren of builds and benchmarks are killed at the end of their run, under cgroup2 and under the subreaper fallback, and a SIGKILLed plumb leaves nothing running within seconds (its watcher), or after the next run when the watcher was killed too'
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

# Under cgroup2 the runs below start in a cgroup of this test's own, so
# that plumb's cgroup is made there and no other plumb on this machine
# (which removes the cgroups of dead plumbs beside its own) cleans up for
# the watcher.
cg_test="$cg_mount$cg_own/t1020.$MARK"

# kill9 MODE CONF MARKER [ARGS]: start plumb run under PLUMB_CONTAIN=MODE
# (in $cg_test under cgroup), wait for the marker sleep, SIGKILL plumb (no
# handler runs); $killed_at is when, in ns.
kill9() {
	rm -rf wd9 && rm -f status round2 &&
	mode=$1 conf=$2 marker=$3 && shift 3 || return 1
	if test "$mode" = cgroup; then into=$cg_test; else into=-; fi
	(sh -c 'test "$1" = - || echo $$ >"$1/cgroup.procs" || exit 99; shift; exec "$@"' - "$into" \
		env PLUMB_CONTAIN=$mode "$PLUMB" run --workdir "$TRASH/wd9" -c "$conf" "$@" \
		>run9.out 2>run9.err; echo $? >status) &
	wait_for pgrep -f "sleep $marker\.$MARK([^0-9]|$)" >/dev/null &&
	pid=$(sed -n "s/^pid \([0-9]*\) .*/\1/p" wd9/lock) &&
	test -n "$pid" &&
	killed_at=$(date +%s%N) &&
	kill -KILL "$pid" &&
	wait_for test -s status &&
	test "$(cat status)" = 137
}

# gone_soon MARKER...: every marker sleep, plumb's watcher (whose command
# line is plumb's) and plumb's cgroup in $cg_test end within 5 s of the
# kill, with no other plumb run; the time it took is noted.
gone_soon() {
	i=0
	for marker in "$@" -; do
		while { test "$marker" != - && pgrep -f "sleep $marker\.$MARK([^0-9]|$)" >/dev/null; } ||
		      pgrep -f -- "--workdir $TRASH/wd9 " >/dev/null ||
		      ls -d "$cg_test"/plumb.* >/dev/null 2>&1; do
			i=$((i + 1))
			test $i -le 100 || {
				leftovers
				pgrep -a -f -- "--workdir $TRASH/wd9 " >&2
				ls -d "$cg_test"/plumb.* >&2
				return 1
			}
			sleep 0.05
		done
	done
	echo "gone $(( ($(date +%s%N) - killed_at) / 1000000 )) ms after the kill" >>"$TRASH/gone.times"
}

# A build's grandchild that stays in its process group (sh -c 'sleep &
# wait'), and under cgroup2 a daemon that left it (setsid): both gone,
# with plumb's cgroup, seconds after plumb was killed.  The same while
# measuring (round 2), and in a build worker (build.jobs): under both
# containments.  (Under subreaper a daemon that left the group outlives a
# SIGKILLed plumb, as plumb(1) says: those runs start none.)
test_expect_success 'set up builds and benchmarks that hang with a grandchild' '
	if test_have_prereq CGROUP2; then mkdir "$cg_test"; fi &&
	write_conf proj/plain.conf run.pads=1 run.control=false &&
	for d in daemon none; do
		if test $d = daemon; then
			b="setsid sleep 3208.$MARK >/dev/null 2>&1 & " m="setsid sleep 3209.$MARK >/dev/null 2>&1 & "
			w="setsid sleep 3210.$MARK >/dev/null 2>&1 &"
		else
			b= m= w=:
		fi &&
		write_conf proj/k9b-$d.conf "build.command=sh -c \"${b}sleep 3205.$MARK & wait\"; make" &&
		run_conf proj/k9m-$d.conf \
			"bench.b.command=if test -e $TRASH/round2; then ${m}sleep 3206.$MARK & wait; fi; touch $TRASH/round2; {artifact}" &&
		cat >build-$d.sh <<-EOF &&
		if test "\$PLUMB_PAD" = 2 && mkdir "$TRASH/hung-$d" 2>/dev/null; then
			$w
			sleep 3211.$MARK &
			wait
		fi
		make
		EOF
		run_conf proj/k9w-$d.conf run.pads=3 build.jobs=2 "build.command=sh $TRASH/build-$d.sh" ||
		return 1
	done
'

for mode in cgroup subreaper; do
	if test $mode = cgroup; then pre=CGROUP2 d=daemon b=3208 m=3209 w=3210
	else pre= d=none b= m= w=; fi
	test_expect_success $pre "plumb SIGKILLed during a build: its grandchild is gone within seconds ($mode)" '
		kill9 '$mode' proj/k9b-'$d'.conf 3205 --build-only &&
		gone_soon 3205 '$b'
	'
	test_expect_success $pre "plumb SIGKILLed while measuring: the benchmark's grandchild is gone within seconds ($mode)" '
		kill9 '$mode' proj/k9m-'$d'.conf 3206 -o out/k9.plumb &&
		gone_soon 3206 '$m' &&
		! test -e out/k9.plumb
	'
	test_expect_success $pre "plumb SIGKILLed during a worker's build (build.jobs): its grandchild is gone within seconds ($mode)" '
		kill9 '$mode' proj/k9w-'$d'.conf 3211 --build-only --no-cache &&
		gone_soon 3211 '$w'
	'
done

# The documented last resort: should the watcher be killed with plumb, the
# next plumb that runs a child in the same cgroup kills and removes what a
# dead plumb's cgroup still holds.  (Any plumb: one of another test on
# this machine may come first.)
test_expect_success CGROUP2 'plumb and its watcher SIGKILLed during a build: nothing runs after the next plumb run' '
	write_conf proj/k9x.conf "build.command=setsid sleep 3212.$MARK >/dev/null 2>&1 & exec sleep 3213.$MARK" &&
	rm -rf wd9 && rm -f status &&
	(PLUMB_CONTAIN=cgroup "$PLUMB" run --workdir "$TRASH/wd9" -c proj/k9x.conf --build-only \
		>run9.out 2>run9.err; echo $? >status) &
	wait_for pgrep -f "^sleep 3212\.$MARK([^0-9]|$)" >/dev/null &&
	pid=$(sed -n "s/^pid \([0-9]*\) .*/\1/p" wd9/lock) &&
	watcher=$(pgrep -P "$pid" -x plumb-watcher) &&
	test -n "$watcher" &&
	kill -KILL "$watcher" "$pid" &&
	wait_for test -s status &&
	run_build -c proj/plain.conf >next.out 2>next.err &&
	leftovers
'

test_expect_success CGROUP2 'the direct child goes with plumb at once (PR_SET_PDEATHSIG)' '
	write_conf proj/k9d.conf "build.command=sleep 3207.$MARK" &&
	kill9 cgroup proj/k9d.conf 3207 --build-only &&
	gone_soon 3207
'

test_expect_success CGROUP2 'the test'"'"'s cgroup is left empty' '
	rmdir "$cg_test"
'

test_done
