#!/bin/sh
test_description='plumb bisect: a range without a slowdown, an undecided step, bad input, every format, the archive'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-bisect.sh"

chromium=$(command -v chromium || command -v chromium-browser || true)
test -n "$chromium" && test_set_prereq CHROMIUM
if command -v valgrind >/dev/null 2>&1; then
	test_set_prereq COUNTS
else
	say "valgrind is not installed (Debian package valgrind): the measuring tests skip"
fi

# Instructions are counted exactly (Valgrind, after the timed rounds), the
# same at every pad: 6 pads a side from the start, since 4+4 cannot reach
# the default rule's 99%.
test_expect_success 'a short history and a noisy one' '
	make_history repo 12 9 &&
	bisect_conf plumb.conf repo.path=repo run.pads=6 run.rounds=3 run.warmupRuns=0 \
		bench.loop.metric=instructions "bench.loop.command={artifact} 1000000" &&
	make_noisy_history noisy &&
	bisect_conf noisy.conf repo.path=noisy run.pads=6 run.rounds=3 run.warmupRuns=0 \
		bench.loop.metric=instructions "bench.loop.command={artifact} 1000000"
'

test_expect_success COUNTS 'a range without the slowdown ends "not found": the good end is not faster (exit 1)' '
	test_expect_code 1 plumb bisect --good good --bad main~4 --workdir "$TRASH/wd" -o nf >nf.txt 2>nf.err &&
	test_grep "^not found: the good end is not faster" nf.txt &&
	test_json nf/bisect.json "j[\"result\"][\"outcome\"] == \"not-faster\" and j[\"result\"][\"culprit\"] is None" &&
	test_json nf/bisect.json "len(j[\"steps\"]) == 1 and j[\"steps\"][0][\"call\"] == \"not slower\"" &&
	ls nf/*.plumb >nf.bundles && test "$(wc -l <nf.bundles)" = 1
'

test_expect_success COUNTS 'the controls of a bisect killed before its end go with the next bisect; a live one'"'"'s stay' '
	mkdir -p "$TRASH/wd/controls-20260101T000000Z-999999/x" "$TRASH/wd/controls-20260101T000000Z-$$" &&
	test_expect_code 1 plumb bisect --good good --bad main~4 --workdir "$TRASH/wd" -o nf2 >/dev/null 2>&1 &&
	! test -e "$TRASH/wd/controls-20260101T000000Z-999999" &&
	test -d "$TRASH/wd/controls-20260101T000000Z-$$" &&
	rmdir "$TRASH/wd/controls-20260101T000000Z-$$" &&
	! ls "$TRASH/wd" | grep "^controls-"
'

test_expect_success COUNTS 'an undecided step is measured against the bad end, then the bisect stops and names the range (exit 1)' '
	test_expect_code 1 plumb bisect -c noisy.conf --good good --bad main --workdir "$TRASH/wd" -o und \
		>und.txt 2>und.err &&
	test_grep "^not found: undecided; could not split" und.txt &&
	test_json und/bisect.json "j[\"result\"][\"outcome\"] == \"undecided\" and j[\"result\"][\"range\"] == [0, 2]" &&
	test_json und/bisect.json "[s[\"kind\"] for s in j[\"steps\"]] == [\"check\", \"step\", \"against-bad\"]" &&
	test_json und/bisect.json "[s[\"call\"] for s in j[\"steps\"]] == [\"slower\", \"undecided\", \"undecided\"]" &&
	test_json und/bisect.json "j[\"steps\"][2][\"base\"] == 1 and j[\"steps\"][2][\"candidate\"] == 2" &&
	test_json und/bisect.json "all(s[\"why\"] for s in j[\"steps\"][1:])" &&
	test_grep "comparison 2 (step): .*undecided" und.err
'

test_expect_success COUNTS '--archive imports every comparison labelled bisect=ID' '
	plumb bisect --good main~5 --bad main~2 --archive --workdir "$TRASH/wd" -o ar >ar.txt 2>ar.err &&
	test_grep "^found: .*(commit 9: the hot loop does more work)" ar.txt &&
	id=$(python3 -c "import json; print(json.load(open(\"ar/bisect.json\"))[\"id\"])") &&
	plumb archive list --label "bisect=$id" --json >ar.list &&
	n=$(python3 -c "import json; print(len(json.load(open(\"ar.list\"))))") &&
	test "$n" = "$(ls ar/*.plumb | wc -l)" &&
	test "$n" -ge 2
'

test_expect_success COUNTS 'every format renders the same bisect; the JSON is what docs/bisect-json.md documents' '
	plumb bisect --show ar --format json >ar.json &&
	test_cmp ar/bisect.json ar.json &&
	python3 "$TEST_SRCDIR/tests/integration/bisect-json-doc.py" "$TEST_SRCDIR/docs/bisect-json.md" ar.json &&
	python3 "$TEST_SRCDIR/tests/integration/bisect-json-doc.py" "$TEST_SRCDIR/docs/bisect-json.md" und/bisect.json &&
	plumb bisect --show ar --format md >ar.md &&
	test_grep "^| 1 | check |" ar.md &&
	test_grep "^\*\*found: " ar.md &&
	plumb bisect --show ar --format html >ar.html &&
	test_grep "<svg class=\"bisect\"" ar.html &&
	test_grep "class=\"culprit\"" ar.html &&
	test_grep_not "<script" ar.html
'

test_expect_success COUNTS 'a bisect over thousands of commits and an accented word keep the text table aligned' '
	mkdir wide &&
	python3 - ar/bisect.json wide/bisect.json <<-\PY &&
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = d["commits"]
	last = len(c) - 1
	# 2044 more commits between the good end and the bad one, the bad last.
	more = [dict(c[1], commit="%040x" % (k + 1)) for k in range(2044)]
	c = c[:-1] + more + c[-1:]
	for i, e in enumerate(c):
	    e["index"] = i
	d["commits"] = c
	for i, s in enumerate(d["steps"]):
	    s["range"] = [1000 + i, len(c) - 1]
	    for side in ("base", "candidate"):
	        if s[side] == last:
	            s[side] = len(c) - 1
	d["steps"][0]["kind"] = "contr\u00f4le"
	json.dump(d, open(sys.argv[2], "w"))
	PY
	plumb bisect --show wide >wide.txt &&
	test_grep "^  1 contr[^ ]*le  *[0-9a-f]* [0-9a-f]* 1000\.\.2047 " wide.txt &&
	python3 "$TEST_SRCDIR/tests/integration/columns-align.py" wide.txt comparison base candidate range verdict ratio
'

test_expect_success COUNTS,CHROMIUM 'the HTML page in Chromium: the path drawn, one row per comparison, nothing loaded' '
	python3 "$TEST_SRCDIR/tests/integration/report-browser.py" "$chromium" "$TRASH" ar.html >browser.json &&
	n=$(python3 -c "import json; print(len(json.load(open(\"ar/bisect.json\"))[\"steps\"]))") &&
	python3 - browser.json "$n" <<-\PY
	import json, sys
	m = json.load(open(sys.argv[1]))["ar.html"]
	rows = int(sys.argv[2])
	assert m["print"]["pdf_bytes"] > 1000, m["print"]
	for view, width in (("desktop", 1280), ("phone", 390), ("print", 680)):
	    v = m[view]
	    assert len(v["requests"]) == 1 and v["requests"][0].startswith("file://"), v["requests"]
	    assert v["console"] == [], v["console"]
	    assert v["sw"] <= v["vw"], (view, v["sw"], v["vw"])
	    b = v["bisect"]
	    assert b and b["visible"] and b["w"] > 200 and b["h"] > 50, (view, b)
	    assert b["right"] <= v["vw"] + 0.5, (view, "picture off screen", b)
	    assert v["bisect_rows"] == rows, (view, v["bisect_rows"], rows)
	    if view != "print":
	        # Every comparison'"'"'s verdict on the screen; commits by 12 digits, the whole on hover.
	        assert v["verdicts"] == rows, (view, v["verdicts"], rows)
	        assert v["offscreen"] == [], (view, v["offscreen"])
	        assert v["longhex"] == [], (view, v["longhex"])
	        assert v["ids"] and all(i["text"] == i["title"][:12] and len(i["title"]) == 40
	                                for i in v["ids"]), (view, v["ids"])
	print("ok")
	PY
'

test_expect_success 'the doc check fails when the doc and the output drift' '
	cat >drift.json <<-\EOF &&
	{"format": "plumb-bisect", "version": 1, "id": "x", "bench": "b", "metric": "wall", "extra": 1,
	 "good": {"ref": "a", "commit": "a"}, "bad": {"ref": "b", "commit": "b"},
	 "commits": [], "steps": [],
	 "result": {"outcome": "found", "summary": "s", "culprit": null, "range": [0, 1], "comparisons": 0,
	            "limit": 2, "builds": {"built": 0, "cached": 0, "buildNs": 0}, "wallNs": 0}}
	EOF
	test_must_fail python3 "$TEST_SRCDIR/tests/integration/bisect-json-doc.py" "$TEST_SRCDIR/docs/bisect-json.md" \
		drift.json >drift.out &&
	test_grep "'"'"'extra'"'"' is in the output, not in the doc" drift.out
'

test_expect_success 'bad input exits 3 naming the ref; usage errors exit 2' '
	test_expect_code 3 plumb bisect --good nosuchref --bad main --workdir "$TRASH/wd" -o bad1 2>bad1.err &&
	test_grep "^plumb: --good: .nosuchref. is not a revision of" bad1.err &&
	test_expect_code 3 plumb bisect --good good --bad nosuchref --workdir "$TRASH/wd" -o bad2 2>bad2.err &&
	test_grep "^plumb: --bad: .nosuchref. is not a revision of" bad2.err &&
	test_expect_code 3 plumb bisect --good main --bad good --workdir "$TRASH/wd" -o bad3 2>bad3.err &&
	test_grep "^plumb: --good .main. is not an ancestor of --bad .good. on its first-parent line" bad3.err &&
	test_expect_code 3 plumb bisect --good main --bad main --workdir "$TRASH/wd" -o bad4 2>bad4.err &&
	test_grep "are the same commit" bad4.err &&
	test_expect_code 3 plumb bisect --good good --bad main --metric furlongs --workdir "$TRASH/wd" -o bad5 2>bad5.err &&
	test_grep "metric" bad5.err &&
	test_expect_code 2 plumb bisect --bad main 2>use1.err &&
	test_grep "good REF and --bad REF are required" use1.err &&
	test_expect_code 2 plumb bisect --good good --bad main --format pdf 2>use2.err &&
	test_expect_code 2 plumb bisect --show ar --good good 2>use3.err &&
	! ls bad1/*.plumb bad3/*.plumb 2>/dev/null
'

test_expect_success 'several benchmarks need --bench; an unknown one is bad input' '
	cp plumb.conf two.conf &&
	git config -f two.conf bench.other.command "{artifact} 1000" &&
	test_expect_code 2 plumb bisect -c two.conf --good good --bad main 2>two.err &&
	test_grep "has 2 benchmarks; name the one to bisect with --bench" two.err &&
	test_expect_code 3 plumb bisect -c two.conf --bench nosuch --good good --bad main 2>two2.err &&
	test_grep "nosuch" two2.err
'

test_expect_success '--show reads bisect.json as untrusted input' '
	mkdir forged &&
	printf "{\"format\": \"plumb-bisect\", \"version\": 1, \"good\": {\"ref\": \"g\", \"commit\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}, \"bad\": {\"ref\": \"b\", \"commit\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}, \"commits\": [{\"commit\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"subject\": \"s\", \"author\": \"x\"}, {\"commit\": \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\", \"subject\": \"s\", \"author\": \"x\"}], \"steps\": [{\"base\": 0, \"candidate\": 7, \"range\": [0, 1], \"kind\": \"step\", \"call\": \"slower\"}], \"result\": {\"outcome\": \"found\", \"summary\": \"x\"}}\n" \
		>forged/bisect.json &&
	test_expect_code 3 plumb bisect --show forged 2>forged.err &&
	test_grep "forged/bisect.json: steps\[0\].candidate: expected an index into commits" forged.err &&
	printf "{\"format\": \"plumb-audit\"}" >forged/bisect.json &&
	test_expect_code 3 plumb bisect --show forged 2>forged2.err &&
	test_grep "format" forged2.err &&
	test_expect_code 3 plumb bisect --show nowhere 2>forged3.err &&
	test_grep "nowhere/bisect.json" forged3.err
'

test_done
