/*
 * runner/schedule.c: splitmix64 and the per-round Fisher-Yates shuffle;
 * see schedule.h for the exact definition (it is part of the record: the
 * same seed must give the same order everywhere).
 */
#include <stddef.h>
#include <stdint.h>

#include "runner/schedule.h"
#include "common/banned.h"

uint64_t schedule_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void schedule_init(struct schedule *s, uint64_t seed, size_t n)
{
	s->state = seed;
	s->n = n;
	s->round = 0;
}

/* Uniform in [0, bound), bound >= 1, without modulo bias. */
static uint64_t below(uint64_t *state, uint64_t bound)
{
	uint64_t threshold = (0 - bound) % bound;   /* 2^64 mod bound */
	uint64_t x;

	do
		x = schedule_splitmix64(state);
	while (x < threshold);
	return x % bound;
}

void schedule_next(struct schedule *s, size_t *perm)
{
	for (size_t i = 0; i < s->n; i++)
		perm[i] = i;
	for (size_t i = s->n; i > 1; i--) {
		size_t j = (size_t)below(&s->state, (uint64_t)i);
		size_t t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
	s->round++;
}
