#!/bin/sh
test_description='plumb import: every fixture made by the real tools imports to its checked-in report and manifest'
. "$(dirname "$0")/test-lib.sh"

src="$FIXTURES/import"
SOURCE_DATE_EPOCH=1764547200
export SOURCE_DATE_EPOCH

# run_case LINE: import one line of the cases file and write NAME.report.json
# and NAME.manifest.json here; echoes NAME.
run_case() {
	set -f
	IFS='|'
	# shellcheck disable=SC2086
	set -- $1
	unset IFS
	set +f
	name=$1
	shift
	plumb import "$@" -o "$name.plumb" >"$name.out" 2>"$name.err" &&
	plumb report "$name.plumb" --format json >"$name.report.json" &&
	plumb bundle extract "$name.plumb" "x-$name" >/dev/null &&
	cp "x-$name/manifest.json" "$name.manifest.json" &&
	echo "$name"
}

test_expect_success 'the fixtures, copied so the recorded paths are relative' '
	cp "$src"/*.json "$src"/*.gz . &&
	grep -v "^#" "$src/cases" >cases &&
	test $(wc -l <cases) -ge 8
'

test_expect_success 'each case imports and matches its expected report and manifest' '
	while IFS= read -r line; do
		name=$(run_case "$line") || { echo "case failed: $line" >&2; cat "${line%%|*}.err" >&2; return 1; }
		test_cmp "$src/expect/$name.report.json" "$name.report.json" &&
		test_cmp "$src/expect/$name.manifest.json" "$name.manifest.json" || return 1
	done <cases
'

test_expect_success 'every expected file belongs to a case (none is left over, none missing)' '
	cut -d"|" -f1 cases | sort >names &&
	ls "$src/expect" | sed -n "s/\.report\.json$//p" | sort >reports &&
	ls "$src/expect" | sed -n "s/\.manifest\.json$//p" | sort >manifests &&
	test_cmp names reports &&
	test_cmp names manifests
'

test_expect_success 'the comparison fails when a golden drifts (a changed center is caught)' '
	sed "s/\"center\": [0-9]/\"center\": 9/" "$src/expect/pyperf-gzip.report.json" >drifted &&
	! cmp -s drifted "$src/expect/pyperf-gzip.report.json" &&
	! test_cmp drifted pyperf-gzip.report.json 2>/dev/null
'

test_expect_success 'the same files import to the same bytes' '
	plumb import hyperfine-base.json hyperfine-candidate.json -o again.plumb >/dev/null &&
	cmp hyperfine-pair.plumb again.plumb
'

test_expect_success 'what the sources recorded is in the bundle: tool, version, host facts or unknown' '
	test_json pyperf-gzip.manifest.json "j[\"tool\"] == {\"name\": \"pyperf\", \"version\": \"0.8.2\"} and j[\"minorVersion\"] == 5" &&
	test_json pyperf-gzip.manifest.json "j[\"host\"][\"start\"][\"hostname\"] == \"selma\" and j[\"host\"][\"start\"][\"cpu\"][\"logical\"] == 4 and j[\"host\"][\"fingerprint\"]" &&
	test_json pyperf-gzip.manifest.json "[f[\"gzip\"] for f in j[\"source\"][\"files\"]] == [False, True]" &&
	test_json gbench-repetitions.manifest.json "j[\"tool\"][\"name\"] == \"google-benchmark\" and j[\"host\"][\"start\"][\"hostname\"] == \"vm\" and j[\"source\"][\"files\"][0][\"facts\"][\"library_build_type\"] == \"debug\"" &&
	test_json hyperfine-pair.manifest.json "j[\"tool\"] == {\"name\": \"hyperfine\", \"version\": \"unknown\"} and j[\"host\"][\"start\"][\"hostname\"] is None and j[\"host\"][\"start\"][\"cpu\"][\"model\"] is None and j[\"host\"][\"start\"][\"recorded\"].startswith(\"unknown\") and \"fingerprint\" not in j[\"host\"]" &&
	test_json hyperfine-pair.manifest.json "all(\"commit\" not in j[\"repo\"][s] for s in (\"base\", \"candidate\")) and j[\"build\"][\"variants\"] == []"
'

test_expect_success 'one pad a side: a difference is unswept, never slower or faster; one repetition is insufficient' '
	cat *.report.json | grep "\"verdict\"" | sort -u >verdicts &&
	test_grep_not "slower\"\|faster\"" verdicts &&
	test_json pyperf-suite.report.json "[b[\"verdict\"] for b in j[\"benches\"]].count(\"unswept\") >= 2" &&
	test_json gbench-single.report.json "j[\"benches\"][0][\"verdict\"] == \"insufficient\"" &&
	test_json pyperf-suite.manifest.json "all(len(b[\"sides\"][s][\"pads\"]) == 1 for b in j[\"benches\"] for s in (\"base\", \"candidate\"))"
'

test_expect_success 'samples: pyperf values per run, warmups left out; Google Benchmark per repetition; hyperfine non-zero exits said' '
	plumb bundle extract pyperf-gzip.plumb s1 >/dev/null &&
	test $(grep -c "^telco	base	0	" s1/samples.tsv) = 120 &&
	test_json pyperf-gzip.manifest.json "j[\"benches\"][0][\"mode\"] == \"samples\" and any(\"warmup values left out\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	plumb bundle extract gbench-repetitions.plumb s2 >/dev/null &&
	test $(grep -c "^BM_copy/4096	base	0	[1-5]	-	wall	" s2/samples.tsv) = 5 &&
	test $(grep -c "^BM_copy/4096	base	0	[1-5]	-	cpu	" s2/samples.tsv) = 5 &&
	test_json gbench-cpu.manifest.json "all(b[\"metric\"] == \"cpu\" for b in j[\"benches\"])" &&
	test_json hyperfine-failing.manifest.json "any(\"5 of 5 runs exited non-zero\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "debug build" gbench-repetitions.err &&
	test_json hyperfine-select.manifest.json "j[\"run\"][\"labels\"] == {\"purpose\": \"release-notes\"} and j[\"benches\"][0][\"name\"] == \"sleep 0.002 vs sleep 0.004\""
'

test_done
