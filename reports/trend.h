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

#include "archive/query.h"
#include "archive/store.h"
#include "reports/changes.h"
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

/* One series per host class (trend_query_classes()), each the caller's. */
struct trend_classes {
	struct query_trend_result *v;
	size_t n;                     /* at least 1 */
};

/*
 * The series of q->bench: without q->host, one per host class that
 * measured it (most results first), else the one of q->host, in *out
 * (zeroed first), released by trend_classes_release().  Results of two
 * classes are never one series.
 */
int trend_query_classes(struct store *st, const struct query_trend *q, struct trend_classes *out,
			struct plumb_err *err);

void trend_classes_release(struct trend_classes *c);

/*
 * A series with its shifts and change points (docs/changes.md), found by
 * trend_series_find(); p and changes are its own (trend_series_release()),
 * t and base are borrowed from the series queried.
 */
struct trend_series {
	const struct query_trend_result *t;
	struct trend_point *p;        /* t->n points: shift, change marks */
	size_t n;
	json_t *changes;              /* the change points, oldest first, each with its "index" */
	double noise;                 /* a night's noise (NAN: too few nights) */
	enum changes_series series;   /* the series they were found on */
	const char *base;             /* CHANGES_WITHIN: the base every night measured, else NULL */
	size_t host;                  /* how many of them moved no code (changes_is_host()) */
};

int trend_series_find(const struct query_trend_result *t, struct trend_series *s,
		      struct plumb_err *err);

void trend_series_release(struct trend_series *s);

/*
 * Set the members every JSON of a series carries, in this order: "series"
 * (its name), "series_base" (or null), "noise" (or null), "changes"; -1
 * when memory ran out.
 */
int trend_json_found(json_t *o, const struct trend_series *s);

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

/* Render a series already queried (query_trend()) in format. */
int trend_render_model(const struct query_trend_result *t, enum report_format format,
		       struct buf *out, struct plumb_err *err);

/*
 * The HTML page of a series already queried, with nav (raw HTML the
 * caller built and escaped: links to other pages) first in its body.
 */
int trend_render_page(const struct query_trend_result *t, const char *nav, struct buf *out,
		      struct plumb_err *err);

/* The same, gated: *rr as trend_render() fills it. */
int trend_render_gated(const struct query_trend_result *t, enum report_format format,
		       enum report_fail_on fail_on, struct buf *out,
		       struct report_result *rr, struct plumb_err *err);

#endif
