#!/bin/sh
test_description='change points of the nightly series: archive trend, archive changes, report --trend --fail-on change (docs/changes.md)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

A="$TRASH/archive"

# 200 nights of three benchmarks, placement noise 5% (each night's 4 pad
# medians anywhere in a 5% range): b0 steps up 3% at night 70 and 10% at
# night 140; b1 and b2 never change.
test_expect_success 'an archive of 200 nights with two planted steps' '
	archive_nights "$A" 200 3 -p 0.05 b0@70:3 b0@140:10 &&
	plumb archive list --archive-dir "$A" --last 1 >list &&
	test_grep "^000000000000" list
'

test_expect_success PYTHON 'archive changes: both steps within two nights, and no others' '
	plumb archive changes --archive-dir "$A" --json >c.json &&
	test_json c.json "j[\"nights\"] == 600 and j[\"series\"] == 3 and len(j[\"changes\"]) == 2" &&
	test_json c.json "all(c[\"bench\"] == \"b0\" and c[\"direction\"] == \"up\" for c in j[\"changes\"])" &&
	# Newest first: the 10% step, then the 3% one; a commit starts with its night in hex.
	test_json c.json "abs(int(j[\"changes\"][0][\"first_after\"][\"commit\"][:6], 16) - 140) <= 2" &&
	test_json c.json "abs(int(j[\"changes\"][1][\"first_after\"][\"commit\"][:6], 16) - 70) <= 2" &&
	test_json c.json "j[\"changes\"][0][\"low\"] <= 1.10 <= j[\"changes\"][0][\"high\"] and j[\"changes\"][1][\"low\"] < 1.03 < j[\"changes\"][1][\"high\"]" &&
	test_json c.json "all(int(c[\"last_before\"][\"commit\"][:6], 16) + 1 == int(c[\"first_after\"][\"commit\"][:6], 16) for c in j[\"changes\"])" &&
	test_json c.json "all(c[\"commits\"] == c[\"last_before\"][\"commit\"] + \"..\" + c[\"first_after\"][\"commit\"] for c in j[\"changes\"])"
'

test_expect_success 'archive changes as text; --since keeps the newer one' '
	plumb archive changes --archive-dir "$A" >c.txt &&
	test_grep "^host 5ca1ab1e0000c0de: 3 series, 600 nights$" c.txt &&
	test_grep "^2 change points$" c.txt &&
	test_grep "b0  *up  *+10\.[0-9]% \[" c.txt &&
	plumb archive changes --archive-dir "$A" --since 2026-04-01 >s.txt &&
	test_grep "^1 change point$" s.txt &&
	test_grep "+10\.[0-9]%" s.txt &&
	test_grep_not "+3\.[0-9]*%" s.txt &&
	plumb archive changes --archive-dir "$A" --host 5ca1 >h.txt &&
	test_cmp c.txt h.txt
'

test_expect_success 'archive changes: a bad --since or --host is bad input' '
	test_expect_code 3 plumb archive changes --archive-dir "$A" --since yesterday 2>err &&
	test_grep "since.*yesterday" err &&
	test_expect_code 3 plumb archive changes --archive-dir "$A" --host ffff 2>err &&
	test_expect_code 2 plumb archive changes extra --archive-dir "$A" 2>err
'

test_expect_success PYTHON 'archive trend and report --trend mark the same change points' '
	plumb archive trend b0 --archive-dir "$A" --json >t.json &&
	test_json t.json "[c[\"index\"] for c in j[\"changes\"]] == [i for i, p in enumerate(j[\"points\"]) if p.get(\"change\")]" &&
	test_json t.json "len(j[\"changes\"]) == 2 and abs(j[\"changes\"][0][\"index\"] - 70) <= 2 and abs(j[\"changes\"][1][\"index\"] - 140) <= 2" &&
	plumb report --trend b0 --archive-dir "$A" --format json >r.json &&
	python3 -c "import json,sys; a=json.load(open(\"t.json\"))[\"changes\"]; b=json.load(open(\"r.json\"))[\"changes\"]; sys.exit(a != b)" &&
	plumb archive trend b1 --archive-dir "$A" --json >t1.json &&
	test_json t1.json "j[\"changes\"] == [] and all(p.get(\"change\") is None for p in j[\"points\"])"
'

test_expect_success 'report --trend in text, Markdown and HTML names the change points' '
	plumb report --trend b0 --archive-dir "$A" >r.txt &&
	test_grep "^2 change points:$" r.txt &&
	test_grep "^  up   +3\.[0-9]*% \[.*between .* and .*, commits [0-9a-f]\{12\}\.\.[0-9a-f]\{12\}$" r.txt &&
	plumb report --trend b0 --archive-dir "$A" --format md >r.md &&
	test_grep "^### Change points$" r.md &&
	test_grep "^| up | +10\.[0-9]% \[" r.md &&
	plumb report --trend b0 --archive-dir "$A" --format html -o r.html &&
	test_grep "<h2>Change points</h2>" r.html &&
	test_grep "2 change points" r.html
'

# Three nights of each commit, a 10% step at night 60 (commit 20).
test_expect_success 'the HTML trend: ranges, the change point, commits printed, nights of a commit apart' '
	archive_nights R 120 1 -r 3 b0@60:10 &&
	plumb report --trend b0 --archive-dir R --format html -o r3.html &&
	test $(grep -o "<rect class=\"range new\"" r3.html | wc -l) = 120 &&
	test $(grep -o "<line class=\"changeline up\"" r3.html | wc -l) = 1 &&
	test_grep "<text class=\"changelabel up\"[^>]*>[^<]* +\(9\.[5-9][0-9]*\|10\.[0-5]\)%</text>" r3.html &&
	# One bracket and one label per commit at most; the commits either side named.
	test $(grep -o "<line class=\"commitgroup\"" r3.html | wc -l) = 40 &&
	test_grep "<title>3 nights of one commit</title>" r3.html &&
	test_grep "rotate(-60)\">000013c0 [^<]*3</text>" r3.html &&
	test_grep "rotate(-60)\">000014c0 [^<]*3</text>" r3.html &&
	# Every night its own place on the axis, though three share a time.
	grep -o "<circle class=\"pad new[^\"]*\" cx=\"[0-9.]*\"" r3.html | sed "s/.*cx=//" | sort -u >xs &&
	test $(wc -l <xs) = 120
'

# Night by night as cron would meet them: the archive as it stood after
# each night (the generator makes the same first nights for any length).
test_expect_success MANY_ARCHIVES '--fail-on change exits 1 only on the nights that start a change' '
	: >gate.txt && : >slower.txt &&
	for t in $(seq 30 200); do
		rm -rf "a.$t" &&
		archive_nights "a.$t" $t 1 -p 0.05 b0@70:3 b0@140:10 &&
		{ plumb report --trend b0 --archive-dir "a.$t" --fail-on change >/dev/null 2>"err.$t"; echo "$t $?" >>gate.txt; } &&
		{ plumb report --trend b0 --archive-dir "a.$t" --fail-on slower >/dev/null 2>&1; echo "$t $?" >>slower.txt; } &&
		rm -rf "a.$t" || return 1
	done &&
	# Exit 1 only when the latest night is one of the first nights of a
	# step (70..72, 140..142), at least once for each step, 0 elsewhere.
	awk "\$2 != 0 && \$2 != 1 { bad = 1 }
	     \$2 == 1 && !((\$1 - 1 >= 70 && \$1 - 1 <= 72) || (\$1 - 1 >= 140 && \$1 - 1 <= 142)) { bad = 1 }
	     \$2 == 1 && \$1 - 1 <= 72 { a = 1 }
	     \$2 == 1 && \$1 - 1 >= 140 { b = 1 }
	     END { exit bad || !a || !b }" gate.txt || { cat gate.txt >&2; return 1; } &&
	t=$(awk "\$2 == 1 { print \$1; exit }" gate.txt) &&
	test_grep "the latest nights start a change point up.*--fail-on change" "err.$t" &&
	# Both steps are slowdowns, so --fail-on slower gates on the same
	# nights: the change points, never a night merely apart from the one
	# before (5% noise makes such shifts on nights with no change).
	cmp gate.txt slower.txt
'

test_expect_success '--fail-on change goes with --trend only' '
	test_expect_code 2 plumb report --fail-on change "$A" 2>err &&
	test_grep "fail-on change goes with --trend" err &&
	test_expect_code 2 plumb run --fail-on change 2>err &&
	test_expect_code 2 plumb report --trend b0 --fail-on bogus --archive-dir "$A" 2>err &&
	test_grep "slower, any, noisy or change" err
'

test_done
