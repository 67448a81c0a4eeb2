/*
 * runner/buildcache-internal.h: an entry's tree as a list of what it holds
 * (runner/buildcache-tree.c), the manifest buildcache.c writes into an
 * entry when it stores it and checks the entry and the restored tree
 * against.  Nothing outside runner/buildcache*.c includes it.
 *
 * A list is in walk order: each folder's names sorted byte-wise, a folder
 * before what it holds, so two walks of the same tree give the same list
 * and lists compare item by item.
 *
 * Ownership: struct cachetree is caller-owned storage, zeroed to start;
 * cachetree_release() frees its items and their paths.
 */
#ifndef PLUMB_RUNNER_BUILDCACHE_INTERNAL_H
#define PLUMB_RUNNER_BUILDCACHE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct buf;
struct plumb_err;

#define CACHETREE_ITEMS_MAX 1000000   /* files and folders in one entry */

struct cachetree_item {
	char *path;          /* below the tree's root, '/'-separated */
	int dir;             /* a folder, else a regular file */
	unsigned mode;       /* the permission bits */
	uint64_t size;       /* a file's bytes */
	char sha256[65];     /* a file's content; "" when not hashed */
};

struct cachetree {
	struct cachetree_item *v;
	size_t n, cap;
};

enum {
	CACHETREE_HASH = 1,   /* hash every file */
	CACHETREE_OWNED = 2,  /* every item must be this user's and not group- or world-writable */
	CACHETREE_SEAL = 4    /* first take the group and world write and set-id bits off each item */
};

/*
 * Walk root/sub (sub NULL: what root holds, root itself not listed) into
 * out, never following a symbolic link.  A symbolic link or any other
 * file that is not a regular file or a folder is an error, and so is an
 * item that CACHETREE_OWNED refuses; messages name the item as
 * "<label>/<path>".  Stops with an error when plumb is asked to stop.
 */
int cachetree_scan(const char *root, const char *sub, const char *label, unsigned flags,
		   struct cachetree *out, struct plumb_err *err);

/* Whether st (of the item named name) is this user's and not group- or
 * world-writable; PLUMB_EINPUT saying which when not. */
int cachetree_owned(const struct stat *st, const char *name, struct plumb_err *err);

void cachetree_release(struct cachetree *t);

/* The list as manifest lines: "dir MODE PATH", "file MODE SIZE SHA256 PATH"
 * (a newline or backslash in a path written \n, \\). */
int cachetree_write(const struct cachetree *t, struct buf *out);

/* A path as one line: a newline or backslash in it written \n, \\, then a
 * newline; cachetree_unescape() undoes the escapes in place (-1 on a stray
 * backslash). */
int cachetree_put_path(struct buf *out, const char *path);
int cachetree_unescape(char *s);

/* Add the item of one manifest line (line is changed); -1 when it is not one. */
int cachetree_parse_line(struct cachetree *t, char *line);

/*
 * Whether got lists what want lists at or below sub (sub NULL: all of
 * want), item for item: path, kind, mode, size, and with hashed the
 * SHA-256.  0, or -1 with why ("tree/Makefile: its SHA-256 is not the
 * manifest's"); label as for cachetree_scan().
 */
int cachetree_compare(const struct cachetree *want, const char *sub, const struct cachetree *got,
		      int hashed, const char *label, char *why, size_t why_size);

#endif
