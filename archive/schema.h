/*
 * archive/schema.h: the layout of archive.db and its forward migrations.
 *
 * The version lives in PRAGMA user_version (on PostgreSQL in the table
 * plumb_schema: archive/dialect.h).  Migration N turns an archive
 * at version N-1 into version N; schema_migrate() applies the missing ones
 * in order, all inside one BEGIN IMMEDIATE transaction, so an interrupted
 * migration leaves the archive at its old version.  An archive newer than
 * SCHEMA_VERSION is refused: this program would not know what it may change.
 * archive/SCHEMA.md describes the tables.
 *
 * Ownership: nothing is allocated; the step table is static data.
 */
#ifndef PLUMB_ARCHIVE_SCHEMA_H
#define PLUMB_ARCHIVE_SCHEMA_H

struct db;
struct plumb_err;

/* The version this program writes. */
#define SCHEMA_VERSION 4

/* PRAGMA application_id of a plumb archive ("plmb"). */
#define SCHEMA_APPLICATION_ID 0x706c6d62

/*
 * Bring db (whose file is named path in messages) to SCHEMA_VERSION.
 * *from receives the version found (0 for a new archive) when not NULL.
 */
int schema_migrate(struct db *db, const char *path, int *from,
		   struct plumb_err *err);

/*
 * Check, without writing anything, that db is a plumb archive (or an empty
 * database) no newer than SCHEMA_VERSION.  store_open() calls it before
 * anything that could change the file.
 */
int schema_check(struct db *db, const char *path, struct plumb_err *err);

/* A read-only archive must be at SCHEMA_VERSION already: PLUMB_EINPUT if older. */
int schema_current(struct db *db, const char *path, struct plumb_err *err);

/*
 * The same with an explicit step table: steps[i] is the SQL that turns
 * version i into version i+1, for i in [0, nsteps).  For tests.
 */
int schema_apply(struct db *db, const char *path, const char *const *steps,
		 int nsteps, int *from, struct plumb_err *err);

/* The SQL of migration step i (version i to i+1), or NULL past the end. */
const char *schema_step(int i);

#endif
