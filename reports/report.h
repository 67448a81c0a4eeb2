/*
 * reports/report.h: the comparison model behind `plumb report` (DESIGN
 * §10) and the stage functions that build, render and write it.
 *
 * A report compares two sides of one benchmark set:
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
 *
 * To add a report format (`plumb report --format NAME`; what the build
 * and the tests demand):
 *   1. its value in enum report_format below and its name at the same
 *      place in format_names[] (reports/report.c: nothing checks that the
 *      two agree);
 *   2. its renderer, reports/<name>.c, declared below beside
 *      report_text(), and its line in reports/local.am; tables through
 *      common/table.h, pictures through reports/svg.c (t0008);
 *   3. its case in report_render() (reports/report.c) and in the trend's
 *      render_one() (reports/trend.c): -Wswitch names both, and a build
 *      with --enable-werror fails without them;
 *   4. its golden of every case: EXT:NAME in the format lists of
 *      t2010-report-golden.sh and tests/fixtures/reports/update-expect.sh,
 *      whose run (update-expect.sh ./plumb) writes the
 *      tests/fixtures/reports/<case>/expect.EXT that t2010 compares.
 * No test reads the formats named in cli/cmd-report.c's --format help and
 * usage message, docs/plumb.1's `plumb report` section, or the subsets
 * --trend and --range take (cli/cmd-report.c, views/range.c).
 *
 * Ownership: struct report is caller-owned storage; report_compare()
 * fills it and report_release() frees what it allocated.  It borrows the
 * manifests, distributions and names it was built from (struct
 * report_side), which must outlive it.  struct report_source is
 * caller-owned storage filled by report_source_load() and freed by
 * report_source_release().
 */
#ifndef PLUMB_REPORTS_REPORT_H
#define PLUMB_REPORTS_REPORT_H

#include <stddef.h>

#include "common/err.h"
#include "formats/manifest.h"
#include "reports/hostdiff.h"
#include "stats/rule.h"

struct buf;
struct plumb_err;
struct report_dist;
struct report_dist_side;

/* Version of the JSON report layout (docs/report-json.md). */
#define REPORT_JSON_VERSION 1

/* Largest report any renderer produces: far beyond 50,000 benchmarks. */
#define REPORT_OUTPUT_MAX ((size_t)256 << 20)

/* Instruction counts within this fraction of each other are "the same". */
#define REPORT_SAME_WORK 0.005

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
 * Build the model: old against new.  kind says which comparison it is
 * (for REPORT_SELF old.m and new.m are the same manifest).  Fails only
 * when memory runs out; anything odd in the input becomes a note.
 */
int report_compare(struct report *r, enum report_kind kind,
		   const struct report_side *old, const struct report_side *new,
		   int force, struct plumb_err *err);

void report_release(struct report *r);

/*
 * Nonzero when b makes --fail-on fail: a verdict, shown, that trips that
 * mode (common/verdict.h), and, when the verdict has a p (shift rule),
 * a Holm-adjusted p (b->p_holm) of at most 1 - its rule's confidence.
 * Verdicts without a p (margin, overlap) gate by their verdict alone.
 */
int report_bench_fails(const struct report_bench *b, enum report_fail_on fail_on);

/* Nonzero when b's verdict trips fail_on but Holm's adjustment holds it back. */
int report_bench_held(const struct report_bench *b, enum report_fail_on fail_on);

/* Benchmarks that make --fail-on fail: count and, in names, a "a, b" list. */
size_t report_failing(const struct report *r, enum report_fail_on fail_on,
		      struct buf *names);

/* Benchmarks whose candidate failed (a --keep-going bundle): count and names. */
size_t report_failed(const struct report *r, struct buf *names);

/* Renderers: append the report in one format to out. */
int report_text(const struct report *r, int color, struct buf *out,
		struct plumb_err *err);
int report_markdown(const struct report *r, struct buf *out,
		    struct plumb_err *err);
int report_json(const struct report *r, const struct report_opts *o,
		struct buf *out, struct plumb_err *err);
int report_html(const struct report *r, struct buf *out,
		struct plumb_err *err);
/* Exports (reports/export.c): CSV rows (formats/csv.h) and bencher's BMF. */
int report_csv(const struct report *r, struct buf *out, struct plumb_err *err);
int report_bmf(const struct report *r, struct buf *out, struct plumb_err *err);

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

/*
 * The stage `plumb run` calls at its end, and `plumb report` after loading:
 * compare old against new, render in o->format and append to out, and
 * fill *res.  Returns 0, or a negative code when nothing could be
 * rendered (then out and *res say nothing).  baseline is NULL for a
 * bundle against its own base.
 */
int report_render(const struct report_side *bundle,
		  const struct report_side *baseline,
		  const struct report_opts *o, struct buf *out,
		  struct report_result *res, struct plumb_err *err);

/* What a compared model means for the gate under fail_on (report_render()'s *res). */
void report_result_of(const struct report *r, enum report_fail_on fail_on,
		      struct report_result *res);

/* Write a rendered report to path atomically (common/fileio.h), or to stdout for NULL. */
int report_write(const struct buf *text, const char *path,
		 struct plumb_err *err);

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

void report_source_init(struct report_source *s);
void report_source_release(struct report_source *s);

/*
 * Load what path names: a bundle file (verified completely first), a
 * folder (an unpacked bundle: checked against its SHA256SUMS when it has
 * one, else unverified; its samples.tsv, when present, checked against
 * the manifest as a bundle's are), or a bare manifest.json (unverified).  Errors are PLUMB_EINPUT naming path (and the member,
 * JSON path or TSV line).
 */
int report_source_load(struct report_source *s, const char *path,
		       struct plumb_err *err);

/*
 * Find what a command line names: an existing path (a bundle file, a
 * folder or a manifest.json: report_source_load()), else, in the archive
 * in dir (NULL: the default archive), a baseline name when baseline is
 * set (its recorded side), else an archived bundle id or unique prefix of
 * at least 4 hex digits (its candidate side).  Nothing found is
 * PLUMB_EINPUT naming what.
 */
int report_source_find(struct report_source *s, const char *what,
		       const char *dir, int baseline, struct plumb_err *err);

/* The report_side view of a loaded source (its candidate side unless told). */
void report_source_side(const struct report_source *s, enum manifest_side side,
			struct report_side *out);

/* The report_side of a manifest held elsewhere (verified, no baseline, no
 * distributions): bundle is its id, origin the path it was written to. */
void report_side_of(const struct manifest *m, enum manifest_side side, const char *bundle,
		    const char *origin, struct report_side *out);

/* Names of formats and fail-on values as the command line spells them. */
int report_format_parse(const char *s, enum report_format *out);
int report_fail_on_parse(const char *s, enum report_fail_on *out);
const char *report_format_name(enum report_format f);
/* "slower", "any", "noisy", or NULL for REPORT_FAIL_NEVER. */
const char *report_fail_on_name(enum report_fail_on f);

/*
 * GitHub Actions (reports/github.c).  report_github_escape() appends s
 * escaped as a workflow command's message (property 0) or property value
 * (property 1), after esc_text.  report_github() appends an ::error line
 * per failed benchmark and per one that fails --fail-on slower (Holm's
 * adjustment included), a ::warning line per one that the adjustment
 * holds back and per noisy one.  report_github_render() compares as
 * report_render() does (the gate fail_on stated in the Markdown) and
 * appends the Markdown report to md and the annotations to notes.
 */
int report_github_escape(struct buf *out, const char *s, int property);
int report_github(const struct report *r, struct buf *out, struct plumb_err *err);
int report_github_render(const struct report_side *bundle, const struct report_side *baseline,
			 int force, enum report_fail_on fail_on, struct buf *md, struct buf *notes,
			 struct plumb_err *err);

#endif
