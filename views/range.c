/*
 * views/range.c: the range report's renderers (views/range.h).  Every
 * format reads the same model (reports/model.h, built by reports/range.h),
 * so they cannot disagree:
 * per benchmark, A's center and range, then per commit its center and
 * range over pads, the ratio and verdict against A, the ratio and verdict
 * against its parent, and its hot code against the parent's.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/metric.h"
#include "common/table.h"
#include "common/units.h"
#include "formats/jsonio.h"
#include "reports/html-page.h"
#include "reports/range.h"
#include "reports/render.h"
#include "reports/source.h"
#include "reports/words.h"
#include "views/range.h"
#include "common/banned.h"

/* One commit's figures for one benchmark. */
struct cell {
	const struct report_bench *vb, *vp;   /* against A, against the parent; NULL: absent */
	const struct manifest_side_stats *s;  /* the commit's side, or NULL */
};

static void cell_of(const struct range_row *row, const char *name, struct cell *c)
{
	c->vb = range_bench(&row->vs_base, name);
	c->vp = range_bench(&row->vs_parent, name);
	c->s = c->vb ? c->vb->new : NULL;
}

static const char *short_id(const char *commit, char out[13])
{
	snprintf(out, 13, "%s", commit ? commit : "");
	return out;
}

/* The benchmarks of the report: those of the first commit's bundle. */
static size_t n_benches(const struct range_report *r)
{
	return r->rows[0].vs_base.n_benches;
}

static const struct report_bench *bench_at(const struct range_report *r, size_t i)
{
	return &r->rows[0].vs_base.benches[i];
}

static void value(double v, enum metric_id m, char out[UNITS_MAX])
{
	if (isnan(v))
		snprintf(out, UNITS_MAX, "-");
	else
		units_value(v, metric_dim(m), 1, out);
}

static void ratio(double v, char out[UNITS_MAX])
{
	if (isnan(v))
		snprintf(out, UNITS_MAX, "-");
	else
		units_ratio(v, out);
}

static int header_line(const struct range_report *r, struct buf *out, int md)
{
	char a[13];

	if (md) {
		if (buf_addstr(out, "# Range ") < 0 || esc_md(out, r->spec) < 0)
			return -1;
	} else if (buf_addstr(out, "range ") < 0 || esc_text(out, r->spec) < 0) {
		return -1;
	}
	return buf_printf(out, "%s: %zu commit%s measured of %lld (step %lld) against %s, job %s\n",
			  md ? "\n\n" : "", r->n, r->n == 1 ? "" : "s", r->total, r->step,
			  short_id(r->base_commit, a), r->id);
}

/* The text table's columns: their least widths and the spaces before each. */
static const size_t text_min[8] = { 3, 12, 10, 23, 22, 22, 9, 0 };
static const size_t text_gap[8] = { 0, 1, 2, 2, 2, 2, 2, 2 };

int range_text(const struct range_report *r, struct buf *out, struct plumb_err *err)
{
	int rc = header_line(r, out, 0);

	for (size_t i = 0; rc == 0 && i < n_benches(r); i++) {
		const struct report_bench *b0 = bench_at(r, i);
		const struct manifest_side_stats *a = b0->old;
		char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX], id[13];
		struct table t;

		rc |= buf_addstr(out, "\nbench ") < 0 || esc_text(out, b0->name) < 0;
		rc |= buf_printf(out, " (%s)\n", metric_table[b0->metric].name) < 0;
		table_init(&t, 8, "llrlllll");
		t.min = text_min;
		t.gap = text_gap;
		t.indent = 2;
		table_row(&t, "#", "commit", "center", "range over pads", "vs A", "vs parent", "hot code",
			  "subject");
		if (a) {
			value(a->center, b0->metric, c);
			value(a->min, b0->metric, lo);
			value(a->max, b0->metric, hi);
			char range[2 * UNITS_MAX + 8];
			snprintf(range, sizeof(range), "[%s, %s]", lo, hi);
			table_row(&t, "A", short_id(r->base_commit, id), c, range, "", "", "",
				  r->rows[0].src->m.repo.base.subject ? r->rows[0].src->m.repo.base.subject : "");
		}
		for (size_t k = 0; rc == 0 && k < r->n; k++) {
			const struct range_row *row = &r->rows[k];
			struct cell ce;
			char rb[UNITS_MAX], rp[UNITS_MAX], vsa[2 * UNITS_MAX + 16], vsp[2 * UNITS_MAX + 16], range[2 * UNITS_MAX + 8], idx[24];
			cell_of(row, b0->name, &ce);
			value(ce.s ? ce.s->center : NAN, b0->metric, c);
			value(ce.s ? ce.s->min : NAN, b0->metric, lo);
			value(ce.s ? ce.s->max : NAN, b0->metric, hi);
			snprintf(range, sizeof(range), "[%s, %s]", lo, hi);
			ratio(ce.vb ? ce.vb->ratio : NAN, rb);
			ratio(ce.vp ? ce.vp->ratio : NAN, rp);
			snprintf(vsa, sizeof(vsa), "%s %s", rb, ce.vb ? render_verdict_word(ce.vb) : "absent");
			snprintf(vsp, sizeof(vsp), "%s %s", rp, ce.vp ? render_verdict_word(ce.vp) : "absent");
			snprintf(idx, sizeof(idx), "%zu", k + 1);
			table_row(&t, idx, short_id(row->src->m.repo.candidate.commit, id), c, range, vsa,
				  vsp, range_hot_word(ce.vp ? ce.vp->hot_identical : -1),
				  row->src->m.repo.candidate.subject ? row->src->m.repo.candidate.subject : "");
		}
		rc |= table_render(&t, out) < 0;
		table_release(&t);
	}
	return rc ? buf_err(err, "range report") : 0;
}

int range_markdown(const struct range_report *r, struct buf *out, struct plumb_err *err)
{
	int rc = header_line(r, out, 1);

	for (size_t i = 0; rc == 0 && i < n_benches(r); i++) {
		const struct report_bench *b0 = bench_at(r, i);
		const struct manifest_side_stats *a = b0->old;
		char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX], id[13];

		rc |= buf_addstr(out, "\n## ") < 0 || esc_md(out, b0->name) < 0;
		rc |= buf_printf(out, " (%s)\n\n| # | commit | center | range over pads | vs A | vs parent | hot code | subject |\n"
				 "|---|---|---:|---|---|---|---|---|\n", metric_table[b0->metric].name) < 0;
		if (a) {
			value(a->center, b0->metric, c);
			value(a->min, b0->metric, lo);
			value(a->max, b0->metric, hi);
			rc |= buf_printf(out, "| A | `%s` | %s | [%s, %s] | | | | ", short_id(r->base_commit, id),
					 c, lo, hi) < 0;
			rc |= esc_md(out, r->rows[0].src->m.repo.base.subject ? r->rows[0].src->m.repo.base.subject : "") < 0;
			rc |= buf_addstr(out, " |\n") < 0;
		}
		for (size_t k = 0; rc == 0 && k < r->n; k++) {
			const struct range_row *row = &r->rows[k];
			struct cell ce;
			char rb[UNITS_MAX], rp[UNITS_MAX];
			cell_of(row, b0->name, &ce);
			value(ce.s ? ce.s->center : NAN, b0->metric, c);
			value(ce.s ? ce.s->min : NAN, b0->metric, lo);
			value(ce.s ? ce.s->max : NAN, b0->metric, hi);
			ratio(ce.vb ? ce.vb->ratio : NAN, rb);
			ratio(ce.vp ? ce.vp->ratio : NAN, rp);
			rc |= buf_printf(out, "| %zu | `%s` | %s | [%s, %s] | %s %s | %s %s | %s | ", k + 1,
					 short_id(row->src->m.repo.candidate.commit, id), c, lo, hi,
					 rb, ce.vb ? render_verdict_word(ce.vb) : "absent",
					 rp, ce.vp ? render_verdict_word(ce.vp) : "absent",
					 range_hot_word(ce.vp ? ce.vp->hot_identical : -1)) < 0;
			rc |= esc_md(out, row->src->m.repo.candidate.subject ? row->src->m.repo.candidate.subject : "") < 0;
			rc |= buf_addstr(out, " |\n") < 0;
		}
	}
	return rc ? buf_err(err, "range report") : 0;
}

static json_t *side_json(const struct manifest_side_stats *s)
{
	if (!s)
		return json_null();
	return json_pack("{s:o, s:o, s:o}", "center", jsonio_real(s->center), "min", jsonio_real(s->min),
			 "max", jsonio_real(s->max));
}

static json_t *verdict_json(const struct report_bench *b)
{
	if (!b)
		return json_null();
	return json_pack("{s:o, s:s}", "ratio", jsonio_real(b->ratio), "verdict", render_verdict_word(b));
}

int range_json(const struct range_report *r, struct buf *out, struct plumb_err *err)
{
	json_t *root, *benches;
	int rc = 0;

	root = json_pack("{s:i, s:s, s:s, s:I, s:I, s:I, s:{s:s}}", "rangeReport", RANGE_JSON_VERSION,
			 "id", r->id, "spec", r->spec, "step", (json_int_t)r->step,
			 "total", (json_int_t)r->total, "count", (json_int_t)r->n,
			 "base", "commit", r->base_commit);
	benches = json_array();
	if (!root || !benches || json_object_set_new(root, "benches", benches) < 0) {
		json_decref(root);
		return plumb_err_oom(err, "range report");
	}
	for (size_t i = 0; rc == 0 && i < n_benches(r); i++) {
		const struct report_bench *b0 = bench_at(r, i);
		json_t *commits = json_array();
		json_t *bj = json_pack("{s:s, s:s, s:s, s:o, s:o}", "name", b0->name,
				       "metric", metric_table[b0->metric].name,
				       "unit", metric_table[b0->metric].unit,
				       "base", side_json(b0->old), "commits", commits ? commits : json_null());
		if (!bj || !commits || json_array_append_new(benches, bj) < 0) {
			rc = -1;
			break;
		}
		for (size_t k = 0; rc == 0 && k < r->n; k++) {
			const struct range_row *row = &r->rows[k];
			const struct manifest *m = &row->src->m;
			struct cell ce;
			cell_of(row, b0->name, &ce);
			json_t *cj = json_pack("{s:I, s:s, s:s, s:s?, s:o, s:o, s:{s:s, s:o, s:s}, s:s}",
					       "index", (json_int_t)k, "commit", m->repo.candidate.commit,
					       "subject", m->repo.candidate.subject ? m->repo.candidate.subject : "",
					       "bundle", row->src->bundle,
					       "side", side_json(ce.s), "vsBase", verdict_json(ce.vb),
					       "vsParent", "commit", row->rg.parent,
					       "ratio", jsonio_real(ce.vp ? ce.vp->ratio : NAN),
					       "verdict", ce.vp ? render_verdict_word(ce.vp) : "absent",
					       "hotVsParent", range_hot_word(ce.vp ? ce.vp->hot_identical : -1));
			if (!cj || json_array_append_new(commits, cj) < 0)
				rc = -1;
		}
	}
	if (rc == 0)
		rc = jsonio_dump(root, out, err);
	else
		rc = plumb_err_oom(err, "range report");
	json_decref(root);
	if (rc == 0 && buf_addch(out, '\n') < 0)
		rc = buf_err(err, "range report");
	return rc;
}

/* A badge's class for a verdict word ("not compared" has none). */
static const char *badge_class(const char *word)
{
	return strchr(word, ' ') ? "none" : word;
}

int range_html(const struct range_report *r, struct buf *out, struct plumb_err *err)
{
	char title[128];
	int rc;

	snprintf(title, sizeof(title), "plumb range report %s", r->id);
	rc = html_begin_style(out, title, "svg.chart circle{stroke:var(--bg)}") < 0;
	rc |= buf_addstr(out, "<h1>Range ") < 0 || esc_html(out, r->spec) < 0;
	rc |= buf_printf(out, "</h1>\n<p>%zu commit%s measured of %lld (step %lld) against A = ",
			 r->n, r->n == 1 ? "" : "s", r->total, r->step) < 0;
	rc |= html_commit(out, r->base_commit) < 0;
	rc |= buf_addstr(out, ", job <code>") < 0 || esc_html(out, r->id) < 0;
	rc |= buf_addstr(out, "</code>; every commit was measured in the same rounds.</p>\n") < 0;
	for (size_t i = 0; rc == 0 && i < n_benches(r); i++) {
		const struct report_bench *b0 = bench_at(r, i);
		const struct manifest_side_stats *a = b0->old;
		char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];

		const char *word = range_bench_word(r, b0->name);
		rc |= buf_printf(out, "<section class=\"bench\" id=\"bench-%zu\">\n<h2>", i + 1) < 0 ||
		      esc_html(out, b0->name) < 0;
		rc |= buf_printf(out, " <span class=\"meta\">(%s)</span> ", metric_table[b0->metric].name) < 0;
		rc |= html_badge(out, badge_class(word), word) < 0 || buf_addstr(out, "</h2>\n") < 0;
		rc |= buf_addstr(out, "<figure>\n") < 0 || svg_range(out, r, b0) < 0;
		rc |= buf_addstr(out, "<figcaption>each commit's range over pads (bar) and center (dot), A first; "
				 "red: slower than A, green: faster</figcaption>\n</figure>\n") < 0;
		/* The verdicts first, on a phone's first screen without scrolling. */
		rc |= buf_addstr(out, "<div class=\"scroll\"><table>\n<thead><tr><th>#</th><th>vs A</th><th>vs parent</th>"
				 "<th>commit</th><th>center</th><th>range over pads</th><th>hot code vs parent</th>"
				 "<th>subject</th></tr></thead>\n<tbody>\n") < 0;
		if (a) {
			value(a->center, b0->metric, c);
			value(a->min, b0->metric, lo);
			value(a->max, b0->metric, hi);
			rc |= buf_addstr(out, "<tr><td>A</td><td></td><td></td><td class=\"key\">") < 0 ||
			      html_commit(out, r->base_commit) < 0;
			rc |= buf_printf(out, "</td><td class=\"num\">%s</td><td class=\"num\">[%s, %s]</td>"
					 "<td></td><td>", c, lo, hi) < 0;
			rc |= esc_html(out, r->rows[0].src->m.repo.base.subject ? r->rows[0].src->m.repo.base.subject : "") < 0;
			rc |= buf_addstr(out, "</td></tr>\n") < 0;
		}
		for (size_t k = 0; rc == 0 && k < r->n; k++) {
			const struct range_row *row = &r->rows[k];
			struct cell ce;
			char rb[UNITS_MAX], rp[UNITS_MAX];
			cell_of(row, b0->name, &ce);
			value(ce.s ? ce.s->center : NAN, b0->metric, c);
			value(ce.s ? ce.s->min : NAN, b0->metric, lo);
			value(ce.s ? ce.s->max : NAN, b0->metric, hi);
			ratio(ce.vb ? ce.vb->ratio : NAN, rb);
			ratio(ce.vp ? ce.vp->ratio : NAN, rp);
			const char *wb = ce.vb ? render_verdict_word(ce.vb) : "absent";
			const char *wp = ce.vp ? render_verdict_word(ce.vp) : "absent";
			rc |= buf_printf(out, "<tr><td>%zu</td><td class=\"num\">%s ", k + 1, rb) < 0;
			rc |= html_badge(out, badge_class(wb), wb) < 0;
			rc |= buf_printf(out, "</td><td class=\"num\">%s ", rp) < 0 || html_badge(out, badge_class(wp), wp) < 0;
			rc |= buf_addstr(out, "</td><td class=\"key\">") < 0 ||
			      html_commit(out, row->src->m.repo.candidate.commit) < 0;
			rc |= buf_printf(out, "</td><td class=\"num\">%s</td><td class=\"num\">[%s, %s]</td><td>%s</td><td>",
					 c, lo, hi, range_hot_word(ce.vp ? ce.vp->hot_identical : -1)) < 0;
			rc |= esc_html(out, row->src->m.repo.candidate.subject ? row->src->m.repo.candidate.subject : "") < 0;
			rc |= buf_addstr(out, "</td></tr>\n") < 0;
		}
		rc |= buf_addstr(out, "</tbody>\n</table></div>\n</section>\n") < 0;
	}
	rc |= html_end(out) < 0;
	return rc ? buf_err(err, "range report") : 0;
}

int range_render(const struct range_report *r, enum report_format f, struct buf *out,
		 struct plumb_err *err)
{
	switch (f) {
	case REPORT_TEXT: return range_text(r, out, err);
	case REPORT_MARKDOWN: return range_markdown(r, out, err);
	case REPORT_JSON: return range_json(r, out, err);
	case REPORT_HTML: return range_html(r, out, err);
	default:
		return plumb_err_set(err, PLUMB_EARG, "--range: --format %s is not a range report format "
				     "(text, md, html or json)", report_format_name(f));
	}
}

int range_render_paths(const char *const *paths, size_t n, const char *dir,
		       enum report_format f, int force, struct buf *out, struct plumb_err *err)
{
	struct report_source *srcs = calloc(n ? n : 1, sizeof(*srcs));
	const struct report_source **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	struct range_report rr;
	size_t loaded = 0;
	int rc = 0;

	memset(&rr, 0, sizeof(rr));
	if (!srcs || !ptrs) {
		rc = plumb_err_oom(err, "range report");
		goto out;
	}
	if (f != REPORT_TEXT && f != REPORT_MARKDOWN && f != REPORT_JSON && f != REPORT_HTML) {
		rc = range_render(&rr, f, out, err);
		goto out;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		report_source_init(&srcs[i]);
		srcs[i].want_dist = 0;
		loaded++;
		rc = report_source_find(&srcs[i], paths[i], dir, 0, err);
		ptrs[i] = &srcs[i];
	}
	if (rc == 0)
		rc = range_report_build(&rr, ptrs, n, force, err);
	if (rc == 0)
		rc = range_render(&rr, f, out, err);
out:
	range_report_release(&rr);
	for (size_t i = 0; srcs && i < loaded; i++)
		report_source_release(&srcs[i]);
	free(srcs);
	free(ptrs);
	return rc;
}
