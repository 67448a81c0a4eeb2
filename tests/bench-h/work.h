/*
 * tests/bench-h/work.h: the program behind bench-h-c and bench-h-cxx, the
 * tests of include/plumb/bench.h compiled as C and as C++.
 *
 *     bench-h-{c,cxx} WARMUP ITERS WORK            run WARMUP + ITERS iterations
 *                                                  through plumb/bench.h
 *     bench-h-{c,cxx} --expect WARMUP ITERS WORK   print the checksum those
 *                                                  iterations must give,
 *                                                  computed without the header
 *
 * Each iteration is WORK rounds of xorshift64 seeded by the iteration index,
 * so a deleted loop body or a wrong fold shows up as a wrong checksum.
 * Included once by each of the two .c/.cc files; not a library header.
 */
#ifndef PLUMB_TESTS_BENCH_H_WORK_H
#define PLUMB_TESTS_BENCH_H_WORK_H

#include <plumb/bench.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#define WORK_U64(v) static_cast<uint64_t>(v)
#define WORK_ULL(v) static_cast<unsigned long long>(v)
#else
#define WORK_U64(v) ((uint64_t)(v))
#define WORK_ULL(v) ((unsigned long long)(v))
#endif

/* WORK rounds of xorshift64 from a seed that depends on the index. */
static uint64_t work_step(uint64_t index, uint64_t rounds)
{
	uint64_t x = index * 0x9e3779b97f4a7c15ULL + 1;
	uint64_t r;

	for (r = 0; r < rounds; r++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

/* The documented fold, written out here rather than taken from the header. */
static uint64_t work_expected(uint64_t warmup, uint64_t iters, uint64_t rounds)
{
	uint64_t c = 0xcbf29ce484222325ULL;
	uint64_t i;

	for (i = 0; i < warmup + iters; i++) {
		c ^= work_step(i, rounds);
		c *= 0x100000001b3ULL;
	}
	return c;
}

static int work_parse(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoull(s, &end, 10);
	if (*end != '\0')
		return -1;
	*out = WORK_U64(v);
	return 0;
}

int main(int argc, char **argv)
{
	struct plumb_bench b;
	uint64_t warmup, iters, rounds;
	int expect = 0;

	if (argc > 1 && strcmp(argv[1], "--expect") == 0) {
		expect = 1;
		argc--;
		argv++;
	}
	if (argc != 4 || work_parse(argv[1], &warmup) != 0 ||
	    work_parse(argv[2], &iters) != 0 || work_parse(argv[3], &rounds) != 0) {
		fputs("usage: bench-h [--expect] WARMUP ITERS WORK\n", stderr);
		return 2;
	}
	if (expect) {
		printf("checksum=%016llx\n", WORK_ULL(work_expected(warmup, iters, rounds)));
		return 0;
	}
	if (plumb_bench_init(&b, WORK_NAME, warmup, iters) != 0)
		return 1;
	while (plumb_bench_next(&b))
		plumb_bench_sink(&b, work_step(plumb_bench_index(&b), rounds));
	return plumb_bench_finish(&b) == 0 ? 0 : 1;
}

#endif
