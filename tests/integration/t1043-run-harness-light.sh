#!/bin/sh
test_description='plumb run: what the harness does per measured run (no stack mapped per child, no facts reread per round, only the syscalls the measurement needs)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"
LEFTOVER=13
. "$TEST_SRCDIR/tests/integration/lib-contain.sh"

# The per-run counts below are those of the cgroup2 container (the
# default where plumb can make one); the subreaper's sweep reads /proc.
if test_have_prereq CGROUP2; then
	PLUMB_CONTAIN=cgroup
	export PLUMB_CONTAIN
fi

# plumb's own syscalls (no -f: its process alone) over a run of /bin/true
# with ROUNDS rounds of 2 variants.
trace_run() {
	write_conf proj/t.conf run.pads=1 run.control=false run.warmupRuns=0 \
		run.rounds=$1 "bench.b.command=/bin/true {artifact}" \
		bench.b.checksum=off &&
	rm -f t.plumb &&
	under_strace -qq -o "$2" "$PLUMB" run --workdir "$TRASH/wd" -c proj/t.conf -o t.plumb \
		>/dev/null 2>&1
}

test_expect_success STRACE 'set up a project and trace runs of 20 and 60 rounds' '
	make_project proj &&
	trace_run 20 short &&
	trace_run 60 long &&
	test -f t.plumb
'

# A sanitizer build forks every child (sys/proc.c): the cloned path is
# what these tests look at.
objdump -T "$PLUMB" 2>/dev/null | grep -q __asan_init || test_set_prereq CLONED

# count FILE PATTERN: lines of FILE matching the extended PATTERN.
count() {
	grep -cE "$2" "$1" || true
}

test_expect_success STRACE,CLONED 'the child stack is mapped once, never unmapped per run' '
	test "$(count long "MAP_STACK")" -le 1 &&
	test "$(count long "^munmap\\(.*, 262144\\)")" -eq 0 &&
	test "$(count short clone)" -lt "$(count long clone)"
'

# 80 more runs in the long trace: a call made per run would add 80.
test_expect_success STRACE,CLONED 'no setpgid or fcntl that the cloned child made needless' '
	test "$(count long "^setpgid\\(")" -le "$(($(count short "^setpgid\\(") + 10))" &&
	test "$(count long "^fcntl\\([0-9]+, F_SETFD")" -le "$(($(count short "^fcntl\\([0-9]+, F_SETFD") + 10))"
'

# The load averages change every 5 seconds (the kernel's LOAD_FREQ): the
# sampler reads them at most every quarter second (runner/host.c; the unit
# test host_round_sample_rereads_the_load_at_most_every_quarter_second
# times it), so 60 rounds of /bin/true, well under a second even traced,
# read them a few times, not once a round.
test_expect_success STRACE 'round facts: /proc/loadavg is not opened again each round, nor read each round' '
	test "$(count long "^openat\\(.*/proc/loadavg")" -eq "$(count short "^openat\\(.*/proc/loadavg")" &&
	reads=$(count long "^pread64\\([0-9]+, \"[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+/[0-9]+ [0-9]+") &&
	test "$reads" -ge 1 &&
	test "$reads" -lt 30
'

test_expect_success STRACE,CLONED 'the pid is asked of the kernel a bounded number of times, not per run' '
	test "$(count long "^getpid\\(")" -le "$(($(count short "^getpid\\(") + 80))"
'

# The calls of plumb's own process per measured run, each one the
# measurement needs (sys/proc.c): the two sigprocmasks around the
# clone, the clone, one poll (woken by the child's exit), the read of that
# SIGCHLD from the signalfd, wait4 of the child and one that finds no
# child left (so no read of cgroup.events), one read of the stderr pipe
# (empty: it is kept for the next child) and the check of its size.  9 a
# run: 10 leaves a little room.  The harness with a pidfd per child made
# 10, the one that read cgroup.events per run 11.5, the one that made and
# closed a pipe per run 13, the one that also opened /dev/null, made a
# report pipe and polled twice per run 23.
test_expect_success STRACE,CLONED,CGROUP2 'plumb makes at most 10 syscalls per measured run' '
	echo $(( ($(wc -l <long) - $(wc -l <short)) / 80 )) >per-run &&
	cat per-run &&
	test "$(cat per-run)" -le 10
'

test_expect_success STRACE,CLONED,CGROUP2 'stdin is the /dev/null opened once, not per run' '
	test "$(count long "/dev/null")" -eq "$(count short "/dev/null")"
'

# A cloned child reports a failed exec in shared memory, not a pipe; the
# stderr pipe of a child that left nothing behind is kept for the next.
test_expect_success STRACE,CLONED,CGROUP2 'no pipe made per run' '
	test "$(count long "^pipe2\(")" -le "$(($(count short "^pipe2\(") + 4))"
'

# A benchmark that shrinks its stderr pipe (F_SETPIPE_SZ) must not shrink
# the next run's: such a pipe is not kept.  Each run prints the size it
# found, then shrinks it.
test_expect_success CGROUP2 'a pipe a benchmark resized is not handed to the next run' '
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
	"$PLUMB" run --workdir "$TRASH/wd" -c proj/rs.conf -o rs.plumb >/dev/null 2>&1 &&
	"$PLUMB" bundle extract rs.plumb rs >/dev/null &&
	cat rs/logs/bench-b-*.log >sizes &&
	test "$(grep -c "^size " sizes)" -eq 6 &&
	test "$(grep -c "^size 65536\$" sizes)" -eq 6
'

# plumb blocks SIGCHLD and reads each exit from a signalfd: no pidfd is
# made per child (a file the kernel makes at the clone and tears down at
# its close), nor opened, nor closed; the signalfd is read at least once
# for each child cloned.
test_expect_success STRACE,CLONED,CGROUP2 'no pidfd per run: the exit comes as SIGCHLD through one signalfd' '
	test "$(count long "^signalfd4\\(")" -eq 1 &&
	test "$(count long "CLONE_PIDFD")" -eq "$(count short "CLONE_PIDFD")" &&
	test "$(count long "^pidfd_open\\(")" -eq "$(count short "^pidfd_open\\(")" &&
	sfd=$(sed -n "s/^signalfd4(.* = \\([0-9]*\\)\$/\\1/p" long) &&
	test -n "$sfd" &&
	test "$(count long "^read\\($sfd,")" -ge "$(count long "^clone3?\\(.*CLONE_VM")"
'

# A child that left nothing: plumb, the subreaper of all it started, has
# no child once it reaped it (ECHILD), and asks the container nothing.
test_expect_success STRACE,CLONED,CGROUP2 'one poll per run, no kill and no cgroup.events read when the child left nothing' '
	test "$(count long "^poll\(")" -le "$(($(count short "^poll\(") + 80 + 4))" &&
	test "$(count long "^kill\(")" -le "$(($(count short "^kill\(") + 4))" &&
	test "$(count long "^pread64\(.*populated")" -le "$(($(count short "^pread64\(.*populated") + 4))" &&
	test "$(count long "^wait4\(-1, .* ECHILD")" -ge "$(($(count long "^clone3\(") - 4))"
'

# 60 rounds of /bin/true take well under a second: the log gets the first
# progress line and the last, not one a round (views/run.c).
test_expect_success STRACE 'progress lines are not written per round of a fast benchmark' '
	test "$(count long "^write\(2, ")" -le "$(($(count short "^write\(2, ") + 4))" &&
	test "$(count long "^write\(2, .*done")" -ge 1
'

# The report printed at the end is rendered from the manifest as parsed
# from the bytes written, not from the file read back and verified (which
# judged every benchmark once more).
test_expect_success STRACE 'the bundle written is not read back for the report' '
	test "$(count long "^openat\(.*t\.plumb\", O_RDONLY")" -eq 0 &&
	grep -q "^\(linkat\|rename\).*\"t\.plumb\"" long
'

kv=$(uname -r | sed 's/[^0-9.].*//')
kmajor=${kv%%.*}
kminor=${kv#*.}
kminor=${kminor%%.*}

# clone3 with CLONE_INTO_CGROUP (Linux 5.7, x86_64 here): every cloned
# child is born in plumb's cgroup and never writes cgroup.procs (a move is
# an RCU grace period per run); where clone3 is refused (ENOSYS, as many
# containers' seccomp filters answer), the child joins the old way.
if test "$(uname -m)" = x86_64 &&
   { test "$kmajor" -gt 5 || { test "$kmajor" -eq 5 && test "$kminor" -ge 7; }; }; then
	test_set_prereq CLONE3
fi

# cg_run TRACE [STRACE ARGS]: a 5-round run whose benchmark appends its
# cgroup to cg.seen, traced with -f (children too) into TRACE.
cg_run() {
	out=$1
	shift
	printf '#!/bin/sh\ngrep "^0::" /proc/self/cgroup >>"%s/cg.seen"\n' "$TRASH" >cg.sh &&
	chmod +x cg.sh &&
	write_conf proj/cg.conf run.pads=1 run.control=false run.warmupRuns=0 \
		run.rounds=5 "bench.b.command=$TRASH/cg.sh {artifact}" \
		bench.b.checksum=off &&
	rm -f cg.plumb cg.seen &&
	under_strace -f -qq -o "$out" "$@" "$PLUMB" run --workdir "$TRASH/wd" -c proj/cg.conf -o cg.plumb \
		>/dev/null 2>&1 &&
	test "$(wc -l <cg.seen)" -eq 10 &&
	! grep -v "/plumb\.[0-9]*\.[0-9]*\$" cg.seen
}

# The children's joins: writes of "0" (contain_child_join()), whole or
# interrupted by another process's line (strace -f).
joins() {
	grep -cE '^[0-9]+ +write\([0-9]+, "0", 1(\) += 1| <unfinished)' "$1" || true
}

test_expect_success STRACE,CLONED,CGROUP2,CLONE3 'each measured child is born in the cgroup: no join per run' '
	cg_run born &&
	test "$(grep -c "clone3(.*CLONE_INTO_CGROUP" born)" -ge 10 &&
	! grep -q "clone3.* = -1" born &&
	test "$(joins born)" -eq 0
'

# Setting a containment up tries a child in it once: that child is born
# there too (a join was 10 to 20 ms of grace period per containment, each
# build worker'"'"'s included), and the builds and benchmarks still run.
# (A sanitizer build forks its children, which then join: CLONED.)
test_expect_success STRACE,CLONED,CGROUP2,CLONE3 'a containment is tried with a child born in it, not one that joins' '
	write_conf proj/cg6.conf run.pads=3 run.control=true run.warmupRuns=0 run.rounds=3 \
		bench.b.checksum=off &&
	under_strace -f -qq -o setup "$PLUMB" run --workdir "$TRASH/wd" -c proj/cg6.conf \
		--build-only --no-cache >/dev/null 2>&1 &&
	test "$(grep -c "clone3({flags=CLONE_INTO_CGROUP," setup)" -ge 2 &&
	test "$(joins setup)" -eq 0
'

test_expect_success STRACE,CLONED,CGROUP2 'clone3 refused (ENOSYS): every child joins the cgroup instead' '
	cg_run refused -e inject=clone3:error=ENOSYS &&
	test "$(joins refused)" -ge 10
'

test_done
