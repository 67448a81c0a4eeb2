/*
 * reports/compare.c: the comparison model of a report (compare.h,
 * model.h): a bundle's candidate against its own base, or against a
 * baseline's recorded side, benchmark by benchmark, with the host facts
 * of both, and Holm's adjustment of the p-values the gate (gate.c) reads.
 *
 * The model decides nothing the statistics do not: verdicts come from the
 * manifest (a bundle against its own base) or from the overlap rule
 * (against a baseline).  What it adds is the reading of the evidence the
 * bundle carries: hot-code identity, checksums, counters, noise, steady
 * state, and whether the hosts allow a comparison at all.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "reports/compare.h"
#include "reports/distribution.h"
#include "reports/gate.h"
#include "reports/notes.h"
#include "reports/render.h"
#include "reports/words.h"
#include "formats/manifest-rule.h"
#include "stats/holm.h"
#include "stats/rule.h"
#include "stats/verdict.h"
#include "common/banned.h"

static const struct manifest_side_stats *side_of(const struct manifest_bench *b,
						 enum manifest_side side)
{
	const struct manifest_side_stats *s =
		side == MANIFEST_SIDE_BASE ? &b->base :
		side == MANIFEST_SIDE_CANDIDATE ? &b->candidate : &b->control;
	return s->present ? s : NULL;
}

static const struct manifest_commit *commit_of(const struct manifest *m,
					       enum manifest_side side)
{
	return side == MANIFEST_SIDE_CANDIDATE ? &m->repo.candidate : &m->repo.base;
}

static const char *checksum_of(const struct manifest_bench *b, enum manifest_side side)
{
	if (!b->checksum.present)
		return NULL;
	return side == MANIFEST_SIDE_CANDIDATE ? b->checksum.candidate : b->checksum.base;
}

/* A recorded side as stats_judge() takes it: pads known by their medians. */
static int recorded_side(const struct manifest_side_stats *s, struct stats_pad_in **pads,
			 struct stats_side_in *out)
{
	size_t rounds = s->rounds >= 0 ? (size_t)s->rounds : STATS_MIN_ROUNDS;

	/* Rounds not recorded: nothing says the side is short of them. */
	*pads = calloc(s->n_pads ? s->n_pads : 1, sizeof(**pads));
	if (!*pads)
		return -1;
	for (size_t i = 0; i < s->n_pads; i++) {
		(*pads)[i].pad = (uint32_t)i;
		(*pads)[i].n = rounds;
		(*pads)[i].median = (*pads)[i].lo = (*pads)[i].hi = s->pads[i];
	}
	out->pads = *pads;
	out->npads = s->n_pads;
	return 0;
}

static enum stats_hot hot_of(const struct report_bench *b)
{
	switch (b->hot_identical) {
	case 0: return STATS_HOT_CHANGED;
	case 1: return STATS_HOT_IDENTICAL;
	case 2: return STATS_HOT_SAME_CODE;
	default: return STATS_HOT_UNKNOWN;
	}
}

/*
 * The verdict of two recorded sides under rule (stats_judge(), the one
 * verdict computation): the pads are known by their medians only, so a
 * pad's interval is its median and the noise is the larger of the two
 * bundles' recorded noise figures (noise_floor).
 */
static int judge_recorded(const struct manifest_side_stats *o, const struct manifest_side_stats *n,
			  const struct stats_rule *rule, enum stats_hot hot, enum stats_work work,
			  double noise_floor, int deterministic, struct stats_judgement *jd,
			  struct plumb_err *err)
{
	struct stats_judge_in in;
	struct stats_pad_in *po = NULL, *pn = NULL;
	int rc = 0;

	memset(&in, 0, sizeof(in));
	in.hot = hot;
	in.work = work;
	in.deterministic = deterministic;
	in.noise_floor = isnan(noise_floor) ? 0 : noise_floor;
	if (recorded_side(o, &po, &in.base) < 0 || recorded_side(n, &pn, &in.candidate) < 0 ||
	    stats_judge(rule, &in, jd) < 0)
		rc = plumb_err_oom(err, "report verdict");
	free(po);
	free(pn);
	return rc;
}

static enum manifest_direction direction_of(const struct stats_judgement *jd)
{
	if (!verdict_directed(jd->verdict))
		return MANIFEST_DIRECTION_UNSET;
	return jd->direction == STATS_DIR_FASTER ? MANIFEST_DIRECTION_FASTER
						 : MANIFEST_DIRECTION_SLOWER;
}

/* What a judgement says beyond the verdict, into the model. */
static void take_judgement(struct report_bench *b, const struct stats_judgement *jd)
{
	b->rule = jd->rule;
	b->verdict = jd->verdict;
	b->direction = direction_of(jd);
	b->reason = jd->why[0] ? NULL : stats_reason_name(jd->reason);
	if (b->reason && !b->reason[0])
		b->reason = NULL;
	snprintf(b->why, sizeof(b->why), "%s", jd->why);
	b->hot_decided = jd->reason == STATS_REASON_HOT_IDENTICAL ||
			 jd->reason == STATS_REASON_HOT_SAME_CODE;
	if (jd->has_shift) {
		b->has_shift = 1;
		b->shift = jd->shift;
		b->shift_lo = jd->shift_lo;
		b->shift_hi = jd->shift_hi;
		b->shift_level = jd->shift_level;
		b->p = jd->p;
		b->p_min = jd->p_min;
	}
	b->ratio_lo = jd->has_interval ? jd->ratio_lo : NAN;
	b->ratio_hi = jd->has_interval ? jd->ratio_hi : NAN;
	b->detect_slower = jd->has_detectable ? jd->detect_slower : NAN;
	b->detect_faster = jd->has_detectable ? jd->detect_faster : NAN;
	if (jd->rule.kind == STATS_RULE_MARGIN && jd->has_noise) {
		b->noise = jd->noise;
		b->noise_rounds = jd->noise_rounds;
		b->noise_control = jd->has_control_noise ? jd->noise_control : NAN;
		b->margin = jd->margin;
		b->gap = jd->gap;
		b->noisy = jd->noisy;
	}
}

/* The same from a recorded benchmark (a bundle against its own base). */
static void take_recorded(struct report_bench *b, const struct manifest_bench *mb)
{
	manifest_bench_rule(mb, &b->rule);
	b->verdict = mb->verdict;
	b->direction = mb->direction;
	b->reason = mb->reason;
	b->hot_decided = b->verdict == VERDICT_PLACEMENT && mb->reason &&
		(strcmp(mb->reason, stats_reason_name(STATS_REASON_HOT_IDENTICAL)) == 0 ||
		 strcmp(mb->reason, stats_reason_name(STATS_REASON_HOT_SAME_CODE)) == 0);
	b->work = manifest_bench_work(mb);
	if (mb->shift.present) {
		b->has_shift = 1;
		b->shift = mb->shift.estimate;
		b->shift_lo = mb->shift.lo;
		b->shift_hi = mb->shift.hi;
		b->shift_level = mb->shift.level;
		b->p = mb->shift.p;
		b->p_min = mb->shift.p_min;
		if (verdict_directed(b->verdict) || b->verdict == VERDICT_INSUFFICIENT)
			snprintf(b->why, sizeof(b->why), "%s", mb->reason ? mb->reason : "");
	}
	if (mb->interval.present) {
		b->ratio_lo = mb->interval.lo;
		b->ratio_hi = mb->interval.hi;
	}
	if (mb->detectable.present) {
		b->detect_slower = mb->detectable.slower;
		b->detect_faster = mb->detectable.faster;
	}
	if (b->rule.kind == STATS_RULE_MARGIN && mb->noise_basis.present) {
		b->noise = mb->noise_basis.figure;
		b->noise_rounds = mb->noise_basis.rounds;
		b->noise_control = mb->noise_basis.control;
		b->margin = mb->noise_basis.margin;
		b->gap = mb->noise_basis.gap;
		b->noisy = mb->verdict == VERDICT_NOISY;
	} else if (mb->noise.present && b->rule.kind == STATS_RULE_SHIFT) {
		/* Under shift the control is a remark: tooNoisy records that it
		 * sits outside the base's pads, not a verdict on the host. */
		b->noise = mb->noise.relative;
		b->control_outside = mb->noise.too_noisy;
	} else if (mb->noise.present) {
		b->noise = mb->noise.relative;
		b->noisy = mb->noise.too_noisy;
	}
}

/*
 * hot_identical from the symbols: 1 when every one is byte for byte the
 * same, 2 when every one is the same code but some refer to data that
 * moved (their RIP-relative displacements differ: .rodata does not move
 * with .text), 0 when any changed, -1 when there are none.
 */
static void hot_summarize(struct report_bench *rb)
{
	rb->hot_identical = rb->n_hot ? 1 : -1;
	for (size_t k = 0; k < rb->n_hot; k++) {
		if (!rb->hot[k].same_code) {
			rb->hot_identical = 0;
			return;
		}
		if (!rb->hot[k].identical)
			rb->hot_identical = 2;
	}
}

/*
 * Hot-code identity across two bundles, from the artifacts' symbols: for
 * every symbol the benchmark names (filter), compare its SHA-256 at each
 * pad both sides built.  A symbol with no such pair is left out (unknown).
 */
static int hot_from_variants(struct report_bench *rb, const struct manifest *om,
			     enum manifest_side os, const struct manifest *nm,
			     enum manifest_side ns, const struct manifest_hot *filter,
			     struct plumb_err *err)
{
	size_t cap = 0;

	for (size_t v = 0; v < nm->build.n_variants; v++) {
		const struct manifest_variant *nv = &nm->build.variants[v];
		const struct manifest_variant *ov;
		if (nv->side != ns)
			continue;
		ov = manifest_find_variant(om, os, nv->pad);
		if (!ov)
			continue;
		for (size_t h = 0; h < nv->n_hot; h++) {
			const struct manifest_hot_symbol *nh = &nv->hot[h];
			const struct manifest_hot_symbol *oh = NULL;
			size_t k;
			int wanted = 0;

			for (k = 0; k < filter->n_symbols; k++)
				if (strcmp(filter->symbols[k].name, nh->name) == 0)
					wanted = 1;
			if (!wanted || !nh->sha256)
				continue;
			for (k = 0; k < ov->n_hot; k++)
				if (strcmp(ov->hot[k].name, nh->name) == 0)
					oh = &ov->hot[k];
			if (!oh || !oh->sha256)
				continue;
			for (k = 0; k < rb->n_hot; k++)
				if (strcmp(rb->hot[k].name, nh->name) == 0)
					break;
			if (k == rb->n_hot) {
				if (rb->n_hot == cap) {
					size_t nc = cap ? 2 * cap : 4;
					struct report_hot *hot = realloc(rb->hot, nc * sizeof(*hot));
					if (!hot)
						return plumb_err_oom(err, "hot code");
					rb->hot = hot;
					cap = nc;
				}
				rb->hot[k].name = nh->name;
				rb->hot[k].identical = 1;
				rb->hot[k].same_code = 1;
				rb->n_hot++;
			}
			if (strcmp(oh->sha256, nh->sha256) != 0)
				rb->hot[k].identical = rb->hot[k].same_code = 0;
		}
	}
	hot_summarize(rb);
	return 0;
}

static int hot_from_bench(struct report_bench *rb, const struct manifest_hot *h,
			  struct plumb_err *err)
{
	rb->hot_identical = h->identical ? 1 : 0;
	if (h->n_symbols == 0)
		return 0;
	/* The per-symbol verdicts decide from here on (see hot_summarize()). */
	rb->hot = calloc(h->n_symbols, sizeof(*rb->hot));
	if (!rb->hot)
		return plumb_err_oom(err, "hot code");
	for (size_t i = 0; i < h->n_symbols; i++) {
		rb->hot[i].name = h->symbols[i].name;
		rb->hot[i].identical = h->symbols[i].identical ? 1 : 0;
		rb->hot[i].same_code = rb->hot[i].identical ||
			(h->symbols[i].verdict &&
			 strcmp(h->symbols[i].verdict, "identical except addresses") == 0);
	}
	rb->n_hot = h->n_symbols;
	hot_summarize(rb);
	return 0;
}

/* "a, b, c" of the hot symbols whose identity is want, into out. */
static void hot_names(const struct report_bench *b, int want, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < b->n_hot && len < size; i++) {
		if (b->hot[i].same_code != want)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					len ? ", " : "", b->hot[i].name);
	}
	if (len >= size && size > 4) {
		out[size - 4] = '\0';
		utf8_cut(out);
		memcpy(out + strlen(out), "...", 4);
	}
}

static double ratio_of(double a, double b)
{
	if (isnan(a) || isnan(b) || b == 0)
		return NAN;
	return a / b;
}

/* Every remark a benchmark's evidence calls for, in a fixed order. */
static int bench_notes(struct report *r, struct report_bench *b,
		       const struct manifest_bench *mb,
		       const struct manifest_bench *ob, struct plumb_err *err)
{
	char x[UNITS_MAX], y[UNITS_MAX], names[512];
	const char *old_role = r->old_role;
	int rc = 0;

	if (b->old_failure)
		rc = report_add_note(b, err, "failed in the baseline: %s", b->old_failure);
	if (rc < 0 || !b->old || !b->new)
		return rc;

	if (b->withheld) {
		/* No remark that would give the withheld verdict away. */
	} else if (b->verdict == VERDICT_UNSWEPT) {
		char c[UNITS_MAX];

		units_level(b->rule.confidence, c);
		if (b->old->n_pads == 1 || b->new->n_pads == 1)
			rc = report_add_note(b, err, "unswept: a side was built at one pad only; the "
				      "difference points %s, but placement cannot be ruled out "
				      "without a sweep",
				      render_direction(b));
		else
			rc = report_add_note(b, err, "unswept: %zu and %zu pads are too few to rule out "
				      "placement at %s confidence; the difference points %s",
				      b->old->n_pads, b->new->n_pads, c, render_direction(b));
	} else if (b->verdict == VERDICT_INSUFFICIENT) {
		long long lo = b->old->rounds >= 0 && (b->new->rounds < 0 ||
			b->old->rounds < b->new->rounds) ? b->old->rounds : b->new->rounds;
		rc = report_add_note(b, err, "insufficient: a pad has %lld valid round%s, "
			      "fewer than the 3 a verdict needs", lo, lo == 1 ? "" : "s");
	}
	if (rc < 0)
		return rc;

	if (b->withheld) {
		/* As above. */
	} else if (b->verdict == VERDICT_NOISY) {
		char z[UNITS_MAX];
		units_percent(b->gap, x);
		units_percent(b->noise, y);
		rc = report_add_note(b, err, "too noisy to tell: the ranges are %s apart (%s), within "
			      "the noise %s the run measured (round to round %s%s%s)", x,
			      render_direction(b), y,
			      (units_percent(b->noise_rounds, z), z),
			      isnan(b->noise_control) ? "" : ", control ",
			      isnan(b->noise_control) ? "" : (units_percent(b->noise_control, names), names));
	} else if (b->noisy) {
		units_percent(b->noise, x);
		units_percent(b->old->spread, y);
		rc = report_add_note(b, err, "too noisy: the control moved %s between two builds "
			      "of the same code, comparable to the %s spread %s; the host is "
			      "too noisy for this benchmark", x, old_role, y);
	}
	if (rc < 0)
		return rc;
	if (!b->withheld && b->control_outside) {
		units_percent(b->noise, x);
		rc = report_add_note(b, err, "control outside the %s's pads: base pad 0 built again "
				     "measured %s away from base pad 0, beyond the %s's pad medians: "
				     "the build may not be reproducible, or the host drifted (a remark: "
				     "the shift's interval holds the placement and round noise)",
				     old_role, x, old_role);
		if (rc < 0)
			return rc;
	}
	if (!b->withheld && b->verdict != VERDICT_INSUFFICIENT && b->has_shift) {
		struct buf t;
		buf_init(&t, REPORT_NOTE_MAX);
		phrase_shift_detail(b, &t);
		if (!isnan(b->detect_slower)) {
			buf_addstr(&t, "; smallest detectable change ");
			phrase_detectable(b, &t);
			buf_printf(&t, " (%zu and %zu pads, placement)", b->old->n_pads, b->new->n_pads);
		}
		rc = report_add_note(b, err, "%s", buf_cstr(&t));
		buf_release(&t);
		if (rc < 0)
			return rc;
	} else if (!b->withheld && b->verdict != VERDICT_INSUFFICIENT &&
	    (!isnan(b->ratio_lo) || !isnan(b->detect_slower))) {
		struct buf t;
		char c[UNITS_MAX];

		buf_init(&t, REPORT_NOTE_MAX);
		if (!isnan(b->ratio_lo)) {
			buf_addstr(&t, "change ");
			phrase_change_signed(b, &t);
			units_level(b->rule.confidence, c);
			buf_printf(&t, ", %s interval over %s ", c,
				   r->kind == REPORT_SELF ? "pads and rounds" : "pads");
			phrase_interval(b, &t);
		}
		if (!isnan(b->detect_slower)) {
			buf_printf(&t, "%ssmallest detectable change ", t.len ? "; " : "");
			phrase_detectable(b, &t);
			buf_printf(&t, " (%zu and %zu pads%s)", b->old->n_pads, b->new->n_pads,
				   b->rule.kind == STATS_RULE_MARGIN ? ", placement and noise" :
				   ", placement");
		}
		rc = report_add_note(b, err, "%s", buf_cstr(&t));
		buf_release(&t);
		if (rc < 0)
			return rc;
	}

	if ((b->hot_identical == 1 || b->hot_identical == 2) && b->has_shift) {
		/* Under shift identity decides only with the same work shown. */
		hot_names(b, 1, names, sizeof(names));
		rc = report_add_note(b, err, "hot code identical%s%s%s%s: %s",
			      b->hot_identical == 2 ? " except the addresses of moved data" : "",
			      names[0] ? " (" : "", names, names[0] ? ")" : "",
			      b->hot_decided ? "the run showed the same work, so a difference is "
			      "placement" : b->work == STATS_WORK_DIFFERENT ? "a remark; the run showed "
			      "different work, so the timing decides" : "a remark; the same work "
			      "was not shown, so the timing decides");
	} else if (b->hot_identical == 1) {
		hot_names(b, 1, names, sizeof(names));
		rc = report_add_note(b, err, "hot code identical%s%s%s: a difference is placement",
			      names[0] ? " (" : "", names, names[0] ? ")" : "");
	} else if (b->hot_identical == 2) {
		hot_names(b, 1, names, sizeof(names));
		rc = report_add_note(b, err, "hot code identical except the addresses of moved data%s%s%s: "
			      "the same instructions, a difference is placement",
			      names[0] ? " (" : "", names, names[0] ? ")" : "");
	} else if (b->hot_identical == 0) {
		hot_names(b, 0, names, sizeof(names));
		rc = report_add_note(b, err, "hot code changed%s%s", names[0] ? ": " : "", names);
	}
	if (rc < 0)
		return rc;

	if (r->kind == REPORT_SELF && mb->profile.present) {
		struct buf t;
		char share[UNITS_MAX];

		buf_init(&t, REPORT_NOTE_MAX);
		units_level(mb->profile.coverage, share);
		buf_printf(&t, "hot set from the profile (%s of the samples):", share);
		for (int s = 0; s < 2; s++) {
			const struct manifest_profile_side *ps = s ? &mb->profile.candidate : &mb->profile.base;
			if (!ps->present)
				continue;
			buf_printf(&t, "%s %s", s && mb->profile.base.present ? ";" : "", s ? "candidate" : "base");
			for (size_t k = 0; k < ps->n_symbols && k < 8; k++) {
				units_percent(ps->symbols[k].share, share);
				buf_printf(&t, "%s %s %s", k ? "," : "", ps->symbols[k].name, share);
			}
			if (ps->n_symbols > 8)
				buf_printf(&t, ", ... (%zu in all)", ps->n_symbols);
		}
		rc = report_add_note(b, err, "%s", buf_cstr(&t));
		buf_release(&t);
		if (rc < 0)
			return rc;
	}

	if (b->behaviour_changed)
		rc = report_add_note(b, err, "behaviour changed: checksum %s \u2192 %s", b->ck_old, b->ck_new);
	else if (b->ck_consistent == 0)
		rc = report_add_note(b, err, "checksums disagree between variants of one side: "
			      "the benchmark's output depends on its build");
	if (rc < 0)
		return rc;

	if (!isnan(b->instr_ratio) && !isnan(b->cycles_ratio)) {
		double di = b->instr_ratio - 1, dc = b->cycles_ratio - 1;
		units_ratio(b->instr_ratio, x);
		units_ratio(b->cycles_ratio, y);
		if (fabs(di) <= REPORT_SAME_WORK && dc > REPORT_SAME_WORK)
			rc = report_add_note(b, err, "same instructions (\u00d7%s), more cycles (\u00d7%s): "
				      "placement or micro-architecture, not more work", x, y);
		else if (fabs(di) <= REPORT_SAME_WORK && dc < -REPORT_SAME_WORK)
			rc = report_add_note(b, err, "same instructions (\u00d7%s), fewer cycles (\u00d7%s): "
				      "placement or micro-architecture, not less work", x, y);
		else if (di > REPORT_SAME_WORK)
			rc = report_add_note(b, err, "more instructions (\u00d7%s, cycles \u00d7%s): "
				      "the candidate does more work", x, y);
		else if (di < -REPORT_SAME_WORK)
			rc = report_add_note(b, err, "fewer instructions (\u00d7%s, cycles \u00d7%s): "
				      "the candidate does less work", x, y);
		if (rc < 0)
			return rc;
	}

	if (b->mode == MANIFEST_MODE_SAMPLES) {
		struct buf t;
		buf_init(&t, REPORT_NOTE_MAX);
		if (b->steady && b->steady->present) {
			units_percent(b->steady->tolerance, x);
			if (!isnan(b->steady->start)) {
				char from[UNITS_MAX];

				units_whole(b->steady->start, from);
				buf_printf(&t, "steady state from sample %s", from);
			} else {
				buf_printf(&t, "steady state not reached");
			}
			buf_printf(&t, " (window %lld, tolerance %s)",
				   (long long)b->steady->window, x);
		}
		if (!isnan(b->old->p99) || !isnan(b->new->p99)) {
			units_value(b->old->p99, metric_dim(b->metric), 0, x);
			units_value(b->new->p99, metric_dim(b->metric), 0, y);
			buf_printf(&t, "%sp99 %s \u2192 %s", t.len ? "; " : "", x, y);
		}
		if (!isnan(b->old->co_p99) || !isnan(b->new->co_p99)) {
			units_value(b->old->co_p99, metric_dim(b->metric), 0, x);
			units_value(b->new->co_p99, metric_dim(b->metric), 0, y);
			buf_printf(&t, "%sco_p99 %s \u2192 %s", t.len ? "; " : "", x, y);
		}
		if (t.len)
			rc = report_add_note(b, err, "%s", buf_cstr(&t));
		buf_release(&t);
		if (rc < 0)
			return rc;
		if (b->steady && b->steady->present && b->steady->unsettled > 0) {
			rc = report_add_note(b, err, "no steady state in %lld series: flagged, not averaged",
				      (long long)b->steady->unsettled);
			if (rc < 0)
				return rc;
		}
	}

	/* A bundle against its own base: check the recorded verdict where the
	 * recorded pad medians suffice (the overlap and shift rules; the margin
	 * rule needs the rounds of samples.tsv, which bundle verification
	 * re-judges). */
	if (r->kind == REPORT_SELF && b->verdict != VERDICT_UNSET && !b->withheld &&
	    (b->rule.kind == STATS_RULE_OVERLAP || b->rule.kind == STATS_RULE_SHIFT)) {
		struct stats_judgement jd;
		enum verdict v;
		int shift = b->rule.kind == STATS_RULE_SHIFT;
		if (judge_recorded(b->old, b->new, &b->rule,
				   shift ? manifest_bench_hot(mb) : STATS_HOT_UNKNOWN,
				   shift ? manifest_bench_work(mb) : STATS_WORK_UNKNOWN, 0,
				   report_vg_deterministic(mb, NULL), &jd, err) < 0)
			return err->code;
		v = jd.verdict;
		if (v != b->verdict)
			rc = report_add_note(b, err, "the recorded verdict is %s, but the recorded pads "
				      "give %s", verdict_name(b->verdict),
				      verdict_name(v));
		if (rc < 0)
			return rc;
	}

	/* The bundle's own remarks are about its base: only for that comparison.
	 * A checksum change the report states above is not said twice. */
	for (size_t i = 0; r->kind == REPORT_SELF && i < mb->n_notes; i++) {
		if (b->behaviour_changed && strncmp(mb->notes[i], "behaviour changed:", 18) == 0)
			continue;
		if ((rc = report_add_note(b, err, "%s", mb->notes[i])) < 0)
			return rc;
	}
	(void)ob;
	return 0;
}

static int fill_bench(struct report *r, struct report_bench *b,
		      const struct manifest_bench *mb, const struct manifest_bench *ob,
		      struct plumb_err *err)
{
	enum manifest_side os = r->old.side;

	b->name = mb->name;
	b->mode = mb->mode;
	b->metric = mb->metric;
	b->ratio = NAN;
	b->noise = NAN;
	b->ratio_lo = b->ratio_hi = b->detect_slower = b->detect_faster = NAN;
	b->noise_rounds = b->noise_control = b->margin = b->gap = NAN;
	stats_rule_overlap(&b->rule);
	b->hot_identical = -1;
	b->ck_consistent = MANIFEST_UNKNOWN;
	b->instr_ratio = b->cycles_ratio = NAN;
	b->failure = mb->failure;

	if (r->kind == REPORT_BASELINE) {
		if (!ob)
			b->missing = "not in the baseline";
		else if (ob->failure)
			b->old_failure = ob->failure;
		else if (ob->metric != mb->metric)
			b->missing = "the baseline measured another metric";
		else if (ob->mode != mb->mode)
			b->missing = "the baseline measured in another mode";
	}
	if (b->failure || b->missing || b->old_failure)
		return bench_notes(r, b, mb, ob, err);

	b->old = side_of(r->kind == REPORT_SELF ? mb : ob, os);
	b->new = side_of(mb, MANIFEST_SIDE_CANDIDATE);
	b->control = side_of(mb, MANIFEST_SIDE_CONTROL);
	if (!b->old || !b->new) {
		b->old = b->new = NULL;
		b->missing = "a side was not recorded";
		return 0;
	}
	b->steady = mb->steady.present ? &mb->steady : NULL;

	if (r->kind == REPORT_SELF) {
		b->ratio = !isnan(mb->ratio) ? mb->ratio : ratio_of(b->new->center, b->old->center);
		take_recorded(b, mb);
		if (mb->hot.present && hot_from_bench(b, &mb->hot, err) < 0)
			return err->code;
		b->ck_old = checksum_of(mb, MANIFEST_SIDE_BASE);
		b->ck_new = checksum_of(mb, MANIFEST_SIDE_CANDIDATE);
		if (mb->checksum.present)
			b->ck_consistent = mb->checksum.consistent;
	} else {
		struct stats_judgement jd;
		double floor = NAN;
		b->ratio = ratio_of(b->new->center, b->old->center);
		/* The benchmark's own hot symbols, compared across the two bundles:
		 * as the job compared them, when it did; else their SHA-256s. */
		const struct manifest_hot *hv = r->new.hot_vs_old ? r->new.hot_vs_old(r->new.hot_ctx, mb->name)
								   : NULL;
		if (hv && hv->present) {
			if (hot_from_bench(b, hv, err) < 0)
				return err->code;
		} else if (mb->hot.present && mb->hot.n_symbols > 0 &&
			   hot_from_variants(b, r->old.m, os, r->new.m, MANIFEST_SIDE_CANDIDATE,
					     &mb->hot, err) < 0) {
			return err->code;
		}
		/* The new bundle's rule; the noise of either job bounds the margin. */
		manifest_bench_rule(mb, &b->rule);
		if (mb->noise_basis.present)
			floor = mb->noise_basis.figure;
		if (ob->noise_basis.present && !(ob->noise_basis.figure <= floor))
			floor = ob->noise_basis.figure;
		if (judge_recorded(b->old, b->new, &b->rule, hot_of(b), STATS_WORK_UNKNOWN, floor,
				   report_vg_deterministic(mb, ob), &jd, err) < 0)
			return err->code;
		take_judgement(b, &jd);
		if (b->rule.kind == STATS_RULE_OVERLAP) {
			if (mb->noise.present) {
				b->noise = mb->noise.relative;
				b->noisy = mb->noise.too_noisy;
			}
			if (ob->noise.present && ob->noise.too_noisy)
				b->noisy = 1;
		} else if (b->rule.kind == STATS_RULE_SHIFT && mb->noise.present) {
			/* The new job's control, a remark (take_recorded()). */
			b->noise = mb->noise.relative;
			b->control_outside = mb->noise.too_noisy;
		}
		b->ck_old = checksum_of(ob, os);
		b->ck_new = checksum_of(mb, MANIFEST_SIDE_CANDIDATE);
		if (ob->checksum.present && mb->checksum.present)
			b->ck_consistent = ob->checksum.consistent && mb->checksum.consistent;
	}
	b->behaviour_changed = b->ck_old && b->ck_new && strcmp(b->ck_old, b->ck_new) != 0;
	if (b->old->counters.present && b->new->counters.present) {
		const double *o = b->old->counters.value, *n = b->new->counters.value;
		int ki = metric_table[METRIC_INSTRUCTIONS].counter;
		int kc = metric_table[METRIC_CYCLES].counter;

		b->instr_ratio = ratio_of(n[ki], o[ki]);
		b->cycles_ratio = ratio_of(n[kc], o[kc]);
	}
	b->withheld = r->withheld && b->verdict != VERDICT_UNSET;
	if (report_vg_attach(r, b, mb, ob, err) < 0)
		return err->code;
	b->dist_old = report_dist_find(r->old.dist, b->name, os);
	b->dist_new = report_dist_find(r->new.dist, b->name, MANIFEST_SIDE_CANDIDATE);
	if (r->kind == REPORT_SELF)
		b->dist_control = report_dist_find(r->new.dist, b->name, MANIFEST_SIDE_CONTROL);
	return bench_notes(r, b, mb, ob, err);
}


/*
 * Holm's family: every benchmark shown with a p (the shift rule's), but
 * an insufficient one (its p judges nothing); their p_holm adjusted over
 * r->holm_n of them, the others' NAN.
 */
static int holm(struct report *r, struct plumb_err *err)
{
	double *p;
	size_t n = 0;

	for (size_t i = 0; i < r->n_benches; i++)
		r->benches[i].p_holm = NAN;
	p = malloc((r->n_benches ? r->n_benches : 1) * sizeof(*p));
	if (!p)
		return plumb_err_oom(err, "report gate");
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		if (report_bench_shown(b) && b->has_shift && !isnan(b->p) && b->verdict != VERDICT_INSUFFICIENT)
			p[n++] = b->p;
	}
	if (stats_holm(p, n, p) < 0) {
		free(p);
		return plumb_err_oom(err, "report gate");
	}
	r->holm_n = n;
	n = 0;
	for (size_t i = 0; i < r->n_benches; i++) {
		struct report_bench *b = &r->benches[i];
		if (report_bench_shown(b) && b->has_shift && !isnan(b->p) && b->verdict != VERDICT_INSUFFICIENT)
			b->p_holm = p[n++];
	}
	free(p);
	return 0;
}

static void count(struct report *r, const struct report_bench *b)
{
	struct report_counts *c = &r->counts;

	if (b->failure || b->old_failure) {
		c->failed++;
		return;
	}
	if (b->missing || b->verdict == VERDICT_UNSET) {
		c->missing++;
		return;
	}
	if (b->withheld) {
		c->withheld++;
		return;
	}
	if (b->verdict > VERDICT_UNSET && b->verdict < VERDICT_COUNT)
		c->verdict[b->verdict]++;
}

static int host_part(struct report *r, struct plumb_err *err)
{
	const struct manifest *nm = r->new.m, *om = r->old.m;
	int rc;

	rc = hostdiff_compare(&r->host, nm->host.start, nm->host.end, HOSTDIFF_JOB, err);
	if (rc == 0 && r->kind == REPORT_BASELINE)
		rc = hostdiff_compare(&r->host, om->host.start, nm->host.start,
				      HOSTDIFF_BASELINE, err);
	if (rc == 0)
		rc = hostdiff_state(&r->host, nm->host.start, NULL, err);
	if (rc == 0 && nm->host.end)
		rc = hostdiff_state(&r->host, nm->host.end, NULL, err);
	if (rc == 0)
		rc = hostdiff_load(&r->host, &nm->run, nm->host.start, NULL, err);
	if (rc == 0 && r->kind == REPORT_BASELINE)
		rc = hostdiff_load(&r->host, &om->run, om->host.start, "baseline", err);
	if (rc == 0 && r->kind == REPORT_BASELINE)
		rc = hostdiff_state(&r->host, om->host.start, "baseline host", err);
	if (rc == 0 && r->kind == REPORT_SELF)
		rc = hostdiff_table(&r->host, nm->host.start, nm->host.end,
				    "start", "end", err);
	else if (rc == 0)
		rc = hostdiff_table(&r->host, om->host.start, nm->host.start,
				    "baseline", "this bundle", err);
	return rc;
}

int report_compare(struct report *r, enum report_kind kind,
		   const struct report_side *old, const struct report_side *new,
		   int force, struct plumb_err *err)
{
	const struct manifest *nm = new->m, *om = old->m;
	size_t cap;
	int rc;

	memset(r, 0, sizeof(*r));
	hostdiff_init(&r->host);
	r->kind = kind;
	r->old = *old;
	r->new = *new;
	if (kind == REPORT_SELF)
		r->old.side = MANIFEST_SIDE_BASE;
	r->new.side = MANIFEST_SIDE_CANDIDATE;
	r->old_role = kind == REPORT_SELF ? "base" : "baseline";
	r->new_role = "candidate";
	r->old_commit = commit_of(om, r->old.side);
	r->new_commit = commit_of(nm, MANIFEST_SIDE_CANDIDATE);
	r->forced = force;

	if ((rc = host_part(r, err)) < 0)
		goto fail;
	r->withheld = !r->host.comparable && !force;

	cap = nm->n_benches + (kind == REPORT_BASELINE ? om->n_benches : 0);
	if (cap) {
		r->benches = calloc(cap, sizeof(*r->benches));
		if (!r->benches) {
			rc = plumb_err_oom(err, "report");
			goto fail;
		}
	}
	for (size_t i = 0; i < nm->n_benches; i++) {
		const struct manifest_bench *mb = &nm->benches[i];
		const struct manifest_bench *ob =
			kind == REPORT_BASELINE ? manifest_find_bench(om, mb->name) : NULL;
		struct report_bench *b = &r->benches[r->n_benches++];
		if ((rc = fill_bench(r, b, mb, ob, err)) < 0)
			goto fail;
		count(r, b);
	}
	/* A baseline's benchmark this bundle did not run is worth a line. */
	for (size_t i = 0; kind == REPORT_BASELINE && i < om->n_benches; i++) {
		const struct manifest_bench *ob = &om->benches[i];
		struct report_bench *b;
		if (manifest_find_bench(nm, ob->name))
			continue;
		b = &r->benches[r->n_benches++];
		b->name = ob->name;
		b->mode = ob->mode;
		b->metric = ob->metric;
		b->ratio = b->noise = b->instr_ratio = b->cycles_ratio = NAN;
		b->hot_identical = -1;
		b->ck_consistent = MANIFEST_UNKNOWN;
		b->missing = "not in this bundle";
		count(r, b);
	}
	if ((rc = holm(r, err)) < 0)
		goto fail;
	return 0;
fail:
	report_release(r);
	return rc;
}

void report_release(struct report *r)
{
	for (size_t i = 0; i < r->n_benches; i++) {
		struct report_bench *b = &r->benches[i];
		for (size_t k = 0; k < b->n_notes; k++)
			free(b->notes[k]);
		free(b->notes);
		free(b->hot);
	}
	free(r->benches);
	hostdiff_release(&r->host);
	memset(r, 0, sizeof(*r));
	hostdiff_init(&r->host);
}
