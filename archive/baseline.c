/*
 * archive/baseline.c: named baselines, one row each in `baselines`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "archive/baseline.h"
#include "archive/bundles.h"
#include "archive/query.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/path.h"
#include "formats/manifest.h"
#include "common/banned.h"

#define BASELINE_NAME_MAX 128

/* Names are printed in lists and typed in cron lines: printable, no blanks. */
static int check_name(const char *name, struct plumb_err *err)
{
	size_t n = strlen(name);

	if (n == 0 || n > BASELINE_NAME_MAX || name[0] == '-')
		return plumb_err_set(err, PLUMB_EARG,
				     "baseline name '%s': 1 to %d characters, not starting with '-'",
				     name, BASELINE_NAME_MAX);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c <= ' ' || c == 0x7f)
			return plumb_err_set(err, PLUMB_EARG,
					     "baseline name '%s': no spaces or control characters",
					     name);
	}
	return 0;
}

#define BASELINE_SELECT \
	"SELECT b.name, u.id, b.side, b.set_at, b.note, u.created," \
	" CASE b.side WHEN 'base' THEN u.base_commit ELSE u.cand_commit END, u.rid" \
	" FROM baselines b JOIN bundles u ON u.rid = b.bundle"

/*
 * baselines.tsv beside archive.db: every baseline as a line "name TAB
 * bundle id TAB side TAB note" (backslash, tab and newline in a note
 * escaped as \\, \t, \n), rewritten atomically inside each transaction
 * that changes them.  The bundle files hold everything else the index
 * knows, so `plumb archive reindex` rebuilds a lost or damaged archive.db
 * from the files and this one.
 */
static void put_escaped(struct buf *b, const char *s, int *bad)
{
	for (; s && *s; s++) {
		const char *e = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : NULL;
		if (e)
			*bad |= buf_add(b, e, 2) < 0;
		else
			*bad |= buf_add(b, s, 1) < 0;
	}
}

static int write_side_file(struct store *st, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, BASELINE_SELECT " ORDER BY b.name", err);
	struct atomic_file af;
	struct buf b;
	char *path;
	int rc, r = 0, bad = 0;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	buf_init(&b, (size_t)64 << 20);
	bad |= buf_add(&b, BASELINES_SIDE_HEADER "\n", strlen(BASELINES_SIDE_HEADER) + 1) < 0;
	while ((rc = db_step(s)) == DB_ROW) {
		put_escaped(&b, db_column_text(s, 0), &bad);
		bad |= buf_add(&b, "\t", 1) < 0;
		put_escaped(&b, db_column_text(s, 1), &bad);
		bad |= buf_add(&b, "\t", 1) < 0;
		put_escaped(&b, db_column_text(s, 2), &bad);
		bad |= buf_add(&b, "\t", 1) < 0;
		put_escaped(&b, db_column_text(s, 4), &bad);
		bad |= buf_add(&b, "\n", 1) < 0;
	}
	db_finalize(s);
	if (rc != DB_DONE) {
		buf_release(&b);
		return store_db_err(st, rc, "read baselines", err);
	}
	path = path_join(st->dir, BASELINES_SIDE_FILE);
	if (bad || !path) {
		free(path);
		buf_release(&b);
		return plumb_err_oom(err, BASELINES_SIDE_FILE);
	}
	if ((r = atomic_file_open(&af, path, 0644, err)) == 0) {
		if ((r = atomic_file_write(&af, b.data, b.len, err)) < 0)
			atomic_file_abort(&af);
		else
			r = atomic_file_commit(&af, err);
	}
	free(path);
	buf_release(&b);
	return r;
}

int baseline_set(struct store *st, const char *name, const char *bundle,
		 const char *side, const char *note, struct baseline_change *out,
		 struct plumb_err *err)
{
	char id[STORE_ID_LEN + 1], prev[STORE_ID_LEN + 1] = "";
	struct store_added added;
	struct stat sb;
	struct db_stmt *s;
	int64_t rid;
	int rc, r;

	if (!side)
		side = "candidate";
	if (strcmp(side, "candidate") != 0 && strcmp(side, "base") != 0)
		return plumb_err_set(err, PLUMB_EARG, "--side: '%s' is not candidate or base", side);
	if ((r = check_name(name, err)) < 0)
		return r;
	/* A bundle file is archived first; anything else is an archived id. */
	if (stat(bundle, &sb) == 0 && S_ISREG(sb.st_mode)) {
		if ((r = store_add(st, bundle, &added, err)) < 0)
			return r;
		bundle = added.id;
	}
	if ((r = store_begin(st, err)) < 0)
		return r;
	if ((r = store_resolve(st, bundle, id, &rid, err)) < 0)
		goto fail;
	s = store_prepare(st, "SELECT u.id FROM baselines b JOIN bundles u ON u.rid = b.bundle"
			  " WHERE b.name = ?1", err);
	if (!s) {
		r = err ? err->code : PLUMB_EINTERNAL;
		goto fail;
	}
	db_bind_text(s, 1, name);
	rc = db_step(s);
	if (rc == DB_ROW)
		snprintf(prev, sizeof(prev), "%s", db_column_text(s, 0));
	db_finalize(s);
	if (rc != DB_ROW && rc != DB_DONE) {
		r = store_db_err(st, rc, "read baseline", err);
		goto fail;
	}
	s = store_prepare(st, "INSERT INTO baselines (name, bundle, side, set_at, note)"
			  " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO UPDATE SET"
			  " bundle = excluded.bundle, side = excluded.side,"
			  " set_at = excluded.set_at, note = excluded.note", err);
	if (!s) {
		r = err ? err->code : PLUMB_EINTERNAL;
		goto fail;
	}
	db_bind_text(s, 1, name);
	db_bind_int64(s, 2, rid);
	db_bind_text(s, 3, side);
	db_bind_int64(s, 4, (int64_t)time(NULL));
	if (note)
		db_bind_text(s, 5, note);
	rc = db_step(s);
	db_finalize(s);
	if (rc != DB_DONE) {
		r = store_db_err(st, rc, "set baseline", err);
		goto fail;
	}
	if ((r = write_side_file(st, err)) < 0)
		goto fail;
	if ((r = store_commit(st, err)) < 0)
		return r;
	if (out) {
		snprintf(out->bundle, sizeof(out->bundle), "%s", id);
		snprintf(out->side, sizeof(out->side), "%s", side);
		snprintf(out->previous, sizeof(out->previous), "%s", prev);
	}
	return 0;
fail:
	store_rollback(st);
	return r;
}

/* One BASELINE_SELECT row into e; -1 when memory ran out (what was copied stays in e). */
static int entry_of(struct db_stmt *s, struct baseline_entry *e)
{
	int oom = 0;

	e->name = query_col_text(s, 0, &oom);
	e->bundle = query_col_text(s, 1, &oom);
	e->side = query_col_text(s, 2, &oom);
	e->set_at = query_col_time(s, 3, &oom);
	e->note = query_col_text(s, 4, &oom);
	e->created = query_col_time(s, 5, &oom);
	e->commit = query_col_text(s, 6, &oom);
	return oom ? -1 : 0;
}

static void entry_release(struct baseline_entry *e)
{
	free(e->name);
	free(e->bundle);
	free(e->side);
	free(e->set_at);
	free(e->note);
	free(e->created);
	free(e->commit);
	memset(e, 0, sizeof(*e));
}

void baseline_entries_release(struct baseline_entries *l)
{
	for (size_t i = 0; i < l->n; i++)
		entry_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

int baseline_list(struct store *st, struct baseline_entries *out, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, BASELINE_SELECT " ORDER BY b.name", err);
	size_t cap = 0;
	int rc, oom = 0;

	memset(out, 0, sizeof(*out));
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	while ((rc = db_step(s)) == DB_ROW) {
		if (out->n == cap) {
			size_t nc = cap ? cap * 2 : 8;
			struct baseline_entry *g = realloc(out->v, nc * sizeof(*g));

			if (!g) {
				oom = 1;
				break;
			}
			out->v = g;
			cap = nc;
		}
		memset(&out->v[out->n], 0, sizeof(out->v[out->n]));
		if (entry_of(s, &out->v[out->n++]) < 0) {
			oom = 1;
			break;
		}
	}
	db_finalize(s);
	if (oom || rc != DB_DONE) {
		baseline_entries_release(out);
		return oom ? plumb_err_oom(err, "list baselines")
			   : store_db_err(st, rc, "list baselines", err);
	}
	return 0;
}

/*
 * The BASELINE_SELECT row of the baseline called name, stepped onto it
 * (the caller finalizes it), or NULL with err set: unknown name
 * (PLUMB_EINPUT), or the database failed.
 */
static struct db_stmt *baseline_row(struct store *st, const char *name, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, BASELINE_SELECT " WHERE b.name = ?1", err);
	int rc;

	if (!s)
		return NULL;
	db_bind_text(s, 1, name);
	rc = db_step(s);
	if (rc == DB_ROW)
		return s;
	if (rc == DB_DONE) {
		if (store_check_miss(st, err) == 0)
			plumb_err_set(err, PLUMB_EINPUT, "no baseline '%s' in the archive", name);
	} else
		store_db_err(st, rc, "read baseline", err);
	db_finalize(s);
	return NULL;
}

void baseline_detail_release(struct baseline_detail *d)
{
	entry_release(&d->entry);
	query_detail_release(&d->bundle);
}

int baseline_show(struct store *st, const char *name, struct baseline_detail *out,
		  struct plumb_err *err)
{
	struct db_stmt *s;
	int64_t rid;
	int r;

	memset(out, 0, sizeof(*out));
	if (!(s = baseline_row(st, name, err)))
		return err ? err->code : PLUMB_EINTERNAL;
	r = entry_of(s, &out->entry);
	rid = db_column_int64(s, 7);
	db_finalize(s);
	if (r < 0) {
		entry_release(&out->entry);
		return plumb_err_oom(err, "baseline");
	}
	if ((r = query_bundle(st, rid, &out->bundle, err)) < 0)
		entry_release(&out->entry);
	return r;
}

int baseline_rm(struct store *st, const char *name, struct plumb_err *err)
{
	struct db_stmt *s;
	int rc, r;

	if ((r = store_begin(st, err)) < 0)
		return r;
	s = store_prepare(st, "DELETE FROM baselines WHERE name = ?1", err);
	if (!s) {
		store_rollback(st);
		return err ? err->code : PLUMB_EINTERNAL;
	}
	db_bind_text(s, 1, name);
	rc = db_step(s);
	db_finalize(s);
	if (rc != DB_DONE) {
		r = store_db_err(st, rc, "remove baseline", err);
		store_rollback(st);
		return r;
	}
	if (db_changes(st->db) == 0) {
		store_rollback(st);
		return plumb_err_set(err, PLUMB_EINPUT, "no baseline '%s' in the archive", name);
	}
	if ((r = write_side_file(st, err)) < 0) {
		store_rollback(st);
		return r;
	}
	return store_commit(st, err);
}

int baseline_get(struct store *st, const char *name, char *id, char *side,
		 struct plumb_err *err)
{
	struct db_stmt *s = baseline_row(st, name, err);

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	snprintf(id, STORE_ID_LEN + 1, "%s", db_column_text(s, 1));
	snprintf(side, 10, "%s", db_column_text(s, 2));
	db_finalize(s);
	return 0;
}
