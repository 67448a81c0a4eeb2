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

#endif
