/*
 * archive/hosts.c: host classes as SQL over the index (hosts.h).  The
 * hosts table is small (one row per machine set-up); the counts walk the
 * bundles and benches of each class through bundles(host, created) and a
 * scan of benches.
 */
#include <stdio.h>

#include <jansson.h>
#include "archive/hosts.h"
#include "archive/query.h"
#include "archive/store.h"
#include "common/err.h"
#include "formats/manifest.h"
#include "common/banned.h"

static json_t *text_or_null(struct db_stmt *s, int i)
{
	const char *t = db_column_text(s, i);
	json_t *v = t ? json_string(t) : json_null();

	return v ? v : json_null();
}

static json_t *time_or_null(struct db_stmt *s, int i)
{
	char t[MANIFEST_TIME_MAX];

	if (db_column_type(s, i) == DB_NULL ||
	    manifest_time_format(db_column_int64(s, i), t) < 0)
		return json_null();
	return json_string(t);
}

/* The facts column parsed; null when absent or not a JSON object. */
static json_t *facts_of(struct db_stmt *s, int i)
{
	const char *t = db_column_text(s, i);
	json_t *v = t ? json_loads(t, 0, NULL) : NULL;

	if (!json_is_object(v)) {
		json_decref(v);
		return json_null();
	}
	return v;
}

static json_t *host_row(struct db_stmt *s)
{
	json_t *o = json_object();

	if (!o || json_object_set_new(o, "fingerprint", text_or_null(s, 0)) ||
	    json_object_set_new(o, "facts", facts_of(s, 1)) ||
	    json_object_set_new(o, "bundles", json_integer(db_column_int64(s, 2))) ||
	    json_object_set_new(o, "benchmarks", json_integer(db_column_int64(s, 3))) ||
	    json_object_set_new(o, "first", time_or_null(s, 4)) ||
	    json_object_set_new(o, "last", time_or_null(s, 5))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int hosts_list(struct store *st, json_t **out, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT h.fingerprint, h.facts,"
		" (SELECT count(*) FROM bundles u WHERE u.host = h.id),"
		" (SELECT count(DISTINCT b.name) FROM benches b WHERE b.host = h.id),"
		" (SELECT min(u.created) FROM bundles u WHERE u.host = h.id),"
		" (SELECT max(u.created) FROM bundles u WHERE u.host = h.id)"
		" FROM hosts h ORDER BY h.fingerprint", err);

	return query_rows(st, s, host_row, "hosts", out, err);
}

static json_t *first_text(struct db_stmt *s)
{
	const char *t = db_column_text(s, 0);

	return t ? json_string(t) : NULL;
}

int hosts_of_bench(struct store *st, const char *bench, const char *metric, const char *project,
		   json_t **out, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT h.fingerprint FROM benches b JOIN hosts h ON h.id = b.host"
		" WHERE b.name = ?1 AND (?2 IS NULL OR b.metric = ?2)"
		" AND (?3 IS NULL OR b.project = ?3)"
		" GROUP BY h.fingerprint ORDER BY count(*) DESC, max(b.at) DESC, h.fingerprint", err);

	if (s) {
		db_bind_text(s, 1, bench);
		db_bind_text(s, 2, metric);   /* NULL too: typed for ?2 IS NULL on PostgreSQL */
		db_bind_text(s, 3, project);
	}
	return query_rows(st, s, first_text, "hosts", out, err);
}

/* {"project": text or null, "bench": text} of a row (project, name). */
static json_t *project_bench(struct db_stmt *s)
{
	const char *p = db_column_text(s, 0), *b = db_column_text(s, 1);

	return b ? json_pack("{s:s?, s:s}", "project", p, "bench", b) : NULL;
}

int hosts_benches(struct store *st, const char *fp, json_t **out, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT DISTINCT coalesce(b.project, ''), b.name FROM benches b"
		" JOIN hosts h ON h.id = b.host WHERE h.fingerprint = ?1 ORDER BY 1, 2", err);

	if (s)
		db_bind_text(s, 1, fp);
	return query_rows(st, s, project_bench, "hosts", out, err);
}

int hosts_classes(struct store *st, json_t **out, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT h.fingerprint FROM hosts h WHERE EXISTS"
		" (SELECT 1 FROM benches b WHERE b.host = h.id) ORDER BY h.fingerprint", err);

	return query_rows(st, s, first_text, "hosts", out, err);
}
