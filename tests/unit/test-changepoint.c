/*
 * tests/unit/test-changepoint.c: stats/changepoint on synthetic nightly
 * series: 200 nights of 4 pads with placement noise of 5% (each pad's
 * median anywhere in a 5% range around the night's level) and two planted
 * steps, of 3% and of 10%, over many seeds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "stats/changepoint.h"
#include "common/banned.h"

struct rng {
	unsigned long long s;
};

static double rng_unit(struct rng *r)   /* [0, 1) */
{
	unsigned long long z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

#define NIGHTS 200
#define PADS 4

/* Night i's level: 1 ms, +3% from night s3, then +10% from night s10. */
static void series(struct cp_night *x, unsigned long long seed, size_t s3, size_t s10,
		   double placement)
{
	struct rng r = { seed };

	for (size_t i = 0; i < NIGHTS; i++) {
		double level = 1e6 * (i >= s3 ? 1.03 : 1.0) * (i >= s10 ? 1.10 : 1.0);
		double pads[PADS];
		/* A little night-to-night drift besides placement. */
		double night = 1 + 0.004 * (rng_unit(&r) - 0.5);
		for (size_t k = 0; k < PADS; k++)
			pads[k] = level * night * (1 + placement * (rng_unit(&r) - 0.5));
		x[i] = cp_night_of(pads, PADS);
	}
}

PLUMB_TEST(changepoint_night_of_pads)
{
	static const double pads[] = { 10, 12, 11, 13 };
	struct cp_night n = cp_night_of(pads, 4), one = cp_night_of(pads, 1);

	assert_true(fabs(n.level - 11.5) < 1e-12);
	/* sample variance 5/3, over 4 pads */
	assert_true(fabs(n.var - 5.0 / 3.0 / 4.0) < 1e-12);
	assert_true(one.level == 10 && isnan(one.var));
}

/* Both planted steps, within two nights, and no other, on every seed. */
PLUMB_TEST(changepoint_two_steps_found_none_else)
{
	struct cp_night x[NIGHTS];
	struct cp_change c[16];
	struct cp_params p;
	size_t n, held = 0;

	cp_params_default(&p);
	for (unsigned long long seed = 1; seed <= 200; seed++) {
		size_t s3 = 50 + seed % 40, s10 = 120 + seed % 50;
		series(x, seed, s3, s10, 0.05);
		assert_int_equal(cp_find(x, NIGHTS, &p, c, 16, &n, NULL), 0);
		if (n != 2)
			fail_msg("seed %llu: %zu change points (planted at %zu and %zu)%s%zu", seed, n,
				 s3, s10, n ? ", first at " : "", n ? c[0].at : 0);
		if (c[0].at + 2 < s3 || c[0].at > s3 + 2 || c[1].at + 2 < s10 || c[1].at > s10 + 2)
			fail_msg("seed %llu: found at %zu and %zu, planted at %zu and %zu", seed,
				 c[0].at, c[1].at, s3, s10);
		held += c[0].lo <= 1.03 && 1.03 <= c[0].hi;
		held += c[1].lo <= 1.10 && 1.10 <= c[1].hi;
		assert_true(c[0].lo < c[0].ratio && c[0].ratio < c[0].hi);
	}
	/* 95% intervals: about 380 of the 400 hold the planted size. */
	if (held < 360)
		fail_msg("%zu of 400 size intervals hold the planted step", held);
}

/* Placement noise alone, however wide, is never a change. */
PLUMB_TEST(changepoint_placement_alone_is_no_change)
{
	struct cp_night x[NIGHTS];
	struct cp_change c[16];
	struct cp_params p;
	size_t n;

	cp_params_default(&p);
	for (unsigned long long seed = 1; seed <= 200; seed++) {
		series(x, seed * 7919, NIGHTS, NIGHTS, seed % 2 ? 0.05 : 0.20);
		assert_int_equal(cp_find(x, NIGHTS, &p, c, 16, &n, NULL), 0);
		if (n)
			fail_msg("seed %llu: a change point at night %zu in a flat series", seed, c[0].at);
	}
}

/* The same step is no change when the nights' own ranges are wider than it. */
PLUMB_TEST(changepoint_a_step_inside_the_ranges_counts_the_ranges)
{
	struct cp_night x[40];
	struct cp_change c[4];
	struct cp_params p;
	size_t n;

	cp_params_default(&p);
	/* Levels that step by 3%, each night a pad spread (variance) of 20% of the level. */
	for (size_t i = 0; i < 40; i++) {
		x[i].level = i < 20 ? 100 : 103;
		x[i].var = NAN;
	}
	assert_int_equal(cp_find(x, 40, &p, c, 4, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].at, 20);
	for (size_t i = 0; i < 40; i++)
		x[i].var = 20.0 * 20.0 / 4;
	assert_int_equal(cp_find(x, 40, &p, c, 4, &n, NULL), 0);
	assert_int_equal(n, 0);
}

/* The latest two nights are enough to see a 10% change begin. */
PLUMB_TEST(changepoint_latest_nights_start_a_change)
{
	struct cp_night x[NIGHTS];
	struct cp_change c[16];
	struct cp_params p;
	size_t n;

	cp_params_default(&p);
	series(x, 42, NIGHTS, 100, 0.05);
	assert_int_equal(cp_find(x, 101, &p, c, 16, &n, NULL), 0);
	assert_int_equal(n, 0);
	assert_int_equal(cp_find(x, 102, &p, c, 16, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].at, 100);
}
