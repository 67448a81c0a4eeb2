/*
 * views/analyze.h: an analysis as aligned text or as JSON (`plumb analyze`).
 *
 * The view of stats/analysis.h: the figures are computed, tested and
 * reused (the runner, reports) without any presentation, and printed
 * here.  Both
 * renderers append to a bounded buffer and never print: the caller writes
 * the buffer out only when everything succeeded.  The JSON keys are
 * documented in docs/analyze-json.md.
 *
 * Ownership: the caller owns the buffer; the analysis is only read.
 */
#ifndef PLUMB_VIEWS_ANALYZE_H
#define PLUMB_VIEWS_ANALYZE_H

struct analysis;
struct buf;
struct plumb_err;

/* Text for a terminal; source names the input in the first line. */
int analysis_render_text(const struct analysis *a, const char *source,
			 struct buf *out, struct plumb_err *err);

/* One JSON document (format "plumb-analyze", version 1), newline-terminated. */
int analysis_render_json(const struct analysis *a, const char *source,
			 struct buf *out, struct plumb_err *err);

/* CSV rows, one per benchmark x metric x side x pad (formats/csv.h, docs/csv.md). */
int analysis_render_csv(const struct analysis *a, struct buf *out, struct plumb_err *err);

#endif
