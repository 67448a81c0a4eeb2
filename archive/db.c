/*
 * archive/db.c: the statement API of db.h, dispatching to SQLite (here)
 * or PostgreSQL (db-pg.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "archive/db-impl.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/units.h"
#include "common/banned.h"

_Static_assert(DB_OK == SQLITE_OK && DB_ERROR == SQLITE_ERROR && DB_INTERNAL == SQLITE_INTERNAL &&
	       DB_BUSY == SQLITE_BUSY && DB_LOCKED == SQLITE_LOCKED && DB_NOMEM == SQLITE_NOMEM &&
	       DB_READONLY == SQLITE_READONLY && DB_IOERR == SQLITE_IOERR &&
	       DB_CORRUPT == SQLITE_CORRUPT && DB_FULL == SQLITE_FULL &&
	       DB_CANTOPEN == SQLITE_CANTOPEN && DB_CONSTRAINT == SQLITE_CONSTRAINT &&
	       DB_MISUSE == SQLITE_MISUSE && DB_NOTADB == SQLITE_NOTADB &&
	       DB_ROW == SQLITE_ROW && DB_DONE == SQLITE_DONE, "SQLite's result codes");
_Static_assert(DB_INTEGER == SQLITE_INTEGER && DB_FLOAT == SQLITE_FLOAT &&
	       DB_TEXT == SQLITE_TEXT && DB_NULL == SQLITE_NULL, "SQLite's types");

#define LITE(db) ((sqlite3 *)(db)->lite)
#define LSTMT(s) ((sqlite3_stmt *)(s)->lite)

/*
 * SQLite's wait for a lock another connection holds: steps of at most
 * 10 ms for up to busy_ms, given up at once when plumb is asked to stop
 * (SIGINT, SIGTERM), so that a command waiting on the archive exits as
 * promptly as any other (sqlite3_busy_timeout() would sleep on).
 */
static int busy_wait(void *ctx, int count)
{
	struct db *db = ctx;
	uint64_t now = clock_now_ns();
	struct timespec ts = { 0, 0 };

	if (count == 0)
		db->busy_since = now;
	if (cleanup_signal_pending() || now - db->busy_since >= (uint64_t)db->busy_ms * 1000000ull)
		return 0;
	ts.tv_nsec = (long)(count < 9 ? count + 1 : 10) * 1000000L;
	nanosleep(&ts, NULL);
	return 1;
}

int db_open_sqlite(struct db **out, const char *path, int flags, int busy_ms)
{
	struct db *db = calloc(1, sizeof(*db));
	sqlite3 *h = NULL;
	char *uri = NULL;
	int oflags, rc;

	*out = db;
	if (!db)
		return DB_NOMEM;
	db->backend = DB_SQLITE;
	oflags = flags & (DB_OPEN_READONLY | DB_OPEN_IMMUTABLE) ? SQLITE_OPEN_READONLY :
		 SQLITE_OPEN_READWRITE | (flags & DB_OPEN_CREATE ? SQLITE_OPEN_CREATE : 0);
	if (flags & DB_OPEN_IMMUTABLE) {
		sqlite3_str *s = sqlite3_str_new(NULL);
		sqlite3_str_appendall(s, "file:");
		for (const char *p = path; *p; p++) {
			if (*p == '?' || *p == '#' || *p == '%')
				sqlite3_str_appendf(s, "%%%02X", (unsigned char)*p);
			else
				sqlite3_str_appendchar(s, 1, *p);
		}
		sqlite3_str_appendall(s, "?immutable=1");
		uri = sqlite3_str_finish(s);
		if (!uri)
			return DB_NOMEM;
		oflags |= SQLITE_OPEN_URI;
	}
	rc = sqlite3_open_v2(uri ? uri : path, &h, oflags, NULL);
	sqlite3_free(uri);
	db->lite = h;
	if (h) {
		sqlite3_extended_result_codes(h, 1);
		db->busy_ms = busy_ms;
		sqlite3_busy_handler(h, busy_wait, db);
	}
	return rc;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	if (db->backend == DB_POSTGRES) {
		dbpg_close(db);
	} else if (db->lite) {
		if (!sqlite3_get_autocommit(LITE(db)))
			sqlite3_exec(LITE(db), "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close_v2(LITE(db));
	}
	free(db->msg);
	free(db);
}

enum db_backend db_backend(const struct db *db)
{
	return db->backend;
}

const char *db_errmsg(const struct db *db)
{
	if (!db)
		return "out of memory";
	if (db->backend == DB_POSTGRES)
		return db->msg ? db->msg : "unknown error";
	return db->lite ? sqlite3_errmsg(LITE(db)) : "out of memory";
}

int db_system_errno(const struct db *db)
{
	return db && db->backend == DB_SQLITE && db->lite ? sqlite3_system_errno(LITE(db)) : 0;
}

int db_prepare(struct db *db, const char *sql, struct db_stmt **out)
{
	struct db_stmt *s;
	sqlite3_stmt *h = NULL;
	int rc;

	*out = NULL;
	if (db->backend == DB_POSTGRES)
		return dbpg_prepare(db, sql, out);
	rc = sqlite3_prepare_v2(LITE(db), sql, -1, &h, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(h);
		return rc;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		sqlite3_finalize(h);
		return DB_NOMEM;
	}
	s->db = db;
	s->lite = h;
	*out = s;
	return DB_OK;
}

int db_exec(struct db *db, const char *sql)
{
	if (db->backend == DB_POSTGRES)
		return dbpg_exec(db, sql);
	return sqlite3_exec(LITE(db), sql, NULL, NULL, NULL);
}

/* PostgreSQL's type oids of what is bound (pg_type.h: int8, float8, text). */
#define OID_INT8 20u
#define OID_FLOAT8 701u
#define OID_TEXT 25u

void db_bind_int64(struct db_stmt *s, int i, int64_t v)
{
	if (s->db->backend == DB_POSTGRES) {
		char t[32];
		snprintf(t, sizeof(t), "%" PRId64, v);
		dbpg_bind(s, i, OID_INT8, t);
		return;
	}
	sqlite3_bind_int64(LSTMT(s), i, v);
}

void db_bind_double(struct db_stmt *s, int i, double v)
{
	if (s->db->backend == DB_POSTGRES) {
		char t[UNITS_MAX];

		units_as_read(v, t);   /* every digit; "nan", "inf" as float8 reads them */
		dbpg_bind(s, i, OID_FLOAT8, t);
		return;
	}
	sqlite3_bind_double(LSTMT(s), i, v);
}

void db_bind_text(struct db_stmt *s, int i, const char *v)
{
	if (s->db->backend == DB_POSTGRES) {
		dbpg_bind(s, i, OID_TEXT, v);   /* a NULL typed too: `?1 IS NULL` needs it */
		return;
	}
	if (v)
		sqlite3_bind_text(LSTMT(s), i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(LSTMT(s), i);
}

void db_bind_textn(struct db_stmt *s, int i, const char *v, size_t n)
{
	if (s->db->backend == DB_POSTGRES) {
		char *c = strndup(v, n);
		if (!c)
			s->oom = 1;
		else
			dbpg_bind(s, i, OID_TEXT, c);
		free(c);
		return;
	}
	sqlite3_bind_text(LSTMT(s), i, v, (int)n, SQLITE_TRANSIENT);
}

void db_bind_null(struct db_stmt *s, int i)
{
	if (s->db->backend == DB_POSTGRES) {
		dbpg_bind(s, i, 0, NULL);
		return;
	}
	sqlite3_bind_null(LSTMT(s), i);
}

int db_step(struct db_stmt *s)
{
	if (s->db->backend == DB_POSTGRES)
		return dbpg_step(s);
	return sqlite3_step(LSTMT(s));
}

void db_reset(struct db_stmt *s)
{
	if (s->db->backend == DB_POSTGRES)
		dbpg_reset(s);
	else
		sqlite3_reset(LSTMT(s));
}

void db_clear_bindings(struct db_stmt *s)
{
	if (s->db->backend == DB_POSTGRES)
		dbpg_clear_bindings(s);
	else
		sqlite3_clear_bindings(LSTMT(s));
}

void db_finalize(struct db_stmt *s)
{
	if (!s)
		return;
	if (s->db->backend == DB_POSTGRES)
		dbpg_finalize(s);
	else
		sqlite3_finalize(LSTMT(s));
	free(s);
}

enum db_type db_column_type(struct db_stmt *s, int i)
{
	if (s->db->backend == DB_POSTGRES)
		return dbpg_column_type(s, i);
	return (enum db_type)sqlite3_column_type(LSTMT(s), i);
}

int64_t db_column_int64(struct db_stmt *s, int i)
{
	if (s->db->backend == DB_POSTGRES) {
		const char *t = dbpg_column_text(s, i);
		if (!t)
			return 0;
		if (t[0] == 't' && !t[1])
			return 1;     /* a boolean */
		return strtoll(t, NULL, 10);
	}
	return sqlite3_column_int64(LSTMT(s), i);
}

double db_column_double(struct db_stmt *s, int i)
{
	if (s->db->backend == DB_POSTGRES) {
		const char *t = dbpg_column_text(s, i);
		return t ? strtod(t, NULL) : 0.0;
	}
	return sqlite3_column_double(LSTMT(s), i);
}

const char *db_column_text(struct db_stmt *s, int i)
{
	if (s->db->backend == DB_POSTGRES)
		return dbpg_column_text(s, i);
	return (const char *)sqlite3_column_text(LSTMT(s), i);
}

int64_t db_changes(const struct db *db)
{
	if (db->backend == DB_POSTGRES)
		return db->changes;
	return sqlite3_changes(LITE(db));
}

int db_in_txn(const struct db *db)
{
	if (db->backend == DB_POSTGRES)
		return dbpg_in_txn(db);
	return db->lite && !sqlite3_get_autocommit(LITE(db));
}

void *db_sqlite_handle(struct db *db)
{
	return db && db->backend == DB_SQLITE ? db->lite : NULL;
}
