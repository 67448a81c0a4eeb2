#!/bin/sh
test_description='run: run.setup/cleanup, bench.NAME.setup/prepare/cleanup run where and when documented, untimed, logged, recorded'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# Every hook and every run appends one line to trace: what, the folder, the artifact.
hooks_conf() {
	run_conf "$1" run.pads=1 run.control=false &&
	git config -f "$1" bench.b.command \
		"echo run \$(pwd) \$PLUMB_ARTIFACT >>$TRASH/trace; {artifact}" &&
	git config -f "$1" bench.b.prepare \
		"echo prepare \$(pwd) \$PLUMB_ARTIFACT >>$TRASH/trace; echo prepared >&2; sleep 0.2" &&
	git config -f "$1" bench.b.setup "echo setup \$(pwd) {artifact} >>$TRASH/trace" &&
	git config -f "$1" bench.b.cleanup "echo cleanup \$(pwd) {artifact} >>$TRASH/trace" &&
	git config -f "$1" run.setup "echo run.setup >>$TRASH/trace; echo set up >&2" &&
	git config -f "$1" run.cleanup "echo run.cleanup >>$TRASH/trace"
}

test_expect_success 'set up a project with every hook' '
	make_project proj &&
	hooks_conf proj/plumb.conf
'

test_expect_success 'a run: the hooks in their order, in the benchmark folder and environment' '
	rm -f trace &&
	run_plumb -c proj/plumb.conf -o h.plumb >out 2>err &&
	head -1 trace >first && echo run.setup >expect && test_cmp expect first &&
	tail -1 trace >last && echo run.cleanup >expect && test_cmp expect last &&
	# 2 variants x 3 rounds: a prepare right before each run, same folder, same artifact.
	test "$(grep -c "^run " trace)" = 6 &&
	test "$(grep -c "^prepare " trace)" = 6 &&
	grep -v "^run\." trace | awk "
		/^prepare/ { p = \$2 \" \" \$3; next }
		/^run / { if (\$2 \" \" \$3 != p) { print \"run without its prepare: \" \$0; exit 1 } p = \"\" }
	" &&
	# setup once per variant before its first run, cleanup once per variant after every run.
	test "$(grep -c "^setup " trace)" = 2 &&
	test "$(grep -c "^cleanup " trace)" = 2 &&
	awk "/^setup/ { s[\$3] = NR } /^run / { if (!(\$3 in s)) exit 1; last = NR }
	     /^cleanup/ { if (NR < last) exit 1 }" trace &&
	sed -n "s/^setup [^ ]* //p" trace | sort >setups &&
	sed -n "s/^cleanup [^ ]* //p" trace | sort >cleanups &&
	test_cmp setups cleanups &&
	sed -n "s/^run [^ ]* //p" trace | sort -u >runs &&
	test_cmp setups runs &&
	test "$(grep " " trace | cut -d" " -f2 | sort -u | wc -l)" = 1
'

test_expect_success 'prepare sleeps 0.2 s before every run, and no measured time holds it' '
	manifest h.plumb h &&
	# Timed, every run would last the 0.2 s of its prepare at least: the
	# pad medians stay under it (a run of the program alone takes ms).
	test "$(awk -F"\t" "NR > 1 && \$6 == \"wall\"" h/samples.tsv | wc -l)" = 6 &&
	python3 - h/manifest.json <<-\PY
	import json, sys, re
	m = json.load(open(sys.argv[1]))
	b = m["benches"][0]
	assert max(b["sides"]["base"]["pads"] + b["sides"]["candidate"]["pads"]) < 200e6, b["sides"]
	notes = " ".join(b.get("notes") or [])
	t = re.search(r"prepare ran before each of its 6 runs, untimed \(([0-9.]+) s in all", notes)
	assert t and float(t.group(1)) >= 1.2, notes
	assert "setup ran 2 times, cleanup 2" in notes, notes
	assert "run.setup and run.cleanup ran once for the job" in notes, notes
	spec = m["spec"]
	assert spec["run"]["setup"].startswith("echo run.setup"), spec["run"]
	assert spec["bench"][0]["prepare"].startswith("echo prepare"), spec["bench"][0]
	PY
'

test_expect_success 'their output is logged in the bundle, and the report shows them' '
	test_grep "plumb: run.setup: exit status 0" h/logs/run-hooks.log &&
	test_grep "^set up$" h/logs/run-hooks.log &&
	test_grep "prepared" h/logs/bench-b-b00.log &&
	test_grep "prepare before round 1" h/logs/bench-b-b00.log &&
	plumb report h.plumb >report &&
	test_grep "prepare ran before each of its 6 runs" report
'

test_expect_success 'a failing prepare fails the run like the benchmark: exit 5, no bundle' '
	hooks_conf proj/bad.conf &&
	git config -f proj/bad.conf bench.b.prepare "echo no input >&2; exit 3" &&
	rm -f trace && mkdir -p out1 &&
	test_expect_code 5 run_plumb -c proj/bad.conf -o out1/x.plumb >out 2>err &&
	test_grep "prepare failed: exit status 3" err &&
	test_grep "no input" err &&
	no_bundle out1 &&
	test "$(grep -c "^run " trace)" = 0 &&
	tail -1 trace >last && echo run.cleanup >expect && test_cmp expect last &&
	test "$(grep -c "^cleanup " trace)" = 1
'

test_expect_success 'with --keep-going the failure is recorded and the rest goes on' '
	run_plumb -c proj/bad.conf --keep-going -o kg.plumb >out 2>err;
	test -f kg.plumb &&
	manifest kg.plumb kg &&
	python3 -c "import json,sys; b=json.load(open(sys.argv[1]))[\"benches\"][0]; assert \"prepare failed\" in b[\"failure\"], b" kg/manifest.json
'

test_expect_success 'a failing run.setup stops before any run, and run.cleanup still runs' '
	hooks_conf proj/bad2.conf &&
	git config -f proj/bad2.conf run.setup "echo failing >&2; exit 7" &&
	rm -f trace &&
	test_expect_code 5 run_plumb -c proj/bad2.conf -o out1/y.plumb >out 2>err &&
	test_grep "run.setup failed: exit status 7; nothing was published" err &&
	echo run.cleanup >expect && test_cmp expect trace
'

test_expect_success 'a hook may not hold a placeholder of another key' '
	hooks_conf proj/bad3.conf &&
	git config -f proj/bad3.conf bench.b.prepare "touch {pad}" &&
	test_expect_code 3 plumb run --dry-run -c proj/bad3.conf 2>err &&
	test_grep "bench.b.prepare: .{pad}. is a placeholder of build.command only" err
'

test_done
