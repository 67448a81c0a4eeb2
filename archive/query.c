/*
 * archive/query.c: list, show and trend as SQL over the index, filling
 * the structs of query.h.  The statements are written for the indexes of
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

char *query_col_text(struct db_stmt *s, int i, int *oom)
{
	const char *t = db_column_text(s, i);
	char *d;

	if (!t)
		return NULL;
	if (!(d = strdup(t)))
		*oom = 1;
	return d;
}

char *query_col_time(struct db_stmt *s, int i, int *oom)
{
	char t[MANIFEST_TIME_MAX];
	char *d;

	if (db_column_type(s, i) == DB_NULL || manifest_time_format(db_column_int64(s, i), t) < 0)
		return NULL;
	if (!(d = strdup(t)))
		*oom = 1;
	return d;
}

/* A numeric column as a double, NAN for SQL NULL or a value that is not a number. */
static double col_double(struct db_stmt *s, int i)
{
	int t = db_column_type(s, i);

	return t == DB_INTEGER || t == DB_FLOAT ? db_column_double(s, i) : NAN;
}

/* ref, commit and time of one side from three columns. */
static void ref_of(struct db_stmt *s, int i, struct query_ref *r, int *oom)
{
	r->ref = query_col_text(s, i, oom);
	r->commit = query_col_text(s, i + 1, oom);
	r->time = query_col_time(s, i + 2, oom);
}

static void ref_release(struct query_ref *r)
{
	free(r->ref);
	free(r->commit);
	free(r->time);
}

static void labels_release(struct query_label *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

/*
 * v (n elements used, *cap allocated, size bytes each) with room for one
 * more, the new ones zeroed; NULL when out of memory (v is kept).
 */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
	size_t nc;
	char *g;

	if (n < *cap)
		return v;
	nc = *cap ? *cap * 2 : 8;
	if (!(g = realloc(v, nc * size)))
		return NULL;
	memset(g + n * size, 0, (nc - n) * size);
	*cap = nc;
	return g;
}

/* A bundle's labels, by key, in *out and *n. */
static int labels_of(struct store *st, int64_t rid, struct query_label **out, size_t *n,
		     struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT key, value FROM labels WHERE bundle = ?1 "
					"ORDER BY key", err);
	size_t cap = 0;
	int rc, oom = 0;

	*out = NULL;
	*n = 0;
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_int64(s, 1, rid);
	while ((rc = db_step(s)) == DB_ROW) {
		if (!db_column_text(s, 0))
			continue;
		struct query_label *g = grow(*out, *n, &cap, sizeof(**out));

		if (!g) {
			oom = 1;
			break;
		}
		*out = g;
		(*out)[*n].key = query_col_text(s, 0, &oom);
		(*out)[*n].value = query_col_text(s, 1, &oom);
		(*n)++;
		if (oom)
			break;
	}
	db_finalize(s);
	if (oom || rc != DB_DONE) {
		labels_release(*out, *n);
		*out = NULL;
		*n = 0;
		return oom ? plumb_err_oom(err, "labels") : store_db_err(st, rc, "read labels", err);
	}
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

void query_summaries_release(struct query_summaries *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct query_summary *b = &l->v[i];

		free(b->id);
		free(b->created);
		free(b->repo);
		ref_release(&b->base);
		ref_release(&b->candidate);
		free(b->signature);
		free(b->host);
		free(b->project);
		labels_release(b->labels, b->nlabels);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int query_list(struct store *st, const struct query_filter *f, struct query_summaries *out,
	       struct plumb_err *err)
{
	char clo[64], chi[66];
	int64_t host = 0, since = 0;
	struct db_stmt *s = NULL;
	struct buf sql;
	size_t cap = 0;
	int rc, r = 0, bad = 0, p;

	memset(out, 0, sizeof(*out));
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

	while ((rc = db_step(s)) == DB_ROW) {
		struct query_summary *g = grow(out->v, out->n, &cap, sizeof(*out->v)), *o;
		int oom = 0;

		if (!g) {
			r = plumb_err_oom(err, "list");
			goto done;
		}
		out->v = g;
		o = &out->v[out->n++];
		if ((r = labels_of(st, db_column_int64(s, 0), &o->labels, &o->nlabels, err)) < 0)
			goto done;
		o->id = query_col_text(s, 1, &oom);
		o->created = query_col_time(s, 2, &oom);
		o->repo = query_col_text(s, 3, &oom);
		ref_of(s, 4, &o->base, &oom);
		ref_of(s, 7, &o->candidate, &oom);
		o->signature = query_col_text(s, 10, &oom);
		o->host = query_col_text(s, 11, &oom);
		o->benches = db_column_int64(s, 12);
		o->size = db_column_int64(s, 13);
		o->project = query_col_text(s, 14, &oom);
		if (oom) {
			r = plumb_err_oom(err, "list");
			goto done;
		}
	}
	if (rc != DB_DONE)
		r = store_db_err(st, rc, "list bundles", err);
done:
	db_finalize(s);
	buf_release(&sql);
	if (r < 0)
		query_summaries_release(out);
	return r;
}

/* center, min, max, spread and pads of one side from five columns. */
static void side_of(struct db_stmt *s, int i, struct query_side *d, int *oom)
{
	d->center = col_double(s, i);
	d->min = col_double(s, i + 1);
	d->max = col_double(s, i + 2);
	d->spread = col_double(s, i + 3);
	d->pads = query_col_text(s, i + 4, oom);
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

/* A bundle's benchmarks, by name, into d. */
static int benches_of(struct store *st, int64_t rid, struct query_detail *d,
		      struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT name, mode, metric, base_center, base_min, base_max, base_spread, base_pads,"
		" cand_center, cand_min, cand_max, cand_spread, cand_pads, ratio, verdict, noise"
		" FROM benches WHERE bundle = ?1 ORDER BY name", err);
	size_t cap = 0;
	int rc, oom = 0;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_int64(s, 1, rid);
	while ((rc = db_step(s)) == DB_ROW) {
		struct query_bench *g = grow(d->benches, d->nbenches, &cap, sizeof(*g)), *b;

		if (!g) {
			oom = 1;
			break;
		}
		d->benches = g;
		b = &d->benches[d->nbenches++];
		b->name = query_col_text(s, 0, &oom);
		b->mode = query_col_text(s, 1, &oom);
		b->metric = query_col_text(s, 2, &oom);
		side_of(s, 3, &b->base, &oom);
		side_of(s, 8, &b->candidate, &oom);
		b->ratio = col_double(s, 13);
		b->verdict = query_col_text(s, 14, &oom);
		b->noise = col_double(s, 15);
		if (oom)
			break;
	}
	db_finalize(s);
	if (oom)
		return plumb_err_oom(err, "read benchmarks");
	return rc == DB_DONE ? 0 : store_db_err(st, rc, "read benchmarks", err);
}

/* The baselines naming a bundle, by name, into d. */
static int baselines_of(struct store *st, int64_t rid, struct query_detail *d,
			struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT name, side FROM baselines WHERE bundle = ?1 "
					"ORDER BY name", err);
	size_t cap = 0;
	int rc, oom = 0;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_int64(s, 1, rid);
	while ((rc = db_step(s)) == DB_ROW) {
		struct query_named *g = grow(d->baselines, d->nbaselines, &cap, sizeof(*g));

		if (!g) {
			oom = 1;
			break;
		}
		d->baselines = g;
		g[d->nbaselines].name = query_col_text(s, 0, &oom);
		g[d->nbaselines++].side = query_col_text(s, 1, &oom);
		if (oom)
			break;
	}
	db_finalize(s);
	if (oom)
		return plumb_err_oom(err, "read baselines");
	return rc == DB_DONE ? 0 : store_db_err(st, rc, "read baselines", err);
}

void query_detail_release(struct query_detail *d)
{
	free(d->id);
	free(d->path);
	free(d->file_sha256);
	free(d->created);
	free(d->added);
	free(d->plumb_version);
	free(d->format_version);
	free(d->repo);
	ref_release(&d->base);
	ref_release(&d->candidate);
	free(d->signature);
	free(d->signature_key);
	free(d->signature_comment);
	free(d->host);
	free(d->host_facts);
	labels_release(d->labels, d->nlabels);
	for (size_t i = 0; i < d->nbaselines; i++) {
		free(d->baselines[i].name);
		free(d->baselines[i].side);
	}
	free(d->baselines);
	for (size_t i = 0; i < d->nbenches; i++) {
		struct query_bench *b = &d->benches[i];

		free(b->name);
		free(b->mode);
		free(b->metric);
		free(b->base.pads);
		free(b->candidate.pads);
		free(b->verdict);
	}
	free(d->benches);
	memset(d, 0, sizeof(*d));
}

int query_bundle(struct store *st, int64_t rid, struct query_detail *d,
		 struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st,
		"SELECT u.id, u.file_sha256, u.size, u.created, u.added, u.plumb_version,"
		" u.format_version, u.repo, u.base_ref, u.base_commit, u.base_time,"
		" u.cand_ref, u.cand_commit, u.cand_time, u.signature, h.fingerprint, h.facts,"
		" u.sig_key, u.sig_comment,"
		" (SELECT count(*) FROM replacements r WHERE r.bundle = u.rid)"
		" FROM bundles u LEFT JOIN hosts h ON h.id = u.host WHERE u.rid = ?1", err);
	int rc, r = 0, oom = 0;

	memset(d, 0, sizeof(*d));
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
	if ((r = benches_of(st, rid, d, err)) < 0 ||
	    (r = labels_of(st, rid, &d->labels, &d->nlabels, err)) < 0 ||
	    (r = baselines_of(st, rid, d, err)) < 0)
		goto done;
	d->id = query_col_text(s, 0, &oom);
	d->path = store_bundle_path(st, db_column_text(s, 0));
	d->file_sha256 = query_col_text(s, 1, &oom);
	d->size = db_column_int64(s, 2);
	d->created = query_col_time(s, 3, &oom);
	d->added = query_col_time(s, 4, &oom);
	d->plumb_version = query_col_text(s, 5, &oom);
	d->format_version = query_col_text(s, 6, &oom);
	d->repo = query_col_text(s, 7, &oom);
	ref_of(s, 8, &d->base, &oom);
	ref_of(s, 11, &d->candidate, &oom);
	d->signature = query_col_text(s, 14, &oom);
	d->host = query_col_text(s, 15, &oom);
	d->host_facts = query_col_text(s, 16, &oom);
	d->signature_key = query_col_text(s, 17, &oom);
	d->signature_comment = query_col_text(s, 18, &oom);
	d->replaced = db_column_int64(s, 19);
	if (oom || !d->path)
		r = plumb_err_oom(err, "bundle");
done:
	db_finalize(s);
	if (r < 0)
		query_detail_release(d);
	return r;
}

int query_show(struct store *st, const char *prefix, struct query_detail *out,
	       struct plumb_err *err)
{
	char id[STORE_ID_LEN + 1];
	int64_t rid;
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = store_resolve(st, prefix, id, &rid, err)) < 0)
		return r;
	return query_bundle(st, rid, out, err);
}

/*
 * The first column of the first row of sql, as an integer in *iv or a
 * copied string in *sv; *found says whether there was a row.  Its
 * parameters are ?1 = a, ?2 = b, ?3 = c (NULL when c is NULL) and, when
 * sql names it, ?4 = the project (d, NULL matching rows without one:
 * `project IS ?4`).
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

/*
 * The numbers of a JSON array of numbers and nulls ("[1.5, null, 2]", a
 * null as NAN), at most max, in out; *nulls set when one was null.  0 when
 * t is not such an array.
 */
static size_t pads_of(const char *t, double *out, size_t max, int *nulls)
{
	size_t k = 0;
	char *end;

	*nulls = 0;
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
		if (strncmp(t, "null", 4) == 0) {
			out[k++] = NAN;
			*nulls = 1;
			t += 4;
		} else {
			out[k] = strtod(t, &end);
			if (end == t || !isfinite(out[k]))
				return 0;
			k++;
			t = end;
		}
		while (*t == ' ')
			t++;
		if (*t == ',')
			t++;
		else if (*t != ']')
			return 0;
	}
}

/*
 * The pad medians of column i (JSON text as stored) in a new array *v of
 * *n; *v NULL when the column is NULL or not such an array.  -1: no memory.
 */
static int pads_col(struct db_stmt *s, int i, double **v, size_t *n)
{
	const char *t = db_column_text(s, i);
	size_t max = 1;
	int nulls;

	*v = NULL;
	*n = 0;
	if (!t || *t != '[')
		return 0;
	for (const char *c = t; *c; c++)
		max += *c == ',';
	if (!(*v = malloc(max * sizeof(**v))))
		return -1;
	*n = pads_of(t, *v, max, &nulls);
	if (*n == 0 && t[1 + strspn(t + 1, " ")] != ']') {
		free(*v);    /* not an array of numbers: none recorded */
		*v = NULL;
	}
	return 0;
}

static void trend_point_release(struct query_trend_point *p)
{
	free(p->bundle);
	free(p->ref);
	free(p->commit);
	free(p->time);
	free(p->verdict);
	free(p->pads);
	free(p->base_commit);
	free(p->base_pads);
	free(p->created);
}

void query_trend_release(struct query_trend_result *t)
{
	for (size_t i = 0; i < t->n; i++)
		trend_point_release(&t->points[i]);
	free(t->points);
	free(t->bench);
	free(t->project);
	free(t->metric);
	free(t->host);
	memset(t, 0, sizeof(*t));
}

/* Row s of the trend's statement in p (zeroed first); -1 when memory ran out. */
static int trend_point_of(struct db_stmt *s, struct query_trend_point *p)
{
	int oom = 0;

	memset(p, 0, sizeof(*p));
	p->bundle = query_col_text(s, 0, &oom);
	p->ref = query_col_text(s, 1, &oom);
	p->commit = query_col_text(s, 2, &oom);
	p->time = query_col_time(s, 3, &oom);
	p->center = col_double(s, 4);
	p->min = col_double(s, 5);
	p->max = col_double(s, 6);
	p->spread = col_double(s, 7);
	p->ratio = col_double(s, 8);
	p->verdict = query_col_text(s, 9, &oom);
	p->base_center = col_double(s, 10);
	p->noise = col_double(s, 11);
	oom |= pads_col(s, 12, &p->pads, &p->npads) < 0;
	p->base_commit = query_col_text(s, 13, &oom);
	oom |= pads_col(s, 14, &p->base_pads, &p->nbase_pads) < 0;
	p->created = query_col_time(s, 15, &oom);
	return oom ? -1 : 0;
}

int query_trend(struct store *st, const struct query_trend *q, struct query_trend_result *out,
		struct plumb_err *err)
{
	char fp[256] = "";
	char *metric = NULL, *project = NULL;
	int64_t host = 0;
	struct db_stmt *s = NULL;
	size_t cap = 0;
	int found, rc, r = 0;

	memset(out, 0, sizeof(*out));
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
		if (rc != DB_ROW && rc != DB_DONE) {
			free(project);
			return store_db_err(st, rc, "read host", err);
		}
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
	while ((rc = db_step(s)) == DB_ROW) {
		if (out->n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct query_trend_point *g = realloc(out->points, nc * sizeof(*g));
			if (!g) {
				r = plumb_err_oom(err, "trend");
				goto done;
			}
			out->points = g;
			cap = nc;
		}
		if (trend_point_of(s, &out->points[out->n++]) < 0) {
			r = plumb_err_oom(err, "trend");
			goto done;
		}
	}
	if (rc != DB_DONE) {
		r = store_db_err(st, rc, "trend", err);
		goto done;
	}
	for (size_t i = 0; i < out->n / 2; i++) {
		struct query_trend_point t = out->points[i];
		out->points[i] = out->points[out->n - 1 - i];
		out->points[out->n - 1 - i] = t;
	}
	out->bench = strdup(q->bench);
	out->host = strdup(fp);
	if (!out->bench || !out->host) {
		r = plumb_err_oom(err, "trend");
		goto done;
	}
	if (*project) {
		out->project = project;
		project = NULL;
	}
	out->metric = metric;
	metric = NULL;
done:
	db_finalize(s);
	free(metric);
	free(project);
	if (r < 0)
		query_trend_release(out);
	return r;
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
		int oom = 0, nulls;

		if (!name)
			continue;
		if (sr.bench && (!same_str(sr.bench, name) || !same_str(sr.metric, metric) ||
				 !same_str(sr.project, db_column_text(s, 13)))) {
			if ((r = flush_series(&sr, each, arg)) < 0)
				goto done;
		}
		if (!sr.bench) {
			sr.bench = query_col_text(s, 0, &oom);
			sr.metric = query_col_text(s, 1, &oom);
			sr.project = query_col_text(s, 13, &oom);
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
		q->commit = query_col_text(s, 3, &oom);
		q->bundle = query_col_text(s, 4, &oom);
		q->center = db_column_type(s, 5) == DB_NULL ? NAN : db_column_double(s, 5);
		q->min = db_column_type(s, 6) == DB_NULL ? NAN : db_column_double(s, 6);
		q->max = db_column_type(s, 7) == DB_NULL ? NAN : db_column_double(s, 7);
		q->base_commit = query_col_text(s, 9, &oom);
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
		q->npads = pads_of(db_column_text(s, 8), sr.pads + sr.npads, QUERY_PADS_MAX, &nulls);
		if (nulls)
			q->npads = 0;
		sr.npads += q->npads;
		q->base_pad0 = sr.npads;
		q->base_npads = pads_of(db_column_text(s, 11), sr.pads + sr.npads, QUERY_PADS_MAX,
				       &nulls);
		if (nulls)
			q->base_npads = 0;
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
