/*
 * tests/unit/test-rule.c: the verdict rules of stats/rule.h on hand-made
 * tables, seed 000's among them: order-statistic intervals, the noise
 * margin, the noisy verdict, the hot-code override, the ratio interval
 * and the detectable change.
 */
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "stats/quantile.h"
#include "stats/rule.h"
#include "common/banned.h"

#define MAXP 16
#define MAXR 32
#define BIGR 5001   /* the most rounds of a pad in the path tests */

/* A side built from pad centers, each pad's rounds spread around it. */
struct side {
	struct stats_pad_in pads[MAXP];
	double v[MAXP][MAXR];
	size_t npads;
};

/* Rounds c * (1 + k * rel) for k = -(n-1)/2 .. (n-1)/2, shuffled a little. */
static void side_set(struct side *s, const double *centers, size_t npads, size_t rounds,
		     double rel)
{
	memset(s, 0, sizeof(*s));
	s->npads = npads;
	for (size_t p = 0; p < npads; p++) {
		for (size_t r = 0; r < rounds; r++) {
			double k = (double)((r * 7) % rounds) - (double)(rounds - 1) / 2;
			s->v[p][r] = centers[p] * (1 + k * rel);
		}
		s->pads[p].pad = (uint32_t)p;
		s->pads[p].values = s->v[p];
		s->pads[p].n = rounds;
	}
}

static void input(struct stats_judge_in *in, const struct side *b, const struct side *c,
		  const struct side *ctl, enum stats_hot hot)
{
	memset(in, 0, sizeof(*in));
	in->base.pads = b->pads;
	in->base.npads = b->npads;
	in->candidate.pads = c->pads;
	in->candidate.npads = c->npads;
	if (ctl) {
		in->control.pads = ctl->pads;
		in->control.npads = ctl->npads;
	}
	in->hot = hot;
}

static double binom_cdf(size_t n, size_t k)   /* P(Bin(n, 1/2) <= k), by sums */
{
	double c = 1, sum = 0;
	for (size_t i = 0; i <= k; i++) {
		sum += c;
		c = c * (double)(n - i) / (double)(i + 1);
	}
	return sum / pow(2, (double)n);
}

PLUMB_TEST(rule_median_ranks_are_exact)
{
	size_t l, u;
	double level;

	stats_median_ranks(10, 0.95, &l, &u, &level);
	assert_int_equal(l, 2);
	assert_int_equal(u, 9);
	assert_true(fabs(level - (1 - 2 * 11.0 / 1024)) < 1e-12);
	/* Three rounds cannot reach 95%: the extremes, 75%. */
	stats_median_ranks(3, 0.95, &l, &u, &level);
	assert_int_equal(l, 1);
	assert_int_equal(u, 3);
	assert_true(fabs(level - 0.75) < 1e-12);
	/* Against the definition, for every n up to 60 and two levels. */
	for (size_t n = 1; n <= 60; n++)
		for (int c = 0; c < 2; c++) {
			double conf = c ? 0.99 : 0.95, a2 = (1 - conf) / 2;
			size_t want = 1;
			for (size_t k = 1; k <= n / 2; k++)
				if (binom_cdf(n, k - 1) <= a2)
					want = k;
			stats_median_ranks(n, conf, &l, &u, &level);
			assert_int_equal(l, want);
			assert_int_equal(u, n + 1 - want);
			assert_true(fabs(level - (1 - 2 * binom_cdf(n, want - 1))) < 1e-9);
		}
}

PLUMB_TEST(rule_pad_interval_takes_the_order_statistics)
{
	const double v[10] = { 9, 1, 8, 2, 7, 3, 6, 4, 5, 10 };
	double scratch[10];
	struct stats_pad_interval iv;

	stats_pad_interval(v, 10, 0.95, scratch, &iv);
	assert_true(iv.median == 5.5);
	assert_true(iv.lo == 2);
	assert_true(iv.hi == 9);
}

/* Seed 000's /alloc table, 32 connections: the one-build main (0.975)
 * inside v0.35.0's own range over pads is placement under both rules. */
PLUMB_TEST(rule_seed000_alloc_main_is_placement)
{
	static const double base[] = { 1.003, 0.978, 0.974, 0.977 };
	static const double cand[] = { 0.975 };
	static const double ctl[] = { 1.000 };
	struct side b, c, k;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	side_set(&b, base, 4, 5, 0.001);
	side_set(&c, cand, 1, 5, 0.001);
	side_set(&k, ctl, 1, 5, 0.001);
	input(&in, &b, &c, &k, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_int_equal(jd.reason, STATS_REASON_OVERLAP);
	assert_true(jd.has_control_noise);
	assert_true(fabs(jd.noise_control - 0.003 / 0.9775) < 1e-9);
	assert_false(jd.noisy);
	stats_rule_overlap(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
}

/*
 * The false "faster" of the issue: base 195.3 (192.4-200.2), candidate
 * 191.2 (182.3-192.2), control noise 1.12%.  Overlap calls it faster; the
 * margin rule says the ranges are closer than the noise: noisy, and with
 * identical hot code placement, for the reason given.
 */
PLUMB_TEST(rule_gap_within_the_noise_is_not_a_difference)
{
	static const double base[] = { 192.4, 194.0, 196.6, 200.2 };
	static const double cand[] = { 182.3, 190.0, 192.2, 192.2 };
	static const double ctl[] = { 192.4 * 1.0112 };
	struct side b, c, k;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	side_set(&b, base, 4, 10, 0.00002);
	side_set(&c, cand, 4, 10, 0.00002);
	side_set(&k, ctl, 1, 10, 0.00002);
	/* Make the candidate's top pad sit just under the base's bottom one. */
	for (size_t r = 0; r < 10; r++)
		c.v[3][r] = 192.2 + 0.0001 * (double)r;
	input(&in, &b, &c, &k, STATS_HOT_UNKNOWN);

	stats_rule_overlap(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_FASTER);

	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_NOISY);
	assert_int_equal(jd.direction, STATS_DIR_FASTER);
	assert_int_equal(jd.reason, STATS_REASON_WITHIN_NOISE);
	assert_true(jd.noisy);
	assert_true(jd.gap > 0 && jd.gap < jd.margin);
	assert_true(fabs(jd.noise_control - 0.0112 * 192.4 / jd.base.s.center) < 1e-3);

	in.hot = STATS_HOT_IDENTICAL;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_int_equal(jd.reason, STATS_REASON_HOT_IDENTICAL);
	assert_int_equal(jd.direction, STATS_DIR_FASTER);
	assert_false(jd.noisy);
}

/* Hot code identical (or the same code with moved data) overrules any
 * distance under the margin rule; the seeds' rule knows nothing of it. */
PLUMB_TEST(rule_identical_hot_code_is_placement)
{
	static const double base[] = { 100, 101, 102, 103 };
	static const double cand[] = { 120, 121, 122, 123 };
	struct side b, c;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	side_set(&b, base, 4, 10, 0.001);
	side_set(&c, cand, 4, 10, 0.001);
	stats_rule_margin(&rule);
	input(&in, &b, &c, NULL, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	assert_int_equal(jd.reason, STATS_REASON_APART);
	in.hot = STATS_HOT_IDENTICAL;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_int_equal(jd.reason, STATS_REASON_HOT_IDENTICAL);
	in.hot = STATS_HOT_SAME_CODE;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_int_equal(jd.reason, STATS_REASON_HOT_SAME_CODE);
	stats_rule_overlap(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
}

/* The range is the union of the pads' intervals, not the medians'. */
PLUMB_TEST(rule_range_is_the_union_of_pad_intervals)
{
	static const double base[] = { 100, 101, 102, 103 };
	static const double cand[] = { 104, 105, 106, 107 };
	struct side b, c;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	/* Rounds spread +-4.5%: pad intervals reach well past the medians. */
	side_set(&b, base, 4, 10, 0.01);
	side_set(&c, cand, 4, 10, 0.01);
	input(&in, &b, &c, NULL, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_true(jd.base.lo < jd.base.s.min && jd.base.hi > jd.base.s.max);
	assert_true(jd.base.lo == 100 * (1 - 3.5 * 0.01));
	assert_true(jd.base.hi == 103 * (1 + 3.5 * 0.01));
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	stats_rule_overlap(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	assert_true(jd.base.lo == 100 && jd.base.hi == 103);
}

/* With one pad a side, noise alone never fires and nothing is called. */
PLUMB_TEST(rule_one_pad_is_never_noisy_by_itself)
{
	static const double one[] = { 100 };
	static const double other[] = { 100.2 };
	struct side b, c, k;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	side_set(&b, one, 1, 10, 0.001);
	side_set(&c, other, 1, 10, 0.001);
	side_set(&k, one, 1, 10, 0.001);
	input(&in, &b, &c, &k, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_false(jd.noisy);
	/* Far apart with one pad: unswept, with the direction. */
	static const double far[] = { 150 };
	side_set(&c, far, 1, 10, 0.001);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_UNSWEPT);
	assert_int_equal(jd.direction, STATS_DIR_SLOWER);
	assert_false(jd.noisy);
}

/* Too few pads for the confidence: 3 and 3 fall apart by chance 1 in 10. */
PLUMB_TEST(rule_too_few_pads_for_the_confidence_is_unswept)
{
	static const double base[] = { 100, 101, 102 };
	static const double cand[] = { 120, 121, 122 };
	struct side b, c;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	side_set(&b, base, 3, 10, 0.001);
	side_set(&c, cand, 3, 10, 0.001);
	input(&in, &b, &c, NULL, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_UNSWEPT);
	assert_int_equal(jd.reason, STATS_REASON_ONE_PAD);
	/* Four and four: 2 / 70 < 5%, called. */
	static const double base4[] = { 100, 101, 102, 103 };
	static const double cand4[] = { 120, 121, 122, 123 };
	side_set(&b, base4, 4, 10, 0.001);
	side_set(&c, cand4, 4, 10, 0.001);
	input(&in, &b, &c, NULL, STATS_HOT_UNKNOWN);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	/* At 99% four and four are too few. */
	rule.confidence = 0.99;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_UNSWEPT);
}

/* The detectable change, by hand: ranges relative to the centers. */
PLUMB_TEST(rule_detectable_change_by_hand)
{
	static const double base[] = { 96, 100, 100, 104 };
	static const double cand[] = { 95, 100, 100, 105 };
	static const double ctl[] = { 98 };   /* base pad 0 is 96 */
	struct side b, c, k;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;
	double m, up_b, dn_b, up_c, dn_c;

	side_set(&b, base, 4, 3, 0);
	side_set(&c, cand, 4, 3, 0);
	side_set(&k, ctl, 1, 3, 0);
	input(&in, &b, &c, &k, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	/* No round noise; the control is 2% off: the noise is 2%. */
	assert_true(jd.noise_rounds == 0);
	assert_true(fabs(jd.noise - 0.02) < 1e-12);
	m = jd.margin;
	up_b = 0.04; dn_b = 0.04; up_c = 0.05; dn_c = 0.05;
	assert_true(fabs(jd.detect_slower - ((1 + up_b + m) / (1 - dn_c) - 1)) < 1e-12);
	assert_true(fabs(jd.detect_faster - (1 - (1 - dn_b - m) / (1 + up_c))) < 1e-12);
	assert_true(jd.detectable == fmax(jd.detect_slower, jd.detect_faster));
	/* And the rule agrees: a candidate moved a little past it is slower,
	 * a little short of it is not. */
	for (int side = 0; side < 2; side++) {
		double f = 1 + jd.detect_slower + (side ? 0.001 : -0.001);
		struct stats_judgement j2;
		struct side c2;
		double moved[4];
		for (int p = 0; p < 4; p++)
			moved[p] = cand[p] * f;
		side_set(&c2, moved, 4, 3, 0);
		input(&in, &b, &c2, &k, STATS_HOT_UNKNOWN);
		assert_int_equal(stats_judge(&rule, &in, &j2), 0);
		assert_int_equal(j2.verdict, side ? VERDICT_SLOWER : VERDICT_NOISY);
	}
}

/* Seed 000's interpreter sweep: 16 pads, 204.5 to 281.4 M cycles, the
 * candidate the same placements rotated: placement, and nothing below
 * the sweep's own spread can be detected. */
PLUMB_TEST(rule_seed000_interpreter_power)
{
	static const double base[16] = { 281.4, 233.1, 207.1, 238.0, 210.5, 238.2, 225.7, 238.7,
					  218.1, 237.2, 221.9, 237.3, 204.5, 233.3, 212.1, 230.9 };
	double cand[16];
	struct side b, c;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	for (int p = 0; p < 16; p++)
		cand[p] = base[(p + 1) % 16];
	side_set(&b, base, 16, 5, 0.001);
	side_set(&c, cand, 16, 5, 0.001);
	input(&in, &b, &c, NULL, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_true(jd.has_detectable);
	assert_true(jd.detect_slower > 0.33);
	assert_true(jd.ratio == 1);
	assert_true(jd.has_interval && jd.ratio_lo <= 1 && jd.ratio_hi >= 1);
}

/* The ratio interval: seeded, reproducible, covering the truth. */
PLUMB_TEST(rule_ratio_interval_is_seeded)
{
	static const double base[] = { 100, 103, 98, 101, 99, 102, 100.5, 97.5 };
	double cand[8];
	struct side b, c;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement j1, j2, j3;

	for (int p = 0; p < 8; p++)
		cand[p] = base[p] * 1.10;
	side_set(&b, base, 8, 10, 0.002);
	side_set(&c, cand, 8, 10, 0.002);
	input(&in, &b, &c, NULL, STATS_HOT_UNKNOWN);
	stats_rule_margin(&rule);
	assert_int_equal(stats_judge(&rule, &in, &j1), 0);
	assert_int_equal(stats_judge(&rule, &in, &j2), 0);
	assert_true(j1.ratio_lo == j2.ratio_lo && j1.ratio_hi == j2.ratio_hi);
	assert_true(j1.ratio_lo < 1.10 && j1.ratio_hi > 1.10);
	assert_true(j1.ratio_lo > 1.0);
	assert_int_equal(j1.verdict, VERDICT_SLOWER);
	rule.seed = 2;
	assert_int_equal(stats_judge(&rule, &in, &j3), 0);
	assert_true(j3.ratio_lo != j1.ratio_lo || j3.ratio_hi != j1.ratio_hi);
	assert_true(fabs(j3.ratio_lo - j1.ratio_lo) < 0.02);
}

/* Never slower or faster within the margin, whatever the draw. */
PLUMB_TEST(rule_never_a_call_within_the_noise)
{
	unsigned long long s = 12345;
	struct stats_rule rule;

	stats_rule_margin(&rule);
	rule.resamples = 100;
	for (int t = 0; t < 300; t++) {
		double base[4], cand[4], ctl[1];
		struct side b, c, k;
		struct stats_judge_in in;
		struct stats_judgement jd;
		for (int p = 0; p < 4; p++) {
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			base[p] = 100 + (double)(s >> 40) / (double)(1ull << 24) * 4;
			s = s * 6364136223846793005ull + 1442695040888963407ull;
			cand[p] = 100 + (double)(s >> 40) / (double)(1ull << 24) * 4 + (t % 7);
		}
		ctl[0] = base[0] * (1 + (t % 5) * 0.01);
		side_set(&b, base, 4, 5, 0.001);
		side_set(&c, cand, 4, 5, 0.001);
		side_set(&k, ctl, 1, 5, 0.001);
		input(&in, &b, &c, &k, STATS_HOT_UNKNOWN);
		assert_int_equal(stats_judge(&rule, &in, &jd), 0);
		if (jd.verdict == VERDICT_SLOWER || jd.verdict == VERDICT_FASTER) {
			assert_true(jd.gap > jd.margin);
			assert_false(jd.noisy);
		}
		if (jd.noisy)
			assert_int_equal(jd.verdict, VERDICT_NOISY);
	}
}

PLUMB_TEST(rule_select_and_check)
{
	struct stats_rule r;
	const char *why;

	assert_int_equal(stats_rule_select("overlap", 0, &r), 0);
	assert_int_equal(r.kind, STATS_RULE_OVERLAP);
	assert_int_equal(r.version, 1);
	assert_int_equal(stats_rule_select("margin", 2, &r), 0);
	assert_int_equal(r.kind, STATS_RULE_MARGIN);
	assert_int_equal(stats_rule_select("margin", 1, &r), -1);
	assert_int_equal(stats_rule_select("median", 0, &r), -1);
	stats_rule_margin(&r);
	assert_int_equal(stats_rule_check(&r, &why), 0);
	r.confidence = 1;
	assert_int_equal(stats_rule_check(&r, &why), -1);
	assert_non_null(why);
}

/*
 * A deterministic metric (a simulated count): one round per pad suffices
 * once a pad's two runs agreed; two runs that differ, or no pad run twice,
 * and the claim is ignored (insufficient, as for any metric).
 */
PLUMB_TEST(rule_deterministic_metric_needs_one_round_once_checked)
{
	static const double bc[4] = { 1000, 1000, 1000, 1000 }, cc[4] = { 1010, 1010, 1010, 1010 };
	struct side b, c;
	struct stats_judge_in in;
	struct stats_judgement jd;
	struct stats_rule rule;

	stats_rule_margin(&rule);
	side_set(&b, bc, 4, 1, 0);
	side_set(&c, cc, 4, 1, 0);
	/* pad 0 of each side ran twice, the same both times */
	b.v[0][1] = b.v[0][0];
	b.pads[0].n = 2;
	c.v[0][1] = c.v[0][0];
	c.pads[0].n = 2;
	input(&in, &b, &c, NULL, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_INSUFFICIENT);   /* not claimed */
	in.deterministic = 1;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	assert_true(jd.noise_rounds == 0);
	/* the layout spread still counts: pads that overlap are placement */
	c.v[1][0] = 990;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	c.v[1][0] = 1010;
	/* the two runs differ: the claim does not hold */
	c.v[0][1] = 1011;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_INSUFFICIENT);
	assert_int_equal(jd.reason, STATS_REASON_FEW_ROUNDS);
	assert_non_null(strstr(jd.why, "did not repeat exactly"));
	/* never checked: no pad ran twice */
	c.v[0][1] = 1010;
	b.pads[0].n = 1;
	c.pads[0].n = 1;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_INSUFFICIENT);
}

/* The adaptive sweep's question: which judgements more pads and rounds could change. */
PLUMB_TEST(rule_undecided_names_what_more_pads_could_change)
{
	static const double b4[] = { 1.00, 1.01, 1.02, 1.03 };
	static const double c4[] = { 1.20, 1.21, 1.22, 1.23 };
	static const double near[] = { 1.035, 1.04, 1.045, 1.05 };
	static const double mixed[] = { 0.99, 1.01, 1.015, 1.04 };
	static const double ctl1[] = { 1.00 }, ctl_far[] = { 1.10 };
	struct side b, c, k;
	struct stats_judge_in in;
	struct stats_rule rule;
	struct stats_judgement jd;

	stats_rule_margin(&rule);
	/* Apart by far more than the noise: slower, decided. */
	side_set(&b, b4, 4, 10, 0.0005);
	side_set(&c, c4, 4, 10, 0.0005);
	side_set(&k, ctl1, 1, 10, 0.0005);
	input(&in, &b, &c, &k, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_SLOWER);
	assert_null(stats_undecided(&jd));
	/* The same at confidence 0.999: 4 + 4 pads are too few. */
	rule.confidence = 0.999;
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_UNSWEPT);
	assert_string_equal(stats_undecided(&jd), "too few pads for the confidence level");
	rule.confidence = 0.95;
	/* Hot code identical: placement, decided (more pads cannot change it). */
	input(&in, &b, &c, &k, STATS_HOT_IDENTICAL);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_null(stats_undecided(&jd));
	/* Apart by less than the control's distance: noisy, undecided. */
	side_set(&c, near, 4, 10, 0.0005);
	side_set(&k, ctl_far, 1, 10, 0.0005);
	input(&in, &b, &c, &k, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_NOISY);
	assert_string_equal(stats_undecided(&jd), "ranges apart by no more than the noise");
	/* Pad medians apart, intervals overlapping: too wide, undecided. */
	side_set(&b, b4, 4, 10, 0.004);
	side_set(&c, near, 4, 10, 0.004);
	side_set(&k, ctl1, 1, 10, 0.004);
	input(&in, &b, &c, &k, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_true(jd.base.s.max < jd.candidate.s.min);
	assert_string_equal(stats_undecided(&jd), "pad intervals too wide (the pad medians are apart)");
	/* Pad medians that overlap: placement, decided. */
	side_set(&c, mixed, 4, 10, 0.004);
	input(&in, &b, &c, &k, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_PLACEMENT);
	assert_null(stats_undecided(&jd));
	/* Two rounds: insufficient, more rounds decide; a missing side does not. */
	side_set(&b, b4, 4, 2, 0.0005);
	input(&in, &b, &c, &k, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_INSUFFICIENT);
	assert_string_equal(stats_undecided(&jd), "a pad has too few rounds");
	c.npads = 0;
	input(&in, &b, &c, &k, STATS_HOT_CHANGED);
	assert_int_equal(stats_judge(&rule, &in, &jd), 0);
	assert_int_equal(jd.verdict, VERDICT_INSUFFICIENT);
	assert_null(stats_undecided(&jd));
}

/*
 * The ratio interval is the bootstrap stats/rule.c has always drawn: the
 * same seed, the same draws in the same order, each replicate's pad median
 * taken from the values drawn.  The reference below copies the values
 * drawn and selects their median, as the first implementation did; the
 * rule's counting of ranks must give the same interval bit for bit, on odd
 * and even rounds, ties and pads known only by their summary, so a bundle
 * analysed again years later gets the numbers it was written with.
 */
static uint64_t ref_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static size_t ref_draw(uint64_t *s, size_t n)
{
	return (size_t)((double)(ref_splitmix(s) >> 11) * (1.0 / 9007199254740992.0) * (double)n);
}

static double ref_center(const struct stats_side_in *side, uint64_t *s)
{
	static double tmp[BIGR];
	double pm[MAXP];

	for (size_t i = 0; i < side->npads; i++) {
		const struct stats_pad_in *p = &side->pads[ref_draw(s, side->npads)];
		if (!p->values) {
			pm[i] = p->median;
			continue;
		}
		for (size_t r = 0; r < p->n; r++)
			tmp[r] = p->values[ref_draw(s, p->n)];
		pm[i] = stats_median_inplace(tmp, p->n);
	}
	return stats_median_inplace(pm, side->npads);
}

static void ref_interval(const struct stats_rule *rule, const struct stats_judge_in *in,
			 double *lo, double *hi)
{
	static double rep[STATS_RULE_RESAMPLES];
	uint64_t s = rule->seed;
	size_t k = 0;
	double a = (1 - rule->confidence) / 2;

	for (unsigned i = 0; i < rule->resamples; i++) {
		double cb = ref_center(&in->base, &s);
		double cc = ref_center(&in->candidate, &s);
		if (cb > 0)
			rep[k++] = cc / cb;
	}
	*lo = stats_select(rep, k, (size_t)floor(a * (double)(k - 1)));
	*hi = stats_select(rep, k, (size_t)ceil((1 - a) * (double)(k - 1)));
}

/* Pad p of n rounds in v around center, on levels values (ties) or spread (0). */
static void random_pad(struct stats_pad_in *pd, double *v, size_t p, size_t n, uint64_t *s,
		       double center, int levels, int summary)
{
	for (size_t r = 0; r < n; r++) {
		double u = (double)(ref_splitmix(s) >> 11) / 9007199254740992.0;
		if (levels)
			u = floor(u * levels) / levels;
		v[r] = center * (1 + 0.05 * (u - 0.5)) * (1 + 0.01 * (double)p);
	}
	memset(pd, 0, sizeof(*pd));
	pd->pad = (uint32_t)p;
	pd->n = n;
	if (summary) {
		/* Known by its summary only, as a baseline's manifest gives it. */
		pd->median = v[0];
		pd->lo = pd->hi = v[0];
	} else {
		pd->values = v;
	}
}

/* Pads of STATS_MIN_ROUNDS to MAXR rounds, values on few levels (ties) or spread. */
static void random_side(struct side *sd, uint64_t *s, double center, int summaries)
{
	memset(sd, 0, sizeof(*sd));
	sd->npads = 1 + ref_draw(s, 8);
	for (size_t p = 0; p < sd->npads; p++) {
		size_t n = STATS_MIN_ROUNDS + ref_draw(s, MAXR + 1 - STATS_MIN_ROUNDS);
		int levels = (int)ref_draw(s, 2) ? 3 : 0;
		random_pad(&sd->pads[p], sd->v[p], p, n, s, center, levels, summaries && p % 3 == 2);
	}
}

PLUMB_TEST(rule_bootstrap_is_the_resampled_median_bit_for_bit)
{
	static struct side b, c;
	struct stats_rule rule;
	uint64_t s = 12345;
	int compared = 0;

	stats_rule_margin(&rule);
	for (int t = 0; t < 60; t++) {
		struct stats_judge_in in;
		struct stats_judgement jd;
		double lo, hi;

		random_side(&b, &s, 100.0, t % 4 == 3);
		random_side(&c, &s, 100.0 * (1 + 0.002 * (t % 7)), t % 5 == 4);
		memset(&in, 0, sizeof(in));
		in.base.pads = b.pads;
		in.base.npads = b.npads;
		in.candidate.pads = c.pads;
		in.candidate.npads = c.npads;
		rule.seed = 1 + (uint64_t)t;
		assert_int_equal(stats_judge(&rule, &in, &jd), 0);
		if (!jd.has_interval)
			continue;
		ref_interval(&rule, &in, &lo, &hi);
		assert_true(jd.ratio_lo == lo);
		assert_true(jd.ratio_hi == hi);
		compared++;
	}
	assert_int_equal(compared, 60);
}

/*
 * The bootstrap draws 8 at a time where the CPU has AVX-512 and one at a
 * time elsewhere (and under Valgrind); both must give the reference's
 * interval bit for bit.  Pads of 1 to BIGR rounds, odd and even, at the
 * batch and group edges (8, 256) and off them; ties; summary-only pads;
 * 1 to 9 pads a side; seeds next to 2^64, where the lanes' states wrap.
 */
static const size_t path_rounds[] = {
	1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 127, 255, 256, 257,
	520, 1000, 2047, 2048, 2049, 2051, 3001, BIGR - 1   /* a side may add 1 */
};

struct big_side {
	struct stats_pad_in pads[9];
	double v[9][BIGR];
	size_t npads;
};

/* npads pads, of rounds n or (some) a neighbour; ties when levels. */
static void big_side(struct big_side *sd, uint64_t *s, size_t npads, size_t n, double center,
		     int levels, int summaries)
{
	sd->npads = npads;
	for (size_t p = 0; p < npads; p++) {
		size_t np = n > 2 && p % 2 ? n - 1 - ref_draw(s, 2) : n;
		random_pad(&sd->pads[p], sd->v[p], p, np, s, center, levels, summaries && p % 3 == 1);
	}
}

/* The rule's intervals against the reference's on many sides; how many compared. */
static int paths_against_reference(void)
{
	static struct big_side b, c;
	static const uint64_t seeds[] = { 1, 2, 12345, 0xfffffffffffffff0ull, 0xffffffffffffffffull };
	struct stats_rule rule;
	uint64_t s = 777;
	int compared = 0;

	stats_rule_margin(&rule);
	for (size_t t = 0; t < 3 * sizeof(path_rounds) / sizeof(path_rounds[0]); t++) {
		size_t n = path_rounds[t % (sizeof(path_rounds) / sizeof(path_rounds[0]))];
		/* Fewer pads and replicates on big pads: the reference copies and selects. */
		size_t most = n > 1000 ? 3 : 9;
		struct stats_judge_in in;
		struct stats_judgement jd;
		double lo, hi;

		big_side(&b, &s, 1 + ref_draw(&s, most), n, 100.0, t % 3 == 1 ? 3 : 0, t % 4 == 2);
		big_side(&c, &s, 1 + ref_draw(&s, most), n + t % 2, 100.5, t % 5 == 1 ? 4 : 0,
			 t % 5 == 3);
		memset(&in, 0, sizeof(in));
		in.base.pads = b.pads;
		in.base.npads = b.npads;
		in.candidate.pads = c.pads;
		in.candidate.npads = c.npads;
		rule.seed = seeds[t % (sizeof(seeds) / sizeof(seeds[0]))];
		rule.resamples = n > 300 ? 100 : n > 40 ? 500 : STATS_RULE_RESAMPLES;
		assert_int_equal(stats_judge(&rule, &in, &jd), 0);
		assert_true(jd.has_interval);
		ref_interval(&rule, &in, &lo, &hi);
		if (jd.ratio_lo != lo || jd.ratio_hi != hi)
			print_message("# n %zu pads %zu/%zu seed %llu: [%a, %a], reference [%a, %a]\n",
				      n, b.npads, c.npads, (unsigned long long)rule.seed,
				      jd.ratio_lo, jd.ratio_hi, lo, hi);
		assert_true(jd.ratio_lo == lo);
		assert_true(jd.ratio_hi == hi);
		compared++;
	}
	return compared;
}

PLUMB_TEST(rule_bootstrap_is_the_reference_bit_for_bit)
{
	assert_int_equal(paths_against_reference(),
			 3 * (int)(sizeof(path_rounds) / sizeof(path_rounds[0])));
}

/*
 * The replicates are shared among threads, one per CPU the process may
 * use, each starting from its replicate's own state: on one CPU (the
 * calling thread alone) the intervals are the reference's as well.
 */
PLUMB_TEST(rule_bootstrap_on_one_cpu_is_the_reference_bit_for_bit)
{
	cpu_set_t all, one;
	int compared;

	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, &one);
			break;
		}
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	compared = paths_against_reference();
	assert_int_equal(sched_setaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(compared, 3 * (int)(sizeof(path_rounds) / sizeof(path_rounds[0])));
}
