#!/bin/sh
test_description='plumb run: a small run writes a verified bundle that records everything'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test_expect_success 'set up a project' '
	make_project proj &&
	run_conf proj/plumb.conf run.seed=7 run.warmupRuns=1 &&
	git config -f proj/plumb.conf --add run.label team=perf
'

# Two pads a side: under the default rule (shift v4) 2+2 pads cannot reach
# 99%, so the verdict is unswept whatever the draw, and says why.
test_expect_success 'a run writes the bundle given with -o and prints the verdict' '
	run_plumb -c proj/plumb.conf -o one.plumb --label night=1 >out 2>err &&
	test -f one.plumb &&
	test_grep "^plumb report: candidate against base$" out &&
	test_grep "^  base  *v1 [0-9a-f]\{12\} " out &&
	test_grep "^  candidate  *main [0-9a-f]\{12\} " out &&
	test_grep "^benchmark  *metric  *base  *candidate  *change  .*verdict$" out &&
	test_grep "^b  *wall  .* \(+\|−\)[0-9.]*% .* unswept$" out &&
	test_grep "^bundle: one.plumb" out &&
	test_grep "^id: [0-9a-f]\{64\}$" out &&
	ls wd >left && test_grep_not "^run-" left
'

test_expect_success 'plumb bundle verify accepts it' '
	plumb bundle verify one.plumb >verify.out &&
	manifest one.plumb one
'

test_expect_success PYTHON 'the manifest lists every variant, round, the seed and the order' '
	test_json one/manifest.json "(
len(j[\"build\"][\"variants\"]) == 5 and
sorted((v[\"side\"], v[\"pad\"]) for v in j[\"build\"][\"variants\"]) ==
  [(\"base\", 0), (\"base\", 1), (\"candidate\", 0), (\"candidate\", 1), (\"control\", 0)] and
all(len(v[\"artifact\"][\"sha256\"]) == 64 and v[\"buildNs\"] > 0 for v in j[\"build\"][\"variants\"]) and
all(any(h[\"name\"] == \"run\" for h in v[\"hot\"]) for v in j[\"build\"][\"variants\"]) and
j[\"run\"][\"seed\"] == 7 and j[\"run\"][\"rounds\"] == 3 and
j[\"run\"][\"warmup\"][\"runs\"] == 1 and
len(j[\"run\"][\"order\"]) == 3 and
all(sorted(r) == [\"base/0\", \"base/1\", \"candidate/0\", \"candidate/1\", \"control/0\"] for r in j[\"run\"][\"order\"]) and
len(j[\"run\"][\"conditions\"]) == 3 and
j[\"run\"][\"labels\"] == {\"team\": \"perf\", \"night\": \"1\"}
)"
'

test_expect_success PYTHON 'host facts at start and end, the spec, both commits' '
	test_json one/manifest.json "(
isinstance(j[\"host\"][\"start\"], dict) and isinstance(j[\"host\"][\"end\"], dict) and
j[\"host\"][\"start\"] != {} and j[\"host\"][\"end\"] != {} and
len(j[\"host\"][\"fingerprint\"]) == 16 and
j[\"spec\"][\"run\"][\"seed\"] == 7 and
j[\"repo\"][\"base\"][\"ref\"] == \"v1\" and j[\"repo\"][\"candidate\"][\"ref\"] == \"main\" and
len(j[\"repo\"][\"base\"][\"commit\"]) == 40 and
j[\"run\"][\"start\"] <= j[\"run\"][\"end\"]
)"
'

test_expect_success PYTHON 'the benchmark: sides, verdict, hot code, counters record' '
	test_json one/manifest.json "(
len(j[\"benches\"]) == 1 and j[\"benches\"][0][\"name\"] == \"b\" and
len(j[\"benches\"][0][\"sides\"][\"base\"][\"pads\"]) == 2 and
len(j[\"benches\"][0][\"sides\"][\"candidate\"][\"pads\"]) == 2 and
len(j[\"benches\"][0][\"sides\"][\"control\"][\"pads\"]) == 1 and
j[\"benches\"][0][\"verdict\"] == \"unswept\" and
j[\"benches\"][0][\"reason\"] == \"2+2 pads can reach 66% at most, not 99%\" and
j[\"benches\"][0][\"rule\"] == {\"name\": \"shift\", \"version\": 4, \"confidence\": 0.99, \"minEffect\": 0.01} and
j[\"benches\"][0][\"hot\"][\"symbols\"][0][\"name\"] == \"run\" and
isinstance(j[\"run\"][\"counters\"][\"available\"], bool)
)"
'

test_expect_success 'samples.tsv holds one wall row per variant and round' '
	grep -c "	wall	" one/samples.tsv >n &&
	echo 15 >expect && test_cmp expect n &&
	head -n 1 one/samples.tsv >head &&
	printf "bench\tside\tpad\tround\titer\tmetric\tvalue\n" >expect &&
	test_cmp expect head &&
	test_grep "^b	control	0	3	-	cpu	" one/samples.tsv &&
	test_grep "^b	base	1	2	-	maxrss	" one/samples.tsv
'

test_expect_success 'the build logs are in the bundle' '
	test -f one/logs/build-b00.log && test -f one/logs/build-k00.log
'

test_expect_success PYTHON 'the same seed gives the same order; another seed another one' '
	run_plumb -c proj/plumb.conf -o two.plumb >/dev/null 2>&1 &&
	run_plumb -c proj/plumb.conf -o three.plumb --rounds 3 >/dev/null 2>&1 &&
	git config -f proj/plumb.conf run.seed 8 &&
	run_plumb -c proj/plumb.conf -o other.plumb >/dev/null 2>&1 &&
	manifest two.plumb two && manifest other.plumb other &&
	python3 -c "import json
a = json.load(open(\"one/manifest.json\"))[\"run\"][\"order\"]
b = json.load(open(\"two/manifest.json\"))[\"run\"][\"order\"]
c = json.load(open(\"other/manifest.json\"))[\"run\"][\"order\"]
assert a == b, (a, b)
assert a != c, (a, c)
"
'

test_expect_success 'the order follows the documented shuffle (splitmix64, Fisher-Yates)' '
	python3 -c "import json
M = (1 << 64) - 1
def draw(s):
    s = (s + 0x9e3779b97f4a7c15) & M
    z = s
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return s, z ^ (z >> 31)
j = json.load(open(\"one/manifest.json\"))
labels = [\"%s/%d\" % (v[\"side\"], v[\"pad\"]) for v in j[\"build\"][\"variants\"]]
s = j[\"run\"][\"seed\"]
for got in j[\"run\"][\"order\"]:
    p = list(range(len(labels)))
    for i in range(len(p), 1, -1):
        while True:
            s, x = draw(s)
            if x >= ((1 << 64) - i) % i:
                break
        k = x % i
        p[i - 1], p[k] = p[k], p[i - 1]
    assert [labels[k] for k in p] == got, ([labels[k] for k in p], got)
"
'

test_expect_success 'without -o the bundle is named after the refs and the UTC time' '
	mkdir def && (cd def && run_plumb -c ../proj/plumb.conf >out 2>err) &&
	ls def >names &&
	test_grep "^plumb-v1-main-20[0-9]\{6\}T[0-9]\{6\}Z\.plumb$" names
'

test_expect_success PYTHON '--json prints the result for machines' '
	run_plumb -c proj/plumb.conf -o j.plumb --json >out.json 2>err &&
	test_json out.json "(
j[\"bundle\"] == \"j.plumb\" and len(j[\"id\"]) == 64 and j[\"failures\"] == 0 and
j[\"benches\"][0][\"name\"] == \"b\" and j[\"benches\"][0][\"unit\"] == \"ns\" and
j[\"benches\"][0][\"sides\"][\"base\"][\"center\"] > 0 and
j[\"runs\"] == 20
)"
'

test_expect_success '-o into a missing folder is refused before anything is built' '
	rm -rf wd &&
	test_expect_code 2 run_plumb -c proj/plumb.conf -o nowhere/x.plumb 2>err &&
	test_grep "^plumb: -o: nowhere/x.plumb: no folder nowhere to write the bundle in" err &&
	! test -d wd
'

test_expect_success '--keep keeps the run folder with samples.tsv and the logs' '
	run_plumb -c proj/plumb.conf -o k.plumb --keep >out 2>err &&
	test_grep "the run folder is kept: .*/wd/run-" err &&
	test -f wd/run-*/samples.tsv && test -f wd/run-*/log/b00.log &&
	rm -rf wd
'

test_expect_success 'more rounds than a bundle can record: exit 3 before building' '
	rm -rf wd &&
	test_expect_code 3 run_plumb -c proj/plumb.conf -o big.plumb --rounds 100000 2>err &&
	test_grep "run.rounds: 100000 rounds of 5 variants make a manifest larger than a bundle may hold (1048576 bytes, 100000 JSON values); at most [0-9]* rounds fit" err &&
	! test -e big.plumb && ! test -d wd
'

test_expect_success 'progress: plain timestamped lines when not a terminal, at most one a second, the first and the last always' '
	t0=$(date +%s) &&
	run_plumb -c proj/plumb.conf -o p.plumb --rounds 40 >out 2>err &&
	t1=$(date +%s) &&
	grep "^plumb: [0-9:]* \(warmup pass\|round\) [0-9]*/[0-9]* done: " err >lines &&
	head -n 1 lines | grep " warmup pass 1/1 done: " &&
	tail -n 1 lines | grep " round 40/40 done: [0-9]* of [0-9]* runs" &&
	n=$(wc -l <lines) &&
	# One a second at most, beside the first and the last.
	test "$n" -le $((t1 - t0 + 2)) &&
	test "$n" -lt 41
'

test_done
