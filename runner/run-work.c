/*
 * runner/run-work.c: did both sides do the same work?  (DESIGN §6, "Hot
 * code and the same work"; stats/rule.h, enum stats_work.)
 *
 * Identical hot code says the code is the same, not that it did the same
 * thing: a constant it reads, its input or how often it is called may
 * differ.  So the shift rule lets hot-code identity turn a slower or
 * faster timing into placement only when the run showed the same work:
 * instructions retired equal within STATS_SAME_WORK (0.01%) and no
 * checksum change.  The proofs, the first that applies decides:
 *
 *   the checksum  base and candidate printed different checksum= lines:
 *                 different work, whatever the counts say (the behaviour
 *                 changed);
 *   hardware      the benchmark's runs were counted by hardware counters
 *                 (perf_event_open): the sides' instructions, median over
 *                 pads;
 *   valgrind      the benchmark was counted under valgrind
 *                 (bench.NAME.counter) and is deterministic there: the
 *                 same, from its valgrind round;
 *   a counted run otherwise, and only when the proof would decide (the
 *                 timing says slower or faster and the hot code is
 *                 identical: the judgement's hot_remark), valgrind is
 *                 installed and bench.NAME.counter is not `hardware`: pad
 *                 0 of each side runs once under valgrind
 *                 (runner/cachegrind.h) and their instructions are
 *                 compared.  One run is enough: a simulated count depends
 *                 on the build and the input, not on the machine.
 *
 * With none of them the work is unknown: the record says nothing
 * (benches[].work absent) and identity stays a remark beside the timing's
 * verdict.  Otherwise benches[].work records the outcome, and a note the
 * figures, so that a re-analysis (bundle verify, audit) judges as the run
 * did.  Only the shift rule reads the work, so only under it is any of
 * this done.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "runner/build-types.h"
#include "runner/cachegrind.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "stats/analysis.h"
#include "stats/rule.h"
#include "common/banned.h"

/* Set b's work and its note (how it was shown); 0 or an out-of-memory error. */
static int set_work(struct bench_state *b, enum stats_work w, char *note, struct plumb_err *err)
{
	if (!note)
		return plumb_err_oom(err, "the same work");
	free(b->work_note);
	b->work_note = note;
	b->work = w;
	return 0;
}

/* Compare the sides' instructions, counted by `how`: same or different. */
static int compare(struct bench_state *b, double base, double cand, const char *how,
		   struct plumb_err *err)
{
	char nb[UNITS_MAX], nc[UNITS_MAX], apart[UNITS_MAX], limit[UNITS_MAX];
	int same;

	if (!(base > 0) || !isfinite(base) || !isfinite(cand))
		return 0;   /* nothing counted: no proof */
	same = fabs((cand - base) / base) <= STATS_SAME_WORK;
	units_whole(base, nb);
	units_whole(cand, nc);
	/* Within the limit the difference is a few instructions: say how many. */
	if (!same) {
		units_change(cand / base, apart);
	} else if (cand == base) {
		snprintf(apart, sizeof(apart), "equal");
	} else {
		units_whole(fabs(cand - base), apart);
		snprintf(apart + strlen(apart), sizeof(apart) - strlen(apart), " %s",
			 cand < base ? "fewer" : "more");
	}
	units_level(STATS_SAME_WORK, limit);
	return set_work(b, same ? STATS_WORK_SAME : STATS_WORK_DIFFERENT,
			buf_strdupf("%s work: %s instructions on the base, %s on the candidate "
				    "(%s, %s %s), %s", same ? "the same" : "different", nb, nc, apart,
				    same ? "within" : "beyond", limit, how), err);
}

/* The instructions of both sides from the counts the rounds recorded: 1 when they decided. */
static int from_counts(struct bench_state *b, const char *metric, const char *how,
		       struct plumb_err *err)
{
	const struct analysis_result *ar = run_find_result(b->an, metric);
	int r;

	if (!ar || ar->side[ANALYSIS_BASE].npads == 0 || ar->side[ANALYSIS_CANDIDATE].npads == 0)
		return 0;
	r = compare(b, ar->side[ANALYSIS_BASE].summary.center,
		    ar->side[ANALYSIS_CANDIDATE].summary.center, how, err);
	return r < 0 ? r : b->work != STATS_WORK_UNKNOWN;
}

/* Why the same work could not be shown, as b's note (the work stays unknown). */
static int not_shown(struct bench_state *b, const char *why, struct plumb_err *err)
{
	return set_work(b, STATS_WORK_UNKNOWN,
			buf_strdupf("the hot code is identical, but the same work was not shown "
				    "(%s): the timing decides", why), err);
}

/* One counted run of pad 0 of each side under valgrind. */
static int counted_runs(struct run_state *st, struct bench_state *b, struct plumb_err *err)
{
	size_t v[2] = { run_pad0(&st->build, RUNNER_BASE),
			run_pad0(&st->build, RUNNER_CANDIDATE) };
	double ir[2];
	char why[PLUMB_ERR_MAX + 64];
	int r;

	if (!st->vg_any) {
		struct plumb_err ferr;
		char what[160];
		snprintf(what, sizeof(what), "bench.%s (the same work)", b->cb->name);
		plumb_err_clear(&ferr);
		if (cachegrind_find(NULL, what, &st->vg, &ferr) < 0)
			return not_shown(b, st->counters ? "valgrind is not installed"
				: "no hardware counters here, and valgrind is not installed", err);
		st->vg_any = 1;
	}
	for (int s = 0; s < 2; s++) {
		if ((r = run_valgrind_instructions(st, b, v[s], &ir[s], why, sizeof(why), err)) < 0)
			return r;
		if (b->failure)
			return 0;   /* a bench hook failed: the benchmark failed */
		if (why[0]) {
			char text[PLUMB_ERR_MAX + 160];
			snprintf(text, sizeof(text), "the run of %s pad 0 under valgrind failed: %s",
				 s ? "candidate" : "base", why);
			return not_shown(b, text, err);
		}
	}
	return compare(b, ir[0], ir[1], "counted under valgrind, one run of pad 0 of each side", err);
}

/* The proof for bench b (not failed, rows finished), under the shift rule. */
static int prove(struct run_state *st, struct bench_state *b, struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	const struct analysis_result *ar = run_find_result(b->an, metric_name(b->metric));
	struct stats_judgement jd;
	int r;

	if (cb->checksum != CONFIG_CHECKSUM_OFF && (b->ck[0].value[0] || b->ck[1].value[0]) &&
	    strcmp(b->ck[0].value, b->ck[1].value) != 0)
		return set_work(b, STATS_WORK_DIFFERENT,
				buf_strdupf("different work: base and candidate printed different "
					    "checksums"), err);
	if (st->counters && !st->counters_broken && b->hw &&
	    (r = from_counts(b, metric_name(METRIC_INSTRUCTIONS),
			     "hardware counters, median over pads", err)) != 0)
		return r < 0 ? r : 0;
	if (b->vg && !b->vg_nondet &&
	    (r = from_counts(b, metric_name(METRIC_VG_INSTRUCTIONS),
			     "counted under valgrind, median over pads", err)) != 0)
		return r < 0 ? r : 0;
	/* A run of its own only where it decides: slower or faster with
	 * identical hot code. */
	if (!ar)
		return 0;
	if ((r = run_bench_judge(st->cfg, &st->build, b, ar, &jd, err)) < 0)
		return r;
	if (!jd.hot_remark)
		return 0;
	if (cb->mode == CONFIG_MODE_GBENCH)
		return not_shown(b, "a Google Benchmark binary runs as many iterations as its clock "
				 "asks for, so its instruction count says nothing", err);
	if (cb->counter == CONFIG_COUNTER_HARDWARE)
		return not_shown(b, st->counters ? "no instruction count" :
				 "no hardware counters here, and bench.NAME.counter = hardware", err);
	RUN_TELL(st, .kind = RUNNER_EV_SAME_WORK, .subject = cb->name,
		 .label = verdict_name(jd.verdict));
	return counted_runs(st, b, err);
}

int run_work_prove(struct run_state *st, struct plumb_err *err)
{
	struct stats_rule rule;
	int r;

	if (stats_rule_select(st->cfg->verdict.rule, 0, &rule) < 0 || rule.kind != STATS_RULE_SHIFT)
		return 0;
	for (size_t bi = 0; bi < st->cfg->nbenches; bi++) {
		struct bench_state *b = &st->benches[bi];
		struct plumb_err ignored;

		if (b->failure)
			continue;
		/* No row comes after this; a failure is said when the record is
		 * made (run-manifest.c), with the same message. */
		plumb_err_clear(&ignored);
		if (analysis_finish(b->an, &ignored) < 0)
			continue;
		if ((r = prove(st, b, err)) < 0)
			return r;
		/* The sweep's last state is the recorded verdict: judged with the
		 * work too (both are decided, so the sweep ends as it did). */
		if (st->sweep.final && b->work != STATS_WORK_UNKNOWN) {
			const struct analysis_result *ar = run_find_result(b->an, metric_name(b->metric));
			struct stats_judgement jd;
			if (ar && (r = run_bench_judge(st->cfg, &st->build, b, ar, &jd, err)) < 0)
				return r;
			if (ar)
				st->sweep.final[bi].verdict = jd.verdict;
		}
	}
	return 0;
}

