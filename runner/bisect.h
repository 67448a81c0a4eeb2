/*
 * runner/bisect.h: `plumb bisect` (DESIGN §12): find the first commit of
 * good..bad whose verdict against its parent is slower, one runner_run()
 * per comparison (so every step is swept, with the control, the margin and
 * run.pads = auto's adaptive sweep, and the build cache makes every commit
 * build once).
 *
 * The range lo..hi holds a commit known not slower than the good end (lo)
 * and one known slower (hi); the culprit is after lo, at or before hi.
 * First the good end is compared with the bad end (the candidate must be
 * slower, else BISECT_NOT_FASTER).  Then, while hi - lo > 1, the midpoint
 * is compared with the good end: slower, hi = mid; placement, faster or
 * identical hot code, lo = mid; undecided after the sweep's budget, the
 * midpoint is compared once more, with hi (the range's bad end) as the
 * candidate: slower, lo = mid; not slower, hi = mid; undecided again, the
 * bisect stops at BISECT_STUCK and names lo..hi, never guessing.  Last,
 * hi is compared with its parent hi - 1: slower, BISECT_FOUND; anything
 * else (hot code identical to the parent's above all), BISECT_UNCONFIRMED.
 * A decided bisect of N commits makes ceil(log2 N) + 2 comparisons.
 *
 * Ownership: struct bisect_opts borrows everything; the record is the
 * caller's (formats/bisect.h), filled as far as the bisect got.
 */
#ifndef PLUMB_RUNNER_BISECT_H
#define PLUMB_RUNNER_BISECT_H

#include <stddef.h>

#include "formats/bisect.h"
#include "runner/run-types.h"

struct plumb_config;
struct plumb_err;

/* The bisect's longest first-parent line. */
#define BISECT_COMMITS_MAX 100000

struct bisect_opts {
	const char *good, *bad;          /* revisions as written */
	const char *dir;                 /* the bisect's folder: one bundle per comparison */
	const struct runner_run_opts *run;  /* log and progress of each run (output ignored) */
	/* Before each comparison, and after it (its step filled, its bundle
	 * written); a negative return (err filled) stops the bisect. */
	void (*step_start)(void *ctx, const struct bisect_record *rec, enum bisect_kind kind,
			   size_t base, size_t candidate);
	int (*step_done)(void *ctx, const struct bisect_record *rec, const struct bisect_step *step,
			 struct plumb_err *err);
	void *ctx;
};

/* What the narrowing does next. */
enum bisect_next {
	BISECT_NEXT_NARROWED,   /* lo or hi moved: the next midpoint, or the confirmation */
	BISECT_NEXT_AGAINST_BAD,/* measure mid against hi */
	BISECT_NEXT_STUCK       /* lo..hi cannot be split */
};

/* The commit between lo and hi to measure next (hi - lo >= 2). */
size_t bisect_midpoint(size_t lo, size_t hi);

/* Narrow lo..hi by what the comparison of kind (STEP or AGAINST_BAD) of mid said. */
enum bisect_next bisect_narrow(size_t *lo, size_t *hi, size_t mid, enum bisect_kind kind,
			       enum bisect_call call);

/* A recorded benchmark's verdict for the narrowing; why (size bytes) says
 * what left it undecided or that its hot code is identical, else "". */
enum bisect_call bisect_call_of(const struct manifest_bench *mb, char *why, size_t size);

/*
 * Run the bisect of cfg's one benchmark (cfg->run.base and .candidate are
 * replaced at each step); rec is set up with bisect_record_init() and its
 * id filled by the caller.  0 when it ended (rec->outcome says how), else
 * the error of the comparison that failed (a build: PLUMB_EBUILD, ...).
 */
int bisect_run(struct plumb_config *cfg, const struct bisect_opts *opts, struct bisect_record *rec,
	       struct plumb_err *err);

#endif
