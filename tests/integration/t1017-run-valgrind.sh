#!/bin/sh
test_description='plumb run: exact counts under Valgrind, once per variant and checked, beside the wall clock'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

if command -v valgrind >/dev/null 2>&1; then
	test_set_prereq VALGRIND
else
	say "valgrind is not installed (Debian package valgrind): most tests skip"
fi

# The interpreter example in a repository: v1 as shipped; "extra": one
# more store in the NOP handler (run() changes, the checksum does not);
# "clock": main() spins up to 100003 more times as the nanosecond clock says
# so (same checksum), a benchmark that is not deterministic.
test_expect_success 'set up the interpreter example in a repository' '
	mkdir interp &&
	cp "$TEST_SRCDIR/examples/interp/interp.c" "$TEST_SRCDIR/examples/interp/Makefile" interp/ &&
	chmod u+w interp/* &&
	(
		cd interp &&
		git init -q -b main . &&
		printf "interp\n" >.gitignore &&
		git add -A && git commit -q -m "the interpreter" && git tag v1 &&
		git checkout -q -b extra &&
		sed -e "s/case OP_NOP:  break;/case OP_NOP:  reg[7] += reg[i->a]; break;/" interp.c >x.c &&
		mv x.c interp.c && grep -q "reg\[7\] +=" interp.c &&
		git commit -q -a -m "more work in the NOP handler" &&
		git checkout -q -b clock v1 &&
		sed -e "s/^#include <stdlib.h>/#include <stdlib.h>\n#include <time.h>/" \
		    -e "s/reg\[1\] = (uint64_t)n;/{ struct timespec ts; clock_gettime(CLOCK_MONOTONIC, \&ts); for (volatile long k = ts.tv_nsec % 100003 + 1; k > 0; k--) ; } reg[1] = (uint64_t)n;/" \
			interp.c >x.c &&
		mv x.c interp.c && grep -q clock_gettime interp.c &&
		git commit -q -a -m "read the clock" &&
		git checkout -q main
	) &&
	cat >interp.conf <<-\EOF
	[run]
		base = v1
		candidate = v1
		pads = 4
		rounds = 3
		warmupRuns = 0
	[build]
		command = make bench
		artifact = interp
	[bench "interp"]
		command = {artifact} 3000
		hot = run
		counter = valgrind
	EOF
	git config -f interp.conf repo.path interp
'

test_expect_success VALGRIND 'A/A: instructions identical at every pad, exactly; the wall clock moves' '
	run_plumb -c interp.conf -o aa.plumb >out 2>err &&
	manifest aa.plumb aa &&
	awk -F "\t" "\$6 == \"vg-instructions\" { print \$7 }" aa/samples.tsv | sort -u >ir &&
	test "$(wc -l <ir)" = 1 &&
	test "$(cat ir)" -gt 10000 &&
	awk -F "\t" "\$6 == \"wall\" { print \$7 }" aa/samples.tsv | sort -u >wall &&
	test "$(wc -l <wall)" -gt 1 &&
	awk -F "\t" "\$6 == \"vg-instructions\"" aa/samples.tsv >vgrows &&
	test "$(wc -l <vgrows)" = 11 &&
	test_json aa/manifest.json "j[\"benches\"][0][\"valgrind\"][\"deterministic\"] is True and j[\"benches\"][0][\"valgrind\"][\"source\"] == \"valgrind-cachegrind\" and j[\"benches\"][0][\"valgrind\"][\"runs\"] == 11" &&
	test_json aa/manifest.json "j[\"benches\"][0][\"metric\"] == \"wall\"" &&
	test_grep "valgrind: interp, base/0 (b00), run 2: [0-9]* instructions, .* (valgrind so far " err
'

test_expect_success VALGRIND 'wall-clock rounds are not repeated under valgrind: one round per variant, pad 0 twice' '
	awk -F "\t" "\$6 == \"wall\"" aa/samples.tsv >wallrows &&
	test "$(wc -l <wallrows)" = 27 &&
	awk -F "\t" "\$6 == \"vg-instructions\" && \$4 == 2 { print \$2 \"/\" \$3 }" aa/samples.tsv | sort >twice &&
	printf "base/0\ncandidate/0\n" >expect &&
	test_cmp expect twice
'

test_expect_success VALGRIND 'the bundle records the geometry, the cost formula and the valgrind version' '
	valgrind --version | sed "s/^valgrind-//" >version &&
	test_json aa/manifest.json "j[\"run\"][\"valgrind\"][\"version\"] == open(\"version\").read().strip()" &&
	test_json aa/manifest.json "j[\"run\"][\"valgrind\"][\"geometry\"] == {\"I1\": {\"size\": 32768, \"assoc\": 8, \"lineSize\": 64}, \"D1\": {\"size\": 32768, \"assoc\": 8, \"lineSize\": 64}, \"LL\": {\"size\": 8388608, \"assoc\": 16, \"lineSize\": 64}}" &&
	test_json aa/manifest.json "j[\"run\"][\"valgrind\"][\"costFormula\"] == \"L1 hits + 5 x LL hits + 35 x memory accesses\" and j[\"run\"][\"valgrind\"][\"ns\"] > 0" &&
	plumb bundle verify aa.plumb >/dev/null
'

test_expect_success VALGRIND 'the report says the same work, and how far layout moves the simulated cost' '
	plumb report aa.plumb >report.txt &&
	test_grep "instructions (simulated): base [0-9]*, candidate [0-9]* at every pad: the same work: a wall-clock difference is placement or the machine" report.txt &&
	test_grep "simulated cost (cachesim) over pads: base spread" report.txt &&
	test_grep "counts: simulated by valgrind-cachegrind" report.txt &&
	plumb report --format md aa.plumb >report.md &&
	test_grep "the same work" report.md &&
	plumb report --format html aa.plumb >report.html &&
	test_grep "the same work" report.html &&
	plumb report --format json aa.plumb >report.json &&
	test_json report.json "j[\"benches\"][0][\"simulated\"][\"sameWork\"] is True and j[\"benches\"][0][\"simulated\"][\"source\"] == \"valgrind-cachegrind\""
'

# Exact counts: every pad of a side gives the same number.  Under the
# default rule (shift v3) 4+4 pads reach 97% at most, so the planted work is
# measured at 6 pads a side (the smallest exact p is then 2/924).
test_expect_success VALGRIND 'planted extra work: more instructions, slower on that metric from one round per variant' '
	git config -f interp.conf bench.interp.metric vg-instructions &&
	run_plumb -c interp.conf --candidate extra --pads 6 -o extra.plumb >out 2>err &&
	manifest extra.plumb extra &&
	test_json extra/manifest.json "j[\"benches\"][0][\"metric\"] == \"vg-instructions\" and j[\"benches\"][0][\"verdict\"] == \"slower\"" &&
	test_json extra/manifest.json "j[\"benches\"][0][\"sides\"][\"candidate\"][\"center\"] > j[\"benches\"][0][\"sides\"][\"base\"][\"center\"]" &&
	test_json extra/manifest.json "j[\"benches\"][0][\"sides\"][\"base\"][\"rounds\"] == 1" &&
	plumb report extra.plumb >report.txt &&
	test_grep "the work changed" report.txt &&
	plumb bundle verify extra.plumb >/dev/null
'

test_expect_success VALGRIND 'a benchmark that reads the clock is refused as deterministic, the difference recorded' '
	run_plumb -c interp.conf --candidate clock -o clock.plumb >out 2>err &&
	manifest clock.plumb clock &&
	test_json clock/manifest.json "j[\"benches\"][0][\"valgrind\"][\"deterministic\"] is False" &&
	test_json clock/manifest.json "\"candidate/0: vg-instructions \" in j[\"benches\"][0][\"valgrind\"][\"difference\"]" &&
	test_json clock/manifest.json "j[\"benches\"][0][\"verdict\"] == \"insufficient\"" &&
	test_grep "not deterministic under valgrind: candidate/0: vg-instructions" clock/manifest.json &&
	test_grep "valgrind: interp is not deterministic" err &&
	plumb bundle verify clock.plumb >/dev/null
'

# The shell gives the artifact a slightly different environment (PWD,
# SHLVL), which its start-up code reads: a few hundred instructions, where
# the shell's own would be some hundred thousand.
test_expect_success VALGRIND 'through /bin/sh -c: the artifact is counted, not the shell' '
	git config -f interp.conf bench.interp.command "{artifact} 3000 | cat" &&
	git config -f interp.conf run.pads 1 &&
	git config -f interp.conf run.control false &&
	run_plumb -c interp.conf -o sh.plumb >out 2>err &&
	manifest sh.plumb sh &&
	awk -F "\t" "\$6 == \"vg-instructions\" { print \$7 }" sh/samples.tsv | sort -u >ir-sh &&
	test "$(wc -l <ir-sh)" = 1 &&
	d=$(( $(cat ir-sh) - $(cat ir) )) &&
	test "${d#-}" -lt 5000
'

# Samples mode: plumb/bench.h counts only the timed iterations.  "setup"
# does a hundred times the set-up work before the same timed loop.
test_expect_success 'set up a samples-mode benchmark on plumb/bench.h' '
	mkdir loop &&
	cat >loop/loop.c <<-\EOF &&
	#include <plumb/bench.h>
	static volatile unsigned long sink;
	int main(void)
	{
		struct plumb_bench b;
		unsigned long setup = 1000;
		for (unsigned long i = 0; i < setup; i++)
			sink += i;
		if (plumb_bench_init(&b, "loop", 10, 200) != 0)
			return 1;
		while (plumb_bench_next(&b)) {
			unsigned long s = 0;
			for (unsigned long i = 0; i < 100; i++)
				s = s * 31 + sink + i;
			plumb_bench_sink(&b, s);
		}
		return plumb_bench_finish(&b) == 0 ? 0 : 1;
	}
	EOF
	printf "loop: loop.c\n\t\$(CC) -O2 \$(CPPFLAGS) -I%s \$(LDFLAGS) -o \$@ loop.c\n" \
		"$TEST_SRCDIR/include" >loop/Makefile &&
	(
		cd loop &&
		git init -q -b main . && printf "loop\n" >.gitignore &&
		git add -A && git commit -q -m loop && git tag v1 &&
		sed -e "s/setup = 1000;/setup = 100000;/" loop.c >x.c && mv x.c loop.c &&
		git commit -q -a -m "more set-up"
	) &&
	cat >loop.conf <<-EOF
	[repo]
		path = loop
	[run]
		base = v1
		candidate = main
		pads = 2
		rounds = 3
		warmupRuns = 0
	[build]
		command = make loop
		artifact = loop
	[bench "loop"]
		command = {artifact}
		mode = samples
		counter = valgrind
	EOF
'

test_expect_success VALGRIND 'samples mode: only the timed loop is counted, so more set-up is the same work' '
	run_plumb -c loop.conf -o loop.plumb >out 2>err &&
	manifest loop.plumb lp &&
	test_json lp/manifest.json "j[\"benches\"][0][\"valgrind\"][\"source\"] == \"valgrind-callgrind\" and j[\"benches\"][0][\"valgrind\"][\"deterministic\"] is True" &&
	awk -F "\t" "\$6 == \"vg-instructions\" { print \$7 }" lp/samples.tsv | sort -u >ir-loop &&
	test "$(wc -l <ir-loop)" = 1 &&
	test "$(cat ir-loop | cut -d. -f1)" -lt 2000 &&
	plumb report loop.plumb >report.txt &&
	test_grep "the same work" report.txt
'

test_expect_success VALGRIND 'samples mode: a benchmark that marks nothing is a failed run saying why' '
	git config -f loop.conf build.command "make loop CPPFLAGS=-DPLUMB_BENCH_NO_VALGRIND" &&
	test_expect_code 5 run_plumb -c loop.conf -o none.plumb >out 2>err &&
	test_grep "valgrind counted nothing: in samples mode only the timed iterations plumb/bench.h marks are counted" err &&
	! test -e none.plumb
'

# set_bench COMMAND METRIC COUNTER: bench.interp's three keys in interp.conf.
set_bench() {
	git config -f interp.conf bench.interp.command "$1" &&
	git config -f interp.conf bench.interp.metric "$2" &&
	git config -f interp.conf bench.interp.counter "$3"
}

if plumb host 2>/dev/null | grep -q "^perf counters *not supported"; then
	test_set_prereq NO_COUNTERS
else
	test_set_prereq COUNTERS
fi

test_expect_success VALGRIND,NO_COUNTERS 'no PMU: metric = instructions is counted under valgrind, and said so' '
	set_bench "{artifact} 3000" instructions auto &&
	run_plumb -c interp.conf --candidate extra -o auto.plumb >out 2>err &&
	manifest auto.plumb auto &&
	test_json auto/manifest.json "j[\"benches\"][0][\"metric\"] == \"vg-instructions\" and j[\"benches\"][0][\"verdict\"] == \"unswept\"" &&
	test_json auto/manifest.json "j[\"run\"][\"counters\"][\"available\"] is False" &&
	test_grep "metric instructions: no hardware counters on this host; counted under valgrind as vg-instructions (simulated, not a hardware count)" out &&
	test_grep "hardware counters not read" out &&
	test_grep_not "	instructions	" auto/samples.tsv
'

test_expect_success VALGRIND,COUNTERS 'a PMU: metric = instructions stays a hardware count, valgrind is not run' '
	set_bench "{artifact} 3000" instructions auto &&
	run_plumb -c interp.conf --candidate extra -o auto.plumb >out 2>err &&
	manifest auto.plumb auto &&
	test_json auto/manifest.json "j[\"benches\"][0][\"metric\"] == \"instructions\" and \"valgrind\" not in j[\"run\"]"
'

test_expect_success VALGRIND 'counter = both: the valgrind runs beside whatever hardware counters there are' '
	set_bench "{artifact} 3000" wall both &&
	run_plumb -c interp.conf -o both.plumb >out 2>err &&
	manifest both.plumb both &&
	test_json both/manifest.json "j[\"benches\"][0][\"valgrind\"][\"deterministic\"] is True and j[\"benches\"][0][\"metric\"] == \"wall\"" &&
	if test_have_prereq COUNTERS; then
		test_grep "	instructions	" both/samples.tsv && test_grep "hardware counters read too" out
	else
		test_grep "hardware counters not read" out
	fi
'

test_expect_success VALGRIND 'against a baseline bundle: its base is the old side of the attribution' '
	plumb report both.plumb --baseline aa.plumb >report.txt &&
	test_grep "instructions (simulated): baseline [0-9]*, candidate [0-9]* at every pad.*: the same work" report.txt &&
	plumb report both.plumb --baseline aa.plumb --format json >report.json &&
	test_json report.json "j[\"benches\"][0][\"simulated\"][\"sameWork\"] is True"
'

test_expect_success VALGRIND 'a command naming PLUMB_ARTIFACT: each variant counts its own artifact' '
	set_bench "\"\$PLUMB_ARTIFACT\" 3000" vg-instructions valgrind &&
	run_plumb -c interp.conf --candidate extra -o env.plumb >out 2>err &&
	manifest env.plumb env &&
	test_json env/manifest.json "j[\"benches\"][0][\"sides\"][\"candidate\"][\"center\"] > j[\"benches\"][0][\"sides\"][\"base\"][\"center\"]" &&
	awk -F "\t" "\$6 == \"vg-instructions\" && \$2 == \"base\" { print \$7 }" env/samples.tsv | sort -u >ir-env &&
	test "$(wc -l <ir-env)" = 1 &&
	d=$(( $(cat ir-env) - $(cat ir) )) &&
	test "${d#-}" -lt 5000
'

# One pad a side (run.pads = 1 since the /bin/sh test): unswept.
test_expect_success VALGRIND 'counter = valgrind: metric = cycles is judged on the simulated cost, said so' '
	set_bench "{artifact} 3000" cycles valgrind &&
	run_plumb -c interp.conf -o cyc.plumb >out 2>err &&
	manifest cyc.plumb cyc &&
	test_json cyc/manifest.json "j[\"benches\"][0][\"metric\"] == \"cachesim\" and j[\"benches\"][0][\"verdict\"] == \"unswept\"" &&
	test_grep "metric cycles: bench.interp.counter = valgrind; counted under valgrind as cachesim" out &&
	test_grep_not "	cycles	" cyc/samples.tsv
'

# The benchmark consumes what its prepare makes: every run, counted ones
# included, needs a prepare just before it, or it fails.
test_expect_success VALGRIND 'bench.NAME.prepare runs before every Valgrind-counted run too, untimed' '
	set_bench "test -f token && rm token && exec \"\$PLUMB_ARTIFACT\" 3000" vg-instructions valgrind &&
	git config -f interp.conf bench.interp.prepare "touch token" &&
	rm -f token &&
	run_plumb -c interp.conf -o prep.plumb >out 2>err &&
	git config -f interp.conf --unset bench.interp.prepare &&
	manifest prep.plumb prep &&
	awk -F "\t" "\$6 == \"vg-instructions\"" prep/samples.tsv >prep-vg &&
	test "$(wc -l <prep-vg)" -gt 0 &&
	awk -F "\t" "\$6 == \"wall\"" prep/samples.tsv >prep-wall &&
	n=$(( $(wc -l <prep-vg) + $(wc -l <prep-wall) )) &&
	test_json prep/manifest.json "any(\"prepare ran before each of its $n runs\" in x for x in j[\"benches\"][0][\"notes\"])" &&
	! test -e token
'

test_expect_success 'without valgrind in PATH the metric is refused before building, exit 3, naming the package' '
	mkdir empty-bin &&
	(PATH="$TRASH/empty-bin" && export PATH &&
	 test_expect_code 3 "$PLUMB" run -c interp.conf --workdir "$TRASH/wd" -o none.plumb 2>err) &&
	test_grep "needs valgrind, which is not in PATH; install the Debian package valgrind" err &&
	! test -e none.plumb
'

test_expect_success 'bench.NAME.counter = hardware refuses a simulated metric' '
	git config -f interp.conf bench.interp.metric vg-instructions &&
	git config -f interp.conf bench.interp.counter hardware &&
	test_expect_code 3 run_plumb -c interp.conf -o none.plumb 2>err &&
	test_grep "bench.interp.metric: .vg-instructions. is counted under valgrind, but bench.interp.counter is hardware" err
'

test_done
