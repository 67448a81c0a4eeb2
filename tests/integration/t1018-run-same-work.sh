#!/bin/sh
test_description='plumb run: identical hot code decides only with the same work shown (instructions, checksum)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

command -v zstd >/dev/null 2>&1 && test_set_prereq ZSTD
if command -v valgrind >/dev/null 2>&1; then
	test_set_prereq VALGRIND
else
	say "valgrind is not installed (Debian package valgrind): the proofs under it skip"
fi

# A project whose hot function run() loops `bound` times, a global of
# data.c.  Branches off main:
#   work    bound 3000000 -> 4000000: run() byte for byte the same, a third
#           more work (the constant it reads changed);
#   moved   an unused function before run() in work.c: run() moves, the
#           same instructions, the same work.
# The metric is the CPU time, which the machine's load barely moves.  Four
# million turns take a few milliseconds, under valgrind about a second.
test_expect_success 'set up a project' '
	mkdir proj &&
	(
		cd proj &&
		git init -q -b main . &&
		printf "%s\n" "CFLAGS = -O2 -g" "bench: main.o work.o data.o" \
			"	\$(CC) \$(LDFLAGS) -o \$@ main.o work.o data.o" >Makefile &&
		cat >main.c <<-\EOF &&
		#include <stdio.h>
		#include <string.h>
		long run(void);
		int main(int argc, char **argv)
		{
			long s = run();
			if (argc > 1 && strcmp(argv[1], "checksum") == 0)
				printf("checksum=%lx\n", (unsigned long)s);
			else
				printf("%ld\n", s);
			return 0;
		}
		EOF
		cat >work.c <<-\EOF &&
		extern long bound;
		__attribute__((noinline)) long step(long s) { return s * 31 + 7; }
		__attribute__((noinline)) long run(void)
		{
			long s = 0;
			for (long i = 0; i < bound; i++)
				s = step(s) ^ i;
			return s;
		}
		EOF
		echo "long bound = 3000000;" >data.c &&
		printf "bench\n*.o\n" >.gitignore &&
		git add -A &&
		git commit -q -m "a loop over a global bound" &&
		git checkout -q -b work main &&
		echo "long bound = 4000000;" >data.c &&
		git commit -q -a -m "a third more turns: the constant only" &&
		git checkout -q -b moved main &&
		sed -e "s/^__attribute__((noinline)) long run(void)/__attribute__((noinline)) long unused(long x) { long t = 0; for (long k = 0; k < x; k++) t += k * k % 7; return t; }\n&/" \
			work.c >work.c.new &&
		mv work.c.new work.c &&
		grep -q "long unused" work.c &&
		git commit -q -a -m "an unused function before run()" &&
		git checkout -q main
	) &&
	cat >plumb.conf <<-\EOF &&
	[repo]
		path = proj
	[run]
		base = main
		candidate = work
		rounds = 3
		warmupRuns = 0
	[build]
		command = make
		artifact = bench
	[bench "b"]
		command = {artifact}
		hot = run
		metric = cpu
	EOF
	git -C proj diff --quiet main work -- work.c main.c
'

test_expect_success PYTHON,VALGRIND 'a constant read by identical hot code: slower, work different (valgrind), exit 1' '
	test_expect_code 1 run_plumb -c plumb.conf --fail-on slower -o w.plumb >out 2>err &&
	manifest w.plumb w &&
	test_json w/manifest.json "j[\"benches\"][0][\"hot\"][\"identical\"] == True" &&
	test_json w/manifest.json "j[\"benches\"][0][\"verdict\"] == \"slower\" and j[\"benches\"][0][\"work\"] == \"different\"" &&
	test_json w/manifest.json "any(n.startswith(\"different work: \") and \"counted under valgrind, one run of pad 0 of each side\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	test_json w/manifest.json "j[\"run\"][\"valgrind\"][\"runs\"] == 2" &&
	test_grep "the same work: b is slower with identical hot code; counting pad 0 of each side under valgrind" err &&
	test_grep "The hot code is identical, but the run showed different work, so the timing decides" out &&
	test_grep "hot code identical (run): a remark; the run showed different work, so the timing decides" out &&
	test_grep_not "the same work was not shown" out &&
	plumb bundle verify w.plumb >/dev/null
'

test_expect_success PYTHON 'a changed checksum is different work: no valgrind run needed' '
	git config -f plumb.conf bench.b.command "{artifact} checksum" &&
	test_expect_code 1 run_plumb -c plumb.conf --fail-on slower -o c.plumb >out 2>err &&
	manifest c.plumb c &&
	test_json c/manifest.json "j[\"benches\"][0][\"verdict\"] == \"slower\" and j[\"benches\"][0][\"work\"] == \"different\"" &&
	test_json c/manifest.json "\"different work: base and candidate printed different checksums\" in j[\"benches\"][0][\"notes\"]" &&
	test_json c/manifest.json "\"valgrind\" not in j[\"run\"]" &&
	test_grep_not "counting pad 0 of each side under valgrind" err &&
	test_grep "The hot code is identical, but the run showed different work, so the timing decides" out &&
	test_grep_not "did not show the same work" out &&
	plumb report c.plumb --format json >c.json &&
	test_json c.json "j[\"benches\"][0][\"work\"] == \"different\"" &&
	git config -f plumb.conf bench.b.command "{artifact}"
'

test_expect_success PYTHON,ZSTD 'the recorded work is what re-analysis judges by: a bundle that lies about it is refused' '
	forge c.plumb c lie.plumb "j[\"benches\"][0][\"work\"] = \"same\"" &&
	test_expect_code 3 plumb bundle verify lie.plumb 2>err &&
	test_grep "benches\[0\].verdict: .slower. recorded, but samples.tsv gives .placement." err
'

for seed in 1 2; do
	test_expect_success PYTHON,VALGRIND "moved code only, seed $seed: never slower or faster" '
		git config -f plumb.conf run.seed '"$seed"' &&
		run_plumb -c plumb.conf --candidate moved --fail-on slower -o m$seed.plumb >out 2>err &&
		manifest m$seed.plumb m$seed &&
		test_json m$seed/manifest.json "j[\"benches\"][0][\"verdict\"] not in (\"slower\", \"faster\")" &&
		test_json m$seed/manifest.json "j[\"benches\"][0].get(\"work\", \"same\") == \"same\""
	'
done
git config -f plumb.conf --unset run.seed

# The same moved code, and a command that sleeps 50 ms after each candidate
# run (its variants run from <run>/v/cNN/): the timing says slower, the
# program did the same work.  Valgrind counts only the artifact, never the
# shell or sleep around it.
test_expect_success PYTHON,VALGRIND 'identical hot code and the same instructions: placement, work same' '
	git config -f plumb.conf bench.b.metric wall &&
	git config -f plumb.conf bench.b.command "{artifact}; case {artifact} in */v/c*) sleep 0.05;; esac" &&
	run_plumb -c plumb.conf --candidate moved --fail-on slower -o s.plumb >out 2>err &&
	manifest s.plumb s &&
	test_json s/manifest.json "j[\"benches\"][0][\"verdict\"] == \"placement\" and j[\"benches\"][0][\"work\"] == \"same\"" &&
	test_json s/manifest.json "j[\"benches\"][0][\"reason\"].startswith(\"hot code identical\")" &&
	test_json s/manifest.json "j[\"run\"][\"sweep\"][\"final\"][0][\"verdict\"] == \"placement\"" &&
	test_json s/manifest.json "j[\"benches\"][0][\"shift\"][\"lo\"] > 0.01" &&
	test_json s/manifest.json "any(__import__(\"re\").match(r\"the same work: [0-9]+ instructions on the base, [0-9]+ on the candidate \((equal|[0-9]+ (more|fewer)), within 0.01%\), \", n) for n in j[\"benches\"][0][\"notes\"])" &&
	plumb report s.plumb --format json >s.json &&
	test_json s.json "j[\"benches\"][0][\"work\"] == \"same\"" &&
	plumb bundle verify s.plumb >/dev/null
'

test_expect_success PYTHON 'without a proof, identity is a remark: the timing decides (slower, exit 1)' '
	git config -f plumb.conf bench.b.metric wall &&
	git config -f plumb.conf bench.b.command "{artifact}; case {artifact} in */v/c*) sleep 0.05;; esac" &&
	git config -f plumb.conf bench.b.counter hardware &&
	test_expect_code 1 run_plumb -c plumb.conf --candidate moved --fail-on slower -o n.plumb >out 2>err &&
	manifest n.plumb n &&
	test_json n/manifest.json "j[\"benches\"][0][\"verdict\"] == \"slower\" and \"work\" not in j[\"benches\"][0]" &&
	test_json n/manifest.json "any(\"the same work was not shown\" in n for n in j[\"benches\"][0][\"notes\"])" &&
	test_grep "The hot code is identical, but the run did not show the same work, so the timing decides" out &&
	test_grep_not "counting pad 0 of each side under valgrind" err &&
	plumb bundle verify n.plumb >/dev/null
'

test_done
