#!/bin/sh
test_description='run: bench.NAME.mode = gbench sweeps a Google Benchmark binary (the real library): each of its benchmarks judged with its pads, a planted slowdown in one called slower, a failing one named'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# GBENCH: g++ and Debian's libbenchmark-dev build a benchmark binary.
printf '#include <benchmark/benchmark.h>\nBENCHMARK_MAIN();\n' >probe.cc &&
	${CXX:-g++} -o probe probe.cc -lbenchmark -lpthread >/dev/null 2>&1 &&
	test_set_prereq GBENCH

# make_gbench_project DIR: a git repository whose Makefile links bench.cc
# against the library with the pad flags ($(LDFLAGS), as plumb exports
# them): BM_mix, the family BM_sum/256 and BM_sum/1024, and BM_fail, which
# says so on stderr and skips with an error (exits 3 when GB_EXIT is set).
# Tag v1; then a commit on main that plants 3x the work in BM_mix alone (a
# constant: the code keeps its size); then, on branch more, BM_sum/4096
# and BM_new.
make_gbench_project() {
	mkdir -p "$1" &&
	(
		cd "$1" &&
		git init -q -b main . &&
		cat >bench.cc <<-\EOF &&
		#include <benchmark/benchmark.h>
		#include <cstdio>
		#include <cstdlib>
		static const long mix_n = 2000;
		static long mix(long n)
		{
			long s = 0;
			for (long i = 0; i < n; i++)
				s = (s ^ i) + (s >> 3);
			return s;
		}
		static void BM_mix(benchmark::State &st)
		{
			for (auto _ : st)
				benchmark::DoNotOptimize(mix(mix_n));
		}
		BENCHMARK(BM_mix);
		static void BM_sum(benchmark::State &st)
		{
			for (auto _ : st) {
				long s = 0;
				for (long i = 0; i < st.range(0); i++) {
					s += i * i;
					benchmark::DoNotOptimize(s);
				}
			}
		}
		BENCHMARK(BM_sum)->Arg(256)->Arg(1024);
		static void BM_fail(benchmark::State &st)
		{
			if (std::getenv("GB_EXIT"))
				std::exit(3);
			std::fputs("cannot open the input\n", stderr);
			for (auto _ : st) {
				st.SkipWithError("no input file");
				break;
			}
		}
		BENCHMARK(BM_fail);
		BENCHMARK_MAIN();
		EOF
		printf '%s\n' 'CXXFLAGS = -O2 -g' 'bench: bench.o' \
			'	$(CXX) $(LDFLAGS) -o $@ bench.o -lbenchmark -lpthread' >Makefile &&
		printf 'bench\n*.o\n' >.gitignore &&
		git add -A &&
		git commit -q -m "first version" &&
		git tag v1 &&
		sed -e "s/mix_n = 2000;/mix_n = 6000;/" bench.cc >bench.cc.new &&
		mv bench.cc.new bench.cc &&
		git commit -q -a -m "three times the work in BM_mix" &&
		git checkout -q -b more &&
		sed -e "s/->Arg(1024);/->Arg(1024)->Arg(4096);/" \
			-e "s/^BENCHMARK(BM_fail);/BENCHMARK(BM_fail);\nstatic void BM_new(benchmark::State \&st) { for (auto _ : st) benchmark::DoNotOptimize(mix(10)); }\nBENCHMARK(BM_new);/" \
			bench.cc >bench.cc.new &&
		mv bench.cc.new bench.cc &&
		git commit -q -a -m "two more benchmarks" &&
		git checkout -q main
	)
}

# gbench_conf FILE [section.key=value]...: 5 pads a side (the fewest the
# shift rule calls at 99%), 3 rounds, no control, no warmup run; section gb
# runs the binary briefly and leaves BM_fail out.
gbench_conf() {
	conf=$1
	shift
	run_conf "$conf" run.pads=5 run.control=false \
		"bench.b.command={artifact} --benchmark_min_time=0.005" bench.b.mode=gbench &&
	git config -f "$conf" --rename-section bench.b bench.gb &&
	git config -f "$conf" --unset bench.gb.hot &&
	git config -f "$conf" bench.gb.filter -BM_fail &&
	for kv in "$@"; do
		git config -f "$conf" "${kv%%=*}" "${kv#*=}" || return 1
	done
}

test_expect_success GBENCH 'set up a Google Benchmark project' '
	make_gbench_project proj &&
	gbench_conf proj/plumb.conf &&
	plumb run --dry-run -c proj/plumb.conf >dry &&
	test_grep "^	mode = gbench$" dry &&
	test_grep "^	filter = -BM_fail$" dry
'

# Judged by cpu_time: on a loaded machine (a CI runner, this suite beside
# others) real_time also counts the time the binary waits for a CPU, and
# at load 10 on 2 CPUs it hid the planted slowdown once in four runs.
test_expect_success GBENCH 'one run: each benchmark of the binary judged with its pads, the planted one slower' '
	git config -f proj/plumb.conf bench.gb.metric cpu &&
	run_plumb -c proj/plumb.conf -o g.plumb >out 2>err &&
	git config -f proj/plumb.conf --unset bench.gb.metric &&
	test_grep "benchmark gb: 3 Google Benchmark benchmarks (BM_mix, BM_sum/256, BM_sum/1024)" err &&
	manifest g.plumb g &&
	python3 - g/manifest.json <<-\PY
	import json, sys
	m = json.load(open(sys.argv[1]))
	assert m["minorVersion"] == 5, m["minorVersion"]   # gbench (1.4), judged by shift v4 (1.5)
	names = [b["name"] for b in m["benches"]]
	assert names == ["gb/BM_mix", "gb/BM_sum/256", "gb/BM_sum/1024"], names
	for b in m["benches"]:
	    assert b["mode"] == "gbench" and b["metric"] == "cpu", b
	    assert len(b["sides"]["base"]["pads"]) == 5, b["sides"]["base"]
	    assert len(b["sides"]["candidate"]["pads"]) == 5, b["sides"]["candidate"]
	    assert b["gbench"]["section"] == "gb", b["gbench"]
	verdicts = {b["name"]: b["verdict"] for b in m["benches"]}
	assert verdicts["gb/BM_mix"] == "slower", verdicts
	assert verdicts["gb/BM_sum/256"] not in ("slower", "faster"), verdicts
	assert verdicts["gb/BM_sum/1024"] not in ("slower", "faster"), verdicts
	fam = [(b["gbench"]["name"], b["gbench"]["family"]) for b in m["benches"]]
	assert fam == [("BM_mix", "BM_mix"), ("BM_sum/256", "BM_sum"), ("BM_sum/1024", "BM_sum")], fam
	assert [b["name"] for b in m["spec"]["bench"]] == ["gb"], m["spec"]["bench"]
	assert m["spec"]["bench"][0]["mode"] == "gbench"
	lines = [c["line"] for c in m["provenance"]["commands"] if c["bench"] == "gb/BM_sum/256"]
	assert len(lines) == 10 and all(l.endswith("--benchmark_format=json --benchmark_repetitions=1 "
	                                           "\x27--benchmark_filter=^BM_sum/256$\x27") for l in lines), lines
	PY
'

test_expect_success GBENCH 'samples.tsv holds real_time and cpu_time per round; the report and the audit read it' '
	awk -F "\t" "\$1 == \"gb/BM_sum/1024\" && \$2 == \"base\" && \$3 == 0 { print \$4, \$5, \$6 }" \
		g/samples.tsv >rows &&
	printf "%s\n" "1 - wall" "1 - cpu" "2 - wall" "2 - cpu" "3 - wall" "3 - cpu" >expect &&
	test_cmp expect rows &&
	plumb report g.plumb >report &&
	test_grep "^gb/BM_mix .* slower$" report &&
	plumb audit g.plumb >audit &&
	test_grep "Consistency: pass" audit
'

test_expect_success GBENCH 'a benchmark that fails (SkipWithError) stops the run, named with its message' '
	gbench_conf all.conf "repo.path=$TRASH/proj" run.pads=1 run.rounds=1 &&
	git config -f all.conf --unset bench.gb.filter &&
	test_expect_code 5 run_plumb -c all.conf -o f.plumb >out 2>err &&
	test_grep "benchmark gb/BM_fail: base/0 (b00) failed in round 1: Google Benchmark: every repetition had error_occurred (error_message: no input file); nothing was published" err &&
	test ! -e f.plumb
'

test_expect_success GBENCH 'with --keep-going it is recorded in the bundle and the others are measured' '
	test_expect_code 5 run_plumb -c all.conf -o k.plumb --keep-going >out 2>err &&
	test_grep "1 benchmark failed" err &&
	test_grep "^gb/BM_fail .*failed$" out &&
	manifest k.plumb k &&
	test_json k/manifest.json "[b[\"name\"] for b in j[\"benches\"]] == [\"gb/BM_mix\", \"gb/BM_sum/256\", \"gb/BM_sum/1024\", \"gb/BM_fail\"] and \"no input file\" in j[\"benches\"][3][\"failure\"] and all(\"failure\" not in b for b in j[\"benches\"][:3])" &&
	# Its log is the member the record names (characters outside A-Z a-z 0-9 . _ - as _).
	test_json k/manifest.json "j[\"benches\"][3][\"failureLog\"] == \"logs/bench-gb--BM_fail-b00.log\"" &&
	test_grep "cannot open the input" k/logs/bench-gb--BM_fail-b00.log
'

test_expect_success GBENCH 'a binary that exits non-zero is named with the variant' '
	gbench_conf exit.conf "repo.path=$TRASH/proj" run.pads=1 run.rounds=1 "run.env=PATH HOME LANG GB_EXIT" \
		bench.gb.filter=BM_fail &&
	(GB_EXIT=1 && export GB_EXIT && test_expect_code 5 run_plumb -c exit.conf -o e.plumb >out 2>err) &&
	test_grep "benchmark gb/BM_fail: base/0 (b00) failed in round 1: exit status 3" err
'

test_expect_success GBENCH 'a binary whose runs print no JSON is named with the variant' '
	printf "%s\n" "#!/bin/sh" "case \"\$*\" in *--benchmark_list_tests*) exec \"\$@\" ;; esac" \
		"\"\$@\" >/dev/null" >quiet.sh &&
	chmod +x quiet.sh &&
	gbench_conf quiet.conf "repo.path=$TRASH/proj" run.pads=1 run.rounds=1 \
		"bench.gb.command=$TRASH/quiet.sh {artifact} --benchmark_min_time=0.005" &&
	test_expect_code 5 run_plumb -c quiet.conf -o q.plumb >out 2>err &&
	test_grep "benchmark gb/BM_mix: base/0 (b00) failed in round 1: printed no Google Benchmark JSON on standard output" err
'

test_expect_success GBENCH 'a benchmark one side alone lists stops the run before any round, named' '
	gbench_conf more.conf "repo.path=$TRASH/proj" run.pads=1 run.rounds=1 run.base=main \
		run.candidate=more &&
	test_expect_code 5 run_plumb -c more.conf -o m.plumb >out 2>err &&
	test_grep "benchmark gb: 5 Google Benchmark benchmarks (BM_mix, BM_sum/256, BM_sum/1024, BM_sum/4096, BM_new)" err &&
	test_grep "benchmark gb/BM_sum/4096: only in the candidate.s binary: base/0 (b00) does not list it, so there is nothing to compare it with; leave it out with bench.gb.filter, or record it and go on with --keep-going; nothing was published" err &&
	test_grep_not "round 1" err
'

test_expect_success GBENCH '... and with --keep-going it is recorded beside its family, the others measured' '
	test_expect_code 5 run_plumb -c more.conf -o m.plumb --keep-going >out 2>err &&
	manifest m.plumb m &&
	python3 - m/manifest.json <<-\PY
	import json, sys
	m = json.load(open(sys.argv[1]))
	names = [b["name"] for b in m["benches"]]
	assert names == ["gb/BM_mix", "gb/BM_sum/256", "gb/BM_sum/1024", "gb/BM_sum/4096",
	                 "gb/BM_new"], names
	failed = {b["name"]: b["failure"] for b in m["benches"] if "failure" in b}
	assert sorted(failed) == ["gb/BM_new", "gb/BM_sum/4096"], failed
	assert all(f.startswith("only in the candidate\x27s binary") for f in failed.values()), failed
	PY
'

test_expect_success GBENCH 'bisect refuses a gbench section' '
	test_expect_code 2 plumb bisect -c proj/plumb.conf --good v1 --bad main 2>err &&
	test_grep "bench.gb.mode = gbench: a Google Benchmark binary is several benchmarks" err
'

test_expect_success GBENCH 'a filter that matches nothing is an error naming the section and the variant' '
	gbench_conf none.conf "repo.path=$TRASH/proj" run.pads=1 run.rounds=1 bench.gb.filter=^BM_nothing$ &&
	test_expect_code 5 run_plumb -c none.conf -o n.plumb >out 2>err &&
	test_grep "benchmark gb: the Google Benchmark binary of base/0 (b00) lists no benchmark with --benchmark_filter=.BM_nothing.: does bench.gb.filter match none of its benchmarks" err
'

test_done
