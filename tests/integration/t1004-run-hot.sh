#!/bin/sh
test_description='plumb run: did the hot code change between base and candidate?'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

test_expect_success 'set up a project' '
	make_project proj &&
	(
		cd proj &&
		git checkout -q -b hotloop v1 &&
		sed -e "s/s = step(s) ^ (i \* acc);/s = step(s) + (i * acc);/" work.c >work.c.new &&
		mv work.c.new work.c &&
		git commit -q -a -m "change the hot loop" &&
		git checkout -q main
	) &&
	! git -C proj diff --quiet v1 hotloop -- work.c
'

test_expect_success 'a candidate that only changes a cold function: the hot code is the same' '
	write_conf proj/plumb.conf &&
	run_build -c proj/plumb.conf >out &&
	test_grep "^  run: identical" out
'

test_expect_success PYTHON 'it moved the hot function, so only addresses differ' '
	run_build -c proj/plumb.conf --json >s.json &&
	test_json s.json "j[\"hot\"][0][\"verdict\"] == \"identical except addresses\"" &&
	test_json s.json "j[\"hot\"][0][\"normalized\"] >= 1 and j[\"hot\"][0][\"base_size\"] == j[\"hot\"][0][\"candidate_size\"]" &&
	test_json s.json "[v[\"symbols\"][\"run\"] for v in j[\"variants\"] if v[\"id\"] == \"b00\"] != [v[\"symbols\"][\"run\"] for v in j[\"variants\"] if v[\"id\"] == \"c00\"]"
'

test_expect_success 'the same revision on both sides is identical' '
	run_build -c proj/plumb.conf --base main >out &&
	test_grep "^  run: identical (" out
'

test_expect_success 'a candidate that changes the hot loop: changed, with both sizes' '
	run_build -c proj/plumb.conf --candidate hotloop >out &&
	test_grep "^  run: changed ([0-9]* bytes in base, [0-9]* in candidate; at +0x" out
'

test_expect_success PYTHON 'several hot symbols across benchmarks are each compared' '
	write_conf proj/two.conf "bench.c.command={artifact} x" "bench.c.hot=step run" &&
	run_build -c proj/two.conf --json --candidate hotloop >t.json &&
	test_json t.json "[h[\"symbol\"] for h in j[\"hot\"]] == [\"run\", \"step\"]" &&
	test_json t.json "j[\"hot\"][0][\"verdict\"] == \"changed\"" &&
	test_json t.json "j[\"hot\"][1][\"verdict\"] in (\"identical\", \"identical except addresses\")" &&
	test_json t.json "j[\"shift\"][\"symbols\"] == [\"run\", \"step\"]"
'

test_expect_success 'a misspelt hot symbol is refused with the nearest name the artifact defines' '
	write_conf proj/typo.conf "bench.b.hot=rnu" &&
	test_expect_code 3 run_build -c proj/typo.conf >out 2>err &&
	test_grep "bench.b.hot: .rnu. is not a function in .*: not defined, inlined, or stripped; did you mean .run.?" err &&
	test_grep "b00: [br][ue][is][lt]" err &&
	test_grep_not "(b01)" err &&
	test_grep_not "(c00)" err
'

test_expect_success 'the misspelt name is caught on the first build, before any pad: base pad 0 with build.reuse = none too' '
	write_conf proj/typo2.conf "bench.b.hot=rnu" "build.reuse=none" &&
	test_expect_code 3 run_build -c proj/typo2.conf --no-cache >out 2>err &&
	test_grep "bench.b.hot: .rnu. is not a function in .*b00.*: not defined, inlined, or stripped; did you mean .run.?" err &&
	test_grep "b00: built" err &&
	test_grep_not "(b01)" err &&
	test_grep_not "(k00)" err &&
	test_grep_not "(c00)" err
'

test_expect_success 'a hot name GCC cloned: the clone is suggested first' '
	(
		cd proj &&
		git checkout -q -b clone v1 &&
		printf "%s\n" "__attribute__((used, noinline)) long crunch(long x) __asm__(\"crunch.constprop.0\");" \
			"long crunch(long x) { return x * 3 + 1; }" >>work.c &&
		git commit -q -a -m "a clone-named function" &&
		git checkout -q main
	) &&
	write_conf proj/clone.conf "run.base=clone" "run.candidate=clone" "bench.b.hot=crunch" &&
	test_expect_code 3 run_build -c proj/clone.conf >out 2>err &&
	test_grep "did you mean .crunch.constprop.0. (a clone GCC made of it)?" err &&
	test_grep_not "(c00)" err
'

test_done
