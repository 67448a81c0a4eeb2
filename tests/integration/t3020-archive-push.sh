#!/bin/sh
test_description='archive push and pull: only what the other archive lacks, by id; a bundle that does not verify is refused with the reason and never indexed'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_have_prereq SQLITE3 &&
	test_set_prereq CRAFT
craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"

# count ARCHIVE: its bundle rows, and that no id is there twice.
count() {
	sqlite3 "$1/archive.db" "SELECT count(*) || ' ' || count(DISTINCT id) FROM bundles"
}

test_expect_success 'this host has three bundles, one of another host class' '
	make_bundle 1 b1.plumb && make_bundle 2 b2.plumb &&
	BUNDLE_FP=5ca1ab1e000000c2 make_bundle 3 b3.plumb &&
	plumb archive add b1.plumb b2.plumb b3.plumb --archive-dir L >added.txt &&
	cut -c1-64 added.txt | sort >ids.txt
'

test_expect_success SQLITE3 'push sends them all to a new shared archive, one progress line each' '
	plumb archive push --archive-dir L --to S >out 2>err &&
	test_grep "^pushed to S: 3 sent, 0 already there, 0 refused$" out &&
	test $(grep -c "^push: [123]/3 [0-9a-f]\{64\} sent$" err) = 3 &&
	test "$(count S)" = "3 3" &&
	sqlite3 S/archive.db "SELECT id FROM bundles ORDER BY id" >held.txt &&
	test_cmp ids.txt held.txt &&
	rows_have_files S && no_temp_files S &&
	plumb archive verify --archive-dir S >/dev/null
'

test_expect_success SQLITE3 'a second push sends nothing, and says so in JSON' '
	plumb archive push --archive-dir L --to S --json >out.json 2>err &&
	test_json out.json "j[\"sent\"] == [] and len(j[\"present\"]) == 3 and j[\"refused\"] == [] and j[\"stopped\"] is False" &&
	test $(grep -c " present$" err) = 3 &&
	test "$(count S)" = "3 3"
'

test_expect_success SQLITE3 'a bundle added since is the only one the next push sends' '
	make_bundle 4 b4.plumb &&
	plumb archive add b4.plumb --archive-dir L >/dev/null &&
	plumb archive push --archive-dir L --to S --json >out.json &&
	test_json out.json "len(j[\"sent\"]) == 1 and len(j[\"present\"]) == 3" &&
	test "$(count S)" = "4 4"
'

test_expect_success 'PLUMB_SHARED_ARCHIVE names the shared archive when --to is not given' '
	PLUMB_SHARED_ARCHIVE="$TRASH/S" plumb archive push --archive-dir L >out 2>/dev/null &&
	test_grep "0 sent, 4 already there" out
'

test_expect_success 'pull fetches into this host what it lacks; --host and --since choose' '
	plumb archive pull --archive-dir P --from S --host 5ca1ab1e000000c2 --json >out.json &&
	test_json out.json "len(j[\"sent\"]) == 1" &&
	plumb archive list --archive-dir P --json >list.json &&
	test_json list.json "len(j) == 1 and j[0][\"host\"].startswith(\"5ca1ab1e000000c2\")" &&
	plumb archive pull --archive-dir P --from S --since 2999-01-01 >out &&
	test_grep "0 sent, 0 already there" out &&
	PLUMB_SHARED_ARCHIVE="$TRASH/S" plumb archive pull --archive-dir P >out &&
	test_grep "^pulled from .*S: 3 sent, 1 already there, 0 refused$" out &&
	plumb archive verify --archive-dir P >/dev/null
'

test_expect_success 'usage: no shared archive, the own archive, an argument, a bad date' '
	test_expect_code 2 env -u PLUMB_SHARED_ARCHIVE "$PLUMB" archive push --archive-dir L 2>err &&
	test_grep "no shared archive: give --to or set PLUMB_SHARED_ARCHIVE" err &&
	test_expect_code 2 plumb archive push --archive-dir L --to L 2>err &&
	test_grep "is this host.s own archive" err &&
	test_expect_code 2 plumb archive push S --archive-dir L 2>err &&
	test_expect_code 2 plumb archive pull --archive-dir L --from "" 2>err &&
	test_expect_code 2 plumb archive pull --archive-dir L --from S --since yesterday 2>err &&
	test_grep "since" err &&
	test_expect_code 3 plumb archive pull --archive-dir L --from nowhere 2>err &&
	test_grep "nowhere: no archive here" err
'

# A bundle whose manifest contradicts its samples (the checksums redone,
# so only the consistency check catches it), and one cut short.
test_expect_success CRAFT 'a lying bundle and a cut one' '
	rm -rf lie && mkdir lie &&
	zstd -dcq b1.plumb | tar -xf - -C lie manifest.json &&
	python3 - lie/manifest.json <<-\PY &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	m["run"]["seed"] = 77
	m["benches"][0]["sides"]["candidate"]["center"] = 2000000.0
	json.dump(m, open(sys.argv[1], "w"), indent=1)
	PY
	python3 "$craft" lie.plumb --from b1.plumb --file "manifest.json=@lie/manifest.json" --resum &&
	test_expect_code 3 plumb bundle verify lie.plumb 2>err &&
	test_grep "candidate" err &&
	make_bundle 5 b5.plumb && head -c 300 b5.plumb >cut.plumb &&
	esc=$(printf "\033") &&
	python3 "$craft" evil.plumb --from b2.plumb --file "evil${esc}[31m=x" --resum
'

test_expect_success CRAFT 'push refuses them with the reason, sends the rest and exits 3 naming them' '
	rm -rf H S2 && cp -a L H &&
	LIE=$(plant H lie.plumb) && EVIL=$(plant H evil.plumb) &&
	make_bundle 5 b5.plumb && CUT=$(zstd -dcq b5.plumb | tar -xOf - SHA256SUMS | sha256sum | cut -c1-64) &&
	plant H b5.plumb >/dev/null && cp cut.plumb "$(stored_path H "$CUT")" &&
	test_expect_code 3 plumb archive push --archive-dir H --to S2 --json >out.json 2>err &&
	test_json out.json "len(j[\"sent\"]) == 4 and sorted(r[\"id\"] for r in j[\"refused\"]) == sorted([\"$LIE\", \"$EVIL\", \"$CUT\"])" &&
	test_json out.json "all(r[\"reason\"] for r in j[\"refused\"])" &&
	test_grep "^push: [0-9]/7 $LIE refused: .*candidate" err &&
	test_grep "^push: [0-9]/7 $CUT refused: " err &&
	test_grep "^plumb: archive push: refused:.* $LIE" err &&
	! grep -q "$esc" err &&
	test_grep "evil\\\\x1b\\[31m\|evil\\\\033\|evil\\\\e" err &&
	test "$(count S2)" = "4 4" &&
	for id in $LIE $EVIL $CUT; do
		test "$(sqlite3 S2/archive.db "SELECT count(*) FROM bundles WHERE id = '\''$id'\''")" = 0 &&
		! test -e "$(stored_path S2 "$id")" || return 1
	done &&
	rows_have_files S2 && no_temp_files S2 &&
	plumb archive verify --archive-dir S2 >/dev/null
'

test_expect_success CRAFT 'pull refuses a bundle the shared archive holds that does not verify' '
	LIE=$(plant S lie.plumb) &&
	test_expect_code 3 plumb archive pull --archive-dir Q --from S >out 2>err &&
	test_grep "^pulled from S: 4 sent, 0 already there, 1 refused$" out &&
	test_grep "^pull: [0-9]/5 $LIE refused: .*candidate" err &&
	test "$(count Q)" = "4 4" &&
	! test -e "$(stored_path Q "$LIE")"
'

test_expect_success CRAFT '--quiet prints the refusals only, and nothing when all went across' '
	test_expect_code 3 plumb archive push --archive-dir H --to S2 --quiet >out 2>err &&
	! test -s out &&
	test "$(wc -l <err)" = 4 &&
	test "$(grep -c "^push: [0-9]/7 .* refused: " err)" = 3 &&
	plumb archive push --archive-dir L --to S --quiet >out 2>err &&
	! test -s out && ! test -s err
'

# A shared store as a hostile or broken host leaves it: a FIFO where a
# bundle's file should be, another bundle's file under an id, a row whose
# id is not an id.  Each is a refusal of that one bundle, named; the rest
# goes across; nothing foreign is indexed.  (timeout: a hang fails.)
test_expect_success SQLITE3 'a shared archive of the four bundles, and what its rows say' '
	plumb archive push --archive-dir L --to G --quiet &&
	sqlite3 G/archive.db "SELECT id FROM bundles ORDER BY id" >gids.txt &&
	test "$(count G)" = "4 4"
'

test_expect_success SQLITE3 'a FIFO in the store folder: pull and verify finish, refuse that one and go on' '
	rm -rf F Q1 && cp -a G F &&
	id=$(head -n 1 gids.txt) && f=$(stored_path F "$id") &&
	chmod u+w "$(dirname "$f")" && rm -f "$f" && mkfifo "$f" &&
	test_expect_code 3 timeout 20 "$PLUMB" archive pull --archive-dir Q1 --from F --json >out.json 2>err &&
	test_json out.json "[r[\"id\"] for r in j[\"refused\"]] == [\"$id\"] and len(j[\"sent\"]) == 3" &&
	test_grep "^pull: [0-9]/4 $id refused: .*$id.plumb: not a regular file (a FIFO)$" err &&
	test "$(count Q1)" = "3 3" &&
	test_expect_code 3 timeout 20 "$PLUMB" archive verify --archive-dir F >out 2>err &&
	test_grep "^$id: .*$id.plumb: not a regular file (a FIFO)$" out &&
	test_grep "4 bundles and 4 files checked" out
'

test_expect_success SQLITE3 'push from a store with a FIFO: the same' '
	rm -rf F2 S3 && cp -a G F2 &&
	id=$(head -n 1 gids.txt) && f=$(stored_path F2 "$id") &&
	chmod u+w "$(dirname "$f")" && rm -f "$f" && mkfifo "$f" &&
	test_expect_code 3 timeout 20 "$PLUMB" archive push --archive-dir F2 --to S3 >out 2>err &&
	test_grep "^pushed to S3: 3 sent, 0 already there, 1 refused$" out &&
	test_grep "$id refused: .*not a regular file (a FIFO)$" err
'

test_expect_success SQLITE3 'a foreign bundle planted under another id: refused before anything is indexed' '
	rm -rf F3 Q3 && cp -a G F3 &&
	make_bundle 9 foreign.plumb && FOREIGN=$(bundle_id foreign.plumb) &&
	id=$(head -n 1 gids.txt) && f=$(stored_path F3 "$id") &&
	chmod u+w "$(dirname "$f")" "$f" && cp foreign.plumb "$f" &&
	test_expect_code 3 plumb archive pull --archive-dir Q3 --from F3 --json >out.json 2>err &&
	test_json out.json "[r[\"id\"] for r in j[\"refused\"]] == [\"$id\"] and len(j[\"sent\"]) == 3" &&
	test_grep "$id refused: .*$id.plumb: holds bundle $FOREIGN, not $id$" err &&
	test "$(sqlite3 Q3/archive.db "SELECT count(*) FROM bundles WHERE id = '\''$FOREIGN'\''")" = 0 &&
	! test -e "$(stored_path Q3 "$FOREIGN")" &&
	test "$(count Q3)" = "3 3" && rows_have_files Q3 &&
	plumb archive verify --archive-dir Q3 >/dev/null
'

test_expect_success SQLITE3 'a malformed index row: refused by name, the rest goes across' '
	rm -rf F4 Q4 && cp -a G F4 &&
	id=$(head -n 1 gids.txt) && ID=$(echo "$id" | tr a-f A-F) &&
	sqlite3 F4/archive.db "UPDATE bundles SET id = upper(id) WHERE id = '\''$id'\''" &&
	test_expect_code 3 plumb archive pull --archive-dir Q4 --from F4 >out 2>err &&
	test_grep "^pulled from F4: 3 sent, 0 already there, 1 refused$" out &&
	test_grep "$ID refused: F4/archive.db: the bundle row of id .$ID. is malformed" err &&
	test "$(count Q4)" = "3 3"
'

test_done
