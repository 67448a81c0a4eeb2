#!/bin/sh
test_description='plumb audit: integrity, consistency (every difference named), provenance and today'"'"'s rule, in four formats'
. "$(dirname "$0")/test-lib.sh"

golden="$FIXTURES/reports/inputs"
craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"
command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq CRAFT

# lie NAME PYTHON: ok.plumb with its manifest m changed by PYTHON and
# SHA256SUMS redone, so that only the consistency check can see it.
lie() {
	python3 - ok/manifest.json "$2" "$1.json" <<-\PY &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	exec(sys.argv[2])
	json.dump(m, open(sys.argv[3], "w"), indent=1)
	PY
	python3 "$craft" "$1.plumb" --from ok.plumb --file "manifest.json=@$1.json" --resum
}

# The bundle of the report goldens recorded under the seeds' overlap rule
# (v1), 4 pads a side: today's rule, shift v4, cannot reach 99% with them,
# and the audit says so beside the recorded verdict; a difference under
# today's rule is information, not a failure.
test_expect_success 'an honest bundle passes, exit 0; today.s rule is shown beside the recorded one' '
	cp -R "$golden/slower" ok && chmod -R u+w ok &&
	plumb bundle pack ok -o ok.plumb >/dev/null &&
	plumb audit ok.plumb >out &&
	test_grep "^audit of ok.plumb$" out &&
	test_grep "^Integrity: pass (every member matches SHA256SUMS)$" out &&
	test_grep "^Consistency: pass (the manifest agrees with samples.tsv)$" out &&
	test_grep "^Provenance: incomplete (not recorded: tree ids, round order, environment values, working folder, commands as run, inputs, toolchain)$" out &&
	test_grep "^Re-analysis under today.s rule: differs (2 of 2 verdicts differ under today.s rule (shift, version 4, at 99%))$" out &&
	test_grep "^  fingerprint  *recomputed from the host facts$" out &&
	test_grep "^  signature  *none$" out &&
	test_grep "^  sort1m  *slower (overlap v1)  *unswept (slower) (shift v4)  *1.118  differs$" out &&
	test_grep "^audit: pass$" out
'

test_expect_success PYTHON 'the JSON says the same, part by part' '
	plumb audit ok.plumb --format json >a.json &&
	test_json a.json "j[\"format\"] == \"plumb-audit\" and j[\"result\"] == \"pass\" and len(j[\"id\"]) == 64" &&
	test_json a.json "[p[\"part\"] for p in j[\"parts\"]] == [\"integrity\", \"consistency\", \"provenance\", \"reanalysis\"]" &&
	test_json a.json "[p[\"state\"] for p in j[\"parts\"]] == [\"pass\", \"pass\", \"incomplete\", \"differs\"]" &&
	test_json a.json "j[\"parts\"][3][\"benches\"][0][\"name\"] == \"sort1m\" and j[\"parts\"][3][\"benches\"][0][\"differs\"] and j[\"parts\"][3][\"benches\"][0][\"today\"] == \"unswept (slower) (shift v4)\""
'

# A bundle recorded under shift v3 (8 pads a side, one batch): today's
# rule, v4, gives the recorded verdicts, every one of them.
test_expect_success PYTHON 'a bundle judged by today.s rule re-analyses to its verdicts: pass' '
	cp -R "$golden/shift" sh && chmod -R u+w sh &&
	plumb bundle pack sh -o sh.plumb >/dev/null &&
	plumb audit sh.plumb >out &&
	test_grep "^Re-analysis under today.s rule: pass (today.s rule (shift, version 4, at 99%) gives the recorded verdicts)$" out &&
	test_grep "^  sort1m  *slower (shift v3)  *slower (shift v4)  " out &&
	test_grep "^  lex  *unchanged (shift v3)  *unchanged (shift v4)  " out &&
	test_grep "^audit: pass$" out &&
	plumb audit sh.plumb --format json >sh.json &&
	test_json sh.json "[p[\"state\"] for p in j[\"parts\"]][3] == \"pass\" and not any(b[\"differs\"] for b in j[\"parts\"][3][\"benches\"])"
'

# The same bundle from an adaptive sweep of 8 to 16 pads: a run today
# would judge each of its 3 looks at 1 - 1%/3, and so does the audit.
test_expect_success PYTHON 'a sweep.s bundle is judged at the level its looks would get today' '
	cp -R "$golden/shift" sw && chmod -R u+w sw &&
	python3 - sw/manifest.json <<-\PY &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	final = [{"bench": b["name"], "verdict": b["verdict"], "undecided": False} for b in m["benches"]]
	m["run"]["sweep"] = {"startPads": 8, "maxPads": 16, "budgetNs": 0, "pads": 8,
	                     "stopped": "decided", "spentNs": 1, "extensions": [], "final": final}
	json.dump(m, open(sys.argv[1], "w"), indent=1)
	PY
	plumb bundle pack sw -o sw.plumb >/dev/null &&
	plumb audit sw.plumb >out &&
	test_grep "^Re-analysis under today.s rule: .*(shift, version 4, at 99.6667%)" out &&
	plumb audit sh.plumb >out &&
	test_grep "^Re-analysis under today.s rule: .*(shift, version 4, at 99%)" out
'

test_expect_success 'md and html render the same parts; -o writes the file' '
	plumb audit ok.plumb --format md >a.md &&
	test_grep "^## Integrity: pass$" a.md && test_grep "^## Consistency: pass$" a.md &&
	test_grep "^\*\*audit: pass\*\*$" a.md &&
	plumb audit ok.plumb --format html -o a.html >out &&
	! test -s out &&
	test_grep "<h2>Consistency: <span class=\"pass\">pass</span></h2>" a.html &&
	test_expect_code 2 plumb audit ok.plumb --format pdf 2>err &&
	test_grep "text, md, html or json" err &&
	test_expect_code 2 plumb audit 2>err
'

test_expect_success CRAFT 'an edited verdict fails consistency, exit 3, naming the field' '
	lie verdict "m[\"benches\"][0][\"verdict\"] = \"faster\"" &&
	test_expect_code 3 plumb audit verdict.plumb >out &&
	test_grep "^Integrity: pass" out &&
	test_grep "^Consistency: FAIL (1 difference between the manifest and its samples)$" out &&
	test_grep "^  difference: verdict.plumb: manifest.json: benches\[0\]\.verdict: .faster. recorded, but samples.tsv gives .slower." out &&
	test_grep "^audit: fail$" out
'

test_expect_success CRAFT 'an edited center and an edited verdict: each difference is named' '
	lie center "b = m[\"benches\"][1][\"sides\"][\"base\"]; b[\"center\"] = b[\"center\"] * 1.001; m[\"benches\"][0][\"verdict\"] = \"placement\"" &&
	test_expect_code 3 plumb audit center.plumb >out &&
	test_grep "^Consistency: FAIL (2 differences" out &&
	test_grep "difference: .*benches\[1\]\.sides\.base\.center: .* recorded, but samples.tsv gives" out &&
	test_grep "difference: .*benches\[0\]\.verdict: .placement. recorded" out &&
	plumb audit center.plumb --format json >c.json || test $? = 3 &&
	test_json c.json "len(j[\"parts\"][1][\"differences\"]) == 2 and j[\"result\"] == \"fail\""
'

test_expect_success CRAFT 'a row removed from samples.tsv with the checksums redone' '
	sed 4d ok/samples.tsv >less.tsv &&
	python3 "$craft" rows.plumb --from ok.plumb --file samples.tsv=@less.tsv --resum &&
	test_expect_code 3 plumb audit rows.plumb >out &&
	test_grep "^Integrity: pass" out &&
	test_grep "^Consistency: FAIL" out &&
	test_grep "difference: rows.plumb: manifest.json: benches\[0\]\.sides\.base\.rounds: 5 recorded, but samples.tsv gives 4" out
'

test_expect_success CRAFT 'a fingerprint that does not match its facts' '
	lie fp "m[\"host\"][\"fingerprint\"] = \"0123456789abcdef\"" &&
	test_expect_code 3 plumb audit fp.plumb >out &&
	test_grep "difference: fp.plumb: manifest.json: host.fingerprint: .0123456789abcdef. recorded, but the host facts it summarises give .000cecd03f192526." out &&
	lie fpcpu "m[\"host\"][\"start\"][\"cpu\"][\"model\"] = \"Another CPU\"" &&
	test_expect_code 3 plumb audit fpcpu.plumb >out &&
	test_grep "host.fingerprint: .000cecd03f192526. recorded, but the host facts" out &&
	test_grep "host.start.fingerprint: .000cecd03f192526. recorded" out
'

test_expect_success CRAFT 'a damaged member fails integrity; nothing else is judged' '
	python3 "$craft" bad.plumb --from ok.plumb --file samples.tsv=@ok/manifest.json &&
	test_expect_code 3 plumb audit bad.plumb >out &&
	test_grep "^Integrity: FAIL (bad.plumb: member .samples.tsv.: checksum mismatch" out &&
	test_grep "^Consistency: not checked" out &&
	test_expect_code 3 plumb audit missing.plumb 2>err &&
	test_grep "missing.plumb" err
'

test_expect_success 'a signed bundle against the trusted-keys folder, and against a wrong key' '
	plumb bundle keygen -o k >/dev/null && plumb bundle keygen -o other >/dev/null &&
	cp ok.plumb signed.plumb && plumb bundle sign signed.plumb -k k.key >/dev/null &&
	plumb audit signed.plumb >out &&
	test_grep "^  signature  *present, key [0-9A-F]*, not checked: no trusted key" out &&
	mkdir -p cfg/plumb/trusted && cp k.pub cfg/plumb/trusted/release.pub &&
	XDG_CONFIG_HOME="$TRASH/cfg" plumb audit signed.plumb >out &&
	test_grep "^  signature  *good, key [0-9A-F]* (trusted key $TRASH/cfg/plumb/trusted/release.pub)$" out &&
	test_grep "^  trusted comment  *bundle:[0-9a-f]\{64\}" out &&
	plumb audit signed.plumb -p other.pub -p k.pub >out &&
	test_grep "^  signature  *good, key [0-9A-F]* (k.pub)$" out &&
	test_expect_code 3 plumb audit signed.plumb -p other.pub >out &&
	test_grep "^Integrity: FAIL (signed.plumb: SHA256SUMS.sig: signed with key [0-9A-F]*, which is none of the 1 trusted key)$" out &&
	rm cfg/plumb/trusted/release.pub && cp other.pub cfg/plumb/trusted/ &&
	XDG_CONFIG_HOME="$TRASH/cfg" test_expect_code 3 plumb audit signed.plumb >out &&
	test_grep "^Integrity: FAIL" out &&
	test_expect_code 3 plumb audit ok.plumb -p k.pub >out &&
	test_grep "^Integrity: FAIL (ok.plumb: not signed" out
'

test_expect_success 'a folder: verified with its SHA256SUMS, unverified without' '
	plumb bundle extract signed.plumb x >/dev/null &&
	plumb audit x -p k.pub >out &&
	test_grep "^Integrity: pass" out &&
	test_grep "^  signature  *good" out &&
	grep "^  id " out >id1 && plumb audit signed.plumb | grep "^  id " >id2 && test_cmp id1 id2 &&
	echo "# edited" >>x/README.txt &&
	test_expect_code 3 plumb audit x >out &&
	test_grep "^Integrity: FAIL (x: member .README.txt.: checksum mismatch" out &&
	rm x/SHA256SUMS x/SHA256SUMS.sig &&
	plumb audit x >out &&
	test_grep "^Integrity: unverified (a folder without SHA256SUMS" out &&
	test_grep "^audit: pass$" out &&
	plumb audit x --format json >x.json &&
	test_json x.json "j[\"parts\"][0][\"state\"] == \"unverified\" and j[\"id\"] is None"
'

test_expect_success 'report and pack check a folder against its SHA256SUMS too' '
	plumb bundle extract ok.plumb e >/dev/null &&
	plumb report e >out &&
	test_grep "^  bundle  *[0-9a-f]\{64\} e$" out &&
	plumb bundle pack e -o e.plumb >out &&
	grep -o "[0-9a-f]\{64\}" out >id1 && plumb bundle verify ok.plumb | sed -n "s/^id  *//p" >id2 &&
	test_cmp id1 id2 &&
	sed "s/sort1m/sort2m/" e/samples.tsv >e/s && mv e/s e/samples.tsv &&
	test_expect_code 3 plumb report e 2>err &&
	test_grep "e: member .samples.tsv.: checksum mismatch" err &&
	test_expect_code 3 plumb bundle pack e -o e2.plumb 2>err &&
	test_grep "e: member .samples.tsv.: checksum mismatch" err &&
	! test -e e2.plumb
'

test_expect_success 'a folder without SHA256SUMS is unverified on every report format' '
	for f in text md html json; do
		plumb report ok --format $f >r.$f || return 1
	done &&
	test_grep "^  bundle  *ok (unverified: no SHA256SUMS)$" r.text &&
	test_grep "^Bundle: ok (unverified: no SHA256SUMS)" r.md &&
	test_grep "ok (unverified: no SHA256SUMS)" r.html &&
	test_grep "\"verified\": false" r.json &&
	plumb report ok.plumb --format json >rb.json &&
	test_grep "\"verified\": true" rb.json
'

test_expect_success 'hostile strings are escaped in every format' '
	for f in text md html json; do
		plumb audit "$golden/hostile" --format $f >h.$f &&
		! LC_ALL=C grep -q "$(printf "\033")" h.$f || return 1
	done &&
	! grep -q "<script" h.html
'

test_expect_success PYTHON 'a long benchmark name and one with an accent keep the text tables aligned' '
	cp -R "$golden/slower" long && chmod -R u+w long &&
	long=bench_with_a_name_of_fifty_bytes_for_the_columns_x &&
	test ${#long} -eq 50 &&
	acc=$(printf "l\303\251x") &&
	sed -i "s/\"sort1m\"/\"$long\"/g; s/\"lex\"/\"$acc\"/g" long/manifest.json &&
	sed -i "s/^sort1m\t/$long\t/; s/^lex\t/$acc\t/" long/samples.tsv &&
	plumb audit long >long.txt &&
	test_grep "^  $long  *slower" long.txt &&
	test_grep "^  $acc  *placement" long.txt &&
	python3 "$TEST_SRCDIR/tests/integration/columns-align.py" long.txt bench recorded today
'

test_done
