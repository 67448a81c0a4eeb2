/*
 * tests/unit/test-stats.c: stats/ quantiles, steady state, coordinated
 * omission, pad reduction and verdicts, with the seeds' own numbers where
 * they give them (seed 000's /alloc table, seed 003's stall).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "stats/co.h"
#include "stats/quantile.h"
#include "stats/steady.h"
#include "stats/verdict.h"
#include "common/banned.h"

/* A fixed-seed generator, so every run sees the same "random" inputs. */
struct rng {
	unsigned long long s;
};

static unsigned long long rng_next(struct rng *r)
{
	unsigned long long z = (r->s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double rng_unit(struct rng *r)   /* [0, 1) */
{
	return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

static double rng_gauss(struct rng *r)
{
	double u = rng_unit(r), v = rng_unit(r);
	return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The definitions, by sorting: Python's statistics.median and nearest rank. */
static double ref_median(const double *a, size_t n)
{
	double *s = malloc(n * sizeof(*s)), m;
	memcpy(s, a, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_d);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static double ref_percentile(const double *a, size_t n, double p)
{
	double *s = malloc(n * sizeof(*s)), v;
	memcpy(s, a, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_d);
	v = s[(size_t)floor(p * (double)(n - 1))];
	free(s);
	return v;
}

PLUMB_TEST(quantile_median_like_python)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };
	double pads[] = { 1.003, 0.978, 0.974, 0.977 };
	double scratch[8];

	assert_true(stats_median(odd, 3, scratch) == 2);
	assert_true(stats_median(even, 4, scratch) == 2.5);
	assert_true(stats_median(one, 1, scratch) == 7);
	/* statistics.median([1.003, 0.978, 0.974, 0.977]) == 0.9775 */
	assert_true(stats_median(pads, 4, scratch) == (0.977 + 0.978) / 2);
	/* The input is untouched. */
	assert_true(even[0] == 4 && even[3] == 2);
}

PLUMB_TEST(quantile_selection_matches_sorting)
{
	struct rng r = { 42 };
	static const double ps[] = { 0, 0.01, 0.5, 0.9, 0.99, 0.999, 1 };

	for (int t = 0; t < 400; t++) {
		size_t n = 1 + (size_t)(rng_next(&r) % (t < 300 ? 200 : 20000));
		int dups = (int)(rng_next(&r) % 3);
		double *a = malloc(n * sizeof(*a)), *w = malloc(n * sizeof(*w));
		for (size_t i = 0; i < n; i++)
			a[i] = dups == 0 ? rng_unit(&r) * 1000 :
			       dups == 1 ? (double)(rng_next(&r) % 5) : (double)(i % 7 == 0 ? 9 : 3);
		assert_true(stats_median(a, n, w) == ref_median(a, n));
		for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
			memcpy(w, a, n * sizeof(*a));
			assert_true(stats_percentile_inplace(w, n, ps[k]) == ref_percentile(a, n, ps[k]));
		}
		/* stats_select leaves the k-th in place with smaller ones before it. */
		{
			size_t k = (size_t)(rng_next(&r) % n);
			double v;
			memcpy(w, a, n * sizeof(*a));
			v = stats_select(w, n, k);
			assert_true(w[k] == v);
			for (size_t i = 0; i < n; i++)
				assert_true(i < k ? w[i] <= v : w[i] >= v);
		}
		assert_true(stats_min(a, n) == ref_percentile(a, n, 0));
		assert_true(stats_max(a, n) == ref_percentile(a, n, 1));
		free(a);
		free(w);
	}
}

PLUMB_TEST(quantile_nearest_rank_and_mad)
{
	size_t n = 100000;
	double *a = malloc(n * sizeof(*a)), *w = malloc(n * sizeof(*w));
	double b[] = { 1, 2, 3, 4, 100 };

	for (size_t i = 0; i < n; i++)
		a[i] = (double)((i * 7919) % n);   /* a permutation of 0..n-1 */
	assert_int_equal(stats_rank(n, 0.99), 98999);
	memcpy(w, a, n * sizeof(*a));
	assert_true(stats_percentile_inplace(w, n, 0.99) == 98999);
	memcpy(w, a, n * sizeof(*a));
	qsort(w, n, sizeof(*w), cmp_d);
	assert_true(stats_percentile_sorted(w, n, 0.5) == 49999);
	assert_true(stats_median(a, n, w) == 49999.5);
	/* Deviations from 3: 2 1 0 1 97, whose median is 1. */
	assert_true(stats_mad(b, 5, w) == 1);
	free(a);
	free(w);
}

/* --- steady state --- */

PLUMB_TEST(steady_decay_onto_noisy_plateau_found_near_the_knee)
{
	/* 100 + 100 e^(-t/30) + N(0, 2): the transient meets the noise at
	 * t = 30 ln(100 / 2), about 117. */
	const double tau = 30, plateau = 100, amp = 100, sigma = 2;
	const double knee = tau * log(amp / sigma);
	size_t n = 2000;
	double *x = malloc(n * sizeof(*x)), *scratch = malloc((n / 2 + 1) * sizeof(*x));

	for (unsigned long long seed = 1; seed <= 10; seed++) {
		struct rng r = { seed };
		struct stats_steady st;
		for (size_t t = 0; t < n; t++)
			x[t] = plateau + amp * exp(-(double)t / tau) + sigma * rng_gauss(&r);
		stats_steady_detect(x, n, STATS_STEADY_WINDOW, STATS_STEADY_TOLERANCE, scratch, &st);
		assert_int_equal(st.status, STATS_STEADY_FOUND);
		assert_int_equal(st.window, 30);
		assert_true(st.tolerance == STATS_STEADY_TOLERANCE);
		/* The noise floor (3 * 2/100 * sqrt(2/30) = 1.55%) is above the 1% asked. */
		assert_true(st.tolerance_eff > 0.012 && st.tolerance_eff < 0.02);
		if (fabs((double)st.start - knee) > (double)st.window)
			fail_msg("seed %llu: steady at %zu, knee at %.1f", seed, st.start, knee);
	}
	free(x);
	free(scratch);
}

PLUMB_TEST(steady_drift_never_settles)
{
	size_t n = 1000;
	double *x = malloc(n * sizeof(*x)), *scratch = malloc((n / 2 + 1) * sizeof(*x));
	struct rng r = { 7 };
	struct stats_steady st;
	struct stats_warmup w;
	struct stats_warmup_result res;

	/* 0.1% per sample, 3% per window, with 1% noise. */
	for (size_t t = 0; t < n; t++)
		x[t] = 100 * pow(1.001, (double)t) * (1 + 0.01 * rng_gauss(&r));
	stats_steady_detect(x, n, 30, 0.01, scratch, &st);
	assert_int_equal(st.status, STATS_STEADY_NONE);
	/* Differences, not spread, measure the noise: the drift does not
	 * inflate the tolerance. */
	assert_true(st.tolerance_eff < 0.02);
	/* auto keeps the whole series and flags it. */
	stats_warmup_default(&w);
	stats_warmup_apply(&w, x, n, scratch, &res);
	assert_int_equal(res.start, 0);
	assert_int_equal(res.steady, 0);
	assert_int_equal(res.detect.status, STATS_STEADY_NONE);
	free(x);
	free(scratch);
}

PLUMB_TEST(steady_flat_series_from_the_first_window)
{
	size_t n = 1000;
	double *x = malloc(n * sizeof(*x)), *scratch = malloc((n / 2 + 1) * sizeof(*x));

	for (unsigned long long seed = 1; seed <= 10; seed++) {
		struct rng r = { seed };
		struct stats_steady st;
		for (size_t t = 0; t < n; t++)
			x[t] = 100 + 2 * rng_gauss(&r);
		stats_steady_detect(x, n, 30, 0.01, scratch, &st);
		assert_int_equal(st.status, STATS_STEADY_FOUND);
		/* s = 0 is accepted: the first steady index is the second window's start. */
		assert_int_equal(st.start, 30);
	}
	/* A constant series: zero noise, the requested tolerance applies. */
	for (size_t t = 0; t < n; t++)
		x[t] = 42;
	{
		struct stats_steady st;
		stats_steady_detect(x, n, 30, 0.01, scratch, &st);
		assert_int_equal(st.status, STATS_STEADY_FOUND);
		assert_int_equal(st.start, 30);
		assert_true(st.tolerance_eff == 0.01);
	}
	free(x);
	free(scratch);
}

PLUMB_TEST(steady_too_short_and_policies)
{
	double x[60], scratch[31];
	struct stats_steady st;
	struct stats_warmup w;
	struct stats_warmup_result res;

	for (int i = 0; i < 60; i++)
		x[i] = 10 + (i % 2);
	stats_steady_detect(x, 59, 30, 0.01, scratch, &st);
	assert_int_equal(st.status, STATS_STEADY_TOO_SHORT);
	assert_true(st.tolerance_eff == 0.01);
	stats_steady_detect(x, 60, 30, 0.01, scratch, &st);
	assert_int_equal(st.status, STATS_STEADY_FOUND);
	assert_int_equal(st.start, 30);

	stats_warmup_default(&w);
	stats_warmup_apply(&w, x, 59, scratch, &res);
	assert_int_equal(res.start, 0);
	assert_int_equal(res.steady, 0);
	assert_int_equal(res.detect.status, STATS_STEADY_TOO_SHORT);

	assert_int_equal(stats_warmup_parse("none", &w), 0);
	stats_warmup_apply(&w, x, 60, scratch, &res);
	assert_int_equal(res.kind, STATS_WARMUP_NONE);
	assert_int_equal(res.start, 0);   /* cold: the first sample included */
	assert_int_equal(stats_warmup_parse("12", &w), 0);
	stats_warmup_apply(&w, x, 60, scratch, &res);
	assert_int_equal(res.kind, STATS_WARMUP_FIXED);
	assert_int_equal(res.start, 12);
	assert_int_equal(stats_warmup_parse("100", &w), 0);
	stats_warmup_apply(&w, x, 60, scratch, &res);
	assert_int_equal(res.start, 60);  /* nothing left: the caller decides */
	assert_int_equal(stats_warmup_parse("auto", &w), 0);
	assert_int_equal(w.kind, STATS_WARMUP_AUTO);
	assert_int_equal(w.window, 30);
	assert_int_equal(stats_warmup_parse("-1", &w), -1);
	assert_int_equal(stats_warmup_parse("", &w), -1);
	assert_int_equal(stats_warmup_parse("3x", &w), -1);
	assert_int_equal(stats_warmup_parse("99999999999", &w), -1);
}

/* --- coordinated omission --- */

/* Seed 003's shape: 100,000 samples at 42 ns, one 56,595 ns stall. */
PLUMB_TEST(co_seed_example_and_cap)
{
	size_t n = 100000, co_n;
	double *raw = malloc(n * sizeof(*raw)), *w = malloc(n * sizeof(*w)), *out;
	double e, p99, co_p99;
	int capped;

	for (size_t i = 0; i < n; i++)
		raw[i] = 42;
	raw[50000] = 56595;
	e = stats_co_expected(stats_median(raw, n, w));
	assert_true(e == 42);
	memcpy(w, raw, n * sizeof(*raw));
	p99 = stats_percentile_inplace(w, n, 0.99);
	assert_true(p99 == 42);

	/* The stall backfills 56553, 56511, ..., 63: floor(56553 / 42) = 1346. */
	co_n = stats_co_count(raw, n, e, STATS_CO_CAP_DEFAULT, &capped);
	assert_int_equal(co_n, 101346);
	assert_int_equal(capped, 0);
	out = malloc(co_n * sizeof(*out));
	assert_int_equal(stats_co_correct(raw, n, e, STATS_CO_CAP_DEFAULT, out), co_n);
	assert_true(out[50000] == 56595 && out[50001] == 56553 && out[51346] == 63);
	assert_true(out[51347] == 42);
	/* Rank floor(0.99 * 101345) = 100331 = 99999 raw 42s + 332 backfilled:
	 * 63 + 42 * 332. */
	co_p99 = stats_percentile_inplace(out, co_n, 0.99);
	assert_true(co_p99 == 14007);
	free(out);

	/* The cap is checked inside the backfill: the stall stops at 51,000. */
	co_n = stats_co_count(raw, n, e, 51000, &capped);
	assert_int_equal(co_n, 51000);
	assert_int_equal(capped, 1);
	out = malloc(co_n * sizeof(*out));
	assert_int_equal(stats_co_correct(raw, n, e, 51000, out), 51000);
	assert_true(out[50999] == 56595 - 42.0 * 999);
	free(out);

	/* E <= 0 disables the correction. */
	assert_int_equal(stats_co_count(raw, n, 0, STATS_CO_CAP_DEFAULT, NULL), n);
	assert_true(stats_co_expected(0.25) == 1);
	free(raw);
	free(w);
}

/* Latency-like data: noisy base, stalls in under 1% of the samples. */
static void latency_series(struct rng *r, double *x, size_t n, double stall_rate)
{
	double base = 1 + rng_unit(r) * 1000;

	for (size_t i = 0; i < n; i++) {
		double v = floor(base + rng_unit(r) * base * 0.1 - log(1 - rng_unit(r)) * base * 0.05);
		if (rng_unit(r) < stall_rate)
			v = floor(v * (1 + rng_unit(r) * 5000));
		x[i] = v;
	}
}

PLUMB_TEST(co_properties_over_random_inputs)
{
	struct rng r = { 2026 };
	size_t nmax = 4000;
	double *x = malloc(nmax * sizeof(*x)), *w = malloc(nmax * sizeof(*w));

	for (int t = 0; t < 400; t++) {
		size_t n = 1 + (size_t)(rng_next(&r) % nmax), co_n;
		double rate = t % 4 == 3 ? 0.2 : rng_unit(&r) * 0.0099;
		double e, p99, co_p99, *out;
		int capped;

		latency_series(&r, x, n, rate);
		e = stats_co_expected(stats_median(x, n, w));
		memcpy(w, x, n * sizeof(*x));
		p99 = stats_percentile_inplace(w, n, 0.99);
		co_n = stats_co_count(x, n, e, STATS_CO_CAP_DEFAULT, &capped);
		assert_true(co_n >= n);            /* always, with cap >= n */
		out = malloc(co_n * sizeof(*out));
		assert_int_equal(stats_co_correct(x, n, e, STATS_CO_CAP_DEFAULT, out), co_n);
		co_p99 = stats_percentile_inplace(out, co_n, 0.99);
		/* Every corrected sample is a raw one or a backfill >= E. */
		for (size_t i = 0; i < co_n; i++)
			assert_true(out[i] >= 0);
		if (rate < 0.01 && co_p99 < p99)
			fail_msg("case %d (n %zu, stalls %.4f): co_p99 %g < p99 %g", t, n, rate,
				 co_p99, p99);
		free(out);

		/* No sample above E: nothing is added, the output is the input. */
		e = stats_max(x, n) + (double)(rng_next(&r) % 3);
		co_n = stats_co_count(x, n, e, STATS_CO_CAP_DEFAULT, &capped);
		assert_int_equal(co_n, n);
		out = malloc(n * sizeof(*out));
		stats_co_correct(x, n, e, STATS_CO_CAP_DEFAULT, out);
		assert_memory_equal(out, x, n * sizeof(*x));
		free(out);
	}
	free(x);
	free(w);
}

/* co_p99 >= p99 is the seed's check, not a theorem: with more than 1% of
 * the samples stalled near one value, the backfill pulls p99 below it. */
PLUMB_TEST(co_p99_can_fall_below_p99_when_stalls_are_common)
{
	double raw[1000], w[1000], *out;
	size_t co_n;
	double e, p99;

	for (int i = 0; i < 1000; i++)
		raw[i] = i < 980 ? 1 : i < 991 ? 1000 : 1001;
	e = stats_co_expected(stats_median(raw, 1000, w));
	memcpy(w, raw, sizeof(raw));
	p99 = stats_percentile_inplace(w, 1000, 0.99);
	assert_true(p99 == 1000);
	co_n = stats_co_count(raw, 1000, e, STATS_CO_CAP_DEFAULT, NULL);
	assert_int_equal(co_n, 1000 + 11 * 999 + 9 * 1000);
	out = malloc(co_n * sizeof(*out));
	stats_co_correct(raw, 1000, e, STATS_CO_CAP_DEFAULT, out);
	assert_true(stats_percentile_inplace(out, co_n, 0.99) == 990);
	free(out);
}

/* --- pad reduction and verdicts: seed 000's /alloc table at 32 connections --- */

static const double alloc_base[] = { 1.003, 0.978, 0.974, 0.977 };

static void side_of(const double *pads, size_t n, size_t rounds, struct stats_side *s)
{
	double scratch[16];
	stats_side_reduce(pads, n, rounds, scratch, s);
}

PLUMB_TEST(verdict_alloc_table)
{
	struct stats_side base, cand;
	struct stats_verdict_result v;
	struct stats_noise noise;

	side_of(alloc_base, 4, 10, &base);
	assert_true(base.center == (0.977 + 0.978) / 2);
	assert_true(base.min == 0.974 && base.max == 1.003);
	assert_true(fabs(base.spread - (1.003 - 0.974) / 0.9775) < 1e-15);
	assert_int_equal(base.npads, 4);

	/* main, one build at 0.975: inside 0.974..1.003, placement. */
	side_of((const double[]){ 0.975 }, 1, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_PLACEMENT);
	assert_int_equal(v.direction, STATS_DIR_NONE);
	assert_true(v.has_ratio && v.ratio == 0.975 / 0.9775);

	/* One build at 0.950: below the range, but one build is unswept. */
	side_of((const double[]){ 0.950 }, 1, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_UNSWEPT);
	assert_int_equal(v.direction, STATS_DIR_FASTER);
	assert_string_equal(stats_direction_name(v.direction), "faster");

	/* ... and above it. */
	side_of((const double[]){ 1.050 }, 1, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_UNSWEPT);
	assert_int_equal(v.direction, STATS_DIR_SLOWER);

	/* Four pads wholly above: slower; wholly below: faster. */
	side_of((const double[]){ 1.010, 1.030, 1.004, 1.020 }, 4, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_SLOWER);
	assert_string_equal(verdict_name(v.verdict), "slower");
	side_of((const double[]){ 0.950, 0.960, 0.940, 0.973 }, 4, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_FASTER);

	/* Ranges touching at one value overlap: placement, at either end. */
	side_of((const double[]){ 1.003, 1.030, 1.010, 1.020 }, 4, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_PLACEMENT);
	side_of((const double[]){ 0.950, 0.960, 0.940, 0.974 }, 4, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_PLACEMENT);
	side_of((const double[]){ 0.974 }, 1, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_PLACEMENT);

	/* A pad with fewer than 3 rounds: insufficient, whatever the ranges say. */
	side_of((const double[]){ 1.010, 1.030, 1.004, 1.020 }, 4, 2, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_INSUFFICIENT);
	assert_int_equal(v.direction, STATS_DIR_NONE);
	side_of(alloc_base, 4, 2, &base);
	side_of((const double[]){ 1.010, 1.030, 1.004, 1.020 }, 4, 3, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_INSUFFICIENT);

	/* A one-pad base is unswept too. */
	side_of((const double[]){ 1.000 }, 1, 10, &base);
	side_of((const double[]){ 1.010, 1.030, 1.004, 1.020 }, 4, 10, &cand);
	stats_verdict_judge(&base, &cand, &v);
	assert_int_equal(v.verdict, VERDICT_UNSWEPT);
	assert_int_equal(v.direction, STATS_DIR_SLOWER);

	/* Control 1.000 vs pad 0 1.003: 0.31% noise, under half the 2.97% spread. */
	side_of(alloc_base, 4, 10, &base);
	stats_noise_check(1.003, 1.000, &base, &noise);
	assert_true(noise.has);
	assert_true(fabs(noise.noise - 0.003 / 0.9775) < 1e-12);
	assert_true(noise.limit == base.spread / 2);
	assert_false(noise.noisy);
	/* A control 2% off pad 0 is more than half the spread: noisy. */
	stats_noise_check(1.003, 0.983, &base, &noise);
	assert_true(noise.noisy);
}

PLUMB_TEST(verdict_zero_center)
{
	struct stats_side s;
	struct stats_noise noise;

	side_of((const double[]){ 0, 0, 0 }, 3, 3, &s);
	assert_true(s.center == 0 && s.has_spread && s.spread == 0);
	side_of((const double[]){ 0, 0, 5 }, 3, 3, &s);
	assert_false(s.has_spread);
	stats_noise_check(0, 1, &s, &noise);
	assert_false(noise.has);
}
