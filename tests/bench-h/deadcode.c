/*
 * tests/bench-h/deadcode.c: the dead-code trap of seed 003, built at -O2 by
 * tests/integration/t1911-bench-h-deadcode.sh.
 *
 *     deadcode ITERS STEPS
 *
 * Each of ITERS timed iterations (after 2 warmup iterations) runs STEPS
 * rounds of xorshift64 seeded by the iteration index.  With -DSINK=1 the
 * result goes to plumb_bench_sink(), so the compiler has to keep the loop;
 * with -DSINK=0 it is dropped, and an optimizing compiler deletes the work,
 * leaving a loop that times nothing.  The test tells them apart by the
 * checksum (against a value computed outside C) and by the time per
 * iteration (STEPS dependent operations cannot take a few nanoseconds).
 */
#include <plumb/bench.h>

#include <stdlib.h>

#ifndef SINK
#define SINK 1
#endif

static uint64_t chain(uint64_t seed, uint64_t steps)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
	uint64_t i;

	for (i = 0; i < steps; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

int main(int argc, char **argv)
{
	struct plumb_bench b;
	uint64_t iters, steps;

	if (argc != 3)
		return 2;
	iters = strtoull(argv[1], NULL, 10);
	steps = strtoull(argv[2], NULL, 10);
	if (plumb_bench_init(&b, SINK ? "sunk" : "discarded", 2, iters) != 0)
		return 1;
	while (plumb_bench_next(&b)) {
#if SINK
		plumb_bench_sink(&b, chain(plumb_bench_index(&b), steps));
#else
		(void)chain(plumb_bench_index(&b), steps);
#endif
	}
	return plumb_bench_finish(&b) == 0 ? 0 : 1;
}
