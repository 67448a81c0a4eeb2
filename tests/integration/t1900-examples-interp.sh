#!/bin/sh
test_description='examples/interp: builds with a pad object in LDFLAGS, run() moves by K*16, the checksum does not'
. "$(dirname "$0")/test-lib.sh"

: "${TEST_CC:=cc}"

# build_at K: a fresh copy of the example (the source tree may be read-only)
# built at pad K into interp-K/interp.
build_at() {
	rm -rf interp-$1 &&
	cp -R "$TEST_SRCDIR/examples/interp" interp-$1 &&
	chmod -R u+w interp-$1 &&
	make_pad $1 16 &&
	make -C interp-$1 CC="$TEST_CC" LDFLAGS="$PWD/pad$1.o" bench >build-$1.log 2>&1
}

test_expect_success 'the example builds at pads 0, 1 and 3 with the pad object in LDFLAGS' '
	build_at 0 && build_at 1 && build_at 3 &&
	test -x interp-0/interp && test -x interp-1/interp && test -x interp-3/interp &&
	test_grep "pad1.o" build-1.log
'

test_expect_success 'run() moves by exactly K*16 bytes' '
	a0=$(addr interp-0/interp run) &&
	a1=$(addr interp-1/interp run) &&
	a3=$(addr interp-3/interp run) &&
	test "$a0" -gt 0 &&
	test $((a1 - a0)) = 16 &&
	test $((a3 - a0)) = 48
'

# Addresses differ by construction: normalize the instruction addresses,
# absolute branch targets (kept as <symbol+offset>) and the displacement of
# RIP-relative operands (the jump table in .rodata does not move with .text).
test_expect_success 'run() is the same instructions at every pad (only its address moved)' '
	for k in 0 1 3; do
		objdump -d --no-show-raw-insn interp-$k/interp |
		awk "/<run>:/ { on = 1; next } on && /^\$/ { exit } on" |
		sed -e "s/^ *[0-9a-f]*:\t//" \
		    -e "s/[0-9a-f]* <\([^>+]*\)\(+0x[0-9a-f]*\)\{0,1\}>/<\1\2>/" \
		    -e "s/-\{0,1\}0x[0-9a-f]*(%rip)/D(%rip)/" >run-$k.s || return 1
	done &&
	test -s run-0.s &&
	test_cmp run-0.s run-1.s &&
	test_cmp run-0.s run-3.s
'

test_expect_success 'run() dispatches through one shared indirect jump' '
	test "$(grep -c "jmp *\*" run-0.s)" = 1
'

test_expect_success 'it prints its checksum, the same at every pad and in every run' '
	interp-0/interp 100000 >c0 &&
	interp-1/interp 100000 >c1 &&
	interp-3/interp 100000 >c3 &&
	interp-0/interp 100000 >c0again &&
	test_grep "^checksum=[0-9a-f]\{16\}\$" c0 &&
	test "$(wc -l <c0)" = 1 &&
	test_cmp c0 c1 && test_cmp c0 c3 && test_cmp c0 c0again &&
	interp-0/interp 100001 >other &&
	! test_cmp c0 other
'

test_expect_success 'make check knows the checksum' '
	make -C interp-1 CC="$TEST_CC" LDFLAGS="$PWD/pad1.o" check >out 2>&1 &&
	test_grep "interp: ok" out
'

test_expect_success 'a bad argument is a usage error' '
	test_expect_code 2 interp-0/interp 0 2>err &&
	test_grep "usage: interp" err &&
	test_expect_code 2 interp-0/interp 12x 2>err
'

test_done
