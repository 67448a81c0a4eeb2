#!/bin/sh
test_description='examples/samples: a samples-mode benchmark on plumb/bench.h, built at two pads'
. "$(dirname "$0")/test-lib.sh"

: "${TEST_CC:=cc}"

# build_at K: a copy of the example built at pad K against the source tree's header.
build_at() {
	rm -rf samples-$1 &&
	cp -R "$TEST_SRCDIR/examples/samples" samples-$1 &&
	chmod -R u+w samples-$1 &&
	make_pad $1 16 &&
	make -C samples-$1 CC="$TEST_CC" PLUMB_INCLUDE="$TEST_SRCDIR/include" \
		LDFLAGS="$PWD/pad$1.o" CFLAGS="-O2 -Wall -Wextra -Werror" bench >build-$1.log 2>&1
}

test_expect_success 'the example builds at pads 0 and 1, warning-free, with CFLAGS and LDFLAGS honoured' '
	build_at 0 && build_at 1 &&
	test_grep "pad1.o" build-1.log &&
	test_grep "Werror" build-1.log
'

test_expect_success 'roundtrip() moves by exactly 16 bytes' '
	a0=$(addr samples-0/varint roundtrip) &&
	a1=$(addr samples-1/varint roundtrip) &&
	test "$a0" -gt 0 &&
	test $((a1 - a0)) = 16
'

test_expect_success 'under plumb: one sample per iteration, then the checksum, nothing on stdout' '
	for k in 0 1; do
		PLUMB_SAMPLES_FD=3 samples-$k/varint 300 3>samples-$k.txt >stdout-$k &&
		! test -s stdout-$k &&
		test "$(wc -l <samples-$k.txt)" = 301 &&
		test "$(head -n 300 samples-$k.txt | grep -c "^[1-9][0-9]*\$")" = 300 &&
		tail -n 1 samples-$k.txt >sum-$k &&
		test_grep "^checksum=[0-9a-f]\{16\}\$" sum-$k || return 1
	done
'

test_expect_success 'the checksum is the same at both pads and in a second run' '
	test_cmp sum-0 sum-1 &&
	PLUMB_SAMPLES_FD=3 samples-0/varint 300 3>again.txt &&
	tail -n 1 again.txt >sum-again &&
	test_cmp sum-0 sum-again &&
	PLUMB_SAMPLES_FD=3 samples-0/varint 301 3>other.txt &&
	tail -n 1 other.txt >sum-other &&
	! test_cmp sum-0 sum-other
'

test_expect_success 'by hand: the summary and the checksum; make check knows the checksum' '
	env -u PLUMB_SAMPLES_FD samples-1/varint 300 >out &&
	test_grep "^varint: n=300 min=[0-9]* median=[0-9]* p99=[0-9]* max=[0-9]* (ns per iteration)\$" out &&
	tail -n 1 out >sum &&
	test_cmp sum-0 sum &&
	make -C samples-1 CC="$TEST_CC" PLUMB_INCLUDE="$TEST_SRCDIR/include" LDFLAGS="$PWD/pad1.o" check >out 2>&1 &&
	test_grep "varint: ok" out
'

test_expect_success 'a bad argument is a usage error' '
	test_expect_code 2 samples-0/varint 0 2>err &&
	test_grep "usage: varint" err
'

test_done
