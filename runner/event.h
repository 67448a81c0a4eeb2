/*
 * runner/event.h: what the runner tells while it works (a build done, a
 * variant restored from the build cache, a sweep extended, a valgrind
 * run, a lock waited for), as a struct: a kind and the names and numbers
 * of that kind.  The runner composes no sentence and formats no number;
 * views/progress.c turns an event into the line a person reads.
 *
 * Adding a kind: the enum row here with the fields it sets, its sentence
 * in views/progress.c (the switch warns on a missing case), the test that
 * greps the sentence.
 *
 * Ownership: an event and everything it points to are borrowed for the
 * call of the callback only; a callback that keeps a name copies it.
 */
#ifndef PLUMB_RUNNER_EVENT_H
#define PLUMB_RUNNER_EVENT_H

#include <stddef.h>

enum runner_event_kind {
	/* the builds (runner/build.c) */
	RUNNER_EV_RUN_FOLDER,      /* subject: the run folder */
	RUNNER_EV_FETCHING,        /* subject: the repository's URL */
	RUNNER_EV_LATEST_TAG,      /* subject: the tag run.base = latest named */
	RUNNER_EV_CHECKED_OUT,     /* subject: "base" or "candidate", label: the ref, detail: the
				      commit ("" for none), flag: uncommitted changes, n: files */
	RUNNER_EV_SAME_TREE,       /* subject: the tree both sides share */
	RUNNER_EV_BUILD_JOBS,      /* n: variants, n2: at a time, flag: build.jobs = auto */
	RUNNER_EV_BUILDING,        /* subject: the variant's name, flag: a relink from pad 0 */
	RUNNER_EV_BUILT,           /* subject: the variant, seconds: its build */
	RUNNER_EV_BUILD_LEFT,      /* subject: the variant, n: processes its build left (killed) */
	RUNNER_EV_COPIED,          /* subject: the variant, label: the base variant it copies */
	RUNNER_EV_RESTORED,        /* subject: the variant, label: its cache key, seconds: the
				      build that made the entry */
	RUNNER_EV_CONTROL_REUSED,  /* subject: the variant, n: the comparison that built it,
				      seconds: that build */
	RUNNER_EV_KEPT_HERE,       /* subject: the variant, text: the cache's note */
	RUNNER_EV_CACHE_REFUSED,   /* subject: the variant, text: why the entry was refused */
	RUNNER_EV_NOT_KEPT,        /* subject: the variant, text: why the cache did not take it */
	RUNNER_EV_CACHE_EVICTED,   /* subject: the variant restored, label: the cache folder,
				      detail: the entry's key, text: the failed check, n: entries */
	RUNNER_EV_WARNING,         /* subject: what it is about, or NULL; text: the warning */
	RUNNER_EV_CANNOT_REMOVE,   /* subject: a folder, text: why it could not be removed */
	/* the runs (runner/run*.c) */
	RUNNER_EV_BENCH_FAILED,    /* subject: the benchmark, text: why, label: its kept log or NULL */
	RUNNER_EV_BENCH_LEFT,      /* subject: the benchmark, label: the variant, detail: which
				      run, n: processes it left (killed) */
	RUNNER_EV_GBENCH_LIST,     /* subject: the benchmark, n: benchmarks found, items: the
				      first of their names (name only) */
	RUNNER_EV_SAME_WORK,       /* subject: the benchmark, label: its verdict */
	RUNNER_EV_VG_RUN,          /* subject: the benchmark, label: the variant, n: the run,
				      count: instructions, flag: per sample, seconds: the run,
				      seconds2: valgrind's time so far */
	RUNNER_EV_VG_WORK,         /* subject, label, count, flag, seconds: as RUNNER_EV_VG_RUN */
	RUNNER_EV_VG_NONDET,       /* subject: the benchmark, text: the counts that differed */
	RUNNER_EV_SWEEP_DECIDED,   /* n: pads per side */
	RUNNER_EV_SWEEP_MAX_PADS,  /* n: pads per side, n2: run.maxPads, items: the undecided */
	RUNNER_EV_SWEEP_BUDGET,    /* n: pads per side, seconds: the next extension's estimate,
				      seconds2: run.budget, items: the undecided */
	RUNNER_EV_SWEEP_EXTEND,    /* n: pads per side before, n2: after, n3: rounds, flag: every
				      variant runs, items: the undecided */
	RUNNER_EV_RUN_KEPT,        /* subject: the run folder, kept (--keep) */
	/* the machine-wide lock (runner/lock.c) */
	RUNNER_EV_LOCK_WAIT,       /* subject: the lock's path, text: its holder (escaped) */
	RUNNER_EV_LOCK_TAKEN,      /* subject: the lock's path, text: the holder that died */
};

/* One of an event's list: a benchmark undecided and why, or a name. */
struct runner_event_item {
	const char *name;
	const char *why;
};

struct runner_event {
	enum runner_event_kind kind;
	const char *commit;     /* run --range: the candidate commit (short id), else NULL */
	const char *subject;    /* the fields a kind sets are named in its row; others are 0 */
	const char *label;
	const char *detail;
	const char *text;
	double seconds, seconds2;
	double count;
	unsigned long long n, n2, n3;
	int flag;
	const struct runner_event_item *items;
	size_t nitems;
};

/* Where events go: fn(ctx, ev), or nowhere when fn is NULL. */
typedef void runner_event_fn(void *ctx, const struct runner_event *ev);

/* Send ev to fn when there is one. */
static inline void runner_event_send(runner_event_fn *fn, void *ctx, const struct runner_event *ev)
{
	if (fn)
		fn(ctx, ev);
}

#endif
