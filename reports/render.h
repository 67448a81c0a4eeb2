/*
 * reports/render.h: what the renderers share: every SVG picture plumb
 * draws (svg.c, the one SVG module: the report's charts, the trend, and
 * for views/ the range report's chart and the bisect's path) and the
 * phrases of every format (phrases.c).  The HTML page itself (head,
 * stylesheet, footer, badge) is reports/html-page.h, which pages outside
 * the report use too.
 * Escaping and numbers with units are common/escape.h and common/units.h.
 *
 * Ownership: every function appends to a caller's struct buf or writes
 * into a caller's fixed array; nothing here allocates memory that
 * outlives a call.
 */
#ifndef PLUMB_REPORTS_RENDER_H
#define PLUMB_REPORTS_RENDER_H

#include <stddef.h>

#include <jansson.h>

#include "common/escape.h"
#include "common/units.h"
#include "common/utf8.h"
#include "formats/manifest.h"
#include "reports/html-page.h"

struct buf;
struct plumb_err;
struct report;
struct report_bench;
struct report_dist;
struct report_side;
struct hostdiff_item;

/*
 * SVG charts, inline in the HTML page (no namespace attribute: the HTML
 * parser puts <svg> in the SVG namespace, so the page holds no URI).
 * svg_bench: each side's pad medians as points, its range as a bar, the
 * overlap of the two ranges shaded, the verdict as a label.
 * svg_dist: per-pad distributions of samples mode, one box per pad.
 */
int svg_bench(struct buf *out, const struct report *r,
	      const struct report_bench *b, size_t index);
int svg_dist(struct buf *out, const struct report *r,
	     const struct report_bench *b, size_t index);
/*
 * svg_strip: each pad's rounds as dots on a row, the pad's median as a
 * line; base, candidate and control in rows of their own (process mode).
 * svg_rounds: every pad's value per round as a line, placed where the
 * variant ran in run.order, with the load average of each round beneath:
 * drift, a warm-up left in or a noisy neighbour show.  Both scale the
 * axis to at least the noise the run measured and say when it does not
 * start at zero; both draw nothing without values per round.
 */
int svg_strip(struct buf *out, const struct report *r,
	      const struct report_bench *b, size_t index);
int svg_rounds(struct buf *out, const struct report *r,
	       const struct report_bench *b, size_t index);

/*
 * Phrases shared by the renderers (phrases.c), appended raw: they may quote
 * the bundle's strings, so the caller escapes them for its format.  Each
 * returns 0, or -1 when out is full.
 */
/* A side's center, range and spread: "101.2 ms (99.88–103.5, 3.58%)". */
int phrase_side(const struct report_bench *b, const struct manifest_side_stats *s,
		struct buf *out);

/*
 * A side's pad medians, pad 0 first, in the unit of the benchmark's base
 * center: "974.0, 981.3, 990.2, 1003 ms" (the text of the strip picture).
 */
int phrase_pads(const struct report_bench *b, const struct manifest_side_stats *s,
		struct buf *out);
/* A host finding: "kernel differs: a → b (start → end of the job)". */
int phrase_item(const struct report *r, const struct hostdiff_item *it,
		struct buf *out);
/* "not comparable" or "warning". */
const char *phrase_item_label(const struct hostdiff_item *it);
/* A host in one line: CPU model, CPUs, kernel, governor, turbo. */
int phrase_host(const json_t *facts, struct buf *out);
/* A commit: "v1.2.0 3f2a9c0d1e4b Release 1.2.0". */
int phrase_commit(const struct manifest_commit *c, struct buf *out);
/* "3 benchmarks: 1 faster, 1 placement, 1 failed" and the host's verdict. */
int phrase_summary(const struct report *r, struct buf *out);
/*
 * The adjustment --fail-on made (r->fail_on; Holm over the benchmarks with
 * a p): "--fail-on slower: Holm over 4 benchmarks at 1%: 1 fails the gate;
 * held back by the adjustment: b (adjusted p 0.013)"; "" when no gate was
 * asked for, or no benchmark has a p (margin, overlap: nothing adjusted).
 */
int phrase_gate(const struct report *r, struct buf *out);
/* Where a side was read from: "bundle <id> <path>". */
int phrase_source(const struct report_side *s, struct buf *out);
/* The change as a change of the metric: "11.8% slower", "3.05% faster"; "" unknown.
 * Under the shift rule the Hodges-Lehmann shift, else the ratio of the centers. */
int phrase_change(const struct report_bench *b, struct buf *out);
/* The same signed, one number: "+11.8%", "−3.05%". */
int phrase_change_signed(const struct report_bench *b, struct buf *out);
/* The pads compared: "8 pads a side", "8 pads on the base, 6 on the candidate". */
int phrase_pad_count(const struct report *r, const struct report_bench *b, struct buf *out);
/*
 * The effect a shift-rule report leads with: "+14.1% slower, 99% interval
 * +10.2% to +18.0%, 8 pads a side" ("slower"/"faster" only for those
 * verdicts); "" without a shift (margin and overlap keep their words).
 */
int phrase_effect(const struct report *r, const struct report_bench *b, struct buf *out);
/* The shift's figures for a remark: estimate, interval, coverage, p, the
 * least p, the minimum effect; "" without a shift. */
int phrase_shift_detail(const struct report_bench *b, struct buf *out);
/* The ratio's interval as changes: "+10.2% to +13.5%"; "" when not computed. */
int phrase_interval(const struct report_bench *b, struct buf *out);
/* The smallest detectable change, slower and faster: "+2.80% or −2.72%"; "" unknown. */
int phrase_detectable(const struct report_bench *b, struct buf *out);
/* The range a side was judged on, in one unit: "91.00–94.00 ms". */
int phrase_range(const struct report_bench *b, const struct manifest_side_stats *s,
		 struct buf *out);
/*
 * One sentence that explains b's verdict from its own numbers: "The
 * candidate's range 91.00–94.00 ms lies wholly above the base's
 * 81.20–84.10 ms: 11.8% slower."  Every verdict, failure and
 * withholding has its sentence.
 */
int phrase_explain(const struct report *r, const struct report_bench *b, struct buf *out);
/*
 * The run's configuration as key = value rows: the labels first ("label
 * purpose" = "release-notes"), then the recorded spec (run, build, each
 * bench with its command, hooks and params, repo, verdict) as plumb.conf
 * names them; unset keys are left out.  fn gets raw, untrusted strings
 * and returns 0 or -1; phrase_config() returns -1 when any call did.
 */
typedef int (*phrase_kv_fn)(void *ctx, const char *key, const char *value);
int phrase_config(const struct manifest *m, phrase_kv_fn fn, void *ctx);
/*
 * Parameter matrices (bench.NAME.params): a benchmark "zip/size=1M,level=1"
 * expanded from family "zip" records its combination in the spec as
 * params "size=1M;level=1".  phrase_bench_params() returns that string
 * (borrowed from m) or NULL; phrase_params_split() splits it into keys
 * and values, -1 when it is not such a list or exceeds the limits.
 */
#define PHRASE_PARAMS_MAX 8
struct phrase_params {
	size_t n;
	char key[PHRASE_PARAMS_MAX][64];
	char value[PHRASE_PARAMS_MAX][64];
};
const char *phrase_bench_params(const struct manifest *m, const char *name);
int phrase_params_split(const char *params, struct phrase_params *out);
/*
 * Each family of r with two or more members, in the order of its first:
 * name (name_len bytes of it: the part before '/'), the parameter names
 * (keys.key), and per member its index in r->benches and its values.
 * fn returns 0 or -1; so does phrase_families() (-1 also without memory).
 */
struct phrase_family {
	const char *name;
	size_t name_len;
	struct phrase_params keys;
	size_t *members;
	struct phrase_params *values;
	size_t n;
};
typedef int (*phrase_family_fn)(void *ctx, const struct report *r,
				const struct phrase_family *f);
int phrase_families(const struct report *r, phrase_family_fn fn, void *ctx);
/* The glossary every report ends with: *n terms, in a fixed order. */
struct phrase_term {
	const char *term, *text;
};
const struct phrase_term *phrase_glossary(size_t *n);

/*
 * svg_trend: a series over commits: each point's range as a vertical bar,
 * its center as a dot on a line, and the points whose range stops
 * overlapping the previous one's marked.  index numbers the chart on its
 * page (id "trend-chart-INDEX"): a page of several host classes holds one
 * chart a class, and ids must be unique.
 */
struct trend_point;
int svg_trend(struct buf *out, const char *bench, enum metric_id metric,
	      const struct trend_point *p, size_t n, size_t index);

/*
 * svg_range: the range report's chart of one benchmark b0 (views/range.c):
 * per commit, A first, its range over pads as a bar and its center as a
 * dot, coloured by its verdict against A.  Nothing without a range.
 */
struct range_report;
int svg_range(struct buf *out, const struct range_report *r, const struct report_bench *b0);
/*
 * svg_bisect: the path of a bisect (views/bisect.c), from its report
 * document (reports/bisect.h): the commits on an axis, one row per
 * comparison with its range shaded, its base a circle, its candidate a
 * square coloured by the call, and the culprit marked.
 */
int svg_bisect(struct buf *out, const json_t *doc);

/*
 * Simulated counts (simulated.c): fill b->sim from the bundles' Valgrind
 * members and say what they mean: which counters were used, instructions
 * base against candidate ("the same work" when equal), the simulated
 * cost's spread over pads, the time the valgrind runs added.
 */
int report_vg_attach(const struct report *r, struct report_bench *b,
		     const struct manifest_bench *mb, const struct manifest_bench *ob,
		     struct plumb_err *err);
/* Judge mb (and the baseline's ob, when given) as deterministic? */
int report_vg_deterministic(const struct manifest_bench *mb, const struct manifest_bench *ob);
/* b->sim as JSON (json_null() when absent); NULL when memory runs out. */
json_t *report_vg_json(const struct report_bench *b);

#endif
