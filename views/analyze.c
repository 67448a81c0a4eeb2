/*
 * views/analyze.c: text and JSON renderings of an analysis; see analyze.h.
 *
 * Numbers that a reader may compare or feed on (medians, ranges, ratios)
 * are printed exactly (common/units.h) in JSON; the text rounds only the
 * ratio, spread, noise and tolerance, which are read by eye.  Names come
 * from samples.tsv: the text escapes them (common/escape.h).
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/units.h"
#include "common/utf8.h"
#include "common/metric.h"
#include "formats/csv.h"
#include "formats/jsonio.h"
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

/*
 * The cells of a row are formatted into caller arrays of CELL bytes, as
 * long as the longest of them: a number of any double (units_exact()).
 * The table (common/table.h) copies them and cuts nothing.
 */
#define CELL 320
#define MAX_COLS 13

static void print_table(struct table *t, struct out *out)
{
	if (table_render(t, out->b) < 0)
		out->failed = 1;
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

/* A fraction as a percentage (units_percent()), with its sign when sign: "+9.82%". */
static const char *pct_s(char *c, double v, int sign)
{
	char p[UNITS_MAX];

	units_percent(v, p);
	snprintf(c, UNITS_MAX + 1, "%s%s", sign && v >= 0 && !isnan(v) ? "+" : "", p);
	return c;
}

static const char *pct(char *c, double v)
{
	return pct_s(c, v, 0);
}

/* A ratio (units_ratio()). */
static const char *ratio_s(char *c, double v)
{
	units_ratio(v, c);
	return c;
}

#define PCT_MAX (UNITS_MAX + 1)

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
	char p[PCT_MAX];

	switch (o->warmup.kind) {
	case STATS_WARMUP_AUTO:
		oprintf(out, "warmup auto, window %zu, tolerance %s", o->warmup.window,
			pct(p, o->warmup.tolerance));
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
	if (jd->reason == STATS_REASON_MISSING && jd->verdict == VERDICT_INSUFFICIENT)
		return NULL;
	if (side == ANALYSIS_BASE)
		return &jd->base;
	if (side == ANALYSIS_CANDIDATE)
		return &jd->candidate;
	return jd->has_control ? &jd->control : NULL;
}

/* The shift rule's lines: rule, ratio, shift with its interval, control, verdict, power. */
static void shift_text(struct out *out, const struct analysis_result *res)
{
	const struct stats_judgement *jd = &res->judge;
	const struct stats_rule *ru = &jd->rule;
	size_t nb = res->side[ANALYSIS_BASE].npads, nc = res->side[ANALYSIS_CANDIDATE].npads;
	double m = ru->min_effect;
	char a[PCT_MAX], b[PCT_MAX], c[PCT_MAX], d[PCT_MAX];

	units_level(ru->confidence, b);
	oprintf(out, "  rule     shift v%d (the pad medians of each side as samples%s: exact "
		"Mann-Whitney test, Hodges-Lehmann shift and its %s interval; minimum effect "
		"%s)\n", ru->version, ru->version >= 4 ? ", compared within each batch of "
		"pads measured together" : "", b, pct(a, m));
	if (jd->has_ratio)
		oprintf(out, "  ratio    %s (candidate center / base center)\n", ratio_s(a, jd->ratio));
	else
		oprintf(out, "  ratio    -\n");
	if (jd->has_shift) {
		oprintf(out, "  shift    %s, %s interval %s to %s (%zu pads base, %zu candidate",
			pct_s(a, jd->shift, 1), pct(b, jd->shift_level), pct_s(c, jd->shift_lo, 1),
			pct_s(d, jd->shift_hi, 1), nb, nc);
		if (jd->batches > 1)
			oprintf(out, ", in %zu batches", jd->batches);
		units_p(jd->p, a);
		units_p(jd->p_min, b);
		oprintf(out, "; p = %s, the least these pads allow %s)\n", a, b);
	}
	if (jd->has_control_noise)
		oprintf(out, "  control  %s from base pad 0, %s the base's pads\n",
			pct(a, jd->noise_control), jd->control_outside ? "outside" : "inside");
	oprintf(out, "  verdict  %s", verdict_name(jd->verdict));
	switch (jd->verdict) {
	case VERDICT_SLOWER:
	case VERDICT_FASTER:
		oprintf(out, ": the interval lies wholly %s %s%s", jd->verdict == VERDICT_SLOWER ?
			"above" : "below", pct_s(a, jd->verdict == VERDICT_SLOWER ? m : -m, 1),
			jd->hot_remark ? " (the hot code is identical, but the same work was not "
			"shown: the timing decides)" : "");
		break;
	case VERDICT_UNCHANGED:
		oprintf(out, ": no change larger than \u00b1%s (the interval lies inside it)", pct(a, m));
		break;
	case VERDICT_PLACEMENT:
		if (jd->reason == STATS_REASON_STRADDLES)
			oprintf(out, ": the interval reaches across %s%s",
				jd->shift_lo < -ru->min_effect && jd->shift_hi > ru->min_effect ?
				"\u00b1" : jd->shift_lo < -ru->min_effect ? "-" : "+", pct(a, m));
		else
			oprintf(out, ": %s, with the same work", stats_reason_name(jd->reason));
		break;
	case VERDICT_UNSWEPT:
	case VERDICT_INSUFFICIENT:
		oprintf(out, ": %s", jd->why);
		break;
	case VERDICT_NOISY:
	case VERDICT_UNSET:
	case VERDICT_COUNT:
		break;
	}
	oprintf(out, "\n");
	if (jd->has_detectable)
		oprintf(out, "  power    a shift of +%s (slower) or -%s (faster) would be "
			"called with these pads\n", pct(a, jd->detect_slower), pct(b, jd->detect_faster));
}

/* The rule, ratio with its interval, noise, verdict and power of a result. */
static void judgement_text(struct out *out, const struct analysis_result *res)
{
	const struct stats_judgement *jd = &res->judge;
	const struct stats_rule *ru = &jd->rule;
	int margin = ru->kind == STATS_RULE_MARGIN;
	char a[PCT_MAX], b[PCT_MAX], c[PCT_MAX], level[UNITS_MAX];

	if (ru->kind == STATS_RULE_SHIFT) {
		shift_text(out, res);
		return;
	}
	units_level(ru->confidence, level);
	units_as_read(ru->noise_factor, c);
	if (margin)
		oprintf(out, "  rule     margin v%d (pad intervals at %s, noise factor %s; "
			"a range is the union of its pads' intervals)\n", ru->version, level, c);
	else
		oprintf(out, "  rule     overlap v%d (ranges of the pad medians)\n", ru->version);
	if (jd->has_ratio) {
		oprintf(out, "  ratio    %s (candidate center / base center)", ratio_s(a, jd->ratio));
		if (jd->has_interval)
			oprintf(out, ", %s interval %s to %s (bootstrap over pads and "
				"rounds, %u resamples, seed %llu)", level,
				ratio_s(b, jd->ratio_lo), ratio_s(c, jd->ratio_hi), ru->resamples,
				(unsigned long long)ru->seed);
		oprintf(out, "\n");
	} else {
		oprintf(out, "  ratio    -\n");
	}
	if (margin && jd->has_noise) {
		oprintf(out, "  noise    %s of the base center (round to round %s",
			pct(a, jd->noise), pct(b, jd->noise_rounds));
		if (jd->has_control_noise)
			oprintf(out, ", control %s", pct(a, jd->noise_control));
		else
			oprintf(out, ", no control");
		oprintf(out, ")\n");
	} else if (!margin && jd->has_noise) {
		oprintf(out, "  noise    %s of the base center (%s half the base spread, "
			"%s%s)\n", pct(a, jd->noise),
			jd->noisy ? "noisy: more than" : "not noisy: at most",
			pct(b, jd->noise_limit),
			jd->noisy ? "; the host is too noisy for this benchmark" : "");
	} else if (!margin && res->side[ANALYSIS_CONTROL].npads &&
		   res->side[ANALYSIS_BASE].npads) {
		oprintf(out, "  noise    - (no base pad 0 to compare the control with)\n");
	} else if (!margin) {
		oprintf(out, "  noise    - (no control measured)\n");
	} else {
		oprintf(out, "  noise    -\n");
	}
	oprintf(out, "  verdict  %s", verdict_name(jd->verdict));
	switch (jd->verdict) {
	case VERDICT_UNSWEPT:
		oprintf(out, " (%s; %s, so placement is not ruled out)",
			stats_direction_name(jd->direction),
			res->side[ANALYSIS_BASE].npads == 1 || res->side[ANALYSIS_CANDIDATE].npads == 1
			? "a side has one pad" : "too few pads");
		break;
	case VERDICT_INSUFFICIENT:
		oprintf(out, ": %s", jd->why);
		break;
	case VERDICT_NOISY:
		oprintf(out, ": the ranges are %s apart (%s), within the noise %s; "
			"the host is too noisy to tell", pct(a, jd->gap),
			stats_direction_name(jd->direction), pct(b, jd->margin));
		break;
	case VERDICT_PLACEMENT:
		if (jd->reason == STATS_REASON_OVERLAP)
			oprintf(out, ": ranges overlap");
		else
			oprintf(out, ": %s (%s by %s)", stats_reason_name(jd->reason),
				stats_direction_name(jd->direction), pct(a, jd->gap));
		break;
	case VERDICT_SLOWER:
	case VERDICT_FASTER:
		if (margin)
			oprintf(out, ": ranges %s apart, beyond the noise %s",
				pct(a, jd->gap), pct(b, jd->margin));
		break;
	case VERDICT_UNCHANGED:
	case VERDICT_UNSET:
	case VERDICT_COUNT:
		break;
	}
	oprintf(out, "\n");
	if (jd->has_detectable)
		oprintf(out, "  power    the rule calls a change of +%s (slower) or -%s "
			"(faster); smaller ones cannot be told from placement%s here\n",
			pct(a, jd->detect_slower), pct(b, jd->detect_faster),
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
		t.indent = 4;
		table_row(&t, "side", "pad", "round", "n", "steady", "start", "kept", "tolerance",
			  "median", "p99", "max", "co_n", "co_p99");
		for (int s = 0; s < ANALYSIS_SIDES; s++) {
			const struct analysis_side_result *sr = &res->side[s];
			for (size_t p = 0; p < sr->npads; p++) {
				const struct analysis_pad *pad = &sr->pads[p];
				for (size_t r = 0; r < pad->nrounds; r++) {
					const struct analysis_iter *it = &pad->iter[r];
					const char *tol = "-";
					if (it->warm.kind == STATS_WARMUP_AUTO &&
					    it->warm.detect.status != STATS_STEADY_TOO_SHORT)
						tol = pct(c[7], it->warm.detect.tolerance_eff);
					table_row(&t, analysis_side_name((enum analysis_side)s),
						  uint_s(c[1], pad->pad), uint_s(c[2], pad->round[r]),
						  uint_s(c[3], it->n_raw), steady_name(&it->warm),
						  uint_s(c[5], it->warm.start), uint_s(c[6], it->n), tol,
						  num(c[8], pad->value[r]), num(c[9], it->p99),
						  num(c[10], it->max),
						  it->co_capped ? (snprintf(c[11], CELL, "%zu (capped)",
									    it->co_n), c[11])
								: uint_s(c[11], it->co_n),
						  num(c[12], it->co_p99));
				}
			}
		}
		print_table(&t, out);
		table_release(&t);
	}

	oprintf(out, "  pads%s\n", res->mode == ANALYSIS_SAMPLES ?
		" (medians over rounds)" : " (median over rounds)");
	if (res->mode == ANALYSIS_SAMPLES) {
		table_init(&t, 6, "lrrrrr");
		t.indent = 4;
		table_row(&t, "side", "pad", "rounds", "median", "p99", "co_p99");
	} else {
		table_init(&t, 4, "lrrr");
		t.indent = 4;
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
	print_table(&t, out);
	table_release(&t);

	oprintf(out, "  sides (over pad medians)\n");
	table_init(&t, 8, "lrrrrrrr");
	t.indent = 4;
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
	print_table(&t, out);
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

/*
 * The JSON is built as a jansson tree and written by the one JSON writer
 * (formats/jsonio.h), like every other --json.  A builder keeps a sticky
 * failure flag, so a failed allocation anywhere fails the whole rendering.
 */
struct jb {
	int failed;
};

static void jput(struct jb *b, json_t *o, const char *k, json_t *v)
{
	/* json_object_set_new() takes v (NULL included) and frees it on failure. */
	if (!o || json_object_set_new(o, k, v) < 0)
		b->failed = 1;
}

static void jappend(struct jb *b, json_t *a, json_t *v)
{
	if (!a || json_array_append_new(a, v) < 0)
		b->failed = 1;
}

/* A string, null for NULL; bytes that are not UTF-8 become U+FFFD. */
static json_t *jstr(const char *s)
{
	if (!s)
		return json_null();
	if (utf8_ok(s, strlen(s), UTF8_VALID))
		return json_string(s);
	struct buf t;
	json_t *v = NULL;
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	buf_init(&t, 4 * n + 1);
	while (i < n) {
		int32_t cp;
		size_t k = utf8_next(u + i, n - i, &cp);
		if (cp < 0) {
			if (buf_add(&t, "\xef\xbf\xbd", 3) < 0)
				goto out;
			i++;
		} else {
			if (buf_add(&t, s + i, k) < 0)
				goto out;
			i += k;
		}
	}
	v = json_string(buf_cstr(&t));
out:
	buf_release(&t);
	return v;
}

static json_t *juint(unsigned long long v)
{
	return json_integer((json_int_t)v);
}

static json_t *jnum_or_null(int has, double v)
{
	return has ? jsonio_real(v) : json_null();
}

static json_t *json_round(struct jb *b, const struct analysis_pad *pad, size_t r)
{
	const struct analysis_iter *it = pad->iter ? &pad->iter[r] : NULL;
	json_t *o = json_object();

	jput(b, o, "round", juint(pad->round[r]));
	if (!it) {
		jput(b, o, "value", jsonio_real(pad->value[r]));
		return o;
	}
	jput(b, o, "n_raw", juint(it->n_raw));
	jput(b, o, "steady", jstr(steady_name(&it->warm)));
	jput(b, o, "start", juint(it->warm.start));
	jput(b, o, "n", juint(it->n));
	if (it->warm.kind == STATS_WARMUP_AUTO) {
		jput(b, o, "window", juint(it->warm.detect.window));
		jput(b, o, "tolerance", it->warm.detect.status == STATS_STEADY_TOO_SHORT ?
		     json_null() : jsonio_real(it->warm.detect.tolerance_eff));
	} else {
		jput(b, o, "window", json_null());
		jput(b, o, "tolerance", json_null());
	}
	jput(b, o, "median", jsonio_real(pad->value[r]));
	jput(b, o, "p99", jsonio_real(it->p99));
	jput(b, o, "max", jsonio_real(it->max));
	jput(b, o, "co_expected", jsonio_real(it->co_expected));
	jput(b, o, "co_n", juint(it->co_n));
	jput(b, o, "co_p99", jsonio_real(it->co_p99));
	jput(b, o, "co_capped", json_boolean(it->co_capped));
	return o;
}

static json_t *json_side(struct jb *b, const struct analysis_side_result *sr,
			 const struct stats_side_judged *js, enum analysis_mode mode)
{
	if (sr->npads == 0)
		return json_null();

	json_t *o = json_object(), *pads = json_array();

	jput(b, o, "pads", pads);
	for (size_t p = 0; p < sr->npads; p++) {
		const struct analysis_pad *pad = &sr->pads[p];
		json_t *po = json_object(), *rounds = json_array();

		jappend(b, pads, po);
		jput(b, po, "pad", juint(pad->pad));
		jput(b, po, "rounds", juint(pad->nrounds));
		jput(b, po, "median", jsonio_real(pad->median));
		if (mode == ANALYSIS_SAMPLES) {
			jput(b, po, "p99", jsonio_real(pad->p99));
			jput(b, po, "co_p99", jsonio_real(pad->co_p99));
		}
		jput(b, po, "per_round", rounds);
		for (size_t r = 0; r < pad->nrounds; r++)
			jappend(b, rounds, json_round(b, pad, r));
	}
	jput(b, o, "center", jsonio_real(sr->summary.center));
	jput(b, o, "min", jsonio_real(sr->summary.min));
	jput(b, o, "max", jsonio_real(sr->summary.max));
	jput(b, o, "spread", jnum_or_null(sr->summary.has_spread, sr->summary.spread));
	jput(b, o, "min_rounds", juint(sr->summary.min_rounds));
	if (js) {
		jput(b, o, "range_lo", jsonio_real(js->lo));
		jput(b, o, "range_hi", jsonio_real(js->hi));
		jput(b, o, "coverage", jsonio_real(js->level));
	}
	return o;
}

static void judgement_json(struct jb *b, json_t *o, const struct analysis_result *res)
{
	const struct stats_judgement *jd = &res->judge;
	const struct stats_rule *ru = &jd->rule;
	json_t *rule = json_object();

	jput(b, o, "rule", rule);
	jput(b, rule, "name", jstr(stats_rule_name(ru->kind)));
	jput(b, rule, "version", juint((unsigned long long)ru->version));
	jput(b, rule, "confidence", jsonio_real(ru->confidence));
	jput(b, rule, "noise_factor", jsonio_real(ru->noise_factor));
	jput(b, rule, "resamples", juint(ru->resamples));
	jput(b, rule, "seed", juint(ru->seed));
	jput(b, rule, "min_effect", ru->kind == STATS_RULE_SHIFT ? jsonio_real(ru->min_effect) : json_null());
	jput(b, o, "ratio", jnum_or_null(jd->has_ratio, jd->ratio));
	if (jd->has_shift) {
		json_t *sh = json_object();
		jput(b, o, "shift", sh);
		jput(b, sh, "estimate", jsonio_real(jd->shift));
		jput(b, sh, "lo", jsonio_real(jd->shift_lo));
		jput(b, sh, "hi", jsonio_real(jd->shift_hi));
		jput(b, sh, "level", jsonio_real(jd->shift_level));
		jput(b, sh, "p", jsonio_real(jd->p));
		jput(b, sh, "p_min", jsonio_real(jd->p_min));
		jput(b, sh, "batches", juint(jd->batches));
		jput(b, sh, "control_outside", json_boolean(jd->control_outside));
	} else {
		jput(b, o, "shift", json_null());
	}
	if (jd->has_interval) {
		json_t *iv = json_object();
		jput(b, o, "interval", iv);
		jput(b, iv, "lo", jsonio_real(jd->ratio_lo));
		jput(b, iv, "hi", jsonio_real(jd->ratio_hi));
	} else {
		jput(b, o, "interval", json_null());
	}
	jput(b, o, "verdict", jstr(verdict_name(jd->verdict)));
	jput(b, o, "direction", jstr(stats_direction_name(jd->direction)));
	jput(b, o, "reason", jstr(jd->why[0] ? jd->why :
		jd->reason == STATS_REASON_NONE ? NULL : stats_reason_name(jd->reason)));
	jput(b, o, "gap", jnum_or_null(jd->has_ratio, jd->gap));
	if (jd->has_noise) {
		json_t *no = json_object();
		jput(b, o, "noise", no);
		jput(b, no, "value", jsonio_real(jd->noise));
		jput(b, no, "rounds", jsonio_real(jd->noise_rounds));
		jput(b, no, "control", jnum_or_null(jd->has_control_noise, jd->noise_control));
		if (ru->kind == STATS_RULE_MARGIN)
			jput(b, no, "margin", jsonio_real(jd->margin));
		else
			jput(b, no, "limit", jsonio_real(jd->noise_limit));
		jput(b, no, "noisy", json_boolean(jd->noisy));
	} else {
		jput(b, o, "noise", json_null());
	}
	if (jd->has_detectable) {
		json_t *de = json_object();
		jput(b, o, "detectable", de);
		jput(b, de, "slower", jsonio_real(jd->detect_slower));
		jput(b, de, "faster", jsonio_real(jd->detect_faster));
		jput(b, de, "value", jsonio_real(jd->detectable));
	} else {
		jput(b, o, "detectable", json_null());
	}
}

int analysis_render_json(const struct analysis *a, const char *source,
			 struct buf *out, struct plumb_err *err)
{
	const struct analysis_opts *o = analysis_options(a);
	struct jb b = { .failed = 0 };
	size_t n = analysis_count(a);
	json_t *root = json_object(), *warm = json_object(), *results = json_array();
	int rc;

	jput(&b, root, "format", jstr("plumb-analyze"));
	jput(&b, root, "version", juint(1));
	jput(&b, root, "source", jstr(source));
	jput(&b, root, "rows", juint(analysis_rows(a)));
	jput(&b, root, "warmup", warm);
	jput(&b, warm, "policy", jstr(stats_warmup_kind_name(o->warmup.kind)));
	jput(&b, warm, "discard", o->warmup.kind == STATS_WARMUP_FIXED ?
	     juint(o->warmup.discard) : json_null());
	jput(&b, warm, "window", juint(o->warmup.window));
	jput(&b, warm, "tolerance", jsonio_real(o->warmup.tolerance));
	jput(&b, root, "co_cap", juint(o->co_cap));
	jput(&b, root, "results", results);
	for (size_t i = 0; i < n && !b.failed; i++) {
		const struct analysis_result *res = analysis_get(a, i);
		json_t *r = json_object(), *sides = json_object();

		jappend(&b, results, r);
		jput(&b, r, "bench", jstr(res->bench));
		jput(&b, r, "metric", jstr(res->metric));
		jput(&b, r, "mode", jstr(res->mode == ANALYSIS_SAMPLES ? "samples" : "process"));
		jput(&b, r, "sides", sides);
		for (int s = 0; s < ANALYSIS_SIDES; s++)
			jput(&b, sides, analysis_side_name((enum analysis_side)s),
			     json_side(&b, &res->side[s], judged_side(&res->judge, s), res->mode));
		judgement_json(&b, r, res);
		jput(&b, r, "unsteady_rounds", juint(res->unsteady_rounds));
	}
	if (b.failed) {
		json_decref(root);
		return plumb_err_oom(err, "analysis JSON");
	}
	rc = jsonio_dump(root, out, err);
	json_decref(root);
	return rc;
}

/* The rows of one result: a row per side and pad (formats/csv.h). */
static int csv_result(struct buf *out, const struct analysis_result *res)
{
	const struct stats_judgement *jd = &res->judge;
	enum metric_id m;
	struct csv_row c;

	csv_row_init(&c);
	c.bench = res->bench;
	c.mode = res->mode == ANALYSIS_SAMPLES ? "samples" : "process";
	c.metric = res->metric;
	c.unit = metric_parse(res->metric, &m) == 0 ? metric_unit(m) : NULL;
	if (jd->has_ratio)
		c.ratio = jd->ratio;
	if (jd->has_interval) {
		c.ratio_low = jd->ratio_lo;
		c.ratio_high = jd->ratio_hi;
	}
	if (jd->has_detectable) {
		c.detectable_slower = jd->detect_slower;
		c.detectable_faster = jd->detect_faster;
	}
	if (jd->has_shift)
		csv_row_shift(&c, jd->shift, jd->shift_lo, jd->shift_hi, jd->shift_level, jd->p,
			      jd->rule.min_effect);
	c.verdict = verdict_name(jd->verdict);
	c.direction = stats_direction_name(jd->direction);
	for (int s = 0; s < ANALYSIS_SIDES; s++) {
		const struct analysis_side_result *sr = &res->side[s];

		c.side = analysis_side_name((enum analysis_side)s);
		c.center = sr->summary.center;
		c.min = sr->summary.min;
		c.max = sr->summary.max;
		c.spread = sr->summary.has_spread ? sr->summary.spread : NAN;
		c.pads = (int64_t)sr->npads;
		for (size_t p = 0; p < sr->npads; p++) {
			c.pad = sr->pads[p].pad;
			c.rounds = (int64_t)sr->pads[p].nrounds;
			c.value = sr->pads[p].median;
			if (csv_put(out, &c) < 0)
				return -1;
		}
	}
	return 0;
}

int analysis_render_csv(const struct analysis *a, struct buf *out, struct plumb_err *err)
{
	size_t n = analysis_count(a);
	int rc = csv_header(out);

	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = csv_result(out, analysis_get(a, i));
	return rc < 0 ? buf_err(err, "analysis CSV") : 0;
}
