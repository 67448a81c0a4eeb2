/*
 * runner/checkout.h: the repository, the two revisions, and their trees
 * exported into the run folder (DESIGN §5.1).
 *
 * A repository is a local one (repo.path: its top folder, or the .git
 * folder of a bare one; no search upwards, so a folder that merely sits
 * inside some other repository is refused) or a URL (repo.url) mirrored
 * with libgit2 into
 * $XDG_CACHE_HOME/plumb/repos/<hash>.git and fetched again on later runs.
 * A revision is anything git rev-parse resolves to a commit (tag, branch,
 * HEAD~N, full or short id), or WORKTREE: the working copy with its
 * uncommitted changes, as `git commit -a` would take it: every file in
 * the index with its working-copy content, deleted files left out, new
 * files once they are added (untracked files are not part of it, so an
 * untracked plumb.conf does not make the copy dirty).  It is hashed in
 * memory (neither the repository nor its index is written) and recorded
 * as dirty when its tree differs from HEAD's.
 *
 * Export writes the tree without .git: regular files with their executable
 * bit, symbolic links as links; content as stored (no smudge filters, so a
 * Git LFS file is exported as its pointer), submodules as empty folders.
 *
 * Ownership: struct checkout_repo and struct checkout_side are
 * caller-owned storage; checkout_close() and checkout_side_release() free
 * what they hold.  Strings in a side are heap copies.
 */
#ifndef PLUMB_RUNNER_CHECKOUT_H
#define PLUMB_RUNNER_CHECKOUT_H

#include <stddef.h>
#include <stdint.h>

struct plumb_err;
struct git_repository;

#define CHECKOUT_WORKTREE "WORKTREE"

struct checkout_repo {
	struct git_repository *repo;
	char *where;      /* the path or URL, as configured */
	char *cache;      /* the mirror's folder when cloned from a URL, else NULL */
	int bare;
};

struct checkout_side {
	char *ref;        /* as written in the configuration */
	char commit[41];  /* the commit (for WORKTREE: HEAD's, "" when unborn) */
	char tree[41];    /* the exported tree */
	char *subject;    /* first line of the commit message */
	char *author;     /* "Name <email>" */
	int64_t time;     /* commit time, seconds since the epoch */
	int tz_minutes;   /* its offset from UTC */
	int dirty;        /* WORKTREE differing from HEAD */
	int worktree;     /* the ref was WORKTREE */
	size_t files;     /* entries exported */
	size_t submodules;/* submodules exported as empty folders */
};

/*
 * Open path (a local repository) or clone/fetch url into the cache; exactly
 * one of them is non-NULL.  Errors name key ("repo.path", "repo.url").
 */
int checkout_open(struct checkout_repo *r, const char *path, const char *url,
		  struct plumb_err *err);
/* The repository cfg names: repo.url, else repo.path (config_repo_dir()). */
struct plumb_config;
int checkout_open_config(struct checkout_repo *r, const struct plumb_config *cfg,
			 struct plumb_err *err);
void checkout_close(struct checkout_repo *r);

/*
 * Resolve ref and export its tree to dest (created; must not exist).
 * key names the setting in messages ("run.base").  A revision that does not
 * resolve is PLUMB_EINPUT.
 */
int checkout_export(struct checkout_repo *r, const char *ref, const char *dest,
		    const char *key, struct checkout_side *side,
		    struct plumb_err *err);

void checkout_side_release(struct checkout_side *side);

/*
 * run.base = latest-tag: the newest release before candidate.  Of the
 * tags whose name matches glob (as `git tag -l GLOB` matches; NULL: every
 * tag) and that name a commit, those whose commit candidate's history
 * contains, the candidate's own commit left out (a base equal to the
 * candidate compares nothing), the one whose commit is newest by commit
 * time; of commits of the same time, one that descends from the others;
 * of tags on one commit, the first name in byte order.  candidate is a revision, or WORKTREE (HEAD's commit).  *tag is
 * the tag's name without refs/tags/, the caller's to free.  No such tag
 * is PLUMB_EINPUT naming key, the glob and the candidate.
 */
int checkout_latest_tag(struct checkout_repo *r, const char *candidate, const char *glob,
			const char *key, char **tag, struct plumb_err *err);

/*
 * The history from good to bad along bad's first parents, oldest first:
 * (*out)[0] is good, (*out)[*n - 1] is bad, and each commit's first parent
 * is the one before it (ref is the full commit id, tree its tree; nothing
 * is exported).  PLUMB_EINPUT naming the option ("--good: 'v9' is not a
 * revision of ...") when a ref does not resolve to a commit, when the two
 * are the same commit, when good is not on bad's first-parent line, or
 * when the line is longer than max commits.  Free with
 * checkout_sides_free(*out, *n).
 */
int checkout_first_parents(struct checkout_repo *r, const char *good, const char *bad,
			   size_t max, struct checkout_side **out, size_t *n,
			   struct plumb_err *err);

void checkout_sides_free(struct checkout_side *sides, size_t n);

/*
 * The project's identity, never a folder path: url (repo.url) when given,
 * else the repository's remote.origin.url, both without credentials, else
 * the id of the first commit of commit's first-parent history.  *out is
 * the caller's to free.
 */
int checkout_project(struct checkout_repo *r, const char *url, const char *commit, char **out,
		     struct plumb_err *err);

#endif
