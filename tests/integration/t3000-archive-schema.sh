#!/bin/sh
test_description='archive location, schema migration from version 1, refusal of newer or foreign databases, queries over a fixture index'
. "$(dirname "$0")/test-lib.sh"

command -v sqlite3 >/dev/null 2>&1 && test_set_prereq SQLITE3

# An archive at schema 1, loaded from the frozen fixture.
load_v1() {
	mkdir -p "$1" &&
	sqlite3 "$1/archive.db" <"$FIXTURES/archive/schema1.sql"
}

test_expect_success SQLITE3 'a schema 1 archive is migrated on first use, every row kept' '
	load_v1 v1 &&
	test "$(sqlite3 v1/archive.db "PRAGMA user_version")" = 1 &&
	plumb archive list --json --archive-dir v1 >list.json &&
	test_json list.json "len(j) == 3" &&
	test_json list.json "[b[\"id\"][:8] for b in j] == [\"77777777\", \"1a2b3c4d\", \"1a2b3c4d\"]" &&
	test "$(sqlite3 v1/archive.db "PRAGMA user_version")" = 4 &&
	sqlite3 v1/archive.db "SELECT bundle, host, at FROM benches ORDER BY bundle, name" >actual &&
	cat >expect <<-\EOF &&
	1|1|1714499110
	1|1|1714499110
	2|1|1714600000
	3|2|1714739696
	EOF
	test_cmp expect actual &&
	test "$(sqlite3 v1/archive.db "PRAGMA integrity_check")" = ok
'

test_expect_success SQLITE3 'the migrated archive answers show, trend and baselines' '
	plumb archive show 1a2b3c4d5e --json --archive-dir v1 >show.json &&
	test_json show.json "j[\"repo\"] == \"/srv/src/interp\" and j[\"labels\"] == {\"branch\": \"main\", \"job\": \"nightly\"}" &&
	test_json show.json "[b[\"name\"] for b in j[\"benches\"]] == [\"interp\", \"parse\"]" &&
	test_json show.json "j[\"benches\"][0][\"candidate\"][\"pads\"] == [94000000, 95500000, 97125000]" &&
	test_json show.json "j[\"baselines\"] == [{\"name\": \"release-1.2\", \"side\": \"base\"}]" &&
	plumb archive trend interp --host c0ffee --project /srv/src/interp --json --archive-dir v1 >trend.json &&
	test_json trend.json "j[\"host\"] == \"c0ffee0123456789\" and j[\"project\"] == \"/srv/src/interp\" and [p[\"center\"] for p in j[\"points\"]] == [95500000, 94000000]" &&
	test_expect_code 2 plumb archive trend interp --json --archive-dir v1 2>err &&
	test_grep "is in 2 projects (/srv/src/interp, /srv/src/other)" err &&
	plumb archive trend interp --project /srv/src/other --json --archive-dir v1 >other.json &&
	test_json other.json "j[\"host\"] == \"deadbeef00000000\" and [p[\"center\"] for p in j[\"points\"]] == [50500000]" &&
	plumb archive baseline show release-1.2 --archive-dir v1 >bl &&
	test_grep "^side  *base" bl &&
	test_grep "^note  *the 1.2 release" bl &&
	test_grep "^bundle  *1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809" bl
'

test_expect_success SQLITE3 'an ambiguous id prefix exits 3 listing the candidates' '
	test_expect_code 3 plumb archive show 1a2b3c4d --archive-dir v1 2>err &&
	test_grep "ambiguous" err &&
	test_grep "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809" err &&
	test_grep "1a2b3c4d00000000000000000000000000000000000000000000000000000002" err &&
	test_expect_code 3 plumb archive show 99999999 --archive-dir v1 2>err &&
	test_grep "no bundle 99999999" err &&
	test_expect_code 3 plumb archive show zz --archive-dir v1 2>err &&
	test_grep "not a bundle id" err
'

test_expect_success SQLITE3 'list filters: bench, repo, commit, host, label, since, last' '
	plumb archive list --bench parse --json --archive-dir v1 >o && test_json o "len(j) == 1" &&
	plumb archive list --repo /srv/src/other --json --archive-dir v1 >o && test_json o "len(j) == 1" &&
	plumb archive list --commit 3f2a9c0d --json --archive-dir v1 >o && test_json o "len(j) == 2" &&
	plumb archive list --commit 5555 --json --archive-dir v1 >o && test_json o "len(j) == 1" &&
	plumb archive list --host deadbeef --json --archive-dir v1 >o && test_json o "len(j) == 1" &&
	plumb archive list --label branch=main --json --archive-dir v1 >o && test_json o "len(j) == 2" &&
	plumb archive list --label branch=main --label job --json --archive-dir v1 >o && test_json o "len(j) == 1" &&
	plumb archive list --since 2024-05-02 --json --archive-dir v1 >o && test_json o "len(j) == 2" &&
	plumb archive list --since 2024-05-02T12:34:57Z --json --archive-dir v1 >o && test_json o "len(j) == 1" &&
	plumb archive list --last 1 --json --archive-dir v1 >o && test_json o "len(j) == 1 and j[0][\"id\"].startswith(\"7777\")" &&
	plumb archive list --bench nosuch --archive-dir v1 >o && test_must_fail test -s o &&
	test_expect_code 3 plumb archive list --host nosuch --archive-dir v1 2>err &&
	test_grep "no host nosuch" err
'

test_expect_success SQLITE3 'an archive newer than plumb is refused and left alone' '
	load_v1 new &&
	sqlite3 new/archive.db "PRAGMA user_version = 99" &&
	cp new/archive.db before.db &&
	for cmd in list gc "baseline list" "trend interp" verify; do
		test_expect_code 3 plumb archive $cmd --archive-dir new 2>err &&
		test_grep "archive schema 99 is newer than this plumb understands" err || return 1
	done &&
	test_expect_code 3 plumb archive add nothing.plumb --archive-dir new 2>err &&
	test_grep "archive schema 99 is newer" err &&
	cmp before.db new/archive.db
'

test_expect_success SQLITE3 'a database that is not an archive is refused' '
	mkdir foreign &&
	sqlite3 foreign/archive.db "CREATE TABLE t (a); INSERT INTO t VALUES (1)" &&
	cp foreign/archive.db foreign.db &&
	test_expect_code 3 plumb archive list --archive-dir foreign 2>err &&
	test_grep "not a plumb archive" err &&
	test_expect_code 3 plumb archive add x.plumb --archive-dir foreign 2>err &&
	test_grep "not a plumb archive" err &&
	cmp foreign.db foreign/archive.db &&
	mkdir junk &&
	echo "not sqlite at all, just some text that is long enough to matter" >junk/archive.db &&
	test_expect_code 3 plumb archive list --archive-dir junk 2>err &&
	test_grep "junk/archive.db" err
'

test_expect_success 'reading commands do not create an archive' '
	test_expect_code 3 plumb archive list --archive-dir nowhere 2>err &&
	test_grep "nowhere: no archive here" err &&
	test_must_fail test -e nowhere &&
	test_expect_code 3 plumb archive verify --archive-dir nowhere &&
	test_expect_code 3 plumb archive gc --archive-dir nowhere &&
	test_must_fail test -e nowhere
'

test_expect_success SQLITE3 'location: --archive-dir, else PLUMB_ARCHIVE, else XDG_DATA_HOME/plumb, else ~/.local/share/plumb' '
	load_v1 "$XDG_DATA_HOME/plumb" &&
	plumb archive list --json >o && test_json o "len(j) == 3" &&
	load_v1 env &&
	sqlite3 env/archive.db "DELETE FROM baselines; DELETE FROM bundles WHERE rid > 1" &&
	PLUMB_ARCHIVE="$TRASH/env" plumb archive list --json >o && test_json o "len(j) == 1" &&
	PLUMB_ARCHIVE="$TRASH/env" plumb archive list --json --archive-dir v1 >o && test_json o "len(j) == 3" &&
	(unset XDG_DATA_HOME && plumb archive list --json >o) && test_json o "len(j) == 3" &&
	XDG_DATA_HOME=relative plumb archive list --json >o && test_json o "len(j) == 3"
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 plumb archive 2>err &&
	test_grep "subcommand is needed" err &&
	test_expect_code 2 plumb archive add &&
	test_expect_code 2 plumb archive show &&
	test_expect_code 2 plumb archive show a b &&
	test_expect_code 2 plumb archive rm &&
	test_expect_code 2 plumb archive trend &&
	test_expect_code 2 plumb archive list extra &&
	test_expect_code 2 plumb archive list --last 0 &&
	test_expect_code 2 plumb archive verify --subset 0/3 &&
	test_expect_code 2 plumb archive verify --subset 4/3 &&
	test_expect_code 2 plumb archive verify --subset x &&
	test_expect_code 2 plumb archive baseline set onlyname &&
	test_expect_code 2 plumb archive baseline 2>err &&
	test_expect_code 2 plumb archive nosuch 2>err &&
	test_grep "not a subcommand" err
'

test_expect_success SQLITE3 'bad filter values exit 2 naming the option' '
	test_expect_code 2 plumb archive list --since yesterday --archive-dir v1 2>err &&
	test_grep "[-]-since" err &&
	test_expect_code 2 plumb archive list --commit xyz --archive-dir v1 2>err &&
	test_grep "[-]-commit" err &&
	test_expect_code 2 plumb archive list --label =v --archive-dir v1 2>err &&
	test_grep "[-]-label" err
'

test_expect_success SQLITE3 'baselines: set moves, rm keeps the bundle, a baseline protects its bundle' '
	plumb archive baseline set nightly 7777 --note "first" --archive-dir v1 >out &&
	test_grep "^nightly  new -> 7777" out &&
	plumb archive baseline set nightly 1a2b3c4d0 --side base --archive-dir v1 >out &&
	test_grep "^nightly  7777.* -> 1a2b3c4d0000" out &&
	plumb archive baseline list --json --archive-dir v1 >o &&
	test_json o "[(b[\"name\"], b[\"side\"]) for b in j] == [(\"nightly\", \"base\"), (\"release-1.2\", \"base\")]" &&
	test_expect_code 3 plumb archive rm 1a2b3c4d0 --archive-dir v1 2>err &&
	test_grep "baseline .nightly." err &&
	plumb archive baseline rm nightly --archive-dir v1 &&
	test_expect_code 3 plumb archive baseline show nightly --archive-dir v1 2>err &&
	test_grep "no baseline .nightly." err &&
	test_expect_code 3 plumb archive baseline rm nightly --archive-dir v1 &&
	test_expect_code 2 plumb archive baseline set "two words" 7777 --archive-dir v1 &&
	test_expect_code 2 plumb archive baseline set x 7777 --side left --archive-dir v1
'

test_done
