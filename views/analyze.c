/*
 * views/analyze.c: text and JSON renderings of an analysis; see analyze.h.
 *
 * Numbers that a reader may compare or feed on (medians, ranges, ratios)
 * are printed exactly (common/units.h) in JSON; the text rounds only the
 * ratio, spread, noise and tolerance, which are read by eye.  Names come
 * from samples.tsv: the text escapes them (common/escape.h).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "stats/analysis.h"
#include "views/analyze.h"
#include "common/banned.h"

/* Output with a sticky failure flag, so rendering need not check each call. */
struct out {
	struct buf *b;
	int failed;
};

static void oprintf(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void oprintf(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (buf_vprintf(o->b, fmt, ap) < 0)
		o->failed = 1;
	va_end(ap);
}

static void oaddch(struct out *o, char c)
{
	if (buf_addch(o->b, c) < 0)
		o->failed = 1;
}

static void oaddstr(struct out *o, const char *s)
{
	if (buf_addstr(o->b, s) < 0)
		o->failed = 1;
}

/* An untrusted string (a name from samples.tsv), escaped for a terminal. */
static void oesc(struct out *o, const char *s)
{
	if (esc_text(o->b, s) < 0)
		o->failed = 1;
}

/* --- aligned text tables --- */

#define CELL 48
#define MAX_COLS 14

struct table {
	size_t ncols;
	const char *align;       /* 'l' or 'r' per column */
	char (*cells)[CELL];
	size_t nrows, cap;
	int oom;
};

static void table_init(struct table *t, size_t ncols, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->align = align;
}

/* Add a row of ncols strings. */
static void table_row(struct table *t, ...)
{
	va_list ap;

	if (t->oom)
		return;
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		char (*c)[CELL] = realloc(t->cells, cap * t->ncols * sizeof(*c));
		if (!c) {
			t->oom = 1;
			return;
		}
		t->cells = c;
		t->cap = cap;
	}
	va_start(ap, t);
	for (size_t i = 0; i < t->ncols; i++)
		snprintf(t->cells[t->nrows * t->ncols + i], CELL, "%s", va_arg(ap, const char *));
	va_end(ap);
	t->nrows++;
}

/* Print the rows indented by `indent` spaces, columns two spaces apart. */
static void table_print(struct table *t, struct out *out, int indent)
{
	size_t width[MAX_COLS] = { 0 };

	if (t->oom) {
		oprintf(out, "%*s(out of memory)\n", indent, "");
		return;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++) {
			size_t w = strlen(t->cells[r * t->ncols + c]);
			if (w > width[c])
				width[c] = w;
		}
	for (size_t r = 0; r < t->nrows; r++) {
		size_t start = out->b->len;
		oprintf(out, "%*s", indent, "");
		for (size_t c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			int w = (int)width[c];
			if (t->align[c] == 'r')
				oprintf(out, "%s%*s", c ? "  " : "", w, s);
			else
				oprintf(out, "%s%-*s", c ? "  " : "", w, s);
		}
		/* No trailing blanks from a left-aligned last column. */
		while (out->b->len > start && out->b->data[out->b->len - 1] == ' ')
			out->b->len--;
		oaddch(out, '\n');
	}
}

static void table_release(struct table *t)
{
	free(t->cells);
	t->cells = NULL;
}

/* Small formatting helpers writing into caller cells. */
static const char *num(char *c, double v)
{
	units_exact(v, UNITS_EXACT_PLAIN, c);
	return c;
}

static const char *uint_s(char *c, unsigned long long v)
{
	snprintf(c, CELL, "%llu", v);
	return c;
}

static const char *pct(char *c, double v)
{
	snprintf(c, CELL, "%.2f%%", v * 100);
	return c;
}

/* The steady column: found, none, too-short (auto), fixed, cold (none). */
static const char *steady_name(const struct stats_warmup_result *w)
{
	switch (w->kind) {
	case STATS_WARMUP_AUTO: return stats_steady_status_name(w->detect.status);
	case STATS_WARMUP_FIXED: return "fixed";
	case STATS_WARMUP_NONE: return "cold";
	}
	return "?";
}

static void text_warmup(const struct analysis_opts *o, struct out *out)
{
	switch (o->warmup.kind) {
	case STATS_WARMUP_AUTO:
		oprintf(out, "warmup auto, window %zu, tolerance %.2f%%", o->warmup.window,
			o->warmup.tolerance * 100);
		break;
	case STATS_WARMUP_FIXED:
		oprintf(out, "warmup %zu samples discarded", o->warmup.discard);
		break;
	case STATS_WARMUP_NONE:
		oprintf(out, "warmup none (cold: every sample kept)");
		break;
	}
}

static const struct stats_side_judged *judged_side(const struct stats_judgement *jd, int side)
{
	if (jd->reason == STATS_REASON_MISSING && jd->verdict == STATS_VERDICT_INSUFFICIENT)
		return NULL;
	if (side == ANALYSIS_BASE)
		return &jd->base;
	if (side == ANALYSIS_CANDIDATE)
		return &jd->candidate;
	return jd->has_control ? &jd->control : NULL;
}

/* The rule, ratio with its interval, noise, verdict and power of a result. */
static void judgement_text(struct out *out, const struct analysis_result *res)
{
	const struct stats_judgement *jd = &res->judge;
	const struct stats_rule *ru = &jd->rule;
	int margin = ru->kind == STATS_RULE_MARGIN;

	if (margin)
		oprintf(out, "  rule     margin v%d (pad intervals at %.0f%%, noise factor %g; "
			"a range is the union of its pads' intervals)\n", ru->version,
			ru->confidence * 100, ru->noise_factor);
	else
		oprintf(out, "  rule     overlap v%d (ranges of the pad medians)\n", ru->version);
	if (jd->has_ratio) {
		oprintf(out, "  ratio    %.4f (candidate center / base center)", jd->ratio);
		if (jd->has_interval)
			oprintf(out, ", %.0f%% interval %.4f to %.4f (bootstrap over pads and "
				"rounds, %u resamples, seed %llu)", ru->confidence * 100,
				jd->ratio_lo, jd->ratio_hi, ru->resamples,
				(unsigned long long)ru->seed);
		oprintf(out, "\n");
	} else {
		oprintf(out, "  ratio    -\n");
	}
	if (margin && jd->has_noise) {
		oprintf(out, "  noise    %.2f%% of the base center (round to round %.2f%%",
			jd->noise * 100, jd->noise_rounds * 100);
		if (jd->has_control_noise)
			oprintf(out, ", control %.2f%%", jd->noise_control * 100);
		else
			oprintf(out, ", no control");
		oprintf(out, ")\n");
	} else if (!margin && jd->has_noise) {
		oprintf(out, "  noise    %.2f%% of the base center (%s half the base spread, "
			"%.2f%%%s)\n", jd->noise * 100,
			jd->noisy ? "noisy: more than" : "not noisy: at most",
			jd->noise_limit * 100,
			jd->noisy ? "; the host is too noisy for this benchmark" : "");
	} else if (!margin && res->side[ANALYSIS_CONTROL].npads &&
		   res->side[ANALYSIS_BASE].npads) {
		oprintf(out, "  noise    - (no base pad 0 to compare the control with)\n");
	} else if (!margin) {
		oprintf(out, "  noise    - (no control measured)\n");
	} else {
		oprintf(out, "  noise    -\n");
	}
	oprintf(out, "  verdict  %s", stats_verdict_name(jd->verdict));
	switch (jd->verdict) {
	case STATS_VERDICT_UNSWEPT:
		oprintf(out, " (%s; %s, so placement is not ruled out)",
			stats_direction_name(jd->direction),
			res->side[ANALYSIS_BASE].npads == 1 || res->side[ANALYSIS_CANDIDATE].npads == 1
			? "a side has one pad" : "too few pads");
		break;
	case STATS_VERDICT_INSUFFICIENT:
		oprintf(out, ": %s", jd->why);
		break;
	case STATS_VERDICT_NOISY:
		oprintf(out, ": the ranges are %.2f%% apart (%s), within the noise %.2f%%; "
			"the host is too noisy to tell", jd->gap * 100,
			stats_direction_name(jd->direction), jd->margin * 100);
		break;
	case STATS_VERDICT_PLACEMENT:
		if (jd->reason == STATS_REASON_OVERLAP)
			oprintf(out, ": ranges overlap");
		else
			oprintf(out, ": %s (%s by %.2f%%)", stats_reason_name(jd->reason),
				stats_direction_name(jd->direction), jd->gap * 100);
		break;
	case STATS_VERDICT_SLOWER:
	case STATS_VERDICT_FASTER:
		if (margin)
			oprintf(out, ": ranges %.2f%% apart, beyond the noise %.2f%%",
				jd->gap * 100, jd->margin * 100);
		break;
	}
	oprintf(out, "\n");
	if (jd->has_detectable)
		oprintf(out, "  power    the rule calls a change of +%.2f%% (slower) or -%.2f%% "
			"(faster); smaller ones cannot be told from placement%s here\n",
			jd->detect_slower * 100, jd->detect_faster * 100,
			margin ? " and noise" : "");
}


static void text_result(const struct analysis *a, const struct analysis_result *res,
			struct out *out)
{
	const struct analysis_opts *o = analysis_options(a);
	struct table t;
	char c[MAX_COLS][CELL];

	oesc(out, res->bench);
	oaddstr(out, "  ");
	oesc(out, res->metric);
	oaddstr(out, "  (");
	if (res->mode == ANALYSIS_SAMPLES) {
		oprintf(out, "samples mode: per-iteration; ");
		text_warmup(o, out);
	} else {
		oprintf(out, "process mode: one value per round");
	}
	oprintf(out, ")\n");

	if (res->mode == ANALYSIS_SAMPLES) {
		oprintf(out, "  rounds\n");
		table_init(&t, 13, "lrrrlrrrrrrrr");
		table_row(&t, "side", "pad", "round", "n", "steady", "start", "kept", "tolerance",
			  "median", "p99", "max", "co_n", "co_p99");
		for (int s = 0; s < ANALYSIS_SIDES; s++) {
			const struct analysis_side_result *sr = &res->side[s];
			for (size_t p = 0; p < sr->npads; p++) {
				const struct analysis_pad *pad = &sr->pads[p];
				for (size_t r = 0; r < pad->nrounds; r++) {
					const struct analysis_round *rd = &pad->rounds[r];
					const struct analysis_iter *it = rd->iter;
					const char *tol = "-";
					if (it->warm.kind == STATS_WARMUP_AUTO &&
					    it->warm.detect.status != STATS_STEADY_TOO_SHORT)
						tol = pct(c[7], it->warm.detect.tolerance_eff);
					table_row(&t, analysis_side_name((enum analysis_side)s),
						  uint_s(c[1], pad->pad), uint_s(c[2], rd->round),
						  uint_s(c[3], it->n_raw), steady_name(&it->warm),
						  uint_s(c[5], it->warm.start), uint_s(c[6], it->n), tol,
						  num(c[8], rd->value), num(c[9], it->p99),
						  num(c[10], it->max),
						  it->co_capped ? (snprintf(c[11], CELL, "%zu (capped)",
									    it->co_n), c[11])
								: uint_s(c[11], it->co_n),
						  num(c[12], it->co_p99));
				}
			}
		}
		table_print(&t, out, 4);
		table_release(&t);
	}

	oprintf(out, "  pads%s\n", res->mode == ANALYSIS_SAMPLES ?
		" (medians over rounds)" : " (median over rounds)");
	if (res->mode == ANALYSIS_SAMPLES) {
		table_init(&t, 6, "lrrrrr");
		table_row(&t, "side", "pad", "rounds", "median", "p99", "co_p99");
	} else {
		table_init(&t, 4, "lrrr");
		table_row(&t, "side", "pad", "rounds", "median");
	}
	for (int s = 0; s < ANALYSIS_SIDES; s++) {
		const struct analysis_side_result *sr = &res->side[s];
		for (size_t p = 0; p < sr->npads; p++) {
			const struct analysis_pad *pad = &sr->pads[p];
			table_row(&t, analysis_side_name((enum analysis_side)s),
				  uint_s(c[1], pad->pad), uint_s(c[2], pad->nrounds),
				  num(c[3], pad->median), num(c[4], pad->p99),
				  num(c[5], pad->co_p99));
		}
	}
	table_print(&t, out, 4);
	table_release(&t);

	oprintf(out, "  sides (over pad medians)\n");
	table_init(&t, 8, "lrrrrrrr");
	table_row(&t, "side", "pads", "center", "min", "max", "spread", "range lo", "range hi");
	for (int s = 0; s < ANALYSIS_SIDES; s++) {
		const struct analysis_side_result *sr = &res->side[s];
		const struct stats_side *sum = &sr->summary;
		const struct stats_side_judged *js = judged_side(&res->judge, s);
		if (sr->npads == 0) {
			if (s != ANALYSIS_CONTROL)
				table_row(&t, analysis_side_name((enum analysis_side)s), "0", "-",
					  "-", "-", "-", "-", "-");
			continue;
		}
		table_row(&t, analysis_side_name((enum analysis_side)s), uint_s(c[1], sr->npads),
			  num(c[2], sum->center), num(c[3], sum->min), num(c[4], sum->max),
			  sum->has_spread ? pct(c[5], sum->spread) : "-",
			  js ? num(c[6], js->lo) : "-", js ? num(c[7], js->hi) : "-");
	}
	table_print(&t, out, 4);
	table_release(&t);

	judgement_text(out, res);
	if (res->unsteady_rounds) {
		size_t total = 0;
		for (int s = 0; s < ANALYSIS_SIDES; s++)
			for (size_t p = 0; p < res->side[s].npads; p++)
				total += res->side[s].pads[p].nrounds;
		oprintf(out, "  steady   %zu of %zu rounds never reached a steady state "
			"(reported over all their samples)\n", res->unsteady_rounds, total);
	}
}

int analysis_render_text(const struct analysis *a, const char *source,
			 struct buf *b, struct plumb_err *err)
{
	struct out o = { .b = b, .failed = 0 }, *out = &o;
	size_t n = analysis_count(a);

	oesc(out, source);
	oprintf(out, ": %llu row%s, %zu benchmark%s and metric%s\n",
		(unsigned long long)analysis_rows(a), analysis_rows(a) == 1 ? "" : "s",
		n, n == 1 ? "" : "s", n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		oaddch(out, '\n');
		text_result(a, analysis_get(a, i), out);
	}
	if (o.failed)
		return buf_err(err, "analysis text");
	return 0;
}

/* --- JSON --- */

#define JW_DEPTH 16

struct jw {
	struct out *o;
	int depth;
	int first[JW_DEPTH];
	int inline_from;         /* depth from which members share one line; 0: none */
};

static void jw_nl(struct jw *j)
{
	oaddch(j->o, '\n');
	for (int i = 0; i < j->depth; i++)
		oaddstr(j->o, "  ");
}

/* Before a member or an element: the comma, the newline, the indent. */
static void jw_pre(struct jw *j)
{
	int inl = j->inline_from && j->depth >= j->inline_from;

	if (!j->first[j->depth])
		oaddstr(j->o, inl ? ", " : ",");
	j->first[j->depth] = 0;
	if (!inl)
		jw_nl(j);
}

static void jw_open(struct jw *j, char c)
{
	assert(j->depth + 1 < JW_DEPTH);
	oaddch(j->o, c);
	j->depth++;
	j->first[j->depth] = 1;
}

/* Open an object whose members all go on the current line. */
static void jw_open_inline(struct jw *j, char c)
{
	jw_open(j, c);
	j->inline_from = j->depth;
}

static void jw_close(struct jw *j, char c)
{
	int empty = j->first[j->depth];
	int inl = j->inline_from && j->depth >= j->inline_from;

	if (j->inline_from == j->depth)
		j->inline_from = 0;
	j->depth--;
	if (!empty && !inl)
		jw_nl(j);
	oaddch(j->o, c);
}

static void jw_string(struct jw *j, const char *s)
{
	oaddch(j->o, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			oprintf(j->o, "\\%c", ch);
		else if (ch < 0x20)
			oprintf(j->o, "\\u%04x", ch);
		else
			oaddch(j->o, (char)ch);
	}
	oaddch(j->o, '"');
}

static void jw_key(struct jw *j, const char *k)
{
	jw_pre(j);
	jw_string(j, k);
	oaddstr(j->o, ": ");
}

static void jw_kstr(struct jw *j, const char *k, const char *v)
{
	jw_key(j, k);
	if (v)
		jw_string(j, v);
	else
		oaddstr(j->o, "null");
}

static void jw_knum(struct jw *j, const char *k, double v)
{
	char c[UNITS_EXACT_MAX];
	jw_key(j, k);
	units_exact(v, UNITS_EXACT_PLAIN, c);   /* "null" for a non-finite value */
	oaddstr(j->o, c);
}

static void jw_kuint(struct jw *j, const char *k, unsigned long long v)
{
	jw_key(j, k);
	oprintf(j->o, "%llu", v);
}

static void jw_kbool(struct jw *j, const char *k, int v)
{
	jw_key(j, k);
	oaddstr(j->o, v ? "true" : "false");
}

static void jw_knull(struct jw *j, const char *k)
{
	jw_key(j, k);
	oaddstr(j->o, "null");
}

static void json_round(struct jw *j, const struct analysis_round *rd)
{
	const struct analysis_iter *it = rd->iter;

	jw_pre(j);
	jw_open_inline(j, '{');
	jw_kuint(j, "round", rd->round);
	if (!it) {
		jw_knum(j, "value", rd->value);
		jw_close(j, '}');
		return;
	}
	jw_kuint(j, "n_raw", it->n_raw);
	jw_kstr(j, "steady", steady_name(&it->warm));
	jw_kuint(j, "start", it->warm.start);
	jw_kuint(j, "n", it->n);
	if (it->warm.kind == STATS_WARMUP_AUTO) {
		jw_kuint(j, "window", it->warm.detect.window);
		if (it->warm.detect.status == STATS_STEADY_TOO_SHORT)
			jw_knull(j, "tolerance");
		else
			jw_knum(j, "tolerance", it->warm.detect.tolerance_eff);
	} else {
		jw_knull(j, "window");
		jw_knull(j, "tolerance");
	}
	jw_knum(j, "median", rd->value);
	jw_knum(j, "p99", it->p99);
	jw_knum(j, "max", it->max);
	jw_knum(j, "co_expected", it->co_expected);
	jw_kuint(j, "co_n", it->co_n);
	jw_knum(j, "co_p99", it->co_p99);
	jw_kbool(j, "co_capped", it->co_capped);
	jw_close(j, '}');
}

static void json_side(struct jw *j, const char *name, const struct analysis_side_result *sr,
		      const struct stats_side_judged *js,
		      enum analysis_mode mode)
{
	if (sr->npads == 0) {
		jw_knull(j, name);
		return;
	}
	jw_key(j, name);
	jw_open(j, '{');
	jw_key(j, "pads");
	jw_open(j, '[');
	for (size_t p = 0; p < sr->npads; p++) {
		const struct analysis_pad *pad = &sr->pads[p];
		jw_pre(j);
		jw_open(j, '{');
		jw_kuint(j, "pad", pad->pad);
		jw_kuint(j, "rounds", pad->nrounds);
		jw_knum(j, "median", pad->median);
		if (mode == ANALYSIS_SAMPLES) {
			jw_knum(j, "p99", pad->p99);
			jw_knum(j, "co_p99", pad->co_p99);
		}
		jw_key(j, "per_round");
		jw_open(j, '[');
		for (size_t r = 0; r < pad->nrounds; r++)
			json_round(j, &pad->rounds[r]);
		jw_close(j, ']');
		jw_close(j, '}');
	}
	jw_close(j, ']');
	jw_knum(j, "center", sr->summary.center);
	jw_knum(j, "min", sr->summary.min);
	jw_knum(j, "max", sr->summary.max);
	if (sr->summary.has_spread)
		jw_knum(j, "spread", sr->summary.spread);
	else
		jw_knull(j, "spread");
	jw_kuint(j, "min_rounds", sr->summary.min_rounds);
	if (js) {
		jw_knum(j, "range_lo", js->lo);
		jw_knum(j, "range_hi", js->hi);
		jw_knum(j, "coverage", js->level);
	}
	jw_close(j, '}');
}

static void jw_kint_or_null(struct jw *j, const char *k, int has, double v)
{
	if (has)
		jw_knum(j, k, v);
	else
		jw_knull(j, k);
}

static void judgement_json(struct jw *j, const struct analysis_result *res)
{
	const struct stats_judgement *jd = &res->judge;
	const struct stats_rule *ru = &jd->rule;

	jw_key(j, "rule");
	jw_open(j, '{');
	jw_kstr(j, "name", stats_rule_name(ru->kind));
	jw_kuint(j, "version", (unsigned long long)ru->version);
	jw_knum(j, "confidence", ru->confidence);
	jw_knum(j, "noise_factor", ru->noise_factor);
	jw_kuint(j, "resamples", ru->resamples);
	jw_kuint(j, "seed", ru->seed);
	jw_close(j, '}');
	jw_kint_or_null(j, "ratio", jd->has_ratio, jd->ratio);
	if (jd->has_interval) {
		jw_key(j, "interval");
		jw_open(j, '{');
		jw_knum(j, "lo", jd->ratio_lo);
		jw_knum(j, "hi", jd->ratio_hi);
		jw_close(j, '}');
	} else {
		jw_knull(j, "interval");
	}
	jw_kstr(j, "verdict", stats_verdict_name(jd->verdict));
	jw_kstr(j, "direction", stats_direction_name(jd->direction));
	jw_kstr(j, "reason", jd->why[0] ? jd->why :
		jd->reason == STATS_REASON_NONE ? NULL : stats_reason_name(jd->reason));
	jw_kint_or_null(j, "gap", jd->has_ratio, jd->gap);
	if (jd->has_noise) {
		jw_key(j, "noise");
		jw_open(j, '{');
		jw_knum(j, "value", jd->noise);
		jw_knum(j, "rounds", jd->noise_rounds);
		jw_kint_or_null(j, "control", jd->has_control_noise, jd->noise_control);
		if (ru->kind == STATS_RULE_MARGIN)
			jw_knum(j, "margin", jd->margin);
		else
			jw_knum(j, "limit", jd->noise_limit);
		jw_kbool(j, "noisy", jd->noisy);
		jw_close(j, '}');
	} else {
		jw_knull(j, "noise");
	}
	if (jd->has_detectable) {
		jw_key(j, "detectable");
		jw_open(j, '{');
		jw_knum(j, "slower", jd->detect_slower);
		jw_knum(j, "faster", jd->detect_faster);
		jw_knum(j, "value", jd->detectable);
		jw_close(j, '}');
	} else {
		jw_knull(j, "detectable");
	}
}

int analysis_render_json(const struct analysis *a, const char *source,
			 struct buf *b, struct plumb_err *err)
{
	const struct analysis_opts *o = analysis_options(a);
	struct out out = { .b = b, .failed = 0 };
	struct jw j = { .o = &out, .depth = 0 };
	size_t n = analysis_count(a);

	j.first[0] = 1;
	jw_open(&j, '{');
	jw_kstr(&j, "format", "plumb-analyze");
	jw_kuint(&j, "version", 1);
	jw_kstr(&j, "source", source);
	jw_kuint(&j, "rows", analysis_rows(a));
	jw_key(&j, "warmup");
	jw_open(&j, '{');
	jw_kstr(&j, "policy", stats_warmup_kind_name(o->warmup.kind));
	if (o->warmup.kind == STATS_WARMUP_FIXED)
		jw_kuint(&j, "discard", o->warmup.discard);
	else
		jw_knull(&j, "discard");
	jw_kuint(&j, "window", o->warmup.window);
	jw_knum(&j, "tolerance", o->warmup.tolerance);
	jw_close(&j, '}');
	jw_kuint(&j, "co_cap", o->co_cap);
	jw_key(&j, "results");
	jw_open(&j, '[');
	for (size_t i = 0; i < n; i++) {
		const struct analysis_result *res = analysis_get(a, i);
		jw_pre(&j);
		jw_open(&j, '{');
		jw_kstr(&j, "bench", res->bench);
		jw_kstr(&j, "metric", res->metric);
		jw_kstr(&j, "mode", res->mode == ANALYSIS_SAMPLES ? "samples" : "process");
		jw_key(&j, "sides");
		jw_open(&j, '{');
		for (int s = 0; s < ANALYSIS_SIDES; s++)
			json_side(&j, analysis_side_name((enum analysis_side)s), &res->side[s],
				  judged_side(&res->judge, s),
				  res->mode);
		jw_close(&j, '}');
		judgement_json(&j, res);
		jw_kuint(&j, "unsteady_rounds", res->unsteady_rounds);
		jw_close(&j, '}');
	}
	jw_close(&j, ']');
	jw_close(&j, '}');
	oaddch(&out, '\n');
	if (out.failed)
		return buf_err(err, "analysis JSON");
	return 0;
}
