#!/bin/sh
test_description='plumb run: one machine-wide lock whatever the work folder; --wait; a stale lock is taken over'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# The first run's build waits for the file go: it holds the lock until then.
test_expect_success 'set up a project' '
	make_project proj &&
	run_conf proj/hold.conf run.pads=1 run.control=false \
		"build.command=while ! test -e $TRASH/go; do sleep 0.05; done; make" &&
	run_conf proj/quick.conf run.pads=1 run.control=false
'

# start_holder NAME: a first run in its own work folder and HOME, in the background.
start_holder() {
	rm -f go "$1.status" &&
	(HOME="$TRASH/h-$1" XDG_CACHE_HOME="$TRASH/h-$1/cache" \
		plumb run -c proj/hold.conf --workdir "$TRASH/wd-$1" -o "$TRASH/$1.plumb" \
		>"$1.out" 2>"$1.err"; echo $? >"$1.status") &
	wait_for grep -q "command: .*plumb run -c proj/hold.conf" "$PLUMB_LOCK"
}

test_expect_success 'a second run in another work folder and HOME exits 75 naming the holder' '
	start_holder a &&
	test_expect_code 75 env HOME="$TRASH/h-b" XDG_CACHE_HOME="$TRASH/h-b/cache" "$PLUMB" \
		run -c proj/quick.conf --workdir "$TRASH/wd-b" -o b.plumb 2>err &&
	test_grep "machine.lock: another run holds the lock (pid [0-9]* on host .*, started 20[0-9-]*T[0-9:]*Z, command: .*plumb run -c proj/hold.conf" err &&
	test_grep "try again later, or --wait" err &&
	! test -e b.plumb &&
	! test -e wd-b/lock &&
	touch go &&
	wait_for test -s a.status &&
	test "$(cat a.status)" = 0
'

test_expect_success 'with --wait the second run says who holds the lock, waits, then runs' '
	start_holder c &&
	(plumb run -c proj/quick.conf --workdir "$TRASH/wd-d" -o d.plumb --wait >d.out 2>d.err;
	 echo $? >d.status) &
	wait_for grep -q "waiting for the lock" d.err &&
	test_grep "^plumb: waiting for the lock .*machine.lock, held by pid [0-9]* on host .*, command: .*hold.conf" d.err &&
	! test -e d.status &&
	touch go &&
	wait_for test -s d.status &&
	test "$(cat d.status)" = 0 &&
	test "$(cat c.status)" = 0 &&
	test -s d.plumb
'

test_expect_success '--wait=DURATION gives up after it with 75; a bad duration is a usage error' '
	start_holder e &&
	test_expect_code 75 plumb run -c proj/quick.conf --workdir "$TRASH/wd-f" --wait=1s 2>err &&
	test_grep "waited long enough (--wait)" err &&
	touch go &&
	wait_for test -s e.status &&
	test_expect_code 2 plumb run -c proj/quick.conf --wait=soon 2>err &&
	test_grep "wait: .soon. is not a duration" err &&
	test_expect_code 2 plumb run -c proj/quick.conf --wait= 2>err
'

test_expect_success 'a lock left by a run that died is taken over, and said so' '
	printf "# plumb lock\npid 999999 on host gone, started 2026-01-01T00:00:00Z, command: plumb run\n" >"$PLUMB_LOCK" &&
	plumb run -c proj/quick.conf --workdir "$TRASH/wd-g" -o g.plumb >out 2>err &&
	test_grep "machine.lock: taken over from a holder that ended without releasing it (pid 999999 on host gone" err &&
	test -s g.plumb &&
	echo "# plumb lock" >expect &&
	test_cmp expect "$PLUMB_LOCK"
'

test_expect_success 'a run killed with SIGKILL leaves a lock the next run takes over' '
	start_holder h &&
	pid=$(sed -n "s/^pid \([0-9]*\) .*/\1/p" "$PLUMB_LOCK") &&
	kill -KILL "$pid" &&
	wait_for test -s h.status &&
	touch go &&
	plumb run -c proj/quick.conf --workdir "$TRASH/wd-i" -o i.plumb >out 2>err &&
	test_grep "taken over from a holder that ended without releasing it (pid $pid " err
'

test_expect_success 'the holder line is escaped: anyone may write the lock file' '
	printf "# plumb lock\npid 1 \033]0;owned\007 on host x\n" >"$PLUMB_LOCK" &&
	plumb run -c proj/quick.conf --workdir "$TRASH/wd-j" -o j.plumb >out 2>err &&
	test_grep "taken over" err &&
	! grep -q "$(printf "\033")" err
'

test_expect_success 'run.lock chooses the file; PLUMB_LOCK wins over it' '
	git config -f proj/quick.conf run.lock "$TRASH/conf.lock" &&
	(unset PLUMB_LOCK; "$PLUMB" run -c proj/quick.conf --workdir "$TRASH/wd-k" -o k.plumb >out 2>err) &&
	test -e conf.lock &&
	test "$(stat -c %a conf.lock)" = 666 &&
	rm conf.lock &&
	plumb run -c proj/quick.conf --workdir "$TRASH/wd-l" -o l.plumb >out 2>err &&
	! test -e conf.lock &&
	plumb run -c proj/quick.conf --dry-run >dry &&
	test_grep "lock = $TRASH/conf.lock" dry
'

test_expect_success 'without either: /run/lock, else /var/lock, else XDG_RUNTIME_DIR (under PLUMB_SYSROOT)' '
	git config -f proj/quick.conf --unset run.lock &&
	mkdir -p root/run/lock root/var/lock rt &&
	(unset PLUMB_LOCK; PLUMB_SYSROOT="$TRASH/root" XDG_RUNTIME_DIR="$TRASH/rt" \
		"$PLUMB" run -c proj/quick.conf --workdir "$TRASH/wd-m" -o m.plumb >out 2>err) &&
	test -e root/run/lock/plumb &&
	rm -r root/run/lock &&
	(unset PLUMB_LOCK; PLUMB_SYSROOT="$TRASH/root" XDG_RUNTIME_DIR="$TRASH/rt" \
		"$PLUMB" run -c proj/quick.conf --workdir "$TRASH/wd-n" -o n.plumb >out 2>err) &&
	test -e root/var/lock/plumb &&
	rm -r root/var/lock &&
	(unset PLUMB_LOCK; PLUMB_SYSROOT="$TRASH/root" XDG_RUNTIME_DIR="$TRASH/rt" \
		"$PLUMB" run -c proj/quick.conf --workdir "$TRASH/wd-o" -o o.plumb >out 2>err) &&
	test -e rt/plumb.lock &&
	(unset PLUMB_LOCK XDG_RUNTIME_DIR; PLUMB_SYSROOT="$TRASH/root" &&
		export PLUMB_SYSROOT &&
		test_expect_code 3 plumb run -c proj/quick.conf --workdir "$TRASH/wd-p" 2>err) &&
	test_grep "set run.lock or PLUMB_LOCK" err
'

test_done
