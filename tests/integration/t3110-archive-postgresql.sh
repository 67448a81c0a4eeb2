#!/bin/sh
test_description='an archive on PostgreSQL: PLUMB_ARCHIVE and archive.url name it, its schema and migrations, many hosts adding at once, passwords never shown'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"
. "$TEST_SRCDIR/tests/integration/lib-pg.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

if test_have_prereq POSTGRESQL; then
	pg_start || { echo "Bail out! cannot start a PostgreSQL server"; exit 1; }
fi

# The URLs carry a password the server (trust) never asks for: it must
# appear in no output.
SECRET=not-a-secret

test_expect_success POSTGRESQL 'PLUMB_ARCHIVE=postgresql://...: add, list, show; the schema version in plumb_schema' '
	URL=$(pg_url fleet) &&
	make_bundle 1 one.plumb && make_bundle 2 two.plumb &&
	PLUMB_ARCHIVE=$URL plumb archive add one.plumb two.plumb >add.out 2>&1 &&
	test "$(grep -c "  added$" add.out)" = 2 &&
	ID1=$(head -n 1 add.out | cut -c1-64) &&
	PLUMB_ARCHIVE=$URL plumb archive list >list &&
	test "$(wc -l <list)" = 3 &&
	plumb archive show "$(printf %.8s "$ID1")" --archive-dir "$URL" >show &&
	test_grep "^bundle  *$ID1" show &&
	test_grep "$TRASH/home/.local/share/plumb/shared/bundles/" show &&
	test -f "$TRASH/home/.local/share/plumb/shared/bundles/$(printf %.2s "$ID1")/$ID1.plumb" &&
	test "$(pg_sql fleet "SELECT application_id, version FROM plumb_schema")" = "1886154082|4" &&
	PLUMB_ARCHIVE=$URL plumb archive add one.plumb >again &&
	test_grep "^$ID1  already in the archive" again &&
	test "$(pg_sql fleet "SELECT count(*) FROM bundles")" = 2
'

test_expect_success POSTGRESQL '8 hosts, each with its own store folder, adding overlapping bundles at once: one row per bundle' '
	i=3 && while test $i -le 12; do make_bundle $i b$i.plumb || return 1; i=$((i + 1)); done &&
	HOSTS=$(pg_url hosts) &&
	h=1 pids= &&
	while test $h -le 8; do
		(
			k=0 &&
			while test $k -lt 10; do
				b=$(( (h * 3 + k) % 10 + 3 )) &&
				PLUMB_ARCHIVE_STORE=$TRASH/host$h plumb archive add b$b.plumb --archive-dir "$HOSTS" \
					>>out.$h 2>>err.$h || exit 1
				k=$((k + 1))
			done
		) &
		pids="$pids $!"
		h=$((h + 1))
	done &&
	failed=0 && for p in $pids; do wait $p || failed=1; done &&
	test $failed = 0 && cat err.* >err && ! test -s err &&
	test "$(cat out.* | grep -c "  added$")" = 10 &&
	test "$(pg_sql hosts "SELECT count(*), count(DISTINCT id) FROM bundles")" = "10|10" &&
	test "$(pg_sql hosts "SELECT count(*) FROM benches")" = 10 &&
	# Each host holds the file of every bundle it added or found indexed.
	h=1 && while test $h -le 8; do
		cut -c1-64 out.$h | sort -u >added.$h &&
		find host$h -name "*.plumb" | sed "s|.*/||; s|\.plumb$||" | sort >files.$h &&
		test_cmp added.$h files.$h || return 1
		h=$((h + 1))
	done
'

test_expect_success POSTGRESQL 'baselines, trend and verify on the shared index' '
	plumb archive baseline set nightly "$ID1" --archive-dir "$URL" >/dev/null &&
	plumb archive baseline show nightly --archive-dir "$URL" >bl &&
	test_grep "^bundle  *$ID1" bl &&
	plumb archive trend interp --json --archive-dir "$URL" >t.json &&
	test_json t.json "len(j[\"points\"]) == 2" &&
	plumb archive verify --archive-dir "$URL" >v &&
	test_grep "^ok: 2 bundles and 2 files" v &&
	test_expect_code 3 plumb archive rm "$ID1" --archive-dir "$URL" 2>err &&
	test_grep "nightly" err
'

test_expect_success POSTGRESQL 'a schema 2 database is migrated forward on first use, its rows kept' '
	pg_sql fleet "DROP TABLE replacements; ALTER TABLE bundles DROP COLUMN sig_key;
		ALTER TABLE bundles DROP COLUMN sig_comment; DROP INDEX bundles_project;
		DROP INDEX benches_trend; ALTER TABLE bundles DROP COLUMN project;
		ALTER TABLE benches DROP COLUMN project;
		CREATE INDEX benches_trend ON benches(name, host, metric, at);
		UPDATE plumb_schema SET version = 2" &&
	plumb archive list --archive-dir "$URL" >list2 &&
	test_cmp list list2 &&
	test "$(pg_sql fleet "SELECT version FROM plumb_schema")" = 4 &&
	test "$(pg_sql fleet "SELECT count(*) FROM bundles WHERE sig_key IS NULL")" = 2
'

test_expect_success POSTGRESQL 'a newer schema, a foreign database and an empty one are refused (exit 3)' '
	pg_sql fleet "UPDATE plumb_schema SET version = 99" &&
	test_expect_code 3 plumb archive list --archive-dir "$URL" 2>err &&
	test_grep "archive schema 99 is newer than this plumb understands" err &&
	pg_sql fleet "UPDATE plumb_schema SET version = 4" &&
	OTHER=$(pg_url other) && pg_sql other "CREATE TABLE t (a int)" &&
	test_expect_code 3 plumb archive add one.plumb --archive-dir "$OTHER" 2>err &&
	test_grep "not a plumb archive (a database with other tables)" err &&
	EMPTY=$(pg_url empty) &&
	test_expect_code 3 plumb archive list --archive-dir "$EMPTY" 2>err &&
	test_grep "no archive here" err &&
	test "$(pg_sql empty "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()")" = 0
'

test_expect_success POSTGRESQL 'a server that is not there: exit 74 naming the URL, the password as ***' '
	test_expect_code 74 plumb archive list \
		--archive-dir "postgresql://plumb:$SECRET@/fleet?host=$TRASH/nowhere" 2>err &&
	test_grep "postgresql://plumb:\*\*\*@/fleet?host=$TRASH/nowhere: connect: " err &&
	test_expect_code 74 plumb archive list \
		--archive-dir "postgresql:///fleet?host=$TRASH/nowhere&password=$SECRET" 2>err2 &&
	test_grep "password=\*\*\*" err2 &&
	test_expect_code 2 plumb archive reindex --archive-dir "$URL" 2>err3 &&
	test_grep "reindex rebuilds a SQLite archive.db" err3 &&
	! grep -r "$SECRET" err err2 err3
'

test_expect_success POSTGRESQL 'archive.url in plumb.conf: run --archive adds there; the password is in no output nor bundle' '
	make_project proj &&
	run_conf proj/plumb.conf run.seed=3 "archive.url=$URL" &&
	run_plumb -c proj/plumb.conf -o run.plumb --archive >out 2>err &&
	id=$(sed -n "s/^id: //p" out) &&
	test_grep "^plumb: $id added to the archive in postgresql://plumb:\*\*\*@/fleet" err &&
	test "$(pg_sql fleet "SELECT count(*) FROM bundles WHERE id = '"'"'$id'"'"'")" = 1 &&
	run_plumb -c proj/plumb.conf --dry-run >dry 2>&1 &&
	test_grep "url = postgresql://plumb:\*\*\*@/fleet" dry &&
	plumb archive show "$id" --json --archive-dir "$URL" >show.json &&
	plumb bundle extract run.plumb x >/dev/null &&
	! grep -r "$SECRET" out err dry show.json x add.out list
'

test_done
