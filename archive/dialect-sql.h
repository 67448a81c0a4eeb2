/*
 * archive/dialect-sql.h: the archive's SQL as text for PostgreSQL, the
 * half of archive/dialect.h that runs nothing (the PostgreSQL back end
 * rewrites each statement it prepares).
 *
 * Ownership: the rewritten SQL is malloc'd and freed by the caller.
 */
#ifndef PLUMB_ARCHIVE_DIALECT_SQL_H
#define PLUMB_ARCHIVE_DIALECT_SQL_H

/*
 * A statement for PostgreSQL: `?N` becomes `$N` (a bare `?` the next
 * number), `IS ?N` / `IS NOT ?N` become `IS [NOT] DISTINCT FROM` forms;
 * quoted text is left alone.  *nparams receives the highest parameter
 * number.  NULL without memory.
 */
char *dialect_pg_sql(const char *sql, int *nparams);

/*
 * A schema step for PostgreSQL: INTEGER is BIGINT (an INTEGER PRIMARY KEY
 * an identity column), REAL is DOUBLE PRECISION, TEXT compares bytewise
 * (COLLATE "C", as SQLite does), WITHOUT ROWID is dropped, and `PRAGMA
 * application_id = N` creates the table that holds what SQLite keeps in
 * its header (plumb_schema: application_id, version).  NULL without memory.
 */
char *dialect_pg_schema(const char *sql);

#endif
