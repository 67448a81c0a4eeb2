/*
 * views/run-results.h: what `plumb run` and `plumb demo` print when the run
 * is over: per benchmark the two centers, the ranges over pads, the ratio
 * and the verdict, with the noise, hot-code identity and checksum oracle,
 * then the bundle written.  Text for people, JSON (--json) for machines;
 * the JSON keys are listed in docs/plumb.1 (plumb run, OUTPUT).
 *
 * Separate from run.c so that the run's record can be rendered without a
 * run (the unit tests feed a manifest), and from the reports stage, which
 * compares bundles: this is the short answer at the end of a job.
 *
 * Ownership: the manifest and result are only read; text is appended to a
 * caller-owned struct buf, the JSON object is new (json_decref() it).
 */
#ifndef PLUMB_VIEWS_RUN_RESULTS_H
#define PLUMB_VIEWS_RUN_RESULTS_H

#include <jansson.h>

struct buf;
struct manifest;
struct plumb_err;
struct runner_run_result;

/* A value of a metric for people: "812.3 ms", "1.20 G" (counts). */
void results_format_value(double v, int is_time, char *out, size_t size);

/*
 * The lines that close a run's text summary: why counters are unavailable
 * (when they are), the bundle's path and id (archived_only: the bundle is
 * in the archive alone, its temporary file gone, so no path).
 * runner_results_text() puts them after one block per benchmark.
 */
int runner_results_footer(const struct runner_run_result *res, int archived_only,
			  struct buf *out, struct plumb_err *err);

int runner_results_text(const struct runner_run_result *res, struct buf *out,
			struct plumb_err *err);

/* NULL when memory runs out; archived_only as for the footer (bundle: null). */
json_t *runner_results_json(const struct runner_run_result *res, int archived_only);

#endif
