/*
 * stats/verdict.h: pad reduction, the verdict, and the noise check
 * (seed 000, DESIGN §6).
 *
 * Per side: center = median of the pad medians (each pad's median over its
 * rounds), range = [min, max] of them, spread = (max - min) / center.
 * Candidate vs base: "slower" when the candidate's range lies wholly above
 * the base's, "faster" when wholly below, else "placement" (touching
 * ranges overlap).  With a single pad on either side a non-overlap is
 * "unswept" with its direction, never slower/faster; an overlap is still
 * "placement".  "insufficient" when any pad of either side has fewer than
 * STATS_MIN_ROUNDS rounds (or a side is missing).  Higher is worse for
 * every metric plumb records (time, cycles, instructions).
 *
 * Ownership: plain values; nothing allocates (stats_side_reduce takes a
 * caller scratch array of npads doubles).
 */
#ifndef PLUMB_VERDICT_H
#define PLUMB_VERDICT_H

#include <stddef.h>

#include "common/verdict.h"

#define STATS_MIN_ROUNDS 3

struct stats_side {
	size_t npads;            /* >= 1 */
	size_t min_rounds;       /* the fewest rounds of any pad */
	double center;           /* median of the pad medians */
	double min, max;         /* range of the pad medians */
	double spread;           /* (max - min) / center */
	int has_spread;          /* 0 when center is 0 and max > min */
};

/* Reduce npads >= 1 pad medians; scratch holds npads doubles. */
void stats_side_reduce(const double *pad_medians, size_t npads, size_t min_rounds,
		       double *scratch, struct stats_side *out);


enum stats_direction {
	STATS_DIR_NONE,          /* ranges overlap (or not judged) */
	STATS_DIR_SLOWER,        /* candidate range wholly above */
	STATS_DIR_FASTER         /* candidate range wholly below */
};

struct stats_verdict_result {
	enum verdict verdict;
	enum stats_direction direction;   /* set for slower, faster, unswept */
	int has_ratio;
	double ratio;            /* candidate center / base center */
};

/* Judge candidate against base (both reduced). */
void stats_verdict_judge(const struct stats_side *base, const struct stats_side *cand,
			 struct stats_verdict_result *out);

/* NULL for NONE, "slower", "faster". */
const char *stats_direction_name(enum stats_direction d);

struct stats_noise {
	int has;                 /* 0 when base center is 0 */
	double noise;            /* |base pad 0 - control| / base center */
	double limit;            /* half the base spread */
	int noisy;               /* noise > limit */
};

/* The control check of seed 000: the rebuilt pad 0 against pad 0. */
void stats_noise_check(double base_pad0, double control, const struct stats_side *base,
		       struct stats_noise *out);

#endif
