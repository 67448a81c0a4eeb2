/*
 * runner/run-range.c: runner_run_range(), the job of `plumb run --range`
 * (runner/range.h): one pair (A against one commit of the range) per
 * commit, built in its own work folder, all measured in the same seeded
 * rounds (run_measure_job()), each written as an ordinary bundle with the
 * manifest member `range`.  The stages of one pair are runner_run()'s
 * (run.c); only the rounds are the job's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/manifest-range.h"
#include "runner/build-internal.h"
#include "runner/elfsym.h"
#include "runner/host.h"
#include "runner/hotcode.h"
#include "runner/range.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "runner/workdir.h"
#include "common/banned.h"

/* One pair's view of the caller's callbacks: its lines say which commit. */
struct pair {
	const struct runner_run_opts *up;
	struct runner_run_opts opts;
	struct plumb_config cfg;
	char short_id[13];
	char *workdir;
	char *output;
	struct buf out;
	struct host_facts start, end;
	struct run_state st;
	int begun;
};

static void pair_event(void *ctx, const struct runner_event *ev)
{
	struct pair *p = ctx;
	struct runner_event e = *ev;

	e.commit = p->short_id;
	runner_event_send(p->up->event, p->up->ctx, &e);
}

static void pair_progress(void *ctx, const struct runner_progress *pr)
{
	struct pair *p = ctx;

	if (p->up->progress)
		p->up->progress(p->up->ctx, pr);
}

static int pair_setup(struct pair *p, const struct plumb_config *cfg, const struct runner_range *rg,
		      const struct runner_run_opts *opts, size_t k, const char *wd,
		      struct plumb_err *err)
{
	const struct runner_range_commits *c = rg->commits;

	p->up = opts;
	memcpy(p->short_id, c->v[k].commit, 12);
	p->short_id[12] = '\0';
	p->workdir = buf_strdupf("%s/range/p%02zu", wd, k);
	p->output = buf_strdupf("%s/plumb-range-%s-%02zu-%s.plumb", rg->outdir ? rg->outdir : ".",
				rg->id, k, p->short_id);
	if (!p->workdir || !p->output)
		return plumb_err_oom(err, "range");
	/* A shallow copy: only the two revisions and the work folder differ. */
	p->cfg = *cfg;
	p->cfg.run.base = (char *)c->base;
	p->cfg.run.candidate = (char *)c->v[k].commit;
	p->cfg.workdir = p->workdir;
	memset(&p->opts, 0, sizeof(p->opts));
	p->opts.output = p->output;
	p->opts.event = pair_event;
	p->opts.progress = pair_progress;
	p->opts.ctx = p;
	buf_init(&p->out, PATH_MAX);
	host_facts_init(&p->start);
	host_facts_init(&p->end);
	return 0;
}

static void pair_release(struct pair *p)
{
	if (p->begun)
		run_state_release(&p->st);
	host_facts_release(&p->start);
	host_facts_release(&p->end);
	buf_release(&p->out);
	free(p->workdir);
	free(p->output);
}

/* A pair's candidate pad 0 (the artifact the profile and the hot code are read from). */
static const struct runner_variant *cand0(const struct run_state *st)
{
	for (size_t i = 0; i < st->build.nvariants; i++) {
		const struct runner_variant *v = &st->build.variants[i];
		if (v->side == RUNNER_CANDIDATE && !v->control && v->pad == 0)
			return v;
	}
	return NULL;
}

/* One symbol, parent against commit, into the array syms; *all_same cleared when not identical. */
static int hot_symbol(const struct elf_image *a, const struct elf_image *b, int machine,
		      const char *name, json_t *syms, int *all_same, struct plumb_err *err)
{
	struct hotcode_result hr;
	int f;

	for (size_t i = 0; i < json_array_size(syms); i++)
		if (strcmp(json_string_value(json_object_get(json_array_get(syms, i), "name")), name) == 0)
			return 0;
	if ((f = runner_compare_symbol(a, b, machine, name, &hr, err)) < 0)
		return f;
	if (f == 0)
		return 0;   /* not in both: unknown */
	if (hr.verdict != HOTCODE_IDENTICAL)
		*all_same = 0;
	if (json_array_append_new(syms, json_pack("{s:s, s:b, s:s}", "name", name,
						  "identical", hr.verdict == HOTCODE_IDENTICAL,
						  "verdict", hotcode_verdict_name(hr.verdict))) < 0)
		return plumb_err_oom(err, "range");
	return 0;
}

/*
 * range.hot: per benchmark, its hot symbols in cur's candidate pad 0
 * against prev's (the commit measured before it), compared as the
 * runner compares base and candidate (runner/hotcode.h).
 */
static int hot_vs_parent(const struct run_state *prev, const struct run_state *cur, json_t *range,
			 struct plumb_err *err)
{
	const struct runner_variant *pv = cand0(prev), *cv = cand0(cur);
	struct elf_image *a = NULL, *b = NULL;
	json_t *arr;
	int r = 0;

	if (!pv || !cv || !pv->elf || !cv->elf)
		return 0;
	if ((r = elf_image_open(pv->elf, &a, err)) < 0 || (r = elf_image_open(cv->elf, &b, err)) < 0)
		goto out;
	arr = json_array();
	if (!arr || json_object_set_new(range, "hot", arr) < 0) {
		r = plumb_err_oom(err, "range");
		goto out;
	}
	for (size_t bi = 0; bi < cur->cfg->nbenches && r == 0; bi++) {
		const struct bench_state *bs = &cur->benches[bi];
		const struct config_bench *cb = bs->cb;
		json_t *syms = json_array();
		int all_same = 1;
		if (!syms) {
			r = plumb_err_oom(err, "range");
			break;
		}
		for (size_t k = 0; k < cb->nhot && r == 0; k++)
			r = hot_symbol(a, b, elf_image_machine(a), cb->hot[k], syms, &all_same, err);
		for (size_t k = 0; k < bs->nauto && r == 0; k++)
			r = hot_symbol(a, b, elf_image_machine(a), bs->auto_hot[k].symbol, syms, &all_same, err);
		if (r < 0 || json_array_size(syms) == 0) {
			json_decref(syms);
			continue;
		}
		if (json_array_append_new(arr, json_pack("{s:s, s:b, s:o}", "bench", cb->name,
							 "identical", all_same, "symbols", syms)) < 0)
			r = plumb_err_oom(err, "range");
	}
out:
	if (a)
		elf_image_free(a);
	if (b)
		elf_image_free(b);
	return r;
}

int runner_run_range(const struct plumb_config *cfg, const struct runner_range *rg,
		     const struct runner_run_opts *opts, struct runner_run_result *res,
		     struct plumb_err *err)
{
	const struct runner_range_commits *c = rg->commits;
	size_t n = c->n;
	struct pair *pairs = calloc(n, sizeof(*pairs));
	struct run_state **sts = calloc(n, sizeof(*sts));
	struct run_job job;
	struct buf wd;
	uint64_t t1, measure_ns;
	int r = 0;

	memset(&job, 0, sizeof(job));
	memset(res, 0, n * sizeof(*res));
	for (size_t k = 0; k < n; k++)
		manifest_init(&res[k].manifest);
	buf_init(&wd, PATH_MAX);
	if (!pairs || !sts) {
		r = plumb_err_oom(err, "range");
		goto out;
	}
	r = workdir_path(cfg->workdir, &wd, err);
	for (size_t k = 0; k < n && r == 0; k++)
		r = pair_setup(&pairs[k], cfg, rg, opts, k, wd.data, err);
	if (r < 0)
		goto out;

	/* Every pair's builds first (the build cache restores what it has). */
	for (size_t k = 0; k < n && r == 0; k++) {
		struct pair *p = &pairs[k];
		p->begun = 1;
		sts[k] = &p->st;
		r = run_begin(&p->st, &p->cfg, &p->opts, &res[k], &p->start, &p->out, err);
		p->st.commit = p->short_id;
		if (r < 0)
			plumb_err_prefix(err, "commit %s", p->short_id);
	}
	if (r < 0)
		goto out;

	/* One job: every pair's variants in the same rounds. */
	t1 = clock_now_ns();
	r = run_measure_job(sts, n, &job, err);
	for (size_t k = 0; k < n; k++)
		r = run_measure_rest(sts[k], r, err);
	measure_ns = clock_now_ns() - t1;
	for (size_t k = 0; k < n; k++)
		res[k].measure_ns = measure_ns;
	if (r < 0)
		goto out;

	for (size_t k = 0; k < n && r == 0; k++) {
		struct manifest_range mr;
		mr.id = rg->id;
		mr.spec = rg->spec;
		mr.step = rg->step;
		mr.index = (int64_t)k;
		mr.count = (int64_t)n;
		mr.total = (int64_t)c->total;
		mr.parent = k ? c->v[k - 1].commit : c->base;
		res[k].manifest.range = manifest_range_new(&mr);
		if (!res[k].manifest.range) {
			r = plumb_err_oom(err, "range");
			break;
		}
		if (k > 0 && (r = hot_vs_parent(sts[k - 1], sts[k], res[k].manifest.range, err)) < 0)
			break;
		r = run_end(sts[k], &pairs[k].start, &pairs[k].end, &pairs[k].out, err);
		if (r < 0)
			plumb_err_prefix(err, "commit %s", pairs[k].short_id);
		/* The range's report reads the bundles; a plain run's report
		 * is what keeps the parse of each (runner_run_result.written). */
		manifest_release(&res[k].written);
		manifest_init(&res[k].written);
		res[k].have_written = 0;
	}
	/* The job is whole or not at all. */
	if (r < 0)
		for (size_t k = 0; k < n; k++)
			if (res[k].bundle) {
				unlink(res[k].bundle);
				free(res[k].bundle);
				res[k].bundle = NULL;
				res[k].id[0] = '\0';
			}
out:
	if (pairs)
		for (size_t k = 0; k < n; k++)
			pair_release(&pairs[k]);
	free(pairs);
	free(sts);
	buf_release(&wd);
	return r;
}
