/*
 * runner/build.c: runner_build(), the build stage of a run; see build.h.
 *
 * Order of work, and why:
 *   1. lock the work folder, sweep folders of killed runs, make the run folder;
 *   2. export base and candidate (src/b, src/c) and assemble the pad objects;
 *   3. with reuse = none, build the control first, in v/b00, and rename it
 *      to v/k00: base pad 0 is then built in the very same folder, so a
 *      path that leaks into the binary (debug info, __FILE__) is the same
 *      in both and the byte comparison says whether the whole build is
 *      reproducible, not where it ran;
 *   4. build base pads 0..N-1, then candidate pads 0..N-1, then (reuse =
 *      relink) the control; with reuse = relink, pad K > 0 and the control
 *      start from a copy of the side's built pad 0 (timestamps kept,
 *      artifact removed), so make only relinks: the control is then the
 *      same objects linked again, and the comparison says whether the link
 *      step is reproducible (a sweep costs two full builds, not three);
 *   5. read the artifacts: the shift check, the reproducibility check, the
 *      hot-code comparison (build-verify.c).
 * Every variant folder path has the same length (v/b00, v/c03, v/k00), so
 * the variants differ in the pad and in nothing a path length can move.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/config.h"
#include "runner/build.h"
#include "runner/failed.h"
#include "runner/build-internal.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/pad.h"
#include "runner/proc.h"
#include "runner/workdir.h"
#include "common/banned.h"

#define BUILD_LOG_CAP ((size_t)2 << 20)
#define TAIL_LINES 20
#define PADS_MAX 100      /* two digits in the folder names */

const char *runner_side_name(enum runner_side side)
{
	return side == RUNNER_BASE ? "base" : "candidate";
}

static void progress(const struct runner_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(const struct runner_opts *o, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!o || !o->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	o->progress(o->progress_ctx, line);
}


/* "base pad 2 (b02)" or "the control (k00)". */
void build_variant_name(const struct runner_variant *v, char *out, size_t size)
{
	if (v->control)
		snprintf(out, size, "the control, base pad 0 built again (%s)", v->id);
	else
		snprintf(out, size, "%s pad %u (%s)", runner_side_name(v->side), v->pad, v->id);
}

/* The index of a side's pad K (not the control). */
struct runner_variant *build_find_variant(struct runner_result *res, enum runner_side side,
					   unsigned pad)
{
	for (size_t i = 0; i < res->nvariants; i++)
		if (!res->variants[i].control && res->variants[i].side == side &&
		    res->variants[i].pad == pad)
			return &res->variants[i];
	return NULL;
}

/* ---- the folder and the build of one variant ------------------------------ */

/* The environment of a build: plumb's, without a parent make's jobserver
 * flags (its descriptors are closed in the child), with the pad variables. */
static int build_env(const struct plumb_config *cfg, const char *dir,
		     const struct runner_variant *v, const char *object,
		     const char *pad_ldflags, struct envlist *env,
		     struct plumb_err *err)
{
	char n[32];
	int r;

	if ((r = envlist_init(env, err)) < 0 || (r = envlist_inherit(env, err)) < 0)
		return r;
	envlist_unset(env, "MAKEFLAGS");
	envlist_unset(env, "MFLAGS");
	envlist_unset(env, "MAKELEVEL");
	envlist_unset(env, "GNUMAKEFLAGS");
	if ((r = envlist_set(env, "PWD", dir, err)) < 0)
		return r;
	if (cfg->build.pad == CONFIG_PAD_NONE)
		return 0;
	snprintf(n, sizeof(n), "%u", v->pad);
	if ((r = envlist_set(env, "PLUMB_PAD", n, err)) < 0)
		return r;
	snprintf(n, sizeof(n), "%llu", (unsigned long long)v->pad_bytes);
	if ((r = envlist_set(env, "PLUMB_PAD_BYTES", n, err)) < 0 ||
	    (r = envlist_set(env, "PLUMB_PAD_OBJECT", object ? object : "", err)) < 0)
		return r;
	if (cfg->build.pad == CONFIG_PAD_LINK)
		return envlist_set(env, "LDFLAGS", pad_ldflags, err);
	return 0;
}

/* Run build.command for v in dir; the log gets a header line first. */
static int run_build(const struct plumb_config *cfg, struct runner_result *res,
		     struct runner_variant *v, const char *dir, const char *object,
		     struct plumb_err *err)
{
	const char *inherited = getenv("LDFLAGS");
	char pad_s[16], bytes_s[32], what[300], name[96];
	struct envlist env = { 0 };
	struct cmdline cl = { 0 };
	struct proc_spec spec;
	struct proc_result pr;
	struct buf ldf, head;
	struct stat st;
	int r, fd;

	memset(&pr, 0, sizeof(pr));
	buf_init(&ldf, 1 << 16);
	buf_init(&head, 1 << 16);
	build_variant_name(v, name, sizeof(name));
	if (object && buf_addstr(&ldf, object) < 0) {
		r = buf_err(err, "LDFLAGS");
		goto out;
	}
	if (inherited && *inherited &&
	    buf_printf(&ldf, "%s%s", ldf.len ? " " : "", inherited) < 0) {
		r = buf_err(err, "LDFLAGS");
		goto out;
	}
	if ((r = build_env(cfg, dir, v, object, buf_cstr(&ldf), &env, err)) < 0)
		goto out;
	snprintf(pad_s, sizeof(pad_s), "%u", v->pad);
	snprintf(bytes_s, sizeof(bytes_s), "%llu", (unsigned long long)v->pad_bytes);
	{
		const struct cmdline_var vars[] = {
			{ "pad", pad_s }, { "pad_bytes", bytes_s },
			{ "pad_object", object ? object : "" },
			{ "pad_ldflags", buf_cstr(&ldf) },
		};
		if ((r = cmdline_expand(&cl, cfg->build.command, vars, 4, "build.command", err)) < 0)
			goto out;
	}
	v->command = strdup(cl.text);
	v->shell = cl.shell;
	if (!v->command) {
		r = plumb_err_oom(err, "build command");
		goto out;
	}
	/* The log starts with what ran where. */
	fd = open(v->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, v->log, "create");
		goto out;
	}
	if (buf_printf(&head, "plumb: %s in %s\nplumb: %s%s\n", name, dir,
		       cl.shell ? "/bin/sh -c " : "", cl.text) < 0) {
		close(fd);
		r = buf_err(err, v->log);
		goto out;
	}
	r = write_all(fd, head.data, head.len, v->log, err);
	close(fd);
	if (r < 0)
		goto out;

	proc_spec_init(&spec);
	spec.argv = cl.argv;
	spec.env = env.v;
	spec.cwd = dir;
	spec.timeout_ns = (uint64_t)cfg->build.timeout * 1000000000ull;
	spec.out.kind = PROC_SINK_FILE;
	spec.out.path = v->log;
	spec.out.cap = BUILD_LOG_CAP;
	spec.out.append = 1;
	spec.err.kind = PROC_SINK_STDOUT;
	r = proc_run(&spec, &pr, err);
	v->build_ns = pr.wall_ns;
	v->left_behind = pr.left_behind;
	if (r < 0) {
		plumb_err_prefix(err, "%s", name);
		goto out;
	}
	if (!(pr.exited && pr.status == 0)) {
		char *kept;
		proc_describe(&pr, spec.timeout_ns, what, sizeof(what));
		free(res->log_tail);
		failed_evidence(res->run_dir, v->log, NULL, 0, "the build log", &res->log_tail, &kept);
		r = plumb_err_set(err, PLUMB_EBUILD, "%s: the build %s: %s; log: %s",
				  name, pr.timed_out ? "timed out" : "failed", what, kept ? kept : v->log);
		free(kept);
		goto out;
	}
	{
		char *made = buf_strdupf("%s/%s", dir, cfg->build.artifact);
		if (!made) {
			r = plumb_err_oom(err, "artifact");
			goto out;
		}
		if (lstat(made, &st) < 0) {
			r = plumb_err_set(err, PLUMB_EBUILD,
					  "%s: the build succeeded but did not make build.artifact '%s' (%s); log: %s",
					  name, cfg->build.artifact, made, v->log);
			free(made);
			goto out;
		}
		free(made);
	}
out:
	proc_result_release(&pr);
	cmdline_release(&cl);
	envlist_release(&env);
	buf_release(&ldf);
	buf_release(&head);
	return r;
}


/* ---- the stage ------------------------------------------------------------- */

static int make_run_folder(const struct plumb_config *cfg, struct runner_result *res,
			   struct plumb_err *err)
{
	char stamp[32] = "0", real[PATH_MAX];
	struct buf wd, lockp;
	time_t now = time(NULL);
	struct tm tm;
	int r;

	buf_init(&wd, PATH_MAX);
	buf_init(&lockp, PATH_MAX);
	if (cfg->workdir) {
		if (buf_addstr(&wd, cfg->workdir) < 0) {
			r = buf_err(err, "--workdir");
			goto out;
		}
	} else if ((r = workdir_cache_path("runs", &wd, err)) < 0) {
		goto out;
	}
	if ((r = mkdir_p(wd.data, err)) < 0)
		goto out;
	/* Children run elsewhere: every path handed out is absolute. */
	if (!realpath(wd.data, real)) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, wd.data, "resolve");
		goto out;
	}
	res->workdir = strdup(real);
	if (!res->workdir || buf_printf(&lockp, "%s/lock", real) < 0) {
		r = plumb_err_oom(err, "work folder");
		goto out;
	}
	if ((r = run_lock_acquire(&res->lock, lockp.data, err)) < 0)
		goto out;
	if ((r = workdir_sweep(real, err)) < 0)
		goto out;
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	res->run_dir = buf_strdupf("%s/run-%s-%ld", real, stamp, (long)getpid());
	if (!res->run_dir) {
		r = plumb_err_oom(err, "run folder");
		goto out;
	}
	if (mkdir(res->run_dir, 0755) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, res->run_dir, "mkdir");
		free(res->run_dir);
		res->run_dir = NULL;
		goto out;
	}
	if (res->keep) {
		/* Marks the folder as wanted, should this run be killed. */
		char *kept = buf_strdupf("%s/kept", res->run_dir);
		int fd = kept ? open(kept, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
		if (fd >= 0)
			close(fd);
		free(kept);
	}
	r = 0;
	{
		const char *subs[] = { "v", "log", "pad" };
		for (size_t i = 0; i < 3 && r == 0; i++) {
			char *p = buf_strdupf("%s/%s", res->run_dir, subs[i]);
			if (!p)
				r = plumb_err_oom(err, "run folder");
			else if (mkdir(p, 0755) < 0)
				r = plumb_err_errno(err, PLUMB_EIO, errno, p, "mkdir");
			free(p);
		}
	}
out:
	buf_release(&wd);
	buf_release(&lockp);
	return r;
}

/* Name and place variant v: side's pad K, or the control. */
static int init_variant(const struct plumb_config *cfg, struct runner_result *res,
			struct runner_variant *v, enum runner_side side, int control,
			unsigned pad, struct plumb_err *err)
{
	v->side = side;
	v->control = control;
	v->pad = pad;
	v->pad_bytes = cfg->build.pad == CONFIG_PAD_NONE ? 0 :
		       pad_offset(cfg->build.pad_offsets == CONFIG_OFFSETS_SPREAD, pad,
				  cfg->build.pad_bytes, cfg->run.seed);
	snprintf(v->id, sizeof(v->id), "%c%02u", control ? 'k' : side == RUNNER_BASE ? 'b' : 'c',
		 pad % PADS_MAX);
	v->dir = buf_strdupf("%s/v/%s", res->run_dir, v->id);
	v->artifact = buf_strdupf("%s/v/%s/%s", res->run_dir, v->id, cfg->build.artifact);
	v->log = buf_strdupf("%s/log/%s.log", res->run_dir, v->id);
	if (!v->dir || !v->artifact || !v->log)
		return plumb_err_oom(err, "variants");
	return 0;
}

/* Lay out the variants: b00..bNN, c00..cNN, k00. */
static int plan_variants(const struct plumb_config *cfg, struct runner_result *res,
			 struct plumb_err *err)
{
	unsigned pads = cfg->run.pads;
	size_t n = 2 * (size_t)pads + (cfg->run.control ? 1 : 0);
	int r;

	res->variants = calloc(n, sizeof(*res->variants));
	if (!res->variants)
		return plumb_err_oom(err, "variants");
	for (size_t i = 0; i < n; i++) {
		int control = i == 2 * (size_t)pads;
		r = init_variant(cfg, res, &res->variants[i],
				 control || i < pads ? RUNNER_BASE : RUNNER_CANDIDATE, control,
				 control ? 0 : (unsigned)(i % pads), err);
		res->nvariants++;
		if (r < 0)
			return r;
	}
	res->npads = pads;
	return 0;
}

/* Prepare v's folder at dir (from the side's tree, or from its pad 0) and build. */
static int build_one(const struct plumb_config *cfg, const struct runner_opts *opts,
		     struct runner_result *res, struct runner_variant *v, const char *dir,
		     char **objects, struct plumb_err *err)
{
	char *src = buf_strdupf("%s/src/%c", res->run_dir, v->side == RUNNER_BASE ? 'b' : 'c');
	struct runner_variant *p0 = build_find_variant(res, v->side, 0);
	uint64_t t0 = clock_now_ns();
	char name[96];
	int r;

	if (!src)
		return plumb_err_oom(err, "variant");
	build_variant_name(v, name, sizeof(name));
	v->relinked = cfg->build.reuse == CONFIG_REUSE_RELINK && (v->pad > 0 || v->control);
	if (v->relinked) {
		char *old = buf_strdupf("%s/%s", dir, cfg->build.artifact);
		r = old ? workdir_copy_tree(p0->dir, dir, err) : plumb_err_oom(err, "variant");
		if (r == 0)
			r = workdir_remove_tree(old, err);
		free(old);
	} else {
		r = workdir_copy_tree(src, dir, err);
	}
	free(src);
	if (r < 0)
		return plumb_err_prefix(err, "%s", name);
	v->prepare_ns = clock_now_ns() - t0;
	progress(opts, "%s: building%s", name, v->relinked ? " (relink from pad 0)" : "");
	r = run_build(cfg, res, v, dir, objects ? objects[v->pad] : NULL, err);
	if (r < 0)
		return r;
	progress(opts, "%s: built in %.2f s", v->id, (double)v->build_ns / 1e9);
	if (v->left_behind)
		progress(opts, "%s: the build left %u process%s running; killed", v->id,
			 v->left_behind, v->left_behind == 1 ? "" : "es");
	return 0;
}

/* Assemble the pad objects of pads from..to-1 into objects[from..to). */
static int make_pad_objects(const struct plumb_config *cfg, struct runner_result *res,
			    unsigned from, unsigned to, char **objects, struct plumb_err *err)
{
	struct envlist env = { 0 };
	int r;

	if ((r = envlist_init(&env, err)) < 0 || (r = envlist_inherit(&env, err)) < 0)
		goto out;
	for (unsigned k = from; k < to && r == 0; k++) {
		struct pad_object po;
		char *dir = buf_strdupf("%s/pad/%02u", res->run_dir, k);
		r = dir ? pad_object_make(dir, k, pad_offset(cfg->build.pad_offsets == CONFIG_OFFSETS_SPREAD,
							      k, cfg->build.pad_bytes, cfg->run.seed),
					  cfg->build.cc, &env, &po, err)
			: plumb_err_oom(err, "pad objects");
		free(dir);
		if (r == 0) {
			objects[k] = po.object;
			po.object = NULL;
		}
		pad_object_release(&po);
	}
out:
	envlist_release(&env);
	return r;
}

int runner_build(const struct plumb_config *cfg, const struct runner_opts *opts,
		 struct runner_result *res, struct plumb_err *err)
{
	struct checkout_repo repo;
	char **objects = NULL;
	uint64_t t0 = clock_now_ns();
	int machine = 0, r;

	memset(res, 0, sizeof(*res));
	res->lock.fd = -1;
	res->keep = cfg->keep;
	memset(&repo, 0, sizeof(repo));
	if (cfg->run.pads < 1 || cfg->run.pads > PADS_MAX || !cfg->run.base || !cfg->run.candidate ||
	    !cfg->build.command || !cfg->build.artifact)
		return plumb_err_set(err, PLUMB_EINTERNAL, "runner_build: configuration not checked");
	if (sodium_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libsodium: cannot initialize");
	if ((r = make_run_folder(cfg, res, err)) < 0)
		goto out;
	progress(opts, "run folder %s", res->run_dir);

	/* The repository and the two trees. */
	if (cfg->repo.url) {
		progress(opts, "fetching %s", cfg->repo.url);
		r = checkout_open(&repo, NULL, cfg->repo.url, err);
	} else {
		struct buf dir;
		buf_init(&dir, PATH_MAX);
		r = config_repo_dir(cfg, &dir, err);
		if (r == 0)
			r = checkout_open(&repo, dir.data, NULL, err);
		buf_release(&dir);
	}
	if (r < 0)
		goto out;
	res->repo = strdup(repo.where);
	res->repo_cache = repo.cache ? strdup(repo.cache) : NULL;
	for (int s = 0; s < 2 && r == 0; s++) {
		char *dest = buf_strdupf("%s/src/%c", res->run_dir, s == 0 ? 'b' : 'c');
		char *srcdir = buf_strdupf("%s/src", res->run_dir);
		if (!dest || !srcdir || (mkdir(srcdir, 0755) < 0 && errno != EEXIST)) {
			r = !dest || !srcdir ? plumb_err_oom(err, "checkout")
					     : plumb_err_errno(err, PLUMB_EIO, errno, srcdir, "mkdir");
		} else {
			r = checkout_export(&repo, s == 0 ? cfg->run.base : cfg->run.candidate, dest,
					    s == 0 ? "run.base" : "run.candidate", &res->side[s], err);
			if (r == 0)
				progress(opts, "%s: %s is %.12s%s (%zu files)", s == 0 ? "base" : "candidate",
					 res->side[s].ref, res->side[s].commit[0] ? res->side[s].commit : "(no commit)",
					 res->side[s].dirty ? ", with uncommitted changes" : "",
					 res->side[s].files);
		}
		free(dest);
		free(srcdir);
	}
	checkout_close(&repo);
	if (r < 0)
		goto out;
	if ((r = build_collect_symbols(cfg, res, err)) < 0)
		goto out;

	/* Pad objects, one per pad, shared by both sides (and the control). */
	if (cfg->build.pad != CONFIG_PAD_NONE) {
		objects = calloc(cfg->run.pads, sizeof(*objects));
		if (!objects) {
			r = plumb_err_oom(err, "pad objects");
			goto out;
		}
		if ((r = make_pad_objects(cfg, res, 0, cfg->run.pads, objects, err)) < 0)
			goto out;
	}
	if ((r = plan_variants(cfg, res, err)) < 0)
		goto out;

	/* A clean control first, in base pad 0's folder; then moved aside. */
	if (cfg->run.control && cfg->build.reuse != CONFIG_REUSE_RELINK) {
		struct runner_variant *k = &res->variants[res->nvariants - 1];
		struct runner_variant *b0 = build_find_variant(res, RUNNER_BASE, 0);
		if ((r = build_one(cfg, opts, res, k, b0->dir, objects, err)) < 0)
			goto out;
		if (rename(b0->dir, k->dir) < 0) {
			r = plumb_err_errno(err, PLUMB_EIO, errno, k->dir, "rename");
			goto out;
		}
		k->built = 1;
		if ((r = build_check_names(cfg, res, k, err)) < 0)
			goto out;
	}
	for (size_t i = 0; i < res->nvariants; i++) {
		struct runner_variant *v = &res->variants[i];
		if (v->built)
			continue;
		if ((r = build_one(cfg, opts, res, v, v->dir, objects, err)) < 0)
			goto out;
		v->built = 1;
		if (i == 0 && !(cfg->run.control && cfg->build.reuse != CONFIG_REUSE_RELINK) &&
		    (r = build_check_names(cfg, res, v, err)) < 0)
			goto out;
	}
	for (size_t i = 0; i < res->nvariants; i++) {
		struct runner_variant *v = &res->variants[i];
		if ((r = build_artifact_digest(v->artifact, v->sha256, &v->size, err)) < 0)
			goto out;
	}

	/* What the artifacts say. */
	if ((r = build_read_addresses(cfg, res, &machine, err)) < 0)
		goto out;
	if (res->variants[0].elf) {
		if ((r = build_check_shift(cfg, res, err)) < 0)
			goto out;
	}
	res->control = cfg->run.control;
	if ((r = build_check_control(res, err)) < 0)
		goto out;
	if ((r = build_check_hot(res, machine, err)) < 0)
		goto out;
	r = 0;
out:
	if (objects)
		for (unsigned k = 0; k < cfg->run.pads; k++)
			free(objects[k]);
	free(objects);
	res->total_ns = clock_now_ns() - t0;
	return r;
}

int runner_build_more(const struct plumb_config *cfg, const struct runner_opts *opts,
		      struct runner_result *res, unsigned add, struct plumb_err *err)
{
	unsigned from = res->npads, to = res->npads + add;
	size_t old = res->nvariants;
	struct runner_variant *nv;
	char **objects = NULL;
	uint64_t t0 = clock_now_ns();
	int machine, r = 0;

	if (add == 0 || to > PADS_MAX || old == 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "runner_build_more: %u pads after %u", add, from);
	nv = realloc(res->variants, (old + 2 * (size_t)add) * sizeof(*nv));
	if (!nv)
		return plumb_err_oom(err, "variants");
	res->variants = nv;
	memset(nv + old, 0, 2 * (size_t)add * sizeof(*nv));
	for (int s = 0; s < 2 && r == 0; s++)
		for (unsigned k = from; k < to && r == 0; k++) {
			r = init_variant(cfg, res, &res->variants[res->nvariants],
					 s == 0 ? RUNNER_BASE : RUNNER_CANDIDATE, 0, k, err);
			res->nvariants++;
		}
	if (r < 0)
		return r;
	res->npads = to;
	if (cfg->build.pad != CONFIG_PAD_NONE) {
		objects = calloc(to, sizeof(*objects));
		if (!objects)
			return plumb_err_oom(err, "pad objects");
		r = make_pad_objects(cfg, res, from, to, objects, err);
	}
	for (size_t i = old; i < res->nvariants && r == 0; i++) {
		struct runner_variant *v = &res->variants[i];
		if ((r = build_one(cfg, opts, res, v, v->dir, objects, err)) < 0)
			break;
		v->built = 1;
		r = build_artifact_digest(v->artifact, v->sha256, &v->size, err);
	}
	/* The new pads must move the code as the first ones did. */
	if (r == 0 && res->variants[0].elf)
		r = build_read_addresses(cfg, res, &machine, err);
	if (r == 0 && res->variants[0].elf)
		r = build_check_shift(cfg, res, err);
	if (objects)
		for (unsigned k = 0; k < to; k++)
			free(objects[k]);
	free(objects);
	res->total_ns += clock_now_ns() - t0;
	return r;
}

void runner_result_release(struct runner_result *res)
{
	if (res->run_dir && !res->keep) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		if (workdir_remove_tree(res->run_dir, &ignored) < 0)
			fprintf(stderr, "plumb: warning: cannot remove %s: %s\n", res->run_dir, ignored.msg);
	}
	run_lock_release(&res->lock);
	for (int s = 0; s < 2; s++)
		checkout_side_release(&res->side[s]);
	for (size_t i = 0; i < res->nvariants; i++) {
		struct runner_variant *v = &res->variants[i];
		free(v->dir);
		free(v->artifact);
		free(v->elf);
		free(v->log);
		free(v->command);
		free(v->addr);
	}
	free(res->variants);
	for (size_t i = 0; i < res->nsymbols; i++)
		free(res->symbols[i]);
	free(res->symbols);
	for (size_t i = 0; i < res->nhot; i++)
		free(res->hot[i].symbol);
	free(res->hot);
	free(res->log_tail);
	free(res->workdir);
	free(res->run_dir);
	free(res->repo);
	free(res->repo_cache);
	memset(res, 0, sizeof(*res));
	res->lock.fd = -1;
}

