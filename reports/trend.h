/*
 * reports/trend.h: `plumb report --trend BENCH`: one benchmark's archived
 * series (archive/query.h, query_trend) as a table, Markdown, JSON or an
 * HTML chart of center and range over commits, with the points where the
 * ranges of consecutive points stop overlapping marked.  A point of a
 * series, struct trend_point, is in reports/model.h (the SVG module draws
 * it too).
 *
 * Ownership: the options only borrow their strings; output is appended to
 * the caller's buffer.
 */
#ifndef PLUMB_REPORTS_TREND_H
#define PLUMB_REPORTS_TREND_H

#include <jansson.h>

#include "archive/store.h"
#include "reports/model.h"

struct buf;
struct plumb_err;

/* Version of the JSON trend layout (docs/report-json.md). */
#define TREND_JSON_VERSION 1

struct trend_opts {
	const char *bench;          /* required */
	const char *host;           /* fingerprint or prefix, or NULL */
	long last;                  /* latest N points, 0 for all */
	const char *archive_dir;    /* NULL: the default archive */
	enum report_format format;
	enum report_fail_on fail_on; /* gate on the latest nights (trend_gate()) */
	const char *project;        /* NULL: the one project with the benchmark */
};

/*
 * Query the archive and render the series in o->format; *rr says what
 * the gate found under o->fail_on (failon_matched, message, summary).
 * Without o->host, every host class that measured the benchmark gets its
 * own series, one after the other (JSON: "plumb-trend-classes" holding a
 * "plumb-trend" object per class) when there are several; the gate
 * matches when any class's does.
 */
int trend_render(const struct trend_opts *o, struct buf *out,
		 struct report_result *rr, struct plumb_err *err);

/*
 * The series of q->bench: without q->host, one per host class that
 * measured it (most results first), else the one of q->host; a JSON array
 * of query_trend() models (one or more) in *out, owned by the caller.
 * Results of two classes are never one series.
 */
struct query_trend;
int trend_query_classes(struct store *st, const struct query_trend *q, json_t **out,
			struct plumb_err *err);

/*
 * The gate of a series: nonzero when one of its latest CHANGES_LATEST
 * points is the first after a change point (the latest nights start a
 * change) in a direction fail_on asks for: up for slower and noisy, up or
 * down for any and change.  A change that moved no code (change_host: the
 * nights either side measured the same commit) is the host's and never
 * gates.  The shift of the latest point alone (its range
 * apart from the previous night's) never gates: on a series with 5%
 * placement noise it fires on about one night in twelve with no change at
 * all.  The one place that decides.  why gets the words.
 */
int trend_gate(const struct trend_point *p, size_t n, enum report_fail_on fail_on,
	       char *why, size_t size);

/* "+3.1% [+2.2%, +4.0%]": a change object's size and its 95% interval. */
void trend_change_size(const json_t *c, char *out, size_t size);

/* --fail-on of a trend: slower, any, noisy (report_fail_on_parse()) or change; -1 else. */
int trend_fail_on_parse(const char *s, enum report_fail_on *out);

/*
 * Find the change points of a model query_trend() returned and add them:
 * "changes" (docs/changes.md, oldest first), "noise", "series" (the
 * series they were found on, "within-night" or "level"), "series_base"
 * (the base of a within-night series, else null), and each first point
 * after one its "change" ("up" or "down").
 */
int trend_add_changes(json_t *model, struct plumb_err *err);

/*
 * Render a series already queried: model is the object query_trend()
 * returns ({bench, metric, host, points: [{bundle, ref, commit, time,
 * center, min, max, spread, ratio, verdict, base_center, noise}]}).
 * A model that does not have that shape is PLUMB_EINPUT.
 */
int trend_render_model(const json_t *model, enum report_format format,
		       struct buf *out, struct plumb_err *err);

/*
 * The HTML page of a series already queried, with nav (raw HTML the
 * caller built and escaped: links to other pages) first in its body.
 */
int trend_render_page(const json_t *model, const char *nav, struct buf *out,
		      struct plumb_err *err);

/* The same, gated: *rr as trend_render() fills it. */
int trend_render_gated(const json_t *model, enum report_format format,
		       enum report_fail_on fail_on, struct buf *out,
		       struct report_result *rr, struct plumb_err *err);

#endif
