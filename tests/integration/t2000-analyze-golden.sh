#!/bin/sh
test_description='plumb analyze: golden text and JSON for samples.tsv inputs (STYLE 13)'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/analyze"

# Each tests/fixtures/analyze/<case>.tsv has <case>.txt and <case>.json beside it.
for tsv in "$golden"/*.tsv; do
	c=$(basename "$tsv" .tsv)
	test_expect_success "$c: text output" '
		cp "$golden/$c.tsv" . &&
		plumb analyze "$c.tsv" >actual 2>err &&
		test_cmp "$golden/$c.txt" actual &&
		! test -s err
	'
	test_expect_success "$c: JSON output" '
		plumb analyze --json "$c.tsv" >actual.json &&
		test_cmp "$golden/$c.json" actual.json
	'
	test_expect_success PYTHON "$c: JSON parses and agrees with the text" '
		test_json actual.json "j[\"format\"] == \"plumb-analyze\" and j[\"version\"] == 1" &&
		python3 -c "import json,sys
j = json.load(open(\"actual.json\"))
text = open(\"actual\").read()
for r in j[\"results\"]:
    v = r[\"verdict\"]
    assert (\"verdict  \" + v) in text, (r[\"bench\"], v)
"
	'
done

test_expect_success 'the cases cover every verdict' '
	cat "$golden"/*.json >all.json &&
	for v in slower faster placement unswept insufficient; do
		grep -q "\"verdict\": \"$v\"" all.json || { echo "no $v case" >&2; return 1; }
	done
'

test_expect_success PYTHON 'seed 000 /alloc table: the one-build main is placement' '
	test_json "$golden/alloc.json" "[r[\"verdict\"] for r in j[\"results\"]] == [\"placement\", \"placement\"]" &&
	test_json "$golden/alloc.json" "j[\"results\"][1][\"sides\"][\"base\"][\"center\"] == 0.9775 and j[\"results\"][1][\"sides\"][\"base\"][\"min\"] == 0.974 and j[\"results\"][1][\"sides\"][\"base\"][\"max\"] == 1.003"
'

test_expect_success 'standard input reads the same as the file' '
	plumb analyze - <sweep.tsv >stdin.txt &&
	sed "1s/^sweep.tsv:/standard input:/" "$golden/sweep.txt" >expect &&
	test_cmp expect stdin.txt
'

test_expect_success 'rows in any order give the same result' '
	{ head -n 1 sweep.tsv && tail -n +2 sweep.tsv | sort -r; } >shuffled.tsv &&
	plumb analyze shuffled.tsv >shuffled.txt &&
	sed "1s/^sweep.tsv:/shuffled.tsv:/" "$golden/sweep.txt" >expect &&
	test_cmp expect shuffled.txt
'

test_expect_success PYTHON '--warmup none keeps every sample; --warmup N discards N' '
	plumb analyze --json --warmup none codec.tsv >cold.json &&
	test_json cold.json "j[\"warmup\"][\"policy\"] == \"none\" and all(r[\"start\"] == 0 and r[\"n\"] == 300 and r[\"steady\"] == \"cold\" for s in j[\"results\"][0][\"sides\"].values() if s for p in s[\"pads\"] for r in p[\"per_round\"])" &&
	plumb analyze --json --warmup 100 codec.tsv >fixed.json &&
	test_json fixed.json "j[\"warmup\"][\"discard\"] == 100 and all(r[\"start\"] == 100 and r[\"n\"] == 200 and r[\"steady\"] == \"fixed\" for s in j[\"results\"][0][\"sides\"].values() if s for p in s[\"pads\"] for r in p[\"per_round\"])" &&
	plumb analyze --warmup none codec.tsv >cold.txt &&
	test_grep "warmup none (cold: every sample kept)" cold.txt
'

test_expect_success PYTHON 'a drifting round is flagged, never trimmed' '
	test_json "$golden/codec.json" "j[\"results\"][0][\"unsteady_rounds\"] == 1" &&
	test_json "$golden/codec.json" "[r for r in j[\"results\"][0][\"sides\"][\"candidate\"][\"pads\"][1][\"per_round\"] if r[\"steady\"] == \"none\"][0][\"start\"] == 0" &&
	test_grep "1 of 15 rounds never reached a steady state" "$golden/codec.txt"
'

test_done
