/*
 * reports/distribution.h: per-pad distributions of every benchmark, for
 * the HTML report's box plots (samples mode), strip plots (process mode)
 * and its samples over rounds.
 *
 * The manifest keeps one number per pad (the median over rounds of the
 * per-round medians); the spread of the individual samples behind it is
 * only in samples.tsv.  A distribution is built by feeding it every row
 * of samples.tsv (report_dist_add), in whatever order the rows and the
 * manifest arrive, then finished once with the manifest: each series (a
 * samples-mode benchmark's side and pad, in its metric) is reduced to a
 * few quantiles.
 *
 * Warmup: rows before a series' steady state are left out the way the
 * run left them out, as far as the manifest records it: with warmup
 * policy "<N>" the first N iterations of every round; with "auto" the
 * iterations before benches[].steadyState.start (the median start, so an
 * approximation per round); with "none" nothing.
 *
 * Memory is bounded: a series keeps at most REPORT_DIST_KEEP values; past
 * that it keeps every second one, then every fourth, and so on (the same
 * values on every run, so reports stay reproducible); at most
 * REPORT_DIST_SERIES series are kept, rows of any other are counted only.
 *
 * Ownership: report_dist_new() returns a heap object freed with
 * report_dist_free(); report_dist_finish() copies what it needs from the
 * manifest.
 * Pointers returned by report_dist_find() live as long as the object.
 */
#ifndef PLUMB_REPORTS_DISTRIBUTION_H
#define PLUMB_REPORTS_DISTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "formats/manifest.h"

struct plumb_err;

#define REPORT_DIST_KEEP 16384    /* values kept per series */
#define REPORT_DIST_SERIES 4096   /* series kept (bench, metric, side, pad) */
#define REPORT_DIST_ROUNDS 100000 /* rows of a later round are left out */

/* The quantiles of one pad's samples, and its value per round. */
struct report_dist_pad {
	uint32_t pad;
	uint64_t n;           /* samples seen (after warmup), kept or not */
	double min, p1, p25, p50, p75, p99, max;
	/* Per round r (0-based, as samples.tsv numbers them): process mode the
	 * round's value, samples mode the median of its kept samples; NAN for
	 * a round without one.  n_rounds is the largest round seen + 1. */
	double *rounds;
	size_t n_rounds;
};

/* One side of one benchmark: its pads in pad order. */
struct report_dist_side {
	const struct report_dist_pad *pads;
	size_t n_pads;
};

struct report_dist;

/* An empty distribution; NULL when memory runs out. */
struct report_dist *report_dist_new(void);
void report_dist_free(struct report_dist *d);

/*
 * One row of samples.tsv (iter UINT64_MAX for a process-mode row, which
 * is one value per round); which rows count is decided at the finish.
 */
int report_dist_add(struct report_dist *d, const char *bench,
		    enum manifest_side side, uint32_t pad, uint32_t round, uint64_t iter,
		    const char *metric, double value, struct plumb_err *err);

/*
 * Reduce the series of m's benchmarks (their metric; samples mode after
 * their warmup, process mode its rows) to quantiles and values per
 * round; no report_dist_add() after it.
 */
int report_dist_finish(struct report_dist *d, const struct manifest *m,
		       struct plumb_err *err);

/* A benchmark's side, or NULL when it has no samples. */
const struct report_dist_side *report_dist_find(const struct report_dist *d,
						const char *bench,
						enum manifest_side side);

#endif
