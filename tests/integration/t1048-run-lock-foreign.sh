#!/bin/sh
test_description='plumb run: a lock path that is not a lock file plumb made (a foreign file, a link, a FIFO, a folder) is refused, exit 3, and left as it was; an empty one is locked unwritten'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test_expect_success 'a project; a file of its own user, 0600, that is no lock' '
	make_project proj &&
	run_conf proj/quick.conf run.pads=1 run.control=false run.rounds=1 &&
	printf "ssh-ed25519 AAAAC3Nza secret key material\nsecond line\n" >foreign &&
	chmod 600 foreign && cp foreign foreign.orig
'

# kept PATH: the file still has its bytes and its mode 600, and plumb
# printed none of it.
kept() {
	cmp "$1" foreign.orig &&
	test "$(stat -c %a "$1")" = 600 &&
	! grep -q "secret" out err
}

test_expect_success 'run.lock naming a foreign file: refused naming it, its bytes and mode kept' '
	git config -f proj/quick.conf run.lock "$TRASH/foreign" &&
	(unset PLUMB_LOCK && test_expect_code 3 "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-a" -o a.plumb >out 2>err) &&
	test_grep "^plumb: $TRASH/foreign: not a lock file plumb made (its first line is not .# plumb lock.): plumb writes no file it did not make; remove it or choose another lock (run.lock, PLUMB_LOCK)$" err &&
	kept foreign &&
	! test -e a.plumb &&
	git config -f proj/quick.conf --unset run.lock
'

test_expect_success 'PLUMB_LOCK naming a foreign file: the same, with --wait too' '
	test_expect_code 3 env PLUMB_LOCK="$TRASH/foreign" "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-b" -o b.plumb --wait=2s >out 2>err &&
	test_grep "^plumb: $TRASH/foreign: not a lock file plumb made" err &&
	kept foreign &&
	! test -e b.plumb
'

test_expect_success 'an empty file (an older plumb lock) is locked as it is: nothing written, its mode kept' '
	: >empty && chmod 600 empty &&
	env PLUMB_LOCK="$TRASH/empty" "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-c" -o c.plumb >out 2>err &&
	test -s c.plumb &&
	! test -s empty &&
	test "$(stat -c %a empty)" = 600
'

test_expect_success 'an empty lock is exclusive all the same: a second run finds it held, exit 75' '
	: >empty2 &&
	(flock -x 9 && test_expect_code 75 env PLUMB_LOCK="$TRASH/empty2" "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-c2" >out 2>err) 9<empty2 &&
	test_grep "another run holds the lock" err &&
	! test -s empty2
'

test_expect_success 'a symbolic link to a foreign file: refused, the file kept' '
	ln -s foreign link &&
	test_expect_code 3 env PLUMB_LOCK="$TRASH/link" "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-d" >out 2>err &&
	test_grep "^plumb: $TRASH/link: the lock is a symbolic link, not a regular file$" err &&
	kept foreign
'

test_expect_success 'a FIFO: refused at once, nothing waits for a writer' '
	mkfifo fifo &&
	test_expect_code 3 env PLUMB_LOCK="$TRASH/fifo" timeout 60 "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-e" >out 2>err &&
	test_grep "^plumb: $TRASH/fifo: the lock is a FIFO, not a regular file$" err &&
	test -p fifo
'

test_expect_success 'a folder: refused' '
	mkdir folder &&
	test_expect_code 3 env PLUMB_LOCK="$TRASH/folder" "$PLUMB" run -c proj/quick.conf \
		--workdir "$TRASH/wd-f" >out 2>err &&
	test_grep "^plumb: $TRASH/folder: the lock is a folder, not a regular file$" err &&
	test -d folder
'

test_expect_success 'the lock of a work folder: a foreign file named lock there is refused and kept' '
	mkdir wd-g && cp foreign wd-g/lock && chmod 600 wd-g/lock &&
	test_expect_code 3 plumb run -c proj/quick.conf --workdir "$TRASH/wd-g" -o g.plumb >out 2>err &&
	test_grep "^plumb: $TRASH/wd-g/lock: not a lock file plumb made" err &&
	kept wd-g/lock &&
	! test -e g.plumb
'

test_expect_success 'a lock plumb makes starts with its line and is left with it alone' '
	env PLUMB_LOCK="$TRASH/made.lock" "$PLUMB" run -c proj/quick.conf --workdir "$TRASH/wd-h" \
		-o h.plumb >out 2>err &&
	echo "# plumb lock" >expect &&
	test_cmp expect made.lock &&
	test "$(stat -c %a made.lock)" = 666 &&
	test_cmp expect wd-h/lock &&
	env PLUMB_LOCK="$TRASH/made.lock" "$PLUMB" run -c proj/quick.conf --workdir "$TRASH/wd-h" \
		-o h2.plumb >out 2>err &&
	test -s h2.plumb &&
	ls -a >listing &&
	test_grep_not "\.tmp\." listing
'

test_done
