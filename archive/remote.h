/*
 * archive/remote.h: an archive's bundle files on an rclone remote.
 *
 * An archive folder may hold archive.conf, whose line
 * `store = rclone:REMOTE:PATH` puts its bundle files on any remote that
 * rclone reaches (S3, SFTP, a WebDAV share...), under the same layout as
 * the local store: PATH/ab/<id>.plumb.  The index stays where it is.
 *
 * rclone runs as a child process, never through a shell, under plumb's
 * process harness (sys/proc.h: own process group, timeout, capped output,
 * reaped); this file builds its argument vectors and reads its output.
 *
 * An upload goes to a temporary name beside its final one
 * (ab/.<id>.plumb.tmp.<pid>), is renamed with `rclone moveto --immutable`
 * (which refuses to change a file already there with other bytes), and is
 * then hashed by the remote (`rclone hashsum sha256`) and compared with
 * the SHA-256 of the verified local file: only then does its row get
 * written.  An interrupted upload leaves at worst a temporary name, which
 * `archive verify` reports and `archive gc` removes, never a file under a
 * bundle's name.
 *
 * Ownership: struct remote is malloc'd by remote_from_conf() and freed by
 * remote_free(); the listing of remote_list() by remote_files_free().
 */
#ifndef PLUMB_ARCHIVE_REMOTE_H
#define PLUMB_ARCHIVE_REMOTE_H

#include <stddef.h>

struct buf;
struct plumb_err;

struct remote {
	char *where;   /* "REMOTE:PATH" as rclone takes it, without a trailing '/' */
	char *name;    /* "rclone:REMOTE:PATH", for messages */
};

/*
 * Read <dir>/archive.conf when there is one: *out is NULL when it is
 * missing or names no store.  Any other key, a line that is not
 * `key = value`, or a store that is not rclone:REMOTE:PATH is PLUMB_EINPUT
 * naming the file and line.
 */
int remote_from_conf(const char *dir, struct remote **out, struct plumb_err *err);
void remote_free(struct remote *r);

/* "ab/<id>.plumb" (rel, 80 bytes) of a full id. */
void remote_rel(const char *id, char *rel, size_t size);

/*
 * Upload the local file to the bundle's place and check that what the
 * remote holds there hashes to sha (64 hex).  Otherwise PLUMB_EIO (the
 * file is removed again when the hashes differ).
 */
int remote_put(const struct remote *r, const char *local, const char *id, const char *sha,
	       struct plumb_err *err);

/*
 * Download a bundle's file to local (created or replaced).  When rclone
 * ran and failed on that one file (missing, a symbolic link it does not
 * follow...), PLUMB_EINPUT naming the file's place on the remote; when it
 * could not run, was killed, or failed for the remote as a whole
 * (rclone's exit statuses 5, 7, 8), PLUMB_EIO.
 */
int remote_get(const struct remote *r, const char *id, const char *local,
	       struct plumb_err *err);

/* The SHA-256 of the bundle's file on the remote: *found 0 when there is none. */
int remote_sha256(const struct remote *r, const char *id, char *sha, int *found,
		  struct plumb_err *err);

struct remote_file {
	char *rel;                /* relative to PATH */
	char sha[65];             /* its SHA-256, "" when the remote gave none */
};

/* Every file under PATH with its SHA-256, in one `rclone hashsum`. */
int remote_list(const struct remote *r, struct remote_file **files, size_t *n,
		struct plumb_err *err);
void remote_files_free(struct remote_file *files, size_t n);

/* Remove PATH/rel; a file already gone is no error. */
int remote_delete(const struct remote *r, const char *rel, struct plumb_err *err);

#endif
