#!/bin/sh
test_description='plumb run: samples mode through plumb/bench.h'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# A project whose benchmark streams per-iteration samples with bench.h.
test_expect_success 'set up a samples-mode project' '
	mkdir sproj &&
	(
		cd sproj &&
		git init -q -b main . &&
		printf "%s\n" "CFLAGS = -O2 -g" "bench: bench.c" \
			"	\$(CC) \$(CPPFLAGS) \$(CFLAGS) \$(LDFLAGS) -o \$@ bench.c" >Makefile &&
		cat >bench.c <<-\EOF &&
		#include <plumb/bench.h>
		#include <stdint.h>
		__attribute__((noinline)) uint64_t work(uint64_t x)
		{
			for (int i = 0; i < 2000; i++)
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			return x;
		}
		int main(void)
		{
			struct plumb_bench b;
			uint64_t x = 1;
			if (plumb_bench_init(&b, "lcg", 20, 300) != 0)
				return 1;
			while (plumb_bench_next(&b)) {
				x = work(x + plumb_bench_index(&b));
				plumb_bench_sink(&b, x);
			}
			return plumb_bench_finish(&b) == 0 ? 0 : 1;
		}
		EOF
		printf "bench\n" >.gitignore &&
		git add -A && git commit -q -m one && git tag v1 &&
		echo "/* two */" >>bench.c && git commit -q -a -m two
	) &&
	run_conf sproj/plumb.conf \
		"build.command=make CPPFLAGS=-I$TEST_SRCDIR/include" \
		bench.b.mode=samples bench.b.hot=work
'

test_expect_success 'the samples reach plumb: one row per iteration, no summary on stdout' '
	run_plumb -c sproj/plumb.conf -o s.plumb >out 2>err &&
	plumb bundle verify s.plumb >/dev/null &&
	manifest s.plumb s &&
	grep -c "^b	base	0	1	[0-9]*	wall	" s/samples.tsv >n &&
	echo 300 >expect && test_cmp expect n &&
	test_grep "^b	candidate	1	3	299	wall	" s/samples.tsv &&
	test_grep "^b  *wall  " out &&
	test_grep "^b: steady state from sample [0-9]*" out
'

test_expect_success PYTHON 'the manifest has the steady state, p99 and corrected p99' '
	test_json s/manifest.json "(
[b for b in j[\"benches\"] if b[\"mode\"] == \"samples\" and
 b[\"steadyState\"][\"window\"] > 0 and b[\"steadyState\"][\"tolerance\"] > 0 and
 b[\"steadyState\"][\"unsettled\"] >= 0 and
 b[\"sides\"][\"base\"][\"p99\"] >= b[\"sides\"][\"base\"][\"min\"] and
 b[\"sides\"][\"base\"][\"coP99\"] > 0] != [] and
j[\"run\"][\"warmup\"][\"policy\"] == \"auto\"
)"
'

test_expect_success PYTHON 'the checksum bench.h prints is the oracle: the same on both sides' '
	test_json s/manifest.json "(
j[\"benches\"][0][\"checksum\"][\"consistent\"] is True and
len(j[\"benches\"][0][\"checksum\"][\"base\"]) == 16 and
j[\"benches\"][0][\"checksum\"][\"base\"] == j[\"benches\"][0][\"checksum\"][\"candidate\"]
)"
'

test_expect_success 'a fixed warmup drops that many samples of each round' '
	git config -f sproj/plumb.conf bench.b.warmup 100 &&
	run_plumb -c sproj/plumb.conf -o f.plumb >out 2>err &&
	manifest f.plumb f &&
	test_json f/manifest.json "j[\"run\"][\"warmup\"][\"policy\"] == \"100\" and \"steadyState\" not in j[\"benches\"][0]"
'

test_expect_success PYTHON 'two benchmarks with their own warmup: each is recorded, the bundle agrees with itself' '
	cp sproj/plumb.conf sproj/two.conf &&
	git config -f sproj/two.conf bench.c.command "$(git config -f sproj/two.conf bench.b.command)" &&
	git config -f sproj/two.conf bench.c.mode samples &&
	git config -f sproj/two.conf bench.c.warmup none &&
	run_plumb -c sproj/two.conf -o two.plumb >out 2>err &&
	plumb bundle verify two.plumb >/dev/null &&
	manifest two.plumb two &&
	test_json two/manifest.json "j[\"run\"][\"warmup\"][\"policy\"] == \"100\" and [b.get(\"warmup\") for b in j[\"benches\"]] == [None, \"none\"]"
'

test_expect_success 'more samples than bench.maxSamples is a failure (exit 5)' '
	git config -f sproj/plumb.conf bench.b.maxSamples 50 &&
	mkdir m &&
	test_expect_code 5 run_plumb -c sproj/plumb.conf -o m/m.plumb >out 2>err &&
	test_grep "wrote more than maxSamples (50) samples" err &&
	no_bundle m
'

test_done
