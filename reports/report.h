/*
 * reports/report.h: the stage functions behind `plumb report` (DESIGN
 * §10) that build, render and write the comparison model; the model
 * itself, which every renderer reads, is reports/model.h.
 *
 * To add a report format (`plumb report --format NAME`; what the build
 * and the tests demand):
 *   1. its value in enum report_format (reports/model.h) and its name at
 *      the same place in format_names[] (reports/words.c: nothing checks
 *      that the two agree);
 *   2. its renderer, reports/<name>.c, declared below beside
 *      report_text(), and its line in reports/local.am; tables through
 *      common/table.h, pictures through reports/svg.c (t0008);
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
 * Ownership: struct report is caller-owned storage; report_compare()
 * fills it and report_release() frees what it allocated.  It borrows the
 * manifests, distributions and names it was built from (struct
 * report_side), which must outlive it.  struct report_source is
 * caller-owned storage filled by report_source_load() and freed by
 * report_source_release().
 */
#ifndef PLUMB_REPORTS_REPORT_H
#define PLUMB_REPORTS_REPORT_H

#include <stddef.h>

#include "reports/model.h"

struct buf;
struct plumb_err;

/* Version of the JSON report layout (docs/report-json.md). */
#define REPORT_JSON_VERSION 1

/* Instruction counts within this fraction of each other are "the same". */
#define REPORT_SAME_WORK 0.005

/*
 * Build the model: old against new.  kind says which comparison it is
 * (for REPORT_SELF old.m and new.m are the same manifest).  Fails only
 * when memory runs out; anything odd in the input becomes a note.
 */
int report_compare(struct report *r, enum report_kind kind,
		   const struct report_side *old, const struct report_side *new,
		   int force, struct plumb_err *err);

void report_release(struct report *r);

/* Renderers: append the report in one format to out. */
int report_text(const struct report *r, int color, struct buf *out,
		struct plumb_err *err);
int report_markdown(const struct report *r, struct buf *out,
		    struct plumb_err *err);
int report_json(const struct report *r, const struct report_opts *o,
		struct buf *out, struct plumb_err *err);
int report_html(const struct report *r, struct buf *out,
		struct plumb_err *err);
/* Exports (reports/export.c): CSV rows (formats/csv.h) and bencher's BMF. */
int report_csv(const struct report *r, struct buf *out, struct plumb_err *err);
int report_bmf(const struct report *r, struct buf *out, struct plumb_err *err);

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

void report_source_init(struct report_source *s);
void report_source_release(struct report_source *s);

/*
 * Load what path names: a bundle file (verified completely first), a
 * folder (an unpacked bundle: checked against its SHA256SUMS when it has
 * one, else unverified; its samples.tsv, when present, checked against
 * the manifest as a bundle's are), or a bare manifest.json (unverified).  Errors are PLUMB_EINPUT naming path (and the member,
 * JSON path or TSV line).
 */
int report_source_load(struct report_source *s, const char *path,
		       struct plumb_err *err);

/*
 * Find what a command line names: an existing path (a bundle file, a
 * folder or a manifest.json: report_source_load()), else, in the archive
 * in dir (NULL: the default archive), a baseline name when baseline is
 * set (its recorded side), else an archived bundle id or unique prefix of
 * at least 4 hex digits (its candidate side).  Nothing found is
 * PLUMB_EINPUT naming what.
 */
int report_source_find(struct report_source *s, const char *what,
		       const char *dir, int baseline, struct plumb_err *err);

/* The report_side view of a loaded source (its candidate side unless told). */
void report_source_side(const struct report_source *s, enum manifest_side side,
			struct report_side *out);

/* The report_side of a manifest held elsewhere (verified, no baseline, no
 * distributions): bundle is its id, origin the path it was written to. */
void report_side_of(const struct manifest *m, enum manifest_side side, const char *bundle,
		    const char *origin, struct report_side *out);

/*
 * GitHub Actions (reports/github.c).  report_github_escape() appends s
 * escaped as a workflow command's message (property 0) or property value
 * (property 1), after esc_text.  report_github() appends an ::error line
 * per failed benchmark and per one that fails --fail-on slower (Holm's
 * adjustment included), a ::warning line per one that the adjustment
 * holds back and per noisy one.  report_github_render() compares as
 * report_render() does (the gate fail_on stated in the Markdown) and
 * appends the Markdown report to md and the annotations to notes.
 */
int report_github_escape(struct buf *out, const char *s, int property);
int report_github(const struct report *r, struct buf *out, struct plumb_err *err);
int report_github_render(const struct report_side *bundle, const struct report_side *baseline,
			 int force, enum report_fail_on fail_on, struct buf *md, struct buf *notes,
			 struct plumb_err *err);

#endif
