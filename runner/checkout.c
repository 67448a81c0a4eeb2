/*
 * runner/checkout.c: opening or mirroring the repository, resolving base
 * and candidate, and exporting their trees; see checkout.h.
 *
 * Why a mirror (fetching every ref under its own name) for repo.url: every branch and tag
 * of the remote resolves by its plain name, exactly as it would in a local
 * clone, and HEAD follows the remote's default branch, so "candidate = HEAD"
 * means the same thing for a URL as for a path.
 *
 * Why WORKTREE is hashed into an in-memory object store (git_mempack): the
 * run must record a tree id for the uncommitted state without writing
 * objects into the user's repository or touching its index file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/git2.h"
#include "formats/config.h"
#include "formats/digest.h"
#include "runner/checkout.h"
#include "runner/workdir.h"
#include "common/banned.h"

#define EXPORT_PATH_MAX 8192

static const char *git_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* A network failure is worth retrying later (74); anything else is input (3). */
static int git_code(void)
{
	const git_error *e = git_error_last();

	if (e && (e->klass == GIT_ERROR_NET || e->klass == GIT_ERROR_SSL ||
		  e->klass == GIT_ERROR_HTTP || e->klass == GIT_ERROR_SSH ||
		  e->klass == GIT_ERROR_OS))
		return PLUMB_EIO;
	return PLUMB_EINPUT;
}

int checkout_open_config(struct checkout_repo *r, const struct plumb_config *cfg,
			 struct plumb_err *err)
{
	struct buf dir;
	int rc;

	if (cfg->repo.url)
		return checkout_open(r, NULL, cfg->repo.url, err);
	buf_init(&dir, PATH_MAX);
	rc = config_repo_dir(cfg, &dir, err);
	if (rc == 0)
		rc = checkout_open(r, dir.data, NULL, err);
	buf_release(&dir);
	return rc;
}

void checkout_close(struct checkout_repo *r)
{
	if (r->repo)
		git_repository_free(r->repo);
	free(r->where);
	free(r->cache);
	memset(r, 0, sizeof(*r));
}

void checkout_side_release(struct checkout_side *side)
{
	free(side->ref);
	free(side->subject);
	free(side->author);
	memset(side, 0, sizeof(*side));
}

/*
 * Fetch every ref of url into the same name, prune, and point HEAD where
 * the remote's HEAD points.  The remote is anonymous and url is used as
 * written (no url.*.insteadOf rewriting): both keep libgit2 1.5 away from
 * its config regex matching, which leaks (fixed upstream by libgit2
 * #6382); the mirror's own "origin" is only read as text, to check that
 * the cache holds the right repository.
 */
static int mirror_fetch(git_repository *repo, const char *url, struct plumb_err *err)
{
	static char spec[] = "+refs/*:refs/*";
	char *specs[] = { spec };
	git_strarray refspecs = { specs, 1 };
	git_remote *remote = NULL;
	git_remote_create_options ro;
	git_remote_callbacks cbs;
	git_fetch_options fo;
	git_config *cfg = NULL;
	git_buf head = { 0 }, origin = { 0 };
	int r = 0;

	if (git_repository_config(&cfg, repo) < 0 ||
	    git_config_get_string_buf(&origin, cfg, "remote.origin.url") < 0) {
		r = plumb_err_set(err, PLUMB_EINPUT, "repo.url: the cached mirror has no origin: %s", git_msg());
		goto out;
	}
	if (strcmp(origin.ptr, url) != 0) {
		r = plumb_err_set(err, PLUMB_EINPUT, "repo.url: the cached mirror is of '%s', not '%s'",
				  origin.ptr, url);
		goto out;
	}
	git_remote_create_options_init(&ro, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	ro.repository = repo;
	ro.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF | GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC;
	if (git_remote_create_with_opts(&remote, url, &ro) < 0) {
		r = plumb_err_set(err, PLUMB_EINPUT, "repo.url: '%s': %s", url, git_msg());
		goto out;
	}
	git_remote_init_callbacks(&cbs, GIT_REMOTE_CALLBACKS_VERSION);
	git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION);
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
	if (git_remote_connect(remote, GIT_DIRECTION_FETCH, &cbs, NULL, NULL) < 0 ||
	    git_remote_download(remote, &refspecs, &fo) < 0 ||
	    git_remote_update_tips(remote, &cbs, 0, GIT_REMOTE_DOWNLOAD_TAGS_ALL, "plumb: fetch") < 0 ||
	    git_remote_prune(remote, &cbs) < 0) {
		r = plumb_err_set(err, git_code(), "repo.url: cannot fetch '%s': %s", url, git_msg());
		goto out;
	}
	if (git_remote_default_branch(&head, remote) == 0 &&
	    git_repository_set_head(repo, head.ptr) < 0) {
		r = plumb_err_set(err, PLUMB_EINPUT, "repo.url: cannot point HEAD at %s: %s",
				  head.ptr, git_msg());
		goto out;
	}
out:
	git_buf_dispose(&head);
	git_buf_dispose(&origin);
	git_config_free(cfg);
	if (remote) {
		git_remote_disconnect(remote);
		git_remote_free(remote);
	}
	return r;
}

/* Clone or update the mirror of url under the cache; sets r->repo. */
static int open_url(struct checkout_repo *r, const char *url, struct plumb_err *err)
{
	char hex[DIGEST_HEX];
	struct buf dir, path, tmp;
	git_repository *repo = NULL;
	int lockfd = -1, rc = 0;

	buf_init(&dir, EXPORT_PATH_MAX);
	buf_init(&path, EXPORT_PATH_MAX);
	buf_init(&tmp, EXPORT_PATH_MAX);
	digest_buffer_hex(url, strlen(url), hex);
	hex[16] = '\0';   /* 8 bytes name a mirror */
	if ((rc = workdir_cache_path("repos", &dir, err)) < 0)
		goto out;
	if ((rc = mkdir_p(dir.data, err)) < 0)
		goto out;
	if (buf_printf(&path, "%s/%s.lock", dir.data, hex) < 0) {
		rc = buf_err(err, "repo.url");
		goto out;
	}
	/* Runs in other work folders may share the mirror: wait for them. */
	lockfd = open(path.data, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lockfd < 0) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, path.data, "open lock");
		goto out;
	}
	while (flock(lockfd, LOCK_EX) < 0) {
		if (errno != EINTR || cleanup_signal_pending()) {
			rc = plumb_err_errno(err, PLUMB_EIO, errno, path.data, "lock");
			goto out;
		}
	}
	buf_reset(&path);
	if (buf_printf(&path, "%s/%s.git", dir.data, hex) < 0 ||
	    buf_printf(&tmp, "%s/%s.git.tmp-%ld", dir.data, hex, (long)getpid()) < 0) {
		rc = buf_err(err, "repo.url");
		goto out;
	}
	r->cache = strdup(path.data);
	if (!r->cache) {
		rc = plumb_err_oom(err, "repo.url");
		goto out;
	}
	if (access(path.data, F_OK) == 0) {
		if (git_repository_open_bare(&repo, path.data) < 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "repo.url: cannot open the cached mirror %s: %s",
					   path.data, git_msg());
			goto out;
		}
		rc = mirror_fetch(repo, url, err);
	} else {
		git_config *cfg = NULL;
		if ((rc = workdir_remove_tree(tmp.data, err)) < 0)
			goto out;
		/* An "origin" a person can fetch with too: every ref, same name. */
		if (git_repository_init(&repo, tmp.data, 1) < 0 ||
		    git_repository_config(&cfg, repo) < 0 ||
		    git_config_set_string(cfg, "remote.origin.url", url) < 0 ||
		    git_config_set_string(cfg, "remote.origin.fetch", "+refs/*:refs/*") < 0) {
			rc = plumb_err_set(err, PLUMB_EIO, "repo.url: cannot create the mirror in %s: %s",
					   tmp.data, git_msg());
			git_config_free(cfg);
			goto out;
		}
		git_config_free(cfg);
		rc = mirror_fetch(repo, url, err);
		if (rc == 0) {
			git_repository_free(repo);
			repo = NULL;
			if (rename(tmp.data, path.data) < 0) {
				rc = plumb_err_errno(err, PLUMB_EIO, errno, path.data, "rename");
			} else if (git_repository_open_bare(&repo, path.data) < 0) {
				rc = plumb_err_set(err, PLUMB_EIO, "repo.url: cannot open %s: %s",
						   path.data, git_msg());
			}
		}
		if (rc < 0) {
			struct plumb_err ignored;
			git_repository_free(repo);
			repo = NULL;
			workdir_remove_tree(tmp.data, &ignored);
		}
	}
	if (rc == 0) {
		r->repo = repo;
		repo = NULL;
		r->bare = 1;
	}
out:
	git_repository_free(repo);
	if (lockfd >= 0)
		close(lockfd);   /* releases the flock */
	buf_release(&dir);
	buf_release(&path);
	buf_release(&tmp);
	return rc;
}

int checkout_open(struct checkout_repo *r, const char *path, const char *url,
		  struct plumb_err *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = git2_init(err)) < 0)
		return rc;
	r->where = strdup(url ? url : path);
	if (!r->where)
		return plumb_err_oom(err, "repository");
	if (url) {
		rc = open_url(r, url, err);
	} else if (git_repository_open_ext(&r->repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "repo.path: '%s' is not a git repository (name its top folder): %s",
				   path, git_msg());
	} else {
		/* Name the repository by its resolved folder, not by "." */
		const char *wd = git_repository_workdir(r->repo);
		char *resolved;
		size_t len;
		r->bare = git_repository_is_bare(r->repo);
		resolved = strdup(wd ? wd : git_repository_path(r->repo));
		if (resolved) {
			len = strlen(resolved);
			if (len > 1 && resolved[len - 1] == '/')
				resolved[len - 1] = '\0';
			free(r->where);
			r->where = resolved;
		}
		rc = 0;
	}
	if (rc < 0) {
		free(r->where);
		free(r->cache);
		if (r->repo)
			git_repository_free(r->repo);
		memset(r, 0, sizeof(*r));
	}
	return rc;
}

/* A tree entry name that is safe to create inside the export folder. */
static int safe_name(const char *name)
{
	return *name && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
	       strcasecmp(name, ".git") != 0 && !strchr(name, '/');
}

static int export_tree(git_repository *repo, const git_tree *tree, int dfd,
		       struct buf *path, const char *key,
		       struct checkout_side *side, struct plumb_err *err)
{
	size_t n = git_tree_entrycount(tree);
	int rc = 0;

	for (size_t i = 0; i < n && rc == 0; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		git_filemode_t mode = git_tree_entry_filemode(e);
		size_t len = path->len;

		if (cleanup_signal_pending())
			return plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d",
					     cleanup_signal_pending());
		if (!safe_name(name))
			return plumb_err_set(err, PLUMB_EINPUT, "%s: the tree holds an unsafe entry '%s' in '%s'",
					     key, name, path->data);
		if (buf_printf(path, "/%s", name) < 0)
			return buf_err(err, name);
		side->files++;
		switch (mode) {
		case GIT_FILEMODE_TREE: {
			git_tree *sub = NULL;
			int sfd;
			if (mkdirat(dfd, name, 0777) < 0) {
				rc = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "mkdir");
				break;
			}
			if (git_tree_lookup(&sub, repo, git_tree_entry_id(e)) < 0) {
				rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s: %s", key, path->data, git_msg());
				break;
			}
			sfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sfd < 0) {
				rc = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "open folder");
			} else {
				rc = export_tree(repo, sub, sfd, path, key, side, err);
				close(sfd);
			}
			git_tree_free(sub);
			side->files--;   /* count files and links, not folders */
			break;
		}
		case GIT_FILEMODE_BLOB:
		case GIT_FILEMODE_BLOB_EXECUTABLE:
		case GIT_FILEMODE_LINK: {
			git_blob *blob = NULL;
			const void *data;
			size_t size;
			if (git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0) {
				rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s: %s", key, path->data, git_msg());
				break;
			}
			data = git_blob_rawcontent(blob);
			size = (size_t)git_blob_rawsize(blob);
			if (mode == GIT_FILEMODE_LINK) {
				char *target = strndup(data, size);
				if (!target)
					rc = plumb_err_oom(err, path->data);
				else if (symlinkat(target, dfd, name) < 0)
					rc = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "symlink");
				free(target);
			} else {
				/* The umask applies, as it does for git checkout. */
				int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
						mode == GIT_FILEMODE_BLOB_EXECUTABLE ? 0777 : 0666);
				if (fd < 0) {
					rc = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "create");
				} else {
					rc = write_all(fd, data, size, path->data, err);
					if (close(fd) < 0 && rc == 0)
						rc = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "close");
				}
			}
			git_blob_free(blob);
			break;
		}
		case GIT_FILEMODE_COMMIT:
			/* A submodule: its content is not in this repository. */
			if (mkdirat(dfd, name, 0777) < 0)
				rc = plumb_err_errno(err, PLUMB_EIO, errno, path->data, "mkdir");
			side->submodules++;
			break;
		default:
			break;
		}
		path->len = len;
		path->data[len] = '\0';
	}
	return rc;
}

static int fill_commit(struct checkout_side *side, const git_commit *c,
		       struct plumb_err *err)
{
	const git_signature *a = git_commit_author(c);
	const char *subject = git_commit_summary((git_commit *)c);
	struct buf b;

	git_oid_tostr(side->commit, sizeof(side->commit), git_commit_id(c));
	side->subject = strdup(subject ? subject : "");
	buf_init(&b, 4096);
	if (buf_printf(&b, "%s <%s>", a && a->name ? a->name : "", a && a->email ? a->email : "") < 0) {
		buf_release(&b);
		return buf_err(err, "author");
	}
	side->author = buf_detach(&b, NULL);
	side->time = (int64_t)git_commit_time(c);
	side->tz_minutes = git_commit_time_offset(c);
	if (!side->subject || !side->author)
		return plumb_err_oom(err, "commit");
	return 0;
}

/* Hash the working copy into the in-memory store; *out is its tree id. */
static int worktree_tree(struct checkout_repo *r, git_oid *out, const char *key,
			 struct plumb_err *err)
{
	git_index *idx = NULL;
	int rc = 0;

	if (r->cache || r->bare)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: WORKTREE needs repo.path with a working copy (%s has none)",
				     key, r->where);
	{
		git_odb *odb = NULL;
		git_odb_backend *mp = NULL;
		/* Objects written from now on stay in memory (highest priority). */
		if (git_repository_odb(&odb, r->repo) < 0 || git_mempack_new(&mp) < 0 ||
		    git_odb_add_backend(odb, mp, 1000) < 0) {
			git_odb_free(odb);
			return plumb_err_set(err, PLUMB_EINTERNAL, "%s: in-memory object store: %s", key, git_msg());
		}
		git_odb_free(odb);
	}
	if (git_repository_index(&idx, r->repo) < 0 ||
	    git_index_read(idx, 1) < 0 ||
	    git_index_update_all(idx, NULL, NULL, NULL) < 0 ||
	    git_index_write_tree(out, idx) < 0)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: cannot read the working copy of %s: %s",
				   key, r->where, git_msg());
	/* Forget the in-memory changes: the index file is never written. */
	if (idx)
		git_index_read(idx, 1);
	git_index_free(idx);
	return rc;
}

int checkout_export(struct checkout_repo *r, const char *ref, const char *dest,
		    const char *key, struct checkout_side *side,
		    struct plumb_err *err)
{
	git_object *obj = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_oid tree_id;
	struct buf path;
	int dfd = -1, rc = 0;

	memset(side, 0, sizeof(*side));
	side->ref = strdup(ref);
	if (!side->ref)
		return plumb_err_oom(err, key);
	buf_init(&path, EXPORT_PATH_MAX);
	if (strcmp(ref, CHECKOUT_WORKTREE) == 0) {
		side->worktree = 1;
		if ((rc = worktree_tree(r, &tree_id, key, err)) < 0)
			goto out;
		if (git_revparse_single(&obj, r->repo, "HEAD") == 0 &&
		    git_object_peel((git_object **)&commit, obj, GIT_OBJECT_COMMIT) == 0) {
			if ((rc = fill_commit(side, commit, err)) < 0)
				goto out;
			side->dirty = !git_oid_equal(&tree_id, git_commit_tree_id(commit));
		} else {
			/* No commit yet: everything is uncommitted. */
			side->dirty = 1;
			side->subject = strdup("");
			side->author = strdup("");
			if (!side->subject || !side->author) {
				rc = plumb_err_oom(err, key);
				goto out;
			}
		}
	} else {
		if (git_revparse_single(&obj, r->repo, ref) < 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a revision of %s: %s",
					   key, ref, r->where, git_msg());
			goto out;
		}
		if (git_object_peel((git_object **)&commit, obj, GIT_OBJECT_COMMIT) < 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' does not name a commit: %s",
					   key, ref, git_msg());
			goto out;
		}
		if ((rc = fill_commit(side, commit, err)) < 0)
			goto out;
		git_oid_cpy(&tree_id, git_commit_tree_id(commit));
	}
	git_oid_tostr(side->tree, sizeof(side->tree), &tree_id);
	if (git_tree_lookup(&tree, r->repo, &tree_id) < 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: tree %s: %s", key, side->tree, git_msg());
		goto out;
	}
	if (mkdir(dest, 0777) < 0) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dest, "mkdir");
		goto out;
	}
	dfd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dest, "open folder");
		goto out;
	}
	if (buf_addstr(&path, dest) < 0) {
		rc = buf_err(err, dest);
		goto out;
	}
	rc = export_tree(r->repo, tree, dfd, &path, key, side, err);
out:
	if (dfd >= 0)
		close(dfd);
	buf_release(&path);
	git_tree_free(tree);
	git_commit_free(commit);
	git_object_free(obj);
	return rc;
}

struct tag_choice {
	char *name;
	git_oid commit;
	git_time_t time;
};

/* Newest commit first; of one time, the first name. */
static int tag_choice_cmp(const void *a, const void *b)
{
	const struct tag_choice *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	return strcmp(x->name, y->name);
}

int checkout_latest_tag(struct checkout_repo *r, const char *candidate, const char *glob,
			const char *key, char **tag, struct plumb_err *err)
{
	git_strarray names = { NULL, 0 };
	struct tag_choice *v = NULL, *best = NULL;
	git_object *obj = NULL;
	git_commit *c = NULL;
	git_oid cand;
	size_t n = 0;
	int rc = 0;

	*tag = NULL;
	if (strcmp(candidate, CHECKOUT_WORKTREE) == 0)
		candidate = "HEAD";
	if (git_revparse_single(&obj, r->repo, candidate) < 0 ||
	    git_object_peel((git_object **)&c, obj, GIT_OBJECT_COMMIT) < 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: " CONFIG_LATEST_TAG ": the candidate '%s' is not a commit of %s: %s",
				   key, candidate, r->where, git_msg());
		goto out;
	}
	git_oid_cpy(&cand, git_commit_id(c));
	git_commit_free(c);
	c = NULL;
	git_object_free(obj);
	obj = NULL;
	if (git_tag_list_match(&names, glob ? glob : "*", r->repo) < 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: " CONFIG_LATEST_TAG ": cannot list the tags of %s: %s",
				   key, r->where, git_msg());
		goto out;
	}
	if (names.count && !(v = calloc(names.count, sizeof(*v)))) {
		rc = plumb_err_oom(err, key);
		goto out;
	}
	/* Every matching tag that names a commit other than the candidate's. */
	for (size_t i = 0; i < names.count; i++) {
		struct buf ref;
		int found;

		buf_init(&ref, EXPORT_PATH_MAX);
		found = buf_printf(&ref, "refs/tags/%s", names.strings[i]) == 0 &&
			git_revparse_single(&obj, r->repo, buf_cstr(&ref)) == 0 &&
			git_object_peel((git_object **)&c, obj, GIT_OBJECT_COMMIT) == 0;
		buf_release(&ref);
		if (found && !git_oid_equal(git_commit_id(c), &cand)) {
			git_oid_cpy(&v[n].commit, git_commit_id(c));
			v[n].time = git_commit_time(c);
			v[n].name = names.strings[i];
			n++;
		}
		git_commit_free(c);
		c = NULL;
		git_object_free(obj);
		obj = NULL;
	}
	if (n)
		qsort(v, n, sizeof(*v), tag_choice_cmp);
	/* The newest one in the candidate's history; of one commit time (a
	 * script commits several a second), the one that descends from the
	 * others. */
	for (size_t i = 0; i < n; i++) {
		int d;
		if (best && v[i].time != best->time)
			break;
		d = git_graph_descendant_of(r->repo, &cand, &v[i].commit);
		if (d == 1 && best)
			d = git_graph_descendant_of(r->repo, &v[i].commit, &best->commit);
		if (d < 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: " CONFIG_LATEST_TAG ": tag '%s': %s",
					   key, v[i].name, git_msg());
			goto out;
		}
		if (d == 1)
			best = &v[i];
	}
	if (best && !(*tag = strdup(best->name))) {
		rc = plumb_err_oom(err, key);
		goto out;
	}
	if (!best)
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "%s: " CONFIG_LATEST_TAG ": no tag%s%s%s before the candidate '%s' in %s "
				   "(repo.releaseTags chooses which tags count)",
				   key, glob ? " matching '" : "", glob ? glob : "", glob ? "'" : "",
				   candidate, r->where);
out:
	git_commit_free(c);
	git_object_free(obj);
	free(v);
	git_strarray_dispose(&names);
	return rc;
}

void checkout_sides_free(struct checkout_side *sides, size_t n)
{
	for (size_t i = 0; i < n && sides; i++)
		checkout_side_release(&sides[i]);
	free(sides);
}

/* ref as a commit (*out, to free), or PLUMB_EINPUT naming opt. */
static int lookup_commit(struct checkout_repo *r, const char *ref, const char *opt,
			 git_commit **out, struct plumb_err *err)
{
	git_object *obj = NULL;
	int rc = 0;

	*out = NULL;
	if (git_revparse_single(&obj, r->repo, ref) < 0)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a revision of %s: %s",
				   opt, ref, r->where, git_msg());
	else if (git_object_peel((git_object **)out, obj, GIT_OBJECT_COMMIT) < 0)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' does not name a commit: %s",
				   opt, ref, git_msg());
	git_object_free(obj);
	return rc;
}

/* One commit of the line: its id as ref, its tree, subject, author, time. */
static int fill_line_commit(struct checkout_side *side, const git_commit *c, struct plumb_err *err)
{
	memset(side, 0, sizeof(*side));
	if (fill_commit(side, c, err) < 0)
		return -1;
	git_oid_tostr(side->tree, sizeof(side->tree), git_commit_tree_id(c));
	side->ref = strdup(side->commit);
	return side->ref ? 0 : plumb_err_oom(err, "commit");
}

int checkout_first_parents(struct checkout_repo *r, const char *good, const char *bad,
			   size_t max, struct checkout_side **out, size_t *n,
			   struct plumb_err *err)
{
	git_commit *g = NULL, *c = NULL;
	struct checkout_side *v = NULL;
	size_t len = 0, cap = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if ((rc = lookup_commit(r, good, "--good", &g, err)) < 0 ||
	    (rc = lookup_commit(r, bad, "--bad", &c, err)) < 0)
		goto out;
	if (git_oid_equal(git_commit_id(g), git_commit_id(c))) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "--good '%s' and --bad '%s' are the same commit", good, bad);
		goto out;
	}
	/* Walk back from bad, newest first, then turn the list around. */
	for (;;) {
		git_commit *parent = NULL;
		if (len == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			struct checkout_side *nv = realloc(v, ncap * sizeof(*nv));
			if (!nv) {
				rc = plumb_err_oom(err, "history");
				goto out;
			}
			v = nv;
			cap = ncap;
		}
		if ((rc = fill_line_commit(&v[len], c, err)) < 0) {
			checkout_side_release(&v[len]);
			goto out;
		}
		len++;
		if (git_oid_equal(git_commit_id(g), git_commit_id(c)))
			break;
		if (len > max) {
			rc = plumb_err_set(err, PLUMB_EINPUT,
					   "--good '%s' is more than %zu commits before --bad '%s' (or not on its first-parent line)",
					   good, max, bad);
			goto out;
		}
		if (git_commit_parentcount(c) == 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT,
					   "--good '%s' is not an ancestor of --bad '%s' on its first-parent line",
					   good, bad);
			goto out;
		}
		if (git_commit_lookup(&parent, r->repo, git_commit_parent_id(c, 0)) < 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "--bad '%s': a parent of %s: %s", bad,
					   v[len - 1].commit, git_msg());
			goto out;
		}
		git_commit_free(c);
		c = parent;
	}
	for (size_t i = 0; i < len / 2; i++) {
		struct checkout_side t = v[i];
		v[i] = v[len - 1 - i];
		v[len - 1 - i] = t;
	}
	*out = v;
	*n = len;
	v = NULL;
	len = 0;
out:
	checkout_sides_free(v, len);
	git_commit_free(c);
	git_commit_free(g);
	return rc;
}

/* url with any user and password after "scheme://" left out: the same
 * project whoever fetches it. */
static char *url_without_userinfo(const char *url)
{
	const char *host = strstr(url, "://"), *at, *slash;
	char *out;

	if (!host)
		return strdup(url);
	host += 3;
	at = strchr(host, '@');
	slash = strchr(host, '/');
	if (!at || (slash && slash < at))
		return strdup(url);
	out = malloc(strlen(url) + 1);
	if (out) {
		memcpy(out, url, (size_t)(host - url));
		memcpy(out + (host - url), at + 1, strlen(at + 1) + 1);
	}
	return out;
}

int checkout_project(struct checkout_repo *r, const char *url, const char *commit, char **out,
		     struct plumb_err *err)
{
	git_config *cfg = NULL;
	git_buf origin = { 0 };
	git_revwalk *walk = NULL;
	git_oid oid, root;
	char hex[GIT_OID_HEXSZ + 1];
	int found = 0;

	*out = NULL;
	/* The remote the project is known by: repo.url, else the folder's origin. */
	if (!url && git_repository_config(&cfg, r->repo) == 0 &&
	    git_config_get_string_buf(&origin, cfg, "remote.origin.url") == 0 && origin.ptr[0])
		url = origin.ptr;
	if (url) {
		*out = url_without_userinfo(url);
		git_buf_dispose(&origin);
		git_config_free(cfg);
		return *out ? 0 : plumb_err_oom(err, "project");
	}
	git_buf_dispose(&origin);
	git_config_free(cfg);
	/* Else the first commit of the candidate's history: the same on every clone. */
	if (git_oid_fromstr(&oid, commit) < 0 || git_revwalk_new(&walk, r->repo) < 0 ||
	    git_revwalk_push(walk, &oid) < 0) {
		git_revwalk_free(walk);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: cannot walk the history of %s: %s",
				     r->where, commit, git_msg());
	}
	git_revwalk_simplify_first_parent(walk);
	while (git_revwalk_next(&oid, walk) == 0) {
		root = oid;
		found = 1;
	}
	git_revwalk_free(walk);
	if (!found)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no first commit under %s", r->where, commit);
	git_oid_tostr(hex, sizeof(hex), &root);
	*out = strdup(hex);
	return *out ? 0 : plumb_err_oom(err, "project");
}
