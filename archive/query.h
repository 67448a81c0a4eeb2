/*
 * archive/query.h: the read side of the archive: list, show, trend, and
 * host lookups.  list, show and trend fill plain structs (below) that
 * views/archive.h and reports/trend.h render as text and, for --json, as
 * the JSON documented in docs/plumb.1; a misspelt field is a compile
 * error, not a silent default.
 *
 * Ownership: every string and array of struct query_summaries, struct
 * query_detail and struct query_trend_result is the struct's own, freed by
 * query_summaries_release(), query_detail_release() and
 * query_trend_release() (each takes a zeroed struct, and leaves one); a
 * json_t returned through *out belongs to the caller (json_decref); the
 * filter structs only borrow their strings.
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

/* A side's reference, commit and commit time (RFC 3339); each NULL when unknown. */
struct query_ref {
	char *ref, *commit, *time;
};

/* One label of a bundle. */
struct query_label {
	char *key, *value;
};

/* One bundle as `archive list` shows it; a string is NULL when unknown. */
struct query_summary {
	char *id;
	char *created;                 /* RFC 3339 */
	char *repo;
	struct query_ref base, candidate;
	char *signature;               /* none, present or verified */
	char *host;                    /* its host fingerprint */
	int64_t benches;               /* how many benchmarks it holds */
	int64_t size;                  /* bytes of its file */
	char *project;
	struct query_label *labels;    /* by key */
	size_t nlabels;
};

/* Bundles, newest first. */
struct query_summaries {
	struct query_summary *v;
	size_t n;
};

/* Bundles matching f, newest first, in *out (zeroed first). */
int query_list(struct store *st, const struct query_filter *f, struct query_summaries *out,
	       struct plumb_err *err);

void query_summaries_release(struct query_summaries *l);

/*
 * A copy of text column i (query_col_text()) or of epoch-seconds column i
 * as RFC 3339 text (query_col_time()), the caller's to free; NULL for SQL
 * NULL, and NULL with *oom set when the copy failed.
 */
char *query_col_text(struct db_stmt *s, int i, int *oom);
char *query_col_time(struct db_stmt *s, int i, int *oom);

/* One side of a benchmark as the index keeps it; a number is NAN when unknown. */
struct query_side {
	double center, min, max, spread;
	char *pads;                    /* its pad medians: JSON text as stored, or NULL */
};

/* One benchmark of a bundle. */
struct query_bench {
	char *name, *mode, *metric;
	struct query_side base, candidate;
	double ratio;                  /* NAN when unknown */
	char *verdict;
	double noise;                  /* NAN when unknown */
};

/* A baseline that names a bundle, and which side. */
struct query_named {
	char *name, *side;
};

/* Everything about one bundle, as `archive show` shows it. */
struct query_detail {
	char *id, *path, *file_sha256;
	int64_t size;
	char *created, *added;         /* RFC 3339 */
	char *plumb_version, *format_version, *repo;
	struct query_ref base, candidate;
	char *signature, *signature_key, *signature_comment;
	int64_t replaced;              /* times its stored file was replaced */
	char *host;                    /* fingerprint; NULL: no host row */
	char *host_facts;              /* the host's facts, JSON text as stored */
	struct query_label *labels;
	size_t nlabels;
	struct query_named *baselines;
	size_t nbaselines;
	struct query_bench *benches;
	size_t nbenches;
};

/*
 * Step the prepared statement s (finalized here, whatever happens; NULL:
 * store_prepare() failed and err says why) and collect row(s) of each row
 * in a new array in *out, owned by the caller.  row() returns a new value
 * or NULL when memory ran out.  what names the query in messages.
 */
int query_rows(struct store *st, struct db_stmt *s, json_t *(*row)(struct db_stmt *s),
	       const char *what, json_t **out, struct plumb_err *err);

/* Everything about one bundle (id or unique prefix) in *out (zeroed first). */
int query_show(struct store *st, const char *prefix, struct query_detail *out,
	       struct plumb_err *err);

/* The same for a known row number (used by baseline show). */
int query_bundle(struct store *st, int64_t rid, struct query_detail *out,
		 struct plumb_err *err);

void query_detail_release(struct query_detail *d);

struct query_trend {
	const char *bench;    /* required */
	const char *metric;   /* NULL: the benchmark's most frequent metric on the host */
	const char *host;     /* NULL: the host with the most results for the benchmark */
	long last;            /* the latest N points only; 0 for all */
	const char *project;  /* NULL: the one project that has the benchmark (two or
	                         more: PLUMB_EARG, naming them) */
};

/* One point of a trend: one bundle's candidate; a string is NULL and a number NAN when unknown. */
struct query_trend_point {
	char *bundle, *ref, *commit;
	char *time;                    /* the candidate's commit time (else the bundle's), RFC 3339 */
	double center, min, max, spread, ratio;
	char *verdict;
	double base_center, noise;
	double *pads;                  /* the candidate's pad medians (NAN: null), NULL: none recorded */
	size_t npads;
	char *base_commit;
	double *base_pads;             /* the base's pad medians, the same way */
	size_t nbase_pads;
	char *created;                 /* RFC 3339 */
};

/* One benchmark's series on one host, oldest first. */
struct query_trend_result {
	char *bench;
	char *project;                 /* NULL: results without one */
	char *metric;
	char *host;                    /* its fingerprint */
	struct query_trend_point *points;
	size_t n;
};

/*
 * The series of one benchmark on one host: candidate center and range per
 * bundle, in candidate commit time order (oldest first), in *out (zeroed
 * first).
 */
int query_trend(struct store *st, const struct query_trend *q, struct query_trend_result *out,
		struct plumb_err *err);

void query_trend_release(struct query_trend_result *t);

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
