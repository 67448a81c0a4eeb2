/*
 * runner/run-valgrind.c: the counting part of `plumb run` that does not
 * need a PMU: each benchmark's metric and source decided before the
 * builds (bench.NAME.counter against the host's counters), the Valgrind
 * round after the wall-clock rounds, the determinism check, and the
 * manifest's record of both (formats/manifest-valgrind.h).
 *
 * Once per variant is enough: a simulated count depends on the build and
 * the input, not on the machine's state, so every variant runs once
 * under valgrind (round 1), never once per wall-clock round.  That is
 * checked, not assumed: pad 0 of each side runs twice (round 2), and when
 * any simulated metric differs between the two runs the benchmark is not
 * deterministic (it reads a clock, a random source, its pid...): the
 * difference is recorded, and the verdict rule, seeing two unequal values
 * in one pad, judges the metric as an ordinary measurement, which one
 * round per pad cannot support (stats/rule.h, deterministic).
 *
 * The runs use the benchmark's own environment, working folder, CPU
 * pinning and ASLR setting (runner/measure.h), with the timeout
 * multiplied by VG_SLOWDOWN: valgrind is some 50 times slower.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/manifest-valgrind.h"
#include "formats/samples.h"
#include "runner/cachegrind.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/measure.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "stats/analysis.h"
#include "common/banned.h"

#define VG_SLOWDOWN 50

/* ---- the plan ------------------------------------------------------------------ */

/* The valgrind row standing in for counter metric m, or METRIC_COUNT. */
static enum metric_id simulated_for(enum metric_id m, int cycles_too)
{
	if (m == METRIC_INSTRUCTIONS)
		return METRIC_VG_INSTRUCTIONS;
	if (m == METRIC_CYCLES && cycles_too)
		return METRIC_CACHESIM;
	return METRIC_COUNT;
}

static int plan_one(struct run_state *st, const struct config_bench *cb, struct bench_plan *p,
		    struct plumb_err *err)
{
	const char *file = st->cfg->file ? st->cfg->file : "plumb.conf";
	enum metric_source src = metric_table[cb->metric].source;
	int explicit_vg = cb->counter == CONFIG_COUNTER_VALGRIND;
	enum metric_id sim;

	p->metric = cb->metric;
	/* Mode gbench: the binary's own times, nothing counted (formats/config.c). */
	p->hw = cb->counter != CONFIG_COUNTER_VALGRIND && cb->mode != CONFIG_MODE_GBENCH;
	p->vg = cb->counter == CONFIG_COUNTER_VALGRIND || cb->counter == CONFIG_COUNTER_BOTH ||
		src == METRIC_SRC_VALGRIND;
	if (src == METRIC_SRC_VALGRIND && cb->counter == CONFIG_COUNTER_HARDWARE)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: bench.%s.metric: '%s' is counted under valgrind, but "
				     "bench.%s.counter is hardware", file, cb->name,
				     metric_name(cb->metric), cb->name);
	if (src != METRIC_SRC_COUNTER)
		return 0;
	if (p->hw && st->counters)
		return 0;   /* the hardware counts it, as always */
	sim = cb->counter == CONFIG_COUNTER_HARDWARE ? METRIC_COUNT
						     : simulated_for(cb->metric, explicit_vg);
	if (sim == METRIC_COUNT) {
		if (explicit_vg)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: bench.%s.metric: '%s' has no valgrind counterpart "
					     "(bench.%s.counter = valgrind counts instructions and cycles, "
					     "as vg-instructions and cachesim)", file, cb->name,
					     metric_name(cb->metric), cb->name);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "bench.%s.metric: '%s' needs hardware counters, and this host has none: %s%s",
				     cb->name, metric_name(cb->metric), st->counters_reason,
				     cb->metric == METRIC_INSTRUCTIONS ?
				     "; bench.NAME.counter = auto or valgrind counts instructions under valgrind" : "");
	}
	p->metric = sim;
	p->vg = 1;
	p->note = explicit_vg ?
		buf_strdupf("metric %s: bench.%s.counter = valgrind; counted under valgrind as %s "
			    "(simulated, not a hardware count)", metric_name(cb->metric), cb->name,
			    metric_name(sim)) :
		buf_strdupf("metric %s: no hardware counters on this host; counted under valgrind "
			    "as %s (simulated, not a hardware count)", metric_name(cb->metric),
			    metric_name(sim));
	if (!p->note)
		return plumb_err_oom(err, "plan");
	return 0;
}

int run_valgrind_plan(struct run_state *st, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const char *first = NULL;
	int r;

	st->plan = calloc(cfg->nbenches ? cfg->nbenches : 1, sizeof(*st->plan));
	if (!st->plan)
		return plumb_err_oom(err, "plan");
	for (size_t i = 0; i < cfg->nbenches; i++) {
		if ((r = plan_one(st, &cfg->benches[i], &st->plan[i], err)) < 0)
			return r;
		if (st->plan[i].vg && !first)
			first = cfg->benches[i].name;
	}
	if (!first)
		return 0;
	{
		char why[160];
		snprintf(why, sizeof(why), "bench.%s (counted under valgrind)", first);
		if ((r = cachegrind_find(NULL, why, &st->vg, err)) < 0)
			return r;
	}
	st->vg_any = 1;
	return 0;
}

void run_valgrind_plan_free(struct run_state *st)
{
	if (st->plan)
		for (size_t i = 0; i < st->cfg->nbenches; i++)
			free(st->plan[i].note);
	free(st->plan);
	st->plan = NULL;
}

/* ---- the valgrind round ------------------------------------------------------ */

/*
 * One run of bench b on variant vi under valgrind, said `when` ("valgrind
 * run 1"), its output files in <run>/vg-<bench>-<id>-<tag>: the artifact's
 * counts into c, and in samples mode *per = 1 / the samples it wrote.  m
 * holds the run (the caller releases it).  A run that failed (its
 * non-zero exit, its valgrind output unreadable, no samples) leaves why
 * non-empty; a failed bench hook sets b->failure.
 */
static int vg_count(struct run_state *st, struct bench_state *b, size_t vi, const char *when,
		    const char *tag, struct cachegrind_counts *c, double *per,
		    struct measure_result *m, char *why, size_t whysize, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const struct config_bench *cb = b->cb;
	const struct runner_variant *v = &st->build.variants[vi];
	int samples = cb->mode == CONFIG_MODE_SAMPLES;
	struct measure_spec spec;
	struct plumb_err cerr;
	char **argv = NULL, *dir;
	int r;

	why[0] = '\0';
	*per = 1;
	memset(m, 0, sizeof(*m));
	dir = buf_strdupf("%s/vg-%s-%s-%s", st->build.run_dir, cb->name, v->id, tag);
	if (!dir)
		return plumb_err_oom(err, "valgrind");
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, dir, "mkdir");
		free(dir);
		return r;
	}
	/* As for the wall clock (run-rounds.c): the variant's artifact in
	 * PLUMB_ARTIFACT, the same length in every variant. */
	if ((r = envlist_set(&b->env, "PLUMB_ARTIFACT", v->artifact, err)) < 0)
		goto out;
	/* bench.NAME.prepare before every counted run too, untimed, as before
	 * every timed one (run-hooks.c): a benchmark that consumes what its
	 * prepare makes fails without it. */
	if ((r = run_hooks_before(st, b, vi, when, err)) < 0 || b->failure)
		goto out;
	argv = cachegrind_argv(&st->vg, samples, dir, b->cl[vi].argv);
	if (!argv) {
		r = plumb_err_oom(err, "valgrind");
		goto out;
	}
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.env = b->env.v;
	spec.cwd = st->cwd;
	spec.timeout_ns = (uint64_t)cb->timeout * VG_SLOWDOWN * 1000000000ull;
	spec.samples_fd = samples ? SAMPLES_FD : -1;
	spec.max_samples = cb->max_samples;
	spec.cpus = cfg->run.cpus;
	spec.ncpus = cfg->run.ncpus;
	spec.no_aslr = !cfg->run.aslr;
	r = measure_run(&spec, m, err);
	cachegrind_argv_free(argv);
	st->res->runs++;
	if (r < 0) {
		plumb_err_prefix(err, "benchmark %s, %s, %s", cb->name, st->labels[vi], when);
		goto out;
	}
	st->vg_ns += m->proc.wall_ns;
	st->vg_runs++;
	b->vg_ns += m->proc.wall_ns;
	b->vg_runs++;
	plumb_err_clear(&cerr);
	if (m->failed) {
		snprintf(why, whysize, "%s", m->why);
	} else if (cachegrind_collect(dir, v->artifact, c, &cerr) < 0) {
		snprintf(why, whysize, "%s", cerr.msg);
	} else if (samples && (m->nsamples == 0 || c->ir == 0)) {
		snprintf(why, whysize, "%s", m->nsamples == 0 ?
			 "wrote no samples to PLUMB_SAMPLES_FD (samples mode)" :
			 "valgrind counted nothing: in samples mode only the timed "
			 "iterations plumb/bench.h marks are counted (built without "
			 "valgrind/callgrind.h?)");
	} else if (samples) {
		*per = 1.0 / (double)m->nsamples;
	}
out:
	/* The output files are removed as they are read; anything left too. */
	cachegrind_clean(dir);
	rmdir(dir);
	free(dir);
	return r;
}

/*
 * One run of bench b on variant vi under valgrind; round 1 or 2.  vals gets
 * the VALGRIND rows' values (by metric id), recorded too.  *failed when the
 * benchmark failed (recorded by run_bench_fail()).
 */
static int vg_run(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		  double vals[METRIC_COUNT], int *failed, struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	const struct runner_variant *v = &st->build.variants[vi];
	struct cachegrind_counts c;
	struct measure_result m;
	char when[48], tag[16], label[96], why[PLUMB_ERR_MAX];
	double per;
	int r;

	*failed = 0;
	snprintf(when, sizeof(when), "valgrind run %u", round);
	snprintf(tag, sizeof(tag), "%u", round);
	r = vg_count(st, b, vi, when, tag, &c, &per, &m, why, sizeof(why), err);
	if (r < 0 || b->failure) {
		*failed = b->failure != NULL;
		goto out;
	}
	if (why[0]) {
		*failed = 1;
		r = run_bench_fail(st, b, vi, when, why, &m, err);
		goto out;
	}
	for (int id = 0; id < METRIC_COUNT; id++) {
		if (metric_table[id].source != METRIC_SRC_VALGRIND)
			continue;
		vals[id] = cachegrind_value((enum metric_id)id, &c) * per;
		if ((r = run_record(st, b, v, round, SAMPLES_ITER_NONE, metric_name((enum metric_id)id),
				    vals[id], err)) < 0)
			goto out;
	}
	run_variant_label(st, vi, label, sizeof(label));
	RUN_TELL(st, .kind = RUNNER_EV_VG_RUN, .subject = cb->name, .label = label, .n = round,
		 .count = vals[METRIC_VG_INSTRUCTIONS], .flag = cb->mode == CONFIG_MODE_SAMPLES,
		 .seconds = (double)m.proc.wall_ns / 1e9, .seconds2 = (double)st->vg_ns / 1e9);
out:
	measure_result_release(&m);
	return r;
}

int run_valgrind_instructions(struct run_state *st, struct bench_state *b, size_t vi,
			      double *ir, char *why, size_t whysize, struct plumb_err *err)
{
	struct cachegrind_counts c;
	struct measure_result m;
	char label[96];
	double per;
	int r;

	r = vg_count(st, b, vi, "valgrind run (the same work)", "work", &c, &per, &m, why,
		     whysize, err);
	if (r == 0 && !b->failure && !why[0]) {
		*ir = cachegrind_value(METRIC_VG_INSTRUCTIONS, &c) * per;
		run_variant_label(st, vi, label, sizeof(label));
		RUN_TELL(st, .kind = RUNNER_EV_VG_WORK, .subject = b->cb->name, .label = label,
			 .count = *ir, .flag = b->cb->mode == CONFIG_MODE_SAMPLES,
			 .seconds = (double)m.proc.wall_ns / 1e9);
	}
	measure_result_release(&m);
	return r;
}

/* Compare the two runs of a pad 0: a difference text appended to b->vg_diff. */
static int compare_runs(struct run_state *st, struct bench_state *b, size_t vi,
			const double *a, const double *z, struct plumb_err *err)
{
	for (int id = 0; id < METRIC_COUNT; id++) {
		char *d;
		if (metric_table[id].source != METRIC_SRC_VALGRIND || a[id] == z[id])
			continue;
		char one[UNITS_MAX], two[UNITS_MAX];
		units_whole(a[id], one);
		units_whole(z[id], two);
		d = buf_strdupf("%s%s%s: %s %s in run 1, %s in run 2", b->vg_diff ? b->vg_diff : "",
				b->vg_diff ? "; " : "", st->labels[vi], metric_name((enum metric_id)id),
				one, two);
		if (!d)
			return plumb_err_oom(err, "valgrind");
		free(b->vg_diff);
		b->vg_diff = d;
		b->vg_nondet = 1;
	}
	return 0;
}

int run_valgrind_all(struct run_state *st, struct plumb_err *err)
{
	size_t nv = st->build.nvariants;
	int r = 0;

	for (size_t bi = 0; bi < st->cfg->nbenches && r == 0; bi++) {
		struct bench_state *b = &st->benches[bi];
		for (size_t vi = 0; vi < nv && r == 0 && b->vg && !b->failure; vi++) {
			const struct runner_variant *v = &st->build.variants[vi];
			double one[METRIC_COUNT], two[METRIC_COUNT];
			int failed;
			r = vg_run(st, b, vi, 1, one, &failed, err);
			if (r < 0 || failed || v->pad != 0 || v->control)
				continue;
			r = vg_run(st, b, vi, 2, two, &failed, err);
			if (r == 0 && !failed)
				r = compare_runs(st, b, vi, one, two, err);
		}
		if (r == 0 && b->vg_nondet)
			RUN_TELL(st, .kind = RUNNER_EV_VG_NONDET, .subject = b->cb->name,
				 .text = b->vg_diff);
	}
	return r;
}

/* ---- the record ------------------------------------------------------------ */

static int set_new(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}

static json_t *level(long long size, int assoc, int line)
{
	json_t *o = json_object();

	if (o && (set_new(o, "size", json_integer(size)) < 0 ||
		  set_new(o, "assoc", json_integer(assoc)) < 0 ||
		  set_new(o, "lineSize", json_integer(line)) < 0)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* "32768,8,64" into its three numbers. */
static json_t *level_of(const char *spec)
{
	long long size = 0;
	int assoc = 0, line = 0;

	if (sscanf(spec, "%lld,%d,%d", &size, &assoc, &line) != 3)
		return NULL;
	return level(size, assoc, line);
}

int run_valgrind_manifest_run(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	json_t *o, *g;

	if (!st->vg_any)
		return 0;
	o = json_object();
	g = json_object();
	if (!o || !g || set_new(o, "version", json_string(st->vg.version)) < 0 ||
	    set_new(o, "path", json_string(st->vg.path)) < 0 ||
	    set_new(o, "costFormula", json_string(CACHEGRIND_FORMULA)) < 0 ||
	    set_new(o, "runs", json_integer((json_int_t)st->vg_runs)) < 0 ||
	    set_new(o, "ns", json_integer((json_int_t)st->vg_ns)) < 0 ||
	    set_new(g, "I1", level_of(CACHEGRIND_I1)) < 0 ||
	    set_new(g, "D1", level_of(CACHEGRIND_D1)) < 0 ||
	    set_new(g, "LL", level_of(CACHEGRIND_LL)) < 0 ||
	    json_object_set(o, "geometry", g) < 0) {
		json_decref(o);
		json_decref(g);
		return plumb_err_oom(err, "manifest");
	}
	json_decref(g);
	json_decref(m->run.valgrind);
	m->run.valgrind = o;
	return 0;
}

/* sides.<side>: each simulated metric's center, min and max over pads. */
static int side_stats(const struct analysis *an, enum analysis_side s, json_t *sides)
{
	json_t *so = json_object();

	if (!so)
		return -1;
	for (size_t k = 0; k < MANIFEST_VG_NKEYS; k++) {
		const struct analysis_result *ar =
			run_find_result(an, metric_name(manifest_vg_keys[k].metric));
		json_t *st;
		if (!ar || ar->side[s].npads == 0)
			continue;
		st = json_object();
		if (!st || set_new(st, "center", json_real(ar->side[s].summary.center)) < 0 ||
		    set_new(st, "min", json_real(ar->side[s].summary.min)) < 0 ||
		    set_new(st, "max", json_real(ar->side[s].summary.max)) < 0 ||
		    json_object_set_new(so, manifest_vg_keys[k].key, st) < 0) {
			json_decref(so);
			return -1;
		}
	}
	if (json_object_size(so) == 0) {
		json_decref(so);
		return 0;
	}
	return json_object_set_new(sides, analysis_side_name(s), so);
}

int run_valgrind_manifest_bench(struct run_state *st, struct bench_state *b,
				struct manifest_bench *mb, struct plumb_err *err)
{
	const struct bench_plan *p = &st->plan[b->cb - st->cfg->benches];
	json_t *o, *sides;
	int r;

	if (p->note && (r = run_manifest_note(mb, p->note, err)) < 0)
		return r;
	if (!b->vg)
		return 0;
	if (b->vg_nondet) {
		char *note = buf_strdupf("not deterministic under valgrind: %s; the simulated counts "
					 "are judged as measurements, and one round per variant is "
					 "too few for a verdict on them", b->vg_diff);
		r = note ? run_manifest_note(mb, note, err) : plumb_err_oom(err, "manifest");
		free(note);
		if (r < 0)
			return r;
	}
	o = json_object();
	sides = json_object();
	if (!o || !sides ||
	    set_new(o, "source", json_string(cachegrind_source(b->cb->mode == CONFIG_MODE_SAMPLES))) < 0 ||
	    set_new(o, "deterministic", json_boolean(!b->vg_nondet)) < 0 ||
	    (b->vg_diff && set_new(o, "difference", json_string(b->vg_diff)) < 0) ||
	    set_new(o, "runs", json_integer((json_int_t)b->vg_runs)) < 0 ||
	    set_new(o, "ns", json_integer((json_int_t)b->vg_ns)) < 0 ||
	    side_stats(b->an, ANALYSIS_BASE, sides) < 0 ||
	    side_stats(b->an, ANALYSIS_CANDIDATE, sides) < 0 ||
	    side_stats(b->an, ANALYSIS_CONTROL, sides) < 0 ||
	    json_object_set(o, "sides", sides) < 0) {
		json_decref(o);
		json_decref(sides);
		return plumb_err_oom(err, "manifest");
	}
	json_decref(sides);
	json_decref(mb->valgrind);
	mb->valgrind = o;
	return 0;
}
