/*
 * reports/render.h: what the renderers of reports/ share and nothing
 * outside reports/ needs: number formatting with units (units.c),
 * escaping of the bundle's hostile strings for each output format
 * (escape.c), and the inline SVG charts of the HTML pages (svg.c).
 *
 * Ownership: every function appends to a caller's struct buf or writes
 * into a caller's fixed array; nothing here allocates memory that
 * outlives a call.
 */
#ifndef PLUMB_REPORTS_RENDER_H
#define PLUMB_REPORTS_RENDER_H

#include <stddef.h>

#include <jansson.h>

#include "formats/manifest.h"

struct buf;
struct report;
struct report_bench;
struct report_dist;
struct report_side;
struct hostdiff_item;

#define UNITS_MAX 48   /* bytes of one formatted value, NUL included */

/* A unit chosen for a value and used for its neighbours (a range). */
struct units_scale {
	double div;           /* value / div is printed */
	const char *suffix;   /* " ms", " M", "" */
};

/*
 * Pick the unit for v of metric: ns, us/µs, ms, s for time metrics; plain,
 * k, M, G, T for counts.  ascii selects "us" over "µs".
 */
void units_scale(double v, enum manifest_metric metric, int ascii,
		 struct units_scale *s);

/* v in scale s with four significant digits, without the suffix ("101.2"). */
void units_number(double v, const struct units_scale *s, char out[UNITS_MAX]);

/* v with its own unit ("101.2 ms"); "n/a" when v is NAN. */
void units_value(double v, enum manifest_metric metric, int ascii,
		 char out[UNITS_MAX]);

/* "0.943"; "n/a" when NAN. */
void units_ratio(double r, char out[UNITS_MAX]);

/* A fraction as a percentage: "3.58%" (below 10 %), "12.5%"; "n/a" for NAN. */
void units_percent(double f, char out[UNITS_MAX]);

/*
 * Escaping.  Each appends s with every character that could change what
 * a reader sees removed: control characters (C0, DEL, C1), bidirectional
 * overrides and isolates, line and paragraph separators, and malformed
 * UTF-8 each become '?'.  Then, for its format:
 *   esc_text  nothing more (a terminal or a log);
 *   esc_md    Markdown punctuation that could start markup or end a table
 *             cell is backslash-escaped;
 *   esc_html  & < > " ' as entities (valid in HTML and XML, in text and in
 *             attribute values).
 * They return 0, or -1 when out is full.
 */
int esc_text(struct buf *out, const char *s);
int esc_md(struct buf *out, const char *s);
int esc_html(struct buf *out, const char *s);

/* Drop a UTF-8 sequence cut short at the end of s (after a truncation). */
void esc_utf8_cut(char *s);

/* The number of characters esc_text() would append (terminal columns). */
size_t esc_width(const char *s);

/* Append s, then pad with spaces to width columns (text tables). */
int esc_text_pad(struct buf *out, const char *s, size_t width);

/*
 * The page around an HTML report or trend (html.c): the head with its
 * inline CSS and a Content-Security-Policy that loads nothing, and the
 * closing footer.  title is escaped.
 */
int html_begin(struct buf *out, const char *title);
int html_end(struct buf *out);

/*
 * SVG charts, inline in the HTML page (no namespace attribute: the HTML
 * parser puts <svg> in the SVG namespace, so the page holds no URI).
 * svg_bench: each side's pad medians as points, its range as a bar, the
 * overlap of the two ranges shaded, the verdict as a label.
 * svg_dist: per-pad distributions of samples mode, one box per pad.
 */
int svg_bench(struct buf *out, const struct report *r,
	      const struct report_bench *b, size_t index);
int svg_dist(struct buf *out, const struct report *r,
	     const struct report_bench *b, size_t index);

/*
 * Phrases shared by the renderers (phrases.c), appended raw: they may quote
 * the bundle's strings, so the caller escapes them for its format.  Each
 * returns 0, or -1 when out is full.
 */
/* A side's center, range and spread: "101.2 ms (99.88–103.5, 3.58%)". */
int phrase_side(const struct report_bench *b, const struct manifest_side_stats *s,
		struct buf *out);
/* A host finding: "kernel differs: a → b (start → end of the job)". */
int phrase_item(const struct report *r, const struct hostdiff_item *it,
		struct buf *out);
/* "not comparable" or "warning". */
const char *phrase_item_label(const struct hostdiff_item *it);
/* A host in one line: CPU model, CPUs, kernel, governor, turbo. */
int phrase_host(const json_t *facts, struct buf *out);
/* A commit: "v1.2.0 3f2a9c0d1e4b Release 1.2.0". */
int phrase_commit(const struct manifest_commit *c, struct buf *out);
/* "3 benchmarks: 1 faster, 1 placement, 1 failed" and the host's verdict. */
int phrase_summary(const struct report *r, struct buf *out);
/* Where a side was read from: "bundle <id> <path>". */
int phrase_source(const struct report_side *s, struct buf *out);

/*
 * svg_trend: a series over commits: each point's range as a vertical bar,
 * its center as a dot on a line, and the points whose range stops
 * overlapping the previous one's marked.
 */
struct trend_point;
int svg_trend(struct buf *out, const char *bench, enum manifest_metric metric,
	      const struct trend_point *p, size_t n);

/* The words a verdict is shown with ("slower", "withheld", "failed", ...). */
const char *render_verdict_word(const struct report_bench *b);

#endif
