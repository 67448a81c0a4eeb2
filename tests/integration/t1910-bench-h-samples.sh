#!/bin/sh
test_description='plumb/bench.h: samples on PLUMB_SAMPLES_FD, the summary outside plumb, the checksum oracle, C and C++'
. "$(dirname "$0")/test-lib.sh"

: "${TEST_CC:=cc}"
: "${TEST_CXX:=c++}"
BENCH_C="$TEST_BUILDDIR/tests/bench-h/bench-h-c"
BENCH_CXX="$TEST_BUILDDIR/tests/bench-h/bench-h-cxx"
INCLUDE="$TEST_SRCDIR/include"

# check_samples FILE N: N positive integers, one a line, then checksum=<16 hex>.
check_samples() {
	test "$(wc -l <"$1")" = $(($2 + 1)) &&
	test "$(head -n "$2" "$1" | grep -c "^[1-9][0-9]*\$")" = "$2" &&
	tail -n 1 "$1" | grep "^checksum=[0-9a-f]\{16\}\$" >/dev/null
}

for lang in c cxx; do
	eval "prog=\$BENCH_$(echo $lang | tr a-z A-Z)"

	test_expect_success "$lang: one sample per timed iteration on the samples fd (a file)" '
		PLUMB_SAMPLES_FD=3 "$prog" 5 200 50 3>samples-$lang >stdout &&
		check_samples samples-$lang 200 &&
		! test -s stdout
	'

	test_expect_success "$lang: the samples go through a pipe too" '
		{ PLUMB_SAMPLES_FD=3 "$prog" 5 200 50 3>&1 >/dev/null; } | cat >piped-$lang &&
		check_samples piped-$lang 200
	'

	test_expect_success "$lang: more samples than the 4 KiB buffer holds" '
		PLUMB_SAMPLES_FD=3 "$prog" 0 5000 20 3>many-$lang &&
		check_samples many-$lang 5000
	'

	test_expect_success "$lang: the checksum is the same in two runs and matches the reference" '
		PLUMB_SAMPLES_FD=3 "$prog" 5 200 50 3>again-$lang &&
		tail -n 1 samples-$lang >sum1 &&
		tail -n 1 again-$lang >sum2 &&
		test_cmp sum1 sum2 &&
		"$prog" --expect 5 200 50 >expect &&
		test_cmp expect sum1 &&
		"$prog" --expect 6 200 50 >other &&
		! test_cmp other sum1
	'

	test_expect_success "$lang: outside plumb, a min/median/p99/max summary and the checksum on stdout" '
		env -u PLUMB_SAMPLES_FD "$prog" 5 200 50 >out &&
		test "$(wc -l <out)" = 2 &&
		sed -n 1p out >line &&
		test_grep "^bench-h-$lang: n=200 min=[0-9]* median=[0-9]* p99=[0-9]* max=[0-9]* (ns per iteration)\$" line &&
		set -- $(sed -e "s/.* n=\([0-9]*\) min=\([0-9]*\) median=\([0-9]*\) p99=\([0-9]*\) max=\([0-9]*\) .*/\1 \2 \3 \4 \5/" line) &&
		test "$1" = 200 && test "$2" -le "$3" && test "$3" -le "$4" && test "$4" -le "$5" &&
		sed -n 2p out >sum &&
		test_cmp expect sum
	'

	test_expect_success "$lang: an empty PLUMB_SAMPLES_FD means outside plumb" '
		PLUMB_SAMPLES_FD= "$prog" 0 10 1 >out &&
		test_grep "^bench-h-$lang: n=10 " out
	'

	test_expect_success "$lang: a PLUMB_SAMPLES_FD that is not a number fails" '
		test_expect_code 1 env PLUMB_SAMPLES_FD=3x "$prog" 0 10 1 2>err &&
		test_grep "plumb-bench: bench-h-$lang: PLUMB_SAMPLES_FD is not a file descriptor number" err
	'

	test_expect_success "$lang: a write error on the samples fd fails and names it" '
		if test -w /dev/full; then
			test_expect_code 1 env PLUMB_SAMPLES_FD=3 "$prog" 0 10 1 3>/dev/full 2>err &&
			test_grep "writing samples to fd 3: No space left on device" err
		fi &&
		test_expect_code 1 env PLUMB_SAMPLES_FD=9 "$prog" 0 10 1 9>&- 2>err &&
		test_grep "writing samples to fd 9: Bad file descriptor" err
	'

	test_expect_success "$lang: zero timed iterations is an error" '
		test_expect_code 1 "$prog" 3 0 1 2>err &&
		test_grep "at least 1" err
	'
done

test_expect_success 'C and C++ builds agree on the checksum' '
	"$BENCH_C" --expect 5 200 50 >c &&
	"$BENCH_CXX" --expect 5 200 50 >cxx &&
	test_cmp c cxx &&
	tail -n 1 samples-c >c &&
	tail -n 1 samples-cxx >cxx &&
	test_cmp c cxx
'

# The header must stay warning-free for its users' strictest settings.
cat >use.c <<'EOS'
#include <plumb/bench.h>
int main(void)
{
	struct plumb_bench b;

	if (plumb_bench_init(&b, "use", 1, 3) != 0)
		return 1;
	while (plumb_bench_next(&b))
		plumb_bench_sink(&b, plumb_bench_opaque_u64(plumb_bench_index(&b)));
	(void)plumb_bench_opaque_ptr(&b);
	return plumb_bench_finish(&b) == 0 ? 0 : 1;
}
EOS
cp use.c use.cc

test_expect_success 'warning-free as C99 (-std=c99 -Wall -Wextra -pedantic)' '
	$TEST_CC -std=c99 -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion -Werror \
		-I"$INCLUDE" -O2 -o use-c99 use.c 2>err &&
	! test -s err &&
	./use-c99 >out && test_grep "^checksum=" out
'

test_expect_success 'warning-free as C++11 (-std=c++11 -Wall -Wextra)' '
	$TEST_CXX -std=c++11 -Wall -Wextra -pedantic -Wshadow -Wold-style-cast -Wzero-as-null-pointer-constant -Wconversion -Werror \
		-I"$INCLUDE" -O2 -o use-cxx11 use.cc 2>err &&
	! test -s err &&
	./use-cxx11 >out && test_grep "^checksum=" out
'

command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1 && test_set_prereq CLANG

test_expect_success CLANG 'warning-free with clang as C99 and C++11' '
	clang -std=c99 -Wall -Wextra -pedantic -Werror -I"$INCLUDE" -O2 -o use-clang use.c 2>err &&
	! test -s err &&
	clang++ -std=c++11 -Wall -Wextra -pedantic -Wold-style-cast -Werror -I"$INCLUDE" -O2 -o use-clangxx use.cc 2>err &&
	! test -s err &&
	./use-clang >a && ./use-clangxx >b &&
	tail -n 1 a >sum-a && tail -n 1 b >sum-b &&
	test_grep "^checksum=" sum-a &&
	test_cmp sum-a sum-b
'

test_expect_success 'strict C99 with a system header first: a clear error, not a silent failure' '
	printf "#include <stdio.h>\n#include <plumb/bench.h>\nint main(void) { return 0; }\n" >late.c &&
	test_must_fail $TEST_CC -std=c99 -I"$INCLUDE" -c -o late.o late.c 2>err &&
	test_grep "include plumb/bench.h first" err &&
	$TEST_CC -std=c99 -D_POSIX_C_SOURCE=200809L -Werror -I"$INCLUDE" -c -o late.o late.c
'

command -v pkg-config >/dev/null 2>&1 && test_set_prereq PKG_CONFIG

test_expect_success PKG_CONFIG 'plumb-bench.pc names the include folder' '
	PKG_CONFIG_PATH="$TEST_BUILDDIR/include" pkg-config --cflags plumb-bench >cflags &&
	test_grep "^-I/.*include" cflags &&
	PKG_CONFIG_PATH="$TEST_BUILDDIR/include" pkg-config --modversion plumb-bench >version &&
	test_grep "^[0-9]" version
'

test_done
