/*
 * views/archive.h: the archive's results as text and as the JSON --json
 * prints (docs/plumb.1): list and show from the structs of
 * archive/query.h, baselines from archive/baseline.h, the trend, change
 * points and host classes from the series of reports/trend.h and the
 * models of reports/changes.h and reports/hostclass.h.  Text and JSON are made from
 * the same result, so they say the same thing.
 *
 * Ownership: the results are borrowed.  The text views append to the
 * caller's buf and return 0, or -1 when it could not grow; the JSON views
 * return a new value for the caller to json_decref() (NULL: out of
 * memory), which cli_print_json() writes through jsonio_dump().
 */
#ifndef PLUMB_VIEWS_ARCHIVE_H
#define PLUMB_VIEWS_ARCHIVE_H

#include <stddef.h>

#include <jansson.h>

struct buf;
struct query_summaries;
struct query_detail;
struct baseline_entries;
struct baseline_detail;
struct baseline_change;
struct trend_series;

/* A table of bundles, one line each, with a header (nothing when empty). */
int view_list(struct buf *out, const struct query_summaries *l);
json_t *view_list_json(const struct query_summaries *l);

/* Everything about one bundle: fields, then a table of benchmarks. */
int view_archived(struct buf *out, const struct query_detail *b);
json_t *view_archived_json(const struct query_detail *b);

/* A table of baselines. */
int view_baselines(struct buf *out, const struct baseline_entries *l);
json_t *view_baselines_json(const struct baseline_entries *l);

/* One baseline, then its bundle as view_archived() shows it. */
int view_baseline(struct buf *out, const struct baseline_detail *b);
json_t *view_baseline_json(const struct baseline_detail *b);

/*
 * A trend of n series (one per host class, reports/trend.h): a heading
 * naming bench, metric and host, one line per point, the change points;
 * with two or more, a line naming the bench first and each in turn.  The
 * JSON: one series' object, or {bench, classes: [one per series]}.
 */
int view_trend(struct buf *out, const struct trend_series *s, size_t n);
json_t *view_trend_json(const struct trend_series *s, size_t n);

/* Columns of view_change_lines() beyond the change's own. */
#define VIEW_CHANGE_BENCH 1
#define VIEW_CHANGE_HOST 2

/* Change points (reports/changes.h objects) as a table, with a count first; with: VIEW_CHANGE_*. */
int view_change_lines(struct buf *out, const json_t *changes, int with);

/* `plumb archive hosts`: one line per host class with its facts and counts. */
int view_hosts(struct buf *out, const json_t *hosts);

/* `plumb archive changes`: the host class(es), then every change point, newest first. */
int view_changes(struct buf *out, const json_t *changes);

/*
 * What the archive's commands print when they change or check it, and
 * what `plumb report --archive-index` prints about the site it wrote.
 * Every string of the store is escaped (common/escape.h).  Each returns 0,
 * or -1 when out could not grow.
 */
struct scrub_report;
struct site_result;
struct store_added;

/* `archive add`: "ID  added", "ID  already in the archive", "ID  replaced: ..."... */
int view_archive_added(struct buf *out, const struct store_added *added);

/* The same as JSON: {path, id, status[, oldKey, newKey]}. */
json_t *view_archive_added_json(const char *path, const struct store_added *added);

/* `archive rm` and `archive baseline rm`: "NAME  removed"; as JSON {key: name, status: "removed"}. */
int view_archive_removed(struct buf *out, const char *name);
json_t *view_archive_removed_json(const char *key, const char *name);

/* What verify found or gc did and found, one line each. */
int view_scrub_lines(struct buf *out, const struct scrub_report *rep);

/* Verify's last line: "ok: ... database intact" or "FAILED: ... N problems". */
int view_scrub_verified(struct buf *out, const struct scrub_report *rep, unsigned n, unsigned t);

/* What verify or gc found as JSON: {ok, bundles, files, problems, lines}. */
json_t *view_scrub_json(const struct scrub_report *rep, int ok);

/* Gc's last line: files looked at, bundles adopted. */
int view_scrub_gc(struct buf *out, const struct scrub_report *rep);

/* `archive reindex`: bundles indexed again and baselines restored. */
int view_reindexed(struct buf *out, size_t nbundles, size_t nbaselines);

/* `archive baseline set`: "NAME  PREVIOUS -> BUNDLE (SIDE)" from baseline_set()'s result. */
int view_baseline_set(struct buf *out, const char *name, const struct baseline_change *c);
json_t *view_baseline_set_json(const char *name, const struct baseline_change *c);

/* `report --archive-index`: "DIR: N pages: N host classes, N benchmark series". */
int view_site_written(struct buf *out, const char *dir, const struct site_result *res);

#endif
