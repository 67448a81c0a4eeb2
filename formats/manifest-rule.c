/*
 * formats/manifest-rule.c: judgements to and from the manifest
 * (manifest-rule.h; the fields are in formats/bundle-v1.md).
 */
#include <math.h>
#include <string.h>

#include "common/err.h"
#include "formats/manifest-rule.h"
#include "common/banned.h"

enum manifest_verdict manifest_verdict_of(enum stats_verdict v)
{
	switch (v) {
	case STATS_VERDICT_SLOWER: return MANIFEST_VERDICT_SLOWER;
	case STATS_VERDICT_FASTER: return MANIFEST_VERDICT_FASTER;
	case STATS_VERDICT_PLACEMENT: return MANIFEST_VERDICT_PLACEMENT;
	case STATS_VERDICT_UNSWEPT: return MANIFEST_VERDICT_UNSWEPT;
	case STATS_VERDICT_INSUFFICIENT: return MANIFEST_VERDICT_INSUFFICIENT;
	case STATS_VERDICT_NOISY: return MANIFEST_VERDICT_NOISY;
	}
	return MANIFEST_VERDICT_INSUFFICIENT;
}

static void set_range(struct manifest_side_stats *s, const struct stats_side_judged *js)
{
	if (!s->present)
		return;
	s->range_lo = js->lo;
	s->range_hi = js->hi;
}

int manifest_set_judgement(struct manifest_bench *mb, const struct stats_judgement *jd,
			   struct plumb_err *err)
{
	const struct stats_rule *ru = &jd->rule;
	const char *reason;

	mb->verdict = manifest_verdict_of(jd->verdict);
	mb->direction = MANIFEST_DIRECTION_UNSET;
	if (mb->verdict == MANIFEST_VERDICT_UNSWEPT || mb->verdict == MANIFEST_VERDICT_NOISY)
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
		mb->noise.too_noisy = jd->noisy ? 1 : 0;
	}
	return 0;
}

void manifest_bench_rule(const struct manifest_bench *mb, struct stats_rule *out)
{
	if (!mb->rule.present || !mb->rule.name ||
	    stats_rule_select(mb->rule.name, (int)mb->rule.version, out) < 0) {
		stats_rule_overlap(out);
		return;
	}
	out->confidence = mb->rule.confidence;
	out->noise_factor = mb->rule.noise_factor;
	out->resamples = (unsigned)mb->rule.resamples;
	out->seed = (uint64_t)mb->rule.seed;
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
