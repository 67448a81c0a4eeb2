/*
 * archive/query.h: the read side of the archive: list, show, trend, and
 * host lookups.  Each query returns a JSON model (jansson) that `--json`
 * prints as it is and views/archive.h renders as text, so the two outputs
 * cannot disagree.  The layouts are documented in docs/plumb.1.
 *
 * Ownership: a json_t returned through *out belongs to the caller
 * (json_decref); the filter structs only borrow their strings.
 */
#ifndef PLUMB_ARCHIVE_QUERY_H
#define PLUMB_ARCHIVE_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "archive/store.h"

struct plumb_err;

struct query_filter {
	const char *bench;    /* bundles holding this benchmark, or NULL */
	const char *repo;     /* exact repository, or NULL */
	const char *project;  /* exact project (run.project), or NULL */
	const char *commit;   /* prefix of the base or candidate commit, or NULL */
	const char *host;     /* host fingerprint or unique prefix, or NULL */
	const char *const *labels; /* "K=V" (or "K": any value), all must match */
	size_t nlabels;
	const char *since;    /* created at or after this ISO 8601 time, or NULL */
	long last;            /* the newest N only; 0 for all */
};

/* Bundles matching f, newest first: a JSON array of summaries. */
int query_list(struct store *st, const struct query_filter *f, json_t **out,
	       struct plumb_err *err);

/* Everything about one bundle (id or unique prefix): a JSON object. */
/*
 * Step the prepared statement s (finalized here, whatever happens; NULL:
 * store_prepare() failed and err says why) and collect row(s) of each row
 * in a new array in *out, owned by the caller.  row() returns a new value
 * or NULL when memory ran out.  what names the query in messages.
 */
int query_rows(struct store *st, struct db_stmt *s, json_t *(*row)(struct db_stmt *s),
	       const char *what, json_t **out, struct plumb_err *err);

int query_show(struct store *st, const char *prefix, json_t **out,
	       struct plumb_err *err);

/* The same for a known row number (used by baseline show). */
int query_bundle(struct store *st, int64_t rid, json_t **out,
		 struct plumb_err *err);

struct query_trend {
	const char *bench;    /* required */
	const char *metric;   /* NULL: the benchmark's most frequent metric on the host */
	const char *host;     /* NULL: the host with the most results for the benchmark */
	long last;            /* the latest N points only; 0 for all */
	const char *project;  /* NULL: the one project that has the benchmark (two or
	                         more: PLUMB_EARG, naming them) */
};

/*
 * The series of one benchmark on one host: candidate center and range per
 * bundle, in candidate commit time order (oldest first).
 */
int query_trend(struct store *st, const struct query_trend *q, json_t **out,
		struct plumb_err *err);

/* A day ("2026-03-01", its start in UTC) or an RFC 3339 UTC time; -1 when neither. */
int query_parse_since(const char *s, int64_t *out);

/* The most pad medians of one night that a series holds. */
#define QUERY_PADS_MAX 256

/* One night of a series: one bundle's candidate, and the base it was measured against. */
struct query_night {
	int64_t at;              /* commit time (else creation), Unix seconds */
	char *commit, *bundle;   /* may be NULL */
	double center, min, max; /* NAN when unknown */
	size_t pad0, npads;      /* its pad medians: series pads[pad0 .. pad0 + npads) */
	char *base_commit;       /* the base's commit, or NULL */
	double base_center;      /* NAN when unknown */
	double ratio;            /* the recorded candidate / base center, NAN when unknown */
	size_t base_pad0, base_npads; /* the base's pad medians in the series' pads */
};

/* One benchmark's series on one host, oldest first; everything lives until each() returns. */
struct query_series {
	char *bench, *metric;
	char *project;           /* "" for results without one */
	struct query_night *nights;
	size_t n;
	double *pads;
	size_t npads;
};

/*
 * Every series (project, benchmark and metric) measured on host
 * (fingerprint or prefix; NULL: the host with the most results), of
 * project only when it is not NULL, in project then name order, each
 * handed to each() in turn; the host's fingerprint in fp_out.  A negative
 * return of each() stops the walk and is returned.
 */
int query_each_series(struct store *st, const char *host, const char *project, char *fp_out,
		      size_t fp_size, int (*each)(const struct query_series *s, void *arg), void *arg,
		      struct plumb_err *err);

/*
 * A host fingerprint or unique prefix of one to its row id and full
 * fingerprint (fp_out, fp_size bytes).  Unknown or ambiguous: PLUMB_EINPUT.
 */
int query_host(struct store *st, const char *prefix, int64_t *id, char *fp_out,
	       size_t fp_size, struct plumb_err *err);

#endif
