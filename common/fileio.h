/*
 * common/fileio.h: whole-or-nothing file writes, bounded reads, and the
 * temporary-file registry that signal handlers clean up.
 *
 * Temporary files are registered with common/cleanup.h while they exist.
 *
 * Every file plumb publishes (bundles, archive copies, reports written with
 * -o) goes through struct atomic_file: an unnamed file (O_TMPFILE) in the
 * destination's folder, fsync, linkat to its name (to a temporary name and
 * rename when the destination exists), fsync of the folder.  Where the file
 * system has no O_TMPFILE, a temporary file ".<name>.tmp.<pid>.XXXXXX"
 * beside the destination and rename.  A failure or a signal leaves the
 * destination as it was and no temporary file behind; a SIGKILL may leave a
 * temporary name with the dead writer's pid, which the next atomic_file_open()
 * or tempfile_open_unnamed() in that folder removes (tempfile_sweep()).
 *
 * Ownership: struct atomic_file is caller-owned storage; after
 * atomic_file_open() succeeds the caller must call exactly one of
 * atomic_file_commit() or atomic_file_abort(), which free what it holds.
 */
#ifndef PLUMB_COMMON_FILEIO_H
#define PLUMB_COMMON_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct buf;
struct plumb_err;

struct atomic_file {
	int fd;          /* open for writing, -1 once finished */
	char *path;      /* the destination */
	char *tmp_path;  /* "<dir>/.<name>.tmp.<pid>.XXXXXX" beside it; when
			  * unnamed, the destination (for messages) */
	int unnamed;     /* fd is an O_TMPFILE file */
};

/* Create the temporary file beside path with the given mode (umask ignored). */
int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct plumb_err *err);

/* Write all of len bytes to the temporary file. */
int atomic_file_write(struct atomic_file *af, const void *data, size_t len,
		      struct plumb_err *err);

/*
 * fsync, close, rename over path, fsync the folder.  On failure: aborted,
 * and nothing new at path: a file whose folder could not be synced after
 * it got its name is removed again ("<path>: removed again: written, but
 * its folder could not be synced (...)"), since a crash could lose it.
 */
int atomic_file_commit(struct atomic_file *af, struct plumb_err *err);

/*
 * fsync, close, link to path, fsync the folder, unless path exists: then
 * it is left as it is.  1 when path was made, 0 when it existed (af is
 * finished either way), or an error.
 */
int atomic_file_commit_new(struct atomic_file *af, struct plumb_err *err);

/* Close and remove the temporary file; path is untouched. */
void atomic_file_abort(struct atomic_file *af);

/*
 * A read-write scratch file in the folder of beside that disappears with
 * the process whatever happens: O_TMPFILE, else a pid-bearing name
 * ".<base>.<tag>.<pid>.XXXXXX" unlinked at once.  *label (caller frees) is
 * what messages about it name.  Returns the fd, or a negative code.
 */
int tempfile_open_unnamed(const char *beside, const char *tag, char **label,
			  struct plumb_err *err);

/*
 * Remove from dir ("" for the current folder) the temporary names of dead
 * writers (".<name>.tmp.<pid>.XXXXXX", ".<name>.spool.<pid>.XXXXXX" whose
 * pid is no process); returns how many were removed.
 */
int tempfile_sweep(const char *dir);

/* Write all of len bytes to fd, retrying on EINTR; errors name path. */
int write_all(int fd, const void *data, size_t len, const char *path,
	      struct plumb_err *err);

/* fsync the folder holding path (or path itself when it is a folder). */
int fsync_parent(const char *path, struct plumb_err *err);

/*
 * Open a file that came from outside (a bundle, an imported file, a
 * store's file) for reading, never blocking on it: it is opened with
 * O_NONBLOCK (a FIFO without a writer, a device), then anything but a
 * regular file is closed unread and refused, PLUMB_EINPUT "<path>: not a
 * regular file (a FIFO)".  flags are added to the open(2) flags: O_NOFOLLOW
 * where a symbolic link is not allowed (refused the same way).  Returns
 * the descriptor (blocking again, close-on-exec) and, when size is not
 * NULL, the file's size; or a negative code naming the path: missing,
 * unreadable or not a regular file PLUMB_EINPUT, anything else PLUMB_EIO.
 * Every reader of outside files opens them here.
 */
int file_open_regular(const char *path, int flags, uint64_t *size,
		      struct plumb_err *err);

/*
 * Read a whole regular file (file_open_regular()) into out (appended,
 * NUL-terminated).  A file larger than max bytes is PLUMB_EINPUT
 * "<path>: larger than <max> bytes"; a missing, unreadable or
 * non-regular one is PLUMB_EINPUT naming the path.
 */
int file_read(const char *path, size_t max, struct buf *out,
	      struct plumb_err *err);

/* Create a folder and its parents (mode 0755 less umask); existing is fine. */
int mkdir_p(const char *path, struct plumb_err *err);

#endif
