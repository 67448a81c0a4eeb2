/*
 * views/range.h: the range report (reports/range.h) as text, Markdown,
 * JSON (docs/range-json.md) and one self-contained HTML page with a chart
 * of every commit's center and range over pads.  Strings from the
 * bundles (refs, subjects, names) are escaped for each format.
 *
 * Ownership: everything is borrowed for the call; output is appended.
 */
#ifndef PLUMB_VIEWS_RANGE_H
#define PLUMB_VIEWS_RANGE_H

#include "reports/model.h"

struct buf;
struct plumb_err;
struct range_report;

int range_text(const struct range_report *r, struct buf *out, struct plumb_err *err);
int range_markdown(const struct range_report *r, struct buf *out, struct plumb_err *err);
int range_json(const struct range_report *r, struct buf *out, struct plumb_err *err);
int range_html(const struct range_report *r, struct buf *out, struct plumb_err *err);

/* One of the above by format (text, md, json, html); PLUMB_EARG for the others. */
int range_render(const struct range_report *r, enum report_format f, struct buf *out,
		 struct plumb_err *err);

/*
 * `plumb report --range BUNDLE...` and the end of `plumb run --range`:
 * load every bundle (report_source_find(), archive dir or NULL), build
 * the range report and append it in format f to out.
 */
int range_render_paths(const char *const *paths, size_t n, const char *dir,
		       enum report_format f, int force, struct buf *out, struct plumb_err *err);

#endif
