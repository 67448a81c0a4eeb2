#!/bin/sh
test_description='archive add, show, rm: verified, atomic, idempotent'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

test_expect_success 'make three bundles with distinct ids' '
	make_bundle 1 one.plumb &&
	make_bundle 2 two.plumb &&
	make_bundle 3 three.plumb &&
	ID1=$(bundle_id one.plumb) && ID2=$(bundle_id two.plumb) && ID3=$(bundle_id three.plumb) &&
	test ${#ID1} = 64 && test "$ID1" != "$ID2" && test "$ID2" != "$ID3" &&
	echo "$ID1" >id1 && echo "$ID2" >id2 && echo "$ID3" >id3
'
ID1=$(cat id1 2>/dev/null); ID2=$(cat id2 2>/dev/null); ID3=$(cat id3 2>/dev/null)

test_expect_success 'add stores the file by id and indexes it' '
	plumb archive add one.plumb --archive-dir A >out &&
	echo "$ID1  added" >expect &&
	test_cmp expect out &&
	f=$(stored_path A "$ID1") &&
	cmp one.plumb "$f" &&
	test "$(stat -c %a "$f")" = 444 &&
	plumb archive list --json --archive-dir A >list.json &&
	test_json list.json "len(j) == 1 and j[0][\"id\"] == \"$ID1\" and j[0][\"benches\"] == 1" &&
	test_json list.json "j[0][\"labels\"] == {\"job\": \"nightly\"} and j[0][\"host\"] == \"5ca1ab1e00000001\""
'

test_expect_success SQLITE3 'adding it again changes nothing and prints the same id' '
	index_sql A "SELECT count(*) FROM bundles; SELECT count(*) FROM benches" >before &&
	plumb archive add one.plumb --archive-dir A >out &&
	echo "$ID1  already in the archive" >expect &&
	test_cmp expect out &&
	cp one.plumb copy.plumb &&
	plumb archive add copy.plumb --archive-dir A >out &&
	test_cmp expect out &&
	index_sql A "SELECT count(*) FROM bundles; SELECT count(*) FROM benches" >after &&
	test_cmp before after &&
	cmp one.plumb "$(stored_path A "$ID1")"
'

test_expect_success 'show prints the manifest summary, by id or prefix' '
	plumb archive show "$(printf %.6s "$ID1")" --archive-dir A >show &&
	test_grep "^bundle  *$ID1" show &&
	test_grep "^repo  */srv/src/demo" show &&
	test_grep "^base  *v1.0 3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6d7e8f901 (2024-04-20T09:00:00Z)" show &&
	test_grep "^candidate  *HEAD 9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d" show &&
	test_grep "^signature  *none" show &&
	test_grep "^interp  *wall  *1.006 ms \[1.001, 1.010\]  *1.045 ms \[1.040, 1.050\]  *1.039  *slower" show &&
	plumb archive show "$ID1" --json --archive-dir A >show.json &&
	test_json show.json "j[\"benches\"][0][\"base\"][\"pads\"] == [1001000, 1010000] and j[\"created\"] == \"2024-05-01T12:34:56Z\"" &&
	test_json show.json "j[\"host\"][\"facts\"][\"governor\"] == \"performance\" and j[\"format_version\"] == \"1.0\""
'

test_expect_success 'several bundles at once; a bad one fails alone, exit 3, nothing of it written' '
	printf "not a bundle\n" >bad.plumb &&
	test_expect_code 3 plumb archive add two.plumb bad.plumb three.plumb --archive-dir A >out 2>err &&
	test_grep "^$ID2  added" out &&
	test_grep "^$ID3  added" out &&
	test_grep "bad.plumb" err &&
	plumb archive list --json --archive-dir A >list.json &&
	test_json list.json "len(j) == 3" &&
	no_temp_files A &&
	test "$(find A/bundles -type f | wc -l)" = 3
'

test_expect_success 'a truncated bundle is refused with exit 3' '
	head -c 200 two.plumb >short.plumb &&
	test_expect_code 3 plumb archive add short.plumb --archive-dir A 2>err &&
	test_grep "short.plumb" err &&
	test_expect_code 3 plumb archive add missing.plumb --archive-dir A 2>err &&
	test_grep "missing.plumb" err &&
	no_temp_files A
'

test_expect_success SQLITE3 'a stored file that went missing or changed size is restored by adding again' '
	f=$(stored_path A "$ID2") &&
	rm -f "$f" &&
	plumb archive add two.plumb --archive-dir A >out &&
	test_grep "^$ID2  restored" out &&
	cmp two.plumb "$f" &&
	chmod u+w "$f" && echo junk >>"$f" &&
	plumb archive add two.plumb --archive-dir A >out &&
	test_grep "^$ID2  restored" out &&
	cmp two.plumb "$f" &&
	rows_have_files A && db_ok A
'

test_expect_success SQLITE3 'rm removes rows and file; unknown ids exit 3' '
	plumb archive rm "$ID3" --archive-dir A >out &&
	echo "$ID3  removed" >expect &&
	test_cmp expect out &&
	test_must_fail test -e "$(stored_path A "$ID3")" &&
	test "$(index_sql A "SELECT count(*) FROM benches b JOIN bundles u ON u.rid = b.bundle WHERE u.id = '"'"'$ID3'"'"'")" = 0 &&
	test "$(index_sql A "SELECT count(*) FROM labels")" = 2 &&
	test_expect_code 3 plumb archive rm "$ID3" --archive-dir A 2>err &&
	test_grep "no bundle" err &&
	plumb archive add three.plumb --archive-dir A >out &&
	test_grep "^$ID3  added" out
'

test_expect_success 'baseline set accepts a bundle file and adds it first' '
	make_bundle 4 four.plumb &&
	ID4=$(bundle_id four.plumb) &&
	plumb archive baseline set release-1.0 four.plumb --note "shipped" --archive-dir A >out &&
	test_grep "^release-1.0  new -> $ID4 (candidate)" out &&
	plumb archive show "$ID4" --json --archive-dir A >s.json &&
	test_json s.json "j[\"baselines\"] == [{\"name\": \"release-1.0\", \"side\": \"candidate\"}]" &&
	test_expect_code 3 plumb archive rm "$ID4" --archive-dir A 2>err &&
	test_grep "baseline .release-1.0." err
'

test_expect_success 'trend follows the candidate over the archived bundles' '
	plumb archive trend interp --json --archive-dir A >t.json &&
	test_json t.json "j[\"host\"] == \"5ca1ab1e00000001\" and j[\"metric\"] == \"wall\" and len(j[\"points\"]) == 4" &&
	test_json t.json "all(p[\"center\"] == 1045000 and p[\"min\"] == 1040000 and p[\"max\"] == 1050000 for p in j[\"points\"])" &&
	# The text prints values with units, as every view does (not 1.045e+06).
	plumb archive trend interp --archive-dir A >t.txt &&
	test_grep "  1.045 ms  *1.040 ms  *1.050 ms  " t.txt &&
	test_grep_not "e+0" t.txt
'

test_expect_success 'the archive verifies clean after all that' '
	plumb archive verify --archive-dir A >out &&
	test_grep "^ok: 4 bundles" out
'

test_expect_success PYTHON '--json on the commands that change the archive' '
	plumb archive add one.plumb --json --archive-dir J >a.json &&
	test_json a.json "j == {\"bundles\": [{\"path\": \"one.plumb\", \"id\": \"$ID1\", \"status\": \"added\"}]}" &&
	test_expect_code 3 plumb archive add one.plumb bad.plumb --json --archive-dir J >a2.json 2>err &&
	test_json a2.json "j[\"bundles\"] == [{\"path\": \"one.plumb\", \"id\": \"$ID1\", \"status\": \"present\"}]" &&
	test_grep "bad.plumb" err &&
	plumb archive baseline set rel one.plumb --json --archive-dir J >b.json &&
	test_json b.json "j == {\"name\": \"rel\", \"bundle\": \"$ID1\", \"side\": \"candidate\", \"previous\": None}" &&
	plumb archive baseline rm rel --json --archive-dir J >c.json &&
	test_json c.json "j == {\"name\": \"rel\", \"status\": \"removed\"}" &&
	plumb archive verify --json --archive-dir J >v.json &&
	test_json v.json "j[\"ok\"] is True and j[\"bundles\"] == 1 and j[\"problems\"] == 0" &&
	plumb archive gc --json --archive-dir J >g.json &&
	test_json g.json "j[\"ok\"] is True and j[\"problems\"] == 0 and isinstance(j[\"lines\"], list)" &&
	plumb archive rm "$ID1" --json --archive-dir J >r.json &&
	test_json r.json "j == {\"bundles\": [{\"id\": \"$ID1\", \"status\": \"removed\"}]}"
'

test_done
