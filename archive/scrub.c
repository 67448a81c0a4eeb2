/*
 * archive/scrub.c: `archive verify` and `archive gc` (scrub.h).
 *
 * Both first take a consistent picture of rows and files while holding
 * the write lock (an add in progress has either not published its file or
 * already committed its rows by the time the lock is granted), then do
 * the slow part, hashing and verifying, without it, so adds are not held
 * up by a scrub.  Anything that changes files re-takes the lock and
 * re-checks the row before acting.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/bundles.h"
#include "archive/ingest.h"
#include "archive/remote.h"
#include "archive/scrub.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/banned.h"

void scrub_report_init(struct scrub_report *rep)
{
	memset(rep, 0, sizeof(*rep));
}

void scrub_report_release(struct scrub_report *rep)
{
	for (size_t i = 0; i < rep->nlines; i++)
		free(rep->lines[i]);
	free(rep->lines);
	scrub_report_init(rep);
}

/* Add a line; problem != 0 counts it as a problem.  -1 when out of memory. */
static int say(struct scrub_report *rep, int problem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int say(struct scrub_report *rep, int problem, const char *fmt, ...)
{
	struct buf b;
	va_list ap;
	char **nl;
	int r;

	buf_init(&b, 8192);
	va_start(ap, fmt);
	r = buf_vprintf(&b, fmt, ap);
	va_end(ap);
	nl = r < 0 ? NULL : realloc(rep->lines, (rep->nlines + 1) * sizeof(*nl));
	if (!nl) {
		buf_release(&b);
		return -1;
	}
	rep->lines = nl;
	rep->lines[rep->nlines++] = buf_detach(&b, NULL);
	if (problem)
		rep->nproblems++;
	return 0;
}

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* The id of "ab/<id>.plumb" (into id, 65 bytes), or 0 when relpath is not one. */
static int bundle_name(const char *relpath, char *id)
{
	if (strlen(relpath) != 3 + STORE_ID_LEN + 6 || relpath[2] != '/' ||
	    !is_hex(relpath, 2) || !is_hex(relpath + 3, STORE_ID_LEN) ||
	    memcmp(relpath, relpath + 3, 2) != 0 ||
	    strcmp(relpath + 3 + STORE_ID_LEN, ".plumb") != 0)
		return 0;
	memcpy(id, relpath + 3, STORE_ID_LEN);
	id[STORE_ID_LEN] = '\0';
	return 1;
}

static unsigned slice_of_id(const char *id, unsigned nslices)
{
	unsigned long v = 0;

	for (int i = 0; i < 8; i++)
		v = v * 16 + (unsigned long)(id[i] <= '9' ? id[i] - '0' : id[i] - 'a' + 10);
	return (unsigned)(v % nslices);
}

unsigned scrub_slice_of(const char *relpath, unsigned nslices)
{
	char id[STORE_ID_LEN + 1];
	uint32_t h = 2166136261u;

	if (nslices <= 1)
		return 0;
	if (bundle_name(relpath, id))
		return slice_of_id(id, nslices);
	for (const char *p = relpath; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h % nslices;
}

/* Temporary files of common/fileio.h: ".<name>.tmp.XXXXXX". */
static int is_temp_name(const char *name)
{
	return name[0] == '.' && strstr(name, ".tmp.") != NULL;
}

enum entry_kind { ENTRY_BUNDLE, ENTRY_TEMP, ENTRY_STRAY };

struct entry {
	char *rel;                 /* relative to bundles/ */
	enum entry_kind kind;
	char id[STORE_ID_LEN + 1]; /* ENTRY_BUNDLE */
	char sha[STORE_ID_LEN + 1];/* a remote store's file: its SHA-256 as the remote says */
};

struct entries {
	struct entry *v;
	size_t n;
};

static void entries_release(struct entries *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].rel);
	free(e->v);
	e->v = NULL;
	e->n = 0;
}

static int entries_add(struct entries *e, const char *rel, enum entry_kind kind,
		       const char *id)
{
	struct entry *nv = realloc(e->v, (e->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	e->v = nv;
	nv[e->n].rel = strdup(rel);
	if (!nv[e->n].rel)
		return -1;
	nv[e->n].kind = kind;
	nv[e->n].sha[0] = '\0';
	snprintf(nv[e->n].id, sizeof(nv[e->n].id), "%s", id ? id : "");
	e->n++;
	return 0;
}

/* Where the bundle files are, for messages: the folder or the remote. */
static const char *where(const struct store *st)
{
	return st->remote ? st->remote->name : st->bundles_dir;
}

static int entry_cmp(const void *a, const void *b);

/* The same classification over a remote store's listing (with hashes). */
static int walk_remote(struct store *st, unsigned slice, unsigned nslices,
		       struct entries *out, struct plumb_err *err)
{
	struct remote_file *files;
	char id[STORE_ID_LEN + 1];
	size_t n;
	int r;

	if ((r = remote_list(st->remote, &files, &n, err)) < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		const char *base = strrchr(files[i].rel, '/');
		enum entry_kind kind;
		base = base ? base + 1 : files[i].rel;
		if (bundle_name(files[i].rel, id))
			kind = ENTRY_BUNDLE;
		else if (is_temp_name(base))
			kind = ENTRY_TEMP;
		else
			kind = ENTRY_STRAY;
		if (scrub_slice_of(files[i].rel, nslices) != slice)
			continue;
		if (entries_add(out, files[i].rel, kind, kind == ENTRY_BUNDLE ? id : NULL) < 0)
			r = plumb_err_oom(err, "file list");
		else
			memcpy(out->v[out->n - 1].sha, files[i].sha, sizeof(files[i].sha));
	}
	remote_files_free(files, n);
	if (r == 0 && out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), entry_cmp);
	return r;
}

/*
 * List bundles/ (two levels: ab/<id>.plumb), classifying each entry.
 * Only entries of the wanted slice are kept.
 */
static int walk(struct store *st, unsigned slice, unsigned nslices,
		struct entries *out, struct plumb_err *err)
{
	DIR *top, *sub;
	struct dirent *d, *f;
	char rel[1024], id[STORE_ID_LEN + 1];
	int r = 0;

	if (st->remote)
		return walk_remote(st, slice, nslices, out, err);
	top = opendir(st->bundles_dir);
	if (!top) {
		if (errno == ENOENT)
			return 0;
		return plumb_err_errno(err, PLUMB_EIO, errno, st->bundles_dir, "open folder");
	}
	while (r == 0 && (errno = 0, d = readdir(top))) {
		struct stat sb;
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(top), d->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			continue;   /* removed meanwhile */
		if (!(S_ISDIR(sb.st_mode) && strlen(d->d_name) == 2 && is_hex(d->d_name, 2))) {
			snprintf(rel, sizeof(rel), "%s", d->d_name);
			if (scrub_slice_of(rel, nslices) == slice &&
			    entries_add(out, rel, S_ISREG(sb.st_mode) && is_temp_name(d->d_name) ?
					ENTRY_TEMP : ENTRY_STRAY, NULL) < 0)
				r = plumb_err_oom(err, "file list");
			continue;
		}
		int fd = openat(dirfd(top), d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || !(sub = fdopendir(fd))) {
			if (fd >= 0)
				close(fd);
			snprintf(rel, sizeof(rel), "%s", d->d_name);
			r = plumb_err_errno(err, PLUMB_EIO, errno, rel, "open folder");
			break;
		}
		while (r == 0 && (errno = 0, f = readdir(sub))) {
			struct stat fsb;
			enum entry_kind kind;
			if (strcmp(f->d_name, ".") == 0 || strcmp(f->d_name, "..") == 0)
				continue;
			if (fstatat(dirfd(sub), f->d_name, &fsb, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			snprintf(rel, sizeof(rel), "%s/%s", d->d_name, f->d_name);
			if (S_ISREG(fsb.st_mode) && bundle_name(rel, id))
				kind = ENTRY_BUNDLE;
			else if (S_ISREG(fsb.st_mode) && is_temp_name(f->d_name))
				kind = ENTRY_TEMP;
			else
				kind = ENTRY_STRAY;
			if (scrub_slice_of(rel, nslices) == slice &&
			    entries_add(out, rel, kind, kind == ENTRY_BUNDLE ? id : NULL) < 0)
				r = plumb_err_oom(err, "file list");
		}
		closedir(sub);
	}
	closedir(top);
	return r;
}

struct row {
	char id[STORE_ID_LEN + 1];
	char sha[STORE_ID_LEN + 1];
	int64_t size;
};

struct rows {
	struct row *v;
	size_t n;
};

/* Every bundle row of the slice. */
static int load_rows(struct store *st, unsigned slice, unsigned nslices,
		     struct rows *out, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT id, file_sha256, size FROM bundles ORDER BY id", err);
	int rc;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	while ((rc = db_step(s)) == DB_ROW) {
		const char *id = db_column_text(s, 0);
		const char *sha = db_column_text(s, 1);
		if (!id || !store_is_id(id) || slice_of_id(id, nslices) != slice)
			continue;
		struct row *nv = realloc(out->v, (out->n + 1) * sizeof(*nv));
		if (!nv) {
			db_finalize(s);
			return plumb_err_oom(err, "row list");
		}
		out->v = nv;
		snprintf(nv[out->n].id, sizeof(nv[out->n].id), "%s", id);
		snprintf(nv[out->n].sha, sizeof(nv[out->n].sha), "%s", sha ? sha : "");
		nv[out->n].size = db_column_int64(s, 2);
		out->n++;
	}
	db_finalize(s);
	if (rc != DB_DONE)
		return store_db_err(st, rc, "read bundle rows", err);
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->id, ((const struct row *)b)->id);
}

static const struct row *row_find(const struct rows *rows, const char *id)
{
	struct row key;

	snprintf(key.id, sizeof(key.id), "%s", id);
	return rows->n ? bsearch(&key, rows->v, rows->n, sizeof(*rows->v), row_cmp) : NULL;
}

/* Whether a row for id exists now (for re-checks after the lock was let go). */
static int row_exists(struct store *st, const char *id, int *exists, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT 1 FROM bundles WHERE id = ?1", err);
	int rc;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, id);
	rc = db_step(s);
	db_finalize(s);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_db_err(st, rc, "look up bundle", err);
	*exists = rc == DB_ROW;
	return 0;
}

/* Rows and files of a slice, read under the write lock. */
static int snapshot(struct store *st, unsigned slice, unsigned nslices,
		    struct rows *rows, struct entries *files, struct plumb_err *err)
{
	int r;

	if ((r = store_begin(st, err)) < 0)
		return r;
	r = load_rows(st, slice, nslices, rows, err);
	if (r == 0)
		r = walk(st, slice, nslices, files, err);
	store_rollback(st);
	if (r == 0 && rows->n > 1)
		qsort(rows->v, rows->n, sizeof(*rows->v), row_cmp);
	return r;
}

/* Run a PRAGMA check whose single "ok" row means no problem. */
static int pragma_check(struct store *st, const char *pragma, int ok_row,
			struct scrub_report *rep, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, pragma, err);
	int rc, oom = 0;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	while ((rc = db_step(s)) == DB_ROW) {
		if (ok_row) {
			const char *t = db_column_text(s, 0);
			if (t && strcmp(t, "ok") == 0)
				continue;
			oom |= say(rep, 1, "%s: integrity check: %s", st->db_path, t ? t : "?");
		} else {
			oom |= say(rep, 1, "%s: foreign key check: table %s row %lld refers to missing %s",
				   st->db_path, db_column_text(s, 0),
				   (long long)db_column_int64(s, 1),
				   db_column_text(s, 2));
		}
	}
	db_finalize(s);
	if (oom)
		return plumb_err_oom(err, "report");
	if (rc != DB_DONE)
		return store_db_err(st, rc, pragma, err);
	return 0;
}

/* msg without a leading "<path>: ", which the report line already has. */
static const char *without_path(const char *msg, const char *path)
{
	size_t n = strlen(path);

	if (strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
		return msg + n + 2;
	return msg;
}

/* Hash and re-verify one stored bundle file against its row. */
static int check_file(struct store *st, const struct row *row, const char *path,
		      struct scrub_report *rep, struct plumb_err *err)
{
	struct ingest_record rec;
	struct plumb_err e2;
	char sha[STORE_ID_LEN + 1];
	int64_t size;
	int r, oom = 0;

	plumb_err_clear(&e2);
	if ((r = store_hash_file(path, sha, &size, &e2)) < 0) {
		int exists = 1;
		if (access(path, F_OK) < 0 && errno == ENOENT) {
			/* Removed since the snapshot: a problem only if its row is still there. */
			if ((r = row_exists(st, row->id, &exists, err)) < 0)
				return r;
			if (!exists)
				return 0;
			return say(rep, 1, "%s: row without file (%s is missing)", row->id, path) ?
			       plumb_err_oom(err, "report") : 0;
		}
		return say(rep, 1, "%s: %s", row->id, e2.msg) ? plumb_err_oom(err, "report") : 0;
	}
	if (size != row->size)
		oom |= say(rep, 1, "%s: wrong size: %lld bytes, the archive recorded %lld",
			   path, (long long)size, (long long)row->size);
	if (strcmp(sha, row->sha) != 0)
		oom |= say(rep, 1, "%s: wrong SHA-256: %s, the archive recorded %s",
			   path, sha, row->sha);
	ingest_record_init(&rec);
	plumb_err_clear(&e2);
	if (ingest_read_bundle(path, &rec, &e2) < 0)
		oom |= say(rep, 1, "%s: no longer verifies: %s", path, without_path(e2.msg, path));
	else if (strcmp(rec.id, row->id) != 0)
		oom |= say(rep, 1, "%s: holds bundle %s, not %s", path, rec.id, row->id);
	ingest_record_release(&rec);
	return oom ? plumb_err_oom(err, "report") : 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->rel, ((const struct entry *)b)->rel);
}

/* The listed file of bundle id (the listing sorted by entry_cmp), or NULL. */
static const struct entry *entry_find(const struct entries *files, const char *id)
{
	char rel[96];
	struct entry key;
	const struct entry *e;

	remote_rel(id, rel, sizeof(rel));
	key.rel = rel;
	e = files->n ? bsearch(&key, files->v, files->n, sizeof(*files->v), entry_cmp) : NULL;
	return e && e->kind == ENTRY_BUNDLE ? e : NULL;
}

/*
 * A row against a remote store's listing: its file there, hashing (by the
 * remote) to what was recorded.  It was verified as a bundle before it
 * was uploaded, and the hash is of the whole file: not downloaded again.
 */
static int check_remote(struct store *st, const struct row *row, const struct entries *files,
			struct scrub_report *rep, struct plumb_err *err)
{
	const struct entry *e = entry_find(files, row->id);
	int exists, r;

	if (!e) {
		if ((r = row_exists(st, row->id, &exists, err)) < 0)
			return r;
		return exists && say(rep, 1, "%s: row without file (%s/%.2s/%s.plumb is missing)",
				     row->id, where(st), row->id, row->id) ?
		       plumb_err_oom(err, "report") : 0;
	}
	if (!e->sha[0])
		return say(rep, 1, "%s/%s: the remote gives no SHA-256 of it", where(st), e->rel) ?
		       plumb_err_oom(err, "report") : 0;
	if (strcmp(e->sha, row->sha) != 0)
		return say(rep, 1, "%s/%s: wrong SHA-256: %s, the archive recorded %s",
			   where(st), e->rel, e->sha, row->sha) ? plumb_err_oom(err, "report") : 0;
	return 0;
}

int scrub_verify(struct store *st, unsigned slice, unsigned nslices,
		 struct scrub_report *rep, struct plumb_err *err)
{
	struct rows rows = { NULL, 0 };
	struct entries files = { NULL, 0 };
	char *path = NULL;
	int r, oom = 0;

	if (nslices == 0 || slice == 0 || slice > nslices)
		return plumb_err_set(err, PLUMB_EARG, "--subset: %u/%u is not n/t with 1 <= n <= t",
				     slice, nslices);
	slice--;
	if ((r = snapshot(st, slice, nslices, &rows, &files, err)) < 0)
		goto done;

	/* Files first: those without rows, stray entries, leftovers. */
	for (size_t i = 0; i < files.n; i++) {
		const struct entry *e = &files.v[i];
		rep->nfiles++;
		if (e->kind == ENTRY_TEMP)
			oom |= say(rep, 1, "%s/%s: leftover temporary file ('plumb archive gc' removes it)",
				   where(st), e->rel);
		else if (e->kind == ENTRY_STRAY)
			oom |= say(rep, 1, "%s/%s: stray file, not a bundle of this archive",
				   where(st), e->rel);
		else if (!row_find(&rows, e->id))
			oom |= say(rep, 1, "%s/%s: file without rows ('plumb archive gc' adopts it)",
				   where(st), e->rel);
	}
	/* Then every row: its file, its size, its hash, the bundle itself. */
	for (size_t i = 0; i < rows.n && !oom; i++) {
		free(path);
		path = store_bundle_path(st, rows.v[i].id);
		if (!path) {
			r = plumb_err_oom(err, "bundle path");
			goto done;
		}
		rep->nbundles++;
		if ((r = st->remote ? check_remote(st, &rows.v[i], &files, rep, err)
				    : check_file(st, &rows.v[i], path, rep, err)) < 0)
			goto done;
	}
	if (oom) {
		r = plumb_err_oom(err, "report");
		goto done;
	}
	/* SQLite's own checks; a PostgreSQL server checks its pages and keys itself. */
	if (db_backend(st->db) == DB_SQLITE &&
	    ((r = pragma_check(st, "PRAGMA integrity_check", 1, rep, err)) < 0 ||
	     (r = pragma_check(st, "PRAGMA foreign_key_check", 0, rep, err)) < 0))
		goto done;
done:
	free(path);
	free(rows.v);
	entries_release(&files);
	return r;
}

/* Move bundles/<rel> to <archive>/lost/, under a name not yet taken there. */
static int quarantine(struct store *st, const char *rel, struct buf *dest,
		      struct plumb_err *err)
{
	struct buf lost, src;
	struct stat sb;
	int r = 0;

	buf_init(&lost, 8192);
	buf_init(&src, 8192);
	buf_reset(dest);
	if (buf_printf(&lost, "%s/lost", st->dir) < 0 ||
	    buf_printf(&src, "%s/%s", st->bundles_dir, rel) < 0) {
		r = buf_err(err, "path");
		goto done;
	}
	if ((r = mkdir_p(buf_cstr(&lost), err)) < 0)
		goto done;
	for (int n = 0; ; n++) {
		buf_reset(dest);
		if (buf_printf(dest, "%s/", buf_cstr(&lost)) < 0) {
			r = buf_err(err, "path");
			goto done;
		}
		for (const char *p = rel; *p; p++)
			if (buf_addch(dest, *p == '/' ? '_' : *p) < 0) {
				r = buf_err(err, "path");
				goto done;
			}
		if (n > 0 && buf_printf(dest, ".%d", n) < 0) {
			r = buf_err(err, "path");
			goto done;
		}
		if (lstat(buf_cstr(dest), &sb) < 0 && errno == ENOENT)
			break;
		if (n > 1000) {
			r = plumb_err_set(err, PLUMB_EIO, "%s: no free name", buf_cstr(dest));
			goto done;
		}
	}
	if (rename(buf_cstr(&src), buf_cstr(dest)) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, buf_cstr(&src), "move to lost/");
		goto done;
	}
	if ((r = fsync_parent(buf_cstr(dest), err)) == 0)
		r = fsync_parent(buf_cstr(&src), err);
done:
	buf_release(&lost);
	buf_release(&src);
	return r;
}

/* Adopt one file without rows, or move it to lost/ when it is not what its name says. */
static int adopt(struct store *st, const struct entry *e, struct scrub_report *rep,
		 struct plumb_err *err)
{
	struct ingest_record rec;
	struct plumb_err why;
	struct buf moved;
	struct stat sb;
	char *path = store_bundle_path(st, e->id);
	int exists, r = 0, bad;

	if (!path)
		return plumb_err_oom(err, "bundle path");
	ingest_record_init(&rec);
	buf_init(&moved, 8192);
	plumb_err_clear(&why);
	/* A remote store's file is read from a copy staged where a local one would be. */
	if (st->remote && ((r = store_make_parent(path, err)) < 0 ||
			   (r = remote_get(st->remote, e->id, path, err)) < 0)) {
		free(path);
		ingest_record_release(&rec);
		buf_release(&moved);
		return r;
	}
	/* The slow part, outside the lock. */
	bad = ingest_read_bundle(path, &rec, &why) < 0;
	if (!bad && strcmp(rec.id, e->id) != 0) {
		plumb_err_set(&why, PLUMB_EINPUT, "holds bundle %s, not %s", rec.id, e->id);
		bad = 1;
	}
	if (!bad && (r = store_hash_file(path, rec.file_sha256, &rec.size, &why)) < 0) {
		bad = 1;
		r = 0;
	}
	if ((r = store_begin(st, err)) < 0)
		goto done;
	if ((r = row_exists(st, e->id, &exists, err)) < 0)
		goto rollback;
	if (exists || lstat(path, &sb) < 0)
		goto rollback;   /* added or removed meanwhile: nothing to do */
	if (bad && st->remote) {
		store_rollback(st);
		if (say(rep, 1, "%s/%s: %s; left there", where(st), e->rel, without_path(why.msg, path)))
			r = plumb_err_oom(err, "report");
		goto done;
	}
	if (bad) {
		if ((r = quarantine(st, e->rel, &moved, err)) < 0)
			goto rollback;
		store_rollback(st);
		if (say(rep, 0, "%s: %s; moved to %s", path, without_path(why.msg, path),
			buf_cstr(&moved)))
			r = plumb_err_oom(err, "report");
		goto done;
	}
	if (sb.st_size != rec.size) {
		store_rollback(st);
		if (say(rep, 1, "%s: changed while being adopted; run 'plumb archive gc' again", path))
			r = plumb_err_oom(err, "report");
		goto done;
	}
	if ((r = ingest_insert(st, &rec, NULL, err)) < 0)
		goto rollback;
	if ((r = store_commit(st, err)) < 0)
		goto done;
	rep->nbundles++;
	if (st->remote ? say(rep, 0, "%s/%s: adopted bundle %s", where(st), e->rel, e->id)
		       : say(rep, 0, "%s: adopted bundle %s", path, e->id))
		r = plumb_err_oom(err, "report");
	goto done;
rollback:
	store_rollback(st);
done:
	if (st->remote)
		(void)unlink(path);
	buf_release(&moved);
	ingest_record_release(&rec);
	free(path);
	return r;
}

int scrub_gc(struct store *st, struct scrub_report *rep, struct plumb_err *err)
{
	struct rows rows = { NULL, 0 };
	struct entries files = { NULL, 0 };
	struct buf path, moved;
	int r, exists;

	buf_init(&path, 8192);
	buf_init(&moved, 8192);
	/* Leftovers and stray entries, under the lock: no add is half-way. */
	if ((r = store_begin(st, err)) < 0)
		goto done;
	if ((r = load_rows(st, 0, 1, &rows, err)) < 0 ||
	    (r = walk(st, 0, 1, &files, err)) < 0) {
		store_rollback(st);
		goto done;
	}
	if (rows.n > 1)
		qsort(rows.v, rows.n, sizeof(*rows.v), row_cmp);
	for (size_t i = 0; i < files.n && r == 0; i++) {
		const struct entry *e = &files.v[i];
		rep->nfiles++;
		buf_reset(&path);
		if (buf_printf(&path, "%s/%s", where(st), e->rel) < 0) {
			r = buf_err(err, "path");
			break;
		}
		if (st->remote && e->kind == ENTRY_TEMP) {
			if ((r = remote_delete(st->remote, e->rel, err)) == 0 &&
			    say(rep, 0, "%s: removed leftover temporary file", buf_cstr(&path)))
				r = plumb_err_oom(err, "report");
		} else if (st->remote && e->kind == ENTRY_STRAY) {
			if (say(rep, 1, "%s: stray file, not a bundle of this archive; left there",
				buf_cstr(&path)))
				r = plumb_err_oom(err, "report");
		} else if (e->kind == ENTRY_TEMP) {
			if (unlink(buf_cstr(&path)) < 0 && errno != ENOENT)
				r = plumb_err_errno(err, PLUMB_EIO, errno, buf_cstr(&path), "remove");
			else if (say(rep, 0, "%s: removed leftover temporary file", buf_cstr(&path)))
				r = plumb_err_oom(err, "report");
		} else if (e->kind == ENTRY_STRAY) {
			if ((r = quarantine(st, e->rel, &moved, err)) == 0 &&
			    say(rep, 0, "%s: stray file, moved to %s", buf_cstr(&path), buf_cstr(&moved)))
				r = plumb_err_oom(err, "report");
		}
	}
	store_rollback(st);
	if (r < 0)
		goto done;
	/* Files without rows: adopt the good ones (verification outside the lock). */
	for (size_t i = 0; i < files.n && r == 0; i++)
		if (files.v[i].kind == ENTRY_BUNDLE && !row_find(&rows, files.v[i].id))
			r = adopt(st, &files.v[i], rep, err);
	/* Rows without files: reported, never removed silently. */
	for (size_t i = 0; i < rows.n && r == 0; i++) {
		char *p = store_bundle_path(st, rows.v[i].id);
		char rel[96];
		struct stat sb;
		if (!p) {
			r = plumb_err_oom(err, "bundle path");
			break;
		}
		if (st->remote) {
			/* The message names where the file should be: on the remote. */
			remote_rel(rows.v[i].id, rel, sizeof(rel));
			free(p);
			buf_reset(&path);
			if (buf_printf(&path, "%s/%s", where(st), rel) < 0 || !(p = strdup(buf_cstr(&path)))) {
				r = plumb_err_oom(err, "bundle path");
				break;
			}
		}
		if (st->remote ? !entry_find(&files, rows.v[i].id) : lstat(p, &sb) < 0 && errno == ENOENT) {
			if ((r = row_exists(st, rows.v[i].id, &exists, err)) == 0 && exists &&
			    say(rep, 1, "%s: row without file (%s is missing); "
				"'plumb archive add' of the bundle restores it, "
				"'plumb archive rm %s' forgets it", rows.v[i].id, p, rows.v[i].id))
				r = plumb_err_oom(err, "report");
		}
		free(p);
	}
done:
	buf_release(&path);
	buf_release(&moved);
	free(rows.v);
	entries_release(&files);
	return r;
}
