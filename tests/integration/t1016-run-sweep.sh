#!/bin/sh
test_description='plumb run: run.pads = auto, the adaptive sweep, extends while a benchmark is undecided'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

command -v zstd >/dev/null 2>&1 && test_set_prereq ZSTD

# "quick": run() spins 2 million times; "slow": 20 million, so the
# candidate is plainly slower and its hot code changed.  The metric is the
# CPU time, which the machine's load barely moves (the wall time of a busy
# host lets a stalled base run reach past the candidate).  At
# verdict.confidence 0.999, 4 + 4 pads are too few to call it (two sides
# drawn from one placement distribution fall wholly apart 2/C(8,4) = 2.9%
# of the time, more than 0.1%): unswept, undecided; 8 + 8 pads
# (2/C(16,8) = 0.016%) decide it.  At 0.95 4 + 4 pads decide.
test_expect_success 'set up a project' '
	make_project proj &&
	(
		cd proj &&
		for b in quick:2000000 slow:20000000; do
			git checkout -q -b ${b%%:*} main &&
			sed -e "s/long s = 0;/long s = 0; for (volatile long k = 0; k < ${b#*:}; k++) ;/" \
				work.c >work.c.new &&
			mv work.c.new work.c &&
			git commit -q -a -m "spin ${b#*:} times in the hot function" || return 1
		done &&
		git checkout -q main
	) &&
	git -C proj show slow:work.c | grep -q "k < 20000000" &&
	run_conf proj/plumb.conf run.pads=auto run.base=quick run.candidate=slow bench.b.metric=cpu
'

sweep='j["run"]["sweep"]'

test_expect_success PYTHON 'undecided at 4 pads: extended to 8, then decided; every extension recorded' '
	git config -f proj/plumb.conf verdict.confidence 0.999 &&
	run_plumb -c proj/plumb.conf -o x.plumb >out 2>err &&
	manifest x.plumb x &&
	test_json x/manifest.json "$sweep[\"startPads\"] == 4 and $sweep[\"maxPads\"] == 12 and $sweep[\"pads\"] == 8 and $sweep[\"stopped\"] == \"decided\"" &&
	test_json x/manifest.json "len($sweep[\"extensions\"]) == 1" &&
	test_json x/manifest.json "$sweep[\"extensions\"][0][\"padsBefore\"] == 4 and $sweep[\"extensions\"][0][\"padsAfter\"] == 8 and $sweep[\"extensions\"][0][\"rounds\"] == 3" &&
	test_json x/manifest.json "$sweep[\"extensions\"][0][\"undecided\"] == [{\"bench\": \"b\", \"verdict\": \"unswept\", \"why\": \"too few pads for the confidence level\"}]" &&
	test_json x/manifest.json "$sweep[\"extensions\"][0][\"after\"] == [{\"bench\": \"b\", \"verdict\": \"slower\", \"undecided\": False}] == $sweep[\"final\"]" &&
	test_json x/manifest.json "j[\"benches\"][0][\"verdict\"] == \"slower\" and len(j[\"benches\"][0][\"sides\"][\"base\"][\"pads\"]) == 8 and len(j[\"benches\"][0][\"sides\"][\"candidate\"][\"pads\"]) == 8" &&
	test_json x/manifest.json "j[\"run\"][\"rounds\"] == 6 and len(j[\"run\"][\"order\"]) == 6 and [len(r) for r in j[\"run\"][\"order\"]] == [9, 9, 9, 17, 17, 17]" &&
	test_json x/manifest.json "len(j[\"build\"][\"variants\"]) == 17 and j[\"spec\"][\"run\"][\"pads\"] == \"auto\"" &&
	test_json x/manifest.json "j[\"build\"][\"padOffsets\"] == \"linear\" and all(v[\"padOffset\"] == 16 * v[\"pad\"] for v in j[\"build\"][\"variants\"])" &&
	test_json x/manifest.json "any(\"adaptive sweep: undecided at 4 pads per side (too few pads for the confidence level); extended to 8 pads and 6 rounds, then decided\" == n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "sweep: 4 pads per side: b undecided (too few pads for the confidence level); adding pads 4 to 7 to each side and 3 rounds of every variant" err &&
	test_grep "sweep: every benchmark decided at 8 pads per side" err
'

test_expect_success 'the extended bundle agrees with itself: samples, variants and order (re-judged)' '
	plumb bundle verify x.plumb &&
	plumb report x.plumb >report.txt &&
	test_grep "adaptive sweep: undecided at 4 pads per side" report.txt &&
	plumb report --format md x.plumb >report.md &&
	test_grep "adaptive sweep: undecided at 4 pads per side" report.md &&
	plumb report --format html x.plumb >report.html &&
	test_grep "adaptive sweep: undecided at 4 pads per side" report.html &&
	plumb report --format json x.plumb >report.json &&
	test_grep "adaptive sweep: undecided at 4 pads per side" report.json
'

test_expect_success PYTHON,ZSTD 'a lie about the sweep is refused: extensions that do not chain' '
	python3 -c "
import json
j = json.load(open(\"x/manifest.json\"))
j[\"run\"][\"sweep\"][\"extensions\"][0][\"padsBefore\"] = 5
json.dump(j, open(\"lie.json\", \"w\"))
" &&
	python3 "$TEST_SRCDIR/tests/integration/bundle-craft.py" lie.plumb --from x.plumb \
		--drop manifest.json --file "manifest.json=@lie.json" --drop samples.tsv \
		--file "samples.tsv=@x/samples.tsv" --resum &&
	test_expect_code 3 plumb bundle verify lie.plumb 2>err &&
	test_grep "run.sweep.extensions\[0\].padsBefore: 5, but the sweep had 4 pads then" err
'

test_expect_success PYTHON 'decided at 4 pads: nothing added, said so' '
	git config -f proj/plumb.conf verdict.confidence 0.95 &&
	run_plumb -c proj/plumb.conf -o d.plumb >out 2>err &&
	manifest d.plumb d &&
	test_json d/manifest.json "$sweep[\"pads\"] == 4 and $sweep[\"extensions\"] == [] and $sweep[\"stopped\"] == \"decided\"" &&
	test_json d/manifest.json "len(j[\"build\"][\"variants\"]) == 9 and j[\"run\"][\"rounds\"] == 3 and j[\"benches\"][0][\"verdict\"] == \"slower\"" &&
	test_json d/manifest.json "not any(n.startswith(\"adaptive sweep\") for n in j[\"benches\"][0].get(\"notes\", []))" &&
	test_grep "sweep: every benchmark decided at 4 pads per side" err
'

test_expect_success PYTHON 'run.maxPads is respected: 4 to 6 pads, still undecided, stopped' '
	git config -f proj/plumb.conf verdict.confidence 0.999 &&
	git config -f proj/plumb.conf run.maxPads 6 &&
	run_plumb -c proj/plumb.conf -o m.plumb >out 2>err &&
	manifest m.plumb m &&
	test_json m/manifest.json "$sweep[\"pads\"] == 6 and $sweep[\"stopped\"] == \"maxPads\" and len($sweep[\"extensions\"]) == 1 and $sweep[\"extensions\"][0][\"padsAfter\"] == 6" &&
	test_json m/manifest.json "$sweep[\"final\"] == [{\"bench\": \"b\", \"verdict\": \"unswept\", \"undecided\": True, \"why\": \"too few pads for the confidence level\"}]" &&
	test_json m/manifest.json "len(j[\"build\"][\"variants\"]) == 13 and j[\"benches\"][0][\"verdict\"] == \"unswept\"" &&
	test_grep "stopped at run.maxPads = 6" err &&
	plumb bundle verify m.plumb
'

test_expect_success PYTHON 'run.budget is respected: no extension that would end past it' '
	git config -f proj/plumb.conf --unset run.maxPads &&
	git config -f proj/plumb.conf run.budget 1s &&
	run_plumb -c proj/plumb.conf --rounds 60 -o b.plumb >out 2>err &&
	manifest b.plumb b &&
	test_json b/manifest.json "$sweep[\"pads\"] == 4 and $sweep[\"stopped\"] == \"budget\" and $sweep[\"extensions\"] == [] and $sweep[\"budgetNs\"] == 1000000000" &&
	test_json b/manifest.json "any(\"not extended: the next extension would pass run.budget\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "would end past run.budget = 1 s" err &&
	git config -f proj/plumb.conf --unset run.budget
'

test_expect_success 'bad values are refused, naming the key (exit 3)' '
	test_expect_code 3 run_plumb -c proj/plumb.conf --pads autox 2>err &&
	test_grep "pads" err &&
	git config -f proj/plumb.conf run.maxPads 3 &&
	test_expect_code 3 run_plumb -c proj/plumb.conf 2>err &&
	test_grep "run.maxPads" err &&
	git config -f proj/plumb.conf run.maxPads 65 &&
	test_expect_code 3 run_plumb -c proj/plumb.conf 2>err &&
	test_grep "run.maxPads" err &&
	git config -f proj/plumb.conf --unset run.maxPads &&
	git config -f proj/plumb.conf run.budget 0 &&
	test_expect_code 3 run_plumb -c proj/plumb.conf 2>err &&
	test_grep "run.budget" err &&
	git config -f proj/plumb.conf run.budget soon &&
	test_expect_code 3 run_plumb -c proj/plumb.conf 2>err &&
	test_grep "run.budget" err &&
	git config -f proj/plumb.conf --unset run.budget
'

test_done
