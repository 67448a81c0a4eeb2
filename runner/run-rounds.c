/*
 * runner/run-rounds.c: the measuring part of `plumb run`: the benchmarks'
 * set-up (command per variant, environment, analysis), warmup runs and
 * the seeded interleaved rounds, one run of one benchmark on one variant,
 * and every value it yields recorded twice: a row of samples.tsv and a
 * row of the benchmark's analysis (run_record(), run-common.c).  Failures
 * follow run.h's rules (run_bench_fail(), run-common.c).
 *
 * Isolation (DESIGN §5.3): every benchmark process gets the same explicit
 * environment (run_bench_env(): the run.env names with plumb's values, plus
 * PLUMB_SAMPLES_FD in samples mode: the same variables with the same sizes
 * in every variant), the same working folder (the one plumb was started
 * in), and an argument vector whose only variant-dependent part, the
 * artifact path, has the same length in every variant.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/err.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "runner/build-variant.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/host.h"
#include "runner/measure.h"
#include "runner/perf.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "stats/analysis.h"
#include "common/banned.h"

/* samples.tsv's writer output: counted, so that the run stops before it
 * makes a member larger than a bundle may hold. */
int run_tsv_write(void *ctx, const void *data, size_t len, struct plumb_err *err)
{
	struct run_state *st = ctx;

	st->tsv_bytes += len;
	if (st->tsv_bytes > BUNDLE_MAX_MEMBER)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "samples.tsv: more than %llu bytes, more than a bundle member may hold; "
				     "lower run.rounds or the benchmarks' iterations",
				     (unsigned long long)BUNDLE_MAX_MEMBER);
	return samples_write_stdio(st->tsv, data, len, err);
}

int run_labels(struct run_state *st, struct plumb_err *err)
{
	size_t nv = st->build.nvariants;
	char **labels = realloc(st->labels, nv * sizeof(*labels));

	if (!labels)
		return plumb_err_oom(err, "run");
	st->labels = labels;
	for (size_t i = st->nlabels; i < nv; i++) {
		const struct runner_variant *v = &st->build.variants[i];
		st->labels[i] = buf_strdupf("%s/%u", v->control ? "control" : runner_side_name(v->side), v->pad);
		if (!st->labels[i])
			return plumb_err_oom(err, "run");
		st->nlabels = i + 1;
	}
	return 0;
}

/*
 * The value of a clock or rusage metric for one run.  Every row of the
 * metric table has its case, so a new metric cannot be forgotten here; a
 * counter's value comes from runner/perf.c instead.
 */
static double metric_of_run(enum metric_id id, const struct measure_result *m)
{
	switch (id) {
	case METRIC_WALL:
		return (double)m->proc.wall_ns;
	case METRIC_CPU:
		return (double)(m->proc.user_ns + m->proc.sys_ns);
	case METRIC_USER:
		return (double)m->proc.user_ns;
	case METRIC_SYS:
		return (double)m->proc.sys_ns;
	case METRIC_MAXRSS:
		return (double)m->proc.maxrss_kb * 1024.0;
	case METRIC_CYCLES:
	case METRIC_INSTRUCTIONS:
	case METRIC_BRANCH_MISSES:
	case METRIC_VG_INSTRUCTIONS:
	case METRIC_VG_I1_MISSES:
	case METRIC_VG_D1_MISSES:
	case METRIC_VG_LL_MISSES:
	case METRIC_CACHESIM:
	case METRIC_COUNT:
		break;
	}
	return NAN;
}

/* The rows of one measured run: every metric of the table, in its order. */
static int record_run(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		      const struct measure_result *m, struct plumb_err *err)
{
	const struct runner_variant *v = &st->build.variants[vi];
	int samples = b->cb->mode == CONFIG_MODE_SAMPLES;
	double per = 1.0;
	int counting, r;

	if (samples)
		per = m->nsamples ? 1.0 / (double)m->nsamples : 0;
	counting = st->counters && !st->counters_broken && b->hw && per > 0;
	for (int id = 0; id < METRIC_COUNT; id++) {
		const struct metric_def *md = &metric_table[id];

		if (md->source == METRIC_SRC_VALGRIND)
			continue;   /* a run of its own: run-valgrind.c */
		if (md->source == METRIC_SRC_COUNTER) {
			int k = md->counter;
			if (counting && m->counts.have[k] &&
			    (r = run_record(st, b, v, round, SAMPLES_ITER_NONE, md->name,
					m->counts.value[k] * per, err)) < 0)
				return r;
			continue;
		}
		if (md->source == METRIC_SRC_CLOCK && samples) {
			/* Samples mode: the benchmark's own durations are the clock. */
			for (size_t i = 0; i < m->nsamples; i++)
				if ((r = run_record(st, b, v, round, i, md->name, m->samples[i], err)) < 0)
					return r;
			continue;
		}
		if ((r = run_record(st, b, v, round, SAMPLES_ITER_NONE, md->name,
				metric_of_run((enum metric_id)id, m), err)) < 0)
			return r;
	}
	return 0;
}

/* Run bench b on variant vi once; round 0 is a warmup run (pass `pass`). */
static int run_one(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		   unsigned pass, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const struct config_bench *cb = b->cb;
	struct measure_spec spec;
	struct measure_result m;
	char when[64], why[PLUMB_ERR_MAX];
	int r;

	if (round == 0)
		snprintf(when, sizeof(when), "warmup run %u", pass);
	else
		snprintf(when, sizeof(when), "round %u", round);
	/* The artifact's path is also in the environment: every variant's has
	 * the same length, so the environment's size does not vary either. */
	if ((r = envlist_set(&b->env, "PLUMB_ARTIFACT", st->build.variants[vi].artifact, err)) < 0)
		return r;
	memset(&spec, 0, sizeof(spec));
	spec.argv = b->cl[vi].argv;
	spec.env = b->env.v;
	spec.cwd = st->cwd;
	spec.timeout_ns = (uint64_t)cb->timeout * 1000000000ull;
	spec.samples_fd = cb->mode == CONFIG_MODE_SAMPLES ? SAMPLES_FD : -1;
	spec.max_samples = cb->max_samples;
	/* A Google Benchmark binary's standard output is its JSON, read whole. */
	spec.checksum = cb->checksum != CONFIG_CHECKSUM_OFF && !cb->gbench;
	spec.out_cap = cb->gbench ? RUN_GBENCH_OUT_MAX : 0;
	spec.cpus = cfg->run.cpus;
	spec.ncpus = cfg->run.ncpus;
	spec.no_aslr = !cfg->run.aslr;
	if (st->counters && !st->counters_broken && b->hw) {
		spec.events = perf_hw_events;
		spec.nevents = PERF_NCOUNTERS;
	}
	if ((r = run_hooks_before(st, b, vi, when, err)) < 0 || b->failure)
		return r;
	spec.profile = run_profile_for(st, b, vi, round, pass);
	r = measure_run(&spec, &m, err);
	if (r == 0 && spec.profile)
		r = run_profile_collect(st, b, vi, spec.profile, err);
	st->res->runs++;
	if (r < 0) {
		plumb_err_prefix(err, "benchmark %s, %s, %s", cb->name, st->labels[vi], when);
		goto out;
	}
	if ((r = run_bench_log(st, b, vi, when, &m, err)) < 0)
		goto out;
	if (m.proc.left_behind) {
		/* Said once per benchmark here, counted in the bundle's notes. */
		if (!b->left_runs++)
			RUN_TELL(st, .kind = RUNNER_EV_BENCH_LEFT, .subject = cb->name,
				 .label = st->labels[vi], .detail = when, .n = m.proc.left_behind);
		b->left_procs += m.proc.left_behind;
	}
	if (m.failed) {
		r = run_bench_fail(st, b, vi, when, m.why, &m, err);
		goto out;
	}
	if (cb->mode == CONFIG_MODE_SAMPLES && m.nsamples == 0) {
		r = run_bench_fail(st, b, vi, when, "wrote no samples to PLUMB_SAMPLES_FD (samples mode)", &m, err);
		goto out;
	}
	if (cb->gbench) {
		/* Its values are the binary's own (no counters, no checksum= lines). */
		r = run_gbench_take(st, b, vi, round, &m, why, sizeof(why), err);
		if (r == 0 && why[0])
			r = run_bench_fail(st, b, vi, when, why, &m, err);
		goto out;
	}
	if (spec.nevents && m.counters_error[0]) {
		/* The probe said yes, this run said no: no counts from here on. */
		st->counters_broken = 1;
		snprintf(st->counters_reason, sizeof(st->counters_reason),
			 "counting stopped during the run: %s", m.counters_error);
		if (metric_table[b->metric].source == METRIC_SRC_COUNTER) {
			r = run_bench_fail(st, b, vi, when, st->counters_reason, NULL, err);
			goto out;
		}
	}
	run_check_checksum(st, b, vi, &m, why, sizeof(why));
	if (why[0]) {
		r = run_bench_fail(st, b, vi, when, why, NULL, err);
		goto out;
	}
	if (round > 0) {
		if (metric_table[b->metric].source == METRIC_SRC_COUNTER) {
			int k = metric_table[b->metric].counter;
			/* The value itself is one of record_run()'s counter rows. */
			if (!m.counts.have[k]) {
				r = run_bench_fail(st, b, vi, when, "the counter did not run (no value)", NULL, err);
				goto out;
			}
		}
		if ((r = record_run(st, b, vi, round, &m, err)) < 0)
			goto out;
	}
	r = 0;
out:
	measure_result_release(&m);
	if (r == 0 && cleanup_signal_pending())
		r = plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", cleanup_signal_pending());
	return r;
}

/*
 * After a run (b and vi set: counted) or at the end of a round or warmup
 * pass (b NULL: round_done, the last run's names repeated).
 */
static void progress(struct run_state *st, int warmup, unsigned round, unsigned rounds,
		     const struct bench_state *b, size_t vi)
{
	struct runner_progress p;
	uint64_t done = st->job ? st->job->done : st->done;
	uint64_t total = st->job ? st->job->total : st->total;

	if (b) {
		st->done++;
		if (st->job)
			st->job->done = ++done;
		st->last_bench = b->cb->name;
		st->last_variant = st->labels[vi];
	}
	if (!st->opts->progress || !st->last_bench)
		return;
	memset(&p, 0, sizeof(p));
	p.warmup = warmup;
	p.round = round;
	p.rounds = rounds;
	p.bench = st->last_bench;
	p.variant = st->last_variant;
	p.commit = st->commit;
	p.round_done = b == NULL;
	p.done = done;
	p.total = total;
	p.elapsed_ns = clock_now_ns() - (st->job ? st->job->t0 : st->t0);
	p.load1 = st->load1;
	st->opts->progress(st->opts->ctx, &p);
}

/*
 * A failed benchmark drops its remaining runs from the plan: skipped is
 * what it will not run (the rest of this pass, the passes and rounds
 * after it); the failed run itself counts as done.
 */
static void replan_total(uint64_t *total, uint64_t done, uint64_t skipped)
{
	uint64_t floor = done + 1;

	*total = *total >= floor + skipped ? *total - skipped : floor;
}

static void replan(struct run_state *st, uint64_t skipped)
{
	replan_total(&st->total, st->done, skipped);
	if (st->job)
		replan_total(&st->job->total, st->job->done, skipped);
}

/* ---- set-up ------------------------------------------------------------------ */

static void opts_for(const struct config_bench *cb, struct analysis_opts *o)
{
	analysis_opts_default(o);
	o->deterministic = metric_deterministic_names;
	o->judge_later = 1;   /* run-manifest.c and run-sweep.c judge what they record */
	switch (cb->warmup) {
	case CONFIG_WARMUP_AUTO:
		o->warmup.kind = STATS_WARMUP_AUTO;
		break;
	case CONFIG_WARMUP_COUNT:
		o->warmup.kind = STATS_WARMUP_FIXED;
		o->warmup.discard = (size_t)cb->warmup_count;
		break;
	case CONFIG_WARMUP_NONE:
		o->warmup.kind = STATS_WARMUP_NONE;
		break;
	}
}

/* Bench b's command line and log of variants from..nv-1 (b->cl and b->logs hold nv). */
static int bench_variants(struct run_state *st, struct bench_state *b, size_t from, size_t nv,
			  struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	int r;

	for (size_t i = from; i < nv; i++) {
		const struct runner_variant *v = &st->build.variants[i];
		const struct cmdline_var vars[] = { { "artifact", v->artifact } };
		char key[CONFIG_BENCH_FULL_NAME_MAX + 32], fid[CONFIG_BENCH_FILE_ID_MAX + 1];
		snprintf(key, sizeof(key), "bench.%s.command", cb->name);
		if ((r = cmdline_expand(&b->cl[i], cb->command, vars, 1, key, err)) < 0 ||
		    (r = run_gbench_args(cb, &b->cl[i], key, err)) < 0)
			return r;
		config_bench_file_id(cb->name, fid);
		b->logs[i].path = buf_strdupf("%s/log/bench-%s-%s.log", st->build.run_dir, fid, v->id);
		if (!b->logs[i].path)
			return plumb_err_oom(err, "benchmarks");
	}
	return 0;
}

int run_bench_setup(struct run_state *st, struct bench_state *b,
		       const struct config_bench *cb, struct plumb_err *err)
{
	size_t nv = st->build.nvariants;
	struct analysis_opts ao;
	int r;

	b->cb = cb;
	b->nv = nv;
	b->metric = st->plan[cb - st->cfg->benches].metric;
	b->hw = st->plan[cb - st->cfg->benches].hw;
	b->vg = st->plan[cb - st->cfg->benches].vg;
	profile_init(&b->prof[0]);
	profile_init(&b->prof[1]);
	b->cl = calloc(nv, sizeof(*b->cl));
	b->logs = calloc(nv, sizeof(*b->logs));
	if (!b->cl || !b->logs)
		return plumb_err_oom(err, "benchmarks");
	if ((r = bench_variants(st, b, 0, nv, err)) < 0)
		return r;
	if ((r = run_bench_env(st->cfg, cb, &b->env, err)) < 0)
		return r;
	opts_for(cb, &ao);
	b->an = analysis_new(&ao, err);
	return b->an ? 0 : PLUMB_EINTERNAL;
}

/* Bench b after variants were added: its per-variant arrays grown to nv. */
static int bench_grow(struct run_state *st, struct bench_state *b, size_t nv,
		      struct plumb_err *err)
{
	struct cmdline *cl = realloc(b->cl, nv * sizeof(*cl));
	struct bench_log *lg;
	size_t old = b->nv;

	if (!cl)
		return plumb_err_oom(err, "benchmarks");
	b->cl = cl;
	memset(cl + old, 0, (nv - old) * sizeof(*cl));
	lg = realloc(b->logs, nv * sizeof(*lg));
	if (!lg)
		return plumb_err_oom(err, "benchmarks");
	b->logs = lg;
	memset(lg + old, 0, (nv - old) * sizeof(*lg));
	b->nv = nv;
	return bench_variants(st, b, old, nv, err);
}

void run_bench_release(struct bench_state *b, size_t nv)
{
	if (b->nv < nv)
		nv = b->nv;
	if (b->cl)
		for (size_t i = 0; i < nv; i++)
			cmdline_release(&b->cl[i]);
	free(b->cl);
	if (b->logs)
		for (size_t i = 0; i < nv; i++)
			free(b->logs[i].path);
	free(b->logs);
	envlist_release(&b->env);
	run_profile_release(b);
	run_hooks_release(NULL, b);
	if (b->an)
		analysis_free(b->an);
	free(b->failure);
	free(b->failure_log);
	free(b->vg_diff);
	free(b->work_note);
	free(b->gbench_note);
}

/* Warmup runs of variants from..nv-1; total: the runs planned after them. */
static int warmups(struct run_state *st, size_t from, uint64_t after, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	size_t nv = st->build.nvariants, nb = cfg->nbenches;
	unsigned passes = cfg->run.warmup_runs;
	int r = 0;

	for (unsigned w = 1; w <= passes && r == 0; w++) {
		for (size_t vi = from; vi < nv && r == 0; vi++)
			for (size_t bi = 0; bi < nb && r == 0; bi++) {
				struct bench_state *b = &st->benches[bi];
				if (b->failure)
					continue;
				r = run_one(st, b, vi, 0, w, err);
				if (r == 0 && b->failure)
					replan(st, (uint64_t)(nv - vi - 1) +
					       (uint64_t)(passes - w) * (nv - from) + after);
				if (r == 0)
					progress(st, 1, w, passes, b, vi);
			}
		if (r == 0)
			progress(st, 1, w, passes, NULL, 0);
	}
	return r;
}

/*
 * Rounds first..last of the variants from `from` on of each of the n pairs
 * sts (one pair: a plain run; from 0: every variant), drawn from sched over
 * all their variants (those before `from` are drawn and skipped, so the
 * draws go on as in a round of every variant); each pair's run.order and
 * run.conditions grow to last.
 */
static int rounds_of(struct run_state **sts, size_t n, struct schedule *sched, size_t from,
		     unsigned first, unsigned last, struct plumb_err *err)
{
	size_t total = 0, *perm = NULL, *pair = NULL, *var = NULL, *seen = NULL;
	int r = 0;

	for (size_t p = 0; p < n; p++) {
		struct manifest *m = &sts[p]->res->manifest;
		struct manifest_round *order = realloc(m->run.order, last * sizeof(*order));
		struct manifest_condition *cond;
		if (order)
			m->run.order = order;
		cond = realloc(m->run.conditions, last * sizeof(*cond));
		if (cond)
			m->run.conditions = cond;
		if (!order || !cond)
			return plumb_err_oom(err, "schedule");
		total += sts[p]->build.nvariants;
	}
	perm = calloc(total, sizeof(*perm));
	pair = calloc(total, sizeof(*pair));
	var = calloc(total, sizeof(*var));
	seen = calloc(n, sizeof(*seen));
	if (!perm || !pair || !var || !seen) {
		r = plumb_err_oom(err, "schedule");
		goto out;
	}
	/* Job index -> pair and variant: the pairs' variants one after another. */
	for (size_t p = 0, j = 0; p < n; p++)
		for (size_t vi = 0; vi < sts[p]->build.nvariants; vi++, j++) {
			pair[j] = p;
			var[j] = vi;
		}
	sched->n = total;   /* the draws go on; the added variants join the shuffle */
	for (unsigned round = first; round <= last && r == 0; round++) {
		struct host_round hr;
		int64_t at;

		schedule_next(sched, perm);
		host_round_sample(&hr);
		at = (int64_t)(clock_now_ns() - (sts[0]->job ? sts[0]->job->t0 : sts[0]->t0));
		for (size_t p = 0; p < n && r == 0; p++) {
			struct run_state *st = sts[p];
			struct manifest *m = &st->res->manifest;
			struct manifest_round *ord = &m->run.order[round - 1];
			struct manifest_condition *c = &m->run.conditions[round - 1];
			size_t nv = st->build.nvariants;

			ord->variants = calloc(nv, sizeof(*ord->variants));
			if (!ord->variants) {
				r = plumb_err_oom(err, "schedule");
				break;
			}
			ord->n = 0;
			for (size_t k = 0; k < total; k++)
				if (pair[perm[k]] == p && var[perm[k]] >= from)
					ord->variants[ord->n++] = var[perm[k]];
			m->run.n_order = round;
			manifest_condition_init(c);
			m->run.n_conditions = round;
			c->at_ns = at;
			if (hr.has_load) {
				c->load[0] = hr.load[0];
				c->load[1] = hr.load[1];
				c->load[2] = hr.load[2];
				st->load1 = hr.load[0];
			}
			if (hr.cur_min_khz != HOST_NA)
				c->cur_khz_min = hr.cur_min_khz;
			if (hr.cur_max_khz != HOST_NA)
				c->cur_khz_max = hr.cur_max_khz;
		}

		memset(seen, 0, n * sizeof(*seen));
		for (size_t k = 0; k < total && r == 0; k++) {
			struct run_state *st = sts[pair[perm[k]]];
			size_t vi = var[perm[k]], nv = st->build.nvariants - from;
			size_t at_k;   /* its place among the pair's variants that run */
			if (vi < from)
				continue;
			at_k = seen[pair[perm[k]]]++;
			for (size_t bi = 0; bi < st->cfg->nbenches && r == 0; bi++) {
				struct bench_state *b = &st->benches[bi];
				if (b->failure)
					continue;
				r = run_one(st, b, vi, round, 0, err);
				if (r == 0 && b->failure)
					replan(st, (uint64_t)(nv - at_k - 1) + (uint64_t)(last - round) * nv);
				if (r == 0)
					progress(st, 0, round, last, b, vi);
			}
		}
		/* The round ended: said once, by the pair that ran last. */
		if (r == 0)
			progress(sts[pair[perm[total - 1]]], 0, round, last, NULL, 0);
	}
out:
	free(seen);
	free(perm);
	free(pair);
	free(var);
	return r;
}

/* Rounds first..last of every variant; run.order and run.conditions grow to last. */
static int rounds(struct run_state *st, struct manifest *m, unsigned first, unsigned last,
		  struct plumb_err *err)
{
	assert(m == &st->res->manifest);
	(void)m;
	return rounds_of(&st, 1, &st->sched, 0, first, last, err);
}

/* Warmup runs and rounds. */
int run_measure_all(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	size_t nv = st->build.nvariants, nb = cfg->nbenches, live = 0;
	int r;

	for (size_t bi = 0; bi < nb; bi++)
		live += st->benches[bi].failure == NULL;   /* a gbench one a side lacks is not */
	st->total = (uint64_t)(cfg->run.warmup_runs + cfg->run.rounds) * nv * live;
	st->t0 = clock_now_ns();
	st->load1 = -1;
	schedule_init(&st->sched, cfg->run.seed, nv);

	r = warmups(st, 0, (uint64_t)cfg->run.rounds * nv, err);
	for (size_t bi = 0; bi < nb && r == 0; bi++)
		if (!st->benches[bi].failure)
			r = run_profile_resolve(st, &st->benches[bi], err);
	if (r == 0)
		r = rounds(st, m, 1, cfg->run.rounds, err);
	return r;
}

int run_measure_job(struct run_state **sts, size_t n, struct run_job *job, struct plumb_err *err)
{
	size_t total = 0;
	int r = 0;

	job->done = 0;
	job->total = 0;
	for (size_t p = 0; p < n; p++) {
		struct run_state *st = sts[p];
		const struct plumb_config *cfg = st->cfg;
		size_t nv = st->build.nvariants;
		st->job = job;
		st->total = (uint64_t)(cfg->run.warmup_runs + cfg->run.rounds) * nv * cfg->nbenches;
		job->total += st->total;
		st->load1 = -1;
		/* An extension of this pair (run.pads = auto) shuffles its own variants. */
		schedule_init(&st->sched, cfg->run.seed, nv);
		total += nv;
	}
	job->t0 = clock_now_ns();
	schedule_init(&job->sched, sts[0]->cfg->run.seed, total);
	for (size_t p = 0; p < n && r == 0; p++) {
		struct run_state *st = sts[p];
		st->t0 = job->t0;
		r = warmups(st, 0, (uint64_t)st->cfg->run.rounds * st->build.nvariants, err);
		for (size_t bi = 0; bi < st->cfg->nbenches && r == 0; bi++)
			if (!st->benches[bi].failure)
				r = run_profile_resolve(st, &st->benches[bi], err);
	}
	if (r == 0)
		r = rounds_of(sts, n, &job->sched, 0, 1, sts[0]->cfg->run.rounds, err);
	return r;
}

int run_measure_more(struct run_state *st, struct manifest *m, size_t vi, unsigned nrounds,
		     int every, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	size_t nv = st->build.nvariants, from = every ? 0 : vi;
	unsigned first = (unsigned)m->run.n_order + 1;
	size_t live = 0;
	int r;

	if ((r = run_labels(st, err)) < 0)
		return r;
	for (size_t bi = 0; bi < cfg->nbenches; bi++) {
		if ((r = bench_grow(st, &st->benches[bi], nv, err)) < 0)
			return r;
		live += st->benches[bi].failure == NULL;
	}
	uint64_t more = (uint64_t)(cfg->run.warmup_runs * (nv - vi) + nrounds * (nv - from)) * live;
	st->total += more;
	if (st->job)
		st->job->total += more;
	if ((r = warmups(st, vi, (uint64_t)nrounds * (nv - from), err)) < 0)
		return r;
	return rounds_of(&st, 1, &st->sched, from, first, first + nrounds - 1, err);
}
