/*
 * stats/shift.c: the Mann-Whitney test and the Hodges-Lehmann shift of
 * the shift rule; definitions in shift.h.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/quantile.h"
#include "stats/shift.h"
#include "common/banned.h"

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* C(t, j) as a double (t is a tie group's size, small). */
static double choose(size_t t, size_t j)
{
	double c = 1;

	for (size_t i = 1; i <= j; i++)
		c = c * (double)(t - j + i) / (double)i;
	return c;
}

/*
 * counts[0..2mn] of 2U over the groups (sizes t[0..ng), in ascending
 * order of value) when n of the pooled values go to the second sample:
 * placing j of a group of t to the second sample, after k of them and
 * pos - k of the first, adds 2 j (pos - k) + j (t - j), in C(t, j) ways.
 */
static int ranksum_dp(const size_t *t, size_t ng, size_t m, size_t n, double *counts)
{
	size_t w = 2 * m * n + 1, pos = 0;
	double *cur = calloc((n + 1) * w, sizeof(*cur));
	double *nxt = calloc((n + 1) * w, sizeof(*nxt));

	if (!cur || !nxt) {
		free(cur);
		free(nxt);
		errno = ENOMEM;
		return -1;
	}
	cur[0] = 1;
	for (size_t g = 0; g < ng; g++) {
		memset(nxt, 0, (n + 1) * w * sizeof(*nxt));
		for (size_t k = 0; k <= n && k <= pos; k++) {
			size_t before_x = pos - k;
			if (before_x > m)
				continue;
			for (size_t u = 0; u < w; u++) {
				double c = cur[k * w + u];
				if (c == 0)
					continue;
				for (size_t j = 0; j <= t[g] && k + j <= n; j++) {
					if (before_x + (t[g] - j) > m)
						continue;
					size_t add = 2 * j * before_x + j * (t[g] - j);
					nxt[(k + j) * w + u + add] += c * choose(t[g], j);
				}
			}
		}
		pos += t[g];
		double *s = cur;
		cur = nxt;
		nxt = s;
	}
	memcpy(counts, cur + n * w, w * sizeof(*counts));
	free(cur);
	free(nxt);
	return 0;
}

/* The tie groups of the pooled, sorted values: sizes into t, their number. */
static size_t tie_groups(const double *sorted, size_t len, size_t *t)
{
	size_t ng = 0;

	for (size_t i = 0; i < len; ) {
		size_t j = i + 1;
		while (j < len && sorted[j] == sorted[i])
			j++;
		t[ng++] = j - i;
		i = j;
	}
	return ng;
}

/* 2U of y against x: pairs with y above, twice, plus tied pairs once. */
static double observed_u2(const double *x, size_t m, const double *y, size_t n)
{
	double u2 = 0;

	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u2 += y[j] > x[i] ? 2 : y[j] == x[i] ? 1 : 0;
	return u2;
}

static int fits_exact(size_t m, size_t n)
{
	size_t small = m < n ? m : n;

	return (double)(small + 1) * (double)(2 * m * n + 1) <= (double)SHIFT_EXACT_MAX;
}

int stats_ranksum_counts(const double *x, size_t m, const double *y, size_t n, double *counts,
			 double *u2)
{
	size_t len = m + n, ng, w = 2 * m * n + 1;
	double *pool;
	size_t *t;
	int rc;

	if (!fits_exact(m, n)) {
		errno = E2BIG;
		return -1;
	}
	pool = malloc(len * sizeof(*pool));
	t = malloc(len * sizeof(*t));
	if (!pool || !t) {
		free(pool);
		free(t);
		errno = ENOMEM;
		return -1;
	}
	memcpy(pool, x, m * sizeof(*x));
	memcpy(pool + m, y, n * sizeof(*y));
	qsort(pool, len, sizeof(*pool), by_double);
	ng = tie_groups(pool, len, t);
	*u2 = observed_u2(x, m, y, n);
	/* The table runs over the second sample's count: when it is the larger,
	 * count the first sample's 2U instead and mirror it (2U + 2U' = 2mn). */
	if (n <= m) {
		rc = ranksum_dp(t, ng, m, n, counts);
	} else {
		rc = ranksum_dp(t, ng, n, m, counts);
		for (size_t u = 0; rc == 0 && u < w / 2; u++) {
			double s = counts[u];
			counts[u] = counts[w - 1 - u];
			counts[w - 1 - u] = s;
		}
	}
	free(pool);
	free(t);
	return rc;
}

/* P(|2W - N| >= dev) from the counts of 2W (w = 2N + 1 cells). */
static double two_sided(const double *counts, size_t w, double dev)
{
	double tail = 0, total = 0, mn = (double)(w / 2);

	for (size_t u = 0; u < w; u++) {
		total += counts[u];
		if (fabs((double)u - mn) >= dev)
			tail += counts[u];
	}
	return total > 0 ? fmin(1, tail / total) : 1;
}

/* The z with P(Z > z) = q for a standard normal Z (0 < q <= 1/2), by bisection. */
static double z_upper(double q)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (0.5 * erfc(mid / sqrt(2.0)) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The pairs within the strata: N = sum of m_s n_s. */
static size_t pairs_of(const struct stats_strata *st)
{
	size_t mn = 0;

	for (size_t s = 0; s < st->n; s++)
		mn += st->m[s] * st->c[s];
	return mn;
}

/*
 * Exact when every stratum's table fits, the convolution stays small and
 * the counts (the product of the strata's C(m + n, m)) stay far from
 * overflow.
 */
static int fits_exact_strata(const struct stats_strata *st)
{
	double lg = 0;

	for (size_t s = 0; s < st->n; s++) {
		size_t m = st->m[s], n = st->c[s];
		if (!fits_exact(m, n))
			return 0;
		lg += lgamma((double)(m + n + 1)) - lgamma((double)(m + 1)) - lgamma((double)(n + 1));
	}
	return (double)st->n * (double)(2 * pairs_of(st) + 1) <= (double)SHIFT_EXACT_MAX && lg < 600;
}

/* acc[0..*len) convolved with add[0..alen): the counts of a sum of two. */
static void convolve(double *acc, size_t *len, const double *add, size_t alen, double *tmp)
{
	size_t out = *len + alen - 1;

	memset(tmp, 0, out * sizeof(*tmp));
	for (size_t i = 0; i < *len; i++)
		if (acc[i] != 0)
			for (size_t j = 0; j < alen; j++)
				tmp[i + j] += acc[i] * add[j];
	memcpy(acc, tmp, out * sizeof(*acc));
	*len = out;
}

/*
 * p, p_min and k (the interval's rank) with its coverage, by the exact
 * distributions of the sum over the strata (each stratum's permutation
 * distribution, convolved); -1 when memory runs out.
 */
static int exact_figures(const double *base, const double *cand, const struct stats_strata *st,
			 double confidence, struct stats_shift *out, size_t *k)
{
	size_t mn = pairs_of(st), w = 2 * mn + 1, len, maxm = 0;
	double *counts = malloc(w * sizeof(*counts)), *nulls = malloc(w * sizeof(*nulls));
	double *one = malloc(w * sizeof(*one)), *tmp = malloc(w * sizeof(*tmp));
	size_t *ones = NULL;
	double u2 = 0, total = 0, cum = 0, maxdev = 0, half = (1 - confidence) / 2;
	size_t ln;

	for (size_t s = 0; s < st->n; s++)
		maxm = st->m[s] + st->c[s] > maxm ? st->m[s] + st->c[s] : maxm;
	ones = malloc((maxm ? maxm : 1) * sizeof(*ones));
	if (!counts || !nulls || !one || !tmp || !ones)
		goto oom;
	for (size_t i = 0; i < maxm; i++)
		ones[i] = 1;
	counts[0] = nulls[0] = 1;
	len = ln = 1;
	for (size_t s = 0, bi = 0, ci = 0; s < st->n; s++) {
		size_t m = st->m[s], n = st->c[s], ws = 2 * m * n + 1;
		double u2s;
		if (stats_ranksum_counts(base + bi, m, cand + ci, n, one, &u2s) < 0)
			goto fail;
		u2 += u2s;
		convolve(counts, &len, one, ws, tmp);
		/* The interval's distribution: no ties, U = 2U / 2. */
		if (ranksum_dp(ones, m + n, m > n ? m : n, m > n ? n : m, one) < 0)
			goto fail;
		convolve(nulls, &ln, one, ws, tmp);
		bi += m;
		ci += n;
	}
	out->u = u2 / 2;
	out->p = two_sided(counts, w, fabs(u2 - (double)mn));
	for (size_t u = 0; u < w; u++)
		if (counts[u] > 0 && fabs((double)u - (double)mn) > maxdev)
			maxdev = fabs((double)u - (double)mn);
	out->p_min = two_sided(counts, w, maxdev);

	for (size_t u = 0; u < w; u += 2)
		total += nulls[u];
	*k = 0;
	for (size_t u = 0; u < w && (cum + nulls[u]) / total <= half; u += 2) {
		cum += nulls[u];
		*k = u / 2 + 1;       /* P(W < k) = cum / total <= half */
	}
	out->reaches = *k >= 1;
	if (*k == 0) {
		*k = 1;
		cum = nulls[0];
	}
	out->level = 1 - 2 * cum / total;
	free(counts);
	free(nulls);
	free(one);
	free(tmp);
	free(ones);
	return 0;
oom:
	errno = ENOMEM;
fail:
	free(counts);
	free(nulls);
	free(one);
	free(tmp);
	free(ones);
	return -1;
}

/* The same by the normal approximation (tie-corrected variance, summed over the strata). */
static void normal_figures(const double *base, const double *cand, const struct stats_strata *st,
			   double confidence, struct stats_shift *out, size_t *k, double *pool,
			   size_t *t)
{
	double mn = (double)pairs_of(st), var = 0, var0 = 0, u = 0, sd, sd0, z, kk;

	for (size_t s = 0, bi = 0, ci = 0; s < st->n; s++) {
		size_t m = st->m[s], n = st->c[s], ng;
		double smn = (double)m * (double)n, bigN = (double)(m + n), ties = 0;
		memcpy(pool, base + bi, m * sizeof(*base));
		memcpy(pool + m, cand + ci, n * sizeof(*cand));
		qsort(pool, m + n, sizeof(*pool), by_double);
		ng = tie_groups(pool, m + n, t);
		for (size_t g = 0; g < ng; g++)
			ties += (double)t[g] * (double)t[g] * (double)t[g] - (double)t[g];
		u += observed_u2(base + bi, m, cand + ci, n) / 2;
		var0 += smn * (bigN + 1) / 12;
		var += smn / 12 * ((bigN + 1) - ties / (bigN * (bigN - 1)));
		bi += m;
		ci += n;
	}
	out->u = u;
	sd0 = sqrt(var0);
	sd = sqrt(var);
	z = sd > 0 ? fmax(0, fabs(out->u - mn / 2) - 0.5) / sd : 0;
	out->p = erfc(z / sqrt(2.0));
	out->p_min = sd > 0 ? erfc((mn / 2 - 0.5) / sd / sqrt(2.0)) : 1;
	kk = floor(mn / 2 - z_upper((1 - confidence) / 2) * sd0);
	out->reaches = kk >= 1;
	*k = kk >= 1 ? (size_t)kk : 1;
	out->level = 1 - erfc(((mn / 2 - ((double)*k - 0.5))) / sd0 / sqrt(2.0));
}

int stats_shift_strata(const double *base, const double *cand, const struct stats_strata *st,
		       double confidence, struct stats_shift *out)
{
	size_t mn = pairs_of(st), m = 0, n = 0, k = 1, di = 0;
	double *d = NULL;
	size_t *t = NULL;
	double bmed = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	for (size_t s = 0; s < st->n; s++) {
		m += st->m[s];
		n += st->c[s];
	}
	d = malloc((mn + m + n) * sizeof(*d));
	t = malloc((m + n) * sizeof(*t));
	if (!d || !t) {
		errno = ENOMEM;
		goto done;
	}
	out->log_scale = 1;
	for (size_t i = 0; i < m; i++)
		out->log_scale &= base[i] > 0;
	for (size_t j = 0; j < n; j++)
		out->log_scale &= cand[j] > 0;

	out->exact = fits_exact_strata(st);
	if (out->exact) {
		if (exact_figures(base, cand, st, confidence, out, &k) < 0)
			goto done;
	} else {
		normal_figures(base, cand, st, confidence, out, &k, d, t);
	}

	/* The differences within each stratum, candidate minus base, on the scale chosen. */
	if (!out->log_scale)
		bmed = stats_median(base, m, d);
	for (size_t s = 0, bi = 0, ci = 0; s < st->n; s++) {
		for (size_t i = bi; i < bi + st->m[s]; i++)
			for (size_t j = ci; j < ci + st->c[s]; j++)
				d[di++] = out->log_scale ? log(cand[j]) - log(base[i])
							 : (bmed != 0 ? (cand[j] - base[i]) / fabs(bmed)
								      : cand[j] - base[i]);
		bi += st->m[s];
		ci += st->c[s];
	}
	qsort(d, mn, sizeof(*d), by_double);
	out->estimate = mn % 2 ? d[mn / 2] : (d[mn / 2 - 1] + d[mn / 2]) / 2;
	out->lo = d[k - 1];
	out->hi = d[mn - k];
	if (out->log_scale) {
		out->estimate = expm1(out->estimate);
		out->lo = expm1(out->lo);
		out->hi = expm1(out->hi);
	}
	rc = 0;
done:
	free(d);
	free(t);
	return rc;
}

int stats_shift(const double *base, size_t m, const double *cand, size_t n, double confidence,
		struct stats_shift *out)
{
	struct stats_strata one = { &m, &n, 1 };

	return stats_shift_strata(base, cand, &one, confidence, out);
}

size_t stats_shift_pads_needed(double confidence)
{
	double c = 2;   /* C(2k, k), from k = 1 */

	for (size_t k = 1; k <= SHIFT_PADS_NEEDED_MAX; k++) {
		if (2 / c <= 1 - confidence)
			return k;
		c = c * (double)(2 * k + 2) * (double)(2 * k + 1) /
		    ((double)(k + 1) * (double)(k + 1));
	}
	return 0;
}
