/*
 * reports/model.h: the models every renderer reads, and nothing else: no
 * .c file owns this header, so a file that includes it depends on no
 * other file of reports/ for it.  The functions that build, judge and
 * render the models are declared by the headers of the files that
 * define them: report_compare() in reports/compare.h, the gate in
 * reports/gate.h, the renderers in reports/renderers.h, the stage
 * report_render() in reports/report.h.
 *
 * struct report compares two sides of one benchmark set:
 *   - a bundle's candidate against its own base (the same job), or
 *   - a bundle's candidate against a baseline's recorded side (another
 *     bundle: a file, a folder holding manifest.json, an archived bundle
 *     id, or a named baseline of the archive).
 * "old" is the base or the baseline, "new" is the bundle's candidate.
 * Per benchmark the model holds both sides' centers, ranges and spreads,
 * the ratio, the verdict (the rule of stats/, DESIGN §6), the control's
 * noise, hot-code identity, checksum agreement, instructions beside
 * cycles, and for samples mode the steady state, p99 and co_p99.  The
 * host facts of both sides are compared (reports/hostdiff.h); when they
 * are not comparable every verdict is withheld unless forced.
 *
 * Everything the renderers print comes from this model, so text,
 * Markdown, JSON and HTML cannot disagree.  Strings in the model are the
 * bundle's own and hostile: every renderer escapes them for its format.
 * Beside it: a point of a trend series (reports/trend.h) and the range
 * report (reports/range.h), which the SVG module draws too.
 *
 * Ownership: struct report is caller-owned storage; report_compare()
 * fills it and report_release() frees what it allocated.  It borrows the
 * manifests, distributions and names it was built from (struct
 * report_side), which must outlive it.  struct report_source is
 * caller-owned storage filled by report_source_load() and freed by
 * report_source_release() (reports/source.h).  struct range_report is
 * caller-owned storage filled by range_report_build() and freed by
 * range_report_release(); it borrows the sources (and their manifests),
 * which must outlive it.  A trend_point borrows its strings from the
 * series' model.
 */
#ifndef PLUMB_REPORTS_MODEL_H
#define PLUMB_REPORTS_MODEL_H

#include <stddef.h>

#include "common/err.h"
#include "formats/manifest.h"
#include "formats/manifest-range.h"
#include "reports/hostdiff.h"
#include "stats/rule.h"

struct report_dist;
struct report_dist_side;

/* Largest report any renderer produces: far beyond 50,000 benchmarks. */
#define REPORT_OUTPUT_MAX ((size_t)256 << 20)

/* The formats of `plumb report --format`: to add one, the checklist at
 * the top of reports/report.h. */
enum report_format {
	REPORT_TEXT,
	REPORT_MARKDOWN,
	REPORT_HTML,
	REPORT_JSON,
	REPORT_CSV,           /* data for other tools (reports/export.c) */
	REPORT_BMF
};

enum report_fail_on {
	REPORT_FAIL_NEVER,
	REPORT_FAIL_SLOWER,   /* any swept `slower` */
	REPORT_FAIL_ANY,      /* any swept `slower` or `faster` */
	REPORT_FAIL_NOISY,    /* any swept `slower` or `noisy` (too noisy to tell) */
	REPORT_FAIL_CHANGE    /* trends only: the latest nights start a change point */
};

enum report_kind {
	REPORT_SELF,          /* candidate against base, one job */
	REPORT_BASELINE       /* candidate against a baseline's side */
};

/* One side of the comparison: which manifest, which of its sides. */
struct report_side {
	const struct manifest *m;      /* borrowed, never NULL */
	enum manifest_side side;       /* MANIFEST_SIDE_BASE or _CANDIDATE */
	const char *bundle;            /* bundle id, or NULL (a folder) */
	const char *origin;            /* what was named: path, id, or NULL */
	const char *baseline;          /* baseline name, or NULL */
	const struct report_dist *dist;/* per-pad distributions, or NULL */
	int unverified;                /* a folder without SHA256SUMS, or a bare manifest */
	/* The new side only, or NULL: its benchmarks' hot code against the old
	 * side's as the job that wrote it compared them (a range job's commit
	 * against its parent, reports/range.h); NULL for a benchmark it did not.
	 * Without it, a baseline comparison compares the recorded SHA-256s. */
	const struct manifest_hot *(*hot_vs_old)(const void *ctx, const char *bench);
	const void *hot_ctx;
};

/* Hot-code identity of one symbol, old against new at the same pad. */
struct report_hot {
	const char *name;              /* borrowed from a manifest */
	int identical;                 /* byte for byte */
	int same_code;                 /* identical, or identical except the
	                                  addresses of moved data it refers to */
};

struct report_bench {
	const char *name;              /* borrowed; the new side's */
	enum manifest_mode mode;
	enum metric_id metric;
	const char *failure;           /* new side's failure, or NULL */
	const char *old_failure;       /* baseline's failure, or NULL */
	const char *missing;           /* why there is no comparison, or NULL (static) */
	const struct manifest_side_stats *old, *new;  /* NULL when not compared */
	const struct manifest_side_stats *control;    /* the new job's control, or NULL */
	double ratio;                  /* new center / old center; NAN when unknown */
	enum verdict verdict; /* UNSET when not compared */
	enum manifest_direction direction;  /* for unswept */
	int withheld;                  /* host not comparable, not forced */
	/* The rule that judged (stats/rule.h), and what it found beyond the verdict. */
	struct stats_rule rule;
	const char *reason;            /* why the verdict (static or borrowed), or NULL */
	double ratio_lo, ratio_hi;     /* the ratio's interval; NAN when unknown */
	double detect_slower, detect_faster;  /* smallest change called; NAN unknown */
	double noise_rounds, noise_control, margin, gap;  /* margin rule; NAN unknown */
	/* Shift rule (has_shift): the Hodges-Lehmann shift of the pad medians,
	 * relative, its exact interval and that interval's coverage, the exact
	 * two-sided p and the least p these pads allow (stats/shift.h). */
	int has_shift;
	double shift, shift_lo, shift_hi, shift_level, p, p_min;
	/* p adjusted by Holm's step-down method over the report's benchmarks
	 * with a p (report_compare(); the --fail-on gate); NAN without a p. */
	double p_holm;
	int hot_decided;               /* placement because the hot code is identical (and,
	                                  under shift, the same work was shown) */
	enum stats_work work;          /* benches[].work: whether the run showed the same
	                                  work (shift: identity decides only with SAME) */
	int control_outside;           /* shift: the control's center lies outside the base's pads */
	char why[160];                 /* why unswept or insufficient, in the rule's words; "" */
	/* Noise: the rule's figure (margin), or the control's distance (overlap). */
	double noise;                  /* relative; NAN when not measured */
	int noisy;                     /* the host is too noisy for this benchmark */
	/* Hot code: -1 unknown, 0 changed, 1 identical (every symbol), 2 the same
	 * code with some displacements to moved data differing. */
	int hot_identical;
	struct report_hot *hot;
	size_t n_hot;
	/* Checksum: NULL when not recorded. */
	const char *ck_old, *ck_new;
	int ck_consistent;             /* MANIFEST_UNKNOWN, 0, 1 */
	int behaviour_changed;         /* both recorded and they differ */
	/* Counters: ratios new / old; NAN when either side lacks them. */
	double instr_ratio, cycles_ratio;
	/* Samples mode: the new side's steady-state detector, or NULL. */
	const struct manifest_steady *steady;
	/* Per-pad distributions and values per round (from samples.tsv), or
	 * NULL; dist_control only in a bundle against its own base. */
	const struct report_dist_side *dist_old, *dist_new, *dist_control;
	/* Remarks, one line each, in a fixed order (model-generated, then
	 * the bundle's own benches[].notes); every renderer prints them. */
	char **notes;
	size_t n_notes;
	/* Simulated counts (reports/simulated.c); present 0 when not counted. */
	struct report_sim {
		int present;
		const char *source;        /* "valgrind-cachegrind"; borrowed */
		int deterministic;         /* the two runs of pad 0 agreed */
		int same_work;             /* instructions equal at every pad (against a
		                              baseline: within SIM_SAME_WORK of each other) */
		double instr_old, instr_new;        /* vg-instructions centers; NAN unknown */
		double cost_old, cost_new;          /* cachesim centers */
		double cost_spread_old, cost_spread_new;  /* (max - min) / center over pads */
	} sim;
};

/* Counts by verdict, for the summary line and --fail-on. */
struct report_counts {
	size_t verdict[VERDICT_COUNT];   /* by enum verdict; [VERDICT_UNSET] unused */
	size_t failed, missing, withheld;
};

struct report {
	enum report_kind kind;
	struct report_side old, new;   /* copies of what report_compare() was given */
	const char *old_role;          /* "base" or "baseline" (static) */
	const char *new_role;          /* "candidate" (static) */
	const struct manifest_commit *old_commit, *new_commit;  /* borrowed */
	struct hostdiff host;
	int forced;                    /* --force given */
	int withheld;                  /* verdicts withheld (not comparable, not forced) */
	struct report_bench *benches;
	size_t n_benches;
	struct report_counts counts;
	/* Holm's family: the benchmarks shown with a p (judged by the shift
	 * rule); their p_holm are adjusted over this many. */
	size_t holm_n;
	/* The gate the report is rendered for (report_render() sets it; the
	 * renderers state the adjustment under it); REPORT_FAIL_NEVER. */
	enum report_fail_on fail_on;
};

/* Options of one rendering. */
struct report_opts {
	enum report_format format;
	int color;                     /* text only: ANSI colours */
	int force;                     /* compare hosts that are not comparable */
	enum report_fail_on fail_on;
};

/*
 * What a rendered report found, besides its text: results, not errors
 * (STYLE 20).  cli/ turns them into exit statuses.
 */
struct report_result {
	int withheld;            /* hosts not comparable: verdicts withheld */
	size_t failon_matched;   /* benchmarks with a verdict o->fail_on asked for */
	/* "hosts not comparable: ...; verdicts withheld, --force compares
	   anyway" or "2 benchmarks slower (--fail-on slower): a, b"; "" when
	   neither */
	char message[PLUMB_ERR_MAX];
	size_t failed;           /* benchmarks whose candidate failed (--keep-going) */
	/* the verdict line: "3 benchmarks: 1 slower, 2 unswept" (phrase_summary) */
	char summary[PLUMB_ERR_MAX];
};

/* What `plumb report` was given: a bundle file, a folder, an id, a name. */
struct report_source {
	struct manifest m;
	char *bundle;                  /* bundle id (hex), or NULL for a folder */
	char *origin;                  /* the path or id as named */
	char *baseline;                /* the baseline's name, or NULL */
	enum manifest_side side;       /* the side a baseline names (candidate by default) */
	struct report_dist *dist;      /* per-pad distributions, or NULL */
	int want_dist;                 /* read samples.tsv for them (default 1; HTML and Markdown show them) */
	int unverified;                /* no SHA256SUMS checked its members */
};

/* One point of a series: one archived bundle's candidate. */
struct trend_point {
	const char *bundle, *ref, *commit, *time, *verdict;  /* borrowed, may be NULL */
	const char *created;  /* when the bundle was made (the run), borrowed, may be NULL */
	double center, min, max, spread, ratio;              /* NAN when unknown */
	int shift;        /* +1: range wholly above the previous point's; -1 below; 0 */
	int change;       /* +1: the first point after a change point up; -1 down; 0 */
	double change_ratio; /* that change's size (after / before); 0 without one */
	int change_host;  /* that change moved no code: the same commit either side (never gates) */
};

/* The range report (reports/range.h): one row per commit of the job. */
struct range_row {
	const struct report_source *src;  /* borrowed */
	struct manifest_range rg;         /* its range member */
	struct report vs_base;            /* the commit against A (its own job) */
	struct report vs_parent;          /* against the commit before it (row 0: A) */
	int have_base, have_parent;       /* built (released by range_report_release()) */
	struct manifest_hot *hot;         /* per benchmark of the bundle: range.hot's entry */
	size_t n_hot;
};

struct range_report {
	const char *id, *spec;            /* borrowed from row 0 */
	long long step, total;
	const char *base_commit;          /* A */
	struct range_row *rows;           /* by range.index */
	size_t n;
};

#endif
