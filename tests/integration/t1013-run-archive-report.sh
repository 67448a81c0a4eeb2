#!/bin/sh
test_description='plumb run --archive imports the bundle; --report writes its HTML page'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

PLUMB_ARCHIVE=$TRASH/arch
export PLUMB_ARCHIVE

test_expect_success 'set up a project' '
	make_project proj &&
	run_conf proj/plumb.conf run.seed=3
'

test_expect_success '--archive adds the bundle it wrote, and the archive lists it' '
	run_plumb -c proj/plumb.conf -o one.plumb --archive --label night=1 >out 2>err &&
	sed -n "s/^id: //p" out >id &&
	test_grep "[0-9a-f]\{64\} added to the archive in $TRASH/arch" err &&
	test_grep "^plumb: $(cat id) added to the archive" err &&
	test -f "arch/bundles/$(cut -c1-2 id)/$(cat id).plumb" &&
	cmp one.plumb "arch/bundles/$(cut -c1-2 id)/$(cat id).plumb" &&
	plumb archive list --label night=1 >list &&
	test_grep "^$(cut -c1-12 id)" list
'

test_expect_success 'adding the same bundle again is a no-op that names it' '
	plumb archive add one.plumb >again &&
	test_grep "^$(cat id)  already in the archive" again
'

test_expect_success '--report writes a self-contained HTML page of the bundle' '
	run_plumb -c proj/plumb.conf -o two.plumb --report two.html >out2 2>err2 &&
	test_grep "report written to two.html" err2 &&
	test_grep "<html" two.html &&
	test_grep "<svg" two.html &&
	test_grep "\bb\b" two.html &&
	test_grep_not "<script src=" two.html &&
	! test -e arch/bundles/$(sed -n "s/^id: //p" out2 | cut -c1-2)/$(sed -n "s/^id: //p" out2).plumb
'

test_expect_success 'a report to a folder that does not exist fails with 74 after the bundle' '
	test_expect_code 74 run_plumb -c proj/plumb.conf -o three.plumb --report no/such/dir/r.html >out3 2>err3 &&
	test -f three.plumb &&
	test_grep "^plumb: no/such/dir/r.html: create its temporary file: No such file or directory" err3
'

test_expect_success '--archive without -o: the archive holds the bundle, no copy stays anywhere' '
	mkdir night &&
	(cd night && run_plumb -c ../proj/plumb.conf --archive --report night.html >out 2>err) &&
	sed -n "s/^id: //p" night/out >nid &&
	test -s nid &&
	test -f "arch/bundles/$(cut -c1-2 nid)/$(cat nid).plumb" &&
	test_grep "^plumb: $(cat nid) added to the archive" night/err &&
	test_grep "^bundle: in the archive only (-o FILE keeps a copy)$" night/out &&
	# Neither the working folder nor the work folder keeps a copy, and
	# what was printed never names the temporary file.
	rm night/out night/err && no_bundle night && no_bundle wd &&
	test_grep_not "$TRASH/wd" night/night.html &&
	test_grep "$(cut -c1-12 nid)" night/night.html &&
	(cd night && run_plumb -c ../proj/plumb.conf --archive --json >out.json 2>/dev/null) &&
	test_json night/out.json "j[\"bundle\"] is None and len(j[\"id\"]) == 64" &&
	rm night/out.json && no_bundle night && no_bundle wd
'

test_expect_success 'an archive that cannot be used without -o: the bundle is kept in the work folder, named' '
	mkdir bad && printf "%4096s" "not SQLite" >bad/archive.db &&
	mkdir night2 &&
	(cd night2 && PLUMB_ARCHIVE=$TRASH/bad test_expect_code 3 run_plumb -c ../proj/plumb.conf --archive -q >out 2>err) &&
	test_grep "bad/archive.db: .*file is not a database" night2/err &&
	kept=$(sed -n "s/^plumb: the bundle is kept in //p" night2/err) &&
	case $kept in "$TRASH/wd/plumb-"*.plumb) ;; *) false ;; esac &&
	plumb bundle verify "$kept" >/dev/null &&
	rm night2/out night2/err && no_bundle night2
'

test_expect_success 'an archive that cannot be used: the bundle stays, the status names it' '
	mkdir ro && printf "%4096s" "not SQLite" >ro/archive.db &&
	PLUMB_ARCHIVE=$TRASH/ro && export PLUMB_ARCHIVE &&
	test_expect_code 3 run_plumb -c proj/plumb.conf -o four.plumb --archive >out4 2>err4 &&
	test -f four.plumb &&
	test_grep "ro/archive.db: .*file is not a database" err4
'

test_expect_success '--archive and --report need a measuring run' '
	test_expect_code 2 plumb run -c proj/plumb.conf --dry-run --archive 2>err5 &&
	test_grep "needs a measuring run" err5
'

test_done
