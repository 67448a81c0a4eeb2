/*
 * stats/rule.h: the verdict rules, named and versioned, behind one
 * function (DESIGN §6; docs/verdict.md is the full definition).
 *
 * stats_judge() is the only place a benchmark's verdict is computed: the
 * runner, `plumb analyze`, reports against a baseline and the bundle
 * consistency check all call it (through analysis_judge() when they hold
 * samples).  It takes each side's pads with their per-round values, the
 * hot-code identity, and a rule:
 *
 *   overlap v1   the seeds' rule (seed 000, pads.py): ranges of the pad
 *                medians; wholly above "slower", wholly below "faster",
 *                else "placement"; one pad on a side "unswept"; the
 *                control check |pad 0 - control| / center against half the
 *                base spread is a remark, not a verdict.  Bundles without a
 *                recorded rule were judged by it.
 *   margin v2    each pad median gets a distribution-free
 *                confidence interval from order statistics at the rule's
 *                confidence; a side's range is the union of its pads'
 *                intervals; the noise figure is the larger of the typical
 *                interval half-width (round-to-round variation) and the
 *                control's distance from base pad 0 (build-to-build
 *                variation), relative to the base center.  Ranges that
 *                overlap: "placement"; ranges apart by no more than the
 *                margin (the control's noise: the ranges hold the round
 *                noise already): "noisy"; apart by more: "slower"/"faster"
 *                ("unswept" with one pad on a side).  Hot code identical
 *                (or identical except the addresses of moved data) turns
 *                every non-overlap into "placement", with that reason.
 *
 *   shift v3     the pad medians of each side are a sample
 *                of its placement distribution; the exact two-sided
 *                Mann-Whitney test of candidate against base, the
 *                Hodges-Lehmann shift and its exact interval at the rule's
 *                confidence (stats/shift.h).  The interval wholly above
 *                +minEffect "slower", wholly below -minEffect "faster",
 *                wholly inside "unchanged", across an edge "placement";
 *                pads too few to reach the confidence at all "unswept"
 *                (4 + 4 pads reach 97% at most).  Identical hot code turns
 *                a slower/faster into "placement" only when the run showed
 *                the same work (in.work); otherwise it is a remark.  The
 *                control is a remark (control_outside), not a margin.
 *   shift v4     (the default) v3 within batches: pads measured in rounds
 *                of their own (an adaptive sweep's extension; the round a
 *                pad was first measured in, stats_pad_in.batch) are
 *                compared only with the other side's pads of their batch
 *                (stats_shift_strata()), so that a change of the host's
 *                speed between batches cannot widen the interval.  A batch
 *                with pads of one side only joins the batch before it (the
 *                first: the one after).  Pads of unknown batch (recorded
 *                summaries, two bundles compared) are one batch: v3.
 *
 * Under overlap and margin the ratio carries a percentile bootstrap interval
 * over pads and rounds (two-level resampling, seeded: the same input and
 * rule give the same interval); under shift the ratio's interval is the
 * shift's, plus one.  Every rule gives the smallest detectable change: how
 * far the candidate would have to move, keeping the shape of both ranges,
 * before the rule calls it (docs/verdict.md, "Power").
 *
 * To add a rule version (a new version of a rule, or a new rule; what the
 * build and the tests demand).  A bundle records the name and version that
 * judged it and `bundle verify` judges it again by them, so every version
 * ever written stays selectable, with its number and its behaviour:
 *   1. its STATS_RULE_*_VERSION below (a new rule: its enum
 *      stats_rule_kind too), and in stats/rule.c its place in
 *      stats_rule_select() (by name and version), stats_rule_check()
 *      (with the message naming the versions) and stats_judge(); a new
 *      rule also in stats_rule_name() and in plumb.conf's verdict.rule
 *      names (rule_names[], formats/config.c);
 *   2. formats/manifest.c: the (name, version) pairs a manifest may record
 *      and the message naming them (without it a run or an import writes
 *      a bundle it then refuses: t0003, t4031);
 *   3. the benches[i].rule.version row (a new rule: .name too) of
 *      formats/bundle-v1.md and the same row of formats/manifest-fields.md
 *      (t4008);
 *   4. when it becomes the default (stats_rule_default()), what names
 *      today's rule: the analyze goldens without args
 *      (tests/fixtures/analyze/CASE.txt and .json are plumb analyze
 *      CASE.tsv and its --json; t2000), the audit corpus's expected
 *      outputs (tests/fixtures/audit/make-corpus.sh ./plumb --expect;
 *      t6001), the imports' (tests/fixtures/import/make-expect.sh
 *      ./plumb; t4030), and the tests that say it: t1006 (the rule a run
 *      records) and t6000 (today's rule in an audit).
 * No test reads docs/verdict.md (the rule's definition) or the versions
 * docs/plumb.1 and docs/plumb.conf.5 name.
 *
 * Ownership: the input is only read; stats_judge() allocates scratch
 * space and frees it before it returns.  The judgement is plain values.
 */
#ifndef PLUMB_STATS_RULE_H
#define PLUMB_STATS_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/verdict.h"

enum stats_rule_kind {
	STATS_RULE_OVERLAP = 1,
	STATS_RULE_MARGIN = 2,
	STATS_RULE_SHIFT = 3
};

#define STATS_RULE_OVERLAP_VERSION 1
#define STATS_RULE_MARGIN_VERSION 2
#define STATS_RULE_SHIFT_VERSION 4     /* 3: one batch, still selectable */
#define STATS_RULE_CONFIDENCE 0.95          /* overlap and margin */
#define STATS_RULE_SHIFT_CONFIDENCE 0.99
#define STATS_RULE_MIN_EFFECT 0.01
#define STATS_RULE_RESAMPLES 2000u
#define STATS_RULE_SEED 1u
#define STATS_RULE_RESAMPLES_MAX 100000u

struct stats_rule {
	enum stats_rule_kind kind;
	int version;             /* 1 for overlap, 2 for margin, 3 or 4 for shift */
	double confidence;       /* pad intervals (margin), the ratio or shift interval */
	double min_effect;       /* shift: the band +-min_effect (relative) of no change */
	double noise_factor;     /* margin: the gap must exceed factor x noise */
	unsigned resamples;      /* bootstrap replicates of the ratio interval */
	uint64_t seed;           /* bootstrap seed */
};

/* shift v4, confidence 0.99, minimum effect 1%. */
void stats_rule_default(struct stats_rule *r);
/* margin v2, confidence 0.95, factor 1, 2000 resamples, seed 1. */
void stats_rule_margin(struct stats_rule *r);
/* overlap v1 with the same interval parameters. */
void stats_rule_overlap(struct stats_rule *r);
/* By name ("overlap", "margin", "shift") and version (0: the current one;
 * shift 3 or 4); -1 unknown. */
int stats_rule_select(const char *name, int version, struct stats_rule *r);
/* "overlap", "margin", "shift". */
const char *stats_rule_name(enum stats_rule_kind k);
/* 0, or -1 when a parameter is out of range (why: a static phrase). */
int stats_rule_check(const struct stats_rule *r, const char **why);

/* Hot-code identity of the benchmark's hot set, base against candidate. */
enum stats_hot {
	STATS_HOT_UNKNOWN,       /* not compared */
	STATS_HOT_CHANGED,       /* some hot symbol's code differs */
	STATS_HOT_IDENTICAL,     /* byte for byte */
	STATS_HOT_SAME_CODE      /* identical except the addresses of moved data */
};

/*
 * One pad: its per-round values (any order), n >= 1.  A pad known only by
 * its recorded summary (a baseline's manifest) has values NULL, n its
 * recorded rounds, and median, lo, hi (lo = hi = median when no interval
 * was recorded); the bootstrap then resamples such a side's pads only.
 */
struct stats_pad_in {
	uint32_t pad;
	uint32_t batch;          /* shift v4: the round the pad was first measured
	                            in (its sweep batch); 0 unknown (one batch) */
	const double *values;
	size_t n;
	double median, lo, hi;   /* values == NULL only */
};

/*
 * Did both sides do the same work?  SAME: instructions retired equal
 * within STATS_SAME_WORK (hardware counters or a Valgrind count) and no
 * checksum change; DIFFERENT: either differs; UNKNOWN: neither proof.
 */
enum stats_work {
	STATS_WORK_UNKNOWN,
	STATS_WORK_SAME,
	STATS_WORK_DIFFERENT
};
#define STATS_SAME_WORK 0.0001

struct stats_side_in {
	const struct stats_pad_in *pads;
	size_t npads;            /* 0: the side is absent */
};

struct stats_judge_in {
	struct stats_side_in base, candidate, control;
	enum stats_hot hot;
	enum stats_work work;    /* shift: whether hot-code identity may decide */
	/* Noise measured elsewhere (relative), e.g. the recorded noise figures
	 * of two bundles compared: the figure is at least this.  0: none. */
	double noise_floor;
	/* The metric claims to repeat exactly for one build (a simulated count,
	 * common/metric.h).  When every pad's values are equal and some pad
	 * holds two of them (the claim was checked), or no pad has values (a
	 * recorded summary), a pad needs one round: there is no round noise,
	 * only the pads' spread.  Otherwise the claim is ignored. */
	int deterministic;
};

/* One pad's median with its order-statistic interval. */
struct stats_pad_interval {
	double median, lo, hi;
	double level;            /* the interval's exact coverage (>= confidence,
	                            or the most n rounds allow) */
};

/* A side under the rule: the seeds' summary plus the interval range. */
struct stats_side_judged {
	struct stats_side s;     /* center, min, max, spread of the pad medians */
	double lo, hi;           /* margin: union of the pad intervals; overlap: min, max */
	double level;            /* the smallest coverage among its pads */
};

enum stats_reason {
	STATS_REASON_NONE,
	STATS_REASON_OVERLAP,        /* ranges overlap */
	STATS_REASON_WITHIN_NOISE,   /* apart by no more than the noise */
	STATS_REASON_HOT_IDENTICAL,  /* a non-overlap with identical hot code */
	STATS_REASON_HOT_SAME_CODE,  /* ... identical except moved-data addresses */
	STATS_REASON_ONE_PAD,        /* unswept */
	STATS_REASON_APART,          /* slower / faster */
	STATS_REASON_MISSING,        /* a side has no pads */
	STATS_REASON_FEW_ROUNDS,     /* a pad has fewer than STATS_MIN_ROUNDS (a
	                                deterministic metric: 1, or it was not) */
	STATS_REASON_BEYOND,         /* shift: interval beyond the minimum effect */
	STATS_REASON_WITHIN,         /* shift: interval within the minimum effect */
	STATS_REASON_STRADDLES,      /* shift: interval across an edge of it */
	STATS_REASON_FEW_PADS        /* shift: the pads cannot reach the confidence */
};

struct stats_judgement {
	struct stats_rule rule;
	struct stats_side_judged base, candidate;
	int has_control;
	struct stats_side_judged control;
	enum verdict verdict;
	enum stats_direction direction;  /* of the non-overlap, also when overruled */
	enum stats_reason reason;
	int has_ratio;
	double ratio;                /* candidate center / base center */
	int has_interval;
	double ratio_lo, ratio_hi;   /* bootstrap percentile interval at rule.confidence */
	double gap;                  /* relative distance between the ranges; < 0 overlap */
	/* Noise (relative to the base center). */
	int has_noise;
	double noise_rounds;         /* median relative half-width of the pad intervals */
	int has_control_noise;
	double noise_control;        /* |control - base pad 0| / base center */
	double noise;                /* the figure: margin max(rounds, control); overlap: control */
	double margin;               /* noise_factor x the control's noise (or the floor);
	                                overlap: 0 */
	int noisy;                   /* margin: verdict noisy; overlap: the seeds' check */
	double noise_limit;          /* overlap: half the base spread */
	/* Power: the smallest relative change the rule would call. */
	int has_detectable;
	double detect_slower;        /* candidate / base - 1 at which "slower" */
	double detect_faster;        /* 1 - candidate / base at which "faster" */
	double detectable;           /* the larger of the two */
	/* Shift (rule shift): the Hodges-Lehmann shift, relative, with its
	 * exact interval and coverage, and the exact two-sided p. */
	int has_shift;
	double shift, shift_lo, shift_hi;
	double shift_level;          /* the interval's coverage */
	double p;                    /* two-sided p of no change */
	double p_min;                /* the smallest p these pads allow */
	size_t batches;              /* shift v4: the batches compared within (1: v3's test) */
	int control_outside;         /* the control's center lies outside the base's pads */
	int hot_remark;              /* identical hot code, not decisive (work not shown same) */
	/* Why insufficient (or unswept under shift): "" otherwise. */
	char why[160];
};

/*
 * Judge one benchmark.  Returns 0, or -1 when memory runs out (errno
 * ENOMEM) or the rule is invalid (EINVAL); the judgement is then
 * "insufficient" with why set.
 */
int stats_judge(const struct stats_rule *rule, const struct stats_judge_in *in,
		struct stats_judgement *out);

/*
 * The order-statistic interval of the median of n values: 1-based ranks
 * l <= u (u = n + 1 - l) of the largest l with P(Bin(n, 1/2) < l) <=
 * (1 - confidence) / 2, l = 1 when even the extremes fall short, and the
 * exact coverage 1 - 2 P(Bin(n, 1/2) < l).
 */
void stats_median_ranks(size_t n, double confidence, size_t *l, size_t *u, double *level);

/* A pad's median and interval; scratch holds n doubles. */
void stats_pad_interval(const double *values, size_t n, double confidence,
			double *scratch, struct stats_pad_interval *out);

/* Set out to "insufficient: out of memory" under rule; errno ENOMEM; -1. */
int stats_judge_oom(const struct stats_rule *rule, struct stats_judgement *out);

/*
 * The adaptive sweep's question (run.pads = auto, docs/verdict.md "The
 * adaptive sweep"): would more pads and rounds decide this judgement?
 * NULL when it is decided (slower, faster, placement by hot-code identity,
 * placement where the pad medians themselves overlap, a side missing);
 * else why not, a static phrase:
 *   noisy                         "ranges apart by no more than the noise"
 *   unswept                       "too few pads for the confidence level"
 *   placement, pad medians apart  "pad intervals too wide (the pad medians are apart)"
 *   insufficient, few rounds      "a pad has too few rounds"
 */
const char *stats_undecided(const struct stats_judgement *jd);

/*
 * The adaptive sweep's looks (docs/verdict.md, "Looks"): it judges after
 * start pads and after every step up to max, so 1 + ceil((max - start) /
 * step) looks, 1 when max <= start.  Each look is judged at
 * 1 - (1 - confidence) / looks (Bonferroni), to six decimals (0.9975):
 * the level the bundle records.
 */
unsigned stats_sweep_looks(unsigned start, unsigned step, unsigned max);
double stats_confidence_per_look(double confidence, unsigned looks);

/* "too noisy"-style phrase of a reason, for reports ("" for NONE). */
const char *stats_reason_name(enum stats_reason r);

#endif
