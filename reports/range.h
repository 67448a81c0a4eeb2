/*
 * reports/range.h: the range report: the bundles of one `plumb run
 * --range` job (formats/manifest-range.h), each commit against A (the
 * verdict its bundle recorded, same job) and against its parent, the
 * commit measured before it (report_compare() with the parent's
 * candidate side as the baseline: both were measured in the same rounds),
 * and its hot code against the parent's.
 *
 * The bundles must be the whole job: one range.id, every index from 0 to
 * range.count - 1 once, the same base commit, each range.parent the
 * candidate commit of the bundle before it.  Anything else is PLUMB_EINPUT
 * naming the bundle.
 *
 * The model, struct range_report, is in reports/model.h (the SVG module
 * draws it too).  Ownership: struct range_report is caller-owned storage
 * filled by range_report_build() and freed by range_report_release(); it
 * borrows the sources (and their manifests), which must outlive it.
 */
#ifndef PLUMB_REPORTS_RANGE_H
#define PLUMB_REPORTS_RANGE_H

#include <stddef.h>

#include "reports/model.h"

/* Version of the range report's JSON layout (docs/range-json.md). */
#define RANGE_JSON_VERSION 1

/* Build the model from n loaded bundles, in any order (see the header comment). */
int range_report_build(struct range_report *r, const struct report_source *const *srcs, size_t n,
		       int force, struct plumb_err *err);
void range_report_release(struct range_report *r);

/* "identical", "same code", "changed" or "unknown" (report_bench.hot_identical). */
const char *range_hot_word(int hot_identical);

/* The report_bench of name in r, or NULL. */
const struct report_bench *range_bench(const struct report *r, const char *name);

/*
 * The word a benchmark's page and chart lead with: "slower" when some
 * commit is slower than its parent, else "faster" when one is faster,
 * else the first commit's verdict against its parent ("not compared"
 * when there is none).
 */
const char *range_bench_word(const struct range_report *r, const char *name);

#endif
