/*
 * common/fileio.c: atomic publication of files and bounded reads.
 *
 * Why the folder fsync: rename() is atomic, but until the folder's entry is
 * on disk a crash can bring back the old name (or none).  The archive and
 * the bundle writer promise "whole or not at all" across power loss too.
 *
 * Why O_TMPFILE: a file without a name cannot be left behind, whatever
 * kills the writer; it gets its name only once it is whole (linkat).  Where
 * the file system has no O_TMPFILE the temporary name carries the writer's
 * pid, and the next writer in the folder removes the names of dead pids.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/path.h"
#include "common/cleanup.h"
#include "common/fileio.h"
#include "common/banned.h"

int write_all(int fd, const void *data, size_t len, const char *path,
	      struct plumb_err *err)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return plumb_err_errno(err, PLUMB_EIO, errno, path, "write");
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fsync_parent(const char *path, struct plumb_err *err)
{
	struct stat st;
	char *dir;
	int fd, r = 0;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		dir = strdup(path);
	else
		dir = path_dirname(path);
	if (!dir)
		return plumb_err_oom(err, "fsync_parent");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, dir, "open folder");
	} else {
		if (fsync(fd) < 0 && errno != EINVAL)
			r = plumb_err_errno(err, PLUMB_EIO, errno, dir, "fsync");
		close(fd);
	}
	free(dir);
	return r;
}

/*
 * Temporary names carry the writer's pid: ".<name>.<tag>.<pid>.XXXXXX".
 * Parse one; 1 and *pid set when name is of that form for some tag.
 */
static int temp_name_pid(const char *name, pid_t *pid)
{
	const char *tags[] = { ".tmp.", ".spool." };
	size_t len = strlen(name);

	if (name[0] != '.' || len < 9)
		return 0;
	/* The last 6 characters are mkostemp's; before them ".<digits>". */
	for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
		const char *dot = name + len - 7, *p = dot;
		long long v = 0;
		size_t tl = strlen(tags[t]);
		if (*dot != '.')
			return 0;
		while (p > name && p[-1] >= '0' && p[-1] <= '9')
			p--;
		if (p == dot || dot - p > 9 || (size_t)(p - name) < tl + 1 ||
		    memcmp(p - tl, tags[t], tl) != 0)
			continue;
		for (const char *q = p; q < dot; q++)
			v = v * 10 + (*q - '0');
		if (v <= 0 || v > INT_MAX)
			return 0;
		*pid = (pid_t)v;
		return 1;
	}
	return 0;
}

/* Nonzero when no process pid exists (EPERM: it exists, not ours). */
static int pid_is_dead(pid_t pid)
{
	return kill(pid, 0) < 0 && errno == ESRCH;
}

int tempfile_sweep(const char *dir)
{
	DIR *d = opendir(dir[0] ? dir : ".");
	struct dirent *e;
	int removed = 0, fd;

	if (!d)
		return 0;
	fd = dirfd(d);
	while ((e = readdir(d)) != NULL) {
		pid_t pid;
		if (!temp_name_pid(e->d_name, &pid) || pid == getpid() || !pid_is_dead(pid))
			continue;
		if (unlinkat(fd, e->d_name, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* The folder of path, "" for the current one (with a trailing slash kept). */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return strndup(path, slash ? (size_t)(slash - path) + 1 : 0);
}

/*
 * An unnamed file in dir (O_TMPFILE), or -1 with errno.  Only where
 * /proc/self/fd lets it be linked by name later (linkat's AT_EMPTY_PATH
 * needs a privilege).
 */
static int open_unnamed(const char *dir, mode_t mode, int access_mode)
{
#ifdef O_TMPFILE
	int fd;

	if (access("/proc/self/fd", X_OK) < 0)
		return -1;
	fd = open(dir[0] ? dir : ".", O_TMPFILE | access_mode | O_CLOEXEC, mode);
	if (fd >= 0 && fchmod(fd, mode) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
#else
	(void)dir;
	(void)mode;
	(void)access_mode;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

/* "<dir>.<base>.<tag>.<pid>.XXXXXX" beside path; NULL when out of memory. */
static char *temp_template(const char *path, const char *tag)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	struct buf b;

	buf_init(&b, PATH_MAX);
	if (buf_add(&b, path, dirlen) < 0 ||
	    buf_printf(&b, ".%s.%s.%ld.XXXXXX", base, tag, (long)getpid()) < 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

int tempfile_open_unnamed(const char *beside, const char *tag, char **label,
			  struct plumb_err *err)
{
	char *dir = folder_of(beside), *name;
	int fd;

	*label = NULL;
	if (!dir)
		return plumb_err_oom(err, beside);
	tempfile_sweep(dir);
	fd = open_unnamed(dir, 0600, O_RDWR);
	if (fd >= 0) {
		*label = buf_strdupf("%s (the %s file of %s, unnamed)", dir[0] ? dir : ".",
				     tag, beside);
		free(dir);
		if (!*label) {
			close(fd);
			return plumb_err_oom(err, beside);
		}
		return fd;
	}
	free(dir);
	name = temp_template(beside, tag);
	if (!name)
		return plumb_err_oom(err, beside);
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		plumb_err_errno(err, PLUMB_EIO, e, name, "create");
		free(name);
		return err ? err->code : PLUMB_EIO;
	}
	/* Named for two system calls; a writer killed in between leaves a
	 * name with its pid, which the next writer in the folder removes. */
	unlink(name);
	*label = name;
	return fd;
}

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct plumb_err *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir;

	af->fd = -1;
	af->path = NULL;
	af->tmp_path = NULL;
	af->unnamed = 0;
	if (!*base)
		return plumb_err_set(err, PLUMB_EARG, "%s: not a file name", path);
	af->path = strdup(path);
	dir = folder_of(path);
	if (!af->path || !dir) {
		free(af->path);
		free(dir);
		af->path = NULL;
		return plumb_err_oom(err, path);
	}
	/* What writers killed outright (SIGKILL) left in this folder goes first. */
	tempfile_sweep(dir);
	af->fd = open_unnamed(dir, mode, O_WRONLY);
	free(dir);
	if (af->fd >= 0) {
		/* Nothing to clean up on a signal: the file has no name yet.
		 * Messages name the destination. */
		af->unnamed = 1;
		af->tmp_path = strdup(path);
		if (!af->tmp_path) {
			atomic_file_abort(af);
			return plumb_err_oom(err, path);
		}
		return 0;
	}
	af->tmp_path = temp_template(path, "tmp");
	if (!af->tmp_path) {
		free(af->path);
		af->path = NULL;
		return plumb_err_oom(err, path);
	}
	af->fd = mkostemp(af->tmp_path, O_CLOEXEC);
	if (af->fd < 0) {
		int e = errno;
		plumb_err_errno(err, PLUMB_EIO, e, path, "create its temporary file");
		free(af->tmp_path);
		free(af->path);
		af->tmp_path = af->path = NULL;
		return err ? err->code : PLUMB_EIO;
	}
	/* From here on a signal handler removes the temporary file. */
	if (tempfile_register(af->tmp_path) < 0) {
		close(af->fd);
		unlink(af->tmp_path);
		free(af->tmp_path);
		free(af->path);
		af->tmp_path = af->path = NULL;
		af->fd = -1;
		return plumb_err_set(err, PLUMB_EINTERNAL,
				     "%s: too many temporary files", path);
	}
	if (fchmod(af->fd, mode) < 0) {
		int e = errno;
		atomic_file_abort(af);
		return plumb_err_errno(err, PLUMB_EIO, e, path, "chmod");
	}
	return 0;
}

int atomic_file_write(struct atomic_file *af, const void *data, size_t len,
		      struct plumb_err *err)
{
	return write_all(af->fd, data, len, af->tmp_path, err);
}

/* Release what af holds without touching the file system. */
static void atomic_file_release(struct atomic_file *af)
{
	if (af->tmp_path && !af->unnamed)
		tempfile_forget(af->tmp_path);
	free(af->tmp_path);
	free(af->path);
	af->tmp_path = NULL;
	af->path = NULL;
	af->fd = -1;
	af->unnamed = 0;
}

/*
 * Give the unnamed file its name: linked straight to the destination when
 * there is none, else linked to a pid-bearing temporary name and renamed
 * over it (linkat cannot replace).  0, or -1 with errno.
 */
static int link_unnamed(struct atomic_file *af)
{
	char proc[64];
	char *tmp;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", af->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, af->path, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	for (int tries = 0; tries < 100; tries++) {
		tmp = temp_template(af->path, "tmp");
		if (!tmp) {
			errno = ENOMEM;
			return -1;
		}
		/* mkostemp's pattern, filled without creating the file. */
		{
			static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
			size_t n = strlen(tmp);
			uint64_t x = clock_now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)tries * 0x9e3779b97f4a7c15ull;
			for (size_t i = n - 6; i < n; i++, x /= 62)
				tmp[i] = set[x % 62];
		}
		if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) {
			int r, e;
			tempfile_register(tmp);
			r = rename(tmp, af->path);
			e = errno;
			if (r < 0)
				unlink(tmp);
			tempfile_forget(tmp);
			free(tmp);
			errno = e;
			return r;
		}
		free(tmp);
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * The name was given: the folder's entry must reach the disk too.  When
 * that fsync fails, the file is taken back (removed, if the name still
 * holds it): a caller told "failed" finds nothing at the path, never a
 * file a crash could lose.  (A file it replaced is gone either way.)
 */
static int sync_published(struct atomic_file *af, const struct stat *mine,
			  struct plumb_err *err)
{
	char why[PLUMB_ERR_MAX];
	struct stat there;
	int r = fsync_parent(af->path, err);

	if (r < 0 && lstat(af->path, &there) == 0 && there.st_dev == mine->st_dev &&
	    there.st_ino == mine->st_ino && unlink(af->path) == 0) {
		snprintf(why, sizeof(why), "%s", err ? err->msg : "");
		plumb_err_set(err, r, "%s: removed again: written, but its folder could not be "
			      "synced (%s)", af->path, why);
	}
	return r;
}

int atomic_file_commit(struct atomic_file *af, struct plumb_err *err)
{
	struct stat mine;
	int r;

	if (fsync(af->fd) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, af->tmp_path, "fsync");
		atomic_file_abort(af);
		return r;
	}
	/* Which file is ours, to take back should the folder not sync. */
	if (fstat(af->fd, &mine) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, af->tmp_path, "stat");
		atomic_file_abort(af);
		return r;
	}
	if (af->unnamed) {
		if (link_unnamed(af) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, af->path, "link");
			atomic_file_abort(af);
			return r;
		}
		close(af->fd);
		af->fd = -1;
		r = sync_published(af, &mine, err);
		atomic_file_release(af);
		return r;
	}
	if (close(af->fd) < 0) {
		af->fd = -1;
		r = plumb_err_errno(err, PLUMB_EIO, errno, af->tmp_path, "close");
		atomic_file_abort(af);
		return r;
	}
	af->fd = -1;
	if (rename(af->tmp_path, af->path) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, af->path, "rename");
		atomic_file_abort(af);
		return r;
	}
	r = sync_published(af, &mine, err);
	atomic_file_release(af);
	return r;
}

int atomic_file_commit_new(struct atomic_file *af, struct plumb_err *err)
{
	char proc[64];
	char *path = strdup(af->path);
	int r, e;

	if (!path) {
		atomic_file_abort(af);
		return plumb_err_oom(err, "file");
	}
	if (fsync(af->fd) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, af->tmp_path, "fsync");
		atomic_file_abort(af);
		free(path);
		return r;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", af->fd);
	/* link(), unlike rename(), never replaces what is there. */
	r = af->unnamed ? linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW)
			: link(af->tmp_path, path);
	e = errno;
	/* The file keeps the name it was linked to; the temporary one goes. */
	atomic_file_abort(af);
	if (r < 0)
		r = e == EEXIST ? 0 : plumb_err_errno(err, PLUMB_EIO, e, path, "link");
	else if ((r = fsync_parent(path, err)) == 0)
		r = 1;
	free(path);
	return r;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fd >= 0)
		close(af->fd);
	if (af->tmp_path && !af->unnamed)
		unlink(af->tmp_path);
	atomic_file_release(af);
}

/* What a file of mode m is, for "not a regular file (a FIFO)". */
static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a folder" :
	       S_ISLNK(m) ? "a symbolic link" : "not a file";
}

int file_open_regular(const char *path, int flags, uint64_t *size,
		      struct plumb_err *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags), e;

	if (fd < 0) {
		e = errno;
		/* A socket cannot be opened (ENXIO), a link under O_NOFOLLOW is ELOOP. */
		if ((e == ENXIO || e == ELOOP) && lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
			return plumb_err_set(err, PLUMB_EINPUT, "%s: not a regular file (%s)", path,
					     file_kind(st.st_mode));
		/* What the caller named wrongly is bad input; a failing disk is I/O. */
		return plumb_err_errno(err, e == ENOENT || e == EACCES || e == ENOTDIR || e == ELOOP ||
				       e == ENAMETOOLONG || e == ENXIO || e == EISDIR || e == EPERM ?
				       PLUMB_EINPUT : PLUMB_EIO, e, path, "open");
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return plumb_err_errno(err, PLUMB_EIO, e, path, "stat");
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not a regular file (%s)", path,
				     file_kind(st.st_mode));
	}
	/* Reads of a regular file never block anyway; callers get a plain descriptor. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		e = errno;
		close(fd);
		return plumb_err_errno(err, PLUMB_EIO, e, path, "fcntl");
	}
	if (size)
		*size = (uint64_t)st.st_size;
	return fd;
}

int file_read(const char *path, size_t max, struct buf *out,
	      struct plumb_err *err)
{
	char chunk[65536];
	size_t total = 0;
	int fd = file_open_regular(path, 0, NULL, err);

	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			return plumb_err_errno(err, PLUMB_EINPUT, e, path, "read");
		}
		if (n == 0)
			break;
		total += (size_t)n;
		if (total > max) {
			close(fd);
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: larger than %zu bytes", path, max);
		}
		if (buf_add(out, chunk, (size_t)n) < 0) {
			close(fd);
			return buf_err(err, path);
		}
	}
	close(fd);
	if (!out->data && buf_add(out, "", 0) < 0)
		return buf_err(err, path);
	return 0;
}

int mkdir_p(const char *path, struct plumb_err *err)
{
	char *copy = strdup(path);
	char *p;

	if (!copy)
		return plumb_err_oom(err, path);
	for (p = copy + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char saved = *p;
			*p = '\0';
			if (mkdir(copy, 0755) < 0 && errno != EEXIST) {
				int e = errno;
				plumb_err_errno(err, PLUMB_EIO, e, copy, "mkdir");
				free(copy);
				return err ? err->code : PLUMB_EIO;
			}
			*p = saved;
			if (!saved)
				break;
		}
	}
	free(copy);
	return 0;
}
