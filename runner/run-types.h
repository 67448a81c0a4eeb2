/*
 * runner/run-types.h: what `plumb run` is given and returns, shared by
 * the files that run it (runner/run*.c, runner/bisect.c) and by the views
 * and commands that show it: the progress told after every benchmark run,
 * the options, the build times and the result.  No .c file of its own;
 * the functions are runner/run.h's.
 *
 * Ownership: struct runner_run_opts borrows everything.  struct
 * runner_run_result is caller-owned storage filled by runner_run() (also
 * on failure) and freed by runner_run_result_release().
 */
#ifndef PLUMB_RUNNER_RUN_TYPES_H
#define PLUMB_RUNNER_RUN_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "formats/manifest.h"
#include "runner/event.h"

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
	/* A bisect's kept controls (runner/build-types.h), or NULL. */
	const struct runner_controls *controls;
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

#endif
