/*
 * common/fileio.c: atomic publication of files and bounded reads.
 *
 * Why the folder fsync: rename() is atomic, but until the folder's entry is
 * on disk a crash can bring back the old name (or none).  The archive and
 * the bundle writer promise "whole or not at all" across power loss too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
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

int atomic_file_open(struct atomic_file *af, const char *path, mode_t mode,
		     struct plumb_err *err)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	struct buf b;

	af->fd = -1;
	af->path = NULL;
	af->tmp_path = NULL;
	if (!*base)
		return plumb_err_set(err, PLUMB_EARG, "%s: not a file name", path);
	buf_init(&b, PATH_MAX);
	if (buf_add(&b, path, dirlen) < 0 ||
	    buf_printf(&b, ".%s.tmp.XXXXXX", base) < 0) {
		buf_release(&b);
		return buf_err(err, path);
	}
	af->tmp_path = buf_detach(&b, NULL);
	af->path = strdup(path);
	if (!af->tmp_path || !af->path) {
		free(af->tmp_path);
		free(af->path);
		af->tmp_path = af->path = NULL;
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
	if (af->tmp_path)
		tempfile_forget(af->tmp_path);
	free(af->tmp_path);
	free(af->path);
	af->tmp_path = NULL;
	af->path = NULL;
	af->fd = -1;
}

int atomic_file_commit(struct atomic_file *af, struct plumb_err *err)
{
	int r;

	if (fsync(af->fd) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, af->tmp_path, "fsync");
		atomic_file_abort(af);
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
	r = fsync_parent(af->path, err);
	atomic_file_release(af);
	return r;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fd >= 0)
		close(af->fd);
	if (af->tmp_path)
		unlink(af->tmp_path);
	atomic_file_release(af);
}

int file_read(const char *path, size_t max, struct buf *out,
	      struct plumb_err *err)
{
	char chunk[65536];
	size_t total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path, "open");
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
