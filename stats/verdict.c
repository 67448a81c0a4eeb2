/*
 * stats/verdict.c: pad reduction, verdict and noise; rules in verdict.h.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "stats/quantile.h"
#include "stats/verdict.h"
#include "common/banned.h"

void stats_side_reduce(const double *pad_medians, size_t npads, size_t min_rounds,
		       double *scratch, struct stats_side *out)
{
	assert(npads >= 1);
	memset(out, 0, sizeof(*out));
	out->npads = npads;
	out->min_rounds = min_rounds;
	out->center = stats_median(pad_medians, npads, scratch);
	out->min = stats_min(pad_medians, npads);
	out->max = stats_max(pad_medians, npads);
	assert(out->min <= out->center && out->center <= out->max);
	if (out->center > 0) {
		out->spread = (out->max - out->min) / out->center;
		out->has_spread = 1;
	} else {
		out->spread = 0;
		out->has_spread = out->max == out->min;
	}
}

void stats_verdict_judge(const struct stats_side *base, const struct stats_side *cand,
			 struct stats_verdict_result *out)
{
	assert(base->npads >= 1 && cand->npads >= 1);
	assert(base->min <= base->max && cand->min <= cand->max);
	memset(out, 0, sizeof(*out));
	if (base->center > 0) {
		out->has_ratio = 1;
		out->ratio = cand->center / base->center;
	}
	if (base->min_rounds < STATS_MIN_ROUNDS || cand->min_rounds < STATS_MIN_ROUNDS) {
		out->verdict = VERDICT_INSUFFICIENT;
		return;
	}
	/* Touching ranges (cand->min == base->max) overlap: placement. */
	if (cand->min > base->max)
		out->direction = STATS_DIR_SLOWER;
	else if (cand->max < base->min)
		out->direction = STATS_DIR_FASTER;
	if (out->direction == STATS_DIR_NONE)
		out->verdict = VERDICT_PLACEMENT;
	else if (base->npads == 1 || cand->npads == 1)
		out->verdict = VERDICT_UNSWEPT;
	else
		out->verdict = out->direction == STATS_DIR_SLOWER ? VERDICT_SLOWER
								  : VERDICT_FASTER;
}

const char *stats_direction_name(enum stats_direction d)
{
	switch (d) {
	case STATS_DIR_NONE: return NULL;
	case STATS_DIR_SLOWER: return "slower";
	case STATS_DIR_FASTER: return "faster";
	}
	return NULL;
}

void stats_noise_check(double base_pad0, double control, const struct stats_side *base,
		       struct stats_noise *out)
{
	memset(out, 0, sizeof(*out));
	if (!(base->center > 0))
		return;
	out->has = 1;
	out->noise = fabs(base_pad0 - control) / base->center;
	out->limit = base->spread / 2;
	out->noisy = out->noise > out->limit;
}
