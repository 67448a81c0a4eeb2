#!/bin/sh
test_description='plumb run: failed and stuck builds, the lock, signals, leftovers'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

# Unusual sleep lengths (with $MARK) mark the processes a run leaves behind.
LEFTOVER='sleep 317[0-9]'

test_expect_success 'set up a project with a broken branch' '
	make_project proj &&
	(
		cd proj &&
		git checkout -q -b broken &&
		echo "this is not C;" >>work.c &&
		git commit -q -a -m "broken" &&
		git checkout -q main
	) &&
	write_conf proj/plumb.conf
'

test_expect_success 'a failing build exits 4, names the variant and shows its log' '
	test_expect_code 4 run_build -c proj/plumb.conf --candidate broken 2>err &&
	test_grep "candidate pad 0 (c00): the build failed: exit status 2; log: $XDG_STATE_HOME/plumb/failed/run-.*/c00.log$" err &&
	test_grep "the diagnostics in the build log" err &&
	test_grep "  | .*work.c" err &&
	test_grep_not "^plumb: .* c01" err &&
	ls wd >left && test_grep_not "^run-" left
'

test_expect_success 'with --keep the failed run folder and its logs stay' '
	test_expect_code 4 run_build -c proj/plumb.conf --candidate broken --keep 2>err &&
	test_grep "the run folder is kept" err &&
	test -f wd/run-*/log/c00.log &&
	test -f wd/run-*/kept &&
	rm -rf wd
'

test_expect_success 'a build that makes no artifact exits 4' '
	write_conf proj/noart.conf build.command=true &&
	test_expect_code 4 run_build -c proj/noart.conf 2>err &&
	test_grep "did not make build.artifact .bench." err
'

test_expect_success 'a pad object that cannot be assembled exits 4 naming build.cc' '
	write_conf proj/cc.conf build.cc=false &&
	test_expect_code 4 run_build -c proj/cc.conf 2>err &&
	test_grep "build.cc" err
'

test_expect_success 'a build past build.timeout exits 4, and leaves no process behind' '
	write_conf proj/slow.conf build.timeout=1 \
		"build.command=sleep 3171.$MARK & sleep 3172.$MARK; make" &&
	test_expect_code 4 run_build -c proj/slow.conf 2>err &&
	test_grep "the build timed out: timed out after 1.00 s" err &&
	leftovers
'

test_expect_success 'a build that ignores SIGTERM is killed after the grace period' '
	write_conf proj/stubborn.conf build.timeout=1 \
		"build.command=trap \"\" TERM; sleep 3173.$MARK; make" &&
	test_expect_code 4 run_build -c proj/stubborn.conf 2>err &&
	test_grep "timed out after 1.00 s (killed after the grace period)" err &&
	leftovers
'

test_expect_success 'a background process left by a finished build is stopped' '
	write_conf proj/daemon.conf run.pads=1 run.control=false \
		"build.command=sleep 3174.$MARK >/dev/null 2>&1 & make" &&
	run_build -c proj/daemon.conf >out &&
	leftovers
'

test_expect_success 'a second run on the same work folder exits 75 naming the holder' '
	write_conf proj/wait.conf run.pads=1 run.control=false \
		"build.command=sleep 3175.$MARK; make" &&
	(run_build -c proj/wait.conf >first.out 2>first.err; echo $? >first.status) &
	# The holder is stopped whatever happens, so that no later test waits
	# for it: once its build runs (before that, pkill would find nothing).
	held=0 && wait_for pgrep -f "sleep 3175\.$MARK([^0-9]|$)" && test -s wd/lock || held=1
	code=0 && test_expect_code 75 run_build -c proj/plumb.conf 2>err || code=1
	pkill -TERM -f "sleep 3175\.$MARK([^0-9]|$)"
	wait_for test -s first.status &&
	test $held = 0 && test $code = 0 &&
	test_grep "lock: another run holds the lock (pid [0-9]* on host .*, started 20[0-9-]*T[0-9:]*Z, command: .*plumb run --build-only" err &&
	leftovers
'

test_expect_success 'SIGTERM during a build: exit 143, no child left, run folder removed' '
	rm -rf wd &&
	write_conf proj/term.conf "build.command=sleep 3176.$MARK; make" &&
	("$PLUMB" run --build-only --workdir "$TRASH/wd" -c proj/term.conf >term.out 2>term.err;
	 echo $? >term.status) &
	wait_for pgrep -f "sleep 3176\.$MARK([^0-9]|$)" &&
	pid=$(sed -n "s/^pid \([0-9]*\) .*/\1/p" wd/lock) &&
	kill -TERM "$pid" &&
	wait_for test -s term.status &&
	test "$(cat term.status)" = 143 &&
	leftovers &&
	ls wd >left &&
	test_grep_not "^run-" left
'

test_expect_success 'folders of runs that were killed are swept; kept ones stay' '
	mkdir -p wd/run-20000101T000000Z-1/v wd/run-20000101T000000Z-2 &&
	touch wd/run-20000101T000000Z-2/kept &&
	write_conf proj/ok.conf run.pads=1 run.control=false &&
	run_build -c proj/ok.conf >out &&
	! test -e wd/run-20000101T000000Z-1 &&
	test -d wd/run-20000101T000000Z-2
'

test_done
