#!/bin/sh
test_description='a bundle agrees with its own samples: pack, verify, report, archive add and audit refuse every lie'
. "$(dirname "$0")/test-lib.sh"

command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq CRAFT
craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"

golden="$FIXTURES/reports/inputs"
A="$TRASH/archive"

# edit DIR PYTHON: a copy of the slower case (sort1m slower, lex placement,
# 4 pads, 5 rounds, a control) in DIR, its manifest m changed by PYTHON.
edit() {
	rm -rf "$1" && cp -R "$golden/slower" "$1" && chmod -R u+w "$1" &&
	python3 - "$1/manifest.json" "$2" <<-\PY
	import json, sys
	m = json.load(open(sys.argv[1]))
	exec(sys.argv[2])
	json.dump(m, open(sys.argv[1], "w"), indent=1)
	PY
}

# refused DIR PATTERN: bundle pack refuses the folder with exit 3 and a
# message matching PATTERN, writing nothing; the same members made into a
# bundle by hand (SHA256SUMS redone) are refused the same way by bundle
# verify, report (--fail-on too, and of the folder), archive add, which
# stores nothing, and audit, which names the difference.
refused() {
	test_expect_code 3 plumb bundle pack "$1" -o "$1.plumb" >/dev/null 2>err &&
	test_grep "$2" err &&
	! test -e "$1.plumb" &&
	test_expect_code 3 plumb report "$1" >/dev/null 2>err &&
	test_grep "$2" err &&
	python3 "$craft" "$1.plumb" --from ok.plumb --file "manifest.json=@$1/manifest.json" \
		--file "samples.tsv=@$1/samples.tsv" --resum &&
	test_expect_code 3 plumb audit "$1.plumb" >out &&
	test_grep "^Integrity: pass" out &&
	test_grep "^Consistency: FAIL" out &&
	test_grep "difference: .*$2" out &&
	test_expect_code 3 plumb bundle verify "$1.plumb" 2>err &&
	test_grep "$2" err &&
	test_expect_code 3 plumb report "$1.plumb" >out 2>err &&
	test_grep "$2" err &&
	! test -s out &&
	test_expect_code 3 plumb report "$1.plumb" --fail-on slower >/dev/null 2>err &&
	test_grep "$2" err &&
	test_expect_code 3 plumb archive add "$1.plumb" --archive-dir "$A" >/dev/null 2>err &&
	test_grep "$2" err &&
	plumb archive list --json --archive-dir "$A" >list.json &&
	test_json list.json "len(j) == 0"
}

test_expect_success PYTHON 'the honest case verifies, reports and is archived' '
	edit ok "" &&
	plumb bundle pack ok -o ok.plumb >/dev/null &&
	plumb bundle verify ok.plumb >/dev/null &&
	test_expect_code 1 plumb report ok.plumb --fail-on slower >/dev/null &&
	plumb archive add ok.plumb --archive-dir "$TRASH/other" >/dev/null
'

test_expect_success CRAFT 'a false verdict: faster for a candidate range wholly above' '
	edit v "m[\"benches\"][0][\"verdict\"] = \"faster\"" &&
	refused v "benches\[0\]\.verdict: .faster. recorded, but samples.tsv gives .slower."
'

test_expect_success CRAFT 'a false placement' '
	edit p "m[\"benches\"][0][\"verdict\"] = \"placement\"" &&
	refused p "benches\[0\]\.verdict: .placement. recorded, but samples.tsv gives .slower."
'

test_expect_success CRAFT 'unswept with four pads a side' '
	edit u "m[\"benches\"][0][\"verdict\"] = \"unswept\"; m[\"benches\"][0][\"direction\"] = \"slower\"" &&
	refused u "benches\[0\]\.verdict: .unswept. recorded, but samples.tsv gives .slower."
'

test_expect_success CRAFT 'insufficient with five rounds' '
	edit i "m[\"benches\"][1][\"verdict\"] = \"insufficient\"" &&
	refused i "benches\[1\]\.verdict: .insufficient. recorded, but samples.tsv gives .placement."
'

test_expect_success CRAFT 'a false ratio' '
	edit r "m[\"benches\"][0][\"ratio\"] = 0.9" &&
	refused r "benches\[0\]\.ratio: 0.9 recorded, but samples.tsv gives 1.11"
'

test_expect_success CRAFT 'a false center and false pad medians' '
	edit c "s = m[\"benches\"][0][\"sides\"][\"candidate\"]; s[\"center\"] = s[\"min\"]" &&
	refused c "benches\[0\]\.sides\.candidate\.center: 91000000 recorded, but samples.tsv gives 93" &&
	edit pm "" &&
	awk -F "\t" -v OFS="\t" "\$1 == \"sort1m\" && \$2 == \"base\" && \$3 == 2 { \$7 = \$7 * 2 } { print }" \
		"$golden/slower/samples.tsv" >pm/samples.tsv &&
	refused pm "benches\[0\]\.sides\.base\.pads\[2\]: 82500000 recorded, but samples.tsv gives 165"
'

test_expect_success CRAFT 'rows for a benchmark, pad, round or side the manifest does not have' '
	edit b "" &&
	printf "ghost\tbase\t0\t1\t-\twall\t5\n" >>b/samples.tsv &&
	refused b "samples.tsv: line 92: column .bench.: .ghost. is not a benchmark of the manifest" &&
	edit pad "" &&
	printf "sort1m\tbase\t4\t1\t-\twall\t5\n" >>pad/samples.tsv &&
	refused pad "samples.tsv: line 92: column .pad.: pad 4, but benches\[0\]\.sides\.base\.pads has 4 pads" &&
	edit round "" &&
	printf "lex\tcandidate\t0\t6\t-\twall\t5\n" >>round/samples.tsv &&
	refused round "samples.tsv: line 92: column .round.: round 6, but the manifest has 5 rounds" &&
	rm -rf side && cp -R "$golden/unswept" side && chmod -R u+w side &&
	printf "startup\tcontrol\t0\t1\t-\twall\t5\n" >>side/samples.tsv &&
	refused side "column .side.: benchmark .startup. has no control side in the manifest"
'

test_expect_success CRAFT 'a benchmark of the manifest without rows' '
	edit none "" &&
	grep -v "^lex	" "$golden/slower/samples.tsv" >none/samples.tsv &&
	refused none "benches\[1\]: no rows in samples.tsv for benchmark .lex. (metric wall)" &&
	edit noctl "" &&
	grep -v "	control	" "$golden/slower/samples.tsv" >noctl/samples.tsv &&
	refused noctl "benches\[0\]\.sides\.control: no rows in samples.tsv"
'

test_expect_success CRAFT 'a row removed from samples.tsv' '
	edit rr "" &&
	sed 4d "$golden/slower/samples.tsv" >rr/samples.tsv &&
	refused rr "benches\[0\]\.sides\.base\.[a-z]*\(\[0\]\)\{0,1\}: .* recorded, but samples.tsv gives"
'

test_expect_success CRAFT 'a host fingerprint that does not match the facts it summarises' '
	edit fp "m[\"host\"][\"fingerprint\"] = \"0123456789abcdef\"" &&
	refused fp "host\.fingerprint: .0123456789abcdef. recorded, but the host facts it summarises give .000cecd03f192526." &&
	edit fpfacts "m[\"host\"][\"start\"][\"cpufreq\"][\"governor\"] = \"powersave\"" &&
	refused fpfacts "host\.fingerprint: .000cecd03f192526. recorded, but the host facts it summarises give"
'

test_expect_success CRAFT 'samples mode: the rows of a round are consecutive' '
	rm -rf sm && cp -R "$golden/placement" sm && chmod -R u+w sm &&
	awk -F "\t" "NR == 1 || \$1 != \"parse\" || \$4 != 0 || \$2 != \"base\" || \$3 != 0 || \$5 < 100" \
		"$golden/placement/samples.tsv" >sm/samples.tsv &&
	awk -F "\t" "\$1 == \"parse\" && \$4 == 0 && \$2 == \"base\" && \$3 == 0 && \$5 >= 100" \
		"$golden/placement/samples.tsv" >>sm/samples.tsv &&
	test_expect_code 3 plumb bundle pack sm -o sm.plumb 2>err &&
	test_grep "column .round.: a row of bench .parse. metric .wall. side base pad 0 round 0 after rows of another round" err &&
	python3 "$craft" sm.plumb --from ok.plumb --file "manifest.json=@sm/manifest.json" \
		--file "samples.tsv=@sm/samples.tsv" --resum &&
	test_expect_code 3 plumb bundle verify sm.plumb 2>err &&
	test_grep "column .round.: a row of bench .parse. metric .wall. side base pad 0 round 0 after rows of another round" err
'

test_expect_success PYTHON 'samples.tsv before manifest.json cannot be checked as it is read' '
	test_have_prereq CRAFT || { command -v zstd >/dev/null || return 0; } &&
	python3 "$TEST_SRCDIR/tests/integration/bundle-craft.py" order.plumb --from ok.plumb \
		--drop manifest.json --file "manifest.json=@ok/manifest.json" &&
	test_expect_code 3 plumb bundle verify order.plumb 2>err &&
	test_grep "samples.tsv comes before manifest.json" err
'

test_done
