/*
 * archive/store.h: the archive: where it lives, its index (a SQLite file,
 * archive.db, or a PostgreSQL database named by a postgresql:// URL:
 * archive/db.h), the content-addressed folder of bundle files
 * (bundles/ab/<id>.plumb), and the transactions every writer goes through.
 *
 * Consistency rule, relied on by add, rm, verify and gc: a bundle's rows
 * exist only while its file does.  Writers therefore publish the file
 * before committing the rows, and remove the rows (committed) before the
 * file; whoever touches a file under bundles/ does it while holding the
 * database's write lock (store_begin), so an add and an rm of the same
 * bundle cannot interleave.  A crash leaves at worst a file without rows,
 * which `archive gc` adopts.
 *
 * Ownership: struct store is caller-owned storage; store_open() fills it,
 * store_close() frees what it holds.  Strings returned by store_*_path()
 * are malloc'd and freed by the caller.
 */
#ifndef PLUMB_ARCHIVE_STORE_H
#define PLUMB_ARCHIVE_STORE_H

#include <stdint.h>

#include "archive/db.h"
#include "archive/sqlerr.h"

struct remote;

struct plumb_err;

#define STORE_MAGIC 0x41524348u   /* "ARCH": catches use after store_close() */
#define STORE_ID_LEN 64           /* a bundle id: 64 lower-case hex digits */

/* How long a writer waits for another one before giving up (exit 75). */
#define STORE_BUSY_MS SQLERR_BUSY_MS

struct store {
	unsigned magic;
	char *dir;          /* the archive folder (on PostgreSQL: the local store's) */
	char *db_path;      /* <dir>/archive.db, or the URL without its password: in messages */
	char *bundles_dir;  /* <dir>/bundles (with a remote store: where uploads are staged) */
	struct remote *remote; /* archive.conf's `store = rclone:...`, or NULL (archive/remote.h) */
	struct db *db;
	int in_txn;         /* inside store_begin() .. store_commit()/rollback() */
	int readonly;       /* opened with STORE_READONLY */
	int damaged;        /* the index answered that it is damaged (SQLITE_CORRUPT,
			       SQLITE_NOTADB, or quick_check): nothing it says is trusted */
	int checked;        /* store_quick_check() found it whole */
};

enum store_open_flags {
	STORE_CREATE = 1,   /* create the folder and an empty archive if missing */
	STORE_READONLY = 2  /* read only: SQLITE_OPEN_READONLY, and `immutable` when
	                       the folder is not writable (a read-only mount, another
	                       user's archive); nothing is migrated or written */
};

/*
 * The archive folder: dir when not NULL, else $PLUMB_ARCHIVE, else
 * $XDG_DATA_HOME/plumb (when absolute), else $HOME/.local/share/plumb.
 * dir and $PLUMB_ARCHIVE may be a postgresql:// (or postgres://) URL
 * instead (url_is_postgres(), common/url.h), which store_open() connects to.  *out is malloc'd.
 */
int store_locate(const char *dir, char **out, struct plumb_err *err);

/*
 * Open (and with STORE_CREATE create) the archive in dir: WAL, foreign
 * keys, busy timeout, and the schema migrated forward (archive/schema.h).
 * A missing archive without STORE_CREATE is PLUMB_EINPUT naming dir; an
 * archive newer than this program is PLUMB_EINPUT.  A store opened for
 * writing runs PRAGMA quick_check (store_quick_check()) once, before its
 * first write (the schema's upgrade here, else its first store_begin()):
 * a damaged archive.db is PLUMB_EINPUT before anything is written.  A
 * read-only open does not; its statements refuse the first page SQLite
 * finds damaged (store_db_err(), st->damaged).
 *
 * dir may be a postgresql:// URL: the index is that database (created
 * tables in it with STORE_CREATE; a database without them is "no archive"
 * otherwise) and the bundle files live in the local store folder,
 * $PLUMB_ARCHIVE_STORE, else "shared" beside the default archive folder
 * ($XDG_DATA_HOME/plumb/shared: its bundles/ and baselines.tsv).
 */
/* The hint every message about a damaged archive.db ends with (sqlerr.h). */
#define STORE_RECOVER_HINT SQLERR_RECOVER_HINT

/* PRAGMA quick_check: 0, or PLUMB_EINPUT saying how to recover. */
int store_quick_check(struct store *st, struct plumb_err *err);

/*
 * Before a look-up of a named thing (a baseline, a bundle id) that found
 * nothing says so: a damaged index page can hide a row without SQLite
 * noticing, so the index is checked once per open (store_quick_check(),
 * skipped when done already).  0 when it is whole.
 */
int store_check_miss(struct store *st, struct plumb_err *err);

int store_open(struct store *st, const char *dir, int flags,
	       struct plumb_err *err);

/* Close the database and free what st holds (harmless on a failed open). */
void store_close(struct store *st);

/* "<dir>/bundles/<id[0..2]>/<id>.plumb" for a full id, or NULL (no memory). */
char *store_bundle_path(const struct store *st, const char *id);

/* Nonzero when s is a full bundle id (64 lower-case hex digits). */
int store_is_id(const char *s);

/*
 * Take the write lock (BEGIN IMMEDIATE), waiting up to STORE_BUSY_MS for
 * other writers; PLUMB_ELOCKED after that.  The first of a store opened for
 * writing checks the file first (store_open()).  Every change to archive.db or
 * to files under bundles/ happens between store_begin() and store_commit().
 */
int store_begin(struct store *st, struct plumb_err *err);
int store_commit(struct store *st, struct plumb_err *err);
/* Roll back when a transaction is open; harmless otherwise. */
void store_rollback(struct store *st);

/*
 * Fill err for a failed database call: "<db>: <what>: <message>"
 * with the code that fits (disk full and I/O → PLUMB_EIO, busy →
 * PLUMB_ELOCKED, corrupt or not a database → PLUMB_EINPUT, else
 * PLUMB_EINTERNAL).  Returns the code.
 */
int store_db_err(struct store *st, int rc, const char *what,
		 struct plumb_err *err);

/* Prepare a statement; on failure fills err (naming the SQL) and returns NULL. */
struct db_stmt *store_prepare(struct store *st, const char *sql,
			    struct plumb_err *err);

/*
 * Resolve an id or a unique prefix of one (at least 4 hex digits) to the
 * full id (id_out, 65 bytes) and its row number.  Unknown: PLUMB_EINPUT
 * "no bundle <prefix> in the archive"; ambiguous: PLUMB_EINPUT listing the
 * candidates.
 */
int store_resolve(struct store *st, const char *prefix, char *id_out,
		  int64_t *rid, struct plumb_err *err);

#endif
