/*
 * runner/prune.h: `plumb run --prune[=AGE]`: remove the run folders kept
 * with --keep once older than AGE, and the logs of failures
 * (runner/failed.h) with them.
 *
 * Ownership: nothing is kept between calls.
 */
#ifndef PLUMB_RUNNER_PRUNE_H
#define PLUMB_RUNNER_PRUNE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct plumb_err;

#define PRUNE_DEFAULT_AGE (14L * 86400)

/*
 * "14d", "36h", "90m", "600s", or a bare number of days: seconds in
 * *out; PLUMB_EARG naming where otherwise.
 */
int prune_age_parse(const char *where, const char *s, long *out, struct plumb_err *err);

/*
 * In workdir, remove every run-* folder marked kept (--keep) whose run
 * started more than age seconds before now and whose process is gone;
 * *removed and *bytes say how many and how much.
 */
/* The pid a folder's name ends with (run-STAMP-PID, controls-STAMP-PID), or 0. */
long prune_folder_pid(const char *name);

int prune_runs(const char *workdir, time_t now, long age, size_t *removed, uint64_t *bytes,
	       struct plumb_err *err);

#endif
