#!/bin/sh
test_description='plumb run: what the process harness promises, under cgroup2 and under the portable subreaper: a measured time is the benchmark'"'"'s own, nothing is left running, plumb'"'"'s memory and descriptors do not grow with the runs'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"
LEFTOVER=43
. "$TEST_SRCDIR/tests/integration/lib-contain.sh"

# The containments to try: the portable one on every machine, cgroup2
# where this one allows it (PLUMB_CONTAIN=cgroup is an error otherwise).
modes=subreaper
test_have_prereq CGROUP2 && modes="cgroup subreaper"

# nap MS FILE: sleeps MS ms and appends how long it ran by its own clock,
# from main() to just before the append, in ns.
test_expect_success 'set up a project and a benchmark that times itself' '
	make_project proj &&
	cat >nap.c <<-\EOF &&
	#include <stdio.h>
	#include <stdlib.h>
	#include <time.h>
	static long long now(void)
	{
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		return t.tv_sec * 1000000000LL + t.tv_nsec;
	}
	int main(int argc, char **argv)
	{
		long long t0 = now();
		long ms = atol(argv[1]);
		struct timespec d = { ms / 1000, (ms % 1000) * 1000000L };
		FILE *f;
		while (ms > 0 && nanosleep(&d, &d) != 0)
			;
		t0 = now() - t0;
		if (!(f = fopen(argv[2], "a")))
			return 1;
		fprintf(f, "%lld\n", t0);
		return fclose(f) != 0;
	}
	EOF
	${TEST_CC:-cc} -O2 -o nap nap.c
'

# fidelity MODE MS ROUNDS: plumb measures `nap MS` ROUNDS rounds a side
# under MODE; "the shortest run by plumb's clock, by nap's own" in ns into
# fid.MODE.MS.  The shortest, not the medians: a machine busy with other
# work only adds to a run, and every run here waits for nothing but its
# sleep (medians moved by a millisecond and more under a load of 10).
fidelity() {
	rm -rf "self.$1.$2" "fid.$1.$2" fid.plumb fid &&
	write_conf proj/fid.conf run.pads=1 run.control=false run.warmupRuns=0 \
		run.rounds=$3 "bench.b.command=$TRASH/nap $2 $TRASH/self.$1.$2 {artifact}" \
		bench.b.checksum=off &&
	PLUMB_CONTAIN=$1 run_plumb -c proj/fid.conf -o fid.plumb >fid.out 2>fid.err &&
	plumb bundle extract fid.plumb fid >/dev/null &&
	p=$(awk -F"\t" "\$6 == \"wall\" { print \$7 }" fid/samples.tsv | sort -n | head -n 1) &&
	o=$(sort -n "self.$1.$2" | head -n 1) &&
	test "$(wc -l <"self.$1.$2")" -eq $(($3 * 2)) &&
	echo "$p $o" >"fid.$1.$2"
}

# What plumb measures is the process's own time plus what starting a
# program and ending it cost (execve, the loader, exit, plumb's wake-up):
# never less than the process's own clock, and the cost the same whatever
# the process does: a 2 ms and a 40 ms sleep each read as themselves plus
# what an empty run (0 ms) reads beyond its own clock, within 1.5 ms.  What
# plumb does for the child before it executes is not in it: under cgroup2
# the child's join waits for the kernel for 10 to 30 ms when runs are 40
# ms apart, and far less when they follow each other closely.
for mode in $modes; do
	test_expect_success "a 2 ms and a 40 ms sleep measure as themselves ($mode)" '
		fidelity '$mode' 0 20 &&
		fidelity '$mode' 2 20 &&
		fidelity '$mode' 40 20 &&
		read p0 o0 <fid.'$mode'.0 &&
		read p2 o2 <fid.'$mode'.2 &&
		read p40 o40 <fid.'$mode'.40 &&
		echo "plumb - own clock: 0 ms $((p0 - o0)) ns, 2 ms $((p2 - o2)) ns, 40 ms $((p40 - o40)) ns" &&
		test "$o2" -ge 2000000 && test "$o40" -ge 40000000 &&
		test "$p0" -ge "$o0" && test "$p2" -ge "$o2" && test "$p40" -ge "$o40" &&
		test $((p2 - o2)) -le $((p0 - o0 + 1500000)) &&
		test $((p40 - o40)) -le $((p0 - o0 + 1500000))
	'
done

# probe.sh, run as the benchmark: plumb (its parent) has how many open
# descriptors, and how much resident memory, at each run.
test_expect_success 'set up a benchmark that looks at plumb' '
	cat >probe.sh <<-EOF &&
	n=\$(ls /proc/\$PPID/fd | wc -l)
	rss=\$(awk "/^VmRSS:/ { print \\\$2 }" /proc/\$PPID/status)
	echo "\$n \$rss" >>"$TRASH/probe.\$1"
	EOF
	cat probe.sh
'

# 1200 runs (600 rounds of two sides): plumb never holds more descriptors
# than in its first runs (every pipe, pidfd and report closed; a file it
# reads now and then may add one for a moment), and its resident memory
# grew by less than 1 MB (under a kilobyte per run, the results of each
# run included).  Not the memory in an AddressSanitizer build, which holds
# what is freed in quarantine on purpose.
sanitized || test_set_prereq UNSANITIZED
for mode in $modes; do
	test_expect_success "many runs: plumb's descriptors do not grow, its memory is bounded ($mode)" '
		rm -f probe.'$mode' &&
		write_conf proj/many.conf run.pads=1 run.control=false run.warmupRuns=0 \
			run.rounds=600 "bench.b.command=sh $TRASH/probe.sh '$mode' {artifact}" \
			bench.b.checksum=off &&
		PLUMB_CONTAIN='$mode' run_plumb -c proj/many.conf -o many.plumb >out 2>err &&
		test "$(wc -l <probe.'$mode')" -eq 1200 &&
		sed -n 20p probe.'$mode' >first &&
		tail -n 1 probe.'$mode' >last &&
		read fd0 rss0 <first &&
		read fd1 rss1 <last &&
		sed -n "20,120p" probe.'$mode' | cut -d" " -f1 | sort -n | head -n 1 >fd.low &&
		sed -n "20,\$p" probe.'$mode' | cut -d" " -f1 | sort -n | tail -n 1 >fd.high &&
		echo "descriptors $fd0 -> $fd1 (at most $(cat fd.high)), resident $rss0 kB -> $rss1 kB" &&
		test "$(cat fd.high)" -le $(($(cat fd.low) + 2)) &&
		{ ! test_have_prereq UNSANITIZED || test "$rss1" -le $((rss0 + 1024)); }
	'
done

# Each run leaves a process behind; after plumb ends neither those nor
# plumb's watcher (whose command line is plumb's) runs.
for mode in $modes; do
	test_expect_success "nothing plumb started outlives it ($mode)" '
		write_conf proj/left.conf run.pads=1 run.control=false run.warmupRuns=0 run.rounds=5 \
			"bench.b.command=setsid sleep 4301.$MARK >/dev/null 2>&1 & sleep 4302.$MARK & {artifact}" \
			bench.b.checksum=off &&
		PLUMB_CONTAIN='$mode' run_plumb -c proj/left.conf -o left.plumb >out 2>err &&
		test_grep "left 2 processes running; killed" err &&
		leftovers &&
		! pgrep -f -- "--workdir $TRASH/wd " >/dev/null
	'
done

# A benchmark that shrinks its stderr pipe (F_SETPIPE_SZ) does not shrink
# the next run's: each run prints the size it found, then shrinks it.
test_expect_success PYTHON 'a pipe a benchmark resized is not handed to the next run' '
	cat >resize.py <<-\EOF &&
	import fcntl, sys
	sys.stderr.write("size %d\n" % fcntl.fcntl(2, 1032))
	sys.stderr.flush()
	fcntl.fcntl(2, 1031, 4096)
	EOF
	write_conf proj/rs.conf run.pads=1 run.control=false run.warmupRuns=0 \
		run.rounds=3 "bench.b.command=python3 $TRASH/resize.py {artifact}" \
		bench.b.checksum=off &&
	rm -rf rs.plumb rs &&
	run_plumb -c proj/rs.conf -o rs.plumb >/dev/null 2>&1 &&
	plumb bundle extract rs.plumb rs >/dev/null &&
	cat rs/logs/bench-b-*.log >sizes &&
	test "$(grep -c "^size " sizes)" -eq 6 &&
	test "$(grep -c "^size 65536\$" sizes)" -eq 6
'

# 60 rounds of /bin/true take well under a second: the log gets the first
# progress line and the last, not one a round (views/run.c).
test_expect_success 'progress lines are not written per round of a fast benchmark' '
	write_conf proj/t.conf run.pads=1 run.control=false run.warmupRuns=0 \
		run.rounds=60 "bench.b.command=/bin/true {artifact}" bench.b.checksum=off &&
	run_plumb -c proj/t.conf -o t.plumb >/dev/null 2>err &&
	grep "round [0-9]*/60 done" err >rounds &&
	test_grep "round 60/60 done" rounds &&
	test "$(wc -l <rounds)" -lt 10
'

# The harness's unit tests (tests/unit/test-proc.c) under the portable
# containment too; make check runs them under the default one.
test_expect_success 'the harness unit tests pass under PLUMB_CONTAIN=subreaper' '
	PLUMB_CONTAIN=subreaper "$TEST_BUILDDIR/tests/unit/unit" "*proc_*" >unit.out 2>&1 ||
	{ cat unit.out; false; }
'

test_done
