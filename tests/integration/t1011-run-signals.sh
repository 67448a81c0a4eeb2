#!/bin/sh
test_description='plumb run: SIGTERM and SIGINT while measuring leave no child and no file behind'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# Unusual sleep lengths (with $MARK) mark the processes a run leaves behind.
LEFTOVER='sleep 319[0-9]'

test_expect_success 'set up a project whose benchmark sleeps from its second run on' '
	make_project proj &&
	mkdir out &&
	run_conf proj/plumb.conf \
		"bench.b.command=if test -e round2; then sleep 3195.$MARK; fi; touch round2; {artifact}"
'

# stop SIGNAL STATUS: start a run, wait for the sleeping benchmark, signal plumb.
stop() {
	rm -f round2 status &&
	(run_plumb -c proj/plumb.conf -o out/x.plumb >run.out 2>run.err; echo $? >status) &
	wait_for pgrep -f "sleep 3195\.$MARK([^0-9]|$)" &&
	pid=$(sed -n "s/^pid \([0-9]*\) .*/\1/p" wd/lock) &&
	test -n "$pid" &&
	kill -"$1" "$pid" &&
	wait_for test -s status &&
	test "$(cat status)" = "$2"
}

test_expect_success 'SIGTERM: exit 143, no child process, no run folder, no bundle' '
	stop TERM 143 &&
	leftovers &&
	ls wd >left && test_grep_not "^run-" left &&
	no_bundle out && no_bundle .
'

test_expect_success 'SIGINT: exit 130, the same' '
	stop INT 130 &&
	leftovers &&
	ls wd >left && test_grep_not "^run-" left &&
	no_bundle out
'

test_done
