/*
 * runner/run-sweep.c: the adaptive sweep of `plumb run` (run.pads = auto,
 * the default; docs/verdict.md, "The adaptive sweep").
 *
 * The run starts with CONFIG_PADS_AUTO_START pads per side and its
 * run.rounds rounds, as a fixed sweep does.  Then, while a benchmark is
 * undecided (stats_undecided(): under the shift rule, the shift's interval
 * reaching across an edge of the minimum effect, or too few pads for the
 * confidence; under the margin rule, ranges within the margin or pad
 * intervals too wide; a pad with too few rounds), it extends, and the step
 * rule is this simple one:
 *
 *   each extension adds CONFIG_PADS_AUTO_STEP pads to each side (fewer at
 *   run.maxPads), built as the first ones (a relink with build.reuse =
 *   relink), with their warmup runs, and measures them in run.rounds
 *   rounds of their own, base and candidate shuffled together.
 *
 * Why only the added pads: under the shift rule the evidence is the pad
 * medians, each pad one draw of placement, and the interval narrows with
 * the number of draws; more rounds of the old pads would only make each
 * draw more precise, which a placement-sensitive benchmark does not need,
 * and would cost every old variant again at every step.  Every pad then
 * has run.rounds rounds, so the draws stay alike on both sides, and an
 * extension costs the same whenever it comes: 2 x step x (warmupRuns +
 * rounds) runs and 2 x step relinks.  Only when a benchmark is undecided
 * for want of rounds (a pad with too few; the margin rule's pad intervals
 * or margin, which rounds narrow) do the rounds run every variant, old and
 * new, once each, as that rule needs.  The start, the step and the most
 * pads (run.maxPads) are named so that they can be measured
 * (bench/truth.sh) and changed in one place.
 *
 * It stops when every benchmark is decided, at run.maxPads, or when the
 * next extension, estimated from the runs and builds so far, would end
 * past run.budget (measuring time since the first warmup run).
 *
 * The judgement between extensions is the one the manifest records: the
 * rows written to samples.tsv so far are read back into a fresh analysis
 * per benchmark (the bundle check's route) and judged by
 * run_bench_judge().  Every extension is said on the log as it starts and
 * recorded in run.sweep (formats/manifest-sweep.c) and in each extended
 * benchmark's notes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "runner/build.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "stats/analysis.h"
#include "stats/rule.h"
#include "common/banned.h"

/* ---- the judgement so far ----------------------------------------------------- */

struct reread {
	struct run_state *st;
	struct analysis **an;        /* per benchmark, NULL: failed or not judged */
};

static int reread_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	struct reread *rr = ctx;
	const struct plumb_config *cfg = rr->st->cfg;

	for (size_t bi = 0; bi < cfg->nbenches; bi++) {
		const char *metric = metric_name(cfg->benches[bi].metric);
		if (!rr->an[bi] || strlen(cfg->benches[bi].name) != row->bench_len ||
		    memcmp(cfg->benches[bi].name, row->bench, row->bench_len) != 0)
			continue;
		if (strlen(metric) != row->metric_len || memcmp(metric, row->metric, row->metric_len) != 0)
			return 0;
		return analysis_add(rr->an[bi], row->bench, row->bench_len, row->metric,
				    row->metric_len, (enum analysis_side)row->side, row->pad,
				    row->round, row->iter == SAMPLES_ITER_NONE ? ANALYSIS_ITER_NONE
									       : row->iter,
				    row->value, err);
	}
	return 0;
}

/* out[bi]: every live benchmark judged on the rows so far; *nundecided of them undecided. */
static int judge_all(struct run_state *st, struct run_sweep_bench *out, size_t *nundecided,
		     struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	struct reread rr = { st, NULL };
	int r = 0;

	*nundecided = 0;
	rr.an = calloc(cfg->nbenches, sizeof(*rr.an));
	if (!rr.an)
		return plumb_err_oom(err, "sweep");
	for (size_t bi = 0; bi < cfg->nbenches && r == 0; bi++) {
		out[bi].name = cfg->benches[bi].name;
		out[bi].verdict = VERDICT_INSUFFICIENT;
		if (st->benches[bi].failure)
			continue;
		rr.an[bi] = analysis_new(analysis_options(st->benches[bi].an), err);
		if (!rr.an[bi])
			r = PLUMB_EINTERNAL;
	}
	if (r == 0)
		r = samples_writer_finish(&st->writer, err);   /* a flush: rows may follow */
	if (r == 0 && fflush(st->tsv) != 0)
		r = plumb_err_errno(err, PLUMB_EIO, errno, st->tsv_path, "write");
	if (r == 0)
		r = samples_read_path(st->tsv_path, NULL, reread_row, &rr, NULL, err);
	for (size_t bi = 0; bi < cfg->nbenches && r == 0; bi++) {
		const char *metric = metric_name(cfg->benches[bi].metric);
		const struct analysis_result *ar = NULL;
		struct stats_judgement jd;
		const char *why;
		struct plumb_err ignored;

		if (!rr.an[bi])
			continue;
		plumb_err_clear(&ignored);
		/* A benchmark the analysis cannot finish fails at the record:
		 * nothing more to measure for it. */
		if (analysis_finish(rr.an[bi], &ignored) < 0)
			continue;
		for (size_t k = 0; k < analysis_count(rr.an[bi]); k++)
			if (strcmp(analysis_get(rr.an[bi], k)->metric, metric) == 0)
				ar = analysis_get(rr.an[bi], k);
		if (!ar)
			continue;
		if ((r = run_bench_judge(st->cfg, &st->build, &st->benches[bi], ar, &jd, err)) < 0)
			break;
		out[bi].verdict = jd.verdict;
		why = stats_undecided(&jd);
		if (why) {
			out[bi].undecided = 1;
			/* Pads decide an interval across an edge and too few pads;
			 * everything else undecided wants rounds (see the top). */
			out[bi].rounds_too = jd.verdict != VERDICT_UNSWEPT &&
					     jd.reason != STATS_REASON_STRADDLES;
			snprintf(out[bi].why, sizeof(out[bi].why), "%s", why);
			(*nundecided)++;
		}
	}
	for (size_t bi = 0; bi < cfg->nbenches; bi++)
		if (rr.an[bi])
			analysis_free(rr.an[bi]);
	free(rr.an);
	return r;
}

/* ---- the cost of one more extension -------------------------------------------- */

/* Nanoseconds the next extension of add pads per side may take (every:
 * its rounds run every variant, not only the added ones). */
static uint64_t estimate_ns(const struct run_state *st, unsigned add, int every)
{
	const struct plumb_config *cfg = st->cfg;
	const struct runner_result *br = &st->build;
	uint64_t spent = clock_now_ns() - st->t0, build = 0, nbuild = 0, runs, per_run;
	size_t live = 0;

	for (size_t bi = 0; bi < cfg->nbenches; bi++)
		live += st->benches[bi].failure == NULL;
	/* Pads after the first are built alike (a relink): their mean. */
	for (size_t i = 0; i < br->nvariants; i++)
		if (!br->variants[i].control && br->variants[i].pad > 0) {
			build += br->variants[i].prepare_ns + br->variants[i].build_ns;
			nbuild++;
		}
	if (nbuild)
		build /= nbuild;
	/* In a range job the clock runs for every pair: so does the count. */
	uint64_t done = st->job ? st->job->done : st->done;
	per_run = done ? spent / done : 0;
	runs = ((uint64_t)cfg->run.warmup_runs * 2 * add +
		(uint64_t)cfg->run.rounds * ((every ? br->nvariants : 0) + 2 * add)) * live;
	/* Half as much again: a relink or a run may take longer than the mean
	 * so far, and the budget is a bound, not a target. */
	return (2 * add * build + runs * per_run) * 3 / 2;
}

/* ---- the sweep ----------------------------------------------------------------- */

/* Tell of the sweep at pads per side: ev with the undecided benchmarks of state. */
static void say_state(struct run_state *st, const struct run_sweep_bench *state,
		      struct runner_event ev)
{
	struct runner_event_item *items = calloc(st->cfg->nbenches ? st->cfg->nbenches : 1,
						 sizeof(*items));

	if (!items)
		return;   /* a progress line, not the run */
	for (size_t bi = 0; bi < st->cfg->nbenches; bi++)
		if (state[bi].undecided) {
			items[ev.nitems].name = state[bi].name;
			items[ev.nitems++].why = state[bi].why;
		}
	ev.items = items;
	run_tell(st, &ev);
	free(items);
}

int run_sweep(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	struct run_sweep *sw = &st->sweep;
	struct runner_opts bopts;
	size_t nb = cfg->nbenches;
	uint64_t budget = (uint64_t)cfg->run.budget * 1000000000ull;
	int r = 0;

	memset(&bopts, 0, sizeof(bopts));
	bopts.event = st->opts->event;
	bopts.event_ctx = st->opts->ctx;
	for (;;) {
		struct run_sweep_bench *state = calloc(nb, sizeof(*state));
		struct run_sweep_step *steps, *step;
		unsigned pads = st->build.npads, add;
		size_t nund, old_nv = st->build.nvariants;
		uint64_t est;
		int every = 0;

		if (!state)
			return plumb_err_oom(err, "sweep");
		if ((r = judge_all(st, state, &nund, err)) < 0) {
			free(state);
			return r;
		}
		free(sw->final);
		sw->final = state;
		if (sw->nsteps)
			sw->steps[sw->nsteps - 1].ns = clock_now_ns() - st->t0 -
						      sw->steps[sw->nsteps - 1].at_ns;
		if (nund == 0) {
			sw->stopped = "decided";
			RUN_TELL(st, .kind = RUNNER_EV_SWEEP_DECIDED, .n = pads);
			break;
		}
		if (pads >= cfg->run.max_pads) {
			sw->stopped = "maxPads";
			say_state(st, state, (struct runner_event){ .kind = RUNNER_EV_SWEEP_MAX_PADS,
				  .n = pads, .n2 = cfg->run.max_pads });
			break;
		}
		add = cfg->run.max_pads - pads < CONFIG_PADS_AUTO_STEP ? cfg->run.max_pads - pads
								      : CONFIG_PADS_AUTO_STEP;
		for (size_t bi = 0; bi < nb; bi++)
			every |= state[bi].undecided && state[bi].rounds_too;
		est = estimate_ns(st, add, every);
		if (clock_now_ns() - st->t0 + est > budget) {
			sw->stopped = "budget";
			say_state(st, state, (struct runner_event){ .kind = RUNNER_EV_SWEEP_BUDGET,
				  .n = pads, .seconds = (double)est / 1e9,
				  .seconds2 = (double)cfg->run.budget });
			break;
		}
		steps = realloc(sw->steps, (sw->nsteps + 1) * sizeof(*steps));
		if (!steps)
			return plumb_err_oom(err, "sweep");
		sw->steps = steps;
		step = &sw->steps[sw->nsteps++];
		memset(step, 0, sizeof(*step));
		step->pads_before = pads;
		step->pads_after = pads + add;
		step->rounds = cfg->run.rounds;
		step->every = every;
		step->at_ns = clock_now_ns() - st->t0;
		step->before = calloc(nb, sizeof(*step->before));
		if (!step->before)
			return plumb_err_oom(err, "sweep");
		memcpy(step->before, state, nb * sizeof(*state));
		say_state(st, state, (struct runner_event){ .kind = RUNNER_EV_SWEEP_EXTEND,
			  .n = pads, .n2 = pads + add, .n3 = cfg->run.rounds, .flag = every });
		if ((r = runner_build_more(cfg, &bopts, &st->build, add, err)) < 0)
			return r;
		if ((r = run_measure_more(st, m, old_nv, cfg->run.rounds, every, err)) < 0)
			return r;
	}
	sw->spent_ns = clock_now_ns() - st->t0;
	return 0;
}

void run_sweep_release(struct run_state *st)
{
	struct run_sweep *sw = &st->sweep;

	for (size_t i = 0; i < sw->nsteps; i++)
		free(sw->steps[i].before);
	free(sw->steps);
	free(sw->final);
	memset(sw, 0, sizeof(*sw));
}

/* ---- the record ---------------------------------------------------------------- */

static int jset(json_t *o, const char *key, json_t *v)
{
	return v ? json_object_set_new(o, key, v) : -1;
}

/* [{bench, verdict, undecided?, why?}] of state; all: every benchmark, with the flag. */
static json_t *states_json(const struct run_state *st, const struct run_sweep_bench *state, int all)
{
	json_t *a = json_array();

	for (size_t bi = 0; a && bi < st->cfg->nbenches; bi++) {
		const struct run_sweep_bench *s = &state[bi];
		json_t *o;
		if (!all && !s->undecided)
			continue;
		o = json_object();
		if (!o || jset(o, "bench", json_string(s->name)) < 0 ||
		    jset(o, "verdict", json_string(verdict_name(s->verdict))) < 0 ||
		    (all && jset(o, "undecided", json_boolean(s->undecided)) < 0) ||
		    (s->undecided && jset(o, "why", json_string(s->why)) < 0) ||
		    json_array_append_new(a, o) < 0) {
			json_decref(o);
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* A note in benchmark name's record: how the sweep went for it. */
static int bench_note(struct run_state *st, struct manifest *m, size_t bi, struct plumb_err *err)
{
	const struct run_sweep *sw = &st->sweep;
	const struct run_sweep_bench *fin = &sw->final[bi];
	struct manifest_bench *mb = NULL;
	size_t first = sw->nsteps;
	char text[400];

	for (size_t i = 0; i < m->n_benches; i++)
		if (strcmp(m->benches[i].name, st->cfg->benches[bi].name) == 0)
			mb = &m->benches[i];
	for (size_t i = 0; i < sw->nsteps && first == sw->nsteps; i++)
		if (sw->steps[i].before[bi].undecided)
			first = i;
	if (!mb || mb->failure)
		return 0;
	if (first == sw->nsteps && !fin->undecided)
		return 0;   /* decided by the first sweep: nothing to say */
	if (first == sw->nsteps)
		snprintf(text, sizeof(text), "adaptive sweep: undecided at %u pads per side (%s), not "
			 "extended: %s", st->build.npads, fin->why,
			 strcmp(sw->stopped, "budget") == 0 ? "the next extension would pass run.budget"
							    : "run.maxPads reached");
	else if (!fin->undecided)
		snprintf(text, sizeof(text), "adaptive sweep: undecided at %u pads per side (%s); "
			 "extended to %u pads per side, then decided", sw->steps[first].pads_before,
			 sw->steps[first].before[bi].why, st->build.npads);
	else
		snprintf(text, sizeof(text), "adaptive sweep: undecided at %u pads per side (%s); "
			 "extended to %u pads per side, still undecided (%s), stopped by %s",
			 sw->steps[first].pads_before, sw->steps[first].before[bi].why, st->build.npads,
			 fin->why, strcmp(sw->stopped, "budget") == 0 ? "run.budget" : "run.maxPads");
	return run_manifest_note(mb, text, err);
}

int run_sweep_record(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const struct run_sweep *sw = &st->sweep;
	json_t *o, *ext;
	int r;

	if (!cfg->run.pads_auto || !sw->final || !sw->stopped)
		return 0;
	o = json_object();
	ext = json_array();
	if (!o || !ext ||
	    jset(o, "startPads", json_integer(CONFIG_PADS_AUTO_START)) < 0 ||
	    jset(o, "stepPads", json_integer(CONFIG_PADS_AUTO_STEP)) < 0 ||
	    jset(o, "maxPads", json_integer(cfg->run.max_pads)) < 0 ||
	    jset(o, "budgetNs", json_integer((json_int_t)cfg->run.budget * 1000000000)) < 0 ||
	    jset(o, "pads", json_integer(st->build.npads)) < 0 ||
	    jset(o, "stopped", json_string(sw->stopped)) < 0 ||
	    jset(o, "spentNs", json_integer((json_int_t)sw->spent_ns)) < 0 ||
	    jset(o, "final", states_json(st, sw->final, 1)) < 0)
		goto oom;
	for (size_t i = 0; i < sw->nsteps; i++) {
		const struct run_sweep_step *s = &sw->steps[i];
		const struct run_sweep_bench *after = i + 1 < sw->nsteps ? sw->steps[i + 1].before
									: sw->final;
		json_t *e = json_object();
		if (!e || json_array_append_new(ext, e) < 0 ||
		    jset(e, "padsBefore", json_integer(s->pads_before)) < 0 ||
		    jset(e, "padsAfter", json_integer(s->pads_after)) < 0 ||
		    jset(e, "rounds", json_integer(s->rounds)) < 0 ||
		    jset(e, "roundsOf", json_string(s->every ? "every" : "added")) < 0 ||
		    jset(e, "atNs", json_integer((json_int_t)s->at_ns)) < 0 ||
		    jset(e, "ns", json_integer((json_int_t)s->ns)) < 0 ||
		    jset(e, "undecided", states_json(st, s->before, 0)) < 0 ||
		    jset(e, "after", states_json(st, after, 1)) < 0)
			goto oom;
	}
	if (json_object_set(o, "extensions", ext) < 0)
		goto oom;
	json_decref(ext);
	json_decref(m->run.sweep);
	m->run.sweep = o;
	for (size_t bi = 0; bi < cfg->nbenches; bi++)
		if ((r = bench_note(st, m, bi, err)) < 0)
			return r;
	return 0;
oom:
	json_decref(ext);
	json_decref(o);
	return plumb_err_oom(err, "run.sweep");
}
