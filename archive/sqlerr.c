/*
 * archive/sqlerr.c: the database's result codes as plumb errors; see sqlerr.h.
 */
#include <errno.h>
#include <stdio.h>

#include <sqlite3.h>

#include "archive/db.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "archive/sqlerr.h"
#include "common/banned.h"

int sqlerr_set(struct db *db, const char *path, int rc, const char *what,
	       struct plumb_err *err)
{
	const char *msg = db ? db_errmsg(db) : sqlite3_errstr(rc);
	int sys = db_system_errno(db);
	int code;

	switch (rc & 0xff) {
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
		code = PLUMB_EIO;
		break;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		/* The wait was given up for a signal (db.c): that is what happened. */
		if (cleanup_signal_pending())
			return plumb_err_set(err, PLUMB_EINTERNAL, "%s: %s: stopped by signal %d while "
					     "waiting for another process's lock", path, what,
					     cleanup_signal_pending());
		return plumb_err_set(err, PLUMB_ELOCKED,
				     "%s: %s: another process held the archive for more than %d s (%s)",
				     path, what, SQLERR_BUSY_MS / 1000, msg);
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %s: the archive database is damaged "
				     "(%s); %s", path, what, msg, SQLERR_RECOVER_HINT);
	case SQLITE_NOMEM:
		return plumb_err_oom(err, what);
	default:
		code = PLUMB_EINTERNAL;
		break;
	}
	/* SQLite reports a full disk as SQLITE_FULL, not always with its errno. */
	if ((rc & 0xff) == SQLITE_FULL && sys == 0)
		sys = ENOSPC;
	if (code == PLUMB_EIO && sys != 0) {
		char what_msg[256];
		snprintf(what_msg, sizeof(what_msg), "%s (%s)", what, msg);
		return plumb_err_errno(err, code, sys, path, what_msg);
	}
	return plumb_err_set(err, code, "%s: %s: %s", path, what, msg);
}
