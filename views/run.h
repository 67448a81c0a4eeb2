/*
 * views/run.h: how `plumb run` and `plumb demo` show a run: the build
 * lines and the progress of the rounds on stderr, and at the end on
 * stdout the text report of the bundle (reports/, as `plumb report`
 * prints it) or the run's JSON.
 *
 * Progress (DESIGN §3): on a terminal one line (round, variant,
 * benchmark, elapsed, ETA) redrawn in place; otherwise plain timestamped
 * lines, one per round, for cron logs.
 *
 * Ownership: struct runview is caller-owned storage, set up by
 * runview_init(); it holds no resources.
 */
#ifndef PLUMB_VIEWS_RUN_H
#define PLUMB_VIEWS_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "reports/model.h"

struct buf;
struct runner_progress;
struct runner_run_opts;
struct runner_run_result;
struct plumb_err;

struct runview {
	FILE *err;          /* stderr */
	int tty;            /* redraw one line in place */
	int drawn;          /* a progress line is on the screen */
	int quiet;          /* --quiet: no progress and no log lines at all */
	/* run --archive without -o: the bundle went into the archive and its
	 * temporary file goes, so it is named by its id, never by that path */
	int archived_only;
	int shown;          /* a progress line was written */
	uint64_t shown_ns;  /* and when (the run's elapsed time) */
};

void runview_init(struct runview *v);

/* Point opts' log and progress callbacks at v. */
void runview_attach(struct runview *v, struct runner_run_opts *opts);

/* Clear a progress line still on the screen. */
void runview_finish(struct runview *v);

/*
 * Render the report of a bundle file, its candidate against its own base
 * (what `plumb report BUNDLE --format F` prints), appended to out, with
 * what it found in *rr (report_render()).  The report names the bundle by
 * its id and by origin (its path as the user knows it), or by its id
 * alone when origin is NULL.
 */
int runview_render_bundle(const char *bundle, const char *origin, enum report_format format,
			  int color, enum report_fail_on fail_on, struct buf *out,
			  struct report_result *rr, struct plumb_err *err);

/*
 * GitHub Actions: the Markdown report of a bundle file (its candidate
 * against its own base, the gate fail_on stated) appended to md, its
 * annotations to notes (report_github_render()); origin as above.
 */
int runview_github_bundle(const char *bundle, const char *origin, enum report_fail_on fail_on,
			  struct buf *md, struct buf *notes, struct plumb_err *err);

/*
 * After a successful runner_run(): what goes to standard output, appended
 * to out: the run's JSON with json, else the report of the bundle (or the
 * run's summary when it wrote none) and the footer; with v->quiet, only the
 * report's verdict line.  rr says what the report found under fail_on
 * (report_render(); with json the bundle's report is rendered for rr
 * alone), for the caller to show and gate on.
 */
int runview_output(const struct runner_run_result *res, const struct runview *v, int json,
		   int color, enum report_fail_on fail_on, struct buf *out,
		   struct report_result *rr, struct plumb_err *err);

/*
 * `plumb run --range R --dry-run`: the commits it would measure (subjects
 * escaped) and the builds it would do, as comment lines after the plan.
 * Returns 0, or -1 when out could not grow.
 */
struct plumb_config;
struct runner_range_commits;
int view_range_plan(struct buf *out, const char *range, const struct runner_range_commits *c,
		    const struct plumb_config *cfg);

#endif
