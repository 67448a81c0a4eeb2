/*
 * tests/unit/test-shift.c: the shift rule's statistics (stats/shift.h)
 * and verdicts (stats/rule.h): the exact Mann-Whitney distribution
 * against a brute-force enumeration, the Hodges-Lehmann interval's
 * coverage on simulated placement distributions, the 4 + 4 reduction to
 * the seeds' overlap rule, "unchanged", "unswept" below the reachable
 * confidence, and identical hot code deciding only with the same work.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "stats/rule.h"
#include "stats/shift.h"
#include "common/banned.h"

/* splitmix64: a seeded stream for the simulations. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unif(uint64_t *s)
{
	return (double)(mix(s) >> 11) / 9007199254740992.0;
}

/* 2U of y against x, counted pair by pair. */
static double u2_of(const double *x, size_t m, const double *y, size_t n)
{
	double u = 0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u += y[j] > x[i] ? 2 : y[j] == x[i] ? 1 : 0;
	return u;
}

/* Every split of pool[0..m+n) into m "x" and n "y" values: counts of 2U. */
static void brute(const double *pool, size_t m, size_t n, double *counts)
{
	size_t len = m + n;
	double x[12], y[12];

	memset(counts, 0, (2 * m * n + 1) * sizeof(*counts));
	for (uint32_t mask = 0; mask < (1u << len); mask++) {
		size_t nx = 0, ny = 0;
		if ((size_t)__builtin_popcount(mask) != m)
			continue;
		for (size_t i = 0; i < len; i++) {
			if (mask & (1u << i))
				x[nx++] = pool[i];
			else
				y[ny++] = pool[i];
		}
		counts[(size_t)u2_of(x, m, y, n)] += 1;
	}
}

PLUMB_TEST(shift_exact_distribution_is_the_enumeration_with_and_without_ties)
{
	uint64_t s = 7;
	double pool[12], got[73], want[73], u2;
	size_t checked = 0;

	for (size_t m = 1; m <= 6; m++)
		for (size_t n = 1; n <= 6; n++)
			for (int kind = 0; kind < 3; kind++) {
				for (size_t i = 0; i < m + n; i++)
					/* distinct; a few ties; many ties */
					pool[i] = kind == 0 ? unif(&s) :
						  kind == 1 ? floor(unif(&s) * 6) : floor(unif(&s) * 2);
				brute(pool, m, n, want);
				assert_int_equal(stats_ranksum_counts(pool, m, pool + m, n, got, &u2), 0);
				assert_true(u2 == u2_of(pool, m, pool + m, n));
				for (size_t u = 0; u <= 2 * m * n; u++) {
					if (fabs(got[u] - want[u]) > 1e-9)
						print_message("# m %zu n %zu kind %d: 2U = %zu: %g, enumeration %g\n",
							      m, n, kind, u, got[u], want[u]);
					assert_true(fabs(got[u] - want[u]) <= 1e-9);
				}
				checked++;
			}
	assert_int_equal(checked, 6 * 6 * 3);
}

PLUMB_TEST(shift_p_and_the_smallest_p_of_4_against_4)
{
	const double base[4] = { 100, 101, 102, 103 };
	const double above[4] = { 104, 105, 106, 107 };
	const double mixed[4] = { 100.5, 101.5, 104, 105 };
	struct stats_shift sh;

	assert_int_equal(stats_shift(base, 4, above, 4, 0.99, &sh), 0);
	assert_true(fabs(sh.p - 2.0 / 70) < 1e-12);
	assert_true(fabs(sh.p_min - 2.0 / 70) < 1e-12);
	assert_false(sh.reaches);
	assert_true(fabs(sh.level - (1 - 2.0 / 70)) < 1e-12);
	assert_true(sh.lo > 0 && sh.estimate > sh.lo && sh.hi > sh.estimate);
	assert_true(fabs(sh.u - 16) < 1e-12);
	assert_int_equal(stats_shift(base, 4, mixed, 4, 0.95, &sh), 0);
	assert_true(sh.p > 0.05);
	assert_true(sh.lo < 0 && sh.hi > 0);
}

/* A side of n pads drawn from a placement distribution, times (1 + shift). */
static void draw_side(uint64_t *s, int shape, double shift, double *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double u = unif(s), v;
		switch (shape) {
		case 0:   /* uniform, 30% wide */
			v = 1 + 0.3 * u;
			break;
		case 1:   /* bimodal: fast or slow placements, 25% apart */
			v = (unif(s) < 0.5 ? 1 : 1.25) + 0.02 * u;
			break;
		default:  /* heavy tail: Pareto, index 1.5 */
			v = 1 + 0.05 * (pow(1 - u, -1 / 1.5) - 1);
			break;
		}
		out[i] = 100 * v * (1 + shift);
	}
}

PLUMB_TEST(shift_interval_covers_at_least_its_confidence)
{
	static const char *const shapes[] = { "uniform", "bimodal", "heavy-tailed" };
	const double conf = 0.99, truth = 0.07;
	double b[8], c[8];
	uint64_t s = 2026;

	for (int shape = 0; shape < 3; shape++) {
		size_t covered = 0, draws = 10000;
		double level = 0;
		for (size_t i = 0; i < draws; i++) {
			struct stats_shift sh;
			draw_side(&s, shape, 0, b, 8);
			draw_side(&s, shape, truth, c, 8);
			assert_int_equal(stats_shift(b, 8, c, 8, conf, &sh), 0);
			assert_true(sh.reaches && sh.exact);
			covered += sh.lo <= truth && truth <= sh.hi;
			level = sh.level;
		}
		print_message("# %s: coverage %.4f, exact level %.4f\n", shapes[shape],
			      (double)covered / (double)draws, level);
		assert_true(level >= conf);
		/* 10,000 draws: the rate's standard error at 0.99 is 0.001. */
		assert_true((double)covered / (double)draws >= conf - 0.002);
	}
}

/* A judge input of pads with three rounds each, every round the pad value. */
struct sides {
	struct stats_pad_in pads[2][32];
	double v[2][32][3];
	struct stats_judge_in in;
};

static void sides_set(struct sides *x, const double *base, size_t m, const double *cand,
		      size_t n)
{
	memset(x, 0, sizeof(*x));
	for (int side = 0; side < 2; side++) {
		const double *src = side ? cand : base;
		size_t k = side ? n : m;
		for (size_t p = 0; p < k; p++) {
			for (int r = 0; r < 3; r++)
				x->v[side][p][r] = src[p];
			x->pads[side][p].pad = (uint32_t)p;
			x->pads[side][p].values = x->v[side][p];
			x->pads[side][p].n = 3;
		}
	}
	x->in.base.pads = x->pads[0];
	x->in.base.npads = m;
	x->in.candidate.pads = x->pads[1];
	x->in.candidate.npads = n;
}

PLUMB_TEST(shift_4_against_4_is_the_overlap_rule)
{
	struct stats_rule shift, overlap;
	uint64_t s = 11;
	size_t apart = 0;

	stats_rule_default(&shift);
	shift.confidence = 0.97;   /* 4 + 4 pads reach 1 - 2/70 */
	shift.min_effect = 0;
	stats_rule_overlap(&overlap);
	for (int i = 0; i < 2000; i++) {
		double b[4], c[4];
		struct sides x;
		struct stats_judgement js, jo;
		draw_side(&s, 0, 0, b, 4);
		draw_side(&s, 0, (unif(&s) - 0.5) * 0.8, c, 4);
		sides_set(&x, b, 4, c, 4);
		assert_int_equal(stats_judge(&shift, &x.in, &js), 0);
		assert_int_equal(stats_judge(&overlap, &x.in, &jo), 0);
		if (jo.verdict == VERDICT_PLACEMENT)
			assert_int_equal(js.verdict, VERDICT_PLACEMENT);
		else
			assert_int_equal(js.verdict, jo.verdict);
		apart += jo.verdict != VERDICT_PLACEMENT;
	}
	assert_true(apart > 100);
}

PLUMB_TEST(shift_at_99_percent_4_against_4_says_it_cannot)
{
	const double b[4] = { 100, 101, 102, 103 }, c[4] = { 150, 151, 152, 153 };
	struct stats_rule rule;
	struct stats_judgement jd;
	struct sides x;

	stats_rule_default(&rule);
	sides_set(&x, b, 4, c, 4);
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_UNSWEPT);
	assert_string_equal(jd.why, "4+4 pads can reach 97% at most, not 99%");
	assert_non_null(stats_undecided(&jd));
}

PLUMB_TEST(shift_verdicts_slower_faster_unchanged_placement)
{
	double b[8], c[8];
	struct stats_rule rule;
	struct stats_judgement jd;
	struct sides x;

	stats_rule_default(&rule);
	for (int i = 0; i < 8; i++)
		b[i] = 100 + i * 0.05;   /* pads within 0.35% */
	/* +10%: slower */
	for (int i = 0; i < 8; i++)
		c[i] = b[i] * 1.10;
	sides_set(&x, b, 8, c, 8);
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	assert_true(jd.shift_lo > 0.01 && fabs(jd.shift - 0.10) < 0.005);
	assert_true(jd.p <= 0.01);
	/* -10%: faster */
	for (int i = 0; i < 8; i++)
		c[i] = b[i] * 0.90;
	sides_set(&x, b, 8, c, 8);
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_FASTER);
	/* the same pads: unchanged, the bound stated */
	sides_set(&x, b, 8, b, 8);
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_UNCHANGED);
	assert_true(jd.shift_lo >= -0.01 && jd.shift_hi <= 0.01);
	assert_null(stats_undecided(&jd));
	/* a spread of 30% over pads and a +3% shift: placement, undecided */
	for (int i = 0; i < 8; i++) {
		b[i] = 100 * (1 + 0.3 * ((i * 5) % 8) / 7.0);
		c[i] = 100 * (1 + 0.3 * ((i * 3) % 8) / 7.0) * 1.03;
	}
	sides_set(&x, b, 8, c, 8);
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_int_equal(jd.reason, STATS_REASON_STRADDLES);
	assert_non_null(stats_undecided(&jd));
	assert_true(jd.has_detectable && jd.detect_slower > 0.01);
}

PLUMB_TEST(shift_identical_hot_code_decides_only_with_the_same_work)
{
	double b[8], c[8];
	struct stats_rule rule;
	struct stats_judgement jd;
	struct sides x;

	stats_rule_default(&rule);
	for (int i = 0; i < 8; i++) {
		b[i] = 100 + i;
		c[i] = (100 + i) * 1.5;
	}
	sides_set(&x, b, 8, c, 8);
	x.in.hot = STATS_HOT_IDENTICAL;
	x.in.work = STATS_WORK_UNKNOWN;
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	assert_true(jd.hot_remark);
	x.in.work = STATS_WORK_DIFFERENT;
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	x.in.work = STATS_WORK_SAME;
	assert_int_equal(stats_judge(&rule, &x.in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_int_equal(jd.reason, STATS_REASON_HOT_IDENTICAL);
	assert_null(stats_undecided(&jd));
}

/*
 * Shift v4, within batches.  The exact p of two strata against an
 * enumeration of every split within each stratum (ties included): under
 * no change the strata are independent, so P(|2W - N| >= d) counts the
 * pairs of splits.
 */
PLUMB_TEST(shift_strata_p_is_the_enumeration_of_splits_within_each_stratum)
{
	uint64_t s = 31;
	size_t checked = 0;

	for (size_t m1 = 1; m1 <= 4; m1++)
		for (size_t m2 = 1; m2 <= 3; m2++)
			for (int kind = 0; kind < 2; kind++) {
				size_t n1 = 5 - m1 > 0 ? 5 - m1 : 1, n2 = 4 - m2;
				double p1[12], p2[12], c1[41], c2[25], u1, u2;
				double base[8], cand[8], tail = 0, total = 0, obs, mn;
				size_t sm[2] = { m1, m2 }, sc[2] = { n1, n2 };
				struct stats_strata st = { sm, sc, 2 };
				struct stats_shift sh;
				for (size_t i = 0; i < 12; i++) {
					p1[i] = kind ? floor(unif(&s) * 3) : unif(&s);
					p2[i] = kind ? floor(unif(&s) * 3) + 10 : unif(&s) + 10;
				}
				brute(p1, m1, n1, c1);
				brute(p2, m2, n2, c2);
				u1 = u2_of(p1, m1, p1 + m1, n1);
				u2 = u2_of(p2, m2, p2 + m2, n2);
				mn = (double)(m1 * n1 + m2 * n2);
				obs = fabs(u1 + u2 - mn);
				for (size_t a = 0; a <= 2 * m1 * n1; a++)
					for (size_t b = 0; b <= 2 * m2 * n2; b++) {
						total += c1[a] * c2[b];
						if (fabs((double)(a + b) - mn) >= obs)
							tail += c1[a] * c2[b];
					}
				memcpy(base, p1, m1 * sizeof(*base));
				memcpy(base + m1, p2, m2 * sizeof(*base));
				memcpy(cand, p1 + m1, n1 * sizeof(*cand));
				memcpy(cand + n1, p2 + m2, n2 * sizeof(*cand));
				assert_int_equal(stats_shift_strata(base, cand, &st, 0.9, &sh), 0);
				assert_true(sh.exact);
				assert_true(fabs(sh.u * 2 - (u1 + u2)) < 1e-9);
				if (fabs(sh.p - tail / total) > 1e-12)
					print_message("# %zu+%zu, %zu+%zu kind %d: p %g, enumeration %g\n",
						      m1, n1, m2, n2, kind, sh.p, tail / total);
				assert_true(fabs(sh.p - tail / total) <= 1e-12);
				checked++;
			}
	assert_int_equal(checked, 4 * 3 * 2);
}

/* One stratum is the two-sample test, to the bit. */
PLUMB_TEST(shift_one_stratum_is_the_plain_test)
{
	uint64_t s = 5;

	for (int i = 0; i < 200; i++) {
		double b[10], c[10];
		size_t m = 2 + (size_t)(unif(&s) * 8), n = 2 + (size_t)(unif(&s) * 8);
		struct stats_strata st = { &m, &n, 1 };
		struct stats_shift one, plain;
		for (size_t k = 0; k < 10; k++) {
			b[k] = 100 + floor(unif(&s) * 20);
			c[k] = 104 + floor(unif(&s) * 20);
		}
		assert_int_equal(stats_shift(b, m, c, n, 0.99, &plain), 0);
		assert_int_equal(stats_shift_strata(b, c, &st, 0.99, &one), 0);
		assert_memory_equal(&one, &plain, sizeof(one));
	}
}

/*
 * The interval within batches covers the true shift at least at its
 * confidence, whatever the host does between batches: pads of 6, 4, 4
 * and 4 a side, each batch's speed moved by up to +-40% (both sides).
 */
PLUMB_TEST(shift_strata_interval_covers_under_drift_between_batches)
{
	const double conf = 0.99, truth = 0.05;
	size_t sm[4] = { 6, 4, 4, 4 }, sc[4] = { 6, 4, 4, 4 };
	struct stats_strata st = { sm, sc, 4 };
	size_t covered = 0, draws = 10000;
	uint64_t s = 99;
	double level = 0;

	for (size_t i = 0; i < draws; i++) {
		double b[18], c[18];
		struct stats_shift sh;
		for (size_t g = 0, k = 0; g < 4; g++) {
			double drift = 1 + (unif(&s) - 0.5) * 0.8;
			for (size_t j = 0; j < sm[g]; j++, k++) {
				draw_side(&s, (int)(i % 3), 0, &b[k], 1);
				draw_side(&s, (int)(i % 3), truth, &c[k], 1);
				b[k] *= drift;
				c[k] *= drift;
			}
		}
		assert_int_equal(stats_shift_strata(b, c, &st, conf, &sh), 0);
		assert_true(sh.reaches && sh.exact);
		covered += sh.lo <= truth && truth <= sh.hi;
		level = sh.level;
	}
	print_message("# within batches under drift: coverage %.4f, exact level %.4f\n",
		      (double)covered / (double)draws, level);
	assert_true(level >= conf);
	assert_true((double)covered / (double)draws >= conf - 0.002);
}

/*
 * The case the batches are for: the host's speed changed from batch to
 * batch (by up to 70%, as a busy host's did on a real project); the
 * candidate is 14% slower in every batch.  Pooled (v3), the drift widens the interval across the
 * band: placement.  Within batches (v4): slower.  A batch holding one
 * side only joins its neighbour.
 */
PLUMB_TEST(shift_v4_compares_within_batches_and_v3_pools_them)
{
	struct stats_rule v3, v4;
	struct stats_judgement j3, j4;
	double b[18], c[18];
	struct sides x;

	stats_rule_default(&v4);
	assert_int_equal(v4.version, 4);
	assert_int_equal(stats_rule_select("shift", 3, &v3), 0);
	assert_int_equal(v3.version, 3);
	for (int i = 0; i < 18; i++) {
		double host = i < 6 ? 1.7 : i < 10 ? 1.0 : i < 14 ? 1.4 : 1.0, place = 1 + 0.03 * ((i * 7) % 6) / 5.0;
		b[i] = 100 * place * host;
		c[i] = 100 * (1 + 0.03 * ((i * 5) % 6) / 5.0) * host * 1.14;
	}
	sides_set(&x, b, 18, c, 18);
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < 18; i++)
			x.pads[side][i].batch = i < 6 ? 1 : i < 10 ? 11 : i < 14 ? 21 : 31;
	assert_int_equal(stats_judge(&v3, &x.in, &j3), 0);
	assert_int_equal(stats_judge(&v4, &x.in, &j4), 0);
	print_message("# pooled %+.1f%% to %+.1f%%, within batches %+.1f%% to %+.1f%%\n",
		      j3.shift_lo * 100, j3.shift_hi * 100, j4.shift_lo * 100, j4.shift_hi * 100);
	assert_int_equal(j3.verdict, VERDICT_PLACEMENT);
	assert_int_equal(j4.verdict, VERDICT_SLOWER);
	assert_int_equal(j4.batches, 4);
	assert_true(j4.shift_lo > 0.10 && j4.shift_hi < 0.20);

	/* Unknown batches (a recorded summary): one batch, v3's figures. */
	for (int side = 0; side < 2; side++)
		x.pads[side][0].batch = 0;
	assert_int_equal(stats_judge(&v4, &x.in, &j4), 0);
	assert_int_equal(j4.batches, 1);
	assert_int_equal(j4.verdict, j3.verdict);
	assert_true(j4.shift_lo == j3.shift_lo && j4.shift_hi == j3.shift_hi && j4.p == j3.p);

	/* A candidate pad alone in its batch joins the one before. */
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < 18; i++)
			x.pads[side][i].batch = i < 6 ? 1 : 11;
	x.pads[1][17].batch = 40;
	assert_int_equal(stats_judge(&v4, &x.in, &j4), 0);
	assert_int_equal(j4.batches, 2);
	/* ... and a first batch of one side only joins the one after. */
	x.pads[1][17].batch = 11;
	for (int i = 0; i < 6; i++)
		x.pads[1][i].batch = 11;
	assert_int_equal(stats_judge(&v4, &x.in, &j4), 0);
	assert_int_equal(j4.batches, 1);
}
