#!/bin/sh
test_description='projects are kept apart in the archive: series, change points, list and the site, by run.project; archive.url from plumb.conf'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"
command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

# Two projects with the same benchmark "b": one known by its remote URL,
# one by its first commit (made a minute later, so its id differs).
test_expect_success 'set up two projects and one archive' '
	make_project one &&
	git -C one remote add origin https://user:secret@example.org/one.git &&
	GIT_AUTHOR_DATE=2026-01-02T03:05:05Z GIT_COMMITTER_DATE=2026-01-02T03:05:05Z make_project two &&
	for p in one two; do
		run_conf $p/plumb.conf run.control=false archive.url="$TRASH/arc" || return 1
	done &&
	mkdir arc
'

test_expect_success 'each bundle records its project, never a folder path or a password' '
	(cd one && run_plumb -o ../one.plumb >/dev/null 2>&1) &&
	(cd two && run_plumb -o ../two.plumb >/dev/null 2>&1) &&
	manifest one.plumb m1 && manifest two.plumb m2 &&
	test_json m1/manifest.json "j[\"run\"][\"project\"] == \"https://example.org/one.git\"" &&
	first=$(git -C two rev-list --max-parents=0 main) &&
	test_json m2/manifest.json "j[\"run\"][\"project\"] == \"$first\"" &&
	test_grep_not secret m1/manifest.json
'

test_expect_success 'run.project names a project outright' '
	git config -f two/plumb.conf run.project "the second" &&
	(cd two && run_plumb -o ../two-named.plumb >/dev/null 2>&1) &&
	manifest two-named.plumb m3 &&
	test_json m3/manifest.json "j[\"run\"][\"project\"] == \"the second\"" &&
	git config -f two/plumb.conf --unset run.project
'

test_expect_success 'archive commands run in a project folder use its archive.url' '
	(cd one && plumb archive add ../one.plumb >/dev/null && plumb archive add ../one.plumb >/dev/null) &&
	(cd two && plumb archive add ../two.plumb >/dev/null) &&
	test -f arc/archive.db &&
	(cd one && plumb archive list --json >../list.json) &&
	test_json list.json "len(j) == 2"
'

test_expect_success 'a benchmark in two projects: trend asks which, and never mixes them' '
	test_expect_code 2 plumb archive trend b --archive-dir arc 2>err &&
	test_grep "is in 2 projects" err &&
	test_grep "example.org/one.git" err &&
	plumb archive trend b --project https://example.org/one.git --archive-dir arc --json >t1.json &&
	test_json t1.json "[s[\"project\"] for s in (j if isinstance(j, list) else [j])] == [\"https://example.org/one.git\"]" &&
	test_json t1.json "all(len(s[\"points\"]) == 1 for s in (j if isinstance(j, list) else [j]))" &&
	first=$(git -C two rev-list --max-parents=0 main) &&
	plumb report --trend b --project "$first" --archive-dir arc --format json >t2.json &&
	grep -q "\"$first\"" t2.json &&
	test_grep_not "one.git" t2.json
'

test_expect_success 'list and changes filter and name the project' '
	plumb archive list --project https://example.org/one.git --archive-dir arc --json >l1.json &&
	test_json l1.json "len(j) == 1 and j[0][\"project\"] == \"https://example.org/one.git\"" &&
	plumb archive changes --archive-dir arc --project nowhere --json >c.json &&
	test_json c.json "j[\"series\"] == 0" &&
	plumb archive changes --archive-dir arc --json >c2.json &&
	test_json c2.json "j[\"series\"] == 2"
'

test_expect_success 'the site has a page per series of each project' '
	plumb report --archive-index -o site/ --archive-dir arc >out &&
	test_grep "2 benchmark series" out
'

test_expect_success SQLITE3 'an archive of version 3 takes each row project from its bundle' '
	cp -r arc old &&
	sqlite3 old/archive.db "UPDATE bundles SET project = NULL; UPDATE benches SET project = NULL;
		DROP INDEX bundles_project; DROP INDEX benches_trend;
		CREATE INDEX benches_trend ON benches(name, host, metric, at);
		ALTER TABLE bundles DROP COLUMN project; ALTER TABLE benches DROP COLUMN project;
		PRAGMA user_version = 3;" &&
	plumb archive gc --archive-dir old >/dev/null &&
	test "$(sqlite3 old/archive.db "PRAGMA user_version")" = 4 &&
	test "$(sqlite3 old/archive.db "SELECT count(*) FROM benches WHERE project IS NULL")" = 0
'

test_done
