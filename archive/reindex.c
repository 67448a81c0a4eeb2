/*
 * archive/reindex.c: `plumb archive reindex`, archive.db rebuilt from what
 * the folder holds besides it: the bundle files (the truth of everything
 * indexed) and baselines.tsv (the one thing only the index knew).
 *
 * Separate from scrub.c because it replaces the database instead of
 * repairing it: the old file is moved aside first, then gc's adoption of
 * files without rows indexes every stored bundle again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/baseline.h"
#include "archive/scrub.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/url.h"
#include "common/fileio.h"
#include "common/path.h"
#include "common/banned.h"

/* Undo the side file's escapes in place (\\, \t, \n). */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*o++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* Move path aside to path + suffix, if it exists. */
static int move_aside(const char *path, const char *suffix, struct plumb_err *err)
{
	char *to = buf_strdupf("%s%s", path, suffix);
	int r = 0;

	if (!to)
		return plumb_err_oom(err, path);
	if (rename(path, to) < 0 && errno != ENOENT)
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "rename");
	free(to);
	return r;
}

/* Set every baseline of the side file again; the first failure is kept. */
static int restore_baselines(struct store *st, const char *dir, size_t *n,
			     struct plumb_err *err)
{
	char *path = path_join(dir, BASELINES_SIDE_FILE);
	struct plumb_err first;
	struct buf text;
	char *line, *next;
	int r, failed = 0;

	*n = 0;
	if (!path)
		return plumb_err_oom(err, BASELINES_SIDE_FILE);
	buf_init(&text, (size_t)64 << 20);
	r = file_read(path, (size_t)64 << 20, &text, err);
	if (r < 0) {
		int missing = access(path, F_OK) != 0;
		free(path);
		buf_release(&text);
		if (missing) {
			plumb_err_clear(err);
			return 0;   /* no baseline was ever set */
		}
		return r;
	}
	plumb_err_clear(&first);
	for (line = text.data; line && *line; line = next) {
		char *f[4];
		size_t k = 0;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strcmp(line, BASELINES_SIDE_HEADER) == 0 || !*line)
			continue;
		f[0] = line;
		for (char *p = line; *p && k < 3; p++)
			if (*p == '\t') {
				*p = '\0';
				f[++k] = p + 1;
			}
		if (k != 3) {
			if (!failed++)
				plumb_err_set(&first, PLUMB_EINPUT, "%s: a malformed line", path);
			continue;
		}
		for (k = 0; k < 4; k++)
			unescape(f[k]);
		if (baseline_set(st, f[0], f[1], f[2], *f[3] ? f[3] : NULL, NULL, err) < 0) {
			if (!failed++)
				first = *err;
			plumb_err_clear(err);
			continue;
		}
		(*n)++;
	}
	free(path);
	buf_release(&text);
	if (failed) {
		*err = first;
		return plumb_err_prefix(err, "reindex: %d baseline%s not restored", failed,
					failed == 1 ? "" : "s");
	}
	return 0;
}

int baseline_reindex(const char *dir, size_t *nbundles, size_t *nbaselines,
		     struct plumb_err *err)
{
	struct scrub_report rep;
	struct store st;
	char *db = path_join(dir, "archive.db");
	char *wal = path_join(dir, "archive.db-wal");
	char *shm = path_join(dir, "archive.db-shm");
	int r;

	*nbundles = *nbaselines = 0;
	if (url_is_postgres(dir)) {
		/* Its damage is the server's to repair; gc adopts what has no rows. */
		char *shown = url_redact(dir);
		r = plumb_err_set(err, PLUMB_EARG, "%s: reindex rebuilds a SQLite archive.db; an "
				  "index on PostgreSQL is restored from the server's backups "
				  "('plumb archive gc' indexes stored bundles that have no rows)",
				  shown ? shown : "postgresql://...");
		free(shown);
		goto out;
	}
	if (!db || !wal || !shm) {
		r = plumb_err_oom(err, "archive paths");
		goto out;
	}
	if (access(dir, W_OK) != 0 && errno == ENOENT) {
		r = plumb_err_set(err, PLUMB_EINPUT, "%s: no such archive folder: reindex rebuilds "
				  "the index of an existing archive", dir);
		goto out;
	}
	if (access(dir, W_OK) != 0) {
		r = plumb_err_set(err, PLUMB_EIO, "%s: the archive folder is read-only (%s): "
				  "reindex writes a new archive.db", dir, strerror(errno));
		goto out;
	}
	/* The damaged index is kept for whoever wants to look at it. */
	if ((r = move_aside(db, ".damaged", err)) < 0 ||
	    (r = move_aside(wal, ".damaged-wal", err)) < 0)
		goto out;
	if (unlink(shm) < 0 && errno != ENOENT) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, shm, "unlink");
		goto out;
	}
	if ((r = store_open(&st, dir, STORE_CREATE, err)) < 0)
		goto out;
	scrub_report_init(&rep);
	r = scrub_gc(&st, &rep, err);
	*nbundles = rep.nbundles;
	scrub_report_release(&rep);
	if (r == 0)
		r = restore_baselines(&st, dir, nbaselines, err);
	store_close(&st);
out:
	free(db);
	free(wal);
	free(shm);
	return r;
}
