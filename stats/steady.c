/*
 * stats/steady.c: the steady-state detector and warmup policies; the
 * rules, and why they differ from seed 001's sketch, are in steady.h.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/quantile.h"
#include "stats/steady.h"
#include "common/banned.h"

const char *stats_steady_status_name(enum stats_steady_status s)
{
	switch (s) {
	case STATS_STEADY_FOUND: return "found";
	case STATS_STEADY_NONE: return "none";
	case STATS_STEADY_TOO_SHORT: return "too-short";
	}
	return "?";
}

/*
 * The relative noise floor of a window-mean difference, from the second
 * half of x (n >= 4); scratch holds n / 2 + 1 doubles.
 */
static double noise_floor(const double *x, size_t n, size_t w, double *scratch)
{
	const double *h = x + n / 2;
	size_t hn = n - n / 2;
	double mu, sigma;

	mu = stats_median(h, hn, scratch);
	if (!(mu > 0) || hn < 3)
		return 0;
	for (size_t i = 0; i + 1 < hn; i++)
		scratch[i] = h[i + 1] - h[i];
	{
		/* MAD of the differences, in place: median, then |d - median|. */
		size_t dn = hn - 1;
		double dmed = stats_median_inplace(scratch, dn);
		for (size_t i = 0; i < dn; i++)
			scratch[i] = fabs(scratch[i] - dmed);
		sigma = 1.4826 * stats_median_inplace(scratch, dn) / sqrt(2.0);
	}
	return STATS_STEADY_NOISE_K * sigma / mu * sqrt(2.0 / (double)w);
}

static double window_sum(const double *x, size_t w)
{
	double s = 0;
	for (size_t i = 0; i < w; i++)
		s += x[i];
	return s;
}

void stats_steady_detect(const double *x, size_t n, size_t window, double tolerance,
			 double *scratch, struct stats_steady *out)
{
	double s1 = 0, s2 = 0, tol;

	assert(window >= 2 && tolerance > 0);
	memset(out, 0, sizeof(*out));
	out->window = window;
	out->tolerance = tolerance;
	out->tolerance_eff = tolerance;
	if (n < 2 * window) {
		out->status = STATS_STEADY_TOO_SHORT;
		return;
	}
	tol = noise_floor(x, n, window, scratch);
	if (tol < tolerance)
		tol = tolerance;
	out->tolerance_eff = tol;
	out->status = STATS_STEADY_NONE;
	for (size_t s = 0; s + 2 * window <= n; s++) {
		double m1, m2;

		/* Slide both sums by one; recompute every window against drift. */
		if (s % window == 0) {
			s1 = window_sum(x + s, window);
			s2 = window_sum(x + s + window, window);
		} else {
			s1 += x[s + window - 1] - x[s - 1];
			s2 += x[s + 2 * window - 1] - x[s + window - 1];
		}
		m1 = s1 / (double)window;
		m2 = s2 / (double)window;
		if (!(m1 > 0))
			continue;   /* as the seed: a zero mean has no relative change */
		if (fabs(m2 - m1) / m1 < tol) {
			out->status = STATS_STEADY_FOUND;
			out->start = s + window;
			return;
		}
	}
}

void stats_warmup_default(struct stats_warmup *w)
{
	w->kind = STATS_WARMUP_AUTO;
	w->discard = 0;
	w->window = STATS_STEADY_WINDOW;
	w->tolerance = STATS_STEADY_TOLERANCE;
}

int stats_warmup_parse(const char *s, struct stats_warmup *w)
{
	size_t v = 0;

	if (strcmp(s, "auto") == 0) {
		w->kind = STATS_WARMUP_AUTO;
		w->discard = 0;
		return 0;
	}
	if (strcmp(s, "none") == 0) {
		w->kind = STATS_WARMUP_NONE;
		w->discard = 0;
		return 0;
	}
	if (!*s || strlen(s) > 10)
		return -1;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (size_t)(*p - '0');
	}
	if (v > 1000000000u)
		return -1;
	w->kind = STATS_WARMUP_FIXED;
	w->discard = v;
	return 0;
}

const char *stats_warmup_kind_name(enum stats_warmup_kind k)
{
	switch (k) {
	case STATS_WARMUP_AUTO: return "auto";
	case STATS_WARMUP_FIXED: return "fixed";
	case STATS_WARMUP_NONE: return "none";
	}
	return "?";
}

void stats_warmup_apply(const struct stats_warmup *w, const double *x, size_t n,
			double *scratch, struct stats_warmup_result *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = w->kind;
	out->detect.status = STATS_STEADY_NONE;
	switch (w->kind) {
	case STATS_WARMUP_NONE:
		out->start = 0;
		out->steady = 1;
		break;
	case STATS_WARMUP_FIXED:
		out->start = w->discard < n ? w->discard : n;
		out->steady = 1;
		break;
	case STATS_WARMUP_AUTO:
		stats_steady_detect(x, n, w->window, w->tolerance, scratch, &out->detect);
		out->steady = out->detect.status == STATS_STEADY_FOUND;
		out->start = out->steady ? out->detect.start : 0;
		break;
	}
	assert(out->start <= n);
}
