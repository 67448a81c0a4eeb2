/*
 * stats/changepoint.c: the windowed change point test of docs/changes.md
 * on one series of nights.  Separate from the verdict (stats/rule.c): a
 * verdict compares two sides measured in one job; this compares nights
 * measured apart, whose noise is what the series itself shows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/changepoint.h"
#include "stats/quantile.h"
#include "common/banned.h"

void cp_params_default(struct cp_params *p)
{
	p->window = 10;
	p->min_side = 2;
	p->size_window = 30;
	p->z = 5.0;
	p->min_effect = 0.005;
	p->agree = 0.75;
}

struct cp_night cp_night_of(const double *pads, size_t k)
{
	struct cp_night r = { NAN, NAN };
	double sum = 0, ss = 0;

	if (k == 0)
		return r;
	for (size_t i = 0; i < k; i++)
		sum += pads[i];
	r.level = sum / (double)k;
	if (k < 2)
		return r;
	for (size_t i = 0; i < k; i++)
		ss += (pads[i] - r.level) * (pads[i] - r.level);
	r.var = ss / (double)(k - 1) / (double)k;
	return r;
}

/*
 * The variance of one night's level: the larger of the median of the
 * nights' own (placement) variances and the robust variance of the
 * night-to-night differences (MAD * 1.4826, squared, halved: a step adds
 * one outlying difference, which the median ignores).
 */
static double night_variance(const struct cp_night *x, size_t n, double *scratch)
{
	double v_pads = 0, v_diff = 0, mean = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i].var))
			scratch[k++] = x[i].var;
	if (k)
		v_pads = stats_median_inplace(scratch, k);
	if (n >= 3) {
		double med, mad;
		for (size_t i = 1; i < n; i++)
			scratch[i - 1] = x[i].level - x[i - 1].level;
		med = stats_median_inplace(scratch, n - 1);
		for (size_t i = 1; i < n; i++)
			scratch[i - 1] = fabs(x[i].level - x[i - 1].level - med);
		mad = stats_median_inplace(scratch, n - 1) * 1.4826;
		v_diff = mad * mad / 2;
	}
	for (size_t i = 0; i < n; i++)
		mean += fabs(x[i].level) / (double)n;
	if (v_pads < v_diff)
		v_pads = v_diff;
	/* A series of identical nights: any step is a change, sized against a floor. */
	if (!(v_pads > 0))
		v_pads = (1e-9 * mean) * (1e-9 * mean) + 1e-300;
	return v_pads;
}

/* The sum of levels [a, b) from the prefix sums. */
static double span_mean(const double *pre, size_t a, size_t b)
{
	return (pre[b] - pre[a]) / (double)(b - a);
}

/* Whether at least agree of the nights [a, b) lie on the side of mid that sign says. */
static int side_agrees(const struct cp_night *x, size_t a, size_t b, double mid, int above,
		       double agree)
{
	size_t ok = 0;

	for (size_t i = a; i < b; i++)
		ok += above ? x[i].level > mid : x[i].level < mid;
	return (double)ok >= agree * (double)(b - a) - 1e-9;
}

/* The neighbouring bounds of t among the sorted cuts[0..nc) (0 and n implied). */
static void bounds_of(const size_t *cuts, size_t nc, size_t n, size_t t, size_t *a, size_t *b)
{
	*a = 0;
	*b = n;
	for (size_t i = 0; i < nc; i++) {
		if (cuts[i] <= t && cuts[i] > *a)
			*a = cuts[i];
		if (cuts[i] > t && cuts[i] < *b)
			*b = cuts[i];
	}
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

int cp_find(const struct cp_night *x, size_t n, const struct cp_params *p,
	    struct cp_change *out, size_t max, size_t *nout, double *noise)
{
	double *pre = NULL, *scratch = NULL, v;
	size_t *cuts = NULL, nc = 0;

	*nout = 0;
	if (noise)
		*noise = NAN;
	if (n < 2 * p->min_side)
		return 0;
	pre = malloc((n + 1) * sizeof(*pre));
	scratch = malloc(n * sizeof(*scratch));
	cuts = malloc(n * sizeof(*cuts));
	if (!pre || !scratch || !cuts) {
		free(pre);
		free(scratch);
		free(cuts);
		return -1;
	}
	pre[0] = 0;
	for (size_t i = 0; i < n; i++)
		pre[i + 1] = pre[i] + x[i].level;
	v = night_variance(x, n, scratch);
	if (noise)
		*noise = sqrt(v);

	for (;;) {
		double best = 0;
		size_t at = 0;

		for (size_t t = p->min_side; t + p->min_side <= n; t++) {
			size_t a, b, l0, r1;
			double ml, mr, z, mid;
			bounds_of(cuts, nc, n, t, &a, &b);
			if (a == t)
				continue;
			l0 = t - a > p->window ? t - p->window : a;
			r1 = b - t > p->window ? t + p->window : b;
			if (t - l0 < p->min_side || r1 - t < p->min_side)
				continue;
			ml = span_mean(pre, l0, t);
			mr = span_mean(pre, t, r1);
			z = (mr - ml) / sqrt(v * (1.0 / (double)(t - l0) + 1.0 / (double)(r1 - t)));
			if (fabs(z) < p->z || fabs(z) <= best)
				continue;
			if (ml == 0 || fabs(mr - ml) / fabs(ml) < p->min_effect)
				continue;
			mid = (ml + mr) / 2;
			if (!side_agrees(x, l0, t, mid, mr < ml, p->agree) ||
			    !side_agrees(x, t, r1, mid, mr > ml, p->agree))
				continue;
			best = fabs(z);
			at = t;
		}
		if (!at)
			break;
		cuts[nc++] = at;
	}
	qsort(cuts, nc, sizeof(*cuts), cmp_size);

	for (size_t i = 0; i < nc && *nout < max; i++) {
		struct cp_change *c = &out[(*nout)++];
		size_t t = cuts[i], a = i ? cuts[i - 1] : 0, b = i + 1 < nc ? cuts[i + 1] : n;
		size_t l0 = t - a > p->size_window ? t - p->size_window : a;
		size_t r1 = b - t > p->size_window ? t + p->size_window : b;
		double se, zw;

		memset(c, 0, sizeof(*c));
		c->at = t;
		c->n_before = t - l0;
		c->n_after = r1 - t;
		c->before = span_mean(pre, l0, t);
		c->after = span_mean(pre, t, r1);
		se = sqrt(v * (1.0 / (double)c->n_before + 1.0 / (double)c->n_after));
		c->ratio = c->after / c->before;
		c->lo = (c->after - c->before - 1.96 * se) / c->before + 1;
		c->hi = (c->after - c->before + 1.96 * se) / c->before + 1;
		if (c->lo > c->hi) {
			zw = c->lo;
			c->lo = c->hi;
			c->hi = zw;
		}
		/* The test as it found the cut: the windows of the method, not the sizing ones. */
		l0 = t - a > p->window ? t - p->window : a;
		r1 = b - t > p->window ? t + p->window : b;
		c->z = (span_mean(pre, t, r1) - span_mean(pre, l0, t)) /
		       sqrt(v * (1.0 / (double)(t - l0) + 1.0 / (double)(r1 - t)));
	}
	free(pre);
	free(scratch);
	free(cuts);
	return 0;
}
