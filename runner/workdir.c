/*
 * runner/workdir.c: cache paths, tree copies that keep timestamps, and
 * tree removal; see workdir.h for the layout of a run folder.
 *
 * Copies are reflinks where the file system has them (FICLONE), else go
 * through copy_file_range (an in-kernel copy), falling back to read/write;
 * a copy may hard-link the files of a checkout that nothing wrote since
 * (workdir_copy_tree_linked).  Every walk is done
 * with *at() calls on folder descriptors and never follows a symbolic link,
 * so a link in a build tree cannot make plumb copy or delete outside it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "runner/workdir.h"
#include "common/banned.h"

#define PATH_BUF_MAX 8192

int workdir_cache_path(const char *sub, struct buf *out, struct plumb_err *err)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int r;

	if (xdg && xdg[0] == '/')
		r = buf_printf(out, "%s/plumb/%s", xdg, sub);
	else if (home && home[0] == '/')
		r = buf_printf(out, "%s/.cache/plumb/%s", home, sub);
	else
		return plumb_err_set(err, PLUMB_EINPUT,
				     "neither XDG_CACHE_HOME nor HOME is an absolute path: give --workdir");
	return r < 0 ? buf_err(err, "cache path") : 0;
}

int workdir_path(const char *given, struct buf *out, struct plumb_err *err)
{
	if (!given)
		return workdir_cache_path("runs", out, err);
	return buf_addstr(out, given) < 0 ? buf_err(err, "--workdir") : 0;
}

static int stopped(struct plumb_err *err)
{
	int sig = cleanup_signal_pending();

	if (!sig)
		return 0;
	return plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", sig);
}

/* Copy the contents of the regular file sfd to dfd. */
static int copy_bytes(int sfd, int dfd, const char *spath, const char *dpath,
		      struct plumb_err *err)
{
	int use_range = 1;
	char chunk[65536];

	/* A reflink shares the blocks copy-on-write: safe whatever writes later. */
	if (ioctl(dfd, FICLONE, sfd) == 0)
		return 0;
	for (;;) {
		ssize_t n;
		if (use_range) {
			n = copy_file_range(sfd, NULL, dfd, NULL, 1 << 30, 0);
			if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL ||
				      errno == EOPNOTSUPP || errno == EPERM)) {
				use_range = 0;
				continue;
			}
			if (n < 0 && errno == EINTR) {
				if (stopped(err))
					return err->code;
				continue;
			}
			if (n < 0)
				return plumb_err_errno(err, PLUMB_EIO, errno, dpath, "copy");
			if (n == 0)
				return 0;
			continue;
		}
		n = read(sfd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR) {
			if (stopped(err))
				return err->code;
			continue;
		}
		if (n < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, spath, "read");
		if (n == 0)
			return 0;
		if (write_all(dfd, chunk, (size_t)n, dpath, err) < 0)
			return err->code;
	}
}

static int copy_dir(int sdir, int ddir, struct buf *sp, struct buf *dp,
		    const struct workdir_links *links, struct plumb_err *err);

/* links holds the file (its inode, unchanged since it was collected). */
static int linkable(const struct workdir_links *links, const struct stat *st)
{
	size_t lo = 0, hi = links ? links->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct workdir_link *l = &links->v[mid];
		if (l->dev == st->st_dev && l->ino == st->st_ino)
			/* Not the ctime: every hard link made changes it. */
			return l->size == st->st_size && l->mtime.tv_sec == st->st_mtim.tv_sec &&
			       l->mtime.tv_nsec == st->st_mtim.tv_nsec;
		if (l->dev < st->st_dev || (l->dev == st->st_dev && l->ino < st->st_ino))
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Copy one entry name of sdir into ddir; sp and dp hold the paths for messages. */
static int copy_entry(int sdir, int ddir, const char *name, struct buf *sp,
		      struct buf *dp, const struct workdir_links *links, struct plumb_err *err)
{
	size_t slen = sp->len, dlen = dp->len;
	struct timespec times[2];
	struct stat st;
	int r = 0;

	if (buf_printf(sp, "/%s", name) < 0 || buf_printf(dp, "/%s", name) < 0) {
		r = buf_err(err, name);
		goto out;
	}
	if (stopped(err)) {
		r = err->code;
		goto out;
	}
	if (fstatat(sdir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "stat");
		goto out;
	}
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	if (S_ISDIR(st.st_mode)) {
		int s, d;
		if (mkdirat(ddir, name, 0700) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "mkdir");
			goto out;
		}
		s = openat(sdir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (s < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "open folder");
			goto out;
		}
		d = openat(ddir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (d < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "open folder");
			close(s);
			goto out;
		}
		r = copy_dir(s, d, sp, dp, links, err);
		/* Mode and times last: adding entries changed the folder's mtime. */
		if (r == 0 && (fchmod(d, st.st_mode & 07777) < 0 || futimens(d, times) < 0))
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "set mode and times");
		close(s);
		close(d);
	} else if (S_ISREG(st.st_mode) && linkable(links, &st)) {
		/* A file of the checkout the build did not touch: shared, not copied. */
		if (linkat(sdir, name, ddir, name, 0) < 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "link");
	} else if (S_ISREG(st.st_mode)) {
		int s = openat(sdir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		int d;
		if (s < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "open");
			goto out;
		}
		d = openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (d < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "create");
			close(s);
			goto out;
		}
		r = copy_bytes(s, d, sp->data, dp->data, err);
		if (r == 0 && (fchmod(d, st.st_mode & 07777) < 0 || futimens(d, times) < 0))
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "set mode and times");
		if (close(d) < 0 && r == 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "close");
		close(s);
	} else if (S_ISLNK(st.st_mode)) {
		char target[PATH_BUF_MAX];
		ssize_t n = readlinkat(sdir, name, target, sizeof(target) - 1);
		if (n < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "readlink");
			goto out;
		}
		target[n] = '\0';
		if (symlinkat(target, ddir, name) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, dp->data, "symlink");
			goto out;
		}
		utimensat(ddir, name, times, AT_SYMLINK_NOFOLLOW);
	}
	/* Sockets, fifos and devices are not part of a build tree: skipped. */
out:
	sp->len = slen;
	dp->len = dlen;
	if (sp->data)
		sp->data[slen] = '\0';
	if (dp->data)
		dp->data[dlen] = '\0';
	return r;
}

static int copy_dir(int sdir, int ddir, struct buf *sp, struct buf *dp,
		    const struct workdir_links *links, struct plumb_err *err)
{
	int fd = dup(sdir);
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "dup");
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "read folder");
	}
	while (r == 0) {
		errno = 0;
		e = readdir(d);
		if (!e) {
			if (errno)
				r = plumb_err_errno(err, PLUMB_EIO, errno, sp->data, "read folder");
			break;
		}
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		r = copy_entry(sdir, ddir, e->d_name, sp, dp, links, err);
	}
	closedir(d);
	return r;
}

int workdir_copy_tree_linked(const char *src, const char *dst, const struct workdir_links *links,
			     struct plumb_err *err)
{
	struct buf sp, dp;
	struct stat st;
	struct timespec times[2];
	int s = -1, d = -1, r;

	buf_init(&sp, PATH_BUF_MAX);
	buf_init(&dp, PATH_BUF_MAX);
	if (buf_addstr(&sp, src) < 0 || buf_addstr(&dp, dst) < 0) {
		r = buf_err(err, src);
		goto out;
	}
	s = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s < 0 || fstat(s, &st) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, src, "open folder");
		goto out;
	}
	if (mkdir(dst, 0700) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, dst, "mkdir");
		goto out;
	}
	d = open(dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, dst, "open folder");
		goto out;
	}
	r = copy_dir(s, d, &sp, &dp, links, err);
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	if (r == 0 && (fchmod(d, st.st_mode & 07777) < 0 || futimens(d, times) < 0))
		r = plumb_err_errno(err, PLUMB_EIO, errno, dst, "set mode and times");
out:
	if (s >= 0)
		close(s);
	if (d >= 0)
		close(d);
	buf_release(&sp);
	buf_release(&dp);
	return r;
}

int workdir_copy_tree(const char *src, const char *dst, struct plumb_err *err)
{
	return workdir_copy_tree_linked(src, dst, NULL, err);
}

int workdir_copy_path(const char *src, const char *dst, struct plumb_err *err)
{
	struct buf sp, dp;
	struct stat st;
	char *sdir = NULL, *ddir = NULL;
	const char *sname, *dname;
	int s = -1, d = -1, r;

	if (lstat(src, &st) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, src, "stat");
	if (S_ISDIR(st.st_mode))
		return workdir_copy_tree(src, dst, err);
	buf_init(&sp, PATH_BUF_MAX);
	buf_init(&dp, PATH_BUF_MAX);
	sname = strrchr(src, '/');
	dname = strrchr(dst, '/');
	sdir = sname ? strndup(src, (size_t)(sname - src)) : strdup(".");
	ddir = dname ? strndup(dst, (size_t)(dname - dst)) : strdup(".");
	sname = sname ? sname + 1 : src;
	dname = dname ? dname + 1 : dst;
	if (!sdir || !ddir || strcmp(sname, dname) != 0) {
		r = !sdir || !ddir ? plumb_err_oom(err, src)
				   : plumb_err_set(err, PLUMB_EINTERNAL, "workdir_copy_path: %s and %s differ in name", src, dst);
		goto out;
	}
	if (buf_addstr(&sp, *sdir ? sdir : "/") < 0 || buf_addstr(&dp, *ddir ? ddir : "/") < 0) {
		r = buf_err(err, src);
		goto out;
	}
	s = open(sp.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = s < 0 ? -1 : open(dp.data, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s < 0 || d < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, s < 0 ? sp.data : dp.data, "open folder");
		goto out;
	}
	r = copy_entry(s, d, sname, &sp, &dp, NULL, err);
out:
	if (s >= 0)
		close(s);
	if (d >= 0)
		close(d);
	free(sdir);
	free(ddir);
	buf_release(&sp);
	buf_release(&dp);
	return r;
}

static int link_cmp(const void *a, const void *b)
{
	const struct workdir_link *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Add the regular files below the folder dfd to links. */
static int collect_at(int dfd, struct buf *path, struct workdir_links *links, struct plumb_err *err)
{
	int fd = dup(dfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	int r = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return plumb_err_errno(err, PLUMB_EIO, errno, path->data, "read folder");
	}
	while (r == 0 && (e = readdir(d)) != NULL) {
		size_t len = path->len;
		struct stat st;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (buf_printf(path, "/%s", e->d_name) < 0) {
			r = buf_err(err, e->d_name);
			break;
		}
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "stat");
		} else if (S_ISREG(st.st_mode)) {
			if (links->n == links->cap) {
				size_t cap = links->cap ? 2 * links->cap : 256;
				struct workdir_link *nv = realloc(links->v, cap * sizeof(*nv));
				if (!nv)
					r = plumb_err_oom(err, "tree files");
				else {
					links->v = nv;
					links->cap = cap;
				}
			}
			if (r == 0) {
				struct workdir_link *l = &links->v[links->n++];
				l->dev = st.st_dev;
				l->ino = st.st_ino;
				l->size = st.st_size;
				l->mtime = st.st_mtim;
			}
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0) {
				r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "open folder");
			} else {
				r = collect_at(sub, path, links, err);
				close(sub);
			}
		}
		path->len = len;
		path->data[len] = '\0';
	}
	closedir(d);
	return r;
}

int workdir_links_collect(const char *tree, struct workdir_links *links, struct plumb_err *err)
{
	struct buf p;
	int fd, r;

	fd = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, tree, "open folder");
	buf_init(&p, PATH_BUF_MAX);
	r = buf_addstr(&p, tree) < 0 ? buf_err(err, tree) : collect_at(fd, &p, links, err);
	close(fd);
	buf_release(&p);
	if (r == 0 && links->n)
		qsort(links->v, links->n, sizeof(*links->v), link_cmp);
	return r;
}

void workdir_links_release(struct workdir_links *links)
{
	free(links->v);
	memset(links, 0, sizeof(*links));
}

/* Remove everything inside the folder dfd (path for messages). */
static int remove_inside(int dfd, struct buf *path, struct plumb_err *err)
{
	int fd = dup(dfd);
	DIR *d;
	struct dirent *e;
	int r = 0;

	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path->data, "dup");
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return plumb_err_errno(err, PLUMB_EIO, errno, path->data, "read folder");
	}
	while (r == 0) {
		size_t len = path->len;
		errno = 0;
		e = readdir(d);
		if (!e) {
			if (errno)
				r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "read folder");
			break;
		}
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (buf_printf(path, "/%s", e->d_name) < 0) {
			r = buf_err(err, e->d_name);
			break;
		}
		if (unlinkat(dfd, e->d_name, 0) < 0) {
			if (errno == EISDIR || errno == EPERM) {
				int sub;
				/* A read-only folder (some builds make them) cannot be emptied. */
				fchmodat(dfd, e->d_name, 0700, 0);
				sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0) {
					r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "open folder");
				} else {
					r = remove_inside(sub, path, err);
					close(sub);
					if (r == 0 && unlinkat(dfd, e->d_name, AT_REMOVEDIR) < 0)
						r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "remove");
				}
			} else if (errno != ENOENT) {
				r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "remove");
			}
		}
		path->len = len;
		path->data[len] = '\0';
	}
	closedir(d);
	return r;
}

int workdir_remove_tree(const char *path, struct plumb_err *err)
{
	struct buf p;
	struct stat st;
	int fd, r;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "stat");
	}
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) < 0 && errno != ENOENT)
			return plumb_err_errno(err, PLUMB_EIO, errno, path, "remove");
		return 0;
	}
	chmod(path, 0700);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "open folder");
	buf_init(&p, PATH_BUF_MAX);
	if (buf_addstr(&p, path) < 0) {
		close(fd);
		return buf_err(err, path);
	}
	r = remove_inside(fd, &p, err);
	close(fd);
	buf_release(&p);
	if (r == 0 && rmdir(path) < 0 && errno != ENOENT)
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "remove");
	return r;
}

static int size_at(int dfd, const char *name, struct buf *path, uint64_t *size,
		   struct plumb_err *err)
{
	struct stat st;
	size_t len = path->len;
	int r = 0;

	if (buf_printf(path, "%s%s", len ? "/" : "", name) < 0)
		return buf_err(err, name);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "stat");
	} else if (S_ISREG(st.st_mode)) {
		*size += (uint64_t)st.st_size;
	} else if (S_ISDIR(st.st_mode)) {
		int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = fd < 0 ? NULL : fdopendir(fd);
		struct dirent *e;
		if (!d) {
			if (fd >= 0)
				close(fd);
			r = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "read folder");
		} else {
			while (r == 0 && (e = readdir(d)) != NULL)
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
					r = size_at(dirfd(d), e->d_name, path, size, err);
			closedir(d);
		}
	}
	path->len = len;
	path->data[len] = '\0';
	return r;
}

int workdir_tree_size(const char *path, uint64_t *size, struct plumb_err *err)
{
	struct buf p;
	int r;

	*size = 0;
	buf_init(&p, PATH_BUF_MAX);
	if (buf_addstr(&p, "") < 0)
		return buf_err(err, path);
	r = size_at(AT_FDCWD, path, &p, size, err);
	buf_release(&p);
	return r;
}

int workdir_sweep(const char *workdir, struct plumb_err *err)
{
	DIR *d = opendir(workdir);
	struct dirent *e;
	int r = 0;

	if (!d)
		return errno == ENOENT ? 0 : plumb_err_errno(err, PLUMB_EIO, errno, workdir, "read folder");
	while (r == 0 && (e = readdir(d)) != NULL) {
		struct buf p;
		struct stat st;
		if (strncmp(e->d_name, "run-", 4) != 0)
			continue;
		buf_init(&p, PATH_BUF_MAX);
		if (buf_printf(&p, "%s/%s/kept", workdir, e->d_name) < 0) {
			buf_release(&p);
			r = buf_err(err, workdir);
			break;
		}
		if (lstat(p.data, &st) < 0 && errno == ENOENT) {
			p.len -= strlen("/kept");
			p.data[p.len] = '\0';
			if (lstat(p.data, &st) == 0 && S_ISDIR(st.st_mode))
				r = workdir_remove_tree(p.data, err);
		}
		buf_release(&p);
	}
	closedir(d);
	return r;
}
