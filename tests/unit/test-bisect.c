/*
 * tests/unit/test-bisect.c: the bisect's narrowing (runner/bisect.c),
 * pure: given the verdicts, which range comes next, how many comparisons
 * it takes, and what a recorded benchmark says to it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "formats/bisect.h"
#include "formats/manifest.h"
#include "runner/bisect.h"
#include "stats/rule.h"
#include "common/banned.h"

PLUMB_TEST(bisect_slower_against_good_keeps_the_lower_half)
{
	size_t lo = 0, hi = 128;

	assert_int_equal(bisect_midpoint(lo, hi), 64);
	assert_int_equal(bisect_narrow(&lo, &hi, 64, BISECT_STEP, BISECT_CALL_SLOWER), BISECT_NEXT_NARROWED);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 64);
}

PLUMB_TEST(bisect_placement_against_good_keeps_the_upper_half)
{
	size_t lo = 0, hi = 128;

	assert_int_equal(bisect_narrow(&lo, &hi, 64, BISECT_STEP, BISECT_CALL_SAME), BISECT_NEXT_NARROWED);
	assert_int_equal(lo, 64);
	assert_int_equal(hi, 128);
}

PLUMB_TEST(bisect_undecided_is_measured_against_the_bad_end_then_stops)
{
	size_t lo = 10, hi = 20;

	assert_int_equal(bisect_narrow(&lo, &hi, 15, BISECT_STEP, BISECT_CALL_UNDECIDED), BISECT_NEXT_AGAINST_BAD);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 20);
	/* Against the bad end, slower (the bad end is slower than mid) puts the culprit after mid. */
	assert_int_equal(bisect_narrow(&lo, &hi, 15, BISECT_AGAINST_BAD, BISECT_CALL_SLOWER), BISECT_NEXT_NARROWED);
	assert_int_equal(lo, 15);
	assert_int_equal(hi, 20);
	/* The same as the bad end: at or before mid. */
	lo = 10, hi = 20;
	assert_int_equal(bisect_narrow(&lo, &hi, 15, BISECT_AGAINST_BAD, BISECT_CALL_SAME), BISECT_NEXT_NARROWED);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 15);
	/* Undecided twice: stuck, the range untouched (never a guess). */
	lo = 10, hi = 20;
	assert_int_equal(bisect_narrow(&lo, &hi, 15, BISECT_AGAINST_BAD, BISECT_CALL_UNDECIDED), BISECT_NEXT_STUCK);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 20);
}

/* A simulated history: every culprit position of N commits is found in ceil(log2 N) steps. */
PLUMB_TEST(bisect_finds_every_culprit_within_log2_steps)
{
	static const size_t sizes[] = { 2, 3, 5, 16, 100, 128, 129, 1000 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k], log2n = 0;
		while (((size_t)1 << log2n) < n)
			log2n++;
		for (size_t culprit = 1; culprit <= n; culprit++) {
			size_t lo = 0, hi = n, steps = 0;
			while (hi - lo > 1) {
				size_t mid = bisect_midpoint(lo, hi);
				enum bisect_call c = mid >= culprit ? BISECT_CALL_SLOWER : BISECT_CALL_SAME;
				assert_true(lo < mid && mid < hi);
				assert_int_equal(bisect_narrow(&lo, &hi, mid, BISECT_STEP, c), BISECT_NEXT_NARROWED);
				steps++;
			}
			if (hi != culprit || steps > log2n)
				fail_msg("n %zu culprit %zu: ended at %zu after %zu steps", n, culprit, hi, steps);
		}
	}
}

PLUMB_TEST(bisect_limit_is_log2_plus_two)
{
	struct bisect_record rec;

	bisect_record_init(&rec);
	rec.ncommits = 129;   /* 128 commits after the good end */
	assert_int_equal(bisect_record_limit(&rec), 9);
	rec.ncommits = 2;
	assert_int_equal(bisect_record_limit(&rec), 2);
	rec.ncommits = 17;
	assert_int_equal(bisect_record_limit(&rec), 6);
	rec.ncommits = 0;
}

static void bench_with(struct manifest_bench *mb, enum verdict v, const char *reason, double bmin,
		       double bmax, double cmin, double cmax)
{
	memset(mb, 0, sizeof(*mb));
	mb->verdict = v;
	mb->reason = (char *)reason;
	mb->base.present = mb->candidate.present = 1;
	mb->base.min = bmin, mb->base.max = bmax;
	mb->candidate.min = cmin, mb->candidate.max = cmax;
	mb->hot.identical = MANIFEST_UNKNOWN;
}

PLUMB_TEST(bisect_call_reads_the_recorded_verdict)
{
	struct manifest_bench mb;
	char why[160];

	bench_with(&mb, VERDICT_SLOWER, "ranges apart by more than the noise", 1, 1.1, 1.3, 1.4);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_SLOWER);
	bench_with(&mb, VERDICT_FASTER, "ranges apart by more than the noise", 1.3, 1.4, 1, 1.1);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_SAME);
	/* Overlapping pad medians: placement, decided. */
	bench_with(&mb, VERDICT_PLACEMENT, stats_reason_name(STATS_REASON_OVERLAP), 1, 1.2, 1.1, 1.3);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_SAME);
	/* Pad medians apart, intervals overlapping: the sweep would go on. */
	bench_with(&mb, VERDICT_PLACEMENT, stats_reason_name(STATS_REASON_OVERLAP), 1, 1.1, 1.2, 1.3);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_UNDECIDED);
	assert_string_equal(why, "pad intervals too wide (the pad medians are apart)");
	bench_with(&mb, VERDICT_NOISY, stats_reason_name(STATS_REASON_WITHIN_NOISE), 1, 1.1, 1.2, 1.3);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_UNDECIDED);
	bench_with(&mb, VERDICT_UNSWEPT, stats_reason_name(STATS_REASON_ONE_PAD), 1, 1, 1.2, 1.2);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_UNDECIDED);
	bench_with(&mb, VERDICT_INSUFFICIENT, stats_reason_name(STATS_REASON_FEW_ROUNDS), 1, 1, 1.2, 1.2);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_UNDECIDED);
}

/* Identical hot code is never blamed, whatever the ranges say. */
PLUMB_TEST(bisect_call_identical_hot_code_is_not_slower)
{
	struct manifest_bench mb;
	char why[160];

	bench_with(&mb, VERDICT_PLACEMENT, stats_reason_name(STATS_REASON_HOT_IDENTICAL), 1, 1.1, 1.3, 1.4);
	mb.hot.present = 1;
	mb.hot.identical = 1;
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_SAME);
	assert_string_equal(why, "hot code identical");
	/* The same ranges with changed hot code: undecided only by the margin. */
	mb.hot.identical = 0;
	mb.reason = (char *)stats_reason_name(STATS_REASON_OVERLAP);
	assert_int_equal(bisect_call_of(&mb, why, sizeof(why)), BISECT_CALL_UNDECIDED);
}
