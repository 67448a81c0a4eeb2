/*
 * formats/manifest-rule.c: the recorded rule and hot identity of a
 * benchmark; see manifest-rule.h.
 */
#include <string.h>

#include "formats/manifest-rule.h"
#include "common/banned.h"

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
