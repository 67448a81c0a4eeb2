/*
 * reports/renderers.h: the renderers of a compared model, one a format
 * of `plumb report --format` (reports/text.c, markdown.c, json.c,
 * html.c, export.c), which report_render() (reports/report.c) dispatches
 * to.  Each reads only the model (reports/model.h), so they cannot
 * disagree.  No .c file owns this header.
 *
 * Ownership: each appends to the caller's buffer; nothing outlives a call.
 */
#ifndef PLUMB_REPORTS_RENDERERS_H
#define PLUMB_REPORTS_RENDERERS_H

#include "reports/model.h"

struct buf;
struct plumb_err;

/* Version of the JSON report layout (docs/report-json.md). */
#define REPORT_JSON_VERSION 1

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

#endif
