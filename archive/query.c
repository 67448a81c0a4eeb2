/*
 * archive/query.c: list, show and trend as SQL over the index, returning
 * JSON models (query.h).  The statements are written for the indexes of
 * archive/schema.c; bench/archive.sh times them on 100,000 bundles.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include "archive/query.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/manifest.h"
#include "common/banned.h"

/*
 * Put v under k in o; nonzero when v is NULL (out of memory) or the set
 * failed.  v is taken either way (jansson frees it on failure).
 */
static int jset(json_t *o, const char *k, json_t *v)
{
	if (!v)
		return 1;
	if (!o) {
		json_decref(v);
		return 1;
	}
	return json_object_set_new(o, k, v) != 0;
}

/* A text column as a JSON string, null for SQL NULL or invalid UTF-8. */
static json_t *col_str(struct db_stmt *s, int i)
{
	const char *t = db_column_text(s, i);
	json_t *v;

	if (!t)
		return json_null();
	v = json_string(t);
	return v ? v : json_null();
}

/* A numeric column as a JSON number (integer when stored as one), or null. */
static json_t *col_num(struct db_stmt *s, int i)
{
	switch (db_column_type(s, i)) {
	case DB_INTEGER:
		return json_integer(db_column_int64(s, i));
	case DB_FLOAT: {
		double d = db_column_double(s, i);
		return isfinite(d) ? json_real(d) : json_null();
	}
	default:
		return json_null();
	}
}

/* An epoch-seconds column as an RFC 3339 string, or null. */
static json_t *col_time(struct db_stmt *s, int i)
{
	char t[MANIFEST_TIME_MAX];

	if (db_column_type(s, i) == DB_NULL ||
	    manifest_time_format(db_column_int64(s, i), t) < 0)
		return json_null();
	return json_string(t);
}

/* A column holding JSON text, parsed; the text itself when it does not parse. */
static json_t *col_json(struct db_stmt *s, int i)
{
	const char *t = db_column_text(s, i);
	json_t *v;

	if (!t)
		return json_null();
	v = json_loads(t, JSON_DECODE_ANY, NULL);
	return v ? v : col_str(s, i);
}

/* Lower-case hex prefix [lo, lo "g") bounds; -1 when s is not hex. */
static int hex_range(const char *s, char *lo, char *hi, size_t size)
{
	size_t n = strlen(s);

	if (n == 0 || n + 2 > size)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = (char)tolower((unsigned char)s[i]);
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return -1;
		lo[i] = c;
	}
	lo[n] = '\0';
	memcpy(hi, lo, n);
	hi[n] = 'g';
	hi[n + 1] = '\0';
	return 0;
}

int query_host(struct store *st, const char *prefix, int64_t *id, char *fp_out,
	       size_t fp_size, struct plumb_err *err)
{
	struct db_stmt *s;
	struct buf cands;
	int rc, n = 0, r = 0;

	if (!*prefix)
		return plumb_err_set(err, PLUMB_EINPUT, "--host: empty fingerprint");
	/* The hosts table is small (one row per machine set-up): a scan is fine. */
	s = store_prepare(st, "SELECT id, fingerprint FROM hosts WHERE fingerprint = ?1 "
			  "OR substr(fingerprint, 1, length(?1)) = ?1 "
			  "ORDER BY fingerprint = ?1 DESC, fingerprint LIMIT 10", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, prefix);
	buf_init(&cands, 4096);
	while ((rc = db_step(s)) == DB_ROW) {
		const char *fp = db_column_text(s, 1);
		if (n == 0) {
			*id = db_column_int64(s, 0);
			snprintf(fp_out, fp_size, "%s", fp ? fp : "");
			if (fp && strcmp(fp, prefix) == 0) {
				n = 1;   /* an exact match wins over longer ones */
				rc = DB_DONE;
				break;
			}
		}
		buf_printf(&cands, "%s%s", n ? ", " : "", fp ? fp : "");
		n++;
	}
	if (rc != DB_DONE)
		r = store_db_err(st, rc, "look up host", err);
	db_finalize(s);
	if (!r && n == 0)
		r = plumb_err_set(err, PLUMB_EINPUT, "no host %s in the archive", prefix);
	if (!r && n > 1)
		r = plumb_err_set(err, PLUMB_EINPUT, "host prefix %s is ambiguous: %s",
				  prefix, buf_cstr(&cands));
	buf_release(&cands);
	return r;
}

/* {"ref", "commit", "time"} of one side from three columns. */
static json_t *side_ref(struct db_stmt *s, int i)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (jset(o, "ref", col_str(s, i)) | jset(o, "commit", col_str(s, i + 1)) |
	    jset(o, "time", col_time(s, i + 2))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {key: value} of a bundle's labels. */
static int labels_json(struct store *st, int64_t rid, json_t **out,
		       struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT key, value FROM labels WHERE bundle = ?1 "
					"ORDER BY key", err);
	json_t *o;
	int rc;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	o = json_object();
	if (!o) {
		db_finalize(s);
		return plumb_err_oom(err, "labels");
	}
	db_bind_int64(s, 1, rid);
	while ((rc = db_step(s)) == DB_ROW) {
		const char *k = db_column_text(s, 0);
		if (k && jset(o, k, col_str(s, 1))) {
			rc = DB_NOMEM;
			break;
		}
	}
	db_finalize(s);
	if (rc != DB_DONE) {
		json_decref(o);
		return store_db_err(st, rc, "read labels", err);
	}
	*out = o;
	return 0;
}

/*
 * A day ("2026-03-01", its start in UTC), an RFC 3339 UTC time, or an RFC
 * 3339 time with an offset ("2026-03-01T02:00:00+01:00", "...-05:30").
 */
int query_parse_since(const char *s, int64_t *out)
{
	char full[MANIFEST_TIME_MAX];
	size_t n = strlen(s);

	if (n == 10) {
		snprintf(full, sizeof(full), "%.10sT00:00:00Z", s);
		return manifest_time_parse(full, out);
	}
	if (n > 6 && n < sizeof(full) && (s[n - 6] == '+' || s[n - 6] == '-') && s[n - 3] == ':' &&
	    s[n - 5] >= '0' && s[n - 5] <= '2' && s[n - 4] >= '0' && s[n - 4] <= '9' &&
	    s[n - 2] >= '0' && s[n - 2] <= '5' && s[n - 1] >= '0' && s[n - 1] <= '9') {
		int hh = (s[n - 5] - '0') * 10 + (s[n - 4] - '0');
		int mm = (s[n - 2] - '0') * 10 + (s[n - 1] - '0');
		int64_t t;
		if (hh > 23)
			return -1;
		/* The local time, read as UTC, then moved by the offset. */
		snprintf(full, sizeof(full), "%.*sZ", (int)(n - 6), s);
		if (manifest_time_parse(full, &t) < 0)
			return -1;
		*out = t - (s[n - 6] == '+' ? 1 : -1) * (int64_t)(hh * 3600 + mm * 60);
		return 0;
	}
	return manifest_time_parse(s, out);
}

int query_list(struct store *st, const struct query_filter *f, json_t **out,
	       struct plumb_err *err)
{
	char clo[64], chi[66];
	int64_t host = 0, since = 0;
	struct db_stmt *s = NULL;
	struct buf sql;
	json_t *arr = NULL;
	int rc, r = 0, bad = 0, p;

	*out = NULL;
	if (f->host) {
		char fp[256];
		if ((r = query_host(st, f->host, &host, fp, sizeof(fp), err)) < 0)
			return r;
	}
	if (f->since && query_parse_since(f->since, &since) < 0)
		return plumb_err_set(err, PLUMB_EARG,
				     "--since: '%s' is not a date (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or YYYY-MM-DDTHH:MM:SS+HH:MM)",
				     f->since);
	if (f->commit && (strlen(f->commit) < 4 || hex_range(f->commit, clo, chi, sizeof(clo)) < 0))
		return plumb_err_set(err, PLUMB_EARG,
				     "--commit: '%s' is not a commit id or prefix (4 or more hex digits)",
				     f->commit);
	for (size_t i = 0; i < f->nlabels; i++)
		if (!f->labels[i][0] || f->labels[i][0] == '=')
			return plumb_err_set(err, PLUMB_EARG,
					     "--label: '%s' is not KEY=VALUE or KEY", f->labels[i]);

	buf_init(&sql, 64 * 1024);
	bad |= buf_addstr(&sql,
		"SELECT u.rid, u.id, u.created, u.repo, u.base_ref, u.base_commit, u.base_time,"
		" u.cand_ref, u.cand_commit, u.cand_time, u.signature, h.fingerprint,"
		" (SELECT count(*) FROM benches b WHERE b.bundle = u.rid), u.size, u.project"
		" FROM bundles u LEFT JOIN hosts h ON h.id = u.host WHERE 1 = 1") < 0;
	/* Parameters are numbered in the order the conditions are added. */
	p = 1;
	if (f->bench)
		bad |= buf_printf(&sql, " AND EXISTS (SELECT 1 FROM benches b WHERE b.bundle = u.rid"
				  " AND b.name = ?%d)", p++) < 0;
	if (f->repo)
		bad |= buf_printf(&sql, " AND u.repo = ?%d", p++) < 0;
	if (f->project)
		bad |= buf_printf(&sql, " AND u.project = ?%d", p++) < 0;
	if (f->commit) {
		bad |= buf_printf(&sql, " AND ((u.cand_commit >= ?%d AND u.cand_commit < ?%d)"
				  " OR (u.base_commit >= ?%d AND u.base_commit < ?%d))",
				  p, p + 1, p, p + 1) < 0;
		p += 2;
	}
	if (f->host)
		bad |= buf_printf(&sql, " AND u.host = ?%d", p++) < 0;
	if (f->since)
		bad |= buf_printf(&sql, " AND u.created >= ?%d", p++) < 0;
	for (size_t i = 0; i < f->nlabels; i++) {
		if (strchr(f->labels[i], '=')) {
			bad |= buf_printf(&sql, " AND EXISTS (SELECT 1 FROM labels l WHERE l.bundle = u.rid"
					  " AND l.key = ?%d AND l.value = ?%d)", p, p + 1) < 0;
			p += 2;
		} else {
			bad |= buf_printf(&sql, " AND EXISTS (SELECT 1 FROM labels l WHERE l.bundle = u.rid"
					  " AND l.key = ?%d)", p++) < 0;
		}
	}
	bad |= buf_addstr(&sql, " ORDER BY u.created DESC, u.id DESC") < 0;
	if (f->last > 0)
		bad |= buf_printf(&sql, " LIMIT %ld", f->last) < 0;
	if (bad) {
		r = buf_err(err, "query");
		goto done;
	}
	if (!(s = store_prepare(st, buf_cstr(&sql), err))) {
		r = err ? err->code : PLUMB_EINTERNAL;
		goto done;
	}
	p = 1;
	if (f->bench)
		db_bind_text(s, p++, f->bench);
	if (f->repo)
		db_bind_text(s, p++, f->repo);
	if (f->project)
		db_bind_text(s, p++, f->project);
	if (f->commit) {
		db_bind_text(s, p++, clo);
		db_bind_text(s, p++, chi);
	}
	if (f->host)
		db_bind_int64(s, p++, host);
	if (f->since)
		db_bind_int64(s, p++, since);
	for (size_t i = 0; i < f->nlabels; i++) {
		const char *eq = strchr(f->labels[i], '=');
		if (eq) {
			db_bind_textn(s, p++, f->labels[i], (size_t)(eq - f->labels[i]));
			db_bind_text(s, p++, eq + 1);
		} else {
			db_bind_text(s, p++, f->labels[i]);
		}
	}

	arr = json_array();
	if (!arr) {
		r = plumb_err_oom(err, "list");
		goto done;
	}
	while ((rc = db_step(s)) == DB_ROW) {
		json_t *o = json_object(), *labels = NULL;
		if (!o || json_array_append_new(arr, o) != 0) {
			json_decref(o);
			r = plumb_err_oom(err, "list");
			goto done;
		}
		if ((r = labels_json(st, db_column_int64(s, 0), &labels, err)) < 0)
			goto done;
		if (jset(o, "id", col_str(s, 1)) | jset(o, "created", col_time(s, 2)) |
		    jset(o, "repo", col_str(s, 3)) | jset(o, "base", side_ref(s, 4)) |
		    jset(o, "candidate", side_ref(s, 7)) | jset(o, "signature", col_str(s, 10)) |
		    jset(o, "host", col_str(s, 11)) | jset(o, "benches", col_num(s, 12)) |
		    jset(o, "size", col_num(s, 13)) | jset(o, "project", col_str(s, 14)) |
		    jset(o, "labels", labels)) {
			r = plumb_err_oom(err, "list");
			goto done;
		}
	}
	if (rc != DB_DONE)
		r = store_db_err(st, rc, "list bundles", err);
done:
	db_finalize(s);
	buf_release(&sql);
	if (r < 0) {
		json_decref(arr);
		return r;
	}
	*out = arr;
	return 0;
}

/* {"center", "min", "max", "spread", "pads"} from five columns. */
static json_t *side_json(struct db_stmt *s, int i)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (jset(o, "center", col_num(s, i)) | jset(o, "min", col_num(s, i + 1)) |
	    jset(o, "max", col_num(s, i + 2)) | jset(o, "spread", col_num(s, i + 3)) |
	    jset(o, "pads", col_json(s, i + 4))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int query_rows(struct store *st, struct db_stmt *s, json_t *(*row)(struct db_stmt *s),
	       const char *what, json_t **out, struct plumb_err *err)
{
	json_t *arr;
	int rc;

	*out = NULL;
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	arr = json_array();
	if (!arr) {
		db_finalize(s);
		return plumb_err_oom(err, what);
	}
	while ((rc = db_step(s)) == DB_ROW) {
		/* json_array_append_new() refuses (and so counts) a NULL row. */
		if (json_array_append_new(arr, row(s)) != 0) {
			rc = DB_NOMEM;
			break;
		}
	}
	db_finalize(s);
	if (rc != DB_DONE) {
		json_decref(arr);
		return store_db_err(st, rc, what, err);
	}
	*out = arr;
	return 0;
}

static json_t *bench_row(struct db_stmt *s)
{
	json_t *o = json_object();

	if (o && (jset(o, "name", col_str(s, 0)) | jset(o, "mode", col_str(s, 1)) |
		  jset(o, "metric", col_str(s, 2)) | jset(o, "base", side_json(s, 3)) |
		  jset(o, "candidate", side_json(s, 8)) | jset(o, "ratio", col_num(s, 13)) |
		  jset(o, "verdict", col_str(s, 14)) | jset(o, "noise", col_num(s, 15)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int benches_json(struct store *st, int64_t rid, json_t **out,
			struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT name, mode, metric, base_center, base_min, base_max, base_spread, base_pads,"
		" cand_center, cand_min, cand_max, cand_spread, cand_pads, ratio, verdict, noise"
		" FROM benches WHERE bundle = ?1 ORDER BY name", err);

	if (s)
		db_bind_int64(s, 1, rid);
	return query_rows(st, s, bench_row, "read benchmarks", out, err);
}

static json_t *baseline_of_row(struct db_stmt *s)
{
	json_t *o = json_object();

	if (o && (jset(o, "name", col_str(s, 0)) | jset(o, "side", col_str(s, 1)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int baselines_of(struct store *st, int64_t rid, json_t **out,
			struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT name, side FROM baselines WHERE bundle = ?1 "
					"ORDER BY name", err);

	if (s)
		db_bind_int64(s, 1, rid);
	return query_rows(st, s, baseline_of_row, "read baselines", out, err);
}

int query_bundle(struct store *st, int64_t rid, json_t **out,
		 struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT u.id, u.file_sha256, u.size, u.created, u.added, u.plumb_version,"
		" u.format_version, u.repo, u.base_ref, u.base_commit, u.base_time,"
		" u.cand_ref, u.cand_commit, u.cand_time, u.signature, h.fingerprint, h.facts,"
		" u.sig_key, u.sig_comment,"
		" (SELECT count(*) FROM replacements r WHERE r.bundle = u.rid)"
		" FROM bundles u LEFT JOIN hosts h ON h.id = u.host WHERE u.rid = ?1", err);
	json_t *o = NULL, *host = NULL, *benches = NULL, *labels = NULL, *bl = NULL;
	char *path = NULL;
	int rc, r = 0;

	*out = NULL;
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_int64(s, 1, rid);
	rc = db_step(s);
	if (rc != DB_ROW) {
		r = rc == DB_DONE ? plumb_err_set(err, PLUMB_EINPUT, "no bundle row %lld",
						      (long long)rid)
				      : store_db_err(st, rc, "read bundle", err);
		goto done;
	}
	if ((r = benches_json(st, rid, &benches, err)) < 0 ||
	    (r = labels_json(st, rid, &labels, err)) < 0 ||
	    (r = baselines_of(st, rid, &bl, err)) < 0)
		goto done;
	path = store_bundle_path(st, db_column_text(s, 0));
	o = json_object();
	if (!o || !path) {
		r = plumb_err_oom(err, "bundle");
		goto done;
	}
	if (db_column_type(s, 15) == DB_NULL) {
		host = json_null();
	} else if ((host = json_object())) {
		if (jset(host, "fingerprint", col_str(s, 15)) | jset(host, "facts", col_json(s, 16))) {
			json_decref(host);
			host = NULL;
		}
	}
	/* jset() takes each value, set or not: nothing to free after this. */
	if (jset(o, "id", col_str(s, 0)) | jset(o, "path", json_string(path)) |
	    jset(o, "file_sha256", col_str(s, 1)) | jset(o, "size", col_num(s, 2)) |
	    jset(o, "created", col_time(s, 3)) | jset(o, "added", col_time(s, 4)) |
	    jset(o, "plumb_version", col_str(s, 5)) | jset(o, "format_version", col_str(s, 6)) |
	    jset(o, "repo", col_str(s, 7)) | jset(o, "base", side_ref(s, 8)) |
	    jset(o, "candidate", side_ref(s, 11)) | jset(o, "signature", col_str(s, 14)) |
	    jset(o, "signature_key", col_str(s, 17)) | jset(o, "signature_comment", col_str(s, 18)) |
	    jset(o, "replaced", col_num(s, 19)) |
	    jset(o, "host", host) | jset(o, "labels", labels) | jset(o, "baselines", bl) |
	    jset(o, "benches", benches)) {
		labels = bl = benches = NULL;
		r = plumb_err_oom(err, "bundle");
		goto done;
	}
	labels = bl = benches = NULL;
	*out = o;
	o = NULL;
done:
	db_finalize(s);
	free(path);
	json_decref(o);
	json_decref(benches);
	json_decref(labels);
	json_decref(bl);
	return r;
}

int query_show(struct store *st, const char *prefix, json_t **out,
	       struct plumb_err *err)
{
	char id[STORE_ID_LEN + 1];
	int64_t rid;
	int r;

	*out = NULL;
	if ((r = store_resolve(st, prefix, id, &rid, err)) < 0)
		return r;
	return query_bundle(st, rid, out, err);
}

/*
 * The first column of the first row of sql, with ?1 = a, ?2 = b and ?3 = c
 * (NULL when c is NULL): as an integer in *iv or a copied string in *sv.
 */
/*
 * The first row's first column of sql, whose parameters are ?1 = a, ?2 =
 * b, ?3 = c and, when sql names it, ?4 = the project (d, NULL matching
 * rows without one: `project IS ?4`).
 */
static int pick_in(struct store *st, const char *sql, const char *a, int64_t b, const char *c,
		   const char *d, int *found, int64_t *iv, char **sv, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, sql, err);
	int rc;

	*found = 0;
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, a);
	db_bind_int64(s, 2, b);
	db_bind_text(s, 3, c);   /* NULL too: PostgreSQL types the parameter of ?3 IS NULL */
	if (strstr(sql, "?4"))
		db_bind_text(s, 4, d && *d ? d : NULL);
	rc = db_step(s);
	if (rc == DB_ROW) {
		*found = 1;
		if (iv)
			*iv = db_column_int64(s, 0);
		if (sv) {
			const char *t = db_column_text(s, 0);
			*sv = t ? strdup(t) : NULL;
			if (t && !*sv) {
				db_finalize(s);
				return plumb_err_oom(err, "trend");
			}
		}
	}
	db_finalize(s);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_db_err(st, rc, "trend", err);
	return 0;
}

static int pick(struct store *st, const char *sql, const char *a, int64_t b,
		const char *c, int *found, int64_t *iv, char **sv, struct plumb_err *err)
{
	return pick_in(st, sql, a, b, c, NULL, found, iv, sv, err);
}

/*
 * The project of benchmark bench's series: q_project when given, else the
 * one project that has the benchmark ("" for results without one).
 * Two or more: PLUMB_EARG naming them.
 */
static int trend_project(struct store *st, const char *bench, const char *q_project,
			 char **project, struct plumb_err *err)
{
	struct db_stmt *s;
	struct buf names;
	size_t n = 0;
	int rc, r = 0;

	*project = NULL;
	if (q_project)
		return (*project = strdup(q_project)) ? 0 : plumb_err_oom(err, "trend");
	s = store_prepare(st, "SELECT DISTINCT coalesce(project, '') FROM benches WHERE name = ?1"
			  " ORDER BY 1 LIMIT 6", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, bench);
	buf_init(&names, 4096);
	while ((rc = db_step(s)) == DB_ROW) {
		const char *p = db_column_text(s, 0);
		if (n++ == 0 && !(*project = strdup(p ? p : "")))
			r = plumb_err_oom(err, "trend");
		buf_printf(&names, "%s%s", n > 1 ? ", " : "", p && *p ? p : "(none)");
	}
	if (rc != DB_DONE && r == 0)
		r = store_db_err(st, rc, "trend", err);
	db_finalize(s);
	if (r == 0 && n > 1)
		r = plumb_err_set(err, PLUMB_EARG, "benchmark '%s' is in %s%zu projects (%s%s): "
				  "name one with --project", bench, n > 5 ? "more than " : "",
				  n > 5 ? (size_t)5 : n, buf_cstr(&names), n > 5 ? ", ..." : "");
	buf_release(&names);
	if (r < 0) {
		free(*project);
		*project = NULL;
	}
	return r;
}

int query_trend(struct store *st, const struct query_trend *q, json_t **out,
		struct plumb_err *err)
{
	char fp[256] = "";
	char *metric = NULL, *project = NULL;
	int64_t host = 0;
	struct db_stmt *s = NULL;
	json_t *o = NULL, *pts = NULL;
	size_t n;
	int found, rc, r = 0;

	*out = NULL;
	if ((r = trend_project(st, q->bench, q->project, &project, err)) < 0)
		return r;
	if (q->host) {
		if ((r = query_host(st, q->host, &host, fp, sizeof(fp), err)) < 0) {
			free(project);
			return r;
		}
	} else {
		/* The host with the most results, the latest on a tie. */
		r = pick_in(st, "SELECT host FROM benches WHERE name = ?1 AND host IS NOT NULL"
			    " AND (?3 IS NULL OR metric = ?3) AND project IS ?4"
			    " GROUP BY host ORDER BY count(*) DESC, max(at) DESC LIMIT 1",
			    q->bench, 0, q->metric, project, &found, &host, NULL, err);
		if (r == 0 && !found)
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "no results of benchmark '%s'%s%s%s%s%s with host facts in the archive",
					  q->bench, q->metric ? " (metric " : "",
					  q->metric ? q->metric : "", q->metric ? ")" : "",
					  q->project ? " in project " : "", q->project ? q->project : "");
		if (r < 0) {
			free(project);
			return r;
		}
		struct db_stmt *h = store_prepare(st, "SELECT fingerprint FROM hosts WHERE id = ?1", err);
		if (!h) {
			free(project);
			return err ? err->code : PLUMB_EINTERNAL;
		}
		db_bind_int64(h, 1, host);
		rc = db_step(h);
		if (rc == DB_ROW)
			snprintf(fp, sizeof(fp), "%s", db_column_text(h, 0));
		db_finalize(h);
		if (rc != DB_ROW && rc != DB_DONE)
			return store_db_err(st, rc, "read host", err);
	}
	if (q->metric) {
		metric = strdup(q->metric);
		if (!metric) {
			free(project);
			return plumb_err_oom(err, "trend");
		}
	} else {
		r = pick_in(st, "SELECT metric FROM benches WHERE name = ?1 AND host = ?2"
			    " AND ?3 IS NULL AND project IS ?4"
			    " GROUP BY metric ORDER BY count(*) DESC, max(at) DESC LIMIT 1",
			    q->bench, host, NULL, project, &found, NULL, &metric, err);
		if (r == 0 && !found)
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "no results of benchmark '%s' on host %s in the archive",
					  q->bench, fp);
		if (r < 0) {
			free(project);
			return r;
		}
	}

	/* Newest first through the index, then reversed: --last keeps the latest. */
	s = store_prepare(st,
		"SELECT u.id, u.cand_ref, u.cand_commit, b.at, b.cand_center, b.cand_min,"
		" b.cand_max, b.cand_spread, b.ratio, b.verdict, b.base_center, b.noise, b.cand_pads,"
		" u.base_commit, b.base_pads, u.created"
		" FROM benches b JOIN bundles u ON u.rid = b.bundle"
		" WHERE b.name = ?1 AND b.host = ?2 AND b.metric IS ?3 AND b.project IS ?5"
		" ORDER BY b.at DESC, b.bundle DESC LIMIT ?4", err);
	if (!s) {
		r = err ? err->code : PLUMB_EINTERNAL;
		goto done;
	}
	db_bind_text(s, 1, q->bench);
	db_bind_int64(s, 2, host);
	if (metric)
		db_bind_text(s, 3, metric);
	db_bind_int64(s, 4, q->last > 0 ? q->last : INT64_MAX);   /* no limit (PostgreSQL refuses -1) */
	db_bind_text(s, 5, *project ? project : NULL);
	pts = json_array();
	if (!pts) {
		r = plumb_err_oom(err, "trend");
		goto done;
	}
	while ((rc = db_step(s)) == DB_ROW) {
		json_t *p = json_object();
		if (!p || json_array_append_new(pts, p) != 0 ||
		    jset(p, "bundle", col_str(s, 0)) | jset(p, "ref", col_str(s, 1)) |
		    jset(p, "commit", col_str(s, 2)) | jset(p, "time", col_time(s, 3)) |
		    jset(p, "center", col_num(s, 4)) | jset(p, "min", col_num(s, 5)) |
		    jset(p, "max", col_num(s, 6)) | jset(p, "spread", col_num(s, 7)) |
		    jset(p, "ratio", col_num(s, 8)) | jset(p, "verdict", col_str(s, 9)) |
		    jset(p, "base_center", col_num(s, 10)) | jset(p, "noise", col_num(s, 11)) |
		    jset(p, "pads", col_json(s, 12)) | jset(p, "base_commit", col_str(s, 13)) |
		    jset(p, "base_pads", col_json(s, 14)) | jset(p, "created", col_time(s, 15))) {
			r = plumb_err_oom(err, "trend");
			goto done;
		}
	}
	if (rc != DB_DONE) {
		r = store_db_err(st, rc, "trend", err);
		goto done;
	}
	n = json_array_size(pts);
	for (size_t i = 0; i < n / 2; i++) {
		json_t *a = json_incref(json_array_get(pts, i));
		json_t *b = json_incref(json_array_get(pts, n - 1 - i));
		json_array_set_new(pts, i, b);
		json_array_set_new(pts, n - 1 - i, a);
	}
	o = json_object();
	if (!o) {
		r = plumb_err_oom(err, "trend");
		goto done;
	}
	if (jset(o, "bench", json_string(q->bench)) |
	    jset(o, "project", *project ? json_string(project) : json_null()) |
	    jset(o, "metric", metric ? json_string(metric) : json_null()) |
	    jset(o, "host", json_string(fp)) | jset(o, "points", pts)) {
		pts = NULL;
		r = plumb_err_oom(err, "trend");
		goto done;
	}
	pts = NULL;
	*out = o;
	o = NULL;
done:
	db_finalize(s);
	json_decref(pts);
	json_decref(o);
	free(metric);
	free(project);
	return r;
}

/* The numbers of a JSON array of numbers ("[1.5, 2]"), at most max; 0 when it is not one. */
static size_t pads_of(const char *t, double *out, size_t max)
{
	size_t k = 0;
	char *end;

	if (!t || *t != '[')
		return 0;
	t++;
	for (;;) {
		while (*t == ' ')
			t++;
		if (*t == ']')
			return k;
		if (k == max)
			return 0;
		out[k] = strtod(t, &end);
		if (end == t || !isfinite(out[k]))
			return 0;
		k++;
		t = end;
		while (*t == ' ')
			t++;
		if (*t == ',')
			t++;
		else if (*t != ']')
			return 0;
	}
}

/* Empty sr for the next series (the arrays kept). */
static void series_clear(struct query_series *sr)
{
	for (size_t i = 0; i < sr->n; i++) {
		free(sr->nights[i].commit);
		free(sr->nights[i].bundle);
		free(sr->nights[i].base_commit);
	}
	sr->n = 0;
	sr->npads = 0;
	free(sr->bench);
	free(sr->metric);
	free(sr->project);
	sr->bench = sr->metric = sr->project = NULL;
}

/* The nights gathered so far as one series to each(), then emptied. */
static int flush_series(struct query_series *sr, int (*each)(const struct query_series *, void *),
			void *arg)
{
	int r = sr->n ? each(sr, arg) : 0;

	series_clear(sr);
	return r;
}

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return !a && !b;
	return strcmp(a, b) == 0;
}

static char *dup_col(struct db_stmt *s, int i, int *oom)
{
	const char *t = db_column_text(s, i);
	char *d;

	if (!t)
		return NULL;
	if (!(d = strdup(t)))
		*oom = 1;
	return d;
}

int query_each_series(struct store *st, const char *host, const char *project, char *fp_out,
		      size_t fp_size, int (*each)(const struct query_series *s, void *arg), void *arg,
		      struct plumb_err *err)
{
	struct query_series sr;
	struct db_stmt *s;
	int64_t hid = 0;
	size_t cap = 0, pcap = 0;
	int rc, r = 0, found;

	memset(&sr, 0, sizeof(sr));
	if (host) {
		if ((r = query_host(st, host, &hid, fp_out, fp_size, err)) < 0)
			return r;
	} else {
		char *fp = NULL;
		r = pick(st, "SELECT host FROM benches WHERE host IS NOT NULL AND ?1 IS NOT NULL"
			 " GROUP BY host ORDER BY count(*) DESC, max(at) DESC LIMIT 1",
			 "", 0, NULL, &found, &hid, NULL, err);
		if (r < 0)
			return r;
		if (!found)
			return plumb_err_set(err, PLUMB_EINPUT, "no results with host facts in the archive");
		r = pick(st, "SELECT fingerprint FROM hosts WHERE id = ?2 AND ?1 IS NOT NULL",
			 "", hid, NULL, &found, NULL, &fp, err);
		if (r < 0)
			return r;
		snprintf(fp_out, fp_size, "%s", fp ? fp : "");
		free(fp);
	}
	s = store_prepare(st,
		"SELECT b.name, b.metric, b.at, u.cand_commit, u.id, b.cand_center, b.cand_min,"
		" b.cand_max, b.cand_pads, u.base_commit, b.base_center, b.base_pads, b.ratio,"
		" coalesce(b.project, '')"
		" FROM benches b JOIN bundles u ON u.rid = b.bundle"
		" WHERE b.host = ?1 AND (?2 IS NULL OR b.project = ?2)"
		" ORDER BY coalesce(b.project, ''), b.name, b.metric, b.at, b.bundle", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_int64(s, 1, hid);
	db_bind_text(s, 2, project);
	while ((rc = db_step(s)) == DB_ROW) {
		const char *name = db_column_text(s, 0), *metric = db_column_text(s, 1);
		struct query_night *q;
		int oom = 0;

		if (!name)
			continue;
		if (sr.bench && (!same_str(sr.bench, name) || !same_str(sr.metric, metric) ||
				 !same_str(sr.project, db_column_text(s, 13)))) {
			if ((r = flush_series(&sr, each, arg)) < 0)
				goto done;
		}
		if (!sr.bench) {
			sr.bench = dup_col(s, 0, &oom);
			sr.metric = dup_col(s, 1, &oom);
			sr.project = dup_col(s, 13, &oom);
		}
		if (sr.n == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct query_night *g = realloc(sr.nights, nc * sizeof(*g));
			if (!g) {
				r = plumb_err_oom(err, "changes");
				goto done;
			}
			sr.nights = g;
			cap = nc;
		}
		q = &sr.nights[sr.n++];
		memset(q, 0, sizeof(*q));
		q->at = db_column_int64(s, 2);
		q->commit = dup_col(s, 3, &oom);
		q->bundle = dup_col(s, 4, &oom);
		q->center = db_column_type(s, 5) == DB_NULL ? NAN : db_column_double(s, 5);
		q->min = db_column_type(s, 6) == DB_NULL ? NAN : db_column_double(s, 6);
		q->max = db_column_type(s, 7) == DB_NULL ? NAN : db_column_double(s, 7);
		q->base_commit = dup_col(s, 9, &oom);
		q->base_center = db_column_type(s, 10) == DB_NULL ? NAN : db_column_double(s, 10);
		q->ratio = db_column_type(s, 12) == DB_NULL ? NAN : db_column_double(s, 12);
		/* Room for both sides' pads of this night. */
		if (sr.npads + 2 * QUERY_PADS_MAX > pcap) {
			size_t nc = pcap ? pcap * 2 : 4096;
			double *g = realloc(sr.pads, nc * sizeof(*g));
			if (!g) {
				r = plumb_err_oom(err, "changes");
				goto done;
			}
			sr.pads = g;
			pcap = nc;
		}
		q->pad0 = sr.npads;
		q->npads = pads_of(db_column_text(s, 8), sr.pads + sr.npads,
				   QUERY_PADS_MAX);
		sr.npads += q->npads;
		q->base_pad0 = sr.npads;
		q->base_npads = pads_of(db_column_text(s, 11), sr.pads + sr.npads, QUERY_PADS_MAX);
		sr.npads += q->base_npads;
		if (oom || !sr.bench) {
			r = plumb_err_oom(err, "changes");
			goto done;
		}
	}
	if (rc != DB_DONE) {
		r = store_db_err(st, rc, "changes", err);
		goto done;
	}
	r = flush_series(&sr, each, arg);
done:
	series_clear(&sr);
	db_finalize(s);
	free(sr.nights);
	free(sr.pads);
	return r;
}
