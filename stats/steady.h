/*
 * stats/steady.h: where a timed loop's warmup transient ends (seed 001),
 * and the warmup policies built on it.
 *
 * The detector is the seed's trailing-window mean test, with two changes
 * that the seed's own cautions call for, both recorded with every result:
 *
 * 1. The two windows compared are adjacent and disjoint: x[s, s+w) and
 *    x[s+w, s+2w).  The seed compares windows that overlap in all but one
 *    sample, so their means differ by (x[i] - x[i-w]) / w, a single pair
 *    of samples shrunk w times: any tolerance fires on the first window of
 *    any decay.  Disjoint windows compare the level of one window with the
 *    next.  For the first s with |m2 - m1| / m1 < tolerance, the first
 *    steady index is s + w, the start of the later window (the seed, too,
 *    returns the start of its later window): a flat series is steady from
 *    index w, and a decay from about where it meets its plateau.  A series
 *    shorter than 2w is "too short".
 *
 * 2. "The tolerance must be compared against the run-to-run variation of
 *    the harness, not against zero": the effective tolerance is
 *
 *        max(requested, K * sigma / mu * sqrt(2 / w))
 *
 *    where mu is the median of the series' second half and sigma its noise,
 *    estimated from first differences so that a drift does not count as
 *    noise: sigma = 1.4826 * MAD(d) / sqrt(2), d[i] = x[i+1] - x[i] over the
 *    second half.  sigma * sqrt(2 / w) is the standard deviation of the
 *    difference of two w-sample means of that noise, so with K = 3 a
 *    steady pair of windows fails the test about 0.3% of the time (which
 *    only delays the answer), while a step of 3 noise-sigmas of the window
 *    means is still seen.
 *
 * A detector built this way cannot see a drift slower than the tolerance
 * per window; such a series is reported steady from the point where the
 * drift per window falls under it.
 *
 * Ownership: nothing allocates; the caller passes scratch space of at least
 * n / 2 + 1 doubles.  Results are plain values.
 */
#ifndef PLUMB_STATS_STEADY_H
#define PLUMB_STATS_STEADY_H

#include <stddef.h>

#define STATS_STEADY_WINDOW 30        /* seed 001's default */
#define STATS_STEADY_TOLERANCE 0.01   /* requested: 1% of the window mean */
#define STATS_STEADY_NOISE_K 3.0      /* noise floor: 3 sigma of a mean difference */

enum stats_steady_status {
	STATS_STEADY_FOUND,      /* start is the first steady index */
	STATS_STEADY_NONE,       /* no two adjacent windows agree: never settles */
	STATS_STEADY_TOO_SHORT   /* fewer than two windows of samples */
};

struct stats_steady {
	enum stats_steady_status status;
	size_t start;            /* first steady index when FOUND (>= window), else 0 */
	size_t window;           /* w */
	double tolerance;        /* as requested */
	double tolerance_eff;    /* as applied: the requested one or the noise floor */
};

/*
 * Run the detector on x[0..n) with window w >= 2 and a requested tolerance
 * > 0; scratch holds n / 2 + 1 doubles.
 */
void stats_steady_detect(const double *x, size_t n, size_t window, double tolerance,
			 double *scratch, struct stats_steady *out);

/* "none" / "found" / "too-short". */
const char *stats_steady_status_name(enum stats_steady_status s);

/*
 * Warmup policies (DESIGN §4 `warmup`):
 *   auto   the detector; a series that never settles (or is too short) is
 *          kept whole and flagged, never silently trimmed;
 *   N      the first N samples are discarded (fixed);
 *   none   cold mode: every sample is kept, the first one included.
 */
enum stats_warmup_kind {
	STATS_WARMUP_AUTO,
	STATS_WARMUP_FIXED,
	STATS_WARMUP_NONE
};

struct stats_warmup {
	enum stats_warmup_kind kind;
	size_t discard;          /* FIXED: samples to drop */
	size_t window;           /* AUTO: detector window */
	double tolerance;        /* AUTO: requested tolerance */
};

/* auto, STATS_STEADY_WINDOW, STATS_STEADY_TOLERANCE. */
void stats_warmup_default(struct stats_warmup *w);

/*
 * Parse "auto", "none" or a whole number N (0 <= N <= 10^9) into w's kind
 * and discard, keeping its window and tolerance.  Returns 0 or -1.
 */
int stats_warmup_parse(const char *s, struct stats_warmup *w);

/* "auto", "fixed", "none". */
const char *stats_warmup_kind_name(enum stats_warmup_kind k);

struct stats_warmup_result {
	enum stats_warmup_kind kind;
	size_t start;            /* samples x[start..n) are kept; start == n: none */
	int steady;              /* 1 when the kept samples are known steady or
	                            the policy does not ask (fixed, none) */
	struct stats_steady detect;   /* AUTO only (else status NONE, zeros) */
};

/* Apply a policy to x[0..n); scratch as for stats_steady_detect (AUTO). */
void stats_warmup_apply(const struct stats_warmup *w, const double *x, size_t n,
			double *scratch, struct stats_warmup_result *out);

#endif
