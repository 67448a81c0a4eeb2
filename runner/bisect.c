/*
 * runner/bisect.c: the bisect's narrowing (pure, unit-tested) and its
 * driver, one runner_run() per comparison (runner/bisect.h).
 */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/config.h"
#include "runner/bisect.h"
#include "runner/build-types.h"
#include "runner/checkout.h"
#include "runner/prune.h"
#include "runner/run.h"
#include "runner/workdir.h"
#include "stats/rule.h"
#include "common/banned.h"

size_t bisect_midpoint(size_t lo, size_t hi)
{
	assert(hi >= lo + 2);
	return lo + (hi - lo) / 2;
}

enum bisect_next bisect_narrow(size_t *lo, size_t *hi, size_t mid, enum bisect_kind kind,
			       enum bisect_call call)
{
	assert(*lo < mid && mid < *hi);
	if (call == BISECT_CALL_UNDECIDED)
		return kind == BISECT_STEP ? BISECT_NEXT_AGAINST_BAD : BISECT_NEXT_STUCK;
	/* Against the good end, slower puts the culprit at or before mid;
	 * against the bad end, slower puts it after mid. */
	if ((call == BISECT_CALL_SLOWER) == (kind == BISECT_STEP))
		*hi = mid;
	else
		*lo = mid;
	return BISECT_NEXT_NARROWED;
}

enum bisect_call bisect_call_of(const struct manifest_bench *mb, char *why, size_t size)
{
	struct stats_judgement jd;
	const char *u;

	why[0] = '\0';
	if (mb->verdict == VERDICT_SLOWER)
		return BISECT_CALL_SLOWER;
	if (mb->hot.present && mb->hot.identical == 1) {
		snprintf(why, size, "hot code identical");
		return BISECT_CALL_SAME;
	}
	/* The adaptive sweep's own question (stats_undecided()), asked of the record. */
	memset(&jd, 0, sizeof(jd));
	jd.verdict = mb->verdict == VERDICT_UNSET ? VERDICT_INSUFFICIENT : mb->verdict;
	jd.reason = STATS_REASON_NONE;
	for (int r = STATS_REASON_NONE; r <= STATS_REASON_FEW_ROUNDS; r++)
		if (mb->reason && strcmp(mb->reason, stats_reason_name((enum stats_reason)r)) == 0)
			jd.reason = (enum stats_reason)r;
	if (mb->base.present && mb->candidate.present) {
		jd.base.s.min = mb->base.min;
		jd.base.s.max = mb->base.max;
		jd.candidate.s.min = mb->candidate.min;
		jd.candidate.s.max = mb->candidate.max;
	}
	u = stats_undecided(&jd);
	if (!u && mb->verdict == VERDICT_INSUFFICIENT)
		u = mb->reason ? mb->reason : "insufficient";
	if (u) {
		snprintf(why, size, "%s", u);
		return BISECT_CALL_UNDECIDED;
	}
	return BISECT_CALL_SAME;
}

static int set_str(char **slot, const char *v, struct plumb_err *err)
{
	char *c = strdup(v);

	if (!c)
		return plumb_err_oom(err, "bisect");
	free(*slot);
	*slot = c;
	return 0;
}

/* The first-parent line good..bad into rec->commits. */
static int load_commits(const struct plumb_config *cfg, const struct bisect_opts *o,
			struct bisect_record *rec, struct plumb_err *err)
{
	struct checkout_repo repo;
	struct checkout_side *line = NULL;
	struct buf dir;
	size_t n = 0;
	int r;

	memset(&repo, 0, sizeof(repo));
	buf_init(&dir, 1 << 16);
	if (cfg->repo.url)
		r = checkout_open(&repo, NULL, cfg->repo.url, err);
	else if ((r = config_repo_dir(cfg, &dir, err)) == 0)
		r = checkout_open(&repo, dir.data, NULL, err);
	buf_release(&dir);
	if (r == 0)
		r = checkout_first_parents(&repo, o->good, o->bad, BISECT_COMMITS_MAX, &line, &n, err);
	checkout_close(&repo);
	if (r < 0)
		return r;
	rec->commits = calloc(n, sizeof(*rec->commits));
	if (!rec->commits) {
		checkout_sides_free(line, n);
		return plumb_err_oom(err, "bisect");
	}
	rec->ncommits = n;
	for (size_t i = 0; i < n; i++) {
		struct bisect_commit *c = &rec->commits[i];
		memcpy(c->commit, line[i].commit, sizeof(c->commit));
		c->time = line[i].time;
		c->subject = line[i].subject;
		c->author = line[i].author;
		line[i].subject = line[i].author = NULL;
	}
	checkout_sides_free(line, n);
	rec->lo = 0;
	rec->hi = n - 1;
	return 0;
}

static void fill_side(struct bisect_side *out, const struct manifest_side_stats *s)
{
	out->present = s->present;
	if (s->present) {
		out->center = s->center;
		out->min = s->min;
		out->max = s->max;
		out->pads = s->n_pads;
	}
}

/*
 * The bisect's controls (runner/build-types.h, struct runner_controls): kept in
 * <work folder>/controls-<bisect id>, removed when the bisect ends; the
 * folder of a bisect that was killed (its process gone) is removed by the
 * next bisect on that work folder.
 */
struct controls {
	char *dir;
	unsigned *built_at;   /* per commit: the comparison that built its control, or 0 */
};

static int controls_open(struct controls *k, const struct plumb_config *cfg, const struct bisect_record *rec,
			 struct plumb_err *err)
{
	struct buf wd;
	DIR *d;
	int r;

	memset(k, 0, sizeof(*k));
	buf_init(&wd, 1 << 16);
	r = workdir_path(cfg->workdir, &wd, err);
	if (r == 0)
		r = mkdir_p(wd.data, err);
	if (r == 0 && (d = opendir(wd.data)) != NULL) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			long pid = strncmp(e->d_name, "controls-", 9) == 0 ? prune_folder_pid(e->d_name) : 0;
			if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH) {
				struct plumb_err ignored;
				char *p = buf_strdupf("%s/%s", wd.data, e->d_name);
				plumb_err_clear(&ignored);
				if (p)
					workdir_remove_tree(p, &ignored);
				free(p);
			}
		}
		closedir(d);
	}
	if (r == 0 && !(k->dir = buf_strdupf("%s/controls-%s", wd.data, rec->id)))
		r = plumb_err_oom(err, "bisect");
	if (r == 0 && !(k->built_at = calloc(rec->ncommits, sizeof(*k->built_at))))
		r = plumb_err_oom(err, "bisect");
	buf_release(&wd);
	return r;
}

static void controls_close(struct controls *k)
{
	if (k->dir) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		workdir_remove_tree(k->dir, &ignored);
	}
	free(k->dir);
	free(k->built_at);
	memset(k, 0, sizeof(*k));
}

/* One comparison: base against candidate through runner_run(), recorded as a step. */
static int compare(struct plumb_config *cfg, const struct bisect_opts *o, struct bisect_record *rec,
		   struct controls *kept, enum bisect_kind kind, size_t base, size_t cand,
		   enum bisect_call *call, struct plumb_err *err)
{
	struct runner_controls kc;
	struct runner_run_opts ropts;
	struct runner_run_result res;
	const struct manifest_bench *mb = NULL;
	struct bisect_step *s;
	struct buf out;
	int r;

	if (o->step_start)
		o->step_start(o->ctx, rec, kind, base, cand);
	if ((r = set_str(&cfg->run.base, rec->commits[base].commit, err)) < 0 ||
	    (r = set_str(&cfg->run.candidate, rec->commits[cand].commit, err)) < 0)
		return r;
	buf_init(&out, 1 << 16);
	if (buf_printf(&out, "%s/%02zu-%s-%.12s.plumb", o->dir, rec->nsteps + 1, bisect_kind_name(kind),
		       rec->commits[cand].commit) < 0)
		return buf_err(err, o->dir);
	if (o->run)
		ropts = *o->run;
	else
		memset(&ropts, 0, sizeof(ropts));
	ropts.output = out.data;
	kc.bisect = rec->id;
	kc.dir = kept->dir;
	kc.comparison = (unsigned)rec->nsteps + 1;
	kc.built_at = kept->built_at[base];
	ropts.controls = &kc;
	r = runner_run(cfg, &ropts, &res, err);
	buf_release(&out);
	if (r == 0 && res.failures)
		r = plumb_err_set(err, PLUMB_EBENCH, "%s: the benchmark failed comparing %.12s with %.12s",
				  cfg->benches[0].name, rec->commits[base].commit, rec->commits[cand].commit);
	for (size_t i = 0; r == 0 && i < res.manifest.n_benches; i++)
		if (strcmp(res.manifest.benches[i].name, cfg->benches[0].name) == 0)
			mb = &res.manifest.benches[i];
	if (r == 0 && !mb)
		r = plumb_err_set(err, PLUMB_EINTERNAL, "%s: not in the bundle", cfg->benches[0].name);
	if (r == 0 && !(s = bisect_record_add_step(rec)))
		r = plumb_err_oom(err, "bisect");
	if (r < 0) {
		runner_run_result_release(&res);
		return r;
	}
	s->kind = kind;
	s->base = base;
	s->candidate = cand;
	s->lo = rec->lo;
	s->hi = rec->hi;
	s->verdict = mb->verdict;
	s->call = *call = bisect_call_of(mb, s->why, sizeof(s->why));
	s->hot_identical = mb->hot.present ? mb->hot.identical : MANIFEST_UNKNOWN;
	s->ratio = mb->ratio;
	fill_side(&s->sides[0], &mb->base);
	fill_side(&s->sides[1], &mb->candidate);
	s->bundle = res.bundle;
	res.bundle = NULL;
	memcpy(s->id, res.id, sizeof(s->id));
	for (size_t i = 0; i < res.manifest.build.n_variants; i++) {
		const struct manifest_variant *mv = &res.manifest.build.variants[i];
		if (mv->cached == 1)
			s->builds.cached++;
		else if (mv->reused_comparison > 0)
			s->builds.reused++;
		else
			s->builds.built++;
		/* A control built here is the one later comparisons with this base reuse. */
		if (mv->side == MANIFEST_SIDE_CONTROL && mv->reused_comparison == 0)
			kept->built_at[base] = kc.comparison;
	}
	s->builds.controls = res.build_times.controls;
	s->builds.build_ns = res.build_ns;
	s->builds.setup_ns = res.build_times.setup_ns;
	s->builds.checkout_ns = res.build_times.checkout_ns;
	s->builds.fresh_ns = res.build_times.fresh_ns;
	s->builds.control_ns = res.build_times.control_ns;
	s->builds.restore_ns = res.build_times.restore_ns;
	s->measure_ns = res.measure_ns;
	runner_run_result_release(&res);
	return o->step_done ? o->step_done(o->ctx, rec, s, err) : 0;
}

int bisect_run(struct plumb_config *cfg, const struct bisect_opts *o, struct bisect_record *rec,
	       struct plumb_err *err)
{
	uint64_t t0 = clock_now_ns();
	struct controls kept;
	enum bisect_call call;
	size_t lo, hi;
	int r;

	assert(cfg->nbenches == 1);
	if ((r = set_str(&rec->good_ref, o->good, err)) < 0 || (r = set_str(&rec->bad_ref, o->bad, err)) < 0 ||
	    (r = set_str(&rec->bench, cfg->benches[0].name, err)) < 0 ||
	    (r = set_str(&rec->metric, metric_name(cfg->benches[0].metric), err)) < 0 ||
	    (r = load_commits(cfg, o, rec, err)) < 0)
		return r;
	lo = 0;
	hi = rec->ncommits - 1;
	if ((r = controls_open(&kept, cfg, rec, err)) < 0)
		goto out;
	if ((r = compare(cfg, o, rec, &kept, BISECT_CHECK, lo, hi, &call, err)) < 0)
		goto out;
	if (call != BISECT_CALL_SLOWER) {
		rec->outcome = BISECT_NOT_FASTER;
		goto out;
	}
	while (hi - lo > 1) {
		size_t mid = bisect_midpoint(lo, hi);
		enum bisect_next next;
		if ((r = compare(cfg, o, rec, &kept, BISECT_STEP, 0, mid, &call, err)) < 0)
			goto out;
		next = bisect_narrow(&lo, &hi, mid, BISECT_STEP, call);
		if (next == BISECT_NEXT_AGAINST_BAD) {
			if ((r = compare(cfg, o, rec, &kept, BISECT_AGAINST_BAD, mid, hi, &call, err)) < 0)
				goto out;
			next = bisect_narrow(&lo, &hi, mid, BISECT_AGAINST_BAD, call);
		}
		rec->lo = lo;
		rec->hi = hi;
		if (next == BISECT_NEXT_STUCK) {
			rec->outcome = BISECT_STUCK;
			goto out;
		}
	}
	/* The culprit's parent is the good end: the check was that comparison. */
	if (hi - 1 != 0 && (r = compare(cfg, o, rec, &kept, BISECT_CONFIRM, hi - 1, hi, &call, err)) < 0)
		goto out;
	rec->culprit = hi;
	rec->outcome = call == BISECT_CALL_SLOWER ? BISECT_FOUND : BISECT_UNCONFIRMED;
out:
	controls_close(&kept);
	rec->lo = lo;
	rec->hi = hi;
	rec->wall_ns = clock_now_ns() - t0;
	return r;
}
