#!/bin/sh
test_description='plumb audit --remeasure: the recorded commands run only when a trusted key signed the bundle or with --trust-commands, a folder without SHA256SUMS never, and only at the recorded commits'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

M="$TRASH/marks"
TRUSTED="$HOME/.config/plumb/trusted"

test_expect_success 'a bundle whose every command leaves a mark, unsigned, signed and wrongly signed' '
	marked_bundles "$M"
'

# remeasure NAME ARGS...: audit --remeasure with a build cache and a work
# folder of its own (a cached build or pad object would run no command).
remeasure() {
	name=$1
	shift
	XDG_CACHE_HOME="$TRASH/cache-$name" plumb audit --remeasure --bundle "$name.plumb" "$@"
}

test_expect_success 'unsigned: the commands are printed instead of run, exit 3' '
	test_expect_code 3 remeasure u unsigned.plumb >out 2>err &&
	test_grep "^plumb: unsigned.plumb: not signed, and no trusted key is set up (-p KEY.pub, or KEY.pub in $TRUSTED): its commands were not run (printed above: check them, then --trust-commands)$" err &&
	test_grep "^# build.command runs through /bin/sh -c (shell syntax): touch $M/build && make$" out &&
	test_grep "^# bench.b.prepare runs 2 words" out &&
	none_marked "$M" &&
	! test -e u.plumb &&
	test_expect_code 2 plumb audit unsigned.plumb --trust-commands 2>err &&
	test_grep "go with --remeasure" err
'

test_expect_success 'signed by an unknown key while a trusted key is set up: refused, exit 3' '
	mkdir -p "$TRUSTED" && cp k.pub "$TRUSTED/" &&
	test_expect_code 3 remeasure w wrong.plumb >out 2>err &&
	test_grep "^Integrity: FAIL (wrong.plumb: SHA256SUMS.sig: signed with key [0-9A-F]*, which is none of the 1 trusted key)$" out &&
	none_marked "$M" &&
	test_expect_code 3 remeasure u unsigned.plumb >out 2>err &&
	test_grep "^plumb: unsigned.plumb: not signed by any of the 1 trusted key in $TRUSTED: " err &&
	none_marked "$M" &&
	! test -e w.plumb && ! test -e u.plumb
'

test_expect_success 'signed by a trusted key: measured again, every command ran' '
	{ remeasure s signed.plumb >out 2>err || test $? = 1; } &&
	test_grep "^Re-measurement on this host: " out &&
	test -s s.plumb &&
	all_marked "$M"
'

test_expect_success '--trust-commands: an unsigned bundle is measured again' '
	{ remeasure t unsigned.plumb --trust-commands >out 2>err || test $? = 1; } &&
	test_grep "^Re-measurement on this host: " out &&
	test -s t.plumb &&
	all_marked "$M"
'

test_expect_success 'an extracted folder without SHA256SUMS is never measured again' '
	plumb bundle extract signed.plumb dir >/dev/null &&
	rm dir/SHA256SUMS dir/SHA256SUMS.sig &&
	test_expect_code 3 remeasure d dir --trust-commands >out 2>err &&
	test_grep "^plumb: dir: a folder without SHA256SUMS: nothing in it is checked, so its commands (printed above) never run, not even with --trust-commands$" err &&
	none_marked "$M" &&
	! test -e d.plumb
'

test_expect_success 'the recorded branch moved: refused naming both commits, exit 3' '
	recorded=$(git -C proj rev-parse main) &&
	git -C proj commit -q --allow-empty -m "moved on" &&
	moved=$(git -C proj rev-parse main) &&
	test_expect_code 3 remeasure m signed.plumb >out 2>err &&
	test_grep "^plumb: run.candidate: .main. is commit $moved in $TRASH/proj, but signed.plumb recorded $recorded: refused" err &&
	none_marked "$M" &&
	! test -e m.plumb
'

test_done
