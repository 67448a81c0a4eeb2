/*
 * archive/dialect.h: every difference between the archive's SQL on
 * SQLite and on PostgreSQL, in one place.
 *
 * The archive's SQL is written once, in the subset both understand, with
 * SQLite's `?N` parameters; schema steps are written in SQLite's DDL
 * (archive/schema.c).  For PostgreSQL, dialect_pg_sql() rewrites a
 * statement and dialect_pg_schema() a schema step (dialect-sql.h, which
 * this header includes); what has no common spelling (the schema version,
 * the write lock, read-only snapshots) is a function here with one branch
 * per back end.
 *
 * Ownership: the rewritten SQL is malloc'd and freed by the caller.
 */
#ifndef PLUMB_ARCHIVE_DIALECT_H
#define PLUMB_ARCHIVE_DIALECT_H

#include "archive/db.h"
#include "archive/dialect-sql.h"

/* The statement that opens a write transaction holding the archive's write lock. */
int dialect_begin_write(struct db *db);
/* A read transaction: one consistent snapshot. */
int dialect_begin_read(struct db *db);
/* Make every later transaction of db read-only (PostgreSQL; SQLite opens the file so). */
int dialect_set_readonly(struct db *db);

/*
 * The schema version (0 for an empty database), the application id (0
 * when there is none) and the number of tables of the database (to tell
 * an empty one from a foreign one).  DB_OK or an error code.
 */
int dialect_get_version(struct db *db, int *version);
int dialect_get_application_id(struct db *db, int *app);
int dialect_count_tables(struct db *db, int *n);
/* Record version n (inside the migration's transaction). */
int dialect_set_version(struct db *db, int n);

#endif
