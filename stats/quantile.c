/*
 * stats/quantile.c: selection, median, nearest-rank percentiles, MAD.
 *
 * Floyd-Rivest selection, which stays linear on arrays full of equal
 * values (timings at clock resolution are).  Should a pathological input
 * defeat the sampled pivot, a budget of about 2 log2(n) passes ends in a
 * plain sort of what is left.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/quantile.h"
#include "common/banned.h"

static void swap(double *a, double *b)
{
	double t = *a;
	*a = *b;
	*b = t;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

static void insertion_sort(double *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

/*
 * Floyd and Rivest's SELECT (CACM 18(3), 1975, algorithm 489): on a large
 * range it first selects, recursively, within a small sample around where
 * the k-th element should fall, so that the pivot lands close to it and a
 * single partition pass leaves little to do: about n + min(k, n - k)
 * comparisons instead of quickselect's 2n to 3.4n.  The partition moves
 * equal elements to both sides, which keeps it linear on ties.
 */
static void fr_select(double *a, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k,
		      unsigned budget)
{
	while (right > left) {
		ptrdiff_t i, j;
		double t;

		if (budget-- == 0) {
			/* A hostile order defeated the sampling: finish by sorting. */
			qsort(a + left, (size_t)(right - left + 1), sizeof(*a), cmp_double);
			return;
		}
		if (right - left < 16) {
			insertion_sort(a + left, (size_t)(right - left + 1));
			return;
		}
		if (right - left > 600) {
			double n = (double)(right - left + 1);
			double ii = (double)(k - left + 1);
			double z = log(n);
			double s = 0.5 * exp(2 * z / 3);
			double sd = 0.5 * sqrt(z * s * (n - s) / n) * (ii - n / 2 < 0 ? -1 : 1);
			double nl = (double)k - ii * s / n + sd;
			double nr = (double)k + (n - ii) * s / n + sd;
			ptrdiff_t new_left = nl > (double)left ? (ptrdiff_t)nl : left;
			ptrdiff_t new_right = nr < (double)right ? (ptrdiff_t)nr : right;
			fr_select(a, new_left, new_right, k, budget);
		}
		t = a[k];
		i = left;
		j = right;
		swap(&a[left], &a[k]);
		if (a[right] > t)
			swap(&a[right], &a[left]);
		while (i < j) {
			swap(&a[i], &a[j]);
			i++;
			j--;
			while (a[i] < t)
				i++;
			while (a[j] > t)
				j--;
		}
		if (a[left] == t) {
			swap(&a[left], &a[j]);
		} else {
			j++;
			swap(&a[j], &a[right]);
		}
		/* a[left..j) <= t == a[j] <= a(j..right] */
		if (j <= k)
			left = j + 1;
		if (k <= j)
			right = j - 1;
	}
}

double stats_select(double *a, size_t n, size_t k)
{
	unsigned budget = 8;

	assert(n > 0 && k < n);
	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	fr_select(a, 0, (ptrdiff_t)n - 1, (ptrdiff_t)k, budget);
	return a[k];
}

double stats_median_inplace(double *a, size_t n)
{
	double upper, lower;

	assert(n > 0);
	upper = stats_select(a, n, n / 2);
	if (n % 2)
		return upper;
	/* After selection the lower middle is the largest of a[0..n/2). */
	lower = stats_max(a, n / 2);
	return (lower + upper) / 2;
}

double stats_median(const double *a, size_t n, double *scratch)
{
	assert(n > 0 && scratch != a);
	memcpy(scratch, a, n * sizeof(*a));
	return stats_median_inplace(scratch, n);
}

size_t stats_rank(size_t n, double p)
{
	size_t r;

	assert(n > 0 && p >= 0 && p <= 1);
	r = (size_t)floor(p * (double)(n - 1));
	return r < n ? r : n - 1;
}

double stats_percentile_inplace(double *a, size_t n, double p)
{
	return stats_select(a, n, stats_rank(n, p));
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	return sorted[stats_rank(n, p)];
}

double stats_min(const double *a, size_t n)
{
	double m;

	assert(n > 0);
	m = a[0];
	for (size_t i = 1; i < n; i++)
		if (a[i] < m)
			m = a[i];
	return m;
}

double stats_max(const double *a, size_t n)
{
	double m;

	assert(n > 0);
	m = a[0];
	for (size_t i = 1; i < n; i++)
		if (a[i] > m)
			m = a[i];
	return m;
}

double stats_mad(const double *a, size_t n, double *scratch)
{
	double med = stats_median(a, n, scratch);

	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(a[i] - med);
	return stats_median_inplace(scratch, n);
}
