/*
 * stats/analysis.h: from rows of samples to per-benchmark verdicts.
 *
 * Rows (bench, metric, side, pad, round, iter, value) are added one at a
 * time, in any interleaving of benchmarks, sides, pads and rounds, by
 * whatever produced them: the samples.tsv reader for `plumb analyze`, the
 * runner while it measures.  analysis_finish() then computes, per bench
 * and metric (sorted by bench, then metric, byte order):
 *
 *   per round   process mode (iter '-'): the value; samples mode (iter
 *               0, 1, ...): the warmup policy (steady start), then over the
 *               kept samples the median, p99, max, and the coordinated-
 *               omission corrected co_n and co_p99 (expected interval: the
 *               kept samples' median floored at 1; cap: opts.co_cap, raised
 *               to the round's sample count so that no raw sample is
 *               dropped); the round's value is its median;
 *   per pad     the median over rounds of the round values (and of p99 and
 *               co_p99 in samples mode);
 *   per side    center, range and spread of the pad medians (verdict.h);
 *   per bench   the judgement of stats/rule.h under opts.rule, with the
 *               hot code unknown (analysis_judge() judges again with it),
 *               unless opts.judge_later.
 *
 * Storage is compact: 16 bytes per round and a hash slot (4 to 8 bytes);
 * in samples mode one double per sample in a growable array per round
 * (the first sample of a round is stored inline) and 16 bytes more; no
 * strings per row.  A 10-million-sample input takes about 100 MB; with
 * opts.consecutive only the round being read keeps its samples, so memory
 * is bounded by the largest round and the number of rounds (with its
 * figures, some 100 bytes more per samples-mode round, unless
 * opts.values_only).
 *
 * Rules checked while adding (PLUMB_EINPUT, message naming the column, so
 * that the TSV reader can prefix the line): within a bench and metric all
 * rows are '-' or all are iteration numbers; a round has at most one '-'
 * row; iterations of a round come in order 0, 1, 2, ...  After an error
 * the analysis is failed and only analysis_free() is useful.
 *
 * Ownership: analysis_new() allocates the handle, analysis_free() frees it
 * and everything it returned.  analysis_add() copies what it keeps (names
 * are copied once per bench and metric).  Results returned by
 * analysis_get() are owned by the handle and live until analysis_free().
 */
#ifndef PLUMB_STATS_ANALYSIS_H
#define PLUMB_STATS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "stats/rule.h"
#include "stats/steady.h"
#include "stats/verdict.h"

struct plumb_err;

enum analysis_side {
	ANALYSIS_BASE = 0,
	ANALYSIS_CANDIDATE = 1,
	ANALYSIS_CONTROL = 2
};
#define ANALYSIS_SIDES 3

#define ANALYSIS_ITER_NONE UINT64_MAX     /* iter '-': one value per round */
#define ANALYSIS_MAX_GROUPS 65535u        /* distinct bench + metric pairs */
#define ANALYSIS_PAD_MAX 65535u
#define ANALYSIS_ROUND_MAX 999999999u

enum analysis_mode {
	ANALYSIS_PROCESS,        /* one value per round */
	ANALYSIS_SAMPLES         /* per-iteration samples */
};

struct analysis_opts {
	struct stats_warmup warmup;  /* samples mode, per round */
	size_t co_cap;               /* coordinated-omission output cap */
	size_t max_rounds;           /* distinct (bench, metric, side, pad, round); 0: no limit */
	int consecutive;             /* samples mode: a round's rows are consecutive, so
	                                a round is reduced (and its samples freed) when
	                                a row of another round arrives; a later row of
	                                it is PLUMB_EINPUT */
	int values_only;             /* samples mode: keep each round's median, not its
	                                figures (analysis_pad.iter is NULL, p99 and
	                                co_p99 0, unsteady_rounds 0): a round then
	                                costs what a process-mode round costs */
	struct stats_rule rule;      /* the verdict rule */
	/* Names of the metrics that repeat exactly for one build (NULL-terminated,
	 * or NULL: none): judged with stats_judge_in.deterministic. */
	const char *const *deterministic;
	/* Nonzero: analysis_finish() leaves every result's judge unset
	 * (verdict insufficient, why "not judged"), for a caller that judges
	 * the results it needs itself with analysis_judge(): the bootstrap is
	 * most of what judging costs, and a run has several metrics a bench. */
	int judge_later;
};

/* auto warmup (window 30, tolerance 1%), co_cap STATS_CO_CAP_DEFAULT, no
 * round limit, rounds not required consecutive, the default rule
 * (stats_rule_default()). */
void analysis_opts_default(struct analysis_opts *o);

/* Samples mode: the figures of one round. */
struct analysis_iter {
	size_t n_raw;                     /* samples recorded */
	struct stats_warmup_result warm;  /* kept from warm.start; steady or not */
	size_t n;                         /* samples kept */
	double p99, max;                  /* over the kept samples */
	double co_expected;               /* E */
	size_t co_n;
	double co_p99;
	int co_capped;                    /* the cap stopped the correction */
};

/* A pad's rounds are three arrays of nrounds, in ascending round number. */
struct analysis_pad {
	uint32_t pad;
	size_t nrounds;                   /* >= 1 */
	const uint32_t *round;            /* round[r]: the number of the r-th round */
	const double *value;              /* value[r]: process: its value; samples: median */
	const struct analysis_iter *iter; /* samples mode: iter[r], its figures; else
	                                     (and with opts.values_only) NULL */
	double median;                    /* median over rounds of the values */
	double p99, co_p99;               /* samples mode: medians over rounds (0 in
	                                     process mode and with opts.values_only) */
};

struct analysis_side_result {
	size_t npads;                     /* 0: this side has no rows */
	const struct analysis_pad *pads;  /* ascending pad number */
	struct stats_side summary;        /* valid when npads > 0 */
};

struct analysis_result {
	const char *bench;
	const char *metric;
	enum analysis_mode mode;
	struct analysis_side_result side[ANALYSIS_SIDES];
	struct stats_judgement judge;     /* verdict, intervals, noise, power;
	                                     judge.why says why "insufficient" */
	size_t unsteady_rounds;           /* samples mode, auto: rounds never steady */
	int deterministic;                /* the metric is one of opts.deterministic */
};

struct analysis;

/* A new, empty analysis; opts NULL for the defaults. */
struct analysis *analysis_new(const struct analysis_opts *opts, struct plumb_err *err);

/* Add one row (iter ANALYSIS_ITER_NONE for '-'); value finite, >= 0. */
int analysis_add(struct analysis *a, const char *bench, size_t bench_len,
		 const char *metric, size_t metric_len, enum analysis_side side,
		 uint32_t pad, uint32_t round, uint64_t iter, double value,
		 struct plumb_err *err);

/*
 * Compute every result.  Frees the samples as it goes, so rows can no
 * longer be added.  Fails (PLUMB_EINPUT) when no row was added, or when a
 * fixed warmup discards every sample of a round.  A second call returns 0
 * once it succeeded, else the first call's code and message again.
 */
int analysis_finish(struct analysis *a, struct plumb_err *err);

/*
 * Judge a result (after analysis_finish()) under rule with the hot-code
 * identity hot: the one route from samples to stats_judge().  -1 with
 * errno when memory runs out or the rule is invalid.
 */
int analysis_judge(const struct analysis_result *res, const struct stats_rule *rule,
		   enum stats_hot hot, enum stats_work work, struct stats_judgement *out);

/* Rows added so far. */
uint64_t analysis_rows(const struct analysis *a);

/* Distinct rounds (bench, metric, side, pad, round) added so far. */
size_t analysis_round_count(const struct analysis *a);

/* The options in force. */
const struct analysis_opts *analysis_options(const struct analysis *a);

/* After analysis_finish(): the number of bench + metric results, and one. */
size_t analysis_count(const struct analysis *a);
const struct analysis_result *analysis_get(const struct analysis *a, size_t i);

void analysis_free(struct analysis *a);

/* "base", "candidate", "control". */
const char *analysis_side_name(enum analysis_side s);

#endif
