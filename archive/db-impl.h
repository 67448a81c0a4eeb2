/*
 * archive/db-impl.h: the inside of struct db and struct db_stmt, shared by
 * the dispatcher and SQLite back end (db.c) and the PostgreSQL one
 * (db-pg.c).  Nothing else includes it.
 *
 * Ownership: as in db.h; every pointer here is owned by its struct.
 */
#ifndef PLUMB_ARCHIVE_DB_IMPL_H
#define PLUMB_ARCHIVE_DB_IMPL_H

#include <stdint.h>

#include "archive/db.h"

struct db {
	enum db_backend backend;
	void *lite;          /* sqlite3 * */
	void *pg;            /* PGconn * */
	char *msg;           /* PostgreSQL: the last error, malloc'd */
	int64_t changes;     /* PostgreSQL: rows of the last command */
	int busy_ms;         /* SQLite: how long a lock is waited for */
	uint64_t busy_since; /* SQLite: when the current wait began (clock_now_ns) */
};

struct db_stmt {
	struct db *db;
	void *lite;          /* sqlite3_stmt * */
	/* PostgreSQL: the SQL rewritten, the bound values as text, the result. */
	char *sql;
	int nparams;
	char **vals;
	unsigned *types;     /* Oid per parameter, 0 for untyped (db_bind_null, unbound) */
	int oom;             /* a bind ran out of memory: the step reports it */
	void *res;           /* PGresult * */
	int row, nrows;
	int started;
};

/* The PostgreSQL back end (db-pg.c). */
int dbpg_prepare(struct db *db, const char *sql, struct db_stmt **out);
int dbpg_exec(struct db *db, const char *sql);
void dbpg_bind(struct db_stmt *s, int i, unsigned type, const char *text);
int dbpg_step(struct db_stmt *s);
void dbpg_reset(struct db_stmt *s);
void dbpg_clear_bindings(struct db_stmt *s);
void dbpg_finalize(struct db_stmt *s);
enum db_type dbpg_column_type(struct db_stmt *s, int i);
const char *dbpg_column_text(struct db_stmt *s, int i);
void dbpg_close(struct db *db);
int dbpg_in_txn(const struct db *db);

#endif
