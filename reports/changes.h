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
 * What the archive holds of one night (borrowed): the candidate's pad
 * medians and summary, the base it was measured against in the same job,
 * and the recorded ratio.  Unknown numbers are NAN, unknown strings NULL.
 */
struct changes_obs {
	const double *pads;           /* the candidate's pad medians */
	size_t npads;
	double center, min, max;      /* the candidate's */
	const double *base_pads;      /* the base's pad medians */
	size_t nbase;
	double base_center;
	double ratio;                 /* candidate / base center as recorded */
	const char *commit, *base_commit;
};

/*
 * Which series the change points are found on (docs/changes.md):
 * LEVEL, each night's candidate level (the mean of its pad medians);
 * WITHIN, each night's candidate against its base, measured interleaved
 * in the same job (the ratio of their pad means), so that what moves the
 * host moves both sides and cancels.  WITHIN is only meaningful when
 * every night measured the same base.
 */
enum changes_series {
	CHANGES_LEVEL,
	CHANGES_WITHIN,
};

/* "level" or "within-night": the name the JSON and the text give a series. */
const char *changes_series_name(enum changes_series s);

/*
 * The series of the n nights o: WITHIN when every night that has a level
 * has a within-night one too and all name one base commit (*base, else
 * NULL, gets it), else LEVEL.  The one place that decides.
 */
enum changes_series changes_series_of(const struct changes_obs *o, size_t n, const char **base);

/*
 * The night of one observation on series s.  LEVEL: the mean and
 * variance of the candidate's pad medians, or with no pads its center
 * (else the middle of its range) with no variance.  WITHIN: the mean of
 * the candidate's pads over the mean of the base's, with the variance of
 * the candidate's mean alone (the base is the same code every night: what
 * its pads vary night to night shows in the series' own differences), or
 * with no pads the recorded ratio.  Level NAN when it has none of these.
 */
struct cp_night changes_night(const struct changes_obs *o, enum changes_series s);

/*
 * Whether a change between the nights before and after moved no code:
 * both measured the same candidate commit, so nothing lies between them
 * but the host (its load, drift, a kernel).  Such a change is reported
 * with cause "host" and never gates.
 */
int changes_is_host(const struct changes_ref *before, const struct changes_ref *after);

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
 * first_after{...}, commits "A..B", series, cause ("commits" or "host",
 * changes_is_host())}.  NULL when memory runs out.
 */
json_t *changes_object(const struct cp_change *c, const struct changes_ref *last_before,
		       const struct changes_ref *first_after, enum changes_series series);

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
