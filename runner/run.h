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
 * Ownership: struct runner_run_opts borrows everything.  struct
 * runner_run_result is caller-owned storage filled by runner_run() (also
 * on failure) and freed by runner_run_result_release().
 */
#ifndef PLUMB_RUNNER_RUN_H
#define PLUMB_RUNNER_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "formats/manifest.h"
#include "runner/event.h"

struct plumb_config;
struct plumb_err;
struct runner_controls;

/* Where the run is, for a progress display: after every benchmark run, and
 * once more when a round or warmup pass ends (round_done). */
struct runner_progress {
	int warmup;              /* 1: an untimed warmup run */
	unsigned round;          /* 1-based (warmup: the warmup pass) */
	unsigned rounds;         /* run.rounds (warmup: run.warmupRuns) */
	const char *bench;
	const char *variant;     /* "base/2", "control/0" */
	const char *commit;      /* run --range: the candidate commit measured (short id), else NULL */
	int round_done;          /* a round (or warmup pass) just ended; bench and
	                            variant are then those of its last run */
	uint64_t done, total;    /* measured and warmup runs, done and planned */
	uint64_t elapsed_ns;     /* since the first warmup run */
	double load1;            /* 1-minute load average at the round's start, or -1 */
};

struct runner_run_opts {
	const char *output;      /* bundle path; NULL: runner_default_output() */
	/* Told what the builds and the runs do (runner/event.h), or NULL. */
	runner_event_fn *event;
	/* See struct runner_progress, or NULL. */
	void (*progress)(void *ctx, const struct runner_progress *p);
	void *ctx;
	const struct runner_controls *controls;  /* a bisect's kept controls (runner/build-types.h), or NULL */
};

/* Where the time of the builds went (run --json's and the bisect's
 * breakdown); the per-variant times are summed, so with build.jobs > 1
 * they may add up to more than the wall time they took. */
struct runner_build_times {
	uint64_t setup_ns;         /* before the builds: capacity, counters, host facts */
	uint64_t checkout_ns;      /* the repository opened and both trees exported */
	uint64_t fresh_ns;         /* variants built (folder and build), the control apart */
	uint64_t control_ns;       /* the control's */
	uint64_t restore_ns;       /* variants restored from the build cache, and a
	                              bisect's reused control */
	unsigned fresh, controls, restored;  /* how many of each */
};

struct runner_run_result {
	struct manifest manifest;  /* the run's record (filled as far as it got) */
	struct manifest written;   /* with bundle: its manifest as a reader parses it */
	int have_written;          /* written holds it (a range job drops it) */
	char *bundle;              /* the bundle written, or NULL */
	char id[65];               /* its id (SHA-256 of SHA256SUMS), or "" */
	size_t failures;           /* benchmarks that failed (--keep-going) */
	char *stderr_tail;         /* a failed run's last stderr lines, or NULL */
	uint64_t build_ns;         /* check-out and builds */
	struct runner_build_times build_times;  /* build_ns (and the sweep's builds) in parts */
	uint64_t measure_ns;       /* warmup runs and rounds */
	uint64_t runs;             /* benchmark runs, warmup included */
};

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
