/*
 * views/archive.h: the text form of the archive's query results, rendered
 * from the same JSON models that --json prints (archive/query.h,
 * archive/baseline.h), so text and JSON say the same thing.
 *
 * Ownership: the models are borrowed; nothing is allocated that outlives
 * a call.
 */
#ifndef PLUMB_VIEWS_ARCHIVE_H
#define PLUMB_VIEWS_ARCHIVE_H

#include <stdio.h>

#include <jansson.h>

/* A table of bundles, one line each, with a header (nothing when empty). */
void view_list(const json_t *list, FILE *out);

/* Everything about one bundle: fields, then a table of benchmarks. */
void view_bundle(const json_t *bundle, FILE *out);

/* A trend: a heading naming bench, metric and host, then one line per point; {bench, classes}: each in turn. */
void view_trend(const json_t *trend, FILE *out);

/* Columns of view_change_lines() beyond the change's own. */
#define VIEW_CHANGE_BENCH 1
#define VIEW_CHANGE_HOST 2

/* Change points (reports/changes.h objects) as a table, with a count first; with: VIEW_CHANGE_*. */
void view_change_lines(const json_t *changes, int with, FILE *out);

/* `plumb archive hosts`: one line per host class with its facts and counts. */
void view_hosts(const json_t *hosts, FILE *out);

/* `plumb archive changes`: the host class(es), then every change point, newest first. */
void view_changes(const json_t *changes, FILE *out);

/* A table of baselines. */
void view_baselines(const json_t *list, FILE *out);

/* One baseline, then its bundle as view_bundle() shows it. */
void view_baseline(const json_t *baseline, FILE *out);

/*
 * What the archive's commands print when they change or check it, and
 * what `plumb report --archive-index` prints about the site it wrote.
 * Every string of the store is escaped (common/escape.h).  Each returns 0,
 * or -1 when out could not grow.
 */
struct buf;
struct scrub_report;
struct site_result;
struct store_added;

/* `archive add`: "ID  added", "ID  already in the archive", "ID  replaced: ..."... */
int view_archive_added(struct buf *out, const struct store_added *added);

/* `archive rm` and `archive baseline rm`: "NAME  removed". */
int view_archive_removed(struct buf *out, const char *name);

/* What verify found or gc did and found, one line each. */
int view_scrub_lines(struct buf *out, const struct scrub_report *rep);

/* Verify's last line: "ok: ... database intact" or "FAILED: ... N problems". */
int view_scrub_verified(struct buf *out, const struct scrub_report *rep, unsigned n, unsigned t);

/* Gc's last line: files looked at, bundles adopted. */
int view_scrub_gc(struct buf *out, const struct scrub_report *rep);

/* `archive reindex`: bundles indexed again and baselines restored. */
int view_reindexed(struct buf *out, size_t nbundles, size_t nbaselines);

/* `archive baseline set`: "NAME  PREVIOUS -> BUNDLE (SIDE)" from baseline_set()'s result. */
int view_baseline_set(struct buf *out, const char *name, const json_t *res);

/* `report --archive-index`: "DIR: N pages: N host classes, N benchmark series". */
int view_site_written(struct buf *out, const char *dir, const struct site_result *res);

#endif
