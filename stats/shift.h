/*
 * stats/shift.h: the two-sample comparison of the shift rule (rule.h,
 * docs/verdict.md): the exact two-sided Mann-Whitney test of one sample
 * against another, the Hodges-Lehmann shift between them and its exact
 * distribution-free interval.
 *
 * The samples are pad medians: each pad is one draw of where the code
 * lands, so each side's pads are a sample of its placement distribution,
 * and the test asks whether the candidate's distribution is the base's
 * shifted.
 *
 *   U        the pairs (base i, candidate j) with candidate above, plus
 *            half the tied pairs; computed and counted as 2U (an integer).
 *   p        exact: under no change every assignment of the m + n values
 *            to the two sides is equally likely, ties included (the
 *            permutation distribution of 2U given the tie groups, by
 *            dynamic programming over the groups); two-sided,
 *            P(|2U - mn| >= |observed - mn|).
 *   shift    the Hodges-Lehmann estimate: the median of the m n
 *            differences log(candidate j) - log(base i), returned as a
 *            relative change exp(.) - 1 (when every value is positive;
 *            otherwise the differences divided by the base median,
 *            unchanged).
 *   interval [d(k), d(mn + 1 - k)] of the sorted differences, k the
 *            largest with P(U < k) <= (1 - confidence) / 2 under the
 *            distribution without ties (Moses); its exact coverage is
 *            1 - 2 P(U < k).  When even k = 1 falls short, the pads cannot
 *            reach the confidence (4 + 4 pads: 1 - 2/70, about 97%): the
 *            interval is [d(1), d(mn)] at that coverage and `reaches` is 0.
 *
 * Strata (shift v4): when the pads were measured in batches (the adaptive
 * sweep's extensions, each in rounds of its own), a pad is compared only
 * with the other side's pads of its own batch, so that a host whose speed
 * changed between batches moves both sides of each comparison alike:
 *
 *   W        the sum of the strata's U (the stratified Mann-Whitney test);
 *   p        exact: the strata are independent under no change, so the
 *            distribution of 2W is the convolution of the strata's
 *            permutation distributions of 2U;
 *   shift    the median of the differences within the strata (N of them,
 *            N the sum of m_s n_s);
 *   interval [d(k), d(N + 1 - k)] of those differences, k the largest with
 *            P(W < k) <= (1 - confidence) / 2 under the convolution
 *            without ties (the same inversion as Moses': W drops by one at
 *            each within-stratum difference).
 *
 * One stratum is the plain two-sample test above, to the bit.
 *
 * Exact up to SHIFT_EXACT_MAX cells of the distribution ((smaller side +
 * 1) x (2mn + 1): 128 + 128 pads); beyond, the normal approximation with
 * the tie correction and a continuity correction (`exact` is then 0).
 *
 * Ownership: inputs are only read; every function allocates its scratch
 * and frees it before it returns.
 */
#ifndef PLUMB_STATS_SHIFT_H
#define PLUMB_STATS_SHIFT_H

#include <stddef.h>

#define SHIFT_EXACT_MAX (1u << 23)

struct stats_shift {
	double estimate;     /* relative shift, candidate against base */
	double lo, hi;       /* its interval, relative */
	double level;        /* the interval's coverage */
	int reaches;         /* level >= the confidence asked for */
	double p;            /* two-sided p of no change */
	double p_min;        /* the smallest p these sample sizes and ties allow */
	double u;            /* the Mann-Whitney U of the candidate (ties count 1/2) */
	int log_scale;       /* 1: differences of logarithms (every value > 0) */
	int exact;           /* 1: the exact distributions; 0: normal approximation */
};

/* The strata: stratum s holds m[s] base and c[s] candidate values, in order. */
struct stats_strata {
	const size_t *m, *c;
	size_t n;            /* >= 1, each m[s], c[s] >= 1 */
};

/*
 * Compare cand[0..n) against base[0..m) (m, n >= 1, no NaN) at the given
 * confidence (0.5 <= confidence < 1).  Returns 0, or -1 when memory runs
 * out (errno ENOMEM).
 */
int stats_shift(const double *base, size_t m, const double *cand, size_t n, double confidence,
		struct stats_shift *out);

/* The same within strata: base and cand hold each stratum's values in turn. */
int stats_shift_strata(const double *base, const double *cand, const struct stats_strata *st,
		       double confidence, struct stats_shift *out);

/*
 * The permutation distribution of 2U for these two samples' tie groups:
 * counts[u2] for u2 in 0..2mn (the caller's array of 2mn + 1 doubles) is
 * the number of assignments of the pooled values to the sides (m to the
 * first) whose 2U is u2; they add up to C(m + n, m).  *u2 is the observed
 * 2U.  -1 when memory runs out or the distribution is larger than
 * SHIFT_EXACT_MAX cells (errno ENOMEM or E2BIG).
 */
int stats_ranksum_counts(const double *x, size_t m, const double *y, size_t n, double *counts,
			 double *u2);

/*
 * The fewest pads a side (the same on both, no ties) whose smallest
 * two-sided p, 2 / C(2k, k), reaches the confidence: 4 at 95%, 5 at 99%;
 * 0 beyond SHIFT_PADS_NEEDED_MAX.
 */
#define SHIFT_PADS_NEEDED_MAX 64
size_t stats_shift_pads_needed(double confidence);

#endif
