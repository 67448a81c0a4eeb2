#!/bin/sh
test_description='plumb run: failed benchmarks exit 5 and publish nothing; --keep-going records them'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# Each failure is tied to one variant by its folder name (v/c01, v/b01).
test_expect_success 'set up a project' '
	make_project proj &&
	mkdir out
'

test_expect_success 'a non-zero exit: exit 5 naming the variant, the round and stderr' '
	run_conf proj/exit.conf \
		"bench.b.command=case {artifact} in */c01/*) echo no input file >&2; echo giving up >&2; exit 3;; esac; {artifact}" &&
	test_expect_code 5 run_plumb -c proj/exit.conf -o out/exit.plumb >stdout 2>err &&
	test_grep "^plumb: benchmark b: candidate/1 (c01) failed in round 1: exit status 3; nothing was published" err &&
	test_grep "the last lines of its standard error:" err &&
	test_grep "^  | no input file$" err &&
	test_grep "^  | giving up$" err &&
	no_bundle out && no_bundle . &&
	ls wd >left && test_grep_not "^run-" left
'

test_expect_success 'a signal: exit 5 naming it' '
	run_conf proj/sig.conf \
		"bench.b.command=case {artifact} in */b01/*) kill -SEGV \$\$;; esac; {artifact}" &&
	test_expect_code 5 run_plumb -c proj/sig.conf -o out/sig.plumb >stdout 2>err &&
	test_grep "benchmark b: base/1 (b01) failed in round 1: killed by signal 11" err &&
	no_bundle out
'

test_expect_success 'a timeout: exit 5, and no process left' '
	run_conf proj/slow.conf bench.b.timeout=1 \
		"bench.b.command=case {artifact} in */k00/*) sleep 3191.$MARK;; esac; {artifact}" &&
	test_expect_code 5 run_plumb -c proj/slow.conf -o out/slow.plumb >stdout 2>err &&
	test_grep "benchmark b: control/0 (k00) failed in round 1: timed out after 1.00 s" err &&
	! pgrep -f "sleep 3191\.$MARK([^0-9]|$)" &&
	no_bundle out
'

test_expect_success 'a failing warmup run is named as such' '
	run_conf proj/warm.conf run.warmupRuns=1 \
		"bench.b.command=case {artifact} in */c00/*) exit 9;; esac; {artifact}" &&
	test_expect_code 5 run_plumb -c proj/warm.conf -o out/warm.plumb >stdout 2>err &&
	test_grep "candidate/0 (c00) failed in warmup run 1: exit status 9" err &&
	no_bundle out
'

test_expect_success 'checksums that disagree within a side: exit 5 naming both variants' '
	run_conf proj/ck.conf \
		"bench.b.command=case {artifact} in */b01/*) echo checksum=beef;; *) echo checksum=cafe;; esac" &&
	test_expect_code 5 run_plumb -c proj/ck.conf -o out/ck.plumb >stdout 2>err &&
	test_grep "checksum mismatch within base: [a-z]*/[01] ([bk]0[01]) printed [a-f]*, [a-z]*/[01] ([bk]0[01]) printed [a-f]*" err &&
	test_grep "base/1 (b01) printed beef" err && test_grep "printed cafe" err &&
	no_bundle out
'

test_expect_success 'the control belongs to the base side of the oracle' '
	run_conf proj/ckk.conf \
		"bench.b.command=case {artifact} in */k00/*) echo checksum=1;; *) echo checksum=2;; esac" &&
	test_expect_code 5 run_plumb -c proj/ckk.conf -o out/ckk.plumb >stdout 2>err &&
	test_grep "checksum mismatch within base: .*control/0 (k00)" err
'

test_expect_success 'checksum = required fails a run that prints none' '
	run_conf proj/req.conf bench.b.checksum=required &&
	test_expect_code 5 run_plumb -c proj/req.conf -o out/req.plumb >stdout 2>err &&
	test_grep "printed no checksum= line (bench.b.checksum = required)" err &&
	no_bundle out
'

test_expect_success 'a checksum line over the limit fails the run, saying its length and the limit' '
	run_conf proj/long.conf bench.b.checksum=required \
		"bench.b.command=printf checksum=; head -c 1000000 /dev/zero | tr \"\\\\000\" f; echo; {artifact}" &&
	test_expect_code 5 run_plumb -c proj/long.conf -o out/long.plumb >stdout 2>err &&
	test_grep "failed in round 1: stdout line 1: a checksum= line of 1000009 bytes, over the limit of 128 hex digits" err &&
	test_grep_not "printed no checksum= line" err &&
	no_bundle out
'

test_expect_success PYTHON 'base and candidate disagreeing is recorded as behaviour changed' '
	run_conf proj/beh.conf \
		"bench.b.command=case {artifact} in */c0*) echo checksum=2;; *) echo checksum=1;; esac" &&
	run_plumb -c proj/beh.conf -o out/beh.plumb >stdout 2>err &&
	test_grep "^b: behaviour changed: checksum 1 → 2$" stdout &&
	test "$(grep -c "behaviour changed" stdout)" = 1 &&
	manifest out/beh.plumb beh &&
	test_json beh/manifest.json "(
j[\"benches\"][0][\"checksum\"] == {\"consistent\": True, \"base\": \"1\", \"candidate\": \"2\"} and
any(n.startswith(\"behaviour changed\") for n in j[\"benches\"][0][\"notes\"])
)"
'

test_expect_success PYTHON '--keep-going records the failure, runs the other benchmarks, exits 5' '
	run_conf proj/kg.conf \
		"bench.b.command=case {artifact} in */c01/*) echo broken >&2; exit 3;; esac; {artifact}" &&
	git config -f proj/kg.conf bench.ok.command "{artifact}" &&
	test_expect_code 5 run_plumb -c proj/kg.conf -o out/kg.plumb --keep-going >stdout 2>err &&
	test_grep "benchmark b: candidate/1 (c01) failed in round 1: exit status 3; recorded, going on" err &&
	test_grep "^b  *wall  .* failed$" stdout &&
	test_grep "^b: failed: candidate/1 (c01) failed in round 1: exit status 3" stdout &&
	test_grep "^ok  *wall  .* unswept$" stdout &&
	plumb bundle verify out/kg.plumb >/dev/null &&
	manifest out/kg.plumb kg &&
	test_json kg/manifest.json "(
j[\"benches\"][0][\"name\"] == \"b\" and j[\"benches\"][0][\"failure\"].startswith(\"candidate/1 (c01) failed in round 1\") and
\"sides\" not in j[\"benches\"][0] and
j[\"benches\"][1][\"name\"] == \"ok\" and j[\"benches\"][1][\"verdict\"] == \"unswept\"
)" &&
	test_grep "broken" kg/logs/bench-b-c01.log &&
	test_grep_not "^b	[a-z]*	[0-9]*	[23]	" kg/samples.tsv
'

test_done
