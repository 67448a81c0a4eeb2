#!/bin/sh
test_description='plumb run: what the harness does per measured run (no stack mapped per child, no facts reread per round)'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

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

# A sanitizer build forks every child (runner/proc.c): the cloned path is
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

test_expect_success STRACE 'round facts: /proc/loadavg is not opened again each round, only read' '
	test "$(count long "^openat\\(.*/proc/loadavg")" -eq "$(count short "^openat\\(.*/proc/loadavg")" &&
	test "$(count long "^pread64\\(")" -gt "$(count short "^pread64\\(")"
'

test_expect_success STRACE,CLONED 'the pid is asked of the kernel a bounded number of times, not per run' '
	test "$(count long "^getpid\\(")" -le "$(($(count short "^getpid\\(") + 80))"
'

test_done
