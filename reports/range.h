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
 * Ownership: struct range_report is caller-owned storage filled by
 * range_report_build() and freed by range_report_release(); it borrows
 * the sources (and their manifests), which must outlive it.
 */
#ifndef PLUMB_REPORTS_RANGE_H
#define PLUMB_REPORTS_RANGE_H

#include <stddef.h>

#include "formats/manifest-range.h"
#include "reports/report.h"

/* Version of the range report's JSON layout (docs/range-json.md). */
#define RANGE_JSON_VERSION 1

struct range_row {
	const struct report_source *src;  /* borrowed */
	struct manifest_range rg;         /* its range member */
	struct report vs_base;            /* the commit against A (its own job) */
	struct report vs_parent;          /* against the commit before it (row 0: A) */
	int have_base, have_parent;       /* built (released by range_report_release()) */
	struct manifest_hot *hot;         /* per benchmark of the bundle: range.hot's entry */
	size_t n_hot;
};

struct range_report {
	const char *id, *spec;            /* borrowed from row 0 */
	long long step, total;
	const char *base_commit;          /* A */
	struct range_row *rows;           /* by range.index */
	size_t n;
};

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
