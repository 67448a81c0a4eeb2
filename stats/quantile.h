/*
 * stats/quantile.h: order statistics of double arrays.
 *
 * The median is Python's statistics.median (the mean of the two middle
 * values for an even count), because the pad reduction of seed 000
 * (pads.py) is defined with it.  Percentiles are nearest-rank without
 * interpolation, sorted[floor(p * (n - 1))], as in seed 003's benchlab.
 * Every function here works by selection (Floyd-Rivest, O(n) expected,
 * O(n log n) at worst), never by sorting the whole array.
 *
 * Ownership: no function allocates.  The *_inplace functions reorder the
 * caller's array; the others take a caller-provided scratch array of at
 * least n doubles and leave the input untouched.  Inputs must not hold NaN.
 */
#ifndef PLUMB_STATS_QUANTILE_H
#define PLUMB_STATS_QUANTILE_H

#include <stddef.h>

/*
 * The k-th smallest of a[0..n) (k < n), found by reordering a so that
 * a[i] <= a[k] for i < k and a[i] >= a[k] for i > k.
 */
double stats_select(double *a, size_t n, size_t k);

/* Median (mean of the two middle values when n is even); n > 0. */
double stats_median_inplace(double *a, size_t n);
double stats_median(const double *a, size_t n, double *scratch);

/* The nearest rank of fraction p (0 <= p <= 1) among n: floor(p * (n - 1)). */
size_t stats_rank(size_t n, double p);

/* Nearest-rank percentile: the stats_rank(n, p)-th smallest; n > 0. */
double stats_percentile_inplace(double *a, size_t n, double p);

/* The same on an array already sorted ascending (no reordering). */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

/* Smallest and largest; n > 0. */
double stats_min(const double *a, size_t n);
double stats_max(const double *a, size_t n);

/*
 * Median absolute deviation: median(|a[i] - median(a)|), unscaled (multiply
 * by 1.4826 for a normal sigma); n > 0.
 */
double stats_mad(const double *a, size_t n, double *scratch);

#endif
