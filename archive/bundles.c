/*
 * archive/bundles.c: adding a bundle to the store and removing one, in
 * the order that keeps "rows only while the file exists" true across a
 * crash at any instruction (store.h).
 *
 * add:    verify (outside the lock) → BEGIN IMMEDIATE → copy to a
 *         temporary file, fsync, rename, fsync the folder → insert rows →
 *         COMMIT.  A crash before COMMIT leaves a file without rows.
 * remove: BEGIN IMMEDIATE → delete rows → COMMIT → BEGIN IMMEDIATE →
 *         unlink the file unless the bundle came back meanwhile → end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive/bundles.h"
#include "archive/ingest.h"
#include "archive/remote.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/path.h"
#include "common/fileio.h"
#include "formats/digest.h"
#include "common/banned.h"

#define COPY_CHUNK (256 * 1024)

/* Read up to len bytes, retrying EINTR; returns bytes read or -1. */
static ssize_t read_some(int fd, void *p, size_t len)
{
	ssize_t n;

	do {
		n = read(fd, p, len);
	} while (n < 0 && errno == EINTR);
	return n;
}

int store_hash_file(const char *path, char *hex, int64_t *size,
		    struct plumb_err *err)
{
	unsigned char sum[DIGEST_BYTES];
	unsigned char *chunk;
	struct digest d;
	int64_t total = 0;
	int fd, r = 0;

	/* A store's files are its own regular files: a link or a FIFO is refused unread. */
	fd = file_open_regular(path, O_NOFOLLOW, NULL, err);
	if (fd < 0)
		return fd;
	chunk = malloc(COPY_CHUNK);
	if (!chunk) {
		close(fd);
		return plumb_err_oom(err, path);
	}
	if ((r = digest_init(&d, 0, err)) < 0) {
		free(chunk);
		close(fd);
		return r;
	}
	for (;;) {
		ssize_t n = read_some(fd, chunk, COPY_CHUNK);
		if (n < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, path, "read");
			break;
		}
		if (n == 0)
			break;
		if ((r = digest_update(&d, chunk, (size_t)n, err)) < 0)
			break;
		total += n;
	}
	free(chunk);
	close(fd);
	if (r < 0) {
		digest_release(&d);
		return r;
	}
	if ((r = digest_final(&d, sum, err)) < 0)
		return r;
	digest_hex(sum, hex);
	*size = total;
	return 0;
}

/*
 * The copy, with one more check before publishing: the source must still
 * be the file that was verified (same size, same modification and change
 * times), or the store would hold bytes nobody verified.
 */
static int copy_checked(int fd, const char *src, const char *dest,
			const struct stat *expect, char *hex, int64_t *size,
			struct plumb_err *err)
{
	unsigned char sum[DIGEST_BYTES];
	struct atomic_file af;
	unsigned char *chunk;
	struct digest d;
	int64_t total = 0;
	int r;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, src, "seek");
	chunk = malloc(COPY_CHUNK);
	if (!chunk)
		return plumb_err_oom(err, src);
	if ((r = digest_init(&d, 0, err)) < 0) {
		free(chunk);
		return r;
	}
	/* Bundles are immutable once stored: read-only for everyone. */
	if ((r = atomic_file_open(&af, dest, 0444, err)) < 0) {
		digest_release(&d);
		free(chunk);
		return r;
	}
	for (;;) {
		ssize_t n = read_some(fd, chunk, COPY_CHUNK);
		if (n < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, src, "read");
			break;
		}
		if (n == 0)
			break;
		if ((r = digest_update(&d, chunk, (size_t)n, err)) < 0 ||
		    (r = atomic_file_write(&af, chunk, (size_t)n, err)) < 0)
			break;
		total += n;
	}
	free(chunk);
	if (r == 0 && expect) {
		struct stat now;
		if (fstat(fd, &now) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, src, "stat");
		} else if (now.st_size != expect->st_size || total != expect->st_size ||
			   now.st_mtim.tv_sec != expect->st_mtim.tv_sec ||
			   now.st_mtim.tv_nsec != expect->st_mtim.tv_nsec ||
			   now.st_ctim.tv_sec != expect->st_ctim.tv_sec ||
			   now.st_ctim.tv_nsec != expect->st_ctim.tv_nsec) {
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "%s: changed while being added; try again", src);
		}
	}
	if (r < 0) {
		digest_release(&d);
		atomic_file_abort(&af);
		return r;
	}
	if ((r = digest_final(&d, sum, err)) < 0) {
		atomic_file_abort(&af);
		return r;
	}
	if ((r = atomic_file_commit(&af, err)) < 0)
		return r;
	digest_hex(sum, hex);
	*size = total;
	return 0;
}

int store_copy_file(int fd, const char *src, const char *dest, char *hex,
		    int64_t *size, struct plumb_err *err)
{
	return copy_checked(fd, src, dest, NULL, hex, size, err);
}

/* The row of an id: *found, and its row number and recorded size. */
/* The stored copy's signature: state and key id ("" when none or unknown). */
struct stored_sig {
	char state[16];
	char key[17];
};

static int lookup_sig(struct store *st, const char *id, int *found, int64_t *rid,
		      int64_t *size, struct stored_sig *sig, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "SELECT rid, size, signature, sig_key FROM bundles"
					" WHERE id = ?1", err);
	int rc;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, id);
	rc = db_step(s);
	*found = rc == DB_ROW;
	if (*found) {
		*rid = db_column_int64(s, 0);
		*size = db_column_int64(s, 1);
		if (sig) {
			const char *t = db_column_text(s, 2), *k = db_column_text(s, 3);
			snprintf(sig->state, sizeof(sig->state), "%s", t ? t : "none");
			snprintf(sig->key, sizeof(sig->key), "%s", k ? k : "");
		}
	}
	db_finalize(s);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_db_err(st, rc, "look up bundle", err);
	return 0;
}

static int lookup(struct store *st, const char *id, int *found, int64_t *rid,
		  int64_t *size, struct plumb_err *err)
{
	return lookup_sig(st, id, found, rid, size, NULL, err);
}

/*
 * Is the new copy better signed than the stored one?  Signed beats
 * unsigned; a signature checked good with the key given beats any stored
 * signature that is not that key's.  Without a key, two signatures by
 * different keys cannot be told apart: the stored one stays.
 */
static int better_signed(const struct ingest_record *rec, const struct stored_sig *old)
{
	if (!rec->sig_key[0])
		return 0;
	if (strcmp(old->state, "none") == 0)
		return 1;
	if (strcmp(rec->signature, "verified") == 0)
		return strcmp(old->key, rec->sig_key) != 0 || strcmp(old->state, "verified") != 0;
	return 0;
}

static int restore_row(struct store *st, int64_t rid, const struct ingest_record *rec,
		       struct plumb_err *err);

/* The row takes the new file's figures, and the replacement is recorded. */
static int replace_row(struct store *st, int64_t rid, const struct ingest_record *rec,
		       const struct stored_sig *old, struct plumb_err *err)
{
	struct db_stmt *s;
	int rc;

	if ((rc = restore_row(st, rid, rec, err)) < 0)
		return rc;
	s = store_prepare(st, "INSERT INTO replacements (bundle, at, old_signature, old_key,"
			  " new_signature, new_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", err);
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_int64(s, 1, rid);
	db_bind_int64(s, 2, (int64_t)time(NULL));
	db_bind_text(s, 3, old->state);
	if (old->key[0])
		db_bind_text(s, 4, old->key);
	db_bind_text(s, 5, rec->signature);
	db_bind_text(s, 6, rec->sig_key);
	rc = db_step(s);
	db_finalize(s);
	if (rc != DB_DONE)
		return store_db_err(st, rc, "record the replacement", err);
	return 0;
}

/* Nonzero when the stored file exists with the size its row records. */
static int file_ok(const char *path, int64_t size)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == size;
}

/*
 * Is the stored file there?  Locally: at the size its row records.  On a
 * remote store: the remote has a file under the bundle's name (what it
 * holds was hashed when it was uploaded; `archive verify` hashes it again).
 */
static int stored_ok(struct store *st, const char *id, const char *path, int64_t size,
		     int *ok, struct plumb_err *err)
{
	char sha[STORE_ID_LEN + 1];

	if (!st->remote) {
		*ok = file_ok(path, size);
		return 0;
	}
	return remote_sha256(st->remote, id, sha, ok, err);
}

/*
 * The copy staged at dest goes to the remote store (verified there), and
 * the staged copy is removed whatever happened.
 */
static int upload(struct store *st, const char *dest, const struct ingest_record *rec,
		  struct plumb_err *err)
{
	int r = remote_put(st->remote, dest, rec->id, rec->file_sha256, err);

	(void)unlink(dest);
	return r;
}

int store_make_parent(const char *path, struct plumb_err *err)
{
	char *dir;
	int r;

	if (!strchr(path, '/'))
		return 0;
	dir = path_dirname(path);
	if (!dir)
		return plumb_err_oom(err, path);
	r = mkdir_p(dir, err);
	free(dir);
	return r;
}

static int restore_row(struct store *st, int64_t rid, const struct ingest_record *rec,
		       struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(st, "UPDATE bundles SET file_sha256 = ?1, size = ?2,"
					" signature = ?3, sig_key = ?5, sig_comment = ?6"
					" WHERE rid = ?4", err);
	int rc;

	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, rec->file_sha256);
	db_bind_int64(s, 2, rec->size);
	db_bind_text(s, 3, rec->signature);
	db_bind_int64(s, 4, rid);
	if (rec->sig_key[0]) {
		db_bind_text(s, 5, rec->sig_key);
		if (rec->sig_comment)
			db_bind_text(s, 6, rec->sig_comment);
	}
	rc = db_step(s);
	db_finalize(s);
	if (rc != DB_DONE)
		return store_db_err(st, rc, "update bundle", err);
	return 0;
}

/*
 * After a failed add: remove the file it published, unless rows for it
 * exist after all.  Done under the lock, like every change to bundles/;
 * if even that fails, the file stays as a file without rows for gc.
 */
static void discard_copy(struct store *st, const char *id, const char *dest)
{
	struct plumb_err ignored;
	int64_t rid, size;
	int found;

	plumb_err_clear(&ignored);
	if (store_begin(st, &ignored) < 0)
		return;
	if (lookup(st, id, &found, &rid, &size, &ignored) == 0 && !found) {
		char rel[96];
		if (st->remote) {
			remote_rel(id, rel, sizeof(rel));
			(void)remote_delete(st->remote, rel, &ignored);
		} else if (unlink(dest) == 0) {
			fsync_parent(dest, &ignored);
		}
	}
	store_rollback(st);
}

int store_add(struct store *st, const char *path, struct store_added *out,
	      struct plumb_err *err)
{
	return store_add_key(st, path, NULL, out, err);
}

int store_add_key(struct store *st, const char *path, const struct sign_public_key *pubkey,
		  struct store_added *out, struct plumb_err *err)
{
	struct store_add_opts o;

	memset(&o, 0, sizeof(o));
	o.pubkey = pubkey;
	return store_add_with(st, path, &o, out, err);
}

int store_add_with(struct store *st, const char *path, const struct store_add_opts *o,
		   struct store_added *out, struct plumb_err *err)
{
	const char *name = o->name ? o->name : path;
	struct stored_sig old;
	struct ingest_record rec;
	struct stat before;
	char *dest = NULL;
	int64_t rid = 0, size = 0;
	int fd, found, r, copied = 0, was_ok;

	memset(out, 0, sizeof(*out));
	ingest_record_init(&rec);
	/* Hold the file open so the bytes copied are the bytes verified. */
	fd = file_open_regular(path, o->nofollow ? O_NOFOLLOW : 0, NULL, err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &before) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, name, "stat");
		goto out;
	}
	/* Verify the very file that will be copied: same descriptor. */
	if ((r = ingest_read_bundle_fd_key(fd, name, o->pubkey, &rec, err)) < 0)
		goto out;
	/* A file that is not the bundle it was fetched as: nothing of it is indexed. */
	if (o->expect_id && strcmp(rec.id, o->expect_id) != 0) {
		r = plumb_err_set(err, PLUMB_EINPUT, "%s: holds bundle %s, not %s", name, rec.id,
				  o->expect_id);
		goto out;
	}
	memcpy(out->id, rec.id, sizeof(out->id));
	dest = store_bundle_path(st, rec.id);
	if (!dest) {
		r = plumb_err_oom(err, "bundle path");
		goto out;
	}
	/* Already there (and no better signed): answer without taking the write lock. */
	/* (A remote store keeps the first copy: rclone moveto --immutable replaces nothing.) */
	if ((r = lookup_sig(st, rec.id, &found, &rid, &size, &old, err)) < 0 ||
	    (found && (r = stored_ok(st, rec.id, dest, size, &was_ok, err)) < 0))
		goto out;
	if (found && was_ok && (st->remote || !better_signed(&rec, &old))) {
		out->status = STORE_PRESENT;
		goto out;
	}

	if ((r = store_begin(st, err)) < 0)
		goto out;
	was_ok = 0;
	if ((r = lookup_sig(st, rec.id, &found, &rid, &size, &old, err)) < 0 ||
	    (found && (r = stored_ok(st, rec.id, dest, size, &was_ok, err)) < 0))
		goto rollback;
	if (found && was_ok && (st->remote || !better_signed(&rec, &old))) {
		out->status = STORE_PRESENT;
		store_rollback(st);
		goto out;
	}
	/* Written to the store (and, on a remote, verified there) before its row. */
	if ((r = store_make_parent(dest, err)) < 0 ||
	    (r = copy_checked(fd, name, dest, &before, rec.file_sha256, &rec.size, err)) < 0 ||
	    (st->remote && (r = upload(st, dest, &rec, err)) < 0))
		goto rollback;
	copied = !found;
	if (was_ok) {
		/* The file was renamed over the stored one: the same bundle, better signed. */
		r = replace_row(st, rid, &rec, &old, err);
		out->status = STORE_REPLACED;
		snprintf(out->old_key, sizeof(out->old_key), "%s", old.key);
		snprintf(out->new_key, sizeof(out->new_key), "%s", rec.sig_key);
	} else if (found) {
		r = restore_row(st, rid, &rec, err);
		out->status = STORE_RESTORED;
	} else {
		r = ingest_insert(st, &rec, &rid, err);
		out->status = STORE_ADDED;
	}
	if (r < 0)
		goto rollback;
	if ((r = store_commit(st, err)) < 0)
		goto discard;
	goto out;
rollback:
	store_rollback(st);
discard:
	/* The rows did not make it: take back the file published for them. */
	if (copied)
		discard_copy(st, rec.id, dest);
out:
	close(fd);
	free(dest);
	ingest_record_release(&rec);
	return r;
}

int store_remove(struct store *st, const char *prefix, char *id_out,
		 struct plumb_err *err)
{
	char id[STORE_ID_LEN + 1];
	struct db_stmt *s;
	int64_t rid, size;
	char *path = NULL;
	int rc, r, found;

	if ((r = store_begin(st, err)) < 0)
		return r;
	if ((r = store_resolve(st, prefix, id, &rid, err)) < 0)
		goto rollback;
	s = store_prepare(st, "SELECT name FROM baselines WHERE bundle = ?1 ORDER BY name LIMIT 1", err);
	if (!s) {
		r = err ? err->code : PLUMB_EINTERNAL;
		goto rollback;
	}
	db_bind_int64(s, 1, rid);
	rc = db_step(s);
	if (rc == DB_ROW) {
		r = plumb_err_set(err, PLUMB_EINPUT,
				  "bundle %s is baseline '%s': 'plumb archive baseline rm %s' first",
				  id, db_column_text(s, 0),
				  db_column_text(s, 0));
	} else if (rc != DB_DONE) {
		r = store_db_err(st, rc, "look up baselines", err);
	}
	db_finalize(s);
	if (r < 0)
		goto rollback;
	s = store_prepare(st, "DELETE FROM bundles WHERE rid = ?1", err);
	if (!s) {
		r = err ? err->code : PLUMB_EINTERNAL;
		goto rollback;
	}
	db_bind_int64(s, 1, rid);
	rc = db_step(s);
	db_finalize(s);
	if (rc != DB_DONE) {
		r = store_db_err(st, rc, "delete bundle", err);
		goto rollback;
	}
	if ((r = store_commit(st, err)) < 0)
		return r;
	snprintf(id_out, STORE_ID_LEN + 1, "%s", id);

	/* The rows are gone for good; now the file, unless it was re-added. */
	if ((r = store_begin(st, err)) < 0)
		return r;
	if ((r = lookup(st, id, &found, &rid, &size, err)) < 0)
		goto rollback;
	if (!found) {
		path = store_bundle_path(st, id);
		if (!path) {
			r = plumb_err_oom(err, "bundle path");
			goto rollback;
		}
		if (st->remote) {
			char rel[96];
			remote_rel(id, rel, sizeof(rel));
			r = remote_delete(st->remote, rel, err);
			goto rollback;
		}
		if (unlink(path) < 0 && errno != ENOENT) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, path, "remove");
			goto rollback;
		}
		r = fsync_parent(path, err);
	}
rollback:
	store_rollback(st);
	free(path);
	return r;
}

int store_fetch(struct store *from, const char *id, char **path, char **name,
		struct plumb_err *err)
{
	const char *tmp = getenv("TMPDIR");
	char local[4096], rel[96];
	struct buf where;
	int fd, r;

	*path = NULL;
	if (name)
		*name = NULL;
	if (!from->remote) {
		if (!(*path = store_bundle_path(from, id)) || (name && !(*name = strdup(*path)))) {
			free(*path);
			*path = NULL;
			return plumb_err_oom(err, "bundle path");
		}
		return 0;
	}
	buf_init(&where, 8192);
	remote_rel(id, rel, sizeof(rel));
	if (name && (buf_printf(&where, "%s/%s", from->remote->name, rel) < 0 ||
		     !(*name = buf_detach(&where, NULL)))) {
		buf_release(&where);
		return plumb_err_oom(err, "bundle path");
	}
	snprintf(local, sizeof(local), "%s/plumb-pull.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if ((fd = mkstemp(local)) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, local, "create");
		goto fail;
	}
	close(fd);
	if ((r = remote_get(from->remote, id, local, err)) < 0) {
		(void)unlink(local);
		goto fail;
	}
	if (!(*path = strdup(local))) {
		(void)unlink(local);
		r = plumb_err_oom(err, "bundle path");
		goto fail;
	}
	return 0;
fail:
	if (name) {
		free(*name);
		*name = NULL;
	}
	return r;
}
