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

static void text_result(const struct analysis *a, const struct analysis_result *res,
			struct out *out)
{
	const struct analysis_opts *o = analysis_options(a);
	const struct analysis_side_result *base = &res->side[ANALYSIS_BASE];
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
	table_init(&t, 6, "lrrrrr");
	table_row(&t, "side", "pads", "center", "min", "max", "spread");
	for (int s = 0; s < ANALYSIS_SIDES; s++) {
		const struct analysis_side_result *sr = &res->side[s];
		const struct stats_side *sum = &sr->summary;
		if (sr->npads == 0) {
			if (s != ANALYSIS_CONTROL)
				table_row(&t, analysis_side_name((enum analysis_side)s), "0", "-",
					  "-", "-", "-");
			continue;
		}
		table_row(&t, analysis_side_name((enum analysis_side)s), uint_s(c[1], sr->npads),
			  num(c[2], sum->center), num(c[3], sum->min), num(c[4], sum->max),
			  sum->has_spread ? pct(c[5], sum->spread) : "-");
	}
	table_print(&t, out, 4);
	table_release(&t);

	if (res->verdict.has_ratio)
		oprintf(out, "  ratio    %.4f (candidate center / base center)\n",
			res->verdict.ratio);
	else
		oprintf(out, "  ratio    -\n");
	oprintf(out, "  verdict  %s", stats_verdict_name(res->verdict.verdict));
	if (res->verdict.verdict == STATS_VERDICT_UNSWEPT)
		oprintf(out, " (%s; a side has one pad, so placement is not ruled out)",
			stats_direction_name(res->verdict.direction));
	else if (res->verdict.verdict == STATS_VERDICT_INSUFFICIENT)
		oprintf(out, ": %s", res->reason);
	oprintf(out, "\n");
	if (res->noise.has)
		oprintf(out, "  noise    %.2f%% of the base center (%s half the base spread, "
			"%.2f%%%s)\n", res->noise.noise * 100,
			res->noise.noisy ? "noisy: more than" : "not noisy: at most",
			res->noise.limit * 100,
			res->noise.noisy ? "; the host is too noisy for this benchmark" : "");
	else if (res->side[ANALYSIS_CONTROL].npads && base->npads)
		oprintf(out, "  noise    - (no base pad 0 to compare the control with)\n");
	else
		oprintf(out, "  noise    - (no control measured)\n");
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
	jw_close(j, '}');
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
				  res->mode);
		jw_close(&j, '}');
		if (res->verdict.has_ratio)
			jw_knum(&j, "ratio", res->verdict.ratio);
		else
			jw_knull(&j, "ratio");
		jw_kstr(&j, "verdict", stats_verdict_name(res->verdict.verdict));
		jw_kstr(&j, "direction", stats_direction_name(res->verdict.direction));
		jw_kstr(&j, "reason", res->reason[0] ? res->reason : NULL);
		if (res->noise.has) {
			jw_key(&j, "noise");
			jw_open(&j, '{');
			jw_knum(&j, "value", res->noise.noise);
			jw_knum(&j, "limit", res->noise.limit);
			jw_kbool(&j, "noisy", res->noise.noisy);
			jw_close(&j, '}');
		} else {
			jw_knull(&j, "noise");
		}
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
