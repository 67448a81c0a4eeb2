/*
 * runner/buildcache-tree.c: a build cache entry's tree listed item by item
 * (path, kind, mode, size, SHA-256 of each file), written as the lines of
 * its manifest, read back and compared; see buildcache-internal.h.
 *
 * Separate from buildcache.c: this is what a restore proves, walked the
 * way runner/workdir.c walks (folder descriptors, *at() calls, no link
 * followed), and nothing here knows what an entry's other files are.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "formats/digest.h"
#include "runner/buildcache-internal.h"
#include "common/banned.h"

#define PATH_MAX_BYTES 8192

int cachetree_owned(const struct stat *st, const char *name, struct plumb_err *err)
{
	if (st->st_uid != geteuid())
		return plumb_err_set(err, PLUMB_EINPUT, "%s: owned by uid %u, not by this user (uid %u)",
				     name, (unsigned)st->st_uid, (unsigned)geteuid());
	if (st->st_mode & 022)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %s-writable (mode %04o)", name,
				     st->st_mode & 002 ? "world" : "group", (unsigned)(st->st_mode & 07777));
	return 0;
}

void cachetree_release(struct cachetree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static int add(struct cachetree *t, const char *path, int dir, unsigned mode, uint64_t size,
	       const char *sha, struct plumb_err *err)
{
	struct cachetree_item *it;

	if (t->n >= CACHETREE_ITEMS_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d files and folders in one entry",
				     path, CACHETREE_ITEMS_MAX);
	if (t->n == t->cap) {
		size_t nc = t->cap ? 2 * t->cap : 64;
		struct cachetree_item *nv = realloc(t->v, nc * sizeof(*nv));
		if (!nv)
			return plumb_err_oom(err, "build cache entry");
		t->v = nv;
		t->cap = nc;
	}
	it = &t->v[t->n];
	memset(it, 0, sizeof(*it));
	if (!(it->path = strdup(path)))
		return plumb_err_oom(err, "build cache entry");
	it->dir = dir;
	it->mode = mode;
	it->size = size;
	snprintf(it->sha256, sizeof(it->sha256), "%s", sha ? sha : "");
	t->n++;
	return 0;
}

/* SHA-256 and length of the regular file name in dfd (the one st describes). */
static int hash_at(int dfd, const char *name, const struct stat *st, const char *label,
		   char hex[65], uint64_t *size, struct plumb_err *err)
{
	unsigned char chunk[65536], out[DIGEST_BYTES];
	struct digest d;
	struct stat now;
	int fd, r = 0;

	*size = 0;
	/* O_NONBLOCK: a FIFO put there meanwhile opens without a writer. */
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, label, "open");
	if (fstat(fd, &now) < 0 || !S_ISREG(now.st_mode) || now.st_ino != st->st_ino ||
	    now.st_dev != st->st_dev) {
		close(fd);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: changed while it was read", label);
	}
	if (digest_init(&d, 0, err) < 0) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR) {
			if (cleanup_signal_pending()) {
				r = plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", cleanup_signal_pending());
				break;
			}
			continue;
		}
		if (n < 0) {
			r = plumb_err_errno(err, PLUMB_EINPUT, errno, label, "read");
			break;
		}
		if (n == 0)
			break;
		if ((r = digest_update(&d, chunk, (size_t)n, err)) < 0)
			break;
		*size += (uint64_t)n;
	}
	close(fd);
	if (r < 0) {
		digest_release(&d);
		return r;
	}
	if (digest_final(&d, out, err) < 0)
		return -1;
	digest_hex(out, hex);
	return 0;
}

static int scan_dir(int dfd, struct buf *path, size_t root_len, unsigned flags,
		    struct cachetree *out, struct plumb_err *err);

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The item name of dfd, at path (label/...); root_len: label's length. */
static int scan_item(int dfd, const char *name, struct buf *path, size_t root_len, unsigned flags,
		     struct cachetree *out, struct plumb_err *err)
{
	const char *rel = path->data + root_len + 1;
	char sha[65] = "";
	uint64_t size = 0;
	struct stat st;
	int r;

	if (cleanup_signal_pending())
		return plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", cleanup_signal_pending());
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path->data, "stat");
	if (S_ISLNK(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: a symbolic link (an entry holds only "
				     "regular files and folders)", path->data);
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: neither a regular file nor a folder",
				     path->data);
	if ((flags & CACHETREE_SEAL) && (st.st_mode & 07022)) {
		if (fchmodat(dfd, name, st.st_mode & 0755, 0) < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, path->data, "chmod");
		st.st_mode &= ~(mode_t)07022;
	}
	if ((flags & CACHETREE_OWNED) && (r = cachetree_owned(&st, path->data, err)) < 0)
		return r;
	if (S_ISDIR(st.st_mode)) {
		int sub;
		if ((r = add(out, rel, 1, st.st_mode & 07777, 0, NULL, err)) < 0)
			return r;
		sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			return plumb_err_errno(err, PLUMB_EINPUT, errno, path->data, "open folder");
		r = scan_dir(sub, path, root_len, flags, out, err);
		close(sub);
		return r;
	}
	if (flags & CACHETREE_HASH) {
		if ((r = hash_at(dfd, name, &st, path->data, sha, &size, err)) < 0)
			return r;
	} else {
		size = (uint64_t)st.st_size;
	}
	return add(out, rel, 0, st.st_mode & 07777, size, sha, err);
}

static int scan_dir(int dfd, struct buf *path, size_t root_len, unsigned flags,
		    struct cachetree *out, struct plumb_err *err)
{
	char **names = NULL;
	size_t n = 0, cap = 0, len = path->len;
	struct dirent *e;
	int fd = dup(dfd), r = 0;
	DIR *d;

	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path->data, "dup");
	if (!(d = fdopendir(fd))) {
		close(fd);
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path->data, "read folder");
	}
	while (r == 0) {
		errno = 0;
		if (!(e = readdir(d))) {
			if (errno)
				r = plumb_err_errno(err, PLUMB_EINPUT, errno, path->data, "read folder");
			break;
		}
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n + out->n >= CACHETREE_ITEMS_MAX) {
			r = plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d files and folders in one entry",
					  path->data, CACHETREE_ITEMS_MAX);
			break;
		}
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 32;
			char **nv = realloc(names, nc * sizeof(*nv));
			if (!nv) {
				r = plumb_err_oom(err, "build cache entry");
				break;
			}
			names = nv;
			cap = nc;
		}
		if (!(names[n] = strdup(e->d_name)))
			r = plumb_err_oom(err, "build cache entry");
		else
			n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		if (r == 0) {
			if (buf_printf(path, "/%s", names[i]) < 0)
				r = buf_err(err, "build cache entry path");
			else
				r = scan_item(dfd, names[i], path, root_len, flags, out, err);
			path->len = len;
			path->data[len] = '\0';
		}
		free(names[i]);
	}
	free(names);
	return r;
}

int cachetree_scan(const char *root, const char *sub, const char *label, unsigned flags,
		   struct cachetree *out, struct plumb_err *err)
{
	struct buf path;
	int fd, r;

	buf_init(&path, PATH_MAX_BYTES);
	if (buf_addstr(&path, label) < 0) {
		buf_release(&path);
		return buf_err(err, "build cache entry path");
	}
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = plumb_err_errno(err, PLUMB_EINPUT, errno, label, "open folder");
	} else if (sub && *sub) {
		const char *slash = strrchr(sub, '/');
		int at = fd;
		/* The parent folders of sub are walked as the plain path: they
		 * are the restored tree's own (the caller made them). */
		if (slash) {
			char *parent = strndup(sub, (size_t)(slash - sub));
			at = parent ? openat(fd, parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
			free(parent);
		}
		if (at < 0) {
			r = plumb_err_errno(err, PLUMB_EINPUT, errno, label, "open folder");
		} else {
			size_t base_len = path.len;
			if (buf_printf(&path, "/%s", sub) < 0)
				r = buf_err(err, "build cache entry path");
			else
				r = scan_item(at, slash ? slash + 1 : sub, &path, base_len, flags, out, err);
			if (at != fd)
				close(at);
		}
	} else {
		r = scan_dir(fd, &path, path.len, flags, out, err);
	}
	if (fd >= 0)
		close(fd);
	buf_release(&path);
	return r;
}

int cachetree_put_path(struct buf *out, const char *p)
{
	for (; *p; p++)
		if ((*p == '\n' ? buf_addstr(out, "\\n") : *p == '\\' ? buf_addstr(out, "\\\\")
								      : buf_addch(out, *p)) < 0)
			return -1;
	return buf_addch(out, '\n');
}

int cachetree_write(const struct cachetree *t, struct buf *out)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cachetree_item *it = &t->v[i];
		int r = it->dir ? buf_printf(out, "dir %04o ", it->mode)
				: buf_printf(out, "file %04o %" PRIu64 " %s ", it->mode, it->size, it->sha256);
		if (r < 0 || cachetree_put_path(out, it->path) < 0)
			return -1;
	}
	return 0;
}

int cachetree_unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s != '\\') {
			*w++ = *s;
			continue;
		}
		s++;
		if (*s == 'n')
			*w++ = '\n';
		else if (*s == '\\')
			*w++ = '\\';
		else
			return -1;
	}
	*w = '\0';
	return 0;
}

/* The next space-separated field of *p (moved past it), or NULL. */
static char *field(char **p)
{
	char *f = *p, *sp = strchr(f, ' ');

	if (!sp)
		return NULL;
	*sp = '\0';
	*p = sp + 1;
	return f;
}

int cachetree_parse_line(struct cachetree *t, char *line)
{
	struct plumb_err ignored;
	char *p = line, *kind = field(&p), *mode, *end;
	unsigned long m;

	if (!kind || !(mode = field(&p)))
		return -1;
	m = strtoul(mode, &end, 8);
	if (*end || end == mode || m > 07777)
		return -1;
	plumb_err_clear(&ignored);
	if (strcmp(kind, "dir") == 0)
		return *p && cachetree_unescape(p) == 0 ? add(t, p, 1, (unsigned)m, 0, NULL, &ignored) : -1;
	if (strcmp(kind, "file") == 0) {
		char *size = field(&p), *sha = size ? field(&p) : NULL;
		unsigned long long n;
		if (!sha || strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64 || !*p)
			return -1;
		n = strtoull(size, &end, 10);
		if (*end || end == size || cachetree_unescape(p) < 0)
			return -1;
		return add(t, p, 0, (unsigned)m, (uint64_t)n, sha, &ignored);
	}
	return -1;
}

/* Whether path is sub or below it. */
static int under(const char *path, const char *sub)
{
	size_t n;

	if (!sub || !*sub)
		return 1;
	n = strlen(sub);
	return strncmp(path, sub, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int cachetree_compare(const struct cachetree *want, const char *sub, const struct cachetree *got,
		      int hashed, const char *label, char *why, size_t why_size)
{
	size_t i = 0, j = 0;

	for (;; i++, j++) {
		const struct cachetree_item *w, *g;
		while (i < want->n && !under(want->v[i].path, sub))
			i++;
		if (i == want->n && j == got->n)
			return 0;
		w = i < want->n ? &want->v[i] : NULL;
		g = j < got->n ? &got->v[j] : NULL;
		if (!g || (w && strcmp(w->path, g->path) != 0)) {
			/* Which of the two is out of place: a listed item missing, or
			 * one that the manifest does not list. */
			int listed = 0;
			for (size_t k = i; g && k < want->n && !listed; k++)
				listed = strcmp(want->v[k].path, g->path) == 0;
			if (g && !listed)
				snprintf(why, why_size, "%s/%s: not in the entry's manifest", label, g->path);
			else
				snprintf(why, why_size, "%s/%s: in the entry's manifest, missing", label, w->path);
			return -1;
		}
		if (!w) {
			snprintf(why, why_size, "%s/%s: not in the entry's manifest", label, g->path);
			return -1;
		}
		if (w->dir != g->dir) {
			snprintf(why, why_size, "%s/%s: a %s, the manifest says a %s", label, g->path,
				 g->dir ? "folder" : "file", w->dir ? "folder" : "file");
			return -1;
		}
		if (w->mode != g->mode) {
			snprintf(why, why_size, "%s/%s: mode %04o, the manifest says %04o", label, g->path,
				 g->mode, w->mode);
			return -1;
		}
		if (!w->dir && w->size != g->size) {
			snprintf(why, why_size, "%s/%s: %" PRIu64 " bytes, the manifest says %" PRIu64,
				 label, g->path, g->size, w->size);
			return -1;
		}
		if (!w->dir && hashed && strcmp(w->sha256, g->sha256) != 0) {
			snprintf(why, why_size, "%s/%s: its SHA-256 is not the one the manifest records",
				 label, g->path);
			return -1;
		}
	}
}
