/*
 * reports/phrases.c: the sentences every renderer shares (a side's
 * center and range, a host finding, the host in one line, the summary),
 * so that text, Markdown and HTML say the same thing in the same words.
 * The phrases are raw: a renderer escapes them for its format, since
 * some quote the bundle's strings.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "formats/config.h"
#include "reports/gate.h"
#include "reports/hostdiff.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/words.h"
#include "stats/shift.h"
#include "common/banned.h"

int phrase_side(const struct report_bench *b, const struct manifest_side_stats *s,
		struct buf *out)
{
	struct units_scale sc;
	char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX], sp[UNITS_MAX];
	int rc = 0;

	units_scale(s->center, metric_dim(b->metric), 0, &sc);
	units_number(s->center, &sc, c);
	units_number(s->min, &sc, lo);
	units_number(s->max, &sc, hi);
	rc |= buf_printf(out, "%s%s (%s\u2013%s", c, sc.suffix, lo, hi);
	if (!isnan(s->spread)) {
		units_percent(s->spread, sp);
		rc |= buf_printf(out, ", %s", sp);
	}
	rc |= buf_addch(out, ')');
	return rc ? -1 : 0;
}

int phrase_pads(const struct report_bench *b, const struct manifest_side_stats *s,
		struct buf *out)
{
	const struct manifest_side_stats *u = b->old ? b->old : s;
	struct units_scale sc;
	char v[UNITS_MAX];
	int rc = 0;

	units_scale(u->center, metric_dim(b->metric), 0, &sc);
	for (size_t k = 0; k < s->n_pads; k++) {
		units_number(s->pads[k], &sc, v);
		rc |= buf_printf(out, "%s%s", k ? ", " : "", isnan(s->pads[k]) ? "\u2013" : v);
	}
	rc |= buf_addstr(out, sc.suffix);
	return rc ? -1 : 0;
}

const char *phrase_item_label(const struct hostdiff_item *it)
{
	return it->level == HOSTDIFF_BLOCKER ? "not comparable" : "warning";
}

int phrase_item(const struct report *r, const struct hostdiff_item *it,
		struct buf *out)
{
	int rc = buf_printf(out, "%s differs: %s \u2192 %s (%s)", it->what, it->old,
			    it->new, hostdiff_scope_text(it->scope, 0));

	if (rc == 0 && it->level == HOSTDIFF_BLOCKER)
		rc = buf_addstr(out, r->forced ? "; compared anyway (--force)"
				    : "; verdicts withheld, --force compares anyway");
	return rc;
}

int phrase_host(const json_t *facts, struct buf *out)
{
	const json_t *v;
	const char *sep = "";
	int rc = 0;

	if (!json_is_object(facts))
		return buf_addstr(out, "unknown");
	if (json_is_string(v = hostdiff_lookup(facts, "cpu.model"))) {
		rc |= buf_addstr(out, json_string_value(v));
		sep = ", ";
	}
	if (json_is_integer(v = hostdiff_lookup(facts, "cpu.logical"))) {
		rc |= buf_printf(out, "%s%lld CPUs", sep, (long long)json_integer_value(v));
		sep = ", ";
	}
	if (json_is_string(v = hostdiff_lookup(facts, "kernel.release"))) {
		rc |= buf_printf(out, "%skernel %s", sep, json_string_value(v));
		sep = ", ";
	}
	if (json_is_string(v = hostdiff_lookup(facts, "cpufreq.governor"))) {
		rc |= buf_printf(out, "%sgovernor %s", sep, json_string_value(v));
		sep = ", ";
	}
	v = hostdiff_lookup(facts, "cpufreq.turbo");
	if (json_is_boolean(v)) {
		rc |= buf_printf(out, "%sturbo %s", sep, json_is_true(v) ? "on" : "off");
		sep = ", ";
	}
	if (!*sep)
		rc |= buf_addstr(out, "unknown");
	return rc ? -1 : 0;
}

int phrase_commit(const struct manifest_commit *c, struct buf *out)
{
	int rc = 0;

	rc |= buf_addstr(out, c->ref ? c->ref : "?");
	rc |= buf_printf(out, " %.12s", c->commit ? c->commit : "?");
	if (c->subject)
		rc |= buf_printf(out, " %s", c->subject);
	if (c->dirty == 1)
		rc |= buf_addstr(out, " (dirty working copy)");
	return rc ? -1 : 0;
}

int phrase_summary(const struct report *r, struct buf *out)
{
	const struct report_counts *c = &r->counts;
	const struct { size_t n; const char *word; } parts[] = {
		{ c->withheld, "withheld" },
		{ c->failed, "failed" }, { c->missing, "not compared" },
	};
	const char *sep = ": ";
	int rc;

	rc = buf_printf(out, "%zu benchmark%s", r->n_benches, r->n_benches == 1 ? "" : "s");
	for (int v = VERDICT_UNSET + 1; v < VERDICT_COUNT; v++) {
		if (!c->verdict[v])
			continue;
		rc |= buf_printf(out, "%s%zu %s", sep, c->verdict[v], verdict_table[v].name);
		sep = ", ";
	}
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i].n)
			continue;
		rc |= buf_printf(out, "%s%zu %s", sep, parts[i].n, parts[i].word);
		sep = ", ";
	}
	if (r->withheld)
		rc |= buf_addstr(out, " (hosts not comparable: verdicts withheld, --force compares anyway)");
	else if (r->forced && !r->host.comparable)
		rc |= buf_addstr(out, " (hosts not comparable: compared anyway, --force)");
	return rc ? -1 : 0;
}

int phrase_gate(const struct report *r, struct buf *out)
{
	const char *mode = report_fail_on_name(r->fail_on);
	double alpha = NAN;
	size_t fails = 0, held = 0;
	int mixed = 0, rc = 0;

	if (!mode || r->withheld || r->holm_n == 0)
		return 0;
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		fails += report_bench_fails(b, r->fail_on) != 0;
		held += report_bench_held(b, r->fail_on) != 0;
		if (!b->has_shift || isnan(b->p_holm))
			continue;
		if (isnan(alpha))
			alpha = 1 - b->rule.confidence;
		else if (alpha != 1 - b->rule.confidence)
			mixed = 1;
	}
	rc |= buf_printf(out, "--fail-on %s: Holm over %zu benchmark%s", mode, r->holm_n,
			 r->holm_n == 1 ? "" : "s");
	if (mixed) {
		rc |= buf_addstr(out, " at each one's 1 \u2212 confidence");
	} else {
		char a[UNITS_MAX];
		units_level(alpha, a);
		rc |= buf_printf(out, " at %s", a);
	}
	rc |= buf_printf(out, ": %zu fail%s the gate", fails, fails == 1 ? "s" : "");
	if (held) {
		const char *sep = "";
		rc |= buf_addstr(out, "; held back by the adjustment: ");
		for (size_t i = 0; i < r->n_benches; i++) {
			const struct report_bench *b = &r->benches[i];
			if (!report_bench_held(b, r->fail_on))
				continue;
			char p[UNITS_MAX];

			units_p(b->p_holm, p);
			rc |= buf_printf(out, "%s%s (adjusted p %s)", sep, b->name, p);
			sep = ", ";
		}
	}
	return rc ? -1 : 0;
}

int phrase_source(const struct report_side *s, struct buf *out)
{
	int rc = 0;

	if (s->bundle)
		rc |= buf_addstr(out, s->bundle);
	if (s->origin)
		rc |= buf_printf(out, "%s%s", s->bundle ? " " : "", s->origin);
	if (!s->bundle && !s->origin)
		rc |= buf_addstr(out, "in memory");
	if (s->unverified && s->origin)
		rc |= buf_addstr(out, " (unverified: no SHA256SUMS)");
	return rc ? -1 : 0;
}


/* The change a report leads with, as a ratio: the shift's (shift rule), else the centers'. */
static double effect_ratio(const struct report_bench *b)
{
	return b->has_shift ? 1 + b->shift : b->ratio;
}

int phrase_change(const struct report_bench *b, struct buf *out)
{
	char p[UNITS_MAX];
	double ratio = effect_ratio(b);

	if (isnan(ratio))
		return 0;
	if (ratio == 1)
		return buf_addstr(out, "no change");
	units_percent(fabs(ratio - 1), p);
	return buf_printf(out, "%s %s", p, ratio > 1 ? "slower" : "faster");
}

int phrase_change_signed(const struct report_bench *b, struct buf *out)
{
	char p[UNITS_MAX];
	double ratio = effect_ratio(b);

	if (isnan(ratio))
		return 0;
	units_change(ratio, p);
	return buf_addstr(out, p);
}

int phrase_pad_count(const struct report *r, const struct report_bench *b, struct buf *out)
{
	size_t po = b->old ? b->old->n_pads : 0, pn = b->new ? b->new->n_pads : 0;

	if (po == pn)
		return buf_printf(out, "%zu pad%s a side", po, po == 1 ? "" : "s");
	return buf_printf(out, "%zu pad%s on the %s, %zu on the %s", po, po == 1 ? "" : "s",
			  r->old_role, pn, r->new_role);
}

int phrase_effect(const struct report *r, const struct report_bench *b, struct buf *out)
{
	char c[UNITS_MAX];
	int rc = 0;

	if (!b->has_shift || !b->old || !b->new)
		return 0;
	rc |= phrase_change_signed(b, out);
	if (b->verdict == VERDICT_SLOWER || b->verdict == VERDICT_FASTER)
		rc |= buf_printf(out, " %s", verdict_name(b->verdict));
	units_level(b->rule.confidence, c);
	rc |= buf_printf(out, ", %s interval ", c);
	rc |= phrase_interval(b, out);
	rc |= buf_addstr(out, ", ");
	rc |= phrase_pad_count(r, b, out);
	return rc ? -1 : 0;
}

int phrase_shift_detail(const struct report_bench *b, struct buf *out)
{
	char c[UNITS_MAX], lv[UNITS_MAX], m[UNITS_MAX], p[UNITS_MAX], least[UNITS_MAX];
	int rc = 0;

	if (!b->has_shift || !b->old || !b->new)
		return 0;
	units_level(b->rule.confidence, c);
	units_level(b->rule.min_effect, m);
	units_percent(b->shift_level, lv);
	rc |= buf_addstr(out, "shift ");
	rc |= phrase_change_signed(b, out);
	rc |= buf_addstr(out, " (Hodges-Lehmann, of the pad medians), ");
	if (b->shift_level >= b->rule.confidence) {
		rc |= buf_printf(out, "%s interval ", c);
		rc |= phrase_interval(b, out);
		rc |= buf_printf(out, " (exact coverage %s)", lv);
	} else if (!(b->shift_level > 0)) {
		rc |= buf_printf(out, "no interval at %zu and %zu pads", b->old->n_pads,
				 b->new->n_pads);
	} else {
		/* Unswept: the widest interval these pads have falls short. */
		rc |= buf_printf(out, "%s interval ", lv);
		rc |= phrase_interval(b, out);
		rc |= buf_printf(out, " (the most %zu and %zu pads allow, short of %s)",
				 b->old->n_pads, b->new->n_pads, c);
	}
	units_p(b->p, p);
	units_p(b->p_min, least);
	rc |= buf_printf(out, ", p = %s (the least %zu and %zu pads allow: %s)", p,
			 b->old->n_pads, b->new->n_pads, least);
	rc |= buf_printf(out, "; minimum effect \u00b1%s", m);
	return rc ? -1 : 0;
}

int phrase_interval(const struct report_bench *b, struct buf *out)
{
	char lo[UNITS_MAX], hi[UNITS_MAX];

	/* No interval at all (one pad a side covers nothing): nothing to say. */
	if (isnan(b->ratio_lo) || isnan(b->ratio_hi) || (b->has_shift && !(b->shift_level > 0)))
		return 0;
	units_change(b->ratio_lo, lo);
	units_change(b->ratio_hi, hi);
	return buf_printf(out, "%s to %s", lo, hi);
}

int phrase_detectable(const struct report_bench *b, struct buf *out)
{
	char s[UNITS_MAX], f[UNITS_MAX];

	if (isnan(b->detect_slower) || isnan(b->detect_faster))
		return 0;
	units_percent(b->detect_slower, s);
	units_percent(b->detect_faster, f);
	return buf_printf(out, "+%s or \u2212%s", s, f);
}

/* The range a side was judged on: the rule's (margin), else the pad medians'. */
static void judged_range(const struct manifest_side_stats *s, double *lo, double *hi)
{
	int rule = !isnan(s->range_lo) && !isnan(s->range_hi);

	*lo = rule ? s->range_lo : s->min;
	*hi = rule ? s->range_hi : s->max;
}

int phrase_range(const struct report_bench *b, const struct manifest_side_stats *s,
		 struct buf *out)
{
	struct units_scale sc;
	char lo[UNITS_MAX], hi[UNITS_MAX];
	double l, h;

	judged_range(s, &l, &h);
	units_scale(h, metric_dim(b->metric), 0, &sc);
	units_number(l, &sc, lo);
	units_number(h, &sc, hi);
	return buf_printf(out, "%s\u2013%s%s", lo, hi, sc.suffix);
}

/* "the candidate's range 91.00–94.00 ms" */
static int side_range(const struct report_bench *b, const char *the, const char *role,
		      const struct manifest_side_stats *s, struct buf *out)
{
	int rc = buf_printf(out, "%s %s's range ", the, role);

	rc |= phrase_range(b, s, out);
	if (!isnan(s->range_lo) && !isnan(s->range_hi))
		rc |= buf_addstr(out, " (pad medians with their intervals over rounds)");
	return rc ? -1 : 0;
}

/* ", apart by 10.3%, more than the 2.80% noise" (margin rule), or "". */
static int apart(const struct report_bench *b, int more, struct buf *out)
{
	char g[UNITS_MAX], n[UNITS_MAX];

	if (isnan(b->gap) || isnan(b->margin))
		return 0;
	units_percent(b->gap, g);
	units_percent(b->margin, n);
	return buf_printf(out, ", apart by %s, %s the %s noise margin", g,
			  more ? "more than" : "no more than", n);
}

/*
 * The shift rule's sentence: the effect first ("+14.1% slower, 99%
 * interval +10.2% to +18.0%, 8 pads a side"), then why that is the
 * verdict, from the same numbers.  1 when the verdict has no sentence of
 * its own here (insufficient: the rounds say it, as under every rule).
 */
static int explain_shift(const struct report *r, const struct report_bench *b, struct buf *out)
{
	char m[UNITS_MAX], c[UNITS_MAX], p[UNITS_MAX];
	int hot = b->hot_identical == 1 || b->hot_identical == 2;
	double e = b->rule.min_effect;
	int rc = 0;

	units_level(e, m);
	units_level(b->rule.confidence, c);
	units_p(b->p, p);
	switch (b->verdict) {
	case VERDICT_SLOWER:
	case VERDICT_FASTER: {
		int slower = b->verdict == VERDICT_SLOWER;
		rc |= phrase_effect(r, b, out);
		rc |= buf_printf(out, ": the interval lies wholly %s the %s%s minimum effect "
				 "(p = %s).", slower ? "above" : "below", slower ? "+" : "\u2212",
				 m, p);
		if (hot)
			rc |= buf_addstr(out, b->work == STATS_WORK_DIFFERENT ?
					 " The hot code is identical, but the run showed different "
					 "work, so the timing decides." :
					 " The hot code is identical, but the run did not show "
					 "the same work, so the timing decides.");
		break;
	}
	case VERDICT_UNCHANGED:
		rc |= phrase_effect(r, b, out);
		rc |= buf_printf(out, ": no change larger than \u00b1%s, %s (the interval lies "
				 "wholly inside the minimum effect).", m, c);
		break;
	case VERDICT_PLACEMENT:
		rc |= phrase_effect(r, b, out);
		if (b->hot_decided) {
			rc |= buf_addstr(out, ", but the hot code is identical and the run showed "
					 "the same work: the difference is where the code sits, not "
					 "what it does.");
			break;
		}
		if (b->shift_lo < -e && b->shift_hi > e)
			rc |= buf_printf(out, ": the interval reaches across both edges of the "
					 "minimum effect, \u00b1%s", m);
		else
			rc |= buf_printf(out, ": the interval reaches across the %s%s edge of the "
					 "minimum effect", b->shift_hi > e ? "+" : "\u2212", m);
		rc |= buf_addstr(out, ", so the difference cannot be told from placement");
		if (!isnan(b->detect_slower) && !isnan(b->detect_faster)) {
			char s[UNITS_MAX], f[UNITS_MAX];
			units_percent(b->detect_slower, s);
			units_percent(b->detect_faster, f);
			rc |= buf_printf(out, "; it could have detected +%s slower or \u2212%s faster "
					 "with these pads", s, f);
		}
		rc |= buf_addch(out, '.');
		break;
	case VERDICT_UNSWEPT: {
		size_t need = stats_shift_pads_needed(b->rule.confidence);
		rc |= phrase_change_signed(b, out);
		rc |= buf_addstr(out, " at ");
		rc |= phrase_pad_count(r, b, out);
		rc |= buf_printf(out, ", but %s: no change can be called at %s; run with more pads",
				 b->why[0] ? b->why : "too few pads to reach the rule's confidence", c);
		if (need)
			rc |= buf_printf(out, " (%zu a side can reach it)", need);
		rc |= buf_addch(out, '.');
		break;
	}
	case VERDICT_INSUFFICIENT:
	case VERDICT_NOISY:
	case VERDICT_UNSET:
	case VERDICT_COUNT:
		return 1;
	}
	return rc ? -1 : 0;
}

int phrase_explain(const struct report *r, const struct report_bench *b, struct buf *out)
{
	const char *o = r->old_role, *n = r->new_role;
	int hot = b->hot_identical == 1 || b->hot_identical == 2;
	int rc = 0;

	if (b->failure || b->old_failure)
		return buf_printf(out, "The %s failed, so there is nothing to compare.",
				  b->failure ? n : o);
	if (b->missing)
		return buf_printf(out, "Not compared: %s.", b->missing);
	if (b->withheld)
		return buf_printf(out, "The hosts are not comparable, so no verdict is given "
				  "(--force compares anyway).");
	if (!b->old || !b->new)
		return buf_addstr(out, "Not compared.");
	if (b->has_shift && (rc = explain_shift(r, b, out)) <= 0)
		return rc;
	rc = 0;
	switch (b->verdict) {
	case VERDICT_SLOWER:
	case VERDICT_FASTER: {
		int slower = b->verdict == VERDICT_SLOWER;
		rc |= side_range(b, "The", n, b->new, out);
		rc |= buf_printf(out, " lies wholly %s the %s's ", slower ? "above" : "below", o);
		rc |= phrase_range(b, b->old, out);
		rc |= apart(b, 1, out);
		rc |= buf_addstr(out, ": ");
		rc |= phrase_change(b, out);
		rc |= buf_addch(out, '.');
		if (hot)
			rc |= buf_addstr(out, " Yet the hot code is identical, so the difference may "
					 "be where the code sits rather than what it does.");
		if (b->noisy)
			rc |= buf_addstr(out, " Yet the control moved about as much as the spread: the "
					 "host may be too noisy for this benchmark.");
		break;
	}
	case VERDICT_PLACEMENT:
		rc |= side_range(b, "The", o, b->old, out);
		rc |= buf_printf(out, " and the %s's ", n);
		rc |= phrase_range(b, b->new, out);
		if (hot && (b->new->min > b->old->max || b->new->max < b->old->min))
			rc |= buf_addstr(out, " do not overlap, but the hot code is identical: "
					 "the difference is where the code sits, not what it does.");
		else
			rc |= buf_addstr(out, " overlap: moving the code by a few bytes changes the "
					 "time as much as the change does, so the difference of the "
					 "centers is placement.");
		break;
	case VERDICT_NOISY:
		rc |= side_range(b, "The", n, b->new, out);
		rc |= buf_printf(out, " lies %s the %s's ",
				 b->direction == MANIFEST_DIRECTION_FASTER ? "below" : "above", o);
		rc |= phrase_range(b, b->old, out);
		rc |= apart(b, 0, out);
		rc |= buf_addstr(out, ": the host is too noisy to tell a change from noise.");
		break;
	case VERDICT_UNSWEPT: {
		size_t po = b->old->n_pads, pn = b->new->n_pads;
		rc |= buf_printf(out, "The ranges do not overlap (the %s is %s), but with %zu pad%s "
				 "on the %s and %zu on the %s placement was not swept, so the "
				 "difference could be placement; run with more pads.",
				 n, render_direction(b),
				 po, po == 1 ? "" : "s", o, pn, n);
		break;
	}
	case VERDICT_INSUFFICIENT: {
		long long fo = b->old->rounds, fn = b->new->rounds;
		long long few = fo < 0 ? fn : fn < 0 ? fo : fo < fn ? fo : fn;
		if (few >= 0)
			rc |= buf_printf(out, "A pad has only %lld valid round%s, fewer than the 3 a "
					 "verdict needs.", few, few == 1 ? "" : "s");
		else
			rc |= buf_addstr(out, "A pad has fewer than the 3 valid rounds a verdict needs.");
		break;
	}
	case VERDICT_UNCHANGED:
		/* Only the shift rule gives it, and explain_shift() says it;
		 * a bundle that records it without the shift is said so. */
		rc |= buf_addstr(out, "No change larger than the minimum effect was recorded, "
				 "without the shift that shows it.");
		break;
	case VERDICT_UNSET:
	case VERDICT_COUNT:
		rc |= buf_addstr(out, "No verdict was recorded.");
		break;
	}
	return rc ? -1 : 0;
}

/* The terms of the numbers, then every verdict in the words of its row of
 * common/verdict.h. */
#define VERDICT_TERM_(id, name, colour, fails, decided, directed, words) { name, words },
static const struct phrase_term glossary[] = {
	{ "pad", "the whole program rebuilt shifted by a few bytes; each pad is one "
		 "draw of where the code lands in memory" },
	{ "control", "the base's pad 0 built and measured a second time: whether two "
		     "builds of the same code measure the same on this host (a remark, "
		     "not a margin, under the shift rule)" },
	{ "center", "the median over pads of each pad's median over rounds" },
	{ "range", "the smallest to the largest pad median (under the margin rule, "
		   "with each pad median's interval over rounds)" },
	{ "spread", "the range's width divided by the center" },
	{ "shift", "the change of the candidate against the base: the median of the "
		   "changes of every candidate pad median against every base pad median "
		   "(Hodges-Lehmann), with its exact interval at the rule's confidence "
		   "(shift rule)" },
	{ "minimum effect", "the smallest change worth calling (verdict.minEffect): the "
			    "shift's interval must lie wholly beyond it to be slower or faster, "
			    "wholly inside it to be unchanged" },
	{ "p", "the exact two-sided Mann-Whitney p: how often pads of unchanged code, "
	       "placed at random, would differ this much" },
	{ "Holm", "--fail-on over many benchmarks: their p-values adjusted by Holm's "
		  "step-down method, so that all of them together fail the gate by chance "
		  "no more often than one would" },
	{ "margin", "margin rule: how far apart the ranges must be to count as a change: "
		    "the noise the run measured (control and rounds)" },
	{ "change", "the candidate's center divided by the base's, minus one, with its "
		    "interval (the shift's under the shift rule; over pads and rounds under "
		    "the others)" },
	{ "detectable change", "the smallest change the rule would call slower or faster "
			       "on this host with these pads" },
	VERDICT_TABLE(VERDICT_TERM_)
};
#undef VERDICT_TERM_

const struct phrase_term *phrase_glossary(size_t *n)
{
	*n = sizeof(glossary) / sizeof(glossary[0]);
	return glossary;
}

/* A recorded value as plumb.conf text; 1 for null; an object is shown as such. */
static int config_value(const json_t *v, struct buf *out)
{
	if (json_is_object(v))
		return buf_addstr(out, "(object)");
	return config_value_text(v, out);
}

/* One section of the spec as rows "prefix key" (an object: one row per member). */
static int config_section(const char *prefix, const json_t *sec, phrase_kv_fn fn, void *ctx,
			  struct buf *k, struct buf *v)
{
	const char *key, *k2;
	const json_t *val, *v2;
	int rc = 0;

	json_object_foreach((json_t *)sec, key, val) {
		if (strcmp(prefix, "run.") == 0 && strcmp(key, "label") == 0)
			continue;       /* the labels come from run.labels */
		if (json_is_object(val)) {
			json_object_foreach((json_t *)val, k2, v2) {
				buf_reset(k), buf_reset(v);
				rc |= buf_printf(k, "%s%s.%s", prefix, key, k2);
				if (config_value(v2, v) == 0)
					rc |= fn(ctx, buf_cstr(k), buf_cstr(v));
			}
			continue;
		}
		buf_reset(k), buf_reset(v);
		rc |= buf_printf(k, "%s%s", prefix, key);
		if (config_value(val, v) == 0)
			rc |= fn(ctx, buf_cstr(k), buf_cstr(v));
	}
	return rc ? -1 : 0;
}

int phrase_config(const struct manifest *m, phrase_kv_fn fn, void *ctx)
{
	static const char *const order[] = { "run", "build", "bench", "repo", "verdict" };
	struct buf k, v;
	const char *sec;
	const json_t *val;
	int rc = 0;

	buf_init(&k, 1 << 16);
	buf_init(&v, 1 << 20);
	/* The run's labels (--label, run.label): what the run was for. */
	for (size_t i = 0; i < m->run.n_labels; i++) {
		buf_reset(&k);
		rc |= buf_printf(&k, "label %s", m->run.labels[i].key);
		rc |= fn(ctx, buf_cstr(&k), m->run.labels[i].value);
	}
	if (!m->run.n_labels && json_is_object(json_object_get(json_object_get(m->spec, "run"),
							       "label"))) {
		json_object_foreach(json_object_get(json_object_get(m->spec, "run"), "label"), sec, val) {
			buf_reset(&k), buf_reset(&v);
			rc |= buf_printf(&k, "label %s", sec);
			if (config_value(val, &v) == 0)
				rc |= fn(ctx, buf_cstr(&k), buf_cstr(&v));
		}
	}
	/* The spec, the sections people look for first in front. */
	for (size_t o = 0; o <= sizeof(order) / sizeof(order[0]); o++) {
		json_object_foreach(m->spec, sec, val) {
			int known = 0;
			for (size_t j = 0; j < sizeof(order) / sizeof(order[0]); j++)
				known |= strcmp(sec, order[j]) == 0;
			if (o < sizeof(order) / sizeof(order[0]) ? strcmp(sec, order[o]) != 0 : known)
				continue;
			if (json_is_array(val)) {
				size_t i;
				const json_t *e;
				json_array_foreach(val, i, e) {
					const char *name = json_string_value(json_object_get(e, "name"));
					char *prefix = buf_strdupf("%s.%s.", sec, name ? name : "?");
					json_t *rest = json_is_object(e) ? json_copy((json_t *)e) : NULL;
					if (!prefix || !rest) {
						free(prefix);
						json_decref(rest);
						rc = -1;
						continue;
					}
					json_object_del(rest, "name");
					rc |= config_section(prefix, rest, fn, ctx, &k, &v);
					free(prefix);
					json_decref(rest);
				}
			} else if (json_is_object(val)) {
				char *prefix = buf_strdupf("%s.", sec);
				if (!prefix)
					rc = -1;
				else
					rc |= config_section(prefix, val, fn, ctx, &k, &v);
				free(prefix);
			}
		}
	}
	buf_release(&k);
	buf_release(&v);
	return rc ? -1 : 0;
}

const char *phrase_bench_params(const struct manifest *m, const char *name)
{
	const json_t *benches = json_object_get(m->spec, "bench"), *e;
	size_t i;

	if (!name || !strchr(name, '/'))
		return NULL;
	json_array_foreach(benches, i, e) {
		const char *n = json_string_value(json_object_get(e, "name"));
		const char *p = json_string_value(json_object_get(e, "params"));
		if (n && p && strcmp(n, name) == 0)
			return p;
	}
	return NULL;
}

int phrase_params_split(const char *params, struct phrase_params *out)
{
	const char *p = params;

	memset(out, 0, sizeof(*out));
	while (p && *p) {
		const char *end = strchr(p, ';'), *eq = strchr(p, '=');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (out->n == PHRASE_PARAMS_MAX || !eq || eq == p || eq >= p + len ||
		    (size_t)(eq - p) >= sizeof(out->key[0]) ||
		    (size_t)(p + len - eq - 1) >= sizeof(out->value[0]))
			return -1;
		memcpy(out->key[out->n], p, (size_t)(eq - p));
		memcpy(out->value[out->n], eq + 1, (size_t)(p + len - eq - 1));
		out->n++;
		p = end ? end + 1 : NULL;
	}
	return out->n ? 0 : -1;
}

/* b's family and combination, from the new side's spec; 0 when it has one. */
static int family_of(const struct report *r, const struct report_bench *b, size_t *len,
		     struct phrase_params *pp)
{
	const char *params = phrase_bench_params(r->new.m, b->name);

	if (!params || phrase_params_split(params, pp) < 0)
		return -1;
	*len = (size_t)(strchr(b->name, '/') - b->name);
	return 0;
}

/* The same family name and the same parameter names in the same order. */
static int same_family(const struct report_bench *a, size_t la, const struct phrase_params *pa,
		       const struct report_bench *b, size_t lb, const struct phrase_params *pb)
{
	if (la != lb || strncmp(a->name, b->name, la) != 0 || pa->n != pb->n)
		return 0;
	for (size_t k = 0; k < pa->n; k++)
		if (strcmp(pa->key[k], pb->key[k]) != 0)
			return 0;
	return 1;
}

int phrase_families(const struct report *r, phrase_family_fn fn, void *ctx)
{
	struct phrase_family f;
	struct phrase_params pj;
	size_t lj;
	int rc = 0;

	memset(&f, 0, sizeof(f));
	if (!(f.members = malloc((r->n_benches ? r->n_benches : 1) * sizeof(*f.members))) ||
	    !(f.values = malloc((r->n_benches ? r->n_benches : 1) * sizeof(*f.values)))) {
		free(f.members);
		return -1;
	}
	for (size_t i = 0; i < r->n_benches; i++) {
		int seen = 0;
		if (family_of(r, &r->benches[i], &f.name_len, &f.keys) < 0)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = family_of(r, &r->benches[j], &lj, &pj) == 0 &&
			       same_family(&r->benches[i], f.name_len, &f.keys, &r->benches[j], lj, &pj);
		if (seen)
			continue;
		f.name = r->benches[i].name;
		f.n = 0;
		for (size_t j = i; j < r->n_benches; j++)
			if (family_of(r, &r->benches[j], &lj, &pj) == 0 &&
			    same_family(&r->benches[i], f.name_len, &f.keys, &r->benches[j], lj, &pj)) {
				f.values[f.n] = pj;
				f.members[f.n++] = j;
			}
		if (f.n >= 2)
			rc |= fn(ctx, r, &f);
	}
	free(f.members);
	free(f.values);
	return rc ? -1 : 0;
}
