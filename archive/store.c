/*
 * archive/store.c: finding, opening and locking the archive; error
 * mapping; id prefixes.  Everything that talks to the index goes through
 * the handle opened here, so the pragmas (WAL, foreign keys, busy timeout,
 * full sync) and PostgreSQL's session settings are set in one place.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive/db.h"
#include "archive/dialect.h"
#include "archive/remote.h"
#include "archive/schema.h"
#include "archive/sqlerr.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/path.h"
#include "common/url.h"
#include "common/fileio.h"
#include "common/banned.h"

/* $XDG_DATA_HOME/plumb (when absolute), else $HOME/.local/share/plumb. */
static int default_dir(char **out, struct plumb_err *err)
{
	const char *env;

	if ((env = getenv("XDG_DATA_HOME")) && env[0] == '/') {
		*out = path_join(env, "plumb");
	} else {
		/* The XDG base directory spec ignores a relative XDG_DATA_HOME. */
		const char *home = getenv("HOME");
		if (!home || !*home)
			return plumb_err_set(err, PLUMB_EARG,
					     "no archive folder: set --archive-dir, PLUMB_ARCHIVE, XDG_DATA_HOME or HOME");
		*out = path_join(home, ".local/share/plumb");
	}
	if (!*out)
		return plumb_err_oom(err, "archive folder");
	return 0;
}

int store_locate(const char *dir, char **out, struct plumb_err *err)
{
	const char *env;

	*out = NULL;
	if (dir && !*dir)
		return plumb_err_set(err, PLUMB_EARG, "--archive-dir: empty folder name");
	if (!dir && (env = getenv("PLUMB_ARCHIVE")) && *env)
		dir = env;
	if (!dir)
		return default_dir(out, err);
	if (!(*out = strdup(dir)))
		return plumb_err_oom(err, "archive folder");
	return 0;
}

int store_db_err(struct store *st, int rc, const char *what,
		 struct plumb_err *err)
{
	if ((rc & 0xff) == DB_CORRUPT || (rc & 0xff) == DB_NOTADB)
		st->damaged = 1;
	return sqlerr_set(st->db, st->db_path, rc, what, err);
}

struct db_stmt *store_prepare(struct store *st, const char *sql,
			      struct plumb_err *err)
{
	struct db_stmt *stmt = NULL;
	int rc = db_prepare(st->db, sql, &stmt);

	if (rc != DB_OK) {
		char what[96];
		snprintf(what, sizeof(what), "prepare '%.60s'", sql);
		store_db_err(st, rc, what, err);
		return NULL;
	}
	return stmt;
}

/* Run one statement that returns nothing (or rows we ignore). */
static int exec_simple(struct store *st, const char *sql, struct plumb_err *err)
{
	int rc = db_exec(st->db, sql);

	if (rc != DB_OK)
		return store_db_err(st, rc, sql, err);
	return 0;
}

/*
 * Run a statement that needs a lock, retrying DB_BUSY until the
 * deadline.  The busy handler waits inside SQLite already; the loop
 * covers the cases where SQLite returns BUSY without calling it (a
 * journal-mode change racing another connection's first open).  sql NULL:
 * open the write transaction (BEGIN), or the read one when write is 0.
 */
static int exec_locking(struct store *st, const char *sql, int write,
			struct plumb_err *err)
{
	long long deadline = clock_now_ms() + STORE_BUSY_MS;
	int rc;

	for (;;) {
		rc = sql ? db_exec(st->db, sql) :
		     write ? dialect_begin_write(st->db) : dialect_begin_read(st->db);
		if ((rc & 0xff) != DB_BUSY || clock_now_ms() >= deadline || cleanup_signal_pending())
			break;
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	if (rc != DB_OK)
		return store_db_err(st, rc, sql ? sql : write ? "begin (write lock)" : "begin", err);
	return 0;
}

/*
 * A read-only connection.  When the folder cannot be written, SQLite could
 * not create the -shm file a WAL database needs even to read, so the file
 * is opened `immutable` (no locks, no -shm): nobody can be writing it
 * through this folder anyway.
 */
static int open_readonly(struct store *st, struct plumb_err *err)
{
	int flags = access(st->dir, W_OK) != 0 ? DB_OPEN_IMMUTABLE : DB_OPEN_READONLY;
	int rc = db_open_sqlite(&st->db, st->db_path, flags, STORE_BUSY_MS);

	if (!st->db)
		return plumb_err_oom(err, "archive path");
	if (rc != DB_OK)
		return store_db_err(st, rc, "open (read-only)", err);
	st->readonly = 1;
	return 0;
}

int store_quick_check(struct store *st, struct plumb_err *err)
{
	struct db_stmt *s;
	char first[200] = "";
	int rc, bad = 0;

	if (db_backend(st->db) == DB_POSTGRES) {
		st->checked = 1;
		return 0;   /* the server checks its own pages */
	}
	if (!(s = store_prepare(st, "PRAGMA quick_check", err)))
		return err ? err->code : PLUMB_EINTERNAL;
	while ((rc = db_step(s)) == DB_ROW) {
		const char *t = db_column_text(s, 0);
		if (t && strcmp(t, "ok") != 0 && !bad++) {
			snprintf(first, sizeof(first), "%s", t);
			for (char *p = first; *p; p++)
				if (*p == '\n' || *p == '\t')
					*p = ' ';
		}
	}
	db_finalize(s);
	if (rc != DB_DONE)
		return store_db_err(st, rc, "PRAGMA quick_check", err);
	st->checked = !bad;
	if (bad) {
		st->damaged = 1;
		return plumb_err_set(err, PLUMB_EINPUT, "%s: the archive database is damaged "
				     "(quick_check: %s); nothing was changed; %s", st->db_path,
				     first, STORE_RECOVER_HINT);
	}
	return 0;
}

int store_check_miss(struct store *st, struct plumb_err *err)
{
	return st->checked ? 0 : store_quick_check(st, err);
}

/*
 * Does the folder hold what an archive accumulates (a stored bundle, a
 * baseline)?  Then a 0-byte archive.db is a lost index, not one that
 * another process is creating this instant.
 */
static int holds_bundles(const struct store *st)
{
	char *side = path_join(st->dir, "baselines.tsv");
	int found = side && access(side, F_OK) == 0;
	DIR *d = found ? NULL : opendir(st->bundles_dir);
	struct dirent *e;

	free(side);
	while (d && !found && (e = readdir(d)))
		found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return found;
}

/* The local folder of the bundle files of an archive on PostgreSQL (store.h). */
static int shared_store_dir(char **out, struct plumb_err *err)
{
	const char *env = getenv("PLUMB_ARCHIVE_STORE");
	char *base = NULL;
	int r;

	if (env && *env) {
		*out = strdup(env);
	} else {
		if ((r = default_dir(&base, err)) < 0)
			return r;
		*out = path_join(base, "shared");
		free(base);
	}
	return *out ? 0 : plumb_err_oom(err, "archive store folder");
}

/* store_open() of a postgresql:// URL. */
static int open_postgres(struct store *st, const char *url, int flags,
			 struct plumb_err *err)
{
	int version = 0, rc, r;

	memset(st, 0, sizeof(*st));
	st->magic = STORE_MAGIC;
	if ((r = shared_store_dir(&st->dir, err)) < 0) {
		store_close(st);
		return r;
	}
	st->db_path = url_redact(url);
	st->bundles_dir = path_join(st->dir, "bundles");
	if (!st->db_path || !st->bundles_dir) {
		store_close(st);
		return plumb_err_oom(err, "archive paths");
	}
	/* The store folder's archive.conf may put the files on a remote. */
	if ((r = remote_from_conf(st->dir, &st->remote, err)) < 0) {
		store_close(st);
		return r;
	}
	rc = db_open_postgres(&st->db, url, STORE_BUSY_MS);
	if (rc != DB_OK) {
		r = st->db ? store_db_err(st, rc, "connect", err) : plumb_err_oom(err, "archive");
		store_close(st);
		return r;
	}
	if (flags & STORE_READONLY) {
		st->readonly = 1;
		if ((rc = dialect_set_readonly(st->db)) != DB_OK) {
			r = store_db_err(st, rc, "read-only session", err);
			store_close(st);
			return r;
		}
	}
	if ((r = schema_check(st->db, st->db_path, err)) < 0)
		goto fail;
	if (!(flags & STORE_CREATE)) {
		if ((rc = dialect_get_version(st->db, &version)) != DB_OK) {
			r = store_db_err(st, rc, "read the schema version", err);
			goto fail;
		}
		if (version == 0) {
			r = plumb_err_set(err, PLUMB_EINPUT, "%s: no archive here (no plumb tables; "
					  "'plumb archive add' creates them)", st->db_path);
			goto fail;
		}
	}
	if (st->readonly && schema_current(st->db, st->db_path, err) < 0) {
		/* Older: upgraded once by a writable connection, as a SQLite folder is. */
		char *u = strdup(url);
		store_close(st);
		if (!u)
			return plumb_err_oom(err, "archive URL");
		plumb_err_clear(err);
		r = open_postgres(st, u, flags & ~STORE_READONLY, err);
		if (r == 0) {
			store_close(st);
			r = open_postgres(st, u, flags, err);
		}
		free(u);
		return r;
	}
	if (st->readonly)
		r = 0;
	else if ((r = schema_migrate(st->db, st->db_path, NULL, err)) == 0 &&
		 (flags & STORE_CREATE))
		r = mkdir_p(st->bundles_dir, err);
	if (r < 0)
		goto fail;
	return 0;
fail:
	store_close(st);
	return r;
}

int store_open(struct store *st, const char *dir, int flags,
	       struct plumb_err *err)
{
	struct stat sb;
	int rc, r;

	if (url_is_postgres(dir))
		return open_postgres(st, dir, flags, err);
	memset(st, 0, sizeof(*st));
	st->dir = strdup(dir);
	st->db_path = path_join(dir, "archive.db");
	st->bundles_dir = path_join(dir, "bundles");
	if (!st->dir || !st->db_path || !st->bundles_dir) {
		store_close(st);
		return plumb_err_oom(err, "archive paths");
	}
	st->magic = STORE_MAGIC;
	/* Where the bundle files are: the folder's own bundles/, or a remote. */
	if ((r = remote_from_conf(st->dir, &st->remote, err)) < 0) {
		store_close(st);
		return r;
	}
	if (stat(st->db_path, &sb) < 0) {
		int e = errno;
		if (e != ENOENT) {
			r = plumb_err_errno(err, PLUMB_EIO, e, st->db_path, "stat");
			store_close(st);
			return r;
		}
		if (!(flags & STORE_CREATE)) {
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "%s: no archive here (no archive.db; 'plumb archive add' creates one)",
					  st->dir);
			store_close(st);
			return r;
		}
	} else if (!S_ISREG(sb.st_mode)) {
		r = plumb_err_set(err, PLUMB_EINPUT, "%s: not a regular file", st->db_path);
		store_close(st);
		return r;
	} else if (sb.st_size == 0 && holds_bundles(st)) {
		/* SQLite would take it for a new, empty archive: the baselines gone. */
		r = plumb_err_set(err, PLUMB_EINPUT, "%s: empty (0 bytes), not an archive database; "
				  "%s", st->db_path, STORE_RECOVER_HINT);
		store_close(st);
		return r;
	}
	if ((flags & STORE_CREATE) && (r = mkdir_p(st->dir, err)) < 0) {
		store_close(st);
		return r;
	}
	if (!(flags & STORE_READONLY) && access(st->dir, W_OK) != 0 &&
	    (errno == EACCES || errno == EROFS || errno == EPERM)) {
		r = plumb_err_set(err, PLUMB_EIO, "%s: the archive folder is read-only (%s): "
				  "this command writes to the archive", st->dir, strerror(errno));
		store_close(st);
		return r;
	}
	if (flags & STORE_READONLY) {
		r = open_readonly(st, err);
		if (r < 0) {
			store_close(st);
			return r;
		}
		if ((r = schema_check(st->db, st->db_path, err)) < 0) {
			store_close(st);
			return r;
		}
		if (schema_current(st->db, st->db_path, err) < 0) {
			/* Older: upgraded once by a writable open where the folder allows it. */
			char *d = strdup(dir);
			store_close(st);
			if (!d)
				return plumb_err_oom(err, "archive paths");
			if (access(d, W_OK) != 0) {
				free(d);
				return err ? err->code : PLUMB_EINPUT;
			}
			plumb_err_clear(err);
			r = store_open(st, d, flags & ~STORE_READONLY, err);
			if (r == 0) {
				store_close(st);
				r = store_open(st, d, flags, err);
			}
			free(d);
			return r;
		}
		return 0;
	}
	rc = db_open_sqlite(&st->db, st->db_path, flags & STORE_CREATE ? DB_OPEN_CREATE : 0,
			    STORE_BUSY_MS);
	if (rc != DB_OK) {
		r = st->db ? store_db_err(st, rc, "open", err) : plumb_err_oom(err, "archive");
		store_close(st);
		return r;
	}
	/*
	 * WAL: readers never block the writer; FULL: a commit reported to
	 * the user survives a power cut (the bundle file was synced before).
	 */
	/*
	 * Nothing may touch a database this program does not understand, nor
	 * one that is damaged: a writer checks the whole file once per open
	 * (quick_check, linear in its size: bench/archive.sh measures it),
	 * before its first write: here when the schema is to be upgraded,
	 * else at its first store_begin().  A command that finds nothing to
	 * write (an add of a bundle already there) reads as a reader does.
	 */
	if ((r = schema_check(st->db, st->db_path, err)) < 0 ||
	    (schema_current(st->db, st->db_path, NULL) < 0 &&
	     (r = store_quick_check(st, err)) < 0) ||
	    (r = exec_locking(st, "PRAGMA journal_mode = WAL", 1, err)) < 0 ||
	    (r = exec_simple(st, "PRAGMA synchronous = FULL", err)) < 0 ||
	    (r = exec_simple(st, "PRAGMA foreign_keys = ON", err)) < 0 ||
	    (r = schema_migrate(st->db, st->db_path, NULL, err)) < 0 ||
	    ((flags & STORE_CREATE) && (r = mkdir_p(st->bundles_dir, err)) < 0)) {
		store_close(st);
		return r;
	}
	return 0;
}

void store_close(struct store *st)
{
	db_close(st->db);
	free(st->dir);
	free(st->db_path);
	free(st->bundles_dir);
	remote_free(st->remote);
	memset(st, 0, sizeof(*st));
}

int store_is_id(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return i == STORE_ID_LEN;
}

char *store_bundle_path(const struct store *st, const char *id)
{
	struct buf p;

	buf_init(&p, 8192);
	if (buf_printf(&p, "%s/%.2s/%s.plumb", st->bundles_dir, id, id) < 0) {
		buf_release(&p);
		return NULL;
	}
	return buf_detach(&p, NULL);
}

int store_begin(struct store *st, struct plumb_err *err)
{
	int r;

	if (st->magic != STORE_MAGIC || st->in_txn)
		return plumb_err_set(err, PLUMB_EINTERNAL, "store_begin: bad handle or nested transaction");
	/* A writer's first transaction: is the file whole (store_open())? */
	if (!st->readonly && !st->checked && (r = store_quick_check(st, err)) < 0)
		return r;
	/* Read-only: one consistent snapshot; there is no write lock to take. */
	if ((r = exec_locking(st, NULL, !st->readonly, err)) < 0)
		return r;
	st->in_txn = 1;
	return 0;
}

int store_commit(struct store *st, struct plumb_err *err)
{
	int rc;

	if (!st->in_txn)
		return plumb_err_set(err, PLUMB_EINTERNAL, "store_commit: no transaction");
	rc = db_exec(st->db, "COMMIT");
	if (rc != DB_OK) {
		int r = store_db_err(st, rc, "commit", err);
		store_rollback(st);
		return r;
	}
	st->in_txn = 0;
	return 0;
}

void store_rollback(struct store *st)
{
	if (st->db && st->in_txn && db_in_txn(st->db))
		db_exec(st->db, "ROLLBACK");
	st->in_txn = 0;
}

int store_resolve(struct store *st, const char *prefix, char *id_out,
		  int64_t *rid, struct plumb_err *err)
{
	char lo[STORE_ID_LEN + 1], hi[STORE_ID_LEN + 2];
	size_t n = strlen(prefix);
	struct db_stmt *stmt;
	struct buf cands;
	int found = 0, rc, r = 0;

	if (n < 4 || n > STORE_ID_LEN)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "'%s': not a bundle id (4 to 64 hex digits)", prefix);
	for (size_t i = 0; i < n; i++) {
		char c = (char)tolower((unsigned char)prefix[i]);
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "'%s': not a bundle id (4 to 64 hex digits)", prefix);
		lo[i] = c;
	}
	lo[n] = '\0';
	/* Ids are hex, so every id starting with lo sorts in [lo, lo "g"). */
	snprintf(hi, sizeof(hi), "%sg", lo);
	stmt = store_prepare(st, "SELECT rid, id FROM bundles WHERE id >= ?1 AND id < ?2 "
			     "ORDER BY id LIMIT 10", err);
	if (!stmt)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(stmt, 1, lo);
	db_bind_text(stmt, 2, hi);
	buf_init(&cands, 4096);
	while ((rc = db_step(stmt)) == DB_ROW) {
		const char *id = db_column_text(stmt, 1);
		if (found == 0) {
			snprintf(id_out, STORE_ID_LEN + 1, "%s", id ? id : "");
			*rid = db_column_int64(stmt, 0);
		}
		if (buf_printf(&cands, "%s%s", found ? ", " : "", id ? id : "") < 0) {
			r = buf_err(err, "bundle ids");
			break;
		}
		found++;
	}
	if (!r && rc != DB_DONE && rc != DB_ROW)
		r = store_db_err(st, rc, "look up bundle id", err);
	db_finalize(stmt);
	if (!r && found == 0 && (r = store_check_miss(st, err)) == 0)
		r = plumb_err_set(err, PLUMB_EINPUT, "no bundle %s in the archive", lo);
	if (!r && found > 1)
		r = plumb_err_set(err, PLUMB_EINPUT,
				  "bundle id prefix %s is ambiguous: %s%s", lo, buf_cstr(&cands),
				  found == 10 ? ", ..." : "");
	buf_release(&cands);
	return r;
}
