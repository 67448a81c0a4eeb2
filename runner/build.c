/*
 * runner/build.c: runner_build(), the build stage of a run; see build.h.
 *
 * Order of work, and why:
 *   1. lock the work folder, sweep folders of killed runs, make the run folder;
 *   2. export base and candidate (src/b, src/c) and assemble the pad objects
 *      (<workdir>/pad/NN: the same paths run after run);
 *   3. build base pads 0 and 1 and run the shift check on them before
 *      anything else: a build that ignores the pad fails after two builds;
 *   4. build the other base pads, the candidate pads, then the control; with
 *      reuse = relink, pad K > 0 and the control start from a copy of the
 *      side's built pad 0 (timestamps kept, artifact removed), so make only
 *      relinks: the control is then the same objects linked again, and the
 *      comparison says whether the link step is reproducible (a sweep costs
 *      two full builds, not three);
 *   5. read the artifacts: the shift check, the reproducibility check, the
 *      hot-code comparison (build-verify.c).
 * Every variant of a side, the control included, is built in its tree's
 * one folder (<workdir>/build/<tree id>, the same path in every run,
 * whichever side the tree is on) and then moved to its own folder (v/b00,
 * v/c03, v/k00: all of the same length), where it runs: a path that leaks
 * into the binary (debug info, __FILE__) is the same in base pad 0 and
 * the control, so the byte comparison says whether the build is
 * reproducible, not where it ran, and the variants differ in the pad and
 * in nothing a path can move.  A tree restored from the build cache is
 * relinked in the folder it was built in, whichever side it was on then
 * (CMake's and Meson's build folders record their own path and refuse
 * another).  Base and candidate have a folder each (same length, two
 * trees): the two sides never share one, so after the shift proof their
 * builds overlap, up to build.jobs at once, each in a worker with a
 * container of its own (runner/build-jobs.c).  When base and candidate
 * are the same tree (A/A), the candidate's variants are copies of the
 * base's: one tree is built once.
 *
 * A run whose build or checks fail where a variant restored from the
 * build cache is involved evicts the entries it restored and builds
 * everything again from clean, once, with a warning naming the entry,
 * before it fails: a cache entry never makes a run fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/config.h"
#include "runner/build.h"
#include "runner/failed.h"
#include "runner/build-internal.h"
#include "runner/build-variant.h"
#include "runner/buildcache.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/pad.h"
#include "runner/workdir.h"
#include "sys/proc.h"
#include "common/banned.h"

#define BUILD_LOG_CAP ((size_t)2 << 20)
#define TAIL_LINES 20
#define PADS_MAX 100      /* two digits in the folder names */

/* Tell o's caller of ev (runner/event.h). */
static void tell(const struct runner_opts *o, const struct runner_event *ev)
{
	if (o)
		runner_event_send(o->event, o->event_ctx, ev);
}

#define TELL(o, ...) tell((o), &(const struct runner_event){ __VA_ARGS__ })

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

/* LDFLAGS for v (its pad object before the inherited value) and the
 * expanded command; sets v->command and v->shell. */
static int plan_command(const struct plumb_config *cfg, struct runner_variant *v,
			const char *object, struct cmdline *cl, struct buf *ldf,
			struct plumb_err *err)
{
	const char *inherited = getenv("LDFLAGS");
	char pad_s[16], bytes_s[32];
	int r;

	if (object && buf_addstr(ldf, object) < 0)
		return buf_err(err, "LDFLAGS");
	if (inherited && *inherited &&
	    buf_printf(ldf, "%s%s", ldf->len ? " " : "", inherited) < 0)
		return buf_err(err, "LDFLAGS");
	snprintf(pad_s, sizeof(pad_s), "%u", v->pad);
	snprintf(bytes_s, sizeof(bytes_s), "%llu", (unsigned long long)v->pad_bytes);
	{
		const struct cmdline_var vars[] = {
			{ "pad", pad_s }, { "pad_bytes", bytes_s },
			{ "pad_object", object ? object : "" },
			{ "pad_ldflags", buf_cstr(ldf) },
		};
		if ((r = cmdline_expand(cl, cfg->build.command, vars, 4, "build.command", err)) < 0)
			return r;
	}
	free(v->command);
	v->command = strdup(cl->text);
	v->shell = cl->shell;
	if (!v->command)
		return plumb_err_oom(err, "build command");
	return 0;
}

/* Run build.command for v in dir; the log gets a header line first. */
static int run_build(const struct plumb_config *cfg, struct runner_result *res,
		     struct runner_variant *v, const char *dir, const char *object,
		     struct plumb_err *err)
{
	char what[300], name[96];
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
	if ((r = plan_command(cfg, v, object, &cl, &ldf, err)) < 0)
		goto out;
	if ((r = build_env(cfg, dir, v, object, buf_cstr(&ldf), &env, err)) < 0)
		goto out;
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

/*
 * run --from: the revision must name the commit the bundle recorded.  A
 * branch moved since, or another repository under the same path, would
 * build code nobody vouched for with the commands the bundle's signer did.
 */
static int check_pinned(const struct plumb_config *cfg, int s, const struct checkout_side *side,
			const char *where, struct plumb_err *err)
{
	const char *pin = cfg->from.commit[s];

	if (!pin || strcmp(side->commit, pin) == 0)
		return 0;
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is commit %s in %s, but %s recorded %s: refused (the recorded "
			     "commits are pinned; --%s %s measures the recorded one)",
			     s == 0 ? "run.base" : "run.candidate", side->ref,
			     side->commit[0] ? side->commit : "(none)", where, cfg->from.bundle, pin,
			     s == 0 ? "base" : "candidate", pin);
}

/* Make res->run_dir with its kept marker (--keep) and its v/ and log/;
 * a folder it could not make is not the run's (res->run_dir NULL). */
static int make_run_dir(struct runner_result *res, struct plumb_err *err)
{
	int r = 0;

	if (mkdir(res->run_dir, 0755) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, res->run_dir, "mkdir");
		free(res->run_dir);
		res->run_dir = NULL;
		return r;
	}
	if (res->keep) {
		/* Marks the folder as wanted, should this run be killed. */
		char *kept = buf_strdupf("%s/kept", res->run_dir);
		int fd = kept ? open(kept, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
		if (fd >= 0)
			close(fd);
		free(kept);
	}
	{
		const char *subs[] = { "v", "log" };
		for (size_t i = 0; i < 2 && r == 0; i++) {
			char *p = buf_strdupf("%s/%s", res->run_dir, subs[i]);
			if (!p)
				r = plumb_err_oom(err, "run folder");
			else if (mkdir(p, 0755) < 0)
				r = plumb_err_errno(err, PLUMB_EIO, errno, p, "mkdir");
			free(p);
		}
	}
	return r;
}

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
	if ((r = workdir_path(cfg->workdir, &wd, err)) < 0)
		goto out;
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
	/* Every variant of a commit is built in one folder named by its tree
	 * (build/<tree id>, set once the trees are known), the same path run
	 * after run: what a build compiles in is then the same in every
	 * variant, the control and a cached build.  Left over by a killed run,
	 * build/ is emptied here, under the lock. */
	{
		char *p = buf_strdupf("%s/build", real);
		r = p ? workdir_remove_tree(p, err) : plumb_err_oom(err, "build folder");
		if (r == 0 && mkdir(p, 0755) < 0)
			r = plumb_err_errno(err, PLUMB_EIO, errno, p, "mkdir");
		free(p);
		if (r < 0)
			goto out;
	}
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	res->run_dir = buf_strdupf("%s/run-%s-%ld", real, stamp, (long)getpid());
	if (!res->run_dir) {
		r = plumb_err_oom(err, "run folder");
		goto out;
	}
	r = make_run_dir(res, err);
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
	v->relinked = cfg->build.reuse == CONFIG_REUSE_RELINK && (v->pad > 0 || v->control);
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

/* What the builds of one run share. */
struct build_ctx {
	const struct plumb_config *cfg;
	const struct runner_opts *opts;
	struct runner_result *res;
	char **objects;                 /* pad object of pad K, or NULL (pad = none) */
	char *src[2];                   /* the exported trees; NULL once moved into a build */
	struct workdir_links links;     /* the checkouts' files: shared by relink copies */
	int same_tree;                  /* base and candidate are one tree (A/A) */
	struct buildcache *cache;       /* NULL: --no-cache or build.cacheSize = 0 */
	struct buildcache *controls;    /* a bisect's kept controls (runner_opts.controls), or NULL */
	const struct runner_controls *kept;  /* what the bisect says of them */
	char *toolchain;                /* the key material every variant shares */
	int lookups;                    /* restore from the caches (else build, and store) */
};

/* Whether a variant after order[at] still builds from the side's exported tree. */
static int export_needed_after(const struct build_ctx *c, struct runner_variant *const *order,
			       size_t n, size_t at)
{
	const struct runner_variant *v = order[at];

	/* The adaptive sweep may add pads built from it (runner_build_more()). */
	if (c->cfg->run.pads_auto && c->cfg->build.reuse == CONFIG_REUSE_NONE)
		return 1;
	for (size_t i = at + 1; i < n; i++)
		if (order[i]->side == v->side && !order[i]->relinked &&
		    !(c->same_tree && order[i]->side == RUNNER_CANDIDATE && !order[i]->control))
			return 1;
	return 0;
}

/*
 * Fill the build folder for v (its tree's): a copy of the side's built pad 0 with
 * the artifact removed (relink), else the exported tree (moved there when
 * no later variant builds from it, copied otherwise).
 */
static int prepare_folder(struct build_ctx *c, struct runner_variant *v, const char *dir,
			  int keep_export, struct plumb_err *err)
{
	char **src = &c->src[v->side];
	int r;

	if ((r = workdir_remove_tree(dir, err)) < 0)
		return r;
	if (v->relinked) {
		struct runner_variant *p0 = build_find_variant(c->res, v->side, 0);
		char *old = buf_strdupf("%s/%s", dir, c->cfg->build.artifact);
		/* The checkout's files that pad 0's build left alone are shared (a
		 * relink writes outputs, not sources); everything else is copied. */
		r = old ? workdir_copy_tree_linked(p0->dir, dir, &c->links, err)
			: plumb_err_oom(err, "variant");
		if (r == 0)
			r = workdir_remove_tree(old, err);
		free(old);
		return r;
	}
	if (!*src)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: the exported tree is gone", v->id);
	if (keep_export)
		return workdir_copy_tree(*src, dir, err);
	if (rename(*src, dir) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "rename");
	free(*src);
	*src = NULL;
	return 0;
}

/* A/A: the candidate's tree is the base's, so its pad K is base pad K. */
static int copy_same_tree(struct build_ctx *c, struct runner_variant *v, struct plumb_err *err)
{
	struct runner_variant *b = build_find_variant(c->res, RUNNER_BASE, v->pad);
	char msg[512];
	int fd, r;

	if ((r = workdir_copy_tree(b->dir, v->dir, err)) < 0)
		return r;
	v->command = b->command ? strdup(b->command) : NULL;
	if (b->command && !v->command)
		return plumb_err_oom(err, "variant");
	v->shell = b->shell;
	memcpy(v->same_as, b->id, sizeof(v->same_as));
	v->cached = b->cached;
	snprintf(msg, sizeof(msg), "plumb: %s: the same tree as the base (%.12s): a copy of %s, not built again\n",
		 v->id, c->res->side[RUNNER_CANDIDATE].tree, b->id);
	fd = open(v->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, v->log, "create");
	r = write_all(fd, msg, strlen(msg), v->log, err);
	close(fd);
	return r;
}

/*
 * v's cache key (v->command set on the way).  The control is never looked
 * up nor stored: it exists to check the build.
 */
static int cache_key(struct build_ctx *c, struct runner_variant *v, char key[65],
		     struct buf *material, struct plumb_err *err)
{
	const char *object = c->objects ? c->objects[v->pad] : NULL;
	struct cmdline cl = { 0 };
	struct buf ldf;
	int r;

	/* The toolchain's part, once, when the first key is needed: after the
	 * checkout, so that no recorded command (build.cc) runs before the
	 * commits are known to be the pinned ones. */
	if (!c->toolchain) {
		struct buf tc;
		buf_init(&tc, 1 << 20);
		if ((r = build_key_toolchain(c->cfg, &tc, err)) == 0 &&
		    !(c->toolchain = buf_detach(&tc, NULL)))
			r = plumb_err_oom(err, "build cache");
		buf_release(&tc);
		if (r < 0)
			return r;
	}
	buf_init(&ldf, 1 << 16);
	r = plan_command(c->cfg, v, object, &cl, &ldf, err);
	cmdline_release(&cl);
	buf_release(&ldf);
	if (r == 0)
		r = build_key_material(c->cfg, c->res, v, c->toolchain, object, material, err);
	if (r == 0)
		buildcache_key(material->data, key);
	return r;
}

/* Pad 0 is kept whole (later pads and the control start from it), pad K > 0
 * and a bisect's control as the artifact alone, restored into a copy of
 * pad 0's folder; from bc, the build cache or the bisect's controls. */
static int cache_restore(struct build_ctx *c, struct buildcache *bc, struct runner_variant *v,
			 const char *key, struct plumb_err *err)
{
	struct buildcache_meta meta;
	int whole = v->pad == 0 && !v->control, r;
	char note[2048], from[128];

	if (!whole) {
		struct runner_variant *p0 = build_find_variant(c->res, v->side, 0);
		char *old = buf_strdupf("%s/%s", v->dir, c->cfg->build.artifact);
		r = old ? workdir_copy_tree_linked(p0->dir, v->dir, &c->links, err)
			: plumb_err_oom(err, "variant");
		if (r == 0)
			r = workdir_remove_tree(old, err);
		free(old);
		if (r < 0)
			return r;
	}
	if (v->control)
		snprintf(from, sizeof(from), "the control built at comparison %u of this bisect",
			 c->kept->built_at);
	r = buildcache_restore(bc, key, v->dir, c->cfg->build.artifact, whole,
			       c->res->build_dir[v->side], v->log, v->control ? from : NULL, &meta,
			       note, sizeof(note), err);
	if (r < 0)
		return r;
	if (r == 0 || r == 2) {
		if (r == 2)
			TELL(c->opts, .kind = RUNNER_EV_KEPT_HERE, .subject = v->id, .text = note);
		else if (note[0])
			TELL(c->opts, .kind = RUNNER_EV_CACHE_REFUSED, .subject = v->id, .text = note);
		return whole ? 0 : workdir_remove_tree(v->dir, err);
	}
	memcpy(v->cache_key, key, sizeof(v->cache_key));
	if (v->control) {
		v->reused = c->kept->built_at;
		TELL(c->opts, .kind = RUNNER_EV_CONTROL_REUSED, .subject = v->id, .n = v->reused,
		     .seconds = (double)meta.build_ns / 1e9);
		return 1;
	}
	v->cached = 1;
	TELL(c->opts, .kind = RUNNER_EV_RESTORED, .subject = v->id, .label = key,
	     .seconds = (double)meta.build_ns / 1e9);
	return 1;
}

/* Keep a built variant in bc (the cache, or a bisect's controls); a cache
 * that cannot take it is a warning. */
static void cache_store(struct build_ctx *c, struct buildcache *bc, struct runner_variant *v,
			const char *key, const char *material)
{
	struct buildcache_meta meta;
	struct plumb_err e;

	plumb_err_clear(&e);
	memset(&meta, 0, sizeof(meta));
	memcpy(meta.key, key, sizeof(meta.key));
	snprintf(meta.what, sizeof(meta.what), "%s pad %u of tree %.12s",
		 v->control ? "control" : runner_side_name(v->side), v->pad, c->res->side[v->side].tree);
	memcpy(meta.sha256, v->sha256, sizeof(meta.sha256));
	meta.size = v->size;
	meta.build_ns = v->build_ns;
	meta.material = material;
	meta.folder = c->res->build_dir[v->side];
	if (buildcache_store(bc, v->dir, c->cfg->build.artifact, v->pad == 0 && !v->control, v->log,
			     &meta, &e) < 0)
		TELL(c->opts, .kind = RUNNER_EV_NOT_KEPT, .subject = v->id, .text = e.msg);
}

/* Make v: copy it (A/A), or build it in its tree's folder and move it to v->dir. */
static int realize(struct build_ctx *c, struct runner_variant *v, int keep_export,
		   struct plumb_err *err)
{
	const char *dir = c->res->build_dir[v->side];
	uint64_t t0 = clock_now_ns();
	struct buildcache *bc = v->control ? c->controls : c->cache;
	struct buf material;
	char name[96], key[65];
	int r, store = 0;

	buf_init(&material, 1);

	build_variant_name(v, name, sizeof(name));
	if (c->same_tree && v->side == RUNNER_CANDIDATE && !v->control) {
		if ((r = copy_same_tree(c, v, err)) < 0)
			return plumb_err_prefix(err, "%s", name);
		v->prepare_ns = clock_now_ns() - t0;
		TELL(c->opts, .kind = RUNNER_EV_COPIED, .subject = v->id, .label = v->same_as);
		v->built = 1;
		return build_artifact_digest(v->artifact, v->sha256, &v->size, err);
	}
	/* The control never comes from the build cache (it exists to check the
	 * build); in a bisect, from the bisect's own controls, built at an
	 * earlier comparison with this base. */
	if (bc) {
		buf_init(&material, 1 << 20);
		if ((r = cache_key(c, v, key, &material, err)) == 0)
			r = !c->lookups || (v->control && !c->kept->built_at) ? 0
									      : cache_restore(c, bc, v, key, err);
		if (r != 0) {
			buf_release(&material);
			if (r < 0)
				return plumb_err_prefix(err, "%s", name);
			v->prepare_ns = clock_now_ns() - t0;
			v->built = 1;
			return build_artifact_digest(v->artifact, v->sha256, &v->size, err);
		}
		store = 1;
	}
	if ((r = prepare_folder(c, v, dir, keep_export, err)) < 0) {
		buf_release(&material);
		return plumb_err_prefix(err, "%s", name);
	}
	v->prepare_ns = clock_now_ns() - t0;
	TELL(c->opts, .kind = RUNNER_EV_BUILDING, .subject = name, .flag = v->relinked);
	r = run_build(c->cfg, c->res, v, dir, c->objects ? c->objects[v->pad] : NULL, err);
	/* Built in its tree's one folder, run from its own. */
	if (r == 0 && rename(dir, v->dir) < 0)
		r = plumb_err_errno(err, PLUMB_EIO, errno, v->dir, "rename");
	if (r == 0)
		r = build_artifact_digest(v->artifact, v->sha256, &v->size, err);
	if (r == 0 && store)
		cache_store(c, bc, v, key, material.data);
	buf_release(&material);
	if (r < 0)
		return r;
	TELL(c->opts, .kind = RUNNER_EV_BUILT, .subject = v->id, .seconds = (double)v->build_ns / 1e9);
	if (v->left_behind)
		TELL(c->opts, .kind = RUNNER_EV_BUILD_LEFT, .subject = v->id, .n = v->left_behind);
	v->built = 1;
	return 0;
}

/* Open a store of built variants: 1, or 0 with a warning when the folder
 * is refused (another's, or writable by others: the run goes without). */
static int open_store(struct build_ctx *c, struct buildcache *bc, const char *dir, uint64_t limit,
		      struct plumb_err *err)
{
	struct plumb_err e;

	plumb_err_clear(&e);
	if (buildcache_open(bc, dir, limit, &e) == 0)
		return 1;
	if (e.code != PLUMB_EINPUT) {
		*err = e;
		return e.code;
	}
	TELL(c->opts, .kind = RUNNER_EV_WARNING, .text = e.msg);
	return 0;
}

/* Open the build cache for c unless the run goes without (--no-cache, size
 * 0), and a bisect's controls when it is given them. */
static int ctx_open_cache(struct build_ctx *c, struct buildcache *cache, struct buildcache *controls,
			  struct plumb_err *err)
{
	const struct runner_controls *kc = c->opts ? c->opts->controls : NULL;
	int r;

	/* The sweep's added pads (controls NULL) have no control among them. */
	if (kc && controls && c->cfg->run.control) {
		if ((r = open_store(c, controls, kc->dir, 0, err)) < 0)
			return r;
		if (r > 0) {
			c->controls = controls;
			c->kept = kc;
		}
	}
	if (!c->cfg->no_cache && c->cfg->build.cache_size != 0) {
		if ((r = open_store(c, cache, NULL, c->cfg->build.cache_size, err)) < 0)
			return r;
		if (r > 0)
			c->cache = cache;
	}
	return 0;
}

/* Free what one attempt at the builds made in c (objects has npads slots). */
static void ctx_release_attempt(struct build_ctx *c, unsigned npads)
{
	if (c->objects)
		for (unsigned k = 0; k < npads; k++)
			free(c->objects[k]);
	free(c->objects);
	c->objects = NULL;
	free(c->src[0]);
	free(c->src[1]);
	c->src[0] = c->src[1] = NULL;
	workdir_links_release(&c->links);
}

/* Free what c holds (objects has npads slots). */
static void ctx_release(struct build_ctx *c, unsigned npads)
{
	ctx_release_attempt(c, npads);
	free(c->toolchain);
	if (c->cache)
		buildcache_close(c->cache);
	if (c->controls)
		buildcache_close(c->controls);
}

/* Assemble the pad objects of pads from..to-1 into objects[from..to), in
 * the work folder: the same paths run after run. */
static int make_pad_objects(const struct plumb_config *cfg, struct runner_result *res,
			    unsigned from, unsigned to, char **objects, struct plumb_err *err)
{
	struct envlist env = { 0 };
	int r;

	if ((r = envlist_init(&env, err)) < 0 || (r = envlist_inherit(&env, err)) < 0)
		goto out;
	for (unsigned k = from; k < to && r == 0; k++) {
		struct pad_object po;
		char *dir = buf_strdupf("%s/pad/%02u", res->workdir, k);
		uint64_t bytes = pad_offset(cfg->build.pad_offsets == CONFIG_OFFSETS_SPREAD, k,
					    cfg->build.pad_bytes, cfg->run.seed);
		memset(&po, 0, sizeof(po));
		r = dir ? 0 : plumb_err_oom(err, "pad objects");
		if (r == 0 && !pad_object_reuse(dir, k, bytes, cfg->build.cc, &po)) {
			pad_object_release(&po);
			r = workdir_remove_tree(dir, err);
			if (r == 0)
				r = pad_object_make(dir, k, bytes, cfg->build.cc, &env, &po, err);
		}
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

/* realize() for runner/build-jobs.c: in a worker, progress goes to opts. */
static int realize_job(void *ctx, struct runner_variant *v, int keep_export,
		       const struct runner_opts *opts, struct plumb_err *err)
{
	struct build_ctx *c = ctx;

	c->opts = opts;
	return realize(c, v, keep_export, err);
}

/*
 * Make order[0..n): one after another with build.jobs = 1, else through
 * runner/build-jobs.c, the sides' folders side by side.  An exported tree
 * a worker moved into a build is gone from c afterwards too.
 */
static int build_rest(struct build_ctx *c, struct runner_variant **order, size_t n,
		      struct plumb_err *err)
{
	unsigned jobs = c->cfg->build.jobs ? c->cfg->build.jobs : build_jobs_auto();
	struct build_jobs J;
	unsigned char *keep;
	int r = 0;

	if (n == 0)
		return 0;
	keep = calloc(n, 1);
	if (!keep)
		return plumb_err_oom(err, "variants");
	for (size_t i = 0; i < n; i++)
		keep[i] = (unsigned char)export_needed_after(c, order, n, i);
	if (jobs <= 1 || n == 1) {
		for (size_t i = 0; i < n && r == 0; i++)
			if ((r = realize(c, order[i], keep[i], err)) < 0)
				memcpy(c->res->suspect, order[i]->id, sizeof(c->res->suspect));
		free(keep);
		return r;
	}
	TELL(c->opts, .kind = RUNNER_EV_BUILD_JOBS, .n = n, .n2 = jobs, .flag = !c->cfg->build.jobs);
	/* Every worker stores into its own copy of the cache's handle: counted
	 * here once, each adds its entry to this count (and reads the cache
	 * again only past the limit), and what they stored together is pruned
	 * in full when they are done. */
	if (c->cache && c->cache->limit && !c->cache->counted) {
		struct plumb_err e;
		plumb_err_clear(&e);
		if (buildcache_prune(c->cache, c->cache->limit, NULL, NULL, &e) < 0)
			TELL(c->opts, .kind = RUNNER_EV_WARNING, .subject = "the build cache", .text = e.msg);
	}
	memset(&J, 0, sizeof(J));
	J.res = c->res;
	J.order = order;
	J.keep_export = keep;
	J.n = n;
	J.jobs = jobs;
	J.same_tree = c->same_tree;
	J.realize = realize_job;
	J.ctx = c;
	J.opts = c->opts;
	r = build_jobs_run(&J, err);
	if (r < 0 && J.failed)
		memcpy(c->res->suspect, J.failed->id, sizeof(c->res->suspect));
	free(keep);
	if (r == 0 && c->cache && c->cache->limit) {
		struct plumb_err e;
		plumb_err_clear(&e);
		if (buildcache_prune(c->cache, c->cache->limit, NULL, NULL, &e) < 0)
			TELL(c->opts, .kind = RUNNER_EV_WARNING, .subject = "the build cache", .text = e.msg);
	}
	for (int s = 0; s < 2; s++)
		if (c->src[s] && access(c->src[s], F_OK) != 0) {
			free(c->src[s]);
			c->src[s] = NULL;
		}
	return r;
}

/*
 * Every variant in build order: base pads 0 and 1 first, and the shift
 * proof on them before anything else is built (a build that ignores the
 * pad fails after two builds), then the other base pads, the candidate's
 * and the control, build.jobs at a time.
 */
static int build_all(struct build_ctx *c, int *machine, struct plumb_err *err)
{
	struct runner_result *res = c->res;
	struct runner_variant **order;
	unsigned proof = c->cfg->run.pads > 1 ? 1u : 0u;
	size_t n = res->nvariants, i;
	int r = 0, proved = 0;

	order = calloc(n, sizeof(*order));
	if (!order)
		return plumb_err_oom(err, "variants");
	for (i = 0; i < n; i++)
		order[i] = &res->variants[i];
	for (i = 0; i < n && r == 0 && !proved; i++) {
		struct runner_variant *v = order[i];
		if ((r = realize(c, v, export_needed_after(c, order, n, i), err)) < 0)
			memcpy(res->suspect, v->id, sizeof(res->suspect));
		/* A hot symbol the first build does not define stops the run now. */
		if (r == 0 && i == 0)
			r = build_check_names(c->cfg, res, v, err);
		if (r == 0 && v->side == RUNNER_BASE && !v->control && v->pad == proof) {
			proved = 1;
			if ((r = build_read_addresses(c->cfg, res, machine, err)) == 0 && res->variants[0].elf)
				r = build_check_shift(c->cfg, res, err);
		}
	}
	/* The proof passed: the rest, side by side. */
	if (r == 0)
		r = build_rest(c, order + i, n - i, err);
	free(order);
	return r;
}

/*
 * One attempt at the builds: check out both trees into the run folder, make
 * the pad objects, build every variant (restoring what c->lookups allows),
 * and read what the artifacts say.
 */
static int build_attempt(struct build_ctx *c, struct plumb_err *err)
{
	const struct plumb_config *cfg = c->cfg;
	const struct runner_opts *opts = c->opts;
	struct runner_result *res = c->res;
	struct checkout_repo repo;
	uint64_t t1 = clock_now_ns();
	const char *base = cfg->run.base;
	char *tag = NULL;
	int machine = 0, r;

	/* The repository and the two trees. */
	memset(&repo, 0, sizeof(repo));
	if (cfg->repo.url)
		TELL(opts, .kind = RUNNER_EV_FETCHING, .subject = cfg->repo.url);
	if ((r = checkout_open_config(&repo, cfg, err)) < 0)
		return r;
	res->repo = strdup(repo.where);
	res->repo_cache = repo.cache ? strdup(repo.cache) : NULL;
	/* The base is the newest release before the candidate, recorded by its tag. */
	if (strcmp(base, CONFIG_LATEST_TAG) == 0) {
		r = checkout_latest_tag(&repo, cfg->run.candidate, cfg->repo.release_tags, "run.base",
					&tag, err);
		if (r == 0) {
			base = tag;
			TELL(opts, .kind = RUNNER_EV_LATEST_TAG, .subject = tag);
		}
	}
	for (int s = 0; s < 2 && r == 0; s++) {
		char *dest = buf_strdupf("%s/src/%c", res->run_dir, s == 0 ? 'b' : 'c');
		char *srcdir = buf_strdupf("%s/src", res->run_dir);
		if (!dest || !srcdir || (mkdir(srcdir, 0755) < 0 && errno != EEXIST)) {
			r = !dest || !srcdir ? plumb_err_oom(err, "checkout")
					     : plumb_err_errno(err, PLUMB_EIO, errno, srcdir, "mkdir");
		} else {
			r = checkout_export(&repo, s == 0 ? base : cfg->run.candidate, dest,
					    s == 0 ? "run.base" : "run.candidate", &res->side[s], err);
			if (r == 0)
				r = check_pinned(cfg, s, &res->side[s], repo.where, err);
			if (r == 0)
				TELL(opts, .kind = RUNNER_EV_CHECKED_OUT, .subject = runner_side_name(s),
				     .label = res->side[s].ref, .detail = res->side[s].commit,
				     .flag = res->side[s].dirty, .n = res->side[s].files);
			if (r == 0)
				r = workdir_links_collect(dest, &c->links, err);
		}
		c->src[s] = dest;
		free(srcdir);
	}
	if (r == 0 && cfg->run.project && !(res->project = strdup(cfg->run.project)))
		r = plumb_err_oom(err, "project");
	else if (r == 0 && !cfg->run.project && res->side[RUNNER_CANDIDATE].commit[0])
		r = checkout_project(&repo, cfg->repo.url, res->side[RUNNER_CANDIDATE].commit,
				     &res->project, err);
	checkout_close(&repo);
	free(tag);
	res->checkout_ns = clock_now_ns() - t1;
	if (r < 0)
		return r;
	/* Each tree builds in its own folder, whichever side it is on. */
	for (int s = 0; s < 2; s++)
		if (!(res->build_dir[s] = buf_strdupf("%s/build/%s", res->workdir, res->side[s].tree)))
			return plumb_err_oom(err, "build folder");
	c->same_tree = strcmp(res->side[0].tree, res->side[1].tree) == 0;
	if (c->same_tree)
		TELL(opts, .kind = RUNNER_EV_SAME_TREE, .subject = res->side[0].tree);
	if ((r = build_collect_symbols(cfg, res, err)) < 0)
		return r;

	/* Pad objects, one per pad, shared by both sides (and the control), in
	 * the work folder: the same paths run after run. */
	if (cfg->build.pad != CONFIG_PAD_NONE) {
		if (!(c->objects = calloc(cfg->run.pads, sizeof(*c->objects))))
			return plumb_err_oom(err, "pad objects");
		if ((r = make_pad_objects(cfg, res, 0, cfg->run.pads, c->objects, err)) < 0)
			return r;
	}
	if ((r = plan_variants(cfg, res, err)) < 0 || (r = build_all(c, &machine, err)) < 0)
		return r;

	/* What the artifacts say. */
	if ((r = build_read_addresses(cfg, res, &machine, err)) < 0)
		return r;
	if (res->variants[0].elf && (r = build_check_shift(cfg, res, err)) < 0)
		return r;
	res->control = cfg->run.control;
	if ((r = build_check_control(res, err)) < 0)
		return r;
	return build_check_hot(res, machine, err);
}

/*
 * The variant whose restored entry a failure may come from, or NULL: the
 * variant the failure is about (res->suspect: a build, a symbol, the
 * shift proof) when it was restored, else its side's pad 0 when that was
 * (the tree it relinked, the addresses it is compared with); with no
 * variant named, the first restored one.  Only variants from.. count, and
 * only build and input failures (not a signal, a full disk or a bug).
 */
static const struct runner_variant *cache_blame(const struct build_ctx *c, size_t from,
						const struct plumb_err *err)
{
	struct runner_result *res = c->res;
	const struct runner_variant *v = NULL, *p0;

	if (cleanup_signal_pending() || (err->code != PLUMB_EBUILD && err->code != PLUMB_EINPUT))
		return NULL;
	for (size_t i = from; i < res->nvariants && !v; i++)
		if (strcmp(res->variants[i].id, res->suspect) == 0)
			v = &res->variants[i];
	if (v) {
		if (v->cache_key[0])
			return v;
		p0 = build_find_variant(res, v->side, 0);
		return p0 && (size_t)(p0 - res->variants) >= from && p0->cache_key[0] ? p0 : NULL;
	}
	if (res->suspect[0])
		return NULL;
	for (size_t i = from; i < res->nvariants; i++)
		if (res->variants[i].cache_key[0])
			return &res->variants[i];
	return NULL;
}

/* Say why the builds go again from clean, and evict every entry variants
 * from.. were restored from. */
static void evict_restored(struct build_ctx *c, size_t from, const struct runner_variant *blamed,
			   const struct plumb_err *why)
{
	struct runner_result *res = c->res;
	const struct buildcache *bb = blamed->control ? c->controls : c->cache;
	size_t n = 0;

	for (size_t i = from; i < res->nvariants; i++)
		n += res->variants[i].cache_key[0] != '\0';
	TELL(c->opts, .kind = RUNNER_EV_CACHE_EVICTED, .subject = blamed->id,
	     .label = bb ? bb->dir : "?", .detail = blamed->cache_key, .text = why->msg, .n = n);
	for (size_t i = from; i < res->nvariants; i++) {
		struct runner_variant *v = &res->variants[i];
		struct buildcache *bc = v->control ? c->controls : c->cache;
		struct plumb_err e;
		plumb_err_clear(&e);
		if (v->cache_key[0] && bc && buildcache_evict(bc, v->cache_key, &e) < 0)
			TELL(c->opts, .kind = RUNNER_EV_WARNING, .subject = v->id, .text = e.msg);
	}
}

/* The failure of the builds from clean, saying that they went again. */
static int failed_again(const struct buildcache *bc, const char *key, struct plumb_err *err)
{
	char was[PLUMB_ERR_MAX];

	snprintf(was, sizeof(was), "%s", err->msg);
	return plumb_err_set(err, err->code, "%s (built from clean, after a build with build cache "
			     "entry %s/%.12s failed first)", was, bc ? bc->dir : "?", key);
}

/* The builds, checkouts and variants of res, freed; the work folder, its
 * lock and the run folder stay. */
static void release_builds(struct runner_result *res)
{
	for (int s = 0; s < 2; s++) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		if (res->build_dir[s] && workdir_remove_tree(res->build_dir[s], &ignored) < 0)
			runner_event_send(res->event, res->event_ctx, &(const struct runner_event){
				.kind = RUNNER_EV_CANNOT_REMOVE, .subject = res->build_dir[s],
				.text = ignored.msg });
		free(res->build_dir[s]);
		res->build_dir[s] = NULL;
		checkout_side_release(&res->side[s]);
	}
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
	free(res->repo);
	free(res->project);
	free(res->repo_cache);
}

/* Undo a failed attempt: res as make_run_folder() left it, the run folder empty. */
static int clear_attempt(struct runner_result *res, struct plumb_err *err)
{
	struct runner_result keep = *res;

	release_builds(res);
	memset(res, 0, sizeof(*res));
	res->workdir = keep.workdir;
	res->run_dir = keep.run_dir;
	res->keep = keep.keep;
	res->event = keep.event;
	res->event_ctx = keep.event_ctx;
	res->lock = keep.lock;
	res->total_ns = keep.total_ns;
	if (workdir_remove_tree(res->run_dir, err) < 0)
		return err->code;
	return make_run_dir(res, err);
}

int runner_build(const struct plumb_config *cfg, const struct runner_opts *opts,
		 struct runner_result *res, struct plumb_err *err)
{
	struct buildcache cache, controls;
	const struct runner_variant *blamed;
	struct build_ctx c;
	uint64_t t0 = clock_now_ns();
	int r;

	memset(res, 0, sizeof(*res));
	memset(&c, 0, sizeof(c));
	c.cfg = cfg;
	c.opts = opts;
	c.res = res;
	c.lookups = 1;
	res->lock.fd = -1;
	res->keep = cfg->keep;
	if (opts) {
		res->event = opts->event;
		res->event_ctx = opts->event_ctx;
	}
	if (cfg->run.pads < 1 || cfg->run.pads > PADS_MAX || !cfg->run.base || !cfg->run.candidate ||
	    !cfg->build.command || !cfg->build.artifact)
		return plumb_err_set(err, PLUMB_EINTERNAL, "runner_build: configuration not checked");
	if (sodium_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libsodium: cannot initialize");
	if ((r = make_run_folder(cfg, res, err)) < 0)
		goto out;
	TELL(opts, .kind = RUNNER_EV_RUN_FOLDER, .subject = res->run_dir);
	if ((r = ctx_open_cache(&c, &cache, &controls, err)) < 0)
		goto out;
	r = build_attempt(&c, err);
	/* Failed with something restored: once more, from clean. */
	if (r < 0 && (blamed = cache_blame(&c, 0, err)) != NULL) {
		const struct buildcache *bc = blamed->control ? c.controls : c.cache;
		char key[65];
		struct plumb_err e;
		memcpy(key, blamed->cache_key, sizeof(key));
		evict_restored(&c, 0, blamed, err);
		ctx_release_attempt(&c, cfg->run.pads);
		plumb_err_clear(&e);
		if ((r = clear_attempt(res, &e)) < 0) {
			*err = e;
			goto out;
		}
		c.lookups = 0;
		plumb_err_clear(err);
		if ((r = build_attempt(&c, err)) < 0)
			failed_again(bc, key, err);
	}
out:
	ctx_release(&c, cfg->run.pads);
	res->total_ns = clock_now_ns() - t0;
	return r;
}

/* Build the pads res->variants[old..] and check that they move the code
 * as the first ones did. */
static int build_added(struct build_ctx *c, size_t old, struct plumb_err *err)
{
	struct runner_result *res = c->res;
	struct runner_variant **order = calloc(res->nvariants - old, sizeof(*order));
	int machine, r;

	if (!order)
		return plumb_err_oom(err, "variants");
	/* Base pads first: an A/A candidate pad is a copy of the base's. */
	for (size_t i = old; i < res->nvariants; i++)
		order[i - old] = &res->variants[i];
	r = build_rest(c, order, res->nvariants - old, err);
	free(order);
	if (r == 0 && res->variants[0].elf)
		r = build_read_addresses(c->cfg, res, &machine, err);
	if (r == 0 && res->variants[0].elf)
		r = build_check_shift(c->cfg, res, err);
	return r;
}

/* v as init_variant() left it, its folder and log gone. */
static void variant_reset(struct runner_variant *v)
{
	struct runner_variant keep = *v;
	struct plumb_err ignored;

	plumb_err_clear(&ignored);
	workdir_remove_tree(v->dir, &ignored);
	unlink(v->log);
	free(v->elf);
	free(v->command);
	free(v->addr);
	memset(v, 0, sizeof(*v));
	memcpy(v->id, keep.id, sizeof(v->id));
	v->side = keep.side;
	v->control = keep.control;
	v->pad = keep.pad;
	v->pad_bytes = keep.pad_bytes;
	v->dir = keep.dir;
	v->artifact = keep.artifact;
	v->log = keep.log;
	v->relinked = keep.relinked;
}

int runner_build_more(const struct plumb_config *cfg, const struct runner_opts *opts,
		      struct runner_result *res, unsigned add, struct plumb_err *err)
{
	unsigned from = res->npads, to = res->npads + add;
	size_t old = res->nvariants;
	const struct runner_variant *blamed;
	struct runner_variant *nv;
	struct buildcache cache;
	struct build_ctx c;
	uint64_t t0 = clock_now_ns();
	int r = 0;

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
	memset(&c, 0, sizeof(c));
	c.cfg = cfg;
	c.opts = opts;
	c.res = res;
	c.lookups = 1;
	c.same_tree = strcmp(res->side[0].tree, res->side[1].tree) == 0;
	for (int s = 0; s < 2 && r == 0; s++) {
		struct stat st;
		c.src[s] = buf_strdupf("%s/src/%c", res->run_dir, s == 0 ? 'b' : 'c');
		if (!c.src[s])
			r = plumb_err_oom(err, "variants");
		else if (stat(c.src[s], &st) < 0) {
			free(c.src[s]);
			c.src[s] = NULL;
		}
	}
	if (r == 0 && cfg->build.pad != CONFIG_PAD_NONE) {
		c.objects = calloc(to, sizeof(*c.objects));
		r = c.objects ? make_pad_objects(cfg, res, from, to, c.objects, err)
			      : plumb_err_oom(err, "pad objects");
	}
	if (r == 0)
		r = ctx_open_cache(&c, &cache, NULL, err);
	if (r == 0)
		r = build_added(&c, old, err);
	/* A new pad restored and failing: those pads once more, from clean. */
	if (r < 0 && (blamed = cache_blame(&c, old, err)) != NULL) {
		char key[65];
		memcpy(key, blamed->cache_key, sizeof(key));
		evict_restored(&c, old, blamed, err);
		for (size_t i = old; i < res->nvariants; i++)
			variant_reset(&res->variants[i]);
		c.lookups = 0;
		res->suspect[0] = '\0';
		plumb_err_clear(err);
		if ((r = build_added(&c, old, err)) < 0)
			failed_again(c.cache, key, err);
	}
	ctx_release(&c, to);
	res->total_ns += clock_now_ns() - t0;
	return r;
}

void runner_result_release(struct runner_result *res)
{
	if (res->run_dir && !res->keep) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		if (workdir_remove_tree(res->run_dir, &ignored) < 0)
			runner_event_send(res->event, res->event_ctx, &(const struct runner_event){
				.kind = RUNNER_EV_CANNOT_REMOVE, .subject = res->run_dir,
				.text = ignored.msg });
	}
	release_builds(res);
	run_lock_release(&res->lock);
	free(res->workdir);
	free(res->run_dir);
	memset(res, 0, sizeof(*res));
	res->lock.fd = -1;
}
