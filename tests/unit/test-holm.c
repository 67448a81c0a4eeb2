/*
 * tests/unit/test-holm.c: Holm's step-down adjustment (stats/holm.h), the
 * family-wise rule of --fail-on over many benchmarks, on p-values worked
 * out by hand.
 */
#include <math.h>
#include <stdlib.h>

#include "tests/unit/unit.h"
#include "stats/holm.h"
#include "stats/shift.h"
#include "common/banned.h"

/*
 * Three benchmarks, p 0.001, 0.004, 0.03, alpha 0.01 (99% confidence).
 * Sorted, each p times the benchmarks not yet passed, kept from falling:
 *   0.001 x 3 = 0.003           <= 0.01: trips the gate
 *   0.004 x 2 = 0.008, max 0.008 <= 0.01: trips the gate
 *   0.03  x 1 = 0.03,  max 0.03  >  0.01: held back
 * Unadjusted, all three but the last would be below 1%; with 0.004 among
 * 40 benchmarks (x 39 at its place or more) it would be held back too.
 */
PLUMB_TEST(holm_adjusts_three_benchmarks_as_by_hand)
{
	double p[3] = { 0.03, 0.001, 0.004 }, adj[3];

	assert_int_equal(stats_holm(p, 3, adj), 0);
	assert_true(fabs(adj[0] - 0.03) < 1e-15);
	assert_true(fabs(adj[1] - 0.003) < 1e-15);
	assert_true(fabs(adj[2] - 0.008) < 1e-15);
	assert_true(adj[1] <= 0.01 && adj[2] <= 0.01 && adj[0] > 0.01);
	/* The input is untouched; adjusting in place gives the same. */
	assert_true(p[0] == 0.03 && p[1] == 0.001 && p[2] == 0.004);
	assert_int_equal(stats_holm(p, 3, p), 0);
	assert_true(fabs(p[1] - 0.003) < 1e-15 && fabs(p[2] - 0.008) < 1e-15 && p[0] == 0.03);
}

/*
 * Step-down means monotone: a larger p never gets a smaller adjusted p
 * (0.012 x 4 = 0.048 would fall below 0.011 x 5 = 0.055, so it is kept
 * at 0.055); products are capped at 1; one p is its own adjustment; ties
 * take the same.
 */
PLUMB_TEST(holm_is_monotone_capped_and_exact_for_one)
{
	double p[5] = { 0.011, 0.012, 0.02, 0.05, 0.9 }, adj[5];
	double one = 0.004, ties[3] = { 0.002, 0.002, 0.002 };

	assert_int_equal(stats_holm(p, 5, adj), 0);
	assert_true(fabs(adj[0] - 0.055) < 1e-15);   /* 0.011 x 5 */
	assert_true(fabs(adj[1] - 0.055) < 1e-15);   /* 0.012 x 4 = 0.048, kept at 0.055 */
	assert_true(fabs(adj[2] - 0.06) < 1e-15);    /* 0.02 x 3 */
	assert_true(fabs(adj[3] - 0.1) < 1e-15);     /* 0.05 x 2 */
	assert_true(adj[4] == 0.9);
	for (int i = 1; i < 5; i++)
		assert_true(adj[i] >= adj[i - 1]);
	p[0] = 0.5;
	assert_int_equal(stats_holm(p, 5, adj), 0);
	assert_true(adj[0] == 1);                    /* 0.5, fourth: x 2, capped */
	assert_int_equal(stats_holm(&one, 1, &one), 0);
	assert_true(one == 0.004);
	assert_int_equal(stats_holm(ties, 3, ties), 0);
	assert_true(fabs(ties[0] - 0.006) < 1e-15 && ties[1] == ties[0] && ties[2] == ties[0]);
	assert_int_equal(stats_holm(NULL, 0, NULL), 0);
}

/* The fewest pads a side that can reach a confidence: 2 / C(2k, k). */
PLUMB_TEST(holm_pads_needed_for_a_confidence)
{
	assert_int_equal(stats_shift_pads_needed(0.95), 4);    /* 2/70 = 0.029 */
	assert_int_equal(stats_shift_pads_needed(0.99), 5);    /* 2/252 = 0.0079 */
	assert_int_equal(stats_shift_pads_needed(0.999), 7);   /* 2/3432 = 0.00058 */
	assert_int_equal(stats_shift_pads_needed(0.5), 2);     /* 2/6 = 0.33 */
}
