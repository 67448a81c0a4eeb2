#!/bin/sh
test_description='plumb run --from: a bundle is data; its commands run only when a trusted key signed it or with --trust-commands, a folder without SHA256SUMS never, and only at the commits it recorded'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

M="$TRASH/marks"
TRUSTED="$HOME/.config/plumb/trusted"

test_expect_success 'a bundle whose every command leaves a mark; a key pair, and another' '
	marked_bundles "$M"
'

# The plan: what --dry-run prints, every command a line.
plan_shown() {
	test_grep "^	command = touch $M/build && make$" "$1" &&
	test_grep "^# build.cc runs 5 words: \[$M.cc\] \[-c\]" "$1" &&
	test_grep "^# build.command runs through /bin/sh -c (shell syntax): touch $M/build && make$" "$1" &&
	test_grep "^# run.setup runs 2 words: \[touch\] \[$M/run-setup\]$" "$1" &&
	test_grep "^# bench.b.setup runs 2 words" "$1" &&
	test_grep "^# bench.b.prepare runs 2 words" "$1" &&
	test_grep "^# bench.b.command runs through /bin/sh -c" "$1" &&
	test_grep "^# bench.b.cleanup runs 2 words" "$1" &&
	test_grep "^# run.cleanup runs 2 words" "$1"
}

test_expect_success 'unsigned, no trusted key set up: the commands are printed, none runs, exit 3' '
	test_expect_code 3 run_plumb --from unsigned.plumb --no-cache -o x.plumb >out 2>err &&
	test_grep "^plumb: unsigned.plumb: not signed, and no trusted key is set up (-p KEY.pub, or KEY.pub in $TRUSTED): its commands were not run (printed above: check them, then --trust-commands)$" err &&
	plan_shown out &&
	none_marked "$M" &&
	! test -e x.plumb
'

test_expect_success 'signed by an unknown key while a trusted key is set up: refused, exit 3' '
	mkdir -p "$TRUSTED" && cp k.pub "$TRUSTED/release.pub" &&
	test_expect_code 3 run_plumb --from wrong.plumb --no-cache -o x.plumb >out 2>err &&
	test_grep "^plumb: wrong.plumb: signed with key [0-9A-F]*, which is none of the 1 trusted key in $TRUSTED: its commands were not run" err &&
	plan_shown out &&
	none_marked "$M" &&
	test_expect_code 3 run_plumb --from unsigned.plumb --no-cache -o x.plumb >out 2>err &&
	test_grep "^plumb: unsigned.plumb: not signed by any of the 1 trusted key in $TRUSTED: " err &&
	none_marked "$M" &&
	test_expect_code 3 run_plumb --from signed.plumb -p other.pub --no-cache -o x.plumb >out 2>err &&
	test_grep "^plumb: signed.plumb: signed with key [0-9A-F]*, which is none of the 1 key given with -p: " err &&
	none_marked "$M" &&
	! test -e x.plumb
'

test_expect_success 'signed by a trusted key: every command runs' '
	plumb run --from signed.plumb --workdir "$TRASH/wd-trusted" -o trusted.plumb >out 2>err &&
	test -s trusted.plumb &&
	all_marked "$M"
'

test_expect_success '--trust-commands: an unsigned bundle runs' '
	plumb run --from unsigned.plumb --trust-commands --workdir "$TRASH/wd-vouched" -o vouched.plumb >out 2>err &&
	test -s vouched.plumb &&
	all_marked "$M" &&
	test_expect_code 2 plumb run -c proj/plumb.conf --trust-commands 2>err &&
	test_grep "goes with --from" err
'

test_expect_success 'an extracted folder without SHA256SUMS never runs, not even with --trust-commands' '
	plumb bundle extract signed.plumb dir >/dev/null &&
	rm dir/SHA256SUMS dir/SHA256SUMS.sig &&
	test_expect_code 3 run_plumb --from dir --trust-commands --no-cache -o x.plumb >out 2>err &&
	test_grep "^plumb: dir: a folder without SHA256SUMS: nothing in it is checked, so its commands (printed above) never run, not even with --trust-commands$" err &&
	plan_shown out &&
	none_marked "$M" &&
	! test -e x.plumb
'

test_expect_success 'the recorded folder gone: an untrusted bundle does not fetch the recorded remote' '
	mv proj proj.away &&
	test_expect_code 3 run_plumb --from unsigned.plumb --no-cache -o x.plumb >out 2>err &&
	mv proj.away proj &&
	test_grep "^# repo.url is fetched (libgit2, no command): $TRASH/remote.git$" out &&
	! test -e "$XDG_CACHE_HOME/plumb/repos" &&
	none_marked "$M"
'

test_expect_success 'the recorded branch moved: refused naming both commits; the recorded id runs' '
	recorded=$(git -C proj rev-parse main) &&
	git -C proj commit -q --allow-empty -m "moved on" &&
	moved=$(git -C proj rev-parse main) &&
	test_expect_code 3 run_plumb --from signed.plumb --no-cache -o x.plumb >out 2>err &&
	test_grep "^plumb: run.candidate: .main. is commit $moved in $TRASH/proj, but signed.plumb recorded $recorded: refused (the recorded commits are pinned; --candidate $recorded measures the recorded one)$" err &&
	none_marked "$M" &&
	! test -e x.plumb &&
	plumb run --from signed.plumb --candidate "$recorded" --workdir "$TRASH/wd-pinned" -o pinned.plumb >out 2>err &&
	all_marked "$M" &&
	git -C proj reset -q --hard "$recorded"
'

test_done
