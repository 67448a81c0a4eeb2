/*
 * archive/bundles.h: putting bundles into the archive and taking them out.
 *
 * store_add() is the one way in, for `plumb archive add` and for
 * `plumb run --archive`: verify, copy into the store atomically, then
 * insert the rows in one transaction.  store_remove() is the way out: rows
 * first (committed), then the file.
 *
 * Ownership: results are written into caller storage; nothing to free.
 */
#ifndef PLUMB_ARCHIVE_BUNDLES_H
#define PLUMB_ARCHIVE_BUNDLES_H

#include <stdint.h>

#include "archive/store.h"

struct plumb_err;

enum store_add_status {
	STORE_ADDED,     /* new rows and a new file */
	STORE_PRESENT,   /* already archived: nothing changed */
	STORE_RESTORED,  /* rows were there, their missing or damaged file was replaced */
	STORE_REPLACED   /* a better signed copy replaced the stored file (recorded) */
};

struct store_added {
	char id[STORE_ID_LEN + 1];
	enum store_add_status status;
	char old_key[17], new_key[17];    /* STORE_REPLACED: the key ids, "" unsigned */
};

/*
 * Add the bundle file at path.  A bundle that does not verify is
 * PLUMB_EINPUT; a full disk is PLUMB_EIO naming the path, with nothing
 * half-written left behind and the archive as it was.
 */
int store_add(struct store *st, const char *path, struct store_added *out,
	      struct plumb_err *err);

/*
 * store_add(), checking the bundle's signature with pubkey when not NULL
 * (a signature by another key is PLUMB_EINPUT).  The signature is part of
 * what is compared with a stored copy of the same id: a signed copy
 * replaces a stored unsigned one, and a copy good with pubkey replaces a
 * stored one not signed by that key; atomically (rename), the row updated
 * and the replacement recorded in table replacements.  out->old_key and
 * out->new_key say whose signatures they were ("" for none).
 */
struct sign_public_key;
int store_add_key(struct store *st, const char *path, const struct sign_public_key *pubkey,
		  struct store_added *out, struct plumb_err *err);

/* What store_add_with() is told besides the file (zero: store_add()). */
struct store_add_opts {
	const struct sign_public_key *pubkey; /* as store_add_key(), or NULL */
	const char *name;       /* what messages call the file (NULL: its path), such as
				 * the remote path of a downloaded copy */
	const char *expect_id;  /* NULL, or the id the file must hold: another bundle is
				 * PLUMB_EINPUT "<name>: holds bundle X, not Y" before
				 * anything is copied or indexed */
	int nofollow;           /* a symbolic link at path is refused (a store's own file) */
};

/* store_add_key() with the options above: `archive push` and `pull`. */
int store_add_with(struct store *st, const char *path, const struct store_add_opts *o,
		   struct store_added *out, struct plumb_err *err);

/*
 * Remove a bundle (full id or unique prefix): its rows, then its file.
 * A bundle that a baseline names is refused (PLUMB_EINPUT naming the
 * baseline).  id_out (65 bytes) receives the full id.
 */
int store_remove(struct store *st, const char *prefix, char *id_out,
		 struct plumb_err *err);

/* SHA-256 (hex, 65 bytes) and size of a whole file; errors name path. */
int store_hash_file(const char *path, char *hex, int64_t *size,
		    struct plumb_err *err);

/*
 * Copy the open file fd (named src in messages) to dest atomically
 * (common/fileio.h), computing its SHA-256 and size on the way.
 */
int store_copy_file(int fd, const char *src, const char *dest, char *hex,
		    int64_t *size, struct plumb_err *err);

/*
 * Where bundle id's file can be read (*path, malloc'd): in the store's
 * folder, or for a remote store a copy downloaded into a temporary file of
 * $TMPDIR, which the caller removes (st->remote set) when done.  *name
 * (malloc'd; not asked when name is NULL) is what messages call it: the
 * path in the folder, or the file's place on the remote, never the
 * temporary copy.  A remote file rclone cannot download (missing, a link
 * the remote does not follow) is PLUMB_EINPUT naming that place.
 */
int store_fetch(struct store *st, const char *id, char **path, char **name,
		struct plumb_err *err);

/* The folder part of path, created if missing. */
int store_make_parent(const char *path, struct plumb_err *err);

#endif
