/*
 * runner/demo.c: the repository of `plumb demo`; see demo.h.
 *
 * The commits are made with libgit2 under a fixed author and fixed times,
 * so two demos made from the same example sources have the same commit
 * ids, and no git configuration of the user is needed or read.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#include "common/git2.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/config.h"
#include "runner/demo.h"
#include "common/banned.h"

#define DEMO_FILE_MAX ((size_t)1 << 20)
#define DEMO_AUTHOR "plumb demo"
#define DEMO_EMAIL "demo@plumb.invalid"
#define DEMO_TIME 1764460800   /* 2025-11-30T00:00:00Z */

static const char *const demo_files[] = { "interp.c", "Makefile", "README.md", NULL };

/* plumb.conf of the demo repository. */
static int demo_conf(struct buf *out)
{
	return buf_printf(out,
		"# plumb.conf written by `plumb demo`: compare the two commits of this\n"
		"# repository.  The candidate (HEAD) changes only code outside run(), the\n"
		"# hot loop.  Each side is built at %d pads (the code moved by seeded\n"
		"# offsets within 4 KiB) and timed in interleaved rounds; while the\n"
		"# verdict is undecided, the sweep adds %d pads to each side, up to\n"
		"# run.maxPads, as long as run.budget allows.  Edit it and run\n"
		"# `plumb run` here to measure again.\n"
		"[repo]\n"
		"\tpath = .\n"
		"[run]\n"
		"\tbase = HEAD~1\n"
		"\tcandidate = HEAD\n"
		"\tpads = auto\n"
		"\tmaxPads = 16\n"
		"\tbudget = %s\n"
		"\trounds = %d\n"
		"\twarmupRuns = 1\n"
		"[build]\n"
		"\tcommand = make bench\n"
		"\tartifact = interp\n"
		"\tpad = link\n"
		"\tpadBytes = 16\n"
		"\tpadOffsets = spread\n"
		"[bench \"interp\"]\n"
		"\tcommand = {artifact} %s\n"
		"\thot = run\n", CONFIG_PADS_AUTO_START, CONFIG_PADS_AUTO_STEP, DEMO_BUDGET,
		DEMO_ROUNDS, DEMO_ITERATIONS);
}

/* The candidate's change, a code edit outside run(). */
static const char old_usage[] =
	"\t\tfputs(\"usage: interp [N]   (N >= 1, default 12000000)\\n\", stderr);\n"
	"\t\treturn 2;\n";
static const char new_usage[] =
	"\t\treturn usage(argc == 2 ? argv[1] : NULL);\n";
static const char usage_fn[] =
	"/* Say what was wrong with the command line.  (The demo's candidate: code\n"
	" * outside run() that still moves run() to another address.) */\n"
	"static int usage(const char *bad)\n"
	"{\n"
	"\tif (bad)\n"
	"\t\tfprintf(stderr, \"interp: '%s' is not a count of at least 1\\n\", bad);\n"
	"\tfputs(\"usage: interp [N]   (N >= 1, default 12000000)\\n\", stderr);\n"
	"\treturn 2;\n"
	"}\n"
	"\n";

int demo_candidate_source(const char *base, struct buf *out)
{
	const char *u = strstr(base, old_usage);
	const char *m = strstr(base, "\nint main(");

	if (!u || !m || m > u || strstr(u + 1, old_usage))
		return -1;
	m++;
	if (buf_add(out, base, (size_t)(m - base)) < 0 || buf_addstr(out, usage_fn) < 0 ||
	    buf_add(out, m, (size_t)(u - m)) < 0 || buf_addstr(out, new_usage) < 0 ||
	    buf_addstr(out, u + strlen(old_usage)) < 0)
		return -1;
	return 0;
}

static int has_interp(const char *dir)
{
	char p[PATH_MAX];
	int n = snprintf(p, sizeof(p), "%s/interp/interp.c", dir);

	return n > 0 && (size_t)n < sizeof(p) && access(p, R_OK) == 0;
}

int demo_find_examples(struct buf *out, struct plumb_err *err)
{
	const char *env = getenv("PLUMB_EXAMPLES");
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n;

	if (env && *env) {
		if (!has_interp(env))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "PLUMB_EXAMPLES: %s: no interp/interp.c there", env);
		return buf_addstr(out, env) < 0 ? buf_err(err, "examples") : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(cand, sizeof(cand), "%s/examples", exe);
			if (has_interp(cand))
				return buf_addstr(out, cand) < 0 ? buf_err(err, "examples") : 0;
			snprintf(cand, sizeof(cand), "%s/../share/plumb/examples", exe);
			if (has_interp(cand))
				return buf_addstr(out, cand) < 0 ? buf_err(err, "examples") : 0;
		}
	}
	snprintf(cand, sizeof(cand), "%s/examples", PLUMB_PKGDATADIR);
	if (has_interp(cand))
		return buf_addstr(out, cand) < 0 ? buf_err(err, "examples") : 0;
	return plumb_err_set(err, PLUMB_EINPUT,
			     "cannot find the example sources (interp/interp.c) in %s/examples, "
			     "next to the plumb program, or in $PLUMB_EXAMPLES; install plumb "
			     "(make install) or set PLUMB_EXAMPLES to the examples folder of its sources",
			     PLUMB_PKGDATADIR);
}

/* dir exists: it must be an empty folder.  Otherwise it is made. */
static int claim_dir(const char *dir, struct plumb_err *err)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int empty = 1;

	if (stat(dir, &st) < 0) {
		if (errno != ENOENT)
			return plumb_err_errno(err, PLUMB_EIO, errno, dir, "stat");
		return mkdir_p(dir, err);
	}
	if (!S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EARG, "%s: exists and is not a folder; "
				     "plumb demo never overwrites anything", dir);
	d = opendir(dir);
	if (!d)
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "open");
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	if (!empty)
		return plumb_err_set(err, PLUMB_EARG, "%s: exists and is not empty; "
				     "plumb demo never overwrites anything (name a new or empty folder)",
				     dir);
	return 0;
}

static int write_file(const char *dir, const char *name, const char *data, size_t len,
		      struct plumb_err *err)
{
	char path[PATH_MAX];
	FILE *f;
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= sizeof(path))
		return plumb_err_set(err, PLUMB_EARG, "%s: path too long", dir);
	f = fopen(path, "we");
	if (!f)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "create");
	if (fwrite(data, 1, len, f) != len) {
		int e = errno;
		fclose(f);
		return plumb_err_errno(err, PLUMB_EIO, e, path, "write");
	}
	if (fclose(f) != 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "write");
	return 0;
}

static int git_fail(struct plumb_err *err, const char *dir, const char *what)
{
	const git_error *e = git_error_last();

	return plumb_err_set(err, PLUMB_EIO, "%s: %s: %s", dir, what,
			     e && e->message ? e->message : "unknown libgit2 error");
}

/* Stage every file of the folder's top level and commit it on HEAD. */
static int commit_all(git_repository *repo, const char *dir, const char *message,
		      int64_t when, struct plumb_err *err)
{
	git_index *index = NULL;
	git_oid tree_id, commit_id, parent_id;
	git_tree *tree = NULL;
	git_commit *parent = NULL;
	git_signature *sig = NULL;
	int r = 0, has_parent;

	if (git_repository_index(&index, repo) < 0)
		return git_fail(err, dir, "open the index");
	for (const char *const *f = demo_files; *f && r == 0; f++)
		if (git_index_add_bypath(index, *f) < 0)
			r = git_fail(err, dir, "add a file");
	if (r == 0 && git_index_add_bypath(index, "plumb.conf") < 0)
		r = git_fail(err, dir, "add plumb.conf");
	if (r == 0 && (git_index_write(index) < 0 || git_index_write_tree(&tree_id, index) < 0 ||
		       git_tree_lookup(&tree, repo, &tree_id) < 0))
		r = git_fail(err, dir, "write the tree");
	if (r == 0 && git_signature_new(&sig, DEMO_AUTHOR, DEMO_EMAIL, (git_time_t)when, 0) < 0)
		r = git_fail(err, dir, "make the author");
	has_parent = r == 0 && git_reference_name_to_id(&parent_id, repo, "HEAD") == 0;
	if (r == 0 && has_parent && git_commit_lookup(&parent, repo, &parent_id) < 0)
		r = git_fail(err, dir, "read HEAD");
	if (r == 0) {
		const git_commit *parents[1] = { parent };
		if (git_commit_create(&commit_id, repo, "HEAD", sig, sig, NULL, message, tree,
				      has_parent ? 1 : 0, has_parent ? parents : NULL) < 0)
			r = git_fail(err, dir, "commit");
	}
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	return r;
}

int runner_demo_prepare(const char *dir, struct buf *repo_dir, struct plumb_err *err)
{
	struct buf src, text, cand, path;
	git_repository *repo = NULL;
	char made[PATH_MAX], real[PATH_MAX];
	int r;

	buf_init(&src, PATH_MAX);
	buf_init(&text, DEMO_FILE_MAX);
	buf_init(&cand, DEMO_FILE_MAX + 4096);
	buf_init(&path, PATH_MAX);
	if ((r = demo_find_examples(&src, err)) < 0)
		goto out;
	if (!dir) {
		snprintf(made, sizeof(made), "plumb-demo-XXXXXX");
		if (!mkdtemp(made)) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, "plumb-demo-XXXXXX", "create");
			goto out;
		}
		dir = made;
	} else if ((r = claim_dir(dir, err)) < 0) {
		goto out;
	}
	if (!realpath(dir, real)) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, dir, "resolve");
		goto out;
	}

	/* The base: the example as it is, and the configuration. */
	for (const char *const *f = demo_files; *f; f++) {
		buf_reset(&path);
		buf_reset(&text);
		if (buf_printf(&path, "%s/interp/%s", src.data, *f) < 0) {
			r = buf_err(err, "examples");
			goto out;
		}
		if ((r = file_read(path.data, DEMO_FILE_MAX, &text, err)) < 0 ||
		    (r = write_file(real, *f, text.data, text.len, err)) < 0)
			goto out;
		if (strcmp(*f, "interp.c") == 0 && demo_candidate_source(text.data, &cand) < 0) {
			r = plumb_err_set(err, PLUMB_EINTERNAL,
					  "%s: the demo's candidate change does not apply to this interp.c",
					  path.data);
			goto out;
		}
	}
	buf_reset(&text);
	if (demo_conf(&text) < 0) {
		r = buf_err(err, "plumb.conf");
		goto out;
	}
	if ((r = write_file(real, "plumb.conf", text.data, text.len, err)) < 0)
		goto out;
	if ((r = git2_init(err)) < 0)
		goto out;
	if (git_repository_init(&repo, real, 0) < 0) {
		r = git_fail(err, real, "git init");
		goto out;
	}
	if ((r = commit_all(repo, real, "interp: a placement-sensitive interpreter\n",
			    DEMO_TIME, err)) < 0)
		goto out;

	/* The candidate: the same run(), other code around it. */
	if ((r = write_file(real, "interp.c", cand.data, cand.len, err)) < 0 ||
	    (r = commit_all(repo, real, "interp: name a bad count in the usage message\n\n"
			    "Only main() changes; run(), the hot loop, stays the same code.\n",
			    DEMO_TIME + 3600, err)) < 0)
		goto out;
	if (buf_addstr(repo_dir, real) < 0)
		r = buf_err(err, "demo folder");
out:
	git_repository_free(repo);
	buf_release(&src);
	buf_release(&text);
	buf_release(&cand);
	buf_release(&path);
	return r;
}
