#!/bin/sh
test_description='plumb report: golden text, Markdown and JSON for every case (STYLE 13)'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/reports"

# Each tests/fixtures/reports/<case>/ holds args (the command line after
# "plumb report", paths relative to the fixture folder), status (the exit
# status expected) and expect.txt, expect.md, expect.json, expect.csv and
# expect.bmf.  The inputs are
# unpacked bundles under inputs/; tests/fixtures/reports/README says how
# to change a case.
for dir in "$golden"/*/; do
	c=$(basename "$dir")
	test -f "$dir/args" || continue
	for f in txt:text md:md json:json csv:csv bmf:bmf; do
		ext=${f%%:*}
		fmt=${f#*:}
		test_expect_success "$c: --format $fmt" '
			want=$(cat "$golden/$c/status") &&
			(cd "$golden" && test_expect_code "$want" "$PLUMB" report $(cat "$c/args") \
				--format "$fmt") >"$c.$ext" 2>"$c.$ext.err" &&
			test_cmp "$golden/$c/expect.$ext" "$c.$ext"
		'
	done
	test_expect_success "$c: an exit status other than 0 says why on stderr, once" '
		if test "$(cat "$golden/$c/status")" = 0; then
			! test -s "$c.txt.err"
		else
			test "$(wc -l <"$c.txt.err")" = 1 &&
			test_grep "^plumb: " "$c.txt.err"
		fi
	'
	test_expect_success PYTHON "$c: the JSON is the documented layout and agrees with the text" '
		python3 - "$c.json" "$c.txt" <<-\PY
		import json, sys
		j = json.load(open(sys.argv[1]))
		text = open(sys.argv[2]).read()
		assert j["format"] == "plumb-report" and j["version"] == 1
		assert set(j) == {"format", "version", "kind", "old", "new", "host", "benches",
		                  "summary", "failOn", "failing", "adjustment"}, sorted(j)
		keys = {"name", "mode", "metric", "unit", "failure", "baselineFailure",
		        "notCompared", "old", "new", "control", "ratio", "verdict", "direction",
		        "withheld", "explanation", "noise", "rule", "shift", "pads", "reason",
		        "interval", "detectable", "noiseBasis", "hot", "work", "checksum", "counters",
		        "steadyState", "simulated", "notes"}
		counts = {}
		for b in j["benches"]:
		    assert set(b) == keys, sorted(b)
		    word = b["verdict"] or ("withheld" if b["withheld"] else
		                            "failed" if b["failure"] or b["baselineFailure"] else
		                            "not compared")
		    counts[word] = counts.get(word, 0) + 1
		    for note in b["notes"]:
		        assert note.split("\x1b")[0][:20] in text or "?" in text, note
		    assert b["explanation"].split("\x1b")[0][:20] in text or "?" in text, b["explanation"]
		    if b["shift"] is not None:
		        # the effect leads: the signed shift opens the sentence
		        assert b["rule"]["name"] == "shift" and b["rule"]["minEffect"] is not None, b["rule"]
		        assert b["explanation"][0] in "+\u2212", b["explanation"]
		        assert b["shift"]["lo"] <= b["shift"]["estimate"] <= b["shift"]["hi"], b["shift"]
		        assert b["pads"]["old"] >= 1 and b["pads"]["new"] >= 1, b["pads"]
		    if b["withheld"]:
		        assert b["verdict"] is None and j["host"]["withheld"]
		s = j["summary"]
		assert s["benches"] == len(j["benches"])
		for k, n in counts.items():
		    key = {"not compared": "notCompared"}.get(k, k)
		    assert s[key] == n, (k, n, s)
		PY
	'
done

test_expect_success 'the cases cover every verdict, withheld, failed and not compared' '
	cat "$golden"/*/expect.json >all.json &&
	for v in slower faster unchanged placement unswept insufficient; do
		grep -q "\"verdict\": \"$v\"" all.json || { echo "no $v case" >&2; return 1; }
	done &&
	grep -q "\"withheld\": true" all.json &&
	grep -q "\"failure\": \"" all.json &&
	grep -q "\"notCompared\": \"" all.json
'

test_expect_success 'the cases cover noise, hot code, checksums, counters, steady state' '
	cat "$golden"/*/expect.txt >all.txt &&
	test_grep "noisy" all.txt &&
	test_grep "hot code identical (run, dispatch): a difference is placement" all.txt &&
	test_grep "hot code changed" all.txt &&
	test_grep "behaviour changed: checksum e3b0c442 → 5d41402a" all.txt &&
	test_grep "same instructions (×1.000), more cycles (×1.120): placement or micro-architecture, not more work" all.txt &&
	test_grep "steady state from sample 38" all.txt &&
	test_grep "co_p99 1.531 µs → 1.534 µs" all.txt
'

# Shift v3: the effect first, with its interval and pads, in every format;
# unchanged states its bound, placement what the pads could have detected,
# unswept why; --fail-on adjusts by Holm and says so.  Bundles judged by the
# older rules keep their words.
test_expect_success 'shift: every format leads with the effect; the gate says Holm' '
	s="$golden/shift" &&
	test_grep "^sort1m: +12.2% slower, 99% interval +10.1% to +14.4%, 8 pads a side: the interval lies wholly above the +1% minimum effect" "$s/expect.txt" &&
	test_grep "^lex: +0.08%, 99% interval −0.05% to +0.21%, 8 pads a side: no change larger than ±1%, 99%" "$s/expect.txt" &&
	test_grep "^parse: .*reaches across both edges of the minimum effect, ±1%, so the difference cannot be told from placement; it could have detected +[0-9.]*% slower or −[0-9.]*% faster with these pads" "$s/expect.txt" &&
	test_grep "^alloc: hot code identical (run): a remark; the same work was not shown, so the timing decides$" "$s/expect.txt" &&
	test_grep "^lex: control outside the base.s pads" "$s/expect.txt" &&
	test_grep "^- \*\*sort1m\*\* (slower): +12.2% slower, 99% interval +10.1% to +14.4%, 8 pads a side" "$s/expect.md" &&
	test_grep "\"explanation\": \"+12.2% slower, 99% interval +10.1% to +14.4%, 8 pads a side" "$s/expect.json" &&
	head -1 "$s/expect.csv" >csv.head &&
	test_grep ",shift,shift_low,shift_high,shift_level,p,p_adjusted,min_effect,pads,verdict,direction$" csv.head &&
	test_grep "\"shift\": {" "$s/expect.bmf" && test_grep "\"p-value\": {" "$s/expect.bmf" &&
	test_grep "^startup: +9.74% at 4 pads a side, but 4+4 pads can reach 97% at most, not 99%: no change can be called at 99%; run with more pads (5 a side can reach it)\.$" \
		"$golden/shift-unswept/expect.txt" &&
	g="$golden/shift-gate" &&
	test_grep "^--fail-on slower: Holm over 4 benchmarks at 1%: 1 fails the gate; held back by the adjustment: regex (adjusted p 0.013), utf8 (adjusted p 0.017)$" "$g/expect.txt" &&
	test_grep "^--fail-on slower: Holm over 4 benchmarks at 1%" "$g/expect.md" &&
	test_grep "\"held\": \[" "$g/expect.json" &&
	test_grep "^sort1m: The candidate.s range 91.00–94.00 ms lies wholly above the base.s 81.20–84.10 ms: 11.8% slower\.$" "$golden/slower/expect.txt"
'

test_expect_success PYTHON 'shift-gate: three slower, one fails the gate, two held back, exit 1' '
	test "$(cat "$golden/shift-gate/status")" = 1 &&
	test_json "$golden/shift-gate/expect.json" "j[\"failing\"] == [\"json\"] and j[\"adjustment\"] == {\"method\": \"holm\", \"benchmarks\": 4, \"held\": [\"regex\", \"utf8\"]} and [b[\"verdict\"] for b in j[\"benches\"]] == [\"slower\", \"slower\", \"slower\", \"unchanged\"]" &&
	test_json "$golden/shift-gate/expect.json" "all(b[\"shift\"][\"pAdjusted\"] >= b[\"shift\"][\"p\"] for b in j[\"benches\"]) and j[\"benches\"][0][\"shift\"][\"pAdjusted\"] <= 0.01 < j[\"benches\"][1][\"shift\"][\"pAdjusted\"]" &&
	test_grep "^plumb: 1 benchmark slower (--fail-on slower, Holm over 4 benchmarks): json$" shift-gate.txt.err
'

test_expect_success 'host warnings name old and new; governor and turbo are stated' '
	test_grep "^warning: governor differs: performance → powersave (start → end of the job)$" \
		"$golden/host-warnings/expect.txt" &&
	test_grep "^warning: kernel differs: 6.1.0-21-amd64 → 6.1.0-26-amd64 (baseline → this bundle)$" \
		"$golden/baseline/expect.txt" &&
	test_grep "^warning: compiler differs: " "$golden/baseline/expect.txt" &&
	test_grep "^warning: microcode differs: " "$golden/baseline/expect.txt" &&
	test_grep "^note: governor is powersave, not performance" "$golden/host-warnings/expect.txt" &&
	test_grep "^note: turbo is on" "$golden/host-warnings/expect.txt"
'

test_expect_success 'not comparable: refused with exit 3, then compared with --force' '
	test_grep "^not comparable: CPU model differs: " "$golden/not-comparable/expect.txt" &&
	test_grep "withheld$" "$golden/not-comparable/expect.txt" &&
	test_grep_not "slower" "$golden/not-comparable/expect.txt" &&
	test_grep "compared anyway (--force)" "$golden/not-comparable-forced/expect.txt" &&
	test_grep "  slower$" "$golden/not-comparable-forced/expect.txt"
'

test_expect_success 'hostile names reach no terminal as escapes, no table as cells' '
	(cd "$golden" && "$PLUMB" report inputs/hostile) >h.txt &&
	! grep -q "$(printf "\033")" h.txt &&
	! grep -q "$(printf "\342\200\256")" h.txt &&
	(cd "$golden" && "$PLUMB" report inputs/hostile --format md) >h.md &&
	test_grep "^| a\\\\|b" h.md
'

test_expect_success 'every verdict has its sentence, in text and Markdown' '
	for c in slower faster placement unswept insufficient noisy hot-identical not-comparable baseline; do
		n=$(grep -c "^| " "$golden/$c/expect.md") &&
		grep -q "^- \*\*.*\*\* ([a-z ]*): [A-Z]" "$golden/$c/expect.md" &&
		grep -q ": The \|: A pad has\|: Not compared\|: The hosts" "$golden/$c/expect.txt" ||
		{ echo "$c: no sentence" >&2; return 1; }
	done &&
	test_grep "^sort1m: The candidate.s range 91.00–94.00 ms lies wholly above the base.s 81.20–84.10 ms: 11.8% slower.$" \
		"$golden/slower/expect.txt" &&
	test_grep "The ranges do not overlap (the candidate is" "$golden/unswept/expect.md" &&
	test_grep "A pad has only 2 valid rounds" "$golden/insufficient/expect.txt" &&
	test_grep "Yet the hot code is identical" "$golden/hot-identical/expect.txt" &&
	test_grep "Yet the control moved about as much as the spread" "$golden/noisy/expect.txt" &&
	test_grep "The hosts are not comparable" "$golden/not-comparable/expect.txt"
'

test_expect_success 'Markdown: units in the headers, one number per cell, a legend, no jargon title' '
	md="$golden/slower/expect.md" &&
	test_grep "^| benchmark | metric | base (ms) | base range (ms) | base spread | candidate (ms) | candidate range (ms) | candidate spread | change | change interval |" "$md" &&
	test_grep "^| sort1m | wall | 83.20 | 81.20–84.10 | 3.49% | 93.00 | 91.00–94.00 | 3.23% | +11.8% | – |" "$md" &&
	test_grep "^Legend: the center is" "$md" &&
	test_grep "^## plumb report: candidate against base$" "$md" &&
	test_grep "^### Glossary" "$md" &&
	test_grep "^| label purpose | release-notes |$" "$golden/hostile/expect.md" &&
	! grep -h "one job" "$golden"/*/expect.md "$golden"/*/expect.txt
'

test_expect_success 'Markdown: the family by parameter and each pad over the rounds, as tables' '
	md="$golden/family/expect.md" &&
	test_grep "^### zip by parameter$" "$md" &&
	test_grep "^| size | level | base (ms) | candidate (ms) | change | verdict |$" "$md" &&
	test_grep "^| 64M | 9 | 800.8 | 864.4 | +7.95% | slower |$" "$md" &&
	test_grep "^<details><summary>zip/size=1M,level=1: each pad over the rounds</summary>$" "$md" &&
	test_grep "^| side | pad | median (ms) | rounds min–max (ms) | r0 | r1 | r2 | r3 | r4 |$" "$md"
'

test_expect_success 'a packed bundle reports as its folder does, with its id' '
	for c in placement not-comparable baseline; do
		args=$(cat "$golden/$c/args") &&
		set -- $args &&
		plumb bundle pack "$golden/$1" -o "$c.plumb" >/dev/null &&
		{ (cd "$golden" && "$PLUMB" report $args) >folder.txt 2>/dev/null || :; } &&
		shift &&
		{ (cd "$golden" && "$PLUMB" report "$TRASH/$c.plumb" "$@") >packed.txt 2>/dev/null || :; } &&
		grep -v "^  bundle " folder.txt >a &&
		grep -v "^  bundle " packed.txt >b &&
		test_cmp a b &&
		test_grep "^  bundle  *[0-9a-f]\{64\} " packed.txt || return 1
	done
'

test_expect_success 'a damaged bundle is refused: exit 3, no report' '
	plumb bundle pack "$golden/inputs/slower" -o ok.plumb >/dev/null &&
	size=$(wc -c <ok.plumb) &&
	head -c $((size / 2)) ok.plumb >cut.plumb &&
	test_expect_code 3 plumb report cut.plumb >out 2>err &&
	! test -s out &&
	test_grep "cut.plumb" err
'

test_done
