/*
 * runner/run.h: `plumb run` end to end (DESIGN §5): host facts, the builds
 * (runner/build.h), warmup runs and interleaved rounds of every benchmark
 * (runner/measure.h, runner/schedule.h), the statistics (stats/), the
 * manifest and samples.tsv (formats/), and the bundle, written atomically.
 *
 * The schedule is round-major: warmup runs first (run.warmupRuns of every
 * variant, in build order), then in each round every variant in the
 * round's shuffled order, and for each variant every benchmark in file
 * order.  So run.order is exactly what happened, and base and candidate
 * always share the machine's conditions.
 *
 * A benchmark that fails (non-zero exit, signal, timeout, a malformed or
 * oversized samples stream, a missing required checksum, a checksum that
 * differs within a side) stops the run with PLUMB_EBENCH naming the
 * benchmark, the variant and the round, and res->stderr_tail holding the
 * last lines of its standard error; no bundle is written.  With
 * cfg->keep_going the failure is recorded in the manifest
 * (benches[].failure), the benchmark is not run again, the others go on,
 * the bundle is written, and runner_run() returns 0 with res->failures
 * counting the failed benchmarks.
 *
 * The options and the result are runner/run-types.h's.
 *
 * Ownership: struct runner_run_opts borrows everything.  struct
 * runner_run_result is caller-owned storage filled by runner_run() (also
 * on failure) and freed by runner_run_result_release().
 */
#ifndef PLUMB_RUNNER_RUN_H
#define PLUMB_RUNNER_RUN_H

#include <stdint.h>

#include "runner/run-types.h"

struct plumb_config;
struct plumb_err;

/* Run everything; see the header comment.  Release res in every case. */
int runner_run(const struct plumb_config *cfg, const struct runner_run_opts *opts,
	       struct runner_run_result *res, struct plumb_err *err);

void runner_run_result_release(struct runner_run_result *res);

/*
 * The default bundle name, plumb-<base>-<candidate>-<UTC time>.plumb, in
 * the current folder: the refs as written with every character outside
 * [A-Za-z0-9._] turned into '_', the time as 20261130T181500Z.  Appended
 * to out; 0 or -1 (buf).
 */
struct buf;
int runner_default_output(const char *base, const char *candidate, int64_t unix_time,
			  struct buf *out);

#endif
