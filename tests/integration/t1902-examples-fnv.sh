#!/bin/sh
test_description='examples/fnv: builds with a pad object in LDFLAGS, hash_all() moves, the checksum does not'
. "$(dirname "$0")/test-lib.sh"

: "${TEST_CC:=cc}"

# build_at K: a copy of the example built with K*16 bytes of pad linked first.
build_at() {
	{
		printf '\t.section .text.unlikely.plumb_pad,"ax",@progbits\n'
		test "$1" = 0 || printf '\t.skip %d, 0x90\n' $(($1 * 16))
		printf '\t.section .note.GNU-stack,"",@progbits\n'
	} >pad$1.s &&
	$TEST_CC -c -o pad$1.o pad$1.s &&
	rm -rf fnv-$1 && cp -R "$TEST_SRCDIR/examples/fnv" fnv-$1 && chmod -R u+w fnv-$1 &&
	make -C fnv-$1 CC="$TEST_CC" LDFLAGS="$PWD/pad$1.o" bench >build-$1.log 2>&1
}

addr() {
	printf '%d\n' "0x$(nm "$1" | awk -v s="$2" '$3 == s { print $1 }')"
}

test_expect_success 'the example builds at pads 0 and 2; make check passes' '
	build_at 0 && build_at 2 &&
	make -C fnv-0 CC="$TEST_CC" check >check.log 2>&1 &&
	test_grep "fnv: ok" check.log
'

test_expect_success 'hash_all() moves by 32 bytes at pad 2, the checksum stays' '
	test $(($(addr fnv-2/fnv hash_all) - $(addr fnv-0/fnv hash_all))) = 32 &&
	fnv-0/fnv 3 >a && fnv-2/fnv 3 >b && test_cmp a b &&
	test_grep "^checksum=[0-9a-f]\{16\}$" a
'

test_expect_success 'bad arguments exit 2' '
	test_expect_code 2 fnv-0/fnv 0 2>err && test_grep "usage" err &&
	test_expect_code 2 fnv-0/fnv 1 2
'

test_done
