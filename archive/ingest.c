/*
 * archive/ingest.c: the one insert path from a struct ingest_record to
 * rows of hosts, bundles, benches and labels (see ingest.h).  Reading a
 * bundle file into the record is ingest-bundle.c's job, so this file
 * knows SQL and nothing about bundle members.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "archive/ingest.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "common/banned.h"

static void side_init(struct ingest_side *s)
{
	s->center = s->min = s->max = s->spread = NAN;
	s->pads = NULL;
	s->npads = 0;
}

void ingest_record_init(struct ingest_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->signature = "none";
}

static void ref_release(struct ingest_ref *r)
{
	free(r->ref);
	free(r->commit);
}

void ingest_record_release(struct ingest_record *rec)
{
	free(rec->sig_comment);
	free(rec->plumb_version);
	free(rec->format_version);
	free(rec->repo);
	free(rec->project);
	ref_release(&rec->base);
	ref_release(&rec->cand);
	free(rec->host_fingerprint);
	free(rec->host_facts);
	for (size_t i = 0; i < rec->nbenches; i++) {
		struct ingest_bench *b = &rec->benches[i];
		free(b->name);
		free(b->mode);
		free(b->metric);
		free(b->verdict);
		free(b->base.pads);
		free(b->cand.pads);
	}
	free(rec->benches);
	for (size_t i = 0; i < rec->nlabels; i++) {
		free(rec->labels[i].key);
		free(rec->labels[i].value);
	}
	free(rec->labels);
	ingest_record_init(rec);
}

struct ingest_bench *ingest_add_bench(struct ingest_record *rec)
{
	struct ingest_bench *nb = realloc(rec->benches, (rec->nbenches + 1) * sizeof(*nb));
	struct ingest_bench *b;

	if (!nb)
		return NULL;
	rec->benches = nb;
	b = &nb[rec->nbenches++];
	memset(b, 0, sizeof(*b));
	side_init(&b->base);
	side_init(&b->cand);
	b->ratio = NAN;
	b->noise = NAN;
	return b;
}

int ingest_add_label(struct ingest_record *rec, const char *key, const char *value)
{
	struct ingest_label *nl = realloc(rec->labels, (rec->nlabels + 1) * sizeof(*nl));
	char *k, *v;

	if (!nl)
		return -1;
	rec->labels = nl;
	k = strdup(key);
	v = strdup(value);
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	nl[rec->nlabels].key = k;
	nl[rec->nlabels].value = v;
	rec->nlabels++;
	return 0;
}

/* Bind a string or NULL. */
static void bind_text(struct db_stmt *s, int i, const char *v)
{
	if (v)
		db_bind_text(s, i, v);
	else
		db_bind_null(s, i);
}

/* Bind a number, NULL for NAN (and for infinities, which JSON cannot carry). */
static void bind_real(struct db_stmt *s, int i, double v)
{
	if (isfinite(v))
		db_bind_double(s, i, v);
	else
		db_bind_null(s, i);
}

/* The pad medians as a JSON array ("[1.5,2]"), or NULL when there are none. */
static int pads_json(const struct ingest_side *s, struct buf *out)
{
	buf_reset(out);
	if (s->npads == 0)
		return 0;
	if (buf_addch(out, '[') < 0)
		return -1;
	for (size_t i = 0; i < s->npads; i++) {
		if (!isfinite(s->pads[i])) {
			if (buf_printf(out, "%snull", i ? "," : "") < 0)
				return -1;
		} else {
			char v[UNITS_EXACT_MAX];

			units_exact(s->pads[i], UNITS_EXACT_PLAIN, v);
			if (buf_printf(out, "%s%s", i ? "," : "", v) < 0)
				return -1;
		}
	}
	return buf_addch(out, ']');
}

/* The error of a step that returned rc, or 0 for DB_DONE. */
static int step_error(struct store *st, int rc, const char *what, struct plumb_err *err)
{
	if (rc == DB_DONE)
		return 0;
	if ((rc & 0xff) == DB_CONSTRAINT)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %s: %s", st->db_path, what,
				     db_errmsg(st->db));
	return store_db_err(st, rc, what, err);
}

/* Step a statement that returns no row. */
static int step_done(struct store *st, struct db_stmt *s, const char *what,
		     struct plumb_err *err)
{
	return step_error(st, db_step(s), what, err);
}

/* The hosts row of a fingerprint, created on first sight. */
static int host_id(struct store *st, const struct ingest_record *rec,
		   int64_t *id, struct plumb_err *err)
{
	struct db_stmt *s;
	int rc, r;

	s = store_prepare(st, "INSERT INTO hosts (fingerprint, facts) VALUES (?1, ?2) "
			  "ON CONFLICT (fingerprint) DO NOTHING", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	bind_text(s, 1, rec->host_fingerprint);
	bind_text(s, 2, rec->host_facts ? rec->host_facts : "{}");
	r = step_done(st, s, "insert host", err);
	db_finalize(s);
	if (r < 0)
		return r;
	s = store_prepare(st, "SELECT id FROM hosts WHERE fingerprint = ?1", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	bind_text(s, 1, rec->host_fingerprint);
	rc = db_step(s);
	if (rc == DB_ROW)
		*id = db_column_int64(s, 0);
	else
		r = store_db_err(st, rc == DB_DONE ? DB_INTERNAL : rc, "look up host", err);
	db_finalize(s);
	return r;
}

static int insert_bench(struct store *st, struct db_stmt *s, int64_t rid,
			const struct ingest_bench *b, int64_t host, int64_t at, const char *project,
			struct buf *tmp, struct plumb_err *err)
{
	int r;

	db_reset(s);
	db_clear_bindings(s);
	db_bind_int64(s, 1, rid);
	bind_text(s, 2, b->name);
	bind_text(s, 3, b->mode);
	bind_text(s, 4, b->metric);
	bind_real(s, 5, b->base.center);
	bind_real(s, 6, b->base.min);
	bind_real(s, 7, b->base.max);
	bind_real(s, 8, b->base.spread);
	if (pads_json(&b->base, tmp) < 0)
		return buf_err(err, "pad medians");
	bind_text(s, 9, tmp->len ? buf_cstr(tmp) : NULL);
	bind_real(s, 10, b->cand.center);
	bind_real(s, 11, b->cand.min);
	bind_real(s, 12, b->cand.max);
	bind_real(s, 13, b->cand.spread);
	if (pads_json(&b->cand, tmp) < 0)
		return buf_err(err, "pad medians");
	bind_text(s, 14, tmp->len ? buf_cstr(tmp) : NULL);
	bind_real(s, 15, b->ratio);
	bind_text(s, 16, b->verdict);
	bind_real(s, 17, b->noise);
	if (host)
		db_bind_int64(s, 18, host);
	else
		db_bind_null(s, 18);
	db_bind_int64(s, 19, at);
	bind_text(s, 20, project);
	r = step_done(st, s, "insert benchmark", err);
	if (r < 0)
		plumb_err_prefix(err, "benchmark '%s'", b->name ? b->name : "");
	return r;
}

int ingest_insert(struct store *st, const struct ingest_record *rec,
		  int64_t *rid_out, struct plumb_err *err)
{
	struct db_stmt *s = NULL;
	struct buf tmp;
	int64_t host = 0, rid;
	int r = 0;

	if (!st->in_txn)
		return plumb_err_set(err, PLUMB_EINTERNAL, "ingest_insert outside a transaction");
	if (!store_is_id(rec->id) || !store_is_id(rec->file_sha256))
		return plumb_err_set(err, PLUMB_EINTERNAL, "ingest_insert: malformed id '%s'", rec->id);
	if (rec->host_fingerprint && (r = host_id(st, rec, &host, err)) < 0)
		return r;

	s = store_prepare(st,
		"INSERT INTO bundles (id, file_sha256, size, created, added, plumb_version,"
		" format_version, repo, base_ref, base_commit, base_time, cand_ref,"
		" cand_commit, cand_time, signature, host, sig_key, sig_comment, project)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
		" ?17, ?18, ?19) RETURNING rid",
		err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	bind_text(s, 1, rec->id);
	bind_text(s, 2, rec->file_sha256);
	db_bind_int64(s, 3, rec->size);
	db_bind_int64(s, 4, rec->created);
	db_bind_int64(s, 5, (int64_t)time(NULL));
	bind_text(s, 6, rec->plumb_version);
	bind_text(s, 7, rec->format_version ? rec->format_version : "1");
	bind_text(s, 8, rec->repo);
	bind_text(s, 9, rec->base.ref);
	bind_text(s, 10, rec->base.commit);
	if (rec->base.has_time)
		db_bind_int64(s, 11, rec->base.time);
	bind_text(s, 12, rec->cand.ref);
	bind_text(s, 13, rec->cand.commit);
	if (rec->cand.has_time)
		db_bind_int64(s, 14, rec->cand.time);
	bind_text(s, 15, rec->signature ? rec->signature : "none");
	if (rec->sig_key[0]) {
		bind_text(s, 17, rec->sig_key);
		bind_text(s, 18, rec->sig_comment);
	}
	if (host)
		db_bind_int64(s, 16, host);
	bind_text(s, 19, rec->project);
	rid = 0;
	if ((r = db_step(s)) == DB_ROW) {
		rid = db_column_int64(s, 0);
		r = 0;
	} else {
		r = step_error(st, r, "insert bundle", err);
		if (r == 0)
			r = plumb_err_set(err, PLUMB_EINTERNAL, "%s: insert bundle: no row number",
					  st->db_path);
	}
	db_finalize(s);
	if (r < 0)
		return plumb_err_prefix(err, "bundle %s", rec->id);

	s = store_prepare(st,
		"INSERT INTO benches (bundle, name, mode, metric,"
		" base_center, base_min, base_max, base_spread, base_pads,"
		" cand_center, cand_min, cand_max, cand_spread, cand_pads,"
		" ratio, verdict, noise, host, at, project)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
		" ?15, ?16, ?17, ?18, ?19, ?20)", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	buf_init(&tmp, 1 << 20);
	for (size_t i = 0; i < rec->nbenches && r == 0; i++)
		r = insert_bench(st, s, rid, &rec->benches[i], host,
				 rec->cand.has_time ? rec->cand.time : rec->created, rec->project,
				 &tmp, err);
	buf_release(&tmp);
	db_finalize(s);
	if (r < 0)
		return plumb_err_prefix(err, "bundle %s", rec->id);

	s = store_prepare(st, "INSERT INTO labels (bundle, key, value) VALUES (?1, ?2, ?3)", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	for (size_t i = 0; i < rec->nlabels && r == 0; i++) {
		db_reset(s);
		db_bind_int64(s, 1, rid);
		bind_text(s, 2, rec->labels[i].key);
		bind_text(s, 3, rec->labels[i].value);
		r = step_done(st, s, "insert label", err);
	}
	db_finalize(s);
	if (r < 0)
		return plumb_err_prefix(err, "bundle %s", rec->id);
	if (rid_out)
		*rid_out = rid;
	return 0;
}
