/*
 * runner/range.c: the commits of `plumb run --range A..B [--step N]`
 * (runner/range.h): git's A..B along first parents, oldest first.
 * Separate from run-range.c: this only reads the repository.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/git2.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "runner/checkout.h"
#include "runner/range.h"
#include "common/banned.h"

static const char *git_msg(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown error";
}

/* ref's commit id into *oid; PLUMB_EINPUT naming the ref. */
static int resolve(struct checkout_repo *r, const char *ref, const char *what, git_oid *oid,
		   struct plumb_err *err)
{
	git_object *obj = NULL, *peeled = NULL;

	if (git_revparse_single(&obj, r->repo, ref) < 0)
		return plumb_err_set(err, PLUMB_EINPUT, "--range: %s '%s' is not a revision of %s: %s",
				     what, ref, r->where, git_msg());
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		git_object_free(obj);
		return plumb_err_set(err, PLUMB_EINPUT, "--range: %s '%s' does not name a commit: %s",
				     what, ref, git_msg());
	}
	git_oid_cpy(oid, git_object_id(peeled));
	git_object_free(peeled);
	git_object_free(obj);
	return 0;
}

static int walk(struct checkout_repo *r, const git_oid *a, const git_oid *b, const char *spec,
		unsigned step, struct runner_range_commits *out, struct plumb_err *err)
{
	git_revwalk *w = NULL;
	git_oid *all = NULL, oid;
	size_t n = 0, cap = 0;
	int rc = 0, g;

	if (git_revwalk_new(&w, r->repo) < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "--range: revwalk: %s", git_msg());
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL);
	git_revwalk_simplify_first_parent(w);
	if (git_revwalk_push(w, b) < 0 || git_revwalk_hide(w, a) < 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "--range: %s: %s", spec, git_msg());
		goto out;
	}
	while ((g = git_revwalk_next(&oid, w)) == 0) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			git_oid *p = realloc(all, ncap * sizeof(*p));
			if (!p) {
				rc = plumb_err_oom(err, "range");
				goto out;
			}
			all = p;
			cap = ncap;
		}
		git_oid_cpy(&all[n++], &oid);
	}
	if (g != GIT_ITEROVER) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "--range: %s: %s", spec, git_msg());
		goto out;
	}
	if (n == 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "--range: %s is empty: no commit is reachable from its end and not from its start",
				   spec);
		goto out;
	}
	out->total = n;
	/* The walk gives newest first: all[n-1] is the oldest, all[0] is B. */
	out->v = calloc(n, sizeof(*out->v));
	if (!out->v) {
		rc = plumb_err_oom(err, "range");
		goto out;
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = n - 1 - k;
		if ((k + 1) % step != 0 && i != 0)
			continue;
		git_commit *c = NULL;
		struct runner_range_commit *rc1 = &out->v[out->n];
		git_oid_tostr(rc1->commit, sizeof(rc1->commit), &all[i]);
		if (git_commit_lookup(&c, r->repo, &all[i]) == 0) {
			const char *s = git_commit_summary(c);
			rc1->subject = strdup(s ? s : "");
			git_commit_free(c);
		} else {
			rc1->subject = strdup("");
		}
		if (!rc1->subject) {
			rc = plumb_err_oom(err, "range");
			goto out;
		}
		out->n++;
	}
	if (out->n > RUNNER_RANGE_MAX)
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "--range: %s has %zu commits to measure, more than %d in one job; "
				   "use --step or a shorter range", spec, out->n, RUNNER_RANGE_MAX);
out:
	free(all);
	git_revwalk_free(w);
	return rc;
}

int runner_range_resolve(const struct plumb_config *cfg, const char *spec, unsigned step,
			 struct runner_range_commits *out, struct plumb_err *err)
{
	struct checkout_repo repo;
	const char *dots = strstr(spec, "..");
	char *a = NULL, *b = NULL;
	git_oid oa, ob;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&repo, 0, sizeof(repo));
	if (!dots || dots == spec || !dots[2] || strstr(dots + 2, "..") || dots[2] == '.')
		return plumb_err_set(err, PLUMB_EARG, "--range: '%s' is not A..B (two revisions, two dots)",
				     spec);
	if (step < 1)
		return plumb_err_set(err, PLUMB_EARG, "--step: must be at least 1");
	a = strndup(spec, (size_t)(dots - spec));
	b = strdup(dots + 2);
	if (!a || !b) {
		rc = plumb_err_oom(err, "range");
		goto out;
	}
	rc = checkout_open_config(&repo, cfg, err);
	if (rc < 0)
		goto out;
	if ((rc = resolve(&repo, a, "start", &oa, err)) < 0 ||
	    (rc = resolve(&repo, b, "end", &ob, err)) < 0)
		goto out;
	git_oid_tostr(out->base, sizeof(out->base), &oa);
	rc = walk(&repo, &oa, &ob, spec, step, out, err);
out:
	if (repo.repo)
		checkout_close(&repo);
	if (rc < 0)
		runner_range_commits_release(out);
	free(a);
	free(b);
	return rc;
}

void runner_range_commits_release(struct runner_range_commits *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].subject);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
