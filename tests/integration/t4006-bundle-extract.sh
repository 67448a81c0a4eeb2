#!/bin/sh
test_description='plumb bundle extract never writes outside its folder'
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'a bundle with logs' '
	plumb bundle pack "$FIXTURES/bundle/run" -o run.plumb >/dev/null &&
	mkdir outside
'

test_expect_success 'a missing folder is created, parents included' '
	plumb bundle extract run.plumb a/b/c >/dev/null &&
	test -f a/b/c/logs/build-base-0.log &&
	test -f a/b/c/SHA256SUMS
'

test_expect_success 'a file in the way of the folder is refused' '
	echo x >file &&
	test_expect_code 2 plumb bundle extract run.plumb file 2>err &&
	test_grep "file: exists and is not a folder" err
'

test_expect_success 'logs/ as a link to elsewhere is not followed' '
	mkdir d1 && ln -s ../outside d1/logs &&
	test_expect_code 3 plumb bundle extract --force run.plumb d1 2>err &&
	test_grep "d1/logs: exists and is not a folder" err &&
	! ls outside | grep -q . &&
	! test -e d1/manifest.json
'

test_expect_success 'a member name taken by a link replaces the link, not its target' '
	mkdir d2 && echo precious >outside/target &&
	ln -s ../outside/target d2/manifest.json &&
	plumb bundle extract --force run.plumb d2 >/dev/null &&
	test "$(cat outside/target)" = precious &&
	! test -L d2/manifest.json &&
	cmp "$FIXTURES/bundle/run/manifest.json" d2/manifest.json
'

test_expect_success 'a folder where a member file goes is refused before anything is written' '
	mkdir -p d3/samples.tsv && echo keep >d3/keep &&
	ls -laR d3 >before &&
	test_expect_code 3 plumb bundle extract --force run.plumb d3 2>err &&
	test_grep "d3/samples.tsv: exists and is a folder" err &&
	ls -laR d3 >after &&
	test_cmp before after
'

test_expect_success 'extracted files get the bundle time and ordinary modes' '
	(umask 022 && plumb bundle extract run.plumb d4 >/dev/null) &&
	test "$(stat -c %a d4/manifest.json)" = 644 &&
	test "$(stat -c %a d4/logs)" = 755 &&
	test "$(TZ=UTC date -r d4/samples.tsv +%Y-%m-%dT%H:%M:%S)" = 2024-05-01T12:34:50 &&
	! ls -a d4 | grep -q "^\.plumb-extract"
'

test_done
