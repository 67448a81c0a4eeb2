/*
 * bench/judge-cost.c: time the rule's judgement (stats_judge(): the
 * bootstrap of the ratio of the sides' centers is nearly all of it) on
 * generated sides, with the vector draws where the CPU has them and with
 * the scalar ones, for bench/judge.sh.  Not installed.
 *
 * usage: judge-cost [REPEAT]
 *
 * For each shape (pads x rounds a side) prints the fastest of REPEAT
 * (default 21) judgements on each path and the interval both gave, which
 * must be the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats/rule.h"
#include "common/banned.h"

#define MAXP 9
#define MAXR 2100

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* npads pads of n rounds around center, spread 5%, pads 1% apart. */
static void side(struct stats_pad_in *pads, double *v, size_t npads, size_t n, double center,
		 uint64_t *s)
{
	for (size_t p = 0; p < npads; p++) {
		for (size_t r = 0; r < n; r++) {
			*s = *s * 6364136223846793005ull + 1442695040888963407ull;
			v[p * n + r] = center * (1 + 0.05 * ((double)(*s >> 11) / 9007199254740992.0)) *
				       (1 + 0.01 * (double)p);
		}
		memset(&pads[p], 0, sizeof(pads[p]));
		pads[p].pad = (uint32_t)p;
		pads[p].n = n;
		pads[p].values = v + p * n;
	}
}

static double best_of(const struct stats_rule *rule, const struct stats_judge_in *in,
		      int repeat, struct stats_judgement *jd)
{
	double best = 1e300;

	for (int k = 0; k < repeat; k++) {
		double t0 = now_ms();
		if (stats_judge(rule, in, jd) != 0) {
			fprintf(stderr, "judge-cost: stats_judge failed\n");
			exit(1);
		}
		if (now_ms() - t0 < best)
			best = now_ms() - t0;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const struct { size_t npads, n; } shape[] = {
		{ 1, 520 }, { 4, 130 }, { 9, 33 }, { 4, 500 }, { 3, 2049 },
	};
	static struct stats_pad_in pb[MAXP], pc[MAXP];
	static double vb[MAXP * MAXR], vc[MAXP * MAXR];
	int repeat = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 21;
	struct stats_rule rule;
	int vector;

	if (repeat < 1)
		repeat = 1;
	stats_rule_default(&rule);
	vector = stats_boot_vector(1);
	printf("%d resamples; vector draws (AVX-512): %s\n", (int)rule.resamples,
	       vector ? "yes" : "not on this CPU");
	printf("%-22s %12s %12s %8s  interval\n", "pads x rounds a side", "vector", "scalar",
	       "speed-up");
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++) {
		struct stats_judge_in in;
		struct stats_judgement jv, js;
		uint64_t s = 42 + i;
		double tv = 0, ts;
		char what[32];

		side(pb, vb, shape[i].npads, shape[i].n, 100, &s);
		side(pc, vc, shape[i].npads, shape[i].n, 101, &s);
		memset(&in, 0, sizeof(in));
		in.base.pads = pb;
		in.base.npads = shape[i].npads;
		in.candidate.pads = pc;
		in.candidate.npads = shape[i].npads;
		if (vector) {
			stats_boot_vector(1);
			tv = best_of(&rule, &in, repeat, &jv);
		}
		stats_boot_vector(0);
		ts = best_of(&rule, &in, repeat, &js);
		snprintf(what, sizeof(what), "%zu x %zu", shape[i].npads, shape[i].n);
		if (vector) {
			printf("%-22s %9.3f ms %9.3f ms %7.2fx  [%.6f, %.6f]%s\n", what, tv, ts, ts / tv,
			       js.ratio_lo, js.ratio_hi,
			       jv.ratio_lo == js.ratio_lo && jv.ratio_hi == js.ratio_hi ? "" :
			       "  DIFFERENT");
			if (jv.ratio_lo != js.ratio_lo || jv.ratio_hi != js.ratio_hi)
				return 1;
		} else {
			printf("%-22s %12s %9.3f ms %8s  [%.6f, %.6f]\n", what, "-", ts, "-",
			       js.ratio_lo, js.ratio_hi);
		}
	}
	return 0;
}
