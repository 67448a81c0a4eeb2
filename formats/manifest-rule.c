/*
 * formats/manifest-rule.c: the recorded rule and hot identity of a
 * benchmark; see manifest-rule.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/manifest-rule.h"
#include "stats/analysis.h"
#include "stats/quantile.h"
#include "common/banned.h"

void manifest_bench_rule(const struct manifest_bench *mb, struct stats_rule *out)
{
	if (!mb->rule.present || !mb->rule.name ||
	    stats_rule_select(mb->rule.name, (int)mb->rule.version, out) < 0) {
		stats_rule_overlap(out);
		return;
	}
	out->confidence = mb->rule.confidence;
	if (out->kind == STATS_RULE_SHIFT) {
		out->min_effect = mb->rule.min_effect;
		return;
	}
	out->noise_factor = mb->rule.noise_factor;
	out->resamples = (unsigned)mb->rule.resamples;
	out->seed = (uint64_t)mb->rule.seed;
}

enum stats_work manifest_bench_work(const struct manifest_bench *mb)
{
	if (!mb->work)
		return STATS_WORK_UNKNOWN;
	return strcmp(mb->work, "same") == 0 ? STATS_WORK_SAME : STATS_WORK_DIFFERENT;
}

enum stats_hot manifest_bench_hot(const struct manifest_bench *mb)
{
	int same_code = 0;

	if (!mb->hot.present)
		return STATS_HOT_UNKNOWN;
	if (mb->hot.n_symbols == 0)
		return mb->hot.identical == 1 ? STATS_HOT_IDENTICAL : STATS_HOT_CHANGED;
	for (size_t k = 0; k < mb->hot.n_symbols; k++) {
		const struct manifest_hot_cmp *h = &mb->hot.symbols[k];
		if (h->identical == 1)
			continue;
		if (h->verdict && strcmp(h->verdict, "identical except addresses") == 0)
			same_code = 1;
		else
			return STATS_HOT_CHANGED;
	}
	return same_code ? STATS_HOT_SAME_CODE : STATS_HOT_IDENTICAL;
}

int manifest_record_side(struct manifest_side_stats *s, const struct analysis_side_result *as,
			 int samples, struct plumb_err *err)
{
	double *scratch;

	if (as->npads == 0)
		return 0;
	s->present = 1;
	s->pads = calloc(as->npads, sizeof(*s->pads));
	scratch = calloc(as->npads, sizeof(*scratch));
	if (!s->pads || !scratch) {
		free(scratch);
		return plumb_err_oom(err, "manifest");
	}
	s->n_pads = as->npads;
	for (size_t k = 0; k < as->npads; k++)
		s->pads[k] = as->pads[k].median;
	s->center = as->summary.center;
	s->min = as->summary.min;
	s->max = as->summary.max;
	if (as->summary.has_spread)
		s->spread = as->summary.spread;
	s->rounds = (int64_t)as->summary.min_rounds;
	if (samples) {
		for (size_t k = 0; k < as->npads; k++)
			scratch[k] = as->pads[k].p99;
		s->p99 = stats_median_inplace(scratch, as->npads);
		for (size_t k = 0; k < as->npads; k++)
			scratch[k] = as->pads[k].co_p99;
		s->co_p99 = stats_median_inplace(scratch, as->npads);
	}
	free(scratch);
	return 0;
}

static void set_range(struct manifest_side_stats *s, const struct stats_side_judged *js)
{
	if (!s->present)
		return;
	s->range_lo = js->lo;
	s->range_hi = js->hi;
}

int manifest_record_judgement(struct manifest_bench *mb, const struct stats_judgement *jd,
			 struct plumb_err *err)
{
	const struct stats_rule *ru = &jd->rule;
	const char *reason;

	mb->verdict = jd->verdict;
	mb->direction = MANIFEST_DIRECTION_UNSET;
	if (verdict_directed(mb->verdict))
		mb->direction = jd->direction == STATS_DIR_FASTER ? MANIFEST_DIRECTION_FASTER
								  : MANIFEST_DIRECTION_SLOWER;
	mb->ratio = jd->has_ratio ? jd->ratio : NAN;
	mb->rule.present = 1;
	if (manifest_set_str(&mb->rule.name, stats_rule_name(ru->kind)) < 0)
		return plumb_err_oom(err, "manifest");
	mb->rule.version = ru->version;
	mb->rule.confidence = ru->confidence;
	mb->rule.noise_factor = ru->noise_factor;
	mb->rule.resamples = ru->resamples;
	mb->rule.seed = (int64_t)(ru->seed & INT64_MAX);
	mb->rule.min_effect = ru->kind == STATS_RULE_SHIFT ? ru->min_effect : NAN;
	mb->shift.present = jd->has_shift;
	if (jd->has_shift) {
		mb->shift.estimate = jd->shift;
		mb->shift.lo = jd->shift_lo;
		mb->shift.hi = jd->shift_hi;
		mb->shift.level = jd->shift_level;
		mb->shift.p = jd->p;
		mb->shift.p_min = jd->p_min;
	}
	reason = jd->why[0] ? jd->why : stats_reason_name(jd->reason);
	if (manifest_set_str(&mb->reason, reason[0] ? reason : NULL) < 0)
		return plumb_err_oom(err, "manifest");
	mb->interval.present = jd->has_interval;
	mb->interval.lo = jd->has_interval ? jd->ratio_lo : NAN;
	mb->interval.hi = jd->has_interval ? jd->ratio_hi : NAN;
	if (jd->has_noise && ru->kind == STATS_RULE_MARGIN) {
		mb->noise_basis.present = 1;
		mb->noise_basis.figure = jd->noise;
		mb->noise_basis.rounds = jd->noise_rounds;
		mb->noise_basis.control = jd->has_control_noise ? jd->noise_control : NAN;
		mb->noise_basis.margin = jd->margin;
		mb->noise_basis.gap = jd->has_ratio ? jd->gap : NAN;
	}
	mb->detectable.present = jd->has_detectable;
	mb->detectable.slower = jd->has_detectable ? jd->detect_slower : NAN;
	mb->detectable.faster = jd->has_detectable ? jd->detect_faster : NAN;
	if (jd->reason != STATS_REASON_MISSING) {
		set_range(&mb->base, &jd->base);
		set_range(&mb->candidate, &jd->candidate);
		if (jd->has_control)
			set_range(&mb->control, &jd->control);
	}
	/* The control's distance, as the seeds record it; "too noisy" is the
	 * rule's own finding (margin: the verdict noisy). */
	if (jd->has_control_noise) {
		mb->noise.present = 1;
		mb->noise.relative = jd->noise_control;
		mb->noise.too_noisy = jd->noisy || jd->control_outside ? 1 : 0;
	}
	return 0;
}
