/*
 * archive/dialect.c: what the archive's SQL on SQLite and on PostgreSQL
 * cannot spell alike, one branch per back end; see dialect.h (the
 * rewriting of statements is dialect-sql.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/dialect.h"
#include "common/banned.h"

/* PostgreSQL: the advisory lock every writer of the archive takes ("plmb"). */
#define PG_WRITE_LOCK "SELECT pg_advisory_xact_lock(1886154082)"

int dialect_begin_write(struct db *db)
{
	int rc;

	if (db_backend(db) == DB_SQLITE)
		return db_exec(db, "BEGIN IMMEDIATE");
	/*
	 * One writer at a time, as on SQLite: the rules of store.h (a file
	 * under bundles/ is touched only under the write lock) hold across
	 * hosts, and an add of an id another host is adding waits and then
	 * finds it present.
	 */
	if ((rc = db_exec(db, "BEGIN")) != DB_OK)
		return rc;
	if ((rc = db_exec(db, PG_WRITE_LOCK)) != DB_OK)
		db_exec(db, "ROLLBACK");
	return rc;
}

int dialect_begin_read(struct db *db)
{
	if (db_backend(db) == DB_SQLITE)
		return db_exec(db, "BEGIN");
	return db_exec(db, "BEGIN ISOLATION LEVEL REPEATABLE READ");
}

int dialect_set_readonly(struct db *db)
{
	if (db_backend(db) == DB_SQLITE)
		return DB_OK;
	return db_exec(db, "SET default_transaction_read_only = on");
}

/* The first column of the one row of sql as an int. */
static int one_int(struct db *db, const char *sql, int *out)
{
	struct db_stmt *s;
	int rc = db_prepare(db, sql, &s);

	if (rc != DB_OK)
		return rc;
	rc = db_step(s);
	if (rc == DB_ROW) {
		*out = (int)db_column_int64(s, 0);
		rc = DB_OK;
	} else if (rc == DB_DONE) {
		rc = DB_INTERNAL;
	}
	db_finalize(s);
	return rc;
}

/* PostgreSQL: max(col) of plumb_schema, 0 while there is no such table. */
static int pg_meta(struct db *db, const char *sql, int *out)
{
	int has = 0, rc;

	rc = one_int(db, "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = "
		     "current_schema() AND tablename = 'plumb_schema'", &has);
	*out = 0;
	if (rc != DB_OK || !has)
		return rc;
	return one_int(db, sql, out);
}

int dialect_get_version(struct db *db, int *version)
{
	if (db_backend(db) == DB_SQLITE)
		return one_int(db, "PRAGMA user_version", version);
	return pg_meta(db, "SELECT max(version) FROM plumb_schema", version);
}

int dialect_get_application_id(struct db *db, int *app)
{
	if (db_backend(db) == DB_SQLITE)
		return one_int(db, "PRAGMA application_id", app);
	return pg_meta(db, "SELECT max(application_id) FROM plumb_schema", app);
}

int dialect_count_tables(struct db *db, int *n)
{
	if (db_backend(db) == DB_SQLITE)
		return one_int(db, "SELECT count(*) FROM sqlite_schema", n);
	return one_int(db, "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = "
		       "current_schema()", n);
}

int dialect_set_version(struct db *db, int n)
{
	char sql[64];

	if (db_backend(db) == DB_SQLITE)
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", n);
	else
		snprintf(sql, sizeof(sql), "UPDATE plumb_schema SET version = %d", n);
	return db_exec(db, sql);
}
