#!/bin/sh
test_description='plumb/bench.h: the sink keeps an -O2 benchmark loop alive (seed 003, the dead-code trap)'
. "$(dirname "$0")/test-lib.sh"

: "${TEST_CC:=cc}"
INCLUDE="$TEST_SRCDIR/include"
SRC="$TEST_SRCDIR/tests/bench-h/deadcode.c"
ITERS=20
STEPS=100000

# field NAME FILE: the value of NAME=<n> in the summary line.
field() {
	sed -n "s/.* $1=\\([0-9]*\\).*/\\1/p" "$2"
}

test_expect_success 'build the benchmark at -O2, with and without the sink' '
	$TEST_CC -std=c99 -O2 -I"$INCLUDE" -DSINK=1 -o sunk "$SRC" &&
	$TEST_CC -std=c99 -O2 -I"$INCLUDE" -DSINK=0 -o discarded "$SRC"
'

test_expect_success PYTHON 'the sunk checksum equals the one computed outside C' '
	python3 - $ITERS $STEPS >expect <<-\EOS &&
	import sys
	iters, steps = int(sys.argv[1]), int(sys.argv[2])
	M = (1 << 64) - 1
	c = 0xcbf29ce484222325
	for i in range(2 + iters):
	    x = (i * 0x9e3779b97f4a7c15 + 1) & M
	    for _ in range(steps):
	        x ^= (x << 13) & M
	        x ^= x >> 7
	        x ^= (x << 17) & M
	    c = ((c ^ x) * 0x100000001b3) & M
	print("checksum=%016x" % c)
	EOS
	env -u PLUMB_SAMPLES_FD ./sunk $ITERS $STEPS >out &&
	sed -n 2p out >actual &&
	test_cmp expect actual
'

# 100000 dependent rounds of three shift-xor pairs cannot run in less than
# 10 us on any CPU (that would be 30 operations per nanosecond); a deleted
# body times two clock reads, tens of nanoseconds.  The bounds are 10x away
# from both, so load on the machine cannot flip them.
test_expect_success 'the sunk loop body runs: every iteration takes at least 10 us' '
	test "$(field min out)" -ge 10000
'

test_expect_success 'the trap is real: without the sink the loop body is deleted' '
	env -u PLUMB_SAMPLES_FD ./discarded $ITERS $STEPS >out &&
	test "$(field median out)" -lt 1000 &&
	test_grep "^checksum=cbf29ce484222325\$" out
'

test_done
