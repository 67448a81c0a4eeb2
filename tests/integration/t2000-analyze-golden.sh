#!/bin/sh
test_description='plumb analyze: golden text and JSON for samples.tsv inputs (STYLE 13)'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/analyze"

# Each tests/fixtures/analyze/<case>.tsv has <case>.txt and <case>.json beside it,
# and <case>.args the options it is analysed with (none: the default rule).
for tsv in "$golden"/*.tsv; do
	c=$(basename "$tsv" .tsv)
	args=$(cat "$golden/$c.args" 2>/dev/null || :)
	test_expect_success "$c: text output" '
		cp "$golden/$c.tsv" . &&
		plumb analyze $args "$c.tsv" >actual 2>err &&
		test_cmp "$golden/$c.txt" actual &&
		! test -s err
	'
	test_expect_success "$c: JSON output" '
		plumb analyze $args --json "$c.tsv" >actual.json &&
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
	for v in slower faster unchanged placement unswept insufficient noisy; do
		grep -q "\"verdict\": \"$v\"" all.json || { echo "no $v case" >&2; return 1; }
	done
'

test_expect_success PYTHON 'seed 000 /alloc table: the one-build main is placement' '
	test_json "$golden/alloc.json" "[r[\"verdict\"] for r in j[\"results\"]] == [\"placement\", \"placement\"]" &&
	test_json "$golden/alloc.json" "j[\"results\"][1][\"sides\"][\"base\"][\"center\"] == 0.9775 and j[\"results\"][1][\"sides\"][\"base\"][\"min\"] == 0.974 and j[\"results\"][1][\"sides\"][\"base\"][\"max\"] == 1.003"
'

test_expect_success PYTHON 'the overlap rule says faster where the margin rule says placement or noisy' '
	cp "$golden/sweep.tsv" "$golden/margin.tsv" . &&
	plumb analyze --json --rule overlap sweep.tsv >ov.json &&
	plumb analyze --json --rule margin sweep.tsv >mg.json &&
	test_json ov.json "[r[\"verdict\"] for r in j[\"results\"] if r[\"bench\"] == \"faster\"] == [\"faster\"] and j[\"results\"][0][\"rule\"][\"name\"] == \"overlap\"" &&
	test_json mg.json "[(r[\"verdict\"], r[\"reason\"]) for r in j[\"results\"] if r[\"bench\"] == \"faster\"] == [(\"placement\", \"ranges overlap\")] and j[\"results\"][0][\"rule\"] == {\"name\": \"margin\", \"version\": 2, \"confidence\": 0.95, \"noise_factor\": 1, \"resamples\": 2000, \"seed\": 1, \"min_effect\": None}" &&
	plumb analyze --json --rule overlap margin.tsv >ov2.json &&
	test_json ov2.json "[r[\"verdict\"] for r in j[\"results\"] if r[\"bench\"] == \"within-noise\"] == [\"faster\"]" &&
	test_json "$golden/margin.json" "[(r[\"verdict\"], r[\"direction\"]) for r in j[\"results\"] if r[\"bench\"] == \"within-noise\"] == [(\"noisy\", \"faster\")]"
'

test_expect_success 'analyze --rule takes shift, margin or overlap only' '
	test_expect_code 2 plumb analyze --rule strict sweep.tsv 2>err &&
	grep -q "shift, margin or overlap" err
'

test_expect_success PYTHON 'shift v3 calls the planted slowdown the margin rule calls placement' '
	cp "$golden/shift.tsv" . &&
	plumb analyze --json --rule margin shift.tsv >v2.json &&
	plumb analyze --json shift.tsv >v3.json &&
	test_json v2.json "[r[\"verdict\"] for r in j[\"results\"] if r[\"bench\"] == \"planted\"] == [\"placement\"]" &&
	test_json v3.json "[(r[\"verdict\"], r[\"rule\"][\"name\"], r[\"rule\"][\"confidence\"], r[\"rule\"][\"min_effect\"]) for r in j[\"results\"] if r[\"bench\"] == \"planted\"] == [(\"slower\", \"shift\", 0.99, 0.01)]" &&
	test_json v3.json "all(r[\"shift\"][\"lo\"] <= r[\"shift\"][\"estimate\"] <= r[\"shift\"][\"hi\"] and 0 < r[\"shift\"][\"p_min\"] <= r[\"shift\"][\"p\"] <= 1 for r in j[\"results\"])" &&
	test_json v3.json "{r[\"bench\"]: r[\"verdict\"] for r in j[\"results\"]} == {\"planted\": \"slower\", \"same\": \"unchanged\", \"moved\": \"placement\", \"few\": \"unswept\"}" &&
	plumb analyze shift.tsv >v3.txt &&
	test_grep "4+4 pads can reach 97% at most, not 99%" v3.txt &&
	test_grep "no change larger than" v3.txt
'

test_expect_success PYTHON 'the ratio interval and the detectable change are in the text and the JSON' '
	plumb analyze --rule margin margin.tsv >m.txt &&
	grep -q "95% interval" m.txt && grep -q "  power    " m.txt &&
	test_json "$golden/margin.json" "all(r[\"interval\"][\"lo\"] <= r[\"ratio\"] <= r[\"interval\"][\"hi\"] and r[\"detectable\"][\"value\"] > 0 for r in j[\"results\"])"
'

test_expect_success 'standard input reads the same as the file' '
	plumb analyze --rule margin - <sweep.tsv >stdin.txt &&
	sed "1s/^sweep.tsv:/standard input:/" "$golden/sweep.txt" >expect &&
	test_cmp expect stdin.txt
'

test_expect_success 'rows in any order give the same result' '
	{ head -n 1 sweep.tsv && tail -n +2 sweep.tsv | sort -r; } >shuffled.tsv &&
	plumb analyze --rule margin shuffled.tsv >shuffled.txt &&
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
