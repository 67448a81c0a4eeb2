#!/bin/sh
test_description='plumb run: every variant gets the same environment, sizes, folder, CPU and layout'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

# probe ARTIFACT: appends "variant nvars envbytes stack cwd cpus names..." to probe.out.
test_expect_success 'set up a project and an environment probe' '
	make_project proj &&
	cat >probe.c <<-\EOF &&
	#define _GNU_SOURCE
	#include <sched.h>
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <unistd.h>
	extern char **environ;
	int main(int argc, char **argv)
	{
		volatile int local = 0;
		size_t n = 0, bytes = 0;
		char cwd[4096] = "?";
		const char *v = argc > 1 ? strstr(argv[1], "/v/") : NULL;
		cpu_set_t set;
		FILE *f = fopen("probe.out", "a");
		if (!f || !v)
			return 1;
		if (getenv("PLUMB_SAMPLES_FD"))
			dprintf(atoi(getenv("PLUMB_SAMPLES_FD")), "100\n");
		for (char **e = environ; *e; e++) {
			n++;
			bytes += strlen(*e) + 1;
		}
		if (!getcwd(cwd, sizeof(cwd)))
			return 1;
		CPU_ZERO(&set);
		sched_getaffinity(0, sizeof(set), &set);
		fprintf(f, "%.3s %zu %zu %p %s %d", v + 3, n, bytes, (void *)&local, cwd, CPU_COUNT(&set));
		for (char **e = environ; *e; e++)
			fprintf(f, " %.*s", (int)strcspn(*e, "="), *e);
		fprintf(f, "\n");
		return fclose(f) != 0;
	}
	EOF
	cc -O0 -o probe probe.c &&
	run_conf proj/plumb.conf run.env="PATH HOME TZ LANG" run.aslr=off \
		"bench.b.command=$TRASH/probe {artifact}"
'

test_expect_success 'a run with the probe as the benchmark' '
	rm -f probe.out &&
	LANG=C.UTF-8 SECRET=x run_plumb -c proj/plumb.conf -o p.plumb >out 2>err &&
	test $(wc -l <probe.out) = 15 &&
	cut -d" " -f1 probe.out | sort -u >variants &&
	printf "%s\n" b00 b01 c00 c01 k00 >expect &&
	test_cmp expect variants
'

test_expect_success 'the same variables with the same sizes in every variant (PLUMB_ARTIFACT among them)' '
	cut -d" " -f2,3 probe.out | sort -u >sizes &&
	test $(wc -l <sizes) = 1 &&
	cut -d" " -f7- probe.out | sort -u >names &&
	echo "PATH HOME TZ LANG PLUMB_ARTIFACT" >expect &&
	test_cmp expect names
'

test_expect_success 'the same working folder: the one plumb was started in' '
	cut -d" " -f5 probe.out | sort -u >cwds &&
	pwd >expect &&
	test_cmp expect cwds
'

test_expect_success 'with run.aslr = off the stack is at the same address in every variant' '
	cut -d" " -f4 probe.out | sort -u >stacks &&
	test $(wc -l <stacks) = 1
'

test_expect_success 'run.cpu pins every run to that CPU' '
	cpu=$(python3 -c "import os; print(min(os.sched_getaffinity(0)))") &&
	git config -f proj/plumb.conf run.cpu "$cpu" &&
	rm -f probe.out &&
	run_plumb -c proj/plumb.conf -o q.plumb >out 2>err &&
	cut -d" " -f6 probe.out | sort -u >cpus &&
	echo 1 >expect &&
	test_cmp expect cpus
'

test_expect_success 'samples mode adds PLUMB_SAMPLES_FD, the same in every variant' '
	git config -f proj/plumb.conf bench.b.mode samples &&
	git config -f proj/plumb.conf bench.b.warmup none &&
	rm -f probe.out &&
	LANG=C.UTF-8 run_plumb -c proj/plumb.conf -o s.plumb >out 2>err &&
	cut -d" " -f2,3 probe.out | sort -u >sizes &&
	test $(wc -l <sizes) = 1 &&
	cut -d" " -f7- probe.out | sort -u >names &&
	echo "PATH HOME TZ LANG PLUMB_SAMPLES_FD PLUMB_ARTIFACT" >expect &&
	test_cmp expect names
'

test_done
