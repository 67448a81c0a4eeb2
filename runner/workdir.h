/*
 * runner/workdir.h: the folders a run lives in, and copying and removing
 * whole trees.
 *
 * A work folder (--workdir, default $XDG_CACHE_HOME/plumb/runs) holds one
 * lock file, the run folders, named run-<UTC time>-<pid>, and what every
 * run uses at the same path:
 *
 *   build/<tree id>    where each commit's variants build (base, candidate,
 *                      whichever side it is on: runner/build.c)
 *   pad/00 ... pad/NN  the pad objects
 *
 * Inside a run folder every variant has a folder of the same path length
 * (DESIGN §5.3):
 *
 *   src/b  src/c       the exported trees of base and candidate
 *   v/b00 ... v/cNN    the variants, moved here once built; v/k00 is the control
 *   log/b00.log ...    their build logs
 *
 * Trees are copied with file modes, symbolic links and nanosecond
 * timestamps kept, so make sees a copied build as up to date.
 *
 * Ownership: paths are appended to caller-owned struct buf; nothing else is
 * allocated for the caller.
 */
#ifndef PLUMB_RUNNER_WORKDIR_H
#define PLUMB_RUNNER_WORKDIR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct buf;
struct plumb_err;

/* $XDG_CACHE_HOME/plumb/<sub> (or ~/.cache/plumb/<sub>), appended to out. */
int workdir_cache_path(const char *sub, struct buf *out, struct plumb_err *err);

/* The work folder: given (--workdir, run.workdir) when not NULL, else
 * workdir_cache_path("runs"); appended to out. */
int workdir_path(const char *given, struct buf *out, struct plumb_err *err);

/*
 * Copy the tree at src to dst (which must not exist): folders, regular
 * files, symbolic links, with modes and timestamps; other file types are
 * skipped.  Stops with an error when plumb is asked to stop by a signal.
 */
int workdir_copy_tree(const char *src, const char *dst, struct plumb_err *err);

/*
 * The files of a tree that copies may share by a hard link instead of
 * copying them: a checkout's files, as exported (see workdir_copy_tree_linked).
 */
struct workdir_link {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};
struct workdir_links {
	struct workdir_link *v;  /* sorted by (dev, ino) */
	size_t n, cap;
};

/* Record every regular file below tree (added to links; release it). */
int workdir_links_collect(const char *tree, struct workdir_links *links, struct plumb_err *err);
void workdir_links_release(struct workdir_links *links);

/*
 * workdir_copy_tree(), except that a regular file recorded in links whose
 * inode is unchanged since (same size and mtime: nothing wrote it)
 * is hard-linked into dst instead of copied.  Only for files nothing will
 * write in place afterwards: a write through either name changes both.
 * Every other file is copied, as a reflink where the file system can
 * (FICLONE: copy-on-write, safe whatever writes later).
 */
int workdir_copy_tree_linked(const char *src, const char *dst, const struct workdir_links *links,
			     struct plumb_err *err);

/* Copy a file or a folder src to dst (same last name; dst's folder exists). */
int workdir_copy_path(const char *src, const char *dst, struct plumb_err *err);

/* Remove path and everything below it (not following links); missing is fine. */
int workdir_remove_tree(const char *path, struct plumb_err *err);

/* Size in bytes of a file, or the sum of the regular files below a folder. */
int workdir_tree_size(const char *path, uint64_t *size, struct plumb_err *err);

/*
 * Remove the run folders of runs that ended without cleaning up (killed
 * with SIGKILL, power loss): run-* folders in workdir without a "kept"
 * marker.  Call only while holding the work folder's lock.
 */
int workdir_sweep(const char *workdir, struct plumb_err *err);

#endif
