/*
 * reports/report.h: the stage `plumb report` and `plumb run` call
 * (reports/report.c): compare, render in one format, decide what the
 * comparison means for the exit status, and write the result.  The model
 * it builds and hands the renderers is reports/model.h.
 *
 * To add a report format (`plumb report --format NAME`; what the build
 * and the tests demand):
 *   1. its value in enum report_format (reports/model.h) and its name at
 *      the same place in format_names[] (reports/words.c: nothing checks
 *      that the two agree);
 *   2. its renderer, reports/<name>.c, declared in reports/renderers.h
 *      beside report_text(), and its line in reports/local.am; tables
 *      through common/table.h, pictures through reports/svg.c (t0008);
 *   3. its case in report_render() (reports/report.c) and in the trend's
 *      render_one() (reports/trend.c): -Wswitch names both, and a build
 *      with --enable-werror fails without them;
 *   4. its golden of every case: EXT:NAME in the format lists of
 *      t2010-report-golden.sh and tests/fixtures/reports/update-expect.sh,
 *      whose run (update-expect.sh ./plumb) writes the
 *      tests/fixtures/reports/<case>/expect.EXT that t2010 compares.
 * No test reads the formats named in cli/cmd-report.c's --format help and
 * usage message, docs/plumb.1's `plumb report` section, or the subsets
 * --trend and --range take (cli/cmd-report.c, views/range.c).
 *
 * Ownership: the caller owns every buffer and result; report_render()
 * frees the model it built before it returns.
 */
#ifndef PLUMB_REPORTS_REPORT_H
#define PLUMB_REPORTS_REPORT_H

#include "reports/model.h"

struct buf;
struct plumb_err;

/*
 * The stage `plumb run` calls at its end, and `plumb report` after loading:
 * compare old against new, render in o->format and append to out, and
 * fill *res.  Returns 0, or a negative code when nothing could be
 * rendered (then out and *res say nothing).  baseline is NULL for a
 * bundle against its own base.
 */
int report_render(const struct report_side *bundle,
		  const struct report_side *baseline,
		  const struct report_opts *o, struct buf *out,
		  struct report_result *res, struct plumb_err *err);

/* What a compared model means for the gate under fail_on (report_render()'s *res). */
void report_result_of(const struct report *r, enum report_fail_on fail_on,
		      struct report_result *res);

/* Write a rendered report to path atomically (common/fileio.h), or to stdout for NULL. */
int report_write(const struct buf *text, const char *path,
		 struct plumb_err *err);

#endif
