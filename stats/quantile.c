/*
 * stats/quantile.c: selection, median, nearest-rank percentiles, MAD.
 *
 * Quickselect with a median-of-three pivot and Hoare partitioning, which
 * stays linear on arrays full of equal values (timings at clock
 * resolution are).  Should a pathological input defeat the pivot, a
 * budget of 2 log2(n) rounds ends in a plain sort of what is left.
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

double stats_select(double *a, size_t n, size_t k)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	unsigned budget = 4;

	assert(n > 0 && k < n);
	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	while (hi > lo) {
		ptrdiff_t mid, i, j;
		double pivot;

		if (hi - lo < 16) {
			insertion_sort(a + lo, (size_t)(hi - lo + 1));
			break;
		}
		if (budget-- == 0) {
			qsort(a + lo, (size_t)(hi - lo + 1), sizeof(*a), cmp_double);
			break;
		}
		mid = lo + (hi - lo) / 2;
		if (a[mid] < a[lo])
			swap(&a[mid], &a[lo]);
		if (a[hi] < a[lo])
			swap(&a[hi], &a[lo]);
		if (a[hi] < a[mid])
			swap(&a[hi], &a[mid]);
		pivot = a[mid];
		i = lo;
		j = hi;
		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				swap(&a[i], &a[j]);
				i++;
				j--;
			}
		}
		/* Now a[lo..j] <= pivot, a[i..hi] >= pivot, a(j..i) == pivot. */
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			break;
	}
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
