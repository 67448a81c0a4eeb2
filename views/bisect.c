/*
 * views/bisect.c: `plumb bisect`'s output (views/bisect.h), every format
 * rendered from the one document of reports/bisect.c.
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
#include "reports/bisect.h"
#include "reports/html-page.h"
#include "reports/render.h"
#include "views/bisect.h"
#include "common/banned.h"

int view_bisect_format_parse(const char *s, enum view_bisect_format *out)
{
	static const char *const names[] = { "text", "md", "html", "json" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum view_bisect_format)i;
			return 0;
		}
	return -1;
}

static const char *sget(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static size_t iget(const json_t *o, const char *k)
{
	return (size_t)json_integer_value(json_object_get(o, k));
}

static const char *commit_of(const json_t *doc, size_t i)
{
	return sget(json_array_get(json_object_get(doc, "commits"), i), "commit");
}

/* The first 12 bytes of a commit id of the document, escaped by esc: bisect.json is untrusted. */
static int put_id(struct buf *out, int (*esc)(struct buf *, const char *), const char *commit)
{
	char id[13];

	snprintf(id, sizeof(id), "%s", commit);
	return esc(out, id);
}

/* A value of the benchmark's metric with its unit ("40.12 ms"). */
static void value_text(const json_t *doc, const json_t *v, char out[UNITS_MAX])
{
	enum metric_id m;

	if (!json_is_number(v)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	if (metric_parse(sget(doc, "metric"), &m) < 0)
		m = METRIC_WALL;
	units_value(json_number_value(v), metric_dim(m), 1, out);
}

/* "40.12 ms (39.98-40.30)" */
static int side_text(struct buf *out, const json_t *doc, const json_t *side)
{
	char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];

	if (!json_is_object(side))
		return buf_addstr(out, "n/a");
	value_text(doc, json_object_get(side, "center"), c);
	value_text(doc, json_object_get(side, "min"), lo);
	value_text(doc, json_object_get(side, "max"), hi);
	return buf_printf(out, "%s (%s-%s)", c, lo, hi);
}

static int ratio_text(const json_t *step, char out[UNITS_MAX])
{
	const json_t *r = json_object_get(step, "ratio");

	units_ratio(json_is_number(r) ? json_number_value(r) : NAN, out);
	return 0;
}

/* Totals line: "9 comparisons (at most 9 for 128 commits); builds: 4 built, 30 cached, 12.3 s; wall 1.5 min" */
static int totals(struct buf *b, const json_t *doc)
{
	const json_t *res = json_object_get(doc, "result"), *bl = json_object_get(res, "builds");
	char bt[UNITS_MAX], wt[UNITS_MAX];

	units_value((double)json_integer_value(json_object_get(bl, "buildNs")), UNITS_TIME_NS, 1, bt);
	units_value((double)json_integer_value(json_object_get(res, "wallNs")), UNITS_TIME_NS, 1, wt);
	return buf_printf(b, "%zu comparisons (at most %zu for %zu commits); builds: %zu built, %zu cached, %s; wall %s",
			  iget(res, "comparisons"), iget(res, "limit"),
			  json_array_size(json_object_get(doc, "commits")) - 1, iget(bl, "built"), iget(bl, "cached"),
			  bt, wt);
}

/* The steps' text table: least widths and one space between columns. */
static const size_t steps_min[8] = { 3, 12, 12, 12, 8, 23, 7, 0 };
static const size_t steps_gap[8] = { 0, 1, 1, 1, 1, 1, 1, 1 };

/*
 * The laid-out table appended to out, each step's line followed by its
 * "why" line (whys[i], escaped and indented, or NULL): the engine aligns
 * the rows, the notes go between them.
 */
static int steps_table(const struct table *t, const char *const *whys, struct buf *out)
{
	struct buf laid;
	const char *p, *nl;
	size_t row = 0;
	int r;

	buf_init(&laid, 1 << 24);
	r = table_render(t, &laid);
	for (p = buf_cstr(&laid); r == 0 && (nl = strchr(p, '\n')) != NULL; p = nl + 1, row++) {
		r |= buf_add(out, p, (size_t)(nl + 1 - p));
		if (row > 0 && whys[row - 1])
			r |= buf_addstr(out, "      ") | esc_text(out, whys[row - 1]) | buf_addstr(out, "\n");
	}
	buf_release(&laid);
	return r ? -1 : 0;
}

static int render_text(const json_t *doc, struct buf *out, int md)
{
	const json_t *steps = json_object_get(doc, "steps"), *res = json_object_get(doc, "result");
	const json_t *good = json_object_get(doc, "good"), *bad = json_object_get(doc, "bad");
	int (*esc)(struct buf *, const char *) = md ? esc_md : esc_text;
	size_t nsteps = json_array_size(steps);
	const char **whys = calloc(nsteps ? nsteps : 1, sizeof(*whys));
	struct buf line;
	struct table t;
	int r = 0;

	if (!whys)
		return -1;
	buf_init(&line, 1 << 16);
	table_init(&t, 8, "rlllllll");
	t.min = steps_min;
	t.gap = steps_gap;
	r |= buf_addstr(out, md ? "# plumb bisect " : "plumb bisect ") | esc(out, sget(doc, "id")) |
	     buf_addstr(out, md ? "\n\n" : "\n") | buf_addstr(out, "benchmark ") | esc(out, sget(doc, "bench")) |
	     buf_addstr(out, " (") | esc(out, sget(doc, "metric")) | buf_addstr(out, "), good ") |
	     esc(out, sget(good, "ref")) | buf_addstr(out, " (") | put_id(out, esc, sget(good, "commit")) |
	     buf_addstr(out, "), bad ") | esc(out, sget(bad, "ref")) | buf_addstr(out, " (") |
	     put_id(out, esc, sget(bad, "commit")) |
	     buf_printf(out, "), %zu commits\n\n", json_array_size(json_object_get(doc, "commits")) - 1);
	r |= buf_addstr(out, md ? "| # | comparison | base | candidate | range | verdict | base | candidate | ratio | builds |\n"
				  "|---|---|---|---|---|---|---|---|---|---|\n" : "");
	if (!md)
		table_row(&t, "#", "comparison", "base", "candidate", "range", "verdict", "ratio",
			  "base / candidate");
	for (size_t i = 0; i < json_array_size(steps); i++) {
		const json_t *s = json_array_get(steps, i), *rg = json_object_get(s, "range");
		const json_t *sides = json_object_get(s, "sides"), *bl = json_object_get(s, "builds");
		char ratio[UNITS_MAX], rng[64], verdict[96];
		ratio_text(s, ratio);
		snprintf(rng, sizeof(rng), "%zu..%zu", (size_t)json_integer_value(json_array_get(rg, 0)),
			 (size_t)json_integer_value(json_array_get(rg, 1)));
		snprintf(verdict, sizeof(verdict), "%s%s", sget(s, "verdict"),
			 strcmp(sget(s, "call"), "undecided") == 0 ? " (undecided)" : "");
		if (md) {
			r |= buf_printf(out, "| %zu | ", iget(s, "n")) | esc_md(out, sget(s, "kind")) |
			     buf_addstr(out, " | ") | put_id(out, esc_md, commit_of(doc, iget(s, "base"))) |
			     buf_addstr(out, " | ") | put_id(out, esc_md, commit_of(doc, iget(s, "candidate"))) |
			     buf_printf(out, " | %s | ", rng) | esc_md(out, verdict) | buf_addstr(out, " | ");
			buf_reset(&line);
			r |= side_text(&line, doc, json_object_get(sides, "base")) | esc_md(out, buf_cstr(&line)) |
			     buf_addstr(out, " | ");
			buf_reset(&line);
			r |= side_text(&line, doc, json_object_get(sides, "candidate")) | esc_md(out, buf_cstr(&line)) |
			     buf_printf(out, " | %s | %zu built, %zu cached |\n", ratio, iget(bl, "built"),
					iget(bl, "cached"));
		} else {
			char ids[2][13];
			snprintf(ids[0], sizeof(ids[0]), "%s", commit_of(doc, iget(s, "base")));
			snprintf(ids[1], sizeof(ids[1]), "%s", commit_of(doc, iget(s, "candidate")));
			buf_reset(&line);
			r |= side_text(&line, doc, json_object_get(sides, "base")) | buf_addstr(&line, " / ") |
			     side_text(&line, doc, json_object_get(sides, "candidate"));
			table_cellf(&t, "%zu", iget(s, "n"));
			table_cell(&t, sget(s, "kind"));
			table_cell(&t, ids[0]);
			table_cell(&t, ids[1]);
			table_cell(&t, rng);
			table_cell(&t, verdict);
			table_cell(&t, ratio);
			table_cell(&t, buf_cstr(&line));
			table_end_row(&t, NULL);
			if (json_is_string(json_object_get(s, "why")))
				whys[i] = sget(s, "why");
		}
	}
	if (!md)
		r |= steps_table(&t, whys, out);
	table_release(&t);
	free(whys);
	buf_reset(&line);
	r |= totals(&line, doc);
	r |= buf_addstr(out, md ? "\n**" : "\n") | esc(out, sget(res, "summary")) |
	     buf_addstr(out, md ? "**\n\n" : "\n") | esc(out, buf_cstr(&line)) | buf_addstr(out, "\n");
	buf_release(&line);
	return r ? -1 : 0;
}

static const char bisect_css[] =
	"svg.bisect .axis{stroke:#444}svg.bisect .range{fill:#ddd}"
	"svg.bisect .pair{stroke:#888;stroke-width:2}svg.bisect .slower{stroke:#b00;fill:#b00}"
	"svg.bisect .same{stroke:#070;fill:#070}svg.bisect .undecided{stroke:#b80;fill:#b80}"
	"svg.bisect .base{fill:#fff;stroke:#000}svg.bisect .culprit{stroke:#b00;stroke-dasharray:4 3}"
	"svg.bisect text{font:11px sans-serif}svg.bisect .end{text-anchor:end}"
	"svg.bisect{max-width:100%;height:auto}"
	"@media print{table.steps,table.commits{font-size:.7em}"
	"table.steps td,table.commits td{overflow-wrap:anywhere}}";

static int render_html(const json_t *doc, struct buf *out)
{
	const json_t *steps = json_object_get(doc, "steps"), *res = json_object_get(doc, "result");
	const json_t *commits = json_object_get(doc, "commits");
	struct buf t;
	int r = 0;

	buf_init(&t, 1 << 16);
	r |= buf_addstr(&t, "plumb bisect ") | buf_addstr(&t, sget(doc, "id"));
	r |= html_begin_style(out, buf_cstr(&t), bisect_css);
	r |= buf_addstr(out, "<h1>plumb bisect <code>") | esc_html(out, sget(doc, "id")) |
	     buf_addstr(out, "</code></h1>\n<p class=\"summary\"><strong>") | esc_html(out, sget(res, "summary")) |
	     buf_addstr(out, "</strong></p>\n<p>benchmark <code>") | esc_html(out, sget(doc, "bench")) |
	     buf_addstr(out, "</code> (") | esc_html(out, sget(doc, "metric")) | buf_addstr(out, "); ");
	buf_reset(&t);
	r |= totals(&t, doc) | esc_html(out, buf_cstr(&t)) | buf_addstr(out, "</p>\n");
	r |= svg_bisect(out, doc);
	/* The verdict and the ratio first, on a phone's first screen. */
	r |= buf_addstr(out, "<div class=\"scroll\"><table class=\"steps\">\n<tr><th>#</th><th>verdict</th><th>ratio</th>"
			     "<th>comparison</th><th>base</th><th>candidate</th><th>range</th>"
			     "<th>base</th><th>candidate</th><th>why</th></tr>\n");
	for (size_t i = 0; i < json_array_size(steps); i++) {
		const json_t *s = json_array_get(steps, i), *rg = json_object_get(s, "range");
		const json_t *sides = json_object_get(s, "sides");
		char ratio[UNITS_MAX];
		ratio_text(s, ratio);
		r |= buf_printf(out, "<tr><td>%zu</td><td class=\"%s\">", iget(s, "n"),
				strcmp(sget(s, "call"), "undecided") == 0 ? "undecided" : "decided") |
		     esc_html(out, sget(s, "verdict")) | buf_printf(out, "</td><td>%s</td><td>", ratio) |
		     esc_html(out, sget(s, "kind")) | buf_addstr(out, "</td><td>") |
		     html_commit(out, commit_of(doc, iget(s, "base"))) | buf_addstr(out, "</td><td>") |
		     html_commit(out, commit_of(doc, iget(s, "candidate"))) |
		     buf_printf(out, "</td><td>%zu..%zu</td><td>", (size_t)json_integer_value(json_array_get(rg, 0)),
				(size_t)json_integer_value(json_array_get(rg, 1)));
		buf_reset(&t);
		r |= side_text(&t, doc, json_object_get(sides, "base")) | esc_html(out, buf_cstr(&t)) |
		     buf_addstr(out, "</td><td>");
		buf_reset(&t);
		r |= side_text(&t, doc, json_object_get(sides, "candidate")) | esc_html(out, buf_cstr(&t)) |
		     buf_addstr(out, "</td><td>") | esc_html(out, sget(s, "why")) | buf_addstr(out, "</td></tr>\n");
	}
	r |= buf_addstr(out, "</table></div>\n<h2>Commits</h2>\n<div class=\"scroll\"><table class=\"commits\">\n<tr><th>#</th><th>commit</th><th>subject</th>"
			     "<th>author</th></tr>\n");
	for (size_t i = 0; i < json_array_size(commits); i++) {
		const json_t *c = json_array_get(commits, i);
		r |= buf_printf(out, "<tr><td>%zu</td><td>", i) | html_commit(out, sget(c, "commit")) |
		     buf_addstr(out, "</td><td>") |
		     esc_html(out, sget(c, "subject")) | buf_addstr(out, "</td><td>") | esc_html(out, sget(c, "author")) |
		     buf_addstr(out, "</td></tr>\n");
	}
	r |= buf_addstr(out, "</table></div>\n") | html_end(out);
	buf_release(&t);
	return r ? -1 : 0;
}

int view_bisect_doc(const json_t *doc, enum view_bisect_format f, struct buf *out, struct plumb_err *err)
{
	switch (f) {
	case VIEW_BISECT_JSON:
		return jsonio_dump(doc, out, err);
	case VIEW_BISECT_HTML:
		return render_html(doc, out) < 0 ? buf_err(err, "bisect report") : 0;
	case VIEW_BISECT_MD:
		return render_text(doc, out, 1) < 0 ? buf_err(err, "bisect report") : 0;
	case VIEW_BISECT_TEXT:
		break;
	}
	return render_text(doc, out, 0) < 0 ? buf_err(err, "bisect report") : 0;
}

int view_bisect(const struct bisect_record *rec, enum view_bisect_format f, struct buf *out,
		struct plumb_err *err)
{
	json_t *doc = bisect_report_doc(rec);
	int rc;

	if (!doc)
		return plumb_err_oom(err, "bisect report");
	rc = view_bisect_doc(doc, f, out, err);
	json_decref(doc);
	return rc;
}

int view_bisect_step_start(const struct bisect_record *rec, enum bisect_kind kind, size_t base,
			   size_t candidate, struct buf *out)
{
	const struct bisect_commit *c = &rec->commits[candidate];

	return buf_printf(out, "comparison %zu (%s): %.12s against %.12s (", rec->nsteps + 1, bisect_kind_name(kind),
			  rec->commits[base].commit, c->commit) < 0 ||
			       esc_text(out, c->subject) < 0 ||
			       buf_printf(out, "), culprit in %zu..%zu", rec->lo, rec->hi) < 0
		       ? -1
		       : 0;
}

int view_bisect_step_done(const struct bisect_record *rec, const struct bisect_step *s, struct buf *out)
{
	char ratio[UNITS_MAX];

	(void)rec;
	units_ratio(s->ratio, ratio);
	return buf_printf(out, "comparison %zu (%s): %s, %s (ratio %s)%s", (size_t)(s - rec->steps) + 1,
			  bisect_kind_name(s->kind), verdict_name(s->verdict) ? verdict_name(s->verdict) : "-",
			  bisect_call_name(s->call), ratio, s->why[0] ? ": " : "") < 0 ||
			       esc_text(out, s->why) < 0 ||
			       buf_printf(out, "; %u built, %u cached", s->builds.built, s->builds.cached) < 0
		       ? -1
		       : 0;
}
