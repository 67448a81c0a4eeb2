/*
 * reports/changes.h: change points of archived nightly series as JSON
 * models (docs/changes.md): one benchmark's (`archive trend`, `report
 * --trend`) and every benchmark's on one host (`archive changes`).  The
 * test is stats/changepoint.h; this file turns a series into its nights
 * and a found change into the object every view reads.
 *
 * Ownership: every json_t returned through *out belongs to the caller;
 * the refs only borrow their strings.
 */
#ifndef PLUMB_REPORTS_CHANGES_H
#define PLUMB_REPORTS_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "stats/changepoint.h"

struct plumb_err;

/* Nights at or after this many from the end "start" a change (--fail-on change). */
#define CHANGES_LATEST 3

/* What names a night in a change object. */
struct changes_ref {
	const char *commit, *time, *bundle;   /* may be NULL */
};

/*
 * The night of a point: the mean and variance of its pad medians, or, with
 * no pads, its center (else the middle of its range) with no variance;
 * level NAN when it has none of these.
 */
struct cp_night changes_night(const double *pads, size_t npads, double center,
			      double min, double max);

/*
 * The change points of the n nights x (oldest first; nights with a NAN
 * level are skipped and the indexes are x's): *out, malloc'd, *nout of
 * them; *noise the standard deviation of a night's level.
 */
int changes_find(const struct cp_night *x, size_t n, struct cp_change **out, size_t *nout,
		 double *noise, struct plumb_err *err);

/*
 * One change as JSON: {direction, ratio, low, high, z, before, after,
 * nights_before, nights_after, last_before{commit,time,bundle},
 * first_after{...}, commits "A..B"}.  NULL when memory runs out.
 */
json_t *changes_object(const struct cp_change *c, const struct changes_ref *last_before,
		       const struct changes_ref *first_after);

struct changes_opts {
	const char *host;         /* fingerprint or prefix; NULL: every host class */
	const char *since;        /* only changes whose first night after is at or after; NULL */
	const char *archive_dir;  /* NULL: the default archive */
	const char *project;      /* only this project's series; NULL: every project */
};

/*
 * `plumb archive changes`: {host (the one class walked, else null), hosts
 * (the classes walked), since, series, nights, changes: [... each with
 * bench, metric and host, newest first]}.  Each class's series are its
 * own: a change point never spans two classes.
 */
int changes_of_host(const struct changes_opts *o, json_t **out, struct plumb_err *err);

#endif
