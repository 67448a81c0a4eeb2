/*
 * runner/range.h: `plumb run --range A..B [--step N]`: the commits of a
 * range and the job that measures them all against A (DESIGN §12).
 *
 * The range is git's A..B: the commits reachable from B and not from A,
 * along first parents only, oldest first.  --step N keeps every Nth of
 * them counted from A (A's Nth descendant on the path, its 2Nth, ...)
 * and always B.
 *
 * The job (runner_run_range()) holds one pair per commit, A against that
 * commit, each built in a folder of its own under the work folder
 * (<workdir>/range/pNN, so the build cache restores a rerun of the same
 * range), and measures all of them in the same seeded rounds: each
 * round shuffles every variant of every pair together (runner/schedule.h
 * over their sum, pairs in range order), so the host's drift falls on
 * every commit alike.  Each pair is written as an ordinary bundle of
 * its own, with the optional manifest member `range` saying where it
 * stands in the job (formats/bundle-v1.md §"range").
 *
 * Ownership: struct runner_range_commits is caller-owned storage filled
 * by runner_range_resolve() and freed by runner_range_commits_release().
 * struct runner_range borrows everything.
 */
#ifndef PLUMB_RUNNER_RANGE_H
#define PLUMB_RUNNER_RANGE_H

#include <stddef.h>

struct plumb_config;
struct plumb_err;
struct runner_run_opts;
struct runner_run_result;

#define RUNNER_RANGE_MAX 100   /* commits one job measures */

struct runner_range_commit {
	char commit[41];     /* full id */
	char *subject;       /* first line of its message (untrusted) */
};

struct runner_range_commits {
	char base[41];       /* A's commit */
	struct runner_range_commit *v;   /* the measured commits, oldest first */
	size_t n;
	size_t total;        /* commits in A..B before --step */
};

/*
 * Resolve spec ("A..B") in cfg's repository and keep every step-th commit
 * (step >= 1), B always.  PLUMB_EARG when spec is not A..B; PLUMB_EINPUT
 * naming the ref that does not resolve, or saying the range is empty or
 * longer than RUNNER_RANGE_MAX.
 */
int runner_range_resolve(const struct plumb_config *cfg, const char *spec, unsigned step,
			 struct runner_range_commits *out, struct plumb_err *err);
void runner_range_commits_release(struct runner_range_commits *c);

struct runner_range {
	const char *spec;    /* "A..B" as written */
	const char *id;      /* the job's id (the range= label) */
	unsigned step;
	const struct runner_range_commits *commits;
	const char *outdir;  /* the bundles' folder; NULL: the current one */
};

/*
 * Measure every commit of rg against A in one job and write one bundle
 * per commit; res holds rg->commits->n results (runner_run_result each,
 * released by the caller in every case).  Errors as runner_run(); on an
 * error no bundle of the job is left behind.
 */
int runner_run_range(const struct plumb_config *cfg, const struct runner_range *rg,
		     const struct runner_run_opts *opts, struct runner_run_result *res,
		     struct plumb_err *err);

#endif
