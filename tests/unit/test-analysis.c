/*
 * tests/unit/test-analysis.c: stats/analysis (rows in, per-benchmark
 * figures and verdicts out) and its rules on what rows may say.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/samples.h"
#include "stats/analysis.h"
#include "views/analyze.h"
#include "common/banned.h"

static int add(struct analysis *a, const char *bench, const char *metric,
	       enum analysis_side side, uint32_t pad, uint32_t round, uint64_t iter,
	       double value, struct plumb_err *err)
{
	return analysis_add(a, bench, strlen(bench), metric, strlen(metric), side, pad,
			    round, iter, value, err);
}

/* Three rounds whose median is v: v - d, v, v + d, in a scrambled order. */
static void add_pad(struct analysis *a, const char *bench, enum analysis_side side,
		    uint32_t pad, double v, struct plumb_err *err)
{
	assert_int_equal(add(a, bench, "wall", side, pad, 2, ANALYSIS_ITER_NONE, v + 0.001, err), 0);
	assert_int_equal(add(a, bench, "wall", side, pad, 0, ANALYSIS_ITER_NONE, v, err), 0);
	assert_int_equal(add(a, bench, "wall", side, pad, 1, ANALYSIS_ITER_NONE, v - 0.001, err), 0);
}

PLUMB_TEST(analysis_alloc_table_process_mode)
{
	static const double base[] = { 1.003, 0.978, 0.974, 0.977 };
	struct plumb_err err;
	struct analysis *a;
	const struct analysis_result *res;

	plumb_err_clear(&err);
	a = analysis_new(NULL, &err);
	assert_non_null(a);
	/* Interleaved on purpose: the candidate first, pads out of order. */
	add_pad(a, "alloc", ANALYSIS_CANDIDATE, 0, 0.975, &err);
	for (int p = 3; p >= 0; p--)
		add_pad(a, "alloc", ANALYSIS_BASE, (uint32_t)p, base[p], &err);
	add_pad(a, "alloc", ANALYSIS_CONTROL, 0, 1.000, &err);
	add_pad(a, "aaa", ANALYSIS_BASE, 0, 2.0, &err);
	assert_int_equal(analysis_rows(a), 21);
	assert_int_equal(analysis_finish(a, &err), 0);
	assert_int_equal(analysis_count(a), 2);

	res = analysis_get(a, 0);       /* sorted: "aaa" before "alloc" */
	assert_string_equal(res->bench, "aaa");
	assert_int_equal(res->judge.verdict, VERDICT_INSUFFICIENT);
	assert_string_equal(res->judge.why, "no candidate samples");
	assert_false(res->judge.has_ratio);

	res = analysis_get(a, 1);
	assert_string_equal(res->bench, "alloc");
	assert_string_equal(res->metric, "wall");
	assert_int_equal(res->mode, ANALYSIS_PROCESS);
	assert_int_equal(res->side[ANALYSIS_BASE].npads, 4);
	for (uint32_t p = 0; p < 4; p++) {
		const struct analysis_pad *pad = &res->side[ANALYSIS_BASE].pads[p];
		assert_int_equal(pad->pad, p);
		assert_int_equal(pad->nrounds, 3);
		assert_true(pad->median == base[p]);
		for (uint32_t r = 0; r < 3; r++)
			assert_int_equal(pad->round[r], r);
		assert_null(pad->iter);
		assert_true(pad->value[0] == base[p]);
	}
	assert_true(res->side[ANALYSIS_BASE].summary.center == 0.9775);
	assert_true(res->side[ANALYSIS_BASE].summary.min == 0.974);
	assert_true(res->side[ANALYSIS_BASE].summary.max == 1.003);
	assert_int_equal(res->side[ANALYSIS_CANDIDATE].npads, 1);
	assert_true(res->side[ANALYSIS_CANDIDATE].summary.center == 0.975);
	/* The default rule (shift v3) cannot call 4 pads against 1 at 99%. */
	assert_int_equal(res->judge.verdict, VERDICT_UNSWEPT);
	assert_true(res->judge.ratio == 0.975 / 0.9775);
	assert_string_equal(res->judge.why, "4+1 pads can reach 60% at most, not 99%");
	assert_true(res->judge.has_control_noise);
	assert_true(fabs(res->judge.noise_control - 0.003 / 0.9775) < 1e-12);
	assert_false(res->judge.noisy);
	analysis_free(a);
}

PLUMB_TEST(analysis_insufficient_names_the_pad)
{
	struct plumb_err err;
	struct analysis *a = analysis_new(NULL, &err);
	const struct analysis_result *res;

	for (uint32_t p = 0; p < 4; p++)
		add_pad(a, "b", ANALYSIS_BASE, p, 1.0 + p * 0.01, &err);
	for (uint32_t p = 0; p < 4; p++)
		add_pad(a, "b", ANALYSIS_CANDIDATE, p, 2.0 + p * 0.01, &err);
	/* Pad 5 of the candidate has two rounds. */
	assert_int_equal(add(a, "b", "wall", ANALYSIS_CANDIDATE, 5, 0, ANALYSIS_ITER_NONE, 2, &err), 0);
	assert_int_equal(add(a, "b", "wall", ANALYSIS_CANDIDATE, 5, 1, ANALYSIS_ITER_NONE, 2, &err), 0);
	assert_int_equal(analysis_finish(a, &err), 0);
	res = analysis_get(a, 0);
	assert_int_equal(res->judge.verdict, VERDICT_INSUFFICIENT);
	assert_string_equal(res->judge.why, "candidate pad 5 has 2 rounds (fewer than 3)");
	assert_true(res->judge.has_ratio);
	assert_int_equal(res->side[ANALYSIS_CANDIDATE].summary.min_rounds, 2);
	analysis_free(a);
}

PLUMB_TEST(analysis_rejects_inconsistent_rows)
{
	struct plumb_err err;
	struct analysis *a;

	plumb_err_clear(&err);
	a = analysis_new(NULL, &err);
	assert_int_equal(add(a, "b", "wall", ANALYSIS_BASE, 0, 1, ANALYSIS_ITER_NONE, 1, &err), 0);
	assert_int_equal(add(a, "b", "wall", ANALYSIS_BASE, 0, 1, ANALYSIS_ITER_NONE, 1, &err),
			 PLUMB_EINPUT);
	assert_string_equal(err.msg, "column 'iter': a second '-' row for bench 'b' metric 'wall' "
			    "side base pad 0 round 1 (one value per round)");
	/* Failed for good. */
	assert_int_equal(add(a, "c", "wall", ANALYSIS_BASE, 0, 1, ANALYSIS_ITER_NONE, 1, &err),
			 PLUMB_EINPUT);
	assert_int_equal(analysis_finish(a, &err), PLUMB_EINPUT);
	analysis_free(a);

	a = analysis_new(NULL, &err);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_BASE, 0, 1, 0, 1, &err), 0);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_BASE, 0, 2, ANALYSIS_ITER_NONE, 1, &err),
			 PLUMB_EINPUT);
	assert_string_equal(err.msg, "column 'iter': '-' in bench 'b' metric 'ns', whose other "
			    "rows are per-iteration samples");
	analysis_free(a);

	a = analysis_new(NULL, &err);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_BASE, 0, 1, ANALYSIS_ITER_NONE, 1, &err), 0);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_CANDIDATE, 0, 1, 0, 1, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "column 'iter': iteration 0 in bench 'b' metric 'ns', whose "
			    "other rows have '-' (one value per round)");
	analysis_free(a);

	a = analysis_new(NULL, &err);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_BASE, 0, 1, 0, 1, &err), 0);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_BASE, 0, 1, 1, 1, &err), 0);
	assert_int_equal(add(a, "b", "ns", ANALYSIS_BASE, 0, 1, 3, 1, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "column 'iter': 3 out of order for bench 'b' metric 'ns' "
			    "side base pad 0 round 1 (expected 2: iterations are numbered 0, 1, "
			    "2, ... in order)");
	analysis_free(a);

	a = analysis_new(NULL, &err);
	assert_int_equal(analysis_finish(a, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "no samples (a header row but no data rows)");
	analysis_free(a);
}

/* Samples mode: 3 rounds x 2 pads per side, 1000 samples at 42 with a stall. */
static void add_samples_round(struct analysis *a, enum analysis_side side, uint32_t pad,
			      uint32_t round, double level, double stall, struct plumb_err *err)
{
	for (uint64_t i = 0; i < 1000; i++) {
		double v = i == 500 ? stall : level;
		assert_int_equal(add(a, "codec", "ns", side, pad, round, i, v, err), 0);
	}
}

PLUMB_TEST(analysis_samples_mode_figures)
{
	struct analysis_opts o;
	struct plumb_err err;
	struct analysis *a;
	const struct analysis_result *res;
	const struct analysis_iter *it;

	plumb_err_clear(&err);
	analysis_opts_default(&o);
	a = analysis_new(&o, &err);
	/* Rounds interleaved across sides and pads, as a runner would. */
	for (uint32_t r = 0; r < 3; r++)
		for (uint32_t p = 0; p < 2; p++) {
			add_samples_round(a, ANALYSIS_BASE, p, r, 42 + p, 4242, &err);
			add_samples_round(a, ANALYSIS_CANDIDATE, p, r, 50 + p, 42, &err);
		}
	assert_int_equal(analysis_finish(a, &err), 0);
	res = analysis_get(a, 0);
	assert_int_equal(res->mode, ANALYSIS_SAMPLES);
	it = &res->side[ANALYSIS_BASE].pads[0].iter[0];
	assert_non_null(it);
	assert_int_equal(it->n_raw, 1000);
	/* A flat series: steady from the second window; the stall is kept. */
	assert_int_equal(it->warm.detect.status, STATS_STEADY_FOUND);
	assert_int_equal(it->warm.start, 30);
	assert_int_equal(it->n, 970);
	assert_true(res->side[ANALYSIS_BASE].pads[0].value[0] == 42);
	assert_true(it->p99 == 42);
	assert_true(it->max == 4242);
	assert_true(it->co_expected == 42);
	/* 4242 backfills 4200, 4158, ..., 42: 100 samples. */
	assert_int_equal(it->co_n, 970 + 100);
	/* Rank floor(0.99 * 1069) = 1058.  Ranks 0..969 hold 42 (969 raw, one
	 * backfilled), then 84, 126, ...: rank r holds 42 * (r - 968) = 3780. */
	assert_true(it->co_p99 == 3780);
	assert_true(res->side[ANALYSIS_BASE].pads[0].co_p99 == 3780);
	assert_true(res->side[ANALYSIS_BASE].pads[1].median == 43);
	assert_true(res->side[ANALYSIS_BASE].summary.center == 42.5);
	assert_true(res->side[ANALYSIS_CANDIDATE].summary.min == 50);
	/* Two pads each, ranges [42, 43] and [50, 51]: apart, but two sides of
	 * two pads drawn from one placement distribution fall apart one time
	 * in three (2 / C(4, 2)): the margin rule says unswept, the seeds'
	 * overlap rule slower. */
	assert_int_equal(res->judge.verdict, VERDICT_UNSWEPT);
	assert_int_equal(res->judge.direction, STATS_DIR_SLOWER);
	{
		struct stats_rule ov;
		struct stats_judgement jd;
		stats_rule_overlap(&ov);
		assert_int_equal(analysis_judge(res, &ov, STATS_HOT_UNKNOWN, STATS_WORK_UNKNOWN, &jd), 0);
		assert_int_equal(jd.verdict, VERDICT_SLOWER);
	}
	assert_int_equal(res->unsteady_rounds, 0);
	analysis_free(a);

	/* A fixed warmup larger than a round is an error naming the round. */
	o.warmup.kind = STATS_WARMUP_FIXED;
	o.warmup.discard = 1000;
	a = analysis_new(&o, &err);
	add_samples_round(a, ANALYSIS_BASE, 0, 7, 42, 42, &err);
	assert_int_equal(analysis_finish(a, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "bench 'codec' metric 'ns' side base pad 0 round 7: warmup "
			    "1000 discards all 1000 samples");
	analysis_free(a);

	/* Cold mode keeps everything. */
	o.warmup.kind = STATS_WARMUP_NONE;
	a = analysis_new(&o, &err);
	add_samples_round(a, ANALYSIS_BASE, 0, 7, 42, 42, &err);
	assert_int_equal(analysis_finish(a, &err), 0);
	it = &analysis_get(a, 0)->side[ANALYSIS_BASE].pads[0].iter[0];
	assert_int_equal(it->warm.start, 0);
	assert_int_equal(it->n, 1000);
	analysis_free(a);
}

PLUMB_TEST(analysis_renders_text_and_json)
{
	struct plumb_err err;
	struct analysis *a = analysis_new(NULL, &err);
	struct buf out;

	plumb_err_clear(&err);
	add_pad(a, "q\"x", ANALYSIS_BASE, 0, 1, &err);
	add_pad(a, "q\"x", ANALYSIS_CANDIDATE, 0, 2, &err);
	assert_int_equal(analysis_finish(a, &err), 0);
	buf_init(&out, 1 << 20);
	assert_int_equal(analysis_render_json(a, "in.tsv", &out, &err), 0);
	assert_non_null(strstr(buf_cstr(&out), "\"bench\": \"q\\\"x\""));
	assert_non_null(strstr(buf_cstr(&out), "\"verdict\": \"unswept\""));
	assert_non_null(strstr(buf_cstr(&out), "\"direction\": \"slower\""));
	buf_reset(&out);
	assert_int_equal(analysis_render_text(a, "in.tsv", &out, &err), 0);
	assert_non_null(strstr(buf_cstr(&out), "verdict  unswept: 1+1 pads can reach 0% at most"));
	buf_release(&out);
	/* A buffer too small fails cleanly. */
	buf_init(&out, 64);
	assert_int_equal(analysis_render_json(a, "in.tsv", &out, &err), PLUMB_EINPUT);
	buf_release(&out);
	analysis_free(a);
}

/* One row of order_rows(): names by index, so any order can be replayed. */
struct order_row {
	int bench, metric;
	enum analysis_side side;
	uint32_t pad, round;
	double value;
};

static const char *const order_benches[] = { "b", "bb" };
static const char *const order_metrics[] = { "wall", "cpu", "user", "sys", "maxrss" };

/* The JSON of an analysis of rows in this order; names copied into one
 * buffer per row, so every row's names lie at the same address. */
static void order_json(const struct order_row *rows, size_t n, struct buf *out)
{
	struct plumb_err err;
	struct analysis *a;
	char bench[16], metric[16];

	plumb_err_clear(&err);
	a = analysis_new(NULL, &err);
	assert_non_null(a);
	for (size_t i = 0; i < n; i++) {
		const struct order_row *r = &rows[i];
		snprintf(bench, sizeof(bench), "%s", order_benches[r->bench]);
		snprintf(metric, sizeof(metric), "%s", order_metrics[r->metric]);
		assert_int_equal(analysis_add(a, bench, strlen(bench), metric, strlen(metric),
					      r->side, r->pad, r->round, ANALYSIS_ITER_NONE,
					      r->value, &err), 0);
	}
	assert_int_equal(analysis_finish(a, &err), 0);
	buf_reset(out);
	assert_int_equal(analysis_render_json(a, "in.tsv", out, &err), 0);
	analysis_free(a);
}

/*
 * The same rows in the runner's order (a run's metrics in turn, benches
 * taking turns), reversed, and shuffled give the same analysis: the hint
 * of which group comes next only ever saves a lookup.
 */
PLUMB_TEST(analysis_rows_in_any_order_same_results)
{
	enum { ROUNDS = 7, PADS = 2 };
	struct order_row rows[ROUNDS * 2 * PADS * 2 * 5], tmp;
	size_t n = 0;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	struct buf want, got;
	struct plumb_err err;
	struct analysis *a;

	for (uint32_t round = 1; round <= ROUNDS; round++)
		for (int side = 0; side < 2; side++)
			for (uint32_t pad = 0; pad < PADS; pad++)
				for (int bench = 0; bench < 2; bench++)
					for (int metric = 0; metric < 5; metric++) {
						x ^= x << 13, x ^= x >> 7, x ^= x << 17;
						rows[n].bench = bench;
						rows[n].metric = metric;
						rows[n].side = (enum analysis_side)side;
						rows[n].pad = pad;
						rows[n].round = round;
						rows[n].value = (double)(1000 + 100 * side + 10 * bench +
									 metric) + (double)(x % 7);
						n++;
					}
	buf_init(&want, 1 << 22);
	buf_init(&got, 1 << 22);
	order_json(rows, n, &want);
	for (size_t i = 0; i < n / 2; i++) {
		tmp = rows[i];
		rows[i] = rows[n - 1 - i];
		rows[n - 1 - i] = tmp;
	}
	order_json(rows, n, &got);
	assert_string_equal(buf_cstr(&got), buf_cstr(&want));
	for (int k = 0; k < 5; k++) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			j = (size_t)(x % (i + 1));
			tmp = rows[i];
			rows[i] = rows[j];
			rows[j] = tmp;
		}
		order_json(rows, n, &got);
		assert_string_equal(buf_cstr(&got), buf_cstr(&want));
	}
	buf_release(&want);
	buf_release(&got);

	/* A bad row whose group is the hinted one is still refused, as ever. */
	plumb_err_clear(&err);
	a = analysis_new(NULL, &err);
	for (int metric = 0; metric < 5; metric++)
		assert_int_equal(add(a, "b", order_metrics[metric], ANALYSIS_BASE, 0, 1,
				     ANALYSIS_ITER_NONE, 1, &err), 0);
	assert_int_equal(add(a, "b", "wall", ANALYSIS_BASE, 0, 2, ANALYSIS_ITER_NONE, 1, &err), 0);
	assert_int_equal(add(a, "b", "cpu", ANALYSIS_BASE, 0, 1, ANALYSIS_ITER_NONE, 1, &err),
			 PLUMB_EINPUT);
	assert_string_equal(err.msg, "column 'iter': a second '-' row for bench 'b' metric 'cpu' "
			    "side base pad 0 round 1 (one value per round)");
	analysis_free(a);
}

/* Feeding the reader's rows into an analysis, as `plumb analyze` does. */
static int feed_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	return analysis_add(ctx, row->bench, row->bench_len, row->metric, row->metric_len,
			    (enum analysis_side)row->side, row->pad, row->round,
			    row->iter == SAMPLES_ITER_NONE ? ANALYSIS_ITER_NONE : row->iter,
			    row->value, err);
}

/*
 * Mutated tables (flipped, inserted and deleted bytes, split anywhere)
 * either analyse or fail with PLUMB_EINPUT naming the input; never crash
 * (the sanitizer build runs this too).
 */
PLUMB_TEST(analysis_survives_mutated_tables)
{
	static const char seed_text[] =
		SAMPLES_HEADER "\n"
		"b\tbase\t0\t1\t-\twall\t1.5\nb\tbase\t0\t2\t-\twall\t1.25\n"
		"b\tcandidate\t0\t1\t-\twall\t1e3\nb\tcontrol\t0\t1\t-\twall\t7\n"
		"s\tbase\t1\t1\t0\tns\t42\ns\tbase\t1\t1\t1\tns\t43\ns\tbase\t1\t1\t2\tns\t56595\n"
		"s\tcandidate\t1\t1\t0\tns\t40\n";
	static const char alphabet[] = "\t\n-.e0123456789abcdeilnorstw\xc3\xa9\x01";
	unsigned long long x = 20261130;
	char text[512];

	for (int t = 0; t < 3000; t++) {
		size_t len = sizeof(seed_text) - 1, off = 0;
		struct samples_reader r;
		struct plumb_err err;
		struct analysis *a;
		struct buf out;
		int rc, muts;

		memcpy(text, seed_text, len);
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		muts = 1 + (int)((x >> 40) % 4);
		for (int m = 0; m < muts; m++) {
			size_t pos;
			char c;
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			pos = (size_t)((x >> 20) % (len ? len : 1));
			c = alphabet[(x >> 50) % (sizeof(alphabet) - 1)];
			switch ((x >> 60) % 3) {
			case 0:
				if (len)
					text[pos] = c;
				break;
			case 1:
				if (len + 1 < sizeof(text)) {
					memmove(text + pos + 1, text + pos, len - pos);
					text[pos] = c;
					len++;
				}
				break;
			default:
				if (len) {
					memmove(text + pos, text + pos + 1, len - pos - 1);
					len--;
				}
				break;
			}
		}
		plumb_err_clear(&err);
		a = analysis_new(NULL, &err);
		assert_non_null(a);
		rc = samples_reader_init(&r, "m.tsv", NULL, &err);
		assert_int_equal(rc, 0);
		while (rc == 0 && off < len) {
			size_t n;
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			n = 1 + (size_t)((x >> 33) % 40);
			if (n > len - off)
				n = len - off;
			rc = samples_reader_feed(&r, text + off, n, feed_row, a, &err);
			off += n;
		}
		if (rc == 0)
			rc = samples_reader_finish(&r, feed_row, a, &err);
		samples_reader_release(&r);
		if (rc == 0)
			rc = analysis_finish(a, &err);
		if (rc == 0) {
			buf_init(&out, 1 << 20);
			assert_int_equal(analysis_render_text(a, "m.tsv", &out, &err), 0);
			assert_int_equal(analysis_render_json(a, "m.tsv", &out, &err), 0);
			buf_release(&out);
		} else {
			if (rc != PLUMB_EINPUT)
				fail_msg("rc %d: %s", rc, err.msg);
			/* The reader names the input; analysis_finish errors do not. */
			assert_true(strncmp(err.msg, "m.tsv: ", 7) == 0 ||
				    strncmp(err.msg, "no samples", 10) == 0 ||
				    strncmp(err.msg, "bench '", 7) == 0);
		}
		analysis_free(a);
	}
}

/* judge_later: the figures as ever, no judgement until analysis_judge(),
 * which then gives the one the analysis would have given. */
PLUMB_TEST(analysis_judge_later_leaves_the_judgement_to_the_caller)
{
	struct analysis_opts o;
	struct plumb_err err;
	struct analysis *a, *b;
	const struct analysis_result *ra, *rb;
	struct stats_judgement jd;

	plumb_err_clear(&err);
	analysis_opts_default(&o);
	a = analysis_new(&o, &err);
	o.judge_later = 1;
	b = analysis_new(&o, &err);
	assert_non_null(a);
	assert_non_null(b);
	for (uint32_t p = 0; p < 6; p++) {
		add_pad(a, "b", ANALYSIS_BASE, p, 1.0 + p * 0.01, &err);
		add_pad(b, "b", ANALYSIS_BASE, p, 1.0 + p * 0.01, &err);
		add_pad(a, "b", ANALYSIS_CANDIDATE, p, 1.2 + p * 0.01, &err);
		add_pad(b, "b", ANALYSIS_CANDIDATE, p, 1.2 + p * 0.01, &err);
	}
	assert_int_equal(analysis_finish(a, &err), 0);
	assert_int_equal(analysis_finish(b, &err), 0);
	ra = analysis_get(a, 0);
	rb = analysis_get(b, 0);
	assert_int_equal(ra->judge.verdict, VERDICT_SLOWER);
	assert_true(ra->judge.has_interval);
	assert_int_equal(rb->judge.verdict, VERDICT_INSUFFICIENT);
	assert_string_equal(rb->judge.why, "not judged");
	assert_false(rb->judge.has_interval);
	assert_true(rb->side[ANALYSIS_BASE].summary.center == ra->side[ANALYSIS_BASE].summary.center);
	assert_int_equal(analysis_judge(rb, &o.rule, STATS_HOT_UNKNOWN, STATS_WORK_UNKNOWN, &jd), 0);
	assert_int_equal(jd.verdict, ra->judge.verdict);
	assert_true(jd.ratio_lo == ra->judge.ratio_lo && jd.ratio_hi == ra->judge.ratio_hi);
	analysis_free(a);
	analysis_free(b);
}
