/*
 * runner/build.h: the build half of `plumb run`: lock a work folder, check
 * out base and candidate, build every pad variant, prove that every pad
 * moved the code, check the control for reproducibility, and compare the
 * hot code of the two sides (DESIGN §5.1-5.3, seed 000).
 *
 * runner_build() is the stage function; the measurement harness calls it
 * first and then runs the variants it returns.  The result owns the run
 * folder and the work-folder lock for as long as it lives:
 * runner_result_release() removes the folder (unless --keep) and lets the
 * lock go, so the caller releases it after the last use of the artifacts.
 * The result's types are runner/build-types.h's.
 *
 * Ownership: struct runner_result is caller-owned storage filled by
 * runner_build() (also on failure, so that it can be released) and freed
 * by runner_result_release(); every string in it is a heap copy.
 */
#ifndef PLUMB_RUNNER_BUILD_H
#define PLUMB_RUNNER_BUILD_H

#include "runner/build-types.h"

struct plumb_config;
struct plumb_err;

/*
 * Check out, build, verify.  On failure err says which variant and why
 * (PLUMB_EBUILD for a failed build or a pad that did not move the code,
 * PLUMB_EINPUT for a revision or symbol that does not exist, PLUMB_ELOCKED
 * for a work folder in use) and res->log_tail holds the failed build's
 * last log lines.  Release res in every case.
 */
int runner_build(const struct plumb_config *cfg, const struct runner_opts *opts,
		 struct runner_result *res, struct plumb_err *err);

/*
 * The adaptive sweep (run.pads = auto): add pads npads..npads+add-1 to both
 * sides, built as the first ones were (relinked from pad 0 with build.reuse
 * = relink), appended to res->variants (base pads, then candidate pads),
 * and checked to move the code like the others.  Errors as runner_build().
 */
int runner_build_more(const struct plumb_config *cfg, const struct runner_opts *opts,
		      struct runner_result *res, unsigned add, struct plumb_err *err);

/* Remove the run folder (unless keep), release the lock, free everything. */
void runner_result_release(struct runner_result *res);

#endif
