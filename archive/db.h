/*
 * archive/db.h: the archive's database, one small statement API over two
 * back ends: SQLite (a file, the default, no server) and PostgreSQL
 * (through libpq).  Every file of
 * archive/ that speaks SQL goes through it; the SQL it is given is the
 * common subset of both dialects with SQLite's `?N` parameters, and the
 * PostgreSQL back end rewrites what differs (archive/dialect.c).
 *
 * Result codes are SQLite's (DB_ROW, DB_DONE, DB_BUSY ...) on both back
 * ends: PostgreSQL's SQLSTATEs are mapped to the code of the same meaning
 * (a lock wait that timed out is DB_BUSY, a full disk DB_FULL, a lost
 * connection DB_IOERR, a unique violation DB_CONSTRAINT), so that one
 * mapping to plumb's errors serves both (archive/sqlerr.h).
 *
 * Ownership: db_open_*() allocate a struct db that db_close() frees; a
 * struct db_stmt from db_prepare() is freed by db_finalize() (before its
 * db is closed).  Text bound is copied; a column's text lives until the
 * next db_step(), db_reset() or db_finalize() of its statement.
 */
#ifndef PLUMB_ARCHIVE_DB_H
#define PLUMB_ARCHIVE_DB_H

#include <stddef.h>
#include <stdint.h>

struct plumb_err;
struct db;
struct db_stmt;

/* SQLite's result codes (db.c asserts the values). */
enum {
	DB_OK = 0,
	DB_ERROR = 1,
	DB_INTERNAL = 2,
	DB_BUSY = 5,
	DB_LOCKED = 6,
	DB_NOMEM = 7,
	DB_READONLY = 8,
	DB_IOERR = 10,
	DB_CORRUPT = 11,
	DB_FULL = 13,
	DB_CANTOPEN = 14,
	DB_CONSTRAINT = 19,
	DB_MISUSE = 21,
	DB_NOTADB = 26,
	DB_ROW = 100,
	DB_DONE = 101
};

/* A column's type in the current row (SQLite's fundamental types). */
enum db_type {
	DB_INTEGER = 1,
	DB_FLOAT = 2,
	DB_TEXT = 3,
	DB_NULL = 5
};

enum db_backend {
	DB_SQLITE,
	DB_POSTGRES
};

/* db_open_sqlite() flags. */
enum db_open_flags {
	DB_OPEN_READONLY = 1,
	DB_OPEN_CREATE = 2,
	DB_OPEN_IMMUTABLE = 4   /* read-only, no locks and no -shm (an unwritable folder) */
};

/*
 * Open the SQLite file path (extended result codes on, the busy timeout
 * set).  Returns a DB_* code; *out is set even on failure (for the
 * message: db_errmsg) and must be closed.  NULL only without memory.
 */
int db_open_sqlite(struct db **out, const char *path, int flags, int busy_ms);

/*
 * Connect to the PostgreSQL server of url (a postgresql:// or
 * postgres:// URL, libpq's syntax); like db_open_sqlite(): a DB_* code,
 * *out set for the message.  Lock waits give up after busy_ms (DB_BUSY).
 */
int db_open_postgres(struct db **out, const char *url, int busy_ms);

/* Close (rolling back what is open); NULL is harmless. */
void db_close(struct db *db);

enum db_backend db_backend(const struct db *db);

/* The last error's message, "out of memory" when there is no db. */
const char *db_errmsg(const struct db *db);
/* The errno behind the last SQLite I/O error, 0 when unknown (always on PostgreSQL). */
int db_system_errno(const struct db *db);

/* Prepare one statement; a DB_* code, *out NULL on failure. */
int db_prepare(struct db *db, const char *sql, struct db_stmt **out);

/* Run SQL (on SQLite several statements; on PostgreSQL one, or several without parameters). */
int db_exec(struct db *db, const char *sql);

/*
 * Bind parameter i (1-based, ?i in the SQL).  Text is copied; NULL text is
 * SQL NULL.  Binding records the value; errors show at db_step().
 */
void db_bind_int64(struct db_stmt *s, int i, int64_t v);
void db_bind_double(struct db_stmt *s, int i, double v);
void db_bind_text(struct db_stmt *s, int i, const char *v);
void db_bind_null(struct db_stmt *s, int i);
/* The first n bytes of v. */
void db_bind_textn(struct db_stmt *s, int i, const char *v, size_t n);

/* DB_ROW (a row to read), DB_DONE, or an error code (message: db_errmsg). */
int db_step(struct db_stmt *s);

/* Back to before the first step, bindings kept (db_clear_bindings drops them). */
void db_reset(struct db_stmt *s);
void db_clear_bindings(struct db_stmt *s);
void db_finalize(struct db_stmt *s);

/* Columns of the current row, 0-based. */
enum db_type db_column_type(struct db_stmt *s, int i);
int64_t db_column_int64(struct db_stmt *s, int i);
double db_column_double(struct db_stmt *s, int i);
/* The text, or NULL for SQL NULL. */
const char *db_column_text(struct db_stmt *s, int i);

/* Rows changed by the last INSERT, UPDATE or DELETE of db. */
int64_t db_changes(const struct db *db);

/* Nonzero when a transaction is open on db. */
int db_in_txn(const struct db *db);

/*
 * The SQLite handle, for what only SQLite has (PRAGMA checks, tests); NULL
 * on PostgreSQL.  Declared as void * so that this header needs no sqlite3.h.
 */
void *db_sqlite_handle(struct db *db);

#endif
