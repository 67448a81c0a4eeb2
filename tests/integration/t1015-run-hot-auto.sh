#!/bin/sh
test_description='plumb run: hot = auto profiles pad 0 of each side and judges the hot set it finds'
. "$(dirname "$0")/test-lib.sh"

# The interpreter example in a repository; the candidate grows main() only.
# Identical hot code decides the verdict (placement) under the margin rule,
# which the test names: under the default rule (shift v4) identity decides
# only with the same work shown, and 2 pads a side cannot reach 99%.
test_expect_success 'set up the interpreter example in a repository' '
	cp -R "$TEST_SRCDIR/examples/interp" repo && chmod -R u+w repo &&
	(
		cd repo &&
		git init -q -b main . &&
		printf "interp\n" >.gitignore &&
		git add -A &&
		git -c user.name=t -c user.email=t@t commit -q -m base &&
		sed -e "s|reg\[1\] = (uint64_t)n;|reg[1] = (uint64_t)n; if (argc > 5) puts(\"a longer main\");|" \
			interp.c >interp.c.new && mv interp.c.new interp.c &&
		git -c user.name=t -c user.email=t@t commit -q -a -m "grow main"
	) &&
	cat >p.conf <<-\EOF
	[repo]
		path = repo
	[run]
		base = HEAD~1
		pads = 2
		rounds = 3
	[build]
		command = make bench
		artifact = interp
	[bench "i"]
		command = {artifact} 3000000
	[verdict]
		rule = margin
	EOF
'

test_expect_success PYTHON 'no hot named: the profile finds the dispatch loop run(), and identity is judged on it' '
	plumb run -c p.conf --workdir "$TRASH/wd" -o a.plumb >out 2>err &&
	plumb bundle extract a.plumb a >/dev/null &&
	test_json a/manifest.json "j[\"benches\"][0][\"profile\"][\"base\"][\"symbols\"][0][\"name\"] == \"run\" and j[\"benches\"][0][\"profile\"][\"base\"][\"symbols\"][0][\"share\"] > 0.9" &&
	test_json a/manifest.json "j[\"benches\"][0][\"profile\"][\"candidate\"][\"symbols\"][0][\"name\"] == \"run\" and j[\"benches\"][0][\"profile\"][\"coverage\"] == 0.95" &&
	test_json a/manifest.json "[s[\"name\"] for s in j[\"benches\"][0][\"hot\"][\"symbols\"]] == [\"run\"] and j[\"benches\"][0][\"hot\"][\"symbols\"][0][\"verdict\"] in (\"identical\", \"identical except addresses\")" &&
	test_json a/manifest.json "j[\"benches\"][0][\"verdict\"] == \"placement\"" &&
	test_grep "hot set from the profile (95% of the samples): base run [0-9.]*%; candidate run [0-9.]*%" out &&
	plumb bundle verify a.plumb >/dev/null
'

test_expect_success PYTHON 'a named symbol the benchmark never runs is reported as not hot; run() is still judged' '
	git config -f p.conf bench.i.hot "main" &&
	plumb run -c p.conf --workdir "$TRASH/wd" -o b.plumb >out 2>err &&
	plumb bundle extract b.plumb b >/dev/null &&
	test_grep "bench.i.hot names .main., which never appears in the profile: not hot" out &&
	test_json b/manifest.json "sorted(s[\"name\"] for s in j[\"benches\"][0][\"hot\"][\"symbols\"]) == [\"main\", \"run\"]"
'

test_expect_success PYTHON 'bench.NAME.hotCoverage = 1: the hot set is every symbol sampled, and recorded so' '
	git config -f p.conf --unset bench.i.hot &&
	git config -f p.conf bench.i.hotCoverage 1 &&
	plumb run -c p.conf --workdir "$TRASH/wd" -o h.plumb >out 2>err &&
	plumb bundle extract h.plumb h >/dev/null &&
	test_json h/manifest.json "j[\"benches\"][0][\"profile\"][\"coverage\"] == 1 and j[\"spec\"][\"bench\"][0][\"hotCoverage\"] == \"1\"" &&
	test_json h/manifest.json "all(abs(sum(s[\"share\"] for s in j[\"benches\"][0][\"profile\"][k][\"symbols\"]) - 1) < 1e-9 for k in (\"base\", \"candidate\"))" &&
	test_grep "hot set from the profile (100% of the samples)" out &&
	git config -f p.conf bench.i.hotCoverage 0.4 &&
	test_expect_code 3 plumb run -c p.conf --workdir "$TRASH/wd" -o x.plumb 2>err &&
	test_grep "bench.i.hotCoverage: .0.4. is not a number from 0.5 to 1" err &&
	git config -f p.conf --unset bench.i.hotCoverage
'

test_expect_success PYTHON 'a command through /bin/sh -c reaching the artifact by $PLUMB_ARTIFACT: accepted, and profiled in the program the shell starts' '
	git config -f p.conf bench.i.command "\"\$PLUMB_ARTIFACT\" 3000000 && :" &&
	plumb run -c p.conf --workdir "$TRASH/wd" -o s.plumb >out 2>err &&
	plumb bundle extract s.plumb s >/dev/null &&
	test_json s/manifest.json "j[\"spec\"][\"bench\"][0][\"command\"] == \"\\\"\$PLUMB_ARTIFACT\\\" 3000000 && :\"" &&
	test_json s/manifest.json "j[\"benches\"][0][\"profile\"][\"base\"][\"symbols\"][0][\"name\"] == \"run\" and j[\"benches\"][0][\"profile\"][\"candidate\"][\"symbols\"][0][\"name\"] == \"run\"" &&
	test_json s/manifest.json "[s[\"name\"] for s in j[\"benches\"][0][\"hot\"][\"symbols\"]] == [\"run\"]" &&
	git config -f p.conf bench.i.command "{artifact} 3000000"
'

test_expect_success 'without a warmup run there is no profile, and the report says why' '

	git config -f p.conf run.warmupRuns 0 &&
	plumb run -c p.conf --workdir "$TRASH/wd" -o c.plumb >out 2>err &&
	test_grep "no profile: hot = auto samples the first warmup run (run.warmupRuns = 0)" out
'

test_done
