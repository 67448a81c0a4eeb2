#!/bin/sh
test_description='plumb import: an imported bundle verifies, archives, reports and audits like any other, signed or not, and its hostile strings stay escaped'
. "$(dirname "$0")/test-lib.sh"

src="$FIXTURES/import"
check="$TEST_SRCDIR/tests/integration/no-controls.py"

test_expect_success 'a pyperf suite and a Google Benchmark pair, imported' '
	cp "$src"/*.json "$src"/*.gz . &&
	plumb import pyperf-mult_list_py37.json pyperf-mult_list_py38.json -o py.plumb --label purpose=release-notes >out &&
	test_grep "^py.plumb: bundle [0-9a-f]\{64\}, 3 benchmarks imported from pyperf$" out &&
	plumb import gbench-base.json gbench-candidate.json -o gb.plumb >/dev/null 2>err &&
	test_grep "warning: gbench-base.json: the Google Benchmark library was a debug build" err
'

test_expect_success 'bundle verify and show' '
	plumb bundle verify py.plumb >verify &&
	test_grep "^py.plumb: ok" verify &&
	plumb bundle show py.plumb >show &&
	test_grep "pyperf 2.0.1" show
'

test_expect_success 'archive add (twice: the same id), list, and a trend of an imported benchmark' '
	plumb archive add py.plumb --archive-dir A >add1 &&
	plumb archive add py.plumb --archive-dir A >add2 &&
	test "$(cut -c1-64 add1)" = "$(cut -c1-64 add2)" &&
	plumb archive add gb.plumb --archive-dir A >/dev/null &&
	plumb archive list --archive-dir A >list &&
	test $(grep -c "^[0-9a-f]\{12\} " list) = 2 &&
	test_grep "purpose=release-notes" list &&
	plumb archive verify --archive-dir A >averify
'

test_expect_success 'report in every format; the verdicts are the one-pad rules' '
	for f in text md html json csv bmf; do
		plumb report py.plumb --format $f >report.$f || return 1
	done &&
	test_grep "unswept" report.text &&
	test_json report.json "all(b[\"verdict\"] in (\"unswept\", \"placement\", \"insufficient\") for b in j[\"benches\"])" &&
	test_grep "^<!DOCTYPE html>" report.html
'

test_expect_success 'a report against an imported baseline in the archive' '
	plumb archive baseline set imported py.plumb --archive-dir A >/dev/null &&
	plumb report py.plumb --baseline imported --archive-dir A >against &&
	test_grep "\[1\]\*1000" against
'

test_expect_success 'audit passes integrity, consistency and re-analysis' '
	plumb audit py.plumb >audit &&
	test_grep "^Integrity: pass" audit &&
	test_grep "^Consistency: pass" audit &&
	test_grep "^Re-analysis under today.s rule: pass" audit &&
	test_grep "written by           pyperf 2.0.1" audit &&
	test_grep "imported from        pyperf-mult_list_py37.json (base side, sha256 [0-9a-f]\{64\})" audit &&
	test_grep "warmup runs not recorded" audit &&
	plumb audit gb.plumb --format json >audit.json &&
	test_json audit.json "j[\"result\"] == \"pass\""
'

test_expect_success 'a forged verdict in an imported bundle is refused like any other' '
	plumb bundle extract py.plumb x >/dev/null &&
	rm x/SHA256SUMS x/README.txt &&
	sed "s/\"verdict\": \"unswept\"/\"verdict\": \"slower\"/" x/manifest.json >m &&
	! cmp -s m x/manifest.json &&
	mv m x/manifest.json &&
	test_expect_code 3 plumb bundle pack x -o forged.plumb 2>err &&
	test_grep "verdict" err
'

test_expect_success 'signed with --sign: verify checks it with the public key' '
	plumb bundle keygen -o k >/dev/null &&
	plumb import hyperfine-base.json hyperfine-candidate.json -o s.plumb --sign k.key >out &&
	test_grep "(signed)$" out &&
	plumb bundle verify s.plumb -p k.pub --require-signature >/dev/null
'

test_expect_success 'hostile command lines: every view escapes them' '
	base=$(python3 -c "import json; print(json.load(open(\"hyperfine-hostile.json\"))[\"results\"][0][\"command\"])") &&
	cand=$(python3 -c "import json; print(json.load(open(\"hyperfine-hostile.json\"))[\"results\"][1][\"command\"])") &&
	plumb import hyperfine-hostile.json --base "$base" --candidate "$cand" -o h.plumb >out 2>err &&
	plumb bundle show h.plumb >h.show &&
	for f in text md html csv; do
		plumb report h.plumb --format $f >h.$f || return 1
	done &&
	plumb audit h.plumb >h.audit &&
	plumb archive add h.plumb --archive-dir A >/dev/null &&
	plumb archive list --archive-dir A >h.list &&
	python3 "$check" out err h.show h.text h.md h.html h.csv h.audit h.list &&
	test_grep_not "<script>" h.html &&
	test_grep "&lt;script&gt;" h.html
'

test_expect_success 'hostile pyperf names and host facts: every view escapes them' '
	python3 - pyperf-telco.json <<-\PY &&
	import json, sys
	evil = "\x1b[31m<i>x</i>\u202e\x07\u2028"
	d = json.load(open(sys.argv[1]))
	d["metadata"]["name"] = "telco" + evil
	d["metadata"]["hostname"] = "host" + evil + "<script>"
	d["metadata"]["cpu_model_name"] = "cpu" + evil
	json.dump(d, open("evil-a.json", "w"))
	d["metadata"]["name"] = "other" + evil
	json.dump(d, open("evil-b.json", "w"))
	PY
	plumb import evil-a.json evil-b.json -o pe.plumb >out 2>err &&
	plumb bundle show pe.plumb >pe.show &&
	for f in text md html json; do
		plumb report pe.plumb --format $f >pe.$f || return 1
	done &&
	plumb audit pe.plumb >pe.audit &&
	python3 "$check" out err pe.show pe.text pe.md pe.html pe.audit &&
	test_grep_not "<script>" pe.html &&
	test_grep_not "<i>x</i>" pe.html &&
	plumb bundle extract pe.plumb pe >/dev/null &&
	test_json pe/manifest.json "j[\"host\"][\"start\"][\"hostname\"].startswith(\"host\x1b\")"
'

test_expect_success 'the hostile fixture does hold raw controls (the check can fail)' '
	python3 -c "import json; print(json.load(open(\"hyperfine-hostile.json\"))[\"results\"][0][\"command\"])" >raw &&
	! python3 "$check" raw >/dev/null
'

test_expect_success 'a bad name in an error message is escaped too' '
	test_expect_code 2 plumb import hyperfine-hostile.json --base "$(printf "x\033[2J")" --candidate y -o n.plumb 2>err &&
	test_grep "has no benchmark of that name" err &&
	python3 "$check" err &&
	! test -e n.plumb
'

test_done
