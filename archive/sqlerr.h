/*
 * archive/sqlerr.h: the database's result codes (SQLite's, also for
 * PostgreSQL: archive/db.h) as plumb errors, for every file of archive/
 * that talks to the index (store.c, schema.c).  Below both, so that the
 * schema does not depend on the store that opens it.
 *
 * Ownership: nothing is allocated.
 */
#ifndef PLUMB_ARCHIVE_SQLERR_H
#define PLUMB_ARCHIVE_SQLERR_H

struct db;
struct plumb_err;

/* How long a writer waits for another one before giving up (exit 75). */
#define SQLERR_BUSY_MS 120000
/* The hint every message about a damaged archive.db ends with. */
#define SQLERR_RECOVER_HINT "'plumb archive verify' checks the stored bundles; " \
	"'plumb archive reindex' rebuilds archive.db from them (baselines from baselines.tsv)"

/*
 * Fill err from the result code rc (and db's message, db may be NULL) for
 * the index named path (a file, or a redacted URL), doing what, with the code that fits (disk full and
 * I/O → PLUMB_EIO, busy → PLUMB_ELOCKED, corrupt or not a database →
 * PLUMB_EINPUT, else PLUMB_EINTERNAL).  Returns the code.
 */
int sqlerr_set(struct db *db, const char *path, int rc, const char *what,
	       struct plumb_err *err);

#endif
