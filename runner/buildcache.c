/*
 * runner/buildcache.c: the build cache's entries, stored, restored, listed
 * and pruned; see buildcache.h for the layout and the rules.
 *
 * Separate from build.c because nothing here knows what a build is: an
 * entry is a tree, a log and a few recorded facts under a key.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "formats/digest.h"

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "runner/build-internal.h"
#include "runner/buildcache.h"
#include "runner/buildcache-internal.h"
#include "runner/workdir.h"
#include "common/banned.h"

#define ENTRY_MAGIC "plumb-build-cache 2"
#define ENTRY_MAX (1 << 20)
#define MANIFEST_MAGIC "plumb-build-cache-manifest 1"
#define MANIFEST_MAX ((size_t)256 << 20)   /* CACHETREE_ITEMS_MAX lines */
#define LOG_MAX (8 << 20)

/* Whether the folder dir is this user's and not group- or world-writable,
 * as ssh's StrictModes asks of ~/.ssh: anyone else who may write there
 * could plant what a later run restores. */
static int check_folder(const char *dir, struct plumb_err *err)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "stat");
	if (!S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not a folder", dir);
	if (cachetree_owned(&st, dir, err) < 0) {
		char why[PLUMB_ERR_MAX];
		snprintf(why, sizeof(why), "%s", err->msg);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not used (make it yours and writable "
				     "by you alone, or remove it)", why);
	}
	return 0;
}

int buildcache_open(struct buildcache *bc, const char *dir, uint64_t limit,
		    struct plumb_err *err)
{
	struct stat st;
	struct buf p;
	int r, made;

	memset(bc, 0, sizeof(*bc));
	bc->limit = limit;
	buf_init(&p, 1 << 16);
	if (dir)
		r = buf_addstr(&p, dir) < 0 ? buf_err(err, "build cache") : 0;
	else
		r = workdir_cache_path("builds", &p, err);
	made = r == 0 && stat(p.data, &st) < 0 && errno == ENOENT;
	if (r == 0)
		r = mkdir_p(p.data, err);
	/* A folder plumb makes is nobody else's to write, whatever the umask. */
	if (r == 0 && made && stat(p.data, &st) == 0 && (st.st_mode & 022) &&
	    chmod(p.data, st.st_mode & 0755) < 0)
		r = plumb_err_errno(err, PLUMB_EIO, errno, p.data, "chmod");
	if (r == 0)
		r = check_folder(p.data, err);
	if (r == 0 && !(bc->dir = buf_detach(&p, NULL)))
		r = plumb_err_oom(err, "build cache");
	buf_release(&p);
	if (r < 0)
		plumb_err_prefix(err, "build cache");
	return r;
}

void buildcache_close(struct buildcache *bc)
{
	free(bc->dir);
	memset(bc, 0, sizeof(*bc));
}

void buildcache_key(const char *material, char key[65])
{
	digest_buffer_hex(material, strlen(material), key);
}

static int is_key(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n == 64;
}

/*
 * Parse <dir>/<key>/entry into m, and when material is given a copy of
 * its key material into *material and of the folder it was built in into
 * *folder (free both); 0, or -1 when it is not a complete entry of this
 * plumb.
 */
static int read_entry(const struct buildcache *bc, const char *key, struct buildcache_meta *m,
		      char **material, char **folder)
{
	char *path = buf_strdupf("%s/%s/entry", bc->dir, key);
	struct plumb_err ignored;
	struct buf text;
	struct stat st;
	char *line, *next;
	int magic = 0, sha = 0, r = -1;

	memset(m, 0, sizeof(*m));
	buf_init(&text, ENTRY_MAX);
	plumb_err_clear(&ignored);
	if (!path || lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    file_read(path, ENTRY_MAX, &text, &ignored) < 0 || !text.data)
		goto out;
	snprintf(m->key, sizeof(m->key), "%s", key);
	m->used = (int64_t)st.st_mtim.tv_sec;
	for (line = text.data; line && *line; line = next) {
		char *sp;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!magic) {
			if (strcmp(line, ENTRY_MAGIC) != 0)
				goto out;
			magic = 1;
			continue;
		}
		if (strcmp(line, "material") == 0) {
			if (material && !(*material = strdup(next ? next : "")))
				goto out;
			break;
		}
		sp = strchr(line, ' ');
		if (!sp)
			goto out;
		*sp++ = '\0';
		if (strcmp(line, "what") == 0)
			snprintf(m->what, sizeof(m->what), "%s", sp);
		else if (strcmp(line, "sha256") == 0 && strlen(sp) == 64)
			sha = snprintf(m->sha256, sizeof(m->sha256), "%s", sp) == 64;
		else if (strcmp(line, "size") == 0)
			m->size = strtoull(sp, NULL, 10);
		else if (strcmp(line, "bytes") == 0)
			m->bytes = strtoull(sp, NULL, 10);
		else if (strcmp(line, "buildNs") == 0)
			m->build_ns = strtoull(sp, NULL, 10);
		else if (strcmp(line, "created") == 0)
			m->created = strtoll(sp, NULL, 10);
		else if (strcmp(line, "whole") == 0)
			m->whole = strcmp(sp, "1") == 0;
		else if (strcmp(line, "manifest") == 0 && strlen(sp) == 64)
			snprintf(m->manifest, sizeof(m->manifest), "%s", sp);
		else if (strcmp(line, "folder") == 0 && folder && !*folder &&
			 (cachetree_unescape(sp) < 0 || !(*folder = strdup(sp))))
			goto out;
	}
	r = magic && sha && m->manifest[0] && (!material || (*material && *folder)) ? 0 : -1;
out:
	if (r < 0 && material) {
		free(*material);
		free(*folder);
		*material = *folder = NULL;
	}
	buf_release(&text);
	free(path);
	return r;
}

/* <dir>/<key>/manifest into tree (one line per file and folder of tree/),
 * when its SHA-256 is sha256. */
static int read_manifest(const struct buildcache *bc, const char *key, const char *sha256,
			 struct cachetree *tree)
{
	char hex[65];
	char *path = buf_strdupf("%s/%s/manifest", bc->dir, key);
	struct plumb_err ignored;
	struct buf text;
	char *line, *next;
	int r = -1;

	buf_init(&text, MANIFEST_MAX);
	plumb_err_clear(&ignored);
	if (!path || file_read(path, MANIFEST_MAX, &text, &ignored) < 0)
		goto out;
	if (!text.data || strncmp(text.data, MANIFEST_MAGIC "\n", strlen(MANIFEST_MAGIC) + 1) != 0)
		goto out;
	/* The one the entry records: the entry's hash list is its root. */
	digest_buffer_hex(text.data, text.len, hex);
	if (strcmp(hex, sha256) != 0)
		goto out;
	for (line = text.data + strlen(MANIFEST_MAGIC) + 1; *line; line = next) {
		next = strchr(line, '\n');
		if (!next)
			goto out;   /* cut short */
		*next++ = '\0';
		if (cachetree_parse_line(tree, line) < 0)
			goto out;
	}
	r = 0;
out:
	if (r < 0)
		cachetree_release(tree);
	buf_release(&text);
	free(path);
	return r;
}

/* Copy the log src to dst (logs are capped: runner/build.c), after head. */
static int copy_log(const char *src, const char *dst, const char *head, struct plumb_err *err)
{
	struct buf text;
	int fd, r;

	buf_init(&text, LOG_MAX);
	if ((r = file_read(src, LOG_MAX, &text, err)) < 0) {
		buf_release(&text);
		return r;
	}
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		r = plumb_err_errno(err, PLUMB_EIO, errno, dst, "create");
	else {
		r = head ? write_all(fd, head, strlen(head), dst, err) : 0;
		if (r == 0)
			r = write_all(fd, text.data ? text.data : "", text.len, dst, err);
		if (close(fd) < 0 && r == 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, dst, "close");
	}
	buf_release(&text);
	return r;
}

/* Take an entry out of use at once (rename), then remove it. */
static int drop(const struct buildcache *bc, const char *name, struct plumb_err *err)
{
	static unsigned seq;
	char *from = buf_strdupf("%s/%s", bc->dir, name);
	char *to = buf_strdupf("%s/tmp-%ld-d%u", bc->dir, (long)getpid(), seq++);
	int r = 0;

	if (!from || !to)
		r = plumb_err_oom(err, "build cache");
	else if (strncmp(name, "tmp-", 4) == 0)
		r = workdir_remove_tree(from, err);
	else if (rename(from, to) < 0)
		r = errno == ENOENT ? 0 : plumb_err_errno(err, PLUMB_EIO, errno, from, "rename");
	else
		r = workdir_remove_tree(to, err);
	free(from);
	free(to);
	return r;
}

/* Take group and world write and the set-id bits off path (plumb's own file). */
static int seal(const char *path, struct plumb_err *err)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "stat");
	if ((st.st_mode & 07022) && chmod(path, st.st_mode & 0755) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "chmod");
	return 0;
}

/* The names an entry folder holds: nothing else may be there. */
static const char *const entry_names[] = { "entry", "manifest", "log", "tree" };

/*
 * Check entry <dir>/<key> before anything of it is used: it and all it
 * holds are this user's and not group- or world-writable (else anyone who
 * could write there could plant what a run restores); it holds only
 * entry, manifest and log (regular files) and tree/; the entry's key
 * material hashes to key; the manifest is the one the entry records; and
 * tree/ holds what the manifest lists (kinds, modes, sizes: the contents
 * are hashed once restored).  0 (meta, want and *folder, the folder it was
 * built in, filled; free it), or -1 and why.
 */
static int check_entry(const struct buildcache *bc, const char *key, int whole,
		       struct buildcache_meta *meta, struct cachetree *want, char **folder,
		       char *why, size_t why_size)
{
	struct cachetree got = { 0 };
	struct plumb_err e;
	struct dirent *de;
	struct stat st;
	char *dir = buf_strdupf("%s/%s", bc->dir, key), *tree = buf_strdupf("%s/%s/tree", bc->dir, key);
	char *material = NULL, hex[65];
	unsigned seen = 0;
	DIR *d = NULL;
	int r = -1;

	plumb_err_clear(&e);
	if (!dir || !tree) {
		snprintf(why, why_size, "out of memory");
		goto out;
	}
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, why_size, "not a folder");
		goto out;
	}
	if (cachetree_owned(&st, "its folder", &e) < 0 || !(d = opendir(dir))) {
		snprintf(why, why_size, "%s", e.msg[0] ? e.msg : "cannot be read");
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		unsigned k = 0;
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		while (k < 4 && strcmp(de->d_name, entry_names[k]) != 0)
			k++;
		if (k == 4) {
			snprintf(why, why_size, "%.200s: not part of an entry", de->d_name);
			goto out;
		}
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (k == 3 ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
			snprintf(why, why_size, "%s: not a %s", de->d_name, k == 3 ? "folder" : "regular file");
			goto out;
		}
		if (cachetree_owned(&st, de->d_name, &e) < 0) {
			snprintf(why, why_size, "%s", e.msg);
			goto out;
		}
		seen |= 1u << k;
	}
	if (!(seen & 1) || read_entry(bc, key, meta, &material, folder) < 0) {
		snprintf(why, why_size, "no readable entry file");
		goto out;
	}
	buildcache_key(material, hex);
	if (strcmp(hex, key) != 0) {
		snprintf(why, why_size, "its name is not the SHA-256 of the key it records");
		goto out;
	}
	if (meta->whole != whole) {
		snprintf(why, why_size, "not the kind of entry its key says");
		goto out;
	}
	if (seen != 0xf || read_manifest(bc, key, meta->manifest, want) < 0) {
		snprintf(why, why_size, "%s", seen != 0xf ? "incomplete (entry, manifest, log and tree/ are its parts)"
							 : "no manifest, or not the one its entry records");
		goto out;
	}
	if (cachetree_scan(tree, NULL, "tree", CACHETREE_OWNED, &got, &e) < 0) {
		snprintf(why, why_size, "%s", e.msg);
		goto out;
	}
	r = cachetree_compare(want, NULL, &got, 0, "tree", why, why_size);
out:
	if (d)
		closedir(d);
	if (r < 0) {
		cachetree_release(want);
		free(*folder);
		*folder = NULL;
	}
	cachetree_release(&got);
	free(material);
	free(dir);
	free(tree);
	return r;
}

int buildcache_restore(struct buildcache *bc, const char *key, const char *dest,
		       const char *rel, int whole, const char *folder, const char *log,
		       const char *origin, struct buildcache_meta *meta,
		       char *note, size_t note_size, struct plumb_err *err)
{
	struct cachetree want = { 0 }, got = { 0 };
	char *built_in = NULL;
	struct plumb_err e;
	struct buf from, to, art;
	char sha[65], why[PLUMB_ERR_MAX + 400] = "";
	uint64_t size = 0;
	int r, copied = 0;

	note[0] = '\0';
	memset(meta, 0, sizeof(*meta));
	plumb_err_clear(&e);
	buf_init(&from, 1 << 16);
	buf_init(&to, 1 << 16);
	buf_init(&art, 1 << 16);
	{
		char *dirp = buf_strdupf("%s/%s", bc->dir, key);
		struct stat st;
		int there = dirp && lstat(dirp, &st) == 0;
		free(dirp);
		if (!there) {
			r = 0;
			goto out;
		}
	}
	if (check_entry(bc, key, whole, meta, &want, &built_in, why, sizeof(why)) < 0) {
		/* Stopped while checking: the entry is not at fault. */
		if (cleanup_signal_pending()) {
			r = plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", cleanup_signal_pending());
			goto out;
		}
		goto refuse;
	}
	/* Built in another folder: its paths are not the ones a build here
	 * embeds (the variants of a side differ in the pad alone, and the
	 * control is compared byte for byte), so it is built again here. */
	if (strcmp(built_in, folder) != 0) {
		snprintf(note, note_size, "the build cache entry %.12s was built in %s, not in %s",
			 key, built_in, folder);
		r = 2;
		goto out;
	}
	if (whole)
		r = buf_printf(&from, "%s/%s/tree", bc->dir, key) < 0 || buf_addstr(&to, dest) < 0;
	else
		r = buf_printf(&from, "%s/%s/tree/%s", bc->dir, key, rel) < 0 ||
		    buf_printf(&to, "%s/%s", dest, rel) < 0;
	if (r || buf_printf(&art, "%s/%s", dest, rel) < 0) {
		r = buf_err(err, "build cache");
		goto out;
	}
	r = whole ? workdir_copy_tree(from.data, to.data, &e) : workdir_copy_path(from.data, to.data, &e);
	copied = 1;
	if (r == 0) {
		char *lp = buf_strdupf("%s/%s/log", bc->dir, key);
		char head[512];
		snprintf(head, sizeof(head), "plumb: restored from %s (entry %s); "
			 "the log of the build that made it follows\n", origin ? origin : "the build cache", key);
		r = lp ? copy_log(lp, log, head, &e) : plumb_err_oom(&e, "build cache");
		free(lp);
	}
	/* What was restored is what the manifest lists, file for file. */
	if (r == 0 && (r = cachetree_scan(dest, whole ? NULL : rel, "tree", CACHETREE_HASH, &got, &e)) == 0 &&
	    cachetree_compare(&want, whole ? NULL : rel, &got, 1, "tree", why, sizeof(why)) < 0)
		goto refuse;
	if (cleanup_signal_pending()) {
		r = plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", cleanup_signal_pending());
		goto out;
	}
	if (r < 0) {
		snprintf(why, sizeof(why), "could not be restored (%s)", e.msg);
		goto refuse;
	}
	if (build_artifact_digest(art.data, sha, &size, &e) < 0 || strcmp(sha, meta->sha256) != 0) {
		snprintf(why, sizeof(why), "tree/%s: its SHA-256 is not the artifact's the entry records", rel);
		goto refuse;
	}
	/* Used now: the last to be evicted. */
	{
		char *ep = buf_strdupf("%s/%s/entry", bc->dir, key);
		if (ep)
			utimensat(AT_FDCWD, ep, NULL, 0);
		free(ep);
	}
	r = 1;
	goto out;
refuse:
	/* Unusable: undo what was copied and evict the entry. */
	snprintf(note, note_size, "build cache entry %s/%s: %s", bc->dir, key, why);
	plumb_err_clear(&e);
	if (copied)
		workdir_remove_tree(to.data, &e);
	plumb_err_clear(&e);
	drop(bc, key, &e);
	r = 0;
out:
	free(built_in);
	cachetree_release(&want);
	cachetree_release(&got);
	buf_release(&from);
	buf_release(&to);
	buf_release(&art);
	return r;
}

int buildcache_evict(struct buildcache *bc, const char *key, struct plumb_err *err)
{
	if (!is_key(key))
		return plumb_err_set(err, PLUMB_EINTERNAL, "build cache: '%s' is not a key", key);
	return drop(bc, key, err);
}

/* Write text to the new file dir/name, sealed. */
static int write_new(const char *dir, const char *name, const struct buf *text, struct plumb_err *err)
{
	char *path = buf_strdupf("%s/%s", dir, name);
	int fd, r;

	if (!path)
		return plumb_err_oom(err, "build cache");
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "create");
	} else {
		r = write_all(fd, text->data ? text->data : "", text->len, path, err);
		if (close(fd) < 0 && r == 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, path, "close");
		if (r == 0)
			r = seal(path, err);
	}
	free(path);
	return r;
}

int buildcache_store(struct buildcache *bc, const char *src, const char *rel, int whole,
		     const char *log, struct buildcache_meta *meta, struct plumb_err *err)
{
	static unsigned seq;
	struct cachetree list = { 0 };
	struct buf tmp, p, text;
	uint64_t bytes = 0;
	int r;

	buf_init(&tmp, 1 << 16);
	buf_init(&p, 1 << 16);
	buf_init(&text, MANIFEST_MAX);
	if (buf_printf(&tmp, "%s/tmp-%ld-%u", bc->dir, (long)getpid(), seq++) < 0) {
		r = buf_err(err, "build cache");
		goto out;
	}
	if (mkdir(tmp.data, 0755) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, tmp.data, "mkdir");
		goto out;
	}
	if ((r = seal(tmp.data, err)) < 0)
		goto fail;
	if (buf_printf(&p, "%s/tree", tmp.data) < 0) {
		r = buf_err(err, "build cache");
		goto fail;
	}
	if (whole) {
		r = workdir_copy_tree(src, p.data, err);
	} else {
		/* Only the artifact, at its place in the tree. */
		char *from = buf_strdupf("%s/%s", src, rel), *to = buf_strdupf("%s/%s", p.data, rel);
		char *slash = to ? strrchr(to, '/') : NULL;
		r = !from || !to ? plumb_err_oom(err, "build cache") : 0;
		if (r == 0 && slash) {
			*slash = '\0';
			r = mkdir_p(to, err);
			*slash = '/';
		}
		if (r == 0)
			r = workdir_copy_path(from, to, err);
		free(from);
		free(to);
	}
	/* The manifest: every file's hash, each item nobody else's to write;
	 * a link or a special file in the tree keeps it out of the cache. */
	if (r == 0 && (r = seal(p.data, err)) == 0)
		r = cachetree_scan(p.data, NULL, "tree", CACHETREE_HASH | CACHETREE_SEAL, &list, err);
	if (r == 0 && (buf_addstr(&text, MANIFEST_MAGIC "\n") < 0 || cachetree_write(&list, &text) < 0))
		r = buf_err(err, "build cache manifest");
	if (r == 0)
		r = write_new(tmp.data, "manifest", &text, err);
	if (r == 0)
		digest_buffer_hex(text.data, text.len, meta->manifest);
	if (r == 0 && log) {
		buf_reset(&p);
		r = buf_printf(&p, "%s/log", tmp.data) < 0 ? buf_err(err, "build cache")
							    : copy_log(log, p.data, NULL, err);
		if (r == 0)
			r = seal(p.data, err);
	} else if (r == 0) {
		buf_reset(&text);
		r = write_new(tmp.data, "log", &text, err);
	}
	if (r == 0)
		r = workdir_tree_size(tmp.data, &bytes, err);
	if (r < 0)
		goto fail;
	meta->bytes = bytes;
	meta->created = (int64_t)time(NULL);
	meta->whole = whole;
	buf_reset(&text);
	if (buf_printf(&text, "%s\nwhat %s\nsha256 %s\nsize %" PRIu64 "\nbytes %" PRIu64
		       "\nbuildNs %" PRIu64 "\ncreated %" PRId64 "\nwhole %d\nmanifest %s\nfolder ",
		       ENTRY_MAGIC, meta->what, meta->sha256, meta->size, meta->bytes,
		       meta->build_ns, meta->created, meta->whole, meta->manifest) < 0 ||
	    cachetree_put_path(&text, meta->folder ? meta->folder : "") < 0 ||
	    buf_printf(&text, "material\n%s", meta->material ? meta->material : "") < 0) {
		r = buf_err(err, "build cache");
		goto fail;
	}
	/* The entry file last: a folder without it is never restored.  Not
	 * synced (nothing in the entry is): the folder's rename is what makes
	 * it whole for a run killed meanwhile, and what a power failure tears
	 * is refused at restore: an entry file unreadable, or a file that is
	 * not what the manifest lists. */
	if ((r = write_new(tmp.data, "entry", &text, err)) < 0)
		goto fail;
	buf_reset(&p);
	if (buf_printf(&p, "%s/%s", bc->dir, meta->key) < 0) {
		r = buf_err(err, "build cache");
		goto fail;
	}
	if (rename(tmp.data, p.data) < 0) {
		struct buildcache_meta there;
		char *material = NULL, *folder = NULL;
		if (errno != EEXIST && errno != ENOTEMPTY) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, p.data, "rename");
			goto fail;
		}
		/* Another run stored the same key first: keep its entry, unless
		 * it was built in another folder (a run in another work folder):
		 * then this one, which a run here can restore, takes its place. */
		if (read_entry(bc, meta->key, &there, &material, &folder) == 0 &&
		    strcmp(folder, meta->folder ? meta->folder : "") != 0 &&
		    drop(bc, meta->key, err) == 0 && rename(tmp.data, p.data) == 0)
			tmp.len = 0;
		free(material);
		free(folder);
		if (tmp.len)
			workdir_remove_tree(tmp.data, err);
	}
	if (bc->limit && bc->counted && bc->total + meta->bytes <= bc->limit) {
		bc->total += meta->bytes;
		r = 0;
	} else {
		r = bc->limit ? buildcache_prune(bc, bc->limit, NULL, NULL, err) : 0;
	}
	goto out;
fail:
	{
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		workdir_remove_tree(tmp.data, &ignored);
	}
out:
	cachetree_release(&list);
	buf_release(&tmp);
	buf_release(&p);
	buf_release(&text);
	if (r < 0)
		plumb_err_prefix(err, "build cache");
	return r;
}

static int by_use(const void *a, const void *b)
{
	const struct buildcache_meta *x = a, *y = b;

	if (x->used != y->used)
		return x->used > y->used ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* A tmp-<pid>-... folder whose process is gone (or any, when all is set). */
static int stale_tmp(const char *name)
{
	long pid;

	if (strncmp(name, "tmp-", 4) != 0)
		return 0;
	pid = strtol(name + 4, NULL, 10);
	return pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

int buildcache_list(struct buildcache *bc, struct buildcache_meta **out, size_t *n,
		    struct plumb_err *err)
{
	DIR *d = opendir(bc->dir);
	struct buildcache_meta *v = NULL;
	struct dirent *e;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : plumb_err_errno(err, PLUMB_EIO, errno, bc->dir, "read folder");
	while ((e = readdir(d)) != NULL) {
		struct buildcache_meta m;
		if (!is_key(e->d_name) || read_entry(bc, e->d_name, &m, NULL, NULL) < 0)
			continue;
		if (*n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct buildcache_meta *nv = realloc(v, nc * sizeof(*nv));
			if (!nv) {
				closedir(d);
				free(v);
				return plumb_err_oom(err, "build cache");
			}
			v = nv;
			cap = nc;
		}
		v[(*n)++] = m;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_use);
	*out = v;
	return 0;
}

void buildcache_list_free(struct buildcache_meta *list)
{
	free(list);
}

int buildcache_prune(struct buildcache *bc, uint64_t limit, size_t *removed,
		     uint64_t *freed, struct plumb_err *err)
{
	struct buildcache_meta *v;
	uint64_t total = 0;
	size_t n, gone = 0;
	uint64_t bytes = 0;
	DIR *d;
	int r;

	/* Leftovers of killed runs, and folders that are not complete entries. */
	if ((d = opendir(bc->dir)) != NULL) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			struct buildcache_meta m;
			struct plumb_err ignored;
			plumb_err_clear(&ignored);
			if (stale_tmp(e->d_name) ||
			    (is_key(e->d_name) && read_entry(bc, e->d_name, &m, NULL, NULL) < 0))
				drop(bc, e->d_name, &ignored);
		}
		closedir(d);
	}
	if ((r = buildcache_list(bc, &v, &n, err)) < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		total += v[i].bytes;
		if (limit && total <= limit)
			continue;
		if ((r = drop(bc, v[i].key, err)) == 0) {
			gone++;
			bytes += v[i].bytes;
		}
	}
	buildcache_list_free(v);
	bc->total = total - bytes;
	bc->counted = r == 0;
	if (removed)
		*removed = gone;
	if (freed)
		*freed = bytes;
	return r;
}
