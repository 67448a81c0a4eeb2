#!/bin/sh
test_description='plumb run: the verdict rule, recorded; moved hot code is placement whatever the draw'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# main (the cold function grew, so run() moved: the same instructions at
# another address) and "outside": the same, plus 100 ms of sleep in main(),
# outside the hot set, so that the candidate is plainly slower while its
# hot code is identical except addresses.  The sleep adds 100 ms whatever
# the load, so the test asks for that, not for a ratio: on a loaded host
# the base's own time grows and the ratio shrinks.  It is that long so that
# the ranges stay apart by more than the noise even where the noise is
# large (a loaded host; a sanitizer build, whose children are forked from a
# large process and measured 10 ms with a 50% noise): only then is the
# identical hot code what decides, and the reason says so.  The test is
# about the margin rule (v2), so it names it: the default is shift v3.
test_expect_success 'set up a project' '
	make_project proj &&
	(
		cd proj &&
		git checkout -q -b outside main &&
		sed -e "s/int main(int argc, char \*\*argv)/#include <time.h>\nint main(int argc, char **argv)/" \
		    -e "s/(void)argv;/(void)argv; { struct timespec t = { 0, 100000000 }; nanosleep(\&t, 0); }/" \
			main.c >main.c.new &&
		mv main.c.new main.c &&
		git commit -q -a -m "sleep outside the hot loop" &&
		git checkout -q main
	) &&
	git -C proj show outside:main.c | grep -q nanosleep &&
	run_conf proj/plumb.conf run.pads=4 verdict.rule=margin
'

for seed in 1 2 3; do
	test_expect_success PYTHON "moved hot code only, seed $seed: placement, rule recorded" '
		git config -f proj/plumb.conf run.seed '"$seed"' &&
		run_plumb -c proj/plumb.conf --candidate main -o m$seed.plumb >out 2>err &&
		manifest m$seed.plumb m$seed &&
		test_json m$seed/manifest.json "j[\"benches\"][0][\"verdict\"] == \"placement\"" &&
		test_json m$seed/manifest.json "j[\"benches\"][0][\"rule\"] == {\"name\": \"margin\", \"version\": 2, \"confidence\": 0.95, \"noiseFactor\": 1, \"resamples\": 2000, \"seed\": 1}" &&
		test_json m$seed/manifest.json "j[\"benches\"][0][\"reason\"] in (\"ranges overlap\", \"hot code identical except the addresses of moved data\", \"hot code identical\")" &&
		test_json m$seed/manifest.json "j[\"benches\"][0][\"interval\"][\"lo\"] <= j[\"benches\"][0][\"ratio\"] <= j[\"benches\"][0][\"interval\"][\"hi\"]" &&
		test_json m$seed/manifest.json "j[\"benches\"][0][\"detectable\"][\"slower\"] > 0 and j[\"benches\"][0][\"noiseBasis\"][\"figure\"] >= j[\"benches\"][0][\"noiseBasis\"][\"rounds\"]"
	'
done

test_expect_success PYTHON 'a slower candidate whose hot code only moved: placement, for that reason' '
	run_plumb -c proj/plumb.conf --candidate outside --rounds 10 -o o.plumb >out 2>err &&
	manifest o.plumb o &&
	test_json o/manifest.json "j[\"benches\"][0][\"verdict\"] == \"placement\" and j[\"benches\"][0][\"reason\"] == \"hot code identical except the addresses of moved data\"" &&
	test_json o/manifest.json "j[\"benches\"][0][\"sides\"][\"candidate\"][\"center\"] - j[\"benches\"][0][\"sides\"][\"base\"][\"center\"] > 75e6" &&
	test_grep "hot code identical except the addresses of moved data" out &&
	test_grep_not "slower" out
'

test_expect_success PYTHON 'the same samples under the overlap rule: slower (the override decided)' '
	plumb analyze --json --rule overlap o/samples.tsv >ov.json &&
	test_json ov.json "[r[\"verdict\"] for r in j[\"results\"] if r[\"metric\"] == \"wall\"] == [\"slower\"]"
'

test_expect_success PYTHON 'verdict.rule = overlap: the seeds rule, recorded as overlap v1' '
	git config -f proj/plumb.conf verdict.rule overlap &&
	run_plumb -c proj/plumb.conf --candidate outside -o v1.plumb >out 2>err &&
	manifest v1.plumb v1 &&
	test_json v1/manifest.json "j[\"benches\"][0][\"verdict\"] == \"slower\" and j[\"benches\"][0][\"rule\"][\"name\"] == \"overlap\" and j[\"benches\"][0][\"rule\"][\"version\"] == 1" &&
	test_json v1/manifest.json "j[\"spec\"][\"verdict\"] == {\"rule\": \"overlap\", \"confidence\": \"auto\", \"minEffect\": \"0.01\"}" &&
	git config -f proj/plumb.conf verdict.rule margin
'

test_expect_success PYTHON 'bundle verify re-judges under the recorded rule and hot identity' '
	plumb bundle verify o.plumb >v.out &&
	plumb bundle verify v1.plumb >v.out &&
	python3 -c "import json
j = json.load(open(\"o/manifest.json\"))
j[\"benches\"][0][\"verdict\"] = \"slower\"
j[\"benches\"][0][\"reason\"] = \"ranges apart by more than the noise\"
json.dump(j, open(\"o/manifest.json\", \"w\"), indent=1)" &&
	rm -f o/SHA256SUMS o/SHA256SUMS.sig o/README.txt &&
	test_expect_code 3 plumb bundle pack o -o forged.plumb 2>err &&
	test_grep "benches\[0\].verdict: .slower. recorded, but samples.tsv gives .placement. (the margin rule, version 2)" err &&
	! test -e forged.plumb &&
	{ command -v zstd >/dev/null || return 0; } &&
	python3 "$TEST_SRCDIR/tests/integration/bundle-craft.py" forged.plumb --from o.plumb \
		--file manifest.json=@o/manifest.json --resum &&
	test_expect_code 3 plumb bundle verify forged.plumb 2>err &&
	test_grep "benches\[0\].verdict: .slower. recorded, but samples.tsv gives .placement. (the margin rule, version 2)" err
'

test_expect_success 'the report of each says the interval and what could be detected' '
	plumb report m1.plumb >r.txt &&
	test_grep "change \(+\|−\)[0-9.]*%, 95% interval over pads and rounds \(+\|−\)[0-9.]*% to \(+\|−\)[0-9.]*%" r.txt &&
	test_grep "smallest detectable change +[0-9.]*% or −[0-9.]*% (4 and 4 pads, placement and noise)" r.txt &&
	test_grep "load during the rounds [0-9.]* to [0-9.]* on [0-9]* CPUs" r.txt &&
	plumb report --format json o.plumb >r.json &&
	test_grep "\"reason\": \"hot code identical except the addresses of moved data\"" r.json
'

test_expect_success 'a bench command without {artifact} is refused before anything is built' '
	write_conf proj/noart.conf "bench.b.command=/bin/true" &&
	test_expect_code 3 plumb run -c proj/noart.conf --workdir "$TRASH/wd2" -o no.plumb >out 2>err &&
	test_grep "bench.b.command: uses neither {artifact} nor \$PLUMB_ARTIFACT, so every variant would run the same program" err &&
	! test -e no.plumb && ! test -d wd2/run-1
'

test_done
