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
# verdict.confidence 0.999, 6 + 6 pads are too few to call it (the exact
# test's smallest p is 2/C(12,6) = 0.22%, more than 0.1%): unswept,
# undecided; 10 + 10 pads (2/C(20,10) = 0.001%) decide it.  At the default
# 0.99, 6 + 6 pads decide.
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

test_expect_success PYTHON 'undecided at 6 pads: extended to 12, then decided; every extension recorded' '
	git config -f proj/plumb.conf verdict.confidence 0.999 &&
	run_plumb -c proj/plumb.conf -o x.plumb >out 2>err &&
	manifest x.plumb x &&
	test_json x/manifest.json "$sweep[\"startPads\"] == 6 and $sweep[\"stepPads\"] == 6 and $sweep[\"maxPads\"] == 18 and $sweep[\"pads\"] == 12 and $sweep[\"stopped\"] == \"decided\"" &&
	test_json x/manifest.json "len($sweep[\"extensions\"]) == 1" &&
	test_json x/manifest.json "j[\"benches\"][0][\"rule\"][\"confidence\"] == 0.999667" &&
	test_json x/manifest.json "$sweep[\"extensions\"][0][\"padsBefore\"] == 6 and $sweep[\"extensions\"][0][\"padsAfter\"] == 12 and $sweep[\"extensions\"][0][\"rounds\"] == 3 and $sweep[\"extensions\"][0][\"roundsOf\"] == \"added\"" &&
	test_json x/manifest.json "$sweep[\"extensions\"][0][\"undecided\"] == [{\"bench\": \"b\", \"verdict\": \"unswept\", \"why\": \"too few pads for the confidence level\"}]" &&
	test_json x/manifest.json "$sweep[\"extensions\"][0][\"after\"] == [{\"bench\": \"b\", \"verdict\": \"slower\", \"undecided\": False}] == $sweep[\"final\"]" &&
	test_json x/manifest.json "j[\"benches\"][0][\"verdict\"] == \"slower\" and len(j[\"benches\"][0][\"sides\"][\"base\"][\"pads\"]) == 12 and len(j[\"benches\"][0][\"sides\"][\"candidate\"][\"pads\"]) == 12" &&
	test_json x/manifest.json "j[\"benches\"][0][\"sides\"][\"base\"][\"rounds\"] == 3 and j[\"benches\"][0][\"sides\"][\"candidate\"][\"rounds\"] == 3" &&
	test_json x/manifest.json "j[\"run\"][\"rounds\"] == 6 and len(j[\"run\"][\"order\"]) == 6 and [len(r) for r in j[\"run\"][\"order\"]] == [13, 13, 13, 12, 12, 12]" &&
	test_json x/manifest.json "all(l.split(\"/\")[1] in (\"6\", \"7\", \"8\", \"9\", \"10\", \"11\") for r in j[\"run\"][\"order\"][3:] for l in r)" &&
	test_json x/manifest.json "len(j[\"build\"][\"variants\"]) == 25 and j[\"spec\"][\"run\"][\"pads\"] == \"auto\"" &&
	test_json x/manifest.json "any(\"adaptive sweep: undecided at 6 pads per side (too few pads for the confidence level); extended to 12 pads per side, then decided\" == n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "sweep: 6 pads per side: b undecided (too few pads for the confidence level); adding pads 6 to 11 to each side, measured in 3 rounds" err &&
	test_grep "sweep: every benchmark decided at 12 pads per side" err
'

test_expect_success PYTHON 'the defaults: pads = auto from 6, up to 18, spread offsets' '
	git config -f proj/plumb.conf --unset run.pads &&
	run_plumb -c proj/plumb.conf --dry-run >dry &&
	test_grep "^	pads = auto$" dry &&
	test_grep "^	maxPads = 18$" dry &&
	test_grep "^	padOffsets = spread$" dry &&
	test_json x/manifest.json "j[\"build\"][\"padOffsets\"] == \"spread\" and j[\"build\"][\"variants\"][0][\"padOffset\"] == 0" &&
	test_json x/manifest.json "len(set(v[\"padOffset\"] for v in j[\"build\"][\"variants\"] if v[\"side\"] == \"base\")) == 12" &&
	test_json x/manifest.json "all(v[\"padOffset\"] % 16 == 0 and v[\"padOffset\"] < 4096 for v in j[\"build\"][\"variants\"])" &&
	git config -f proj/plumb.conf run.pads auto
'

test_expect_success 'the extended bundle agrees with itself: samples, variants and order (re-judged)' '
	plumb bundle verify x.plumb &&
	plumb report x.plumb >report.txt &&
	test_grep "adaptive sweep: undecided at 6 pads per side" report.txt &&
	plumb report --format md x.plumb >report.md &&
	test_grep "adaptive sweep: undecided at 6 pads per side" report.md &&
	plumb report --format html x.plumb >report.html &&
	test_grep "adaptive sweep: undecided at 6 pads per side" report.html &&
	plumb report --format json x.plumb >report.json &&
	test_grep "adaptive sweep: undecided at 6 pads per side" report.json
'

test_expect_success PYTHON,ZSTD 'a lie about the sweep is refused: extensions that do not chain, rounds of no one' '
	forge x.plumb x lie.plumb "j[\"run\"][\"sweep\"][\"extensions\"][0][\"padsBefore\"] = 5" &&
	test_expect_code 3 plumb bundle verify lie.plumb 2>err &&
	test_grep "run.sweep.extensions\[0\].padsBefore: 5, but the sweep had 6 pads then" err &&
	forge x.plumb x lie2.plumb "j[\"run\"][\"sweep\"][\"extensions\"][0][\"roundsOf\"] = \"some\"" &&
	test_expect_code 3 plumb bundle verify lie2.plumb 2>err &&
	test_grep "run.sweep.extensions\[0\].roundsOf: expected one of added, every" err
'

test_expect_success PYTHON 'decided at 6 pads: nothing added, said so' '
	git config -f proj/plumb.conf verdict.confidence 0.99 &&
	run_plumb -c proj/plumb.conf -o d.plumb >out 2>err &&
	manifest d.plumb d &&
	test_json d/manifest.json "$sweep[\"pads\"] == 6 and $sweep[\"extensions\"] == [] and $sweep[\"stopped\"] == \"decided\"" &&
	test_json d/manifest.json "len(j[\"build\"][\"variants\"]) == 13 and j[\"run\"][\"rounds\"] == 3 and j[\"benches\"][0][\"verdict\"] == \"slower\"" &&
	test_json d/manifest.json "not any(n.startswith(\"adaptive sweep\") for n in j[\"benches\"][0].get(\"notes\", []))" &&
	test_json d/manifest.json "j[\"benches\"][0][\"rule\"][\"confidence\"] == 0.996667" &&
	test_grep "sweep: every benchmark decided at 6 pads per side" err
'

test_expect_success PYTHON 'run.maxPads is respected: 6 pads, still undecided, not extended' '
	git config -f proj/plumb.conf verdict.confidence 0.999 &&
	git config -f proj/plumb.conf run.maxPads 6 &&
	run_plumb -c proj/plumb.conf -o m.plumb >out 2>err &&
	manifest m.plumb m &&
	test_json m/manifest.json "$sweep[\"pads\"] == 6 and $sweep[\"stopped\"] == \"maxPads\" and $sweep[\"extensions\"] == []" &&
	test_json m/manifest.json "$sweep[\"final\"] == [{\"bench\": \"b\", \"verdict\": \"unswept\", \"undecided\": True, \"why\": \"too few pads for the confidence level\"}]" &&
	test_json m/manifest.json "len(j[\"build\"][\"variants\"]) == 13 and j[\"benches\"][0][\"verdict\"] == \"unswept\"" &&
	test_json m/manifest.json "j[\"benches\"][0][\"rule\"][\"confidence\"] == 0.999" &&
	test_json m/manifest.json "any(\"not extended: run.maxPads reached\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "stopped at run.maxPads = 6" err &&
	plumb bundle verify m.plumb
'

# Two rounds are too few for any verdict: the extension runs every variant
# in its rounds, the old pads gaining rounds, not only the new ones.
test_expect_success PYTHON 'undecided for want of rounds: the extension runs every variant' '
	git config -f proj/plumb.conf verdict.confidence 0.99 &&
	git config -f proj/plumb.conf run.maxPads 10 &&
	run_plumb -c proj/plumb.conf --rounds 2 -o r.plumb >out 2>err &&
	manifest r.plumb r &&
	test_json r/manifest.json "$sweep[\"extensions\"][0][\"roundsOf\"] == \"every\" and $sweep[\"extensions\"][0][\"undecided\"][0][\"why\"] == \"a pad has too few rounds\"" &&
	test_json r/manifest.json "[len(r) for r in j[\"run\"][\"order\"]] == [13, 13, 21, 21]" &&
	test_grep "adding pads 6 to 9 to each side, and every variant runs in 2 rounds" err &&
	plumb bundle verify r.plumb &&
	git config -f proj/plumb.conf --unset run.maxPads
'

test_expect_success PYTHON 'run.budget is respected: no extension that would end past it' '
	git config -f proj/plumb.conf verdict.confidence 0.999 &&
	git config -f proj/plumb.conf run.budget 1s &&
	run_plumb -c proj/plumb.conf --rounds 20 -o b.plumb >out 2>err &&
	manifest b.plumb b &&
	test_json b/manifest.json "$sweep[\"pads\"] == 6 and $sweep[\"stopped\"] == \"budget\" and $sweep[\"extensions\"] == [] and $sweep[\"budgetNs\"] == 1000000000" &&
	test_json b/manifest.json "any(\"not extended: the next extension would pass run.budget\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "would end past run.budget = 1 s" err &&
	git config -f proj/plumb.conf --unset run.budget
'

test_expect_success 'bad values are refused, naming the key (exit 3)' '
	test_expect_code 3 run_plumb -c proj/plumb.conf --pads autox 2>err &&
	test_grep "pads" err &&
	git config -f proj/plumb.conf run.maxPads 5 &&
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
