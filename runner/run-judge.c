/*
 * runner/run-judge.c: a benchmark's verdict as the bundle records it: the
 * run's rule (verdict.rule, its confidence shared out over the sweep's
 * looks, verdict.minEffect) applied to an analysis result with the hot
 * code's identity (benches[].hot: the symbols named, then those the
 * profile found) and whether the sides did the same work
 * (benches[].work).
 *
 * Separate from the record (run-manifest.c), which judges what it writes,
 * because the sweep (run-sweep.c) and the same-work proof (run-work.c)
 * judge the rounds so far the same way before anything is recorded: this
 * file sits below the three and calls only run-common.c.  Declared in
 * run-internal.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/manifest-rule.h"
#include "runner/hotcode.h"
#include "runner/run-internal.h"
#include "stats/analysis.h"
#include "stats/rule.h"
#include "common/banned.h"

/* One compared hot symbol into mb->hot (room reserved), once. */
static int add_hot(struct manifest_bench *mb, const struct runner_hot *h, struct plumb_err *err)
{
	struct manifest_hot_cmp *hc;
	int r;

	for (size_t k = 0; k < mb->hot.n_symbols; k++)
		if (strcmp(mb->hot.symbols[k].name, h->symbol) == 0)
			return 0;
	hc = &mb->hot.symbols[mb->hot.n_symbols++];
	if (!(hc->name = strdup(h->symbol)))
		return plumb_err_oom(err, "manifest");
	hc->identical = h->cmp.verdict == HOTCODE_IDENTICAL;
	if ((r = run_set(&hc->verdict, hotcode_verdict_name(h->cmp.verdict), err)) < 0)
		return r;
	if (!hc->identical)
		mb->hot.identical = 0;
	return 0;
}

/* benches[].hot: the symbols this benchmark names, then the rest of the
 * hot set its profile found (hot = auto, run-profile.c). */
int run_bench_hot(const struct runner_result *br, const struct bench_state *b,
		  struct manifest_bench *mb, struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	int r;

	mb->hot.identical = 1;
	mb->hot.symbols = calloc(cb->nhot + b->nauto + 1, sizeof(*mb->hot.symbols));
	if (!mb->hot.symbols)
		return plumb_err_oom(err, "manifest");
	for (size_t k = 0; k < cb->nhot; k++)
		for (size_t h = 0; h < br->nhot; h++)
			if (strcmp(br->hot[h].symbol, cb->hot[k]) == 0 &&
			    (r = add_hot(mb, &br->hot[h], err)) < 0)
				return r;
	for (size_t h = 0; h < b->nauto; h++)
		if ((r = add_hot(mb, &b->auto_hot[h], err)) < 0)
			return r;
	mb->hot.present = mb->hot.n_symbols > 0;
	return 0;
}

/* The verdict of result ar under the run's rule, with mb's hot-code identity. */
int run_judge(const struct plumb_config *cfg, const struct manifest_bench *mb,
	      const struct analysis_result *ar, struct stats_judgement *jd,
	      struct plumb_err *err)
{
	struct stats_rule rule;

	if (stats_rule_select(cfg->verdict.rule, 0, &rule) < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "verdict.rule: %s", cfg->verdict.rule);
	if (cfg->verdict.confidence > 0)
		rule.confidence = cfg->verdict.confidence;
	/* The sweep judges after every step and stops at the first verdict: each
	 * look gets an even share of 1 - confidence (Bonferroni), so that a false
	 * call over the whole sweep stays within it.  The level used is the one
	 * the bundle records, and every re-judgement uses it. */
	if (rule.kind == STATS_RULE_SHIFT)
		rule.confidence = stats_confidence_per_look(rule.confidence, config_sweep_looks(cfg));
	rule.min_effect = cfg->verdict.min_effect;
	if (analysis_judge(ar, &rule, manifest_bench_hot(mb), manifest_bench_work(mb), jd) < 0)
		return errno == ENOMEM ? plumb_err_oom(err, "verdict")
				       : plumb_err_set(err, PLUMB_EINTERNAL, "benchmark %s: %s",
						       mb->name, jd->why);
	return 0;
}

/* The verdict of bench b's result ar as the manifest will record it. */
int run_bench_judge(const struct plumb_config *cfg, const struct runner_result *build,
		    const struct bench_state *b, const struct analysis_result *ar,
		    struct stats_judgement *jd, struct plumb_err *err)
{
	struct manifest scratch;
	struct manifest_bench *mb;
	int r;

	manifest_init(&scratch);
	mb = manifest_add_bench(&scratch, b->cb->name, err);
	r = mb ? run_bench_hot(build, b, mb, err) : PLUMB_EINTERNAL;
	if (r == 0)
		r = run_set(&mb->work, run_work_name(b->work), err);
	if (r == 0)
		r = run_judge(cfg, mb, ar, jd, err);
	manifest_release(&scratch);
	return r;
}
