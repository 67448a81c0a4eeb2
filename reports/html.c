/*
 * reports/html.c: the report as one self-contained HTML page: inline CSS,
 * inline SVG, no script, no font, no image, no link to anything but its
 * own anchors, and a Content-Security-Policy that forbids loading
 * anything at all, so opening it years later needs no network and leaks
 * nothing.  The page is written as well-formed XML (every element
 * closed, attributes quoted, only the five XML entities), so XML tools
 * can read it too; every string from the bundle goes through esc_html().
 * The CSS lays it out for a desktop, a phone (tables scroll, charts
 * scale) and paper (@media print).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "reports/hostdiff.h"
#include "reports/html-page.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/renderers.h"
#include "reports/words.h"
#include "common/banned.h"

/* "<span class="verdict v-slower">slower</span>" */
static int verdict_badge(struct buf *out, const struct report_bench *b)
{
	const char *word = render_verdict_word(b);
	const char *cls = b->failure || b->old_failure ? "failed" : b->missing ? "none" :
			  b->withheld ? "withheld" : verdict_name(b->verdict);

	return html_badge(out, cls, word);
}

static int raw_html(struct buf *out, struct buf *raw)
{
	int rc = esc_html(out, buf_cstr(raw));

	buf_reset(raw);
	return rc;
}

static int heading(const struct report *r, struct buf *out)
{
	int rc = 0;

	rc |= buf_printf(out, "<header>\n<h1>plumb report: %s against %s", r->new_role, r->old_role);
	if (r->kind == REPORT_BASELINE && r->old.baseline) {
		rc |= buf_addch(out, ' ');
		rc |= esc_html(out, r->old.baseline);
	}
	rc |= buf_addstr(out, "</h1>\n</header>\n");
	return rc ? -1 : 0;
}

/* Which commits, which bundle, which host: after the overview. */
static int about(const struct report *r, struct buf *out, struct buf *raw)
{
	const struct manifest_commit *c[2] = { r->old_commit, r->new_commit };
	const char *roles[2] = { r->old_role, r->new_role };
	int rc = 0;

	rc |= buf_addstr(out, "<section class=\"about\">\n<div class=\"scroll\"><table class=\"sides\">\n"
			 "<tr><th>side</th><th>ref</th><th>commit</th><th>subject</th></tr>\n");
	for (int i = 0; i < 2; i++) {
		rc |= buf_printf(out, "<tr><td>%s</td><td>", roles[i]);
		rc |= esc_html(out, c[i]->ref ? c[i]->ref : "?");
		rc |= buf_addstr(out, "</td><td class=\"key\">");
		rc |= html_commit(out, c[i]->commit);
		rc |= buf_addstr(out, "</td><td>");
		rc |= esc_html(out, c[i]->subject ? c[i]->subject : "");
		if (c[i]->dirty == 1)
			rc |= buf_addstr(out, " (dirty working copy)");
		rc |= buf_addstr(out, "</td></tr>\n");
	}
	rc |= buf_addstr(out, "</table></div>\n<p class=\"meta\">");
	if (r->new.m->repo.url) {
		rc |= buf_addstr(out, "Repository ");
		rc |= esc_html(out, r->new.m->repo.url);
		rc |= buf_addstr(out, ".<br/>");
	}
	rc |= buf_addstr(out, "Bundle: ");
	rc |= phrase_source(&r->new, raw);
	rc |= raw_html(out, raw);
	rc |= buf_addstr(out, ", created ");
	rc |= esc_html(out, r->new.m->created ? r->new.m->created : "?");
	rc |= buf_addstr(out, ".<br/>");
	if (r->kind == REPORT_BASELINE) {
		rc |= buf_addstr(out, "Baseline: ");
		rc |= phrase_source(&r->old, raw);
		rc |= buf_printf(raw, " (%s side)", manifest_side_name(r->old.side));
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, ".<br/>Baseline host: ");
		rc |= phrase_host(r->old.m->host.start, raw);
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, ".<br/>");
	}
	rc |= buf_addstr(out, "Host: ");
	rc |= phrase_host(r->new.m->host.start, raw);
	rc |= raw_html(out, raw);
	rc |= buf_addstr(out, ".</p>\n</section>\n");
	return rc ? -1 : 0;
}

static int findings(const struct report *r, struct buf *out, struct buf *raw)
{
	int rc = 0;

	if (!r->host.n_items && !r->host.n_statements)
		return 0;
	rc |= buf_addstr(out, "<section class=\"findings\">\n");
	for (size_t i = 0; i < r->host.n_items; i++) {
		const struct hostdiff_item *it = &r->host.items[i];
		int block = it->level == HOSTDIFF_BLOCKER;
		rc |= buf_printf(out, "<p class=\"finding %s\"><strong>%s:</strong> ",
				 block ? "blocker" : "warning", block ? "Not comparable" : "Warning");
		rc |= phrase_item(r, it, raw);
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, "</p>\n");
	}
	for (size_t i = 0; i < r->host.n_statements; i++) {
		rc |= buf_addstr(out, "<p class=\"finding note\"><strong>Note:</strong> ");
		rc |= esc_html(out, r->host.statements[i]);
		rc |= buf_addstr(out, "</p>\n");
	}
	rc |= buf_addstr(out, "</section>\n");
	return rc ? -1 : 0;
}

/*
 * A side in the overview: its center, and below it, small, the range and
 * spread ("83.20 ms" over "(81.20–84.10, 3.49%)"), so that the table fits
 * a desktop's width without scrolling sideways.
 */
static int side_cell(const struct report_bench *b, const struct manifest_side_stats *s,
		     struct buf *out, struct buf *raw)
{
	char *paren;
	int rc = 0;

	if (!s)
		return 0;
	rc |= phrase_side(b, s, raw);
	paren = strstr(raw->data ? raw->data : "", " (");
	if (!paren)
		return raw_html(out, raw) | rc;
	*paren = '\0';
	rc |= esc_html(out, buf_cstr(raw));
	rc |= buf_addstr(out, "<br/><span class=\"interval\">");
	rc |= esc_html(out, paren + 1);
	rc |= buf_addstr(out, "</span>");
	buf_reset(raw);
	return rc ? -1 : 0;
}

static int overview(const struct report *r, struct buf *out, struct buf *raw)
{
	int rc = 0;

	rc |= buf_addstr(out, "<section class=\"overview\">\n<p class=\"summary\"><strong>");
	rc |= phrase_summary(r, raw);
	rc |= raw_html(out, raw);
	rc |= buf_addstr(out, "</strong></p>\n");
	rc |= phrase_gate(r, raw);
	if (raw->len) {
		rc |= buf_addstr(out, "<p class=\"gate\">");
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, "</p>\n");
	}
	if (r->n_benches == 0)
		return buf_addstr(out, "</section>\n") | rc;
	/* Benchmark, change and verdict first: what a phone shows without scrolling. */
	rc |= buf_printf(out, "<div class=\"scroll\"><table class=\"benches\">\n<tr><th>benchmark</th>"
			 "<th>change</th><th>verdict</th><th>%s</th><th>%s</th><th>metric</th></tr>\n",
			 r->old_role, r->new_role);
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		rc |= buf_printf(out, "<tr><td class=\"name\"><a href=\"#bench-%zu\">", i);
		rc |= esc_html(out, b->name);
		rc |= buf_addstr(out, "</a></td><td class=\"num change\">");
		rc |= phrase_change(b, raw);
		rc |= raw_html(out, raw);
		rc |= phrase_interval(b, raw);
		if (raw->len) {
			rc |= buf_addstr(out, "<br/><span class=\"interval\">");
			rc |= raw_html(out, raw);
			rc |= buf_addstr(out, "</span>");
		}
		rc |= buf_addstr(out, "</td><td class=\"verdictcell\">");
		rc |= verdict_badge(out, b);
		rc |= buf_addstr(out, "</td><td class=\"num\">");
		rc |= side_cell(b, b->old, out, raw);
		rc |= buf_addstr(out, "</td><td class=\"num\">");
		rc |= side_cell(b, b->new, out, raw);
		rc |= buf_printf(out, "</td><td>%s</td></tr>\n", metric_name(b->metric));
	}
	rc |= buf_addstr(out, "</table></div>\n</section>\n");
	return rc ? -1 : 0;
}

static int numbers(const struct report *r, const struct report_bench *b,
		   struct buf *out, struct buf *raw)
{
	char x[UNITS_MAX], y[UNITS_MAX];
	int rc = 0;

	rc |= buf_addstr(out, "<dl class=\"numbers\">");
	if (b->old) {
		rc |= buf_printf(out, "<dt>%s</dt><dd>", r->old_role);
		rc |= phrase_side(b, b->old, raw);
		rc |= raw_html(out, raw);
		rc |= buf_printf(out, ", %zu pad%s</dd>", b->old->n_pads, b->old->n_pads == 1 ? "" : "s");
	}
	if (b->new) {
		rc |= buf_printf(out, "<dt>%s</dt><dd>", r->new_role);
		rc |= phrase_side(b, b->new, raw);
		rc |= raw_html(out, raw);
		rc |= buf_printf(out, ", %zu pad%s</dd>", b->new->n_pads, b->new->n_pads == 1 ? "" : "s");
	}
	if (!isnan(b->ratio)) {
		units_ratio(b->ratio, x);
		rc |= buf_addstr(out, "<dt>change</dt><dd>");
		rc |= phrase_change(b, raw);
		rc |= raw_html(out, raw);
		rc |= buf_printf(out, " (ratio %s)</dd>", x);
	}
	if (!isnan(b->ratio_lo) && b->has_shift && !(b->shift_level > 0)) {
		/* One pad a side: no interval to show. */
	} else if (!isnan(b->ratio_lo) && b->has_shift && b->shift_level < b->rule.confidence) {
		units_percent(b->shift_level, x);
		rc |= buf_printf(out, "<dt>%s interval</dt><dd>", x);
		rc |= phrase_interval(b, raw);
		rc |= raw_html(out, raw);
		units_level(b->rule.confidence, x);
		rc |= buf_printf(out, " (the most these pads allow, short of %s)</dd>", x);
	} else if (!isnan(b->ratio_lo)) {
		units_level(b->rule.confidence, x);
		rc |= buf_printf(out, "<dt>%s interval</dt><dd>", x);
		rc |= phrase_interval(b, raw);
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, "</dd>");
	}
	if (b->has_shift && !b->withheld) {
		char least[UNITS_MAX];

		units_p(b->p, x);
		units_p(b->p_min, least);
		rc |= buf_printf(out, "<dt>p</dt><dd>%s (the least these pads allow: %s)", x, least);
		if (!isnan(b->p_holm) && r->holm_n > 1) {
			units_p(b->p_holm, x);
			rc |= buf_printf(out, "; Holm-adjusted over %zu benchmarks %s", r->holm_n, x);
		}
		units_level(b->rule.min_effect, x);
		rc |= buf_printf(out, "</dd><dt>minimum effect</dt><dd>\u00b1%s</dd>", x);
	}
	if (!isnan(b->detect_slower)) {
		rc |= buf_addstr(out, "<dt>detectable change</dt><dd>");
		rc |= phrase_detectable(b, raw);
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, "</dd>");
	}
	if (!isnan(b->instr_ratio) || !isnan(b->cycles_ratio)) {
		units_ratio(b->instr_ratio, x);
		units_ratio(b->cycles_ratio, y);
		rc |= buf_printf(out, "<dt>instructions, cycles</dt><dd>\u00d7%s, \u00d7%s</dd>", x, y);
	}
	if (!isnan(b->noise)) {
		units_percent(b->noise, x);
		rc |= buf_printf(out, "<dt>noise (control)</dt><dd>%s%s</dd>", x,
				 b->noisy ? ", too noisy" : "");
	}
	rc |= buf_addstr(out, "</dl>\n");
	return rc ? -1 : 0;
}

static int bench_section(const struct report *r, const struct report_bench *b, size_t i,
			 struct buf *out, struct buf *raw)
{
	const char *why = b->failure ? b->failure : b->missing;
	int rc = 0;

	rc |= buf_printf(out, "<section class=\"bench\" id=\"bench-%zu\">\n<h2>", i);
	rc |= esc_html(out, b->name);
	rc |= buf_printf(out, " <small>%s, %s</small> ", metric_name(b->metric),
			 manifest_mode_name(b->mode));
	rc |= verdict_badge(out, b);
	rc |= buf_addstr(out, "</h2>\n<p class=\"explain\">");
	rc |= phrase_explain(r, b, raw);
	rc |= raw_html(out, raw);
	rc |= buf_addstr(out, "</p>\n");
	if (b->old && b->new) {
		rc |= buf_addstr(out, "<figure class=\"chart\">");
		rc |= svg_bench(out, r, b, i);
		rc |= buf_printf(out, "<figcaption>Bars: each side's range over pads; dots: pad medians; "
				 "tick: center%s; shaded: where the ranges overlap.</figcaption></figure>\n",
				 b->control && r->kind == REPORT_SELF ? "; \u25c7: control" : "");
	}
	rc |= numbers(r, b, out, raw);
	if (why || b->n_notes) {
		rc |= buf_addstr(out, "<ul class=\"notes\">\n");
		if (why) {
			rc |= buf_addstr(out, b->failure ? "<li>failed: " : "<li>not compared: ");
			rc |= esc_html(out, why);
			rc |= buf_addstr(out, "</li>\n");
		}
		for (size_t k = 0; k < b->n_notes; k++) {
			rc |= buf_addstr(out, "<li>");
			rc |= esc_html(out, b->notes[k]);
			rc |= buf_addstr(out, "</li>\n");
		}
		rc |= buf_addstr(out, "</ul>\n");
	}
	if ((b->dist_old || b->dist_new) && b->mode == MANIFEST_MODE_SAMPLES) {
		rc |= buf_addstr(out, "<figure class=\"distribution\">");
		rc |= svg_dist(out, r, b, i);
		rc |= buf_addstr(out, "</figure>\n");
	} else if (b->dist_old || b->dist_new) {
		rc |= buf_addstr(out, "<figure class=\"distribution\">");
		rc |= svg_strip(out, r, b, i);
		rc |= buf_addstr(out, "</figure>\n");
	}
	if (b->dist_old || b->dist_new) {
		rc |= buf_addstr(out, "<figure class=\"overrounds\">");
		rc |= svg_rounds(out, r, b, i);
		rc |= buf_addstr(out, "<figcaption>A line per pad over the rounds: a slope is drift, "
				 "a high first round a warm-up left in, a spike shared by every line a "
				 "noisy neighbour.</figcaption></figure>\n");
	}
	rc |= buf_addstr(out, "</section>\n");
	return rc ? -1 : 0;
}

/* Is key one of the decisive facts that differ, and how badly? */
static const char *row_class(const struct report *r, const struct hostdiff_row *row)
{
	const char *cls = row->differs ? "differs" : NULL;

	for (size_t i = 0; i < r->host.n_items; i++)
		if (strcmp(r->host.items[i].key, row->key) == 0 &&
		    r->host.items[i].level == HOSTDIFF_BLOCKER)
			cls = "blocker";
	return cls;
}

static int host_table(const struct report *r, struct buf *out)
{
	size_t differ = 0;
	int rc = 0;

	if (r->host.n_rows == 0)
		return 0;
	for (size_t i = 0; i < r->host.n_rows; i++)
		differ += r->host.rows[i].differs != 0;
	rc |= buf_printf(out, "<section class=\"host\">\n<details open=\"open\"><summary><strong>Host facts"
			 "</strong> (%zu of %zu differ, highlighted)</summary>\n"
			 "<div class=\"scroll\"><table class=\"facts\">\n"
			 "<tr><th>fact</th><th>%s</th><th>%s</th></tr>\n", differ, r->host.n_rows,
			 r->host.old_label, r->host.new_label);
	for (size_t i = 0; i < r->host.n_rows; i++) {
		const struct hostdiff_row *row = &r->host.rows[i];
		const char *cls = row_class(r, row);
		rc |= buf_addstr(out, "<tr");
		if (cls)
			rc |= buf_printf(out, " class=\"%s\"", cls);
		rc |= buf_addstr(out, "><td class=\"key\">");
		rc |= esc_html(out, row->key);
		rc |= buf_addstr(out, "</td><td class=\"fact\">");
		rc |= esc_html(out, row->old ? row->old : "(absent)");
		rc |= buf_addstr(out, "</td><td class=\"fact\">");
		rc |= esc_html(out, row->new ? row->new : "(absent)");
		rc |= buf_addstr(out, "</td></tr>\n");
	}
	rc |= buf_addstr(out, "</table></div>\n</details>\n</section>\n");
	return rc ? -1 : 0;
}

/* A parameter family: a column per parameter, a row per combination; the
 * change and the verdict right after the parameters, on a phone's screen. */
static int family_table(void *ctx, const struct report *r, const struct phrase_family *f)
{
	struct buf *out = ctx, t;
	int rc = 0;

	buf_init(&t, 1 << 20);
	rc |= buf_add(&t, f->name, f->name_len);
	rc |= buf_addstr(out, "<h2>");
	rc |= raw_html(out, &t);
	rc |= buf_addstr(out, " <small>by parameter</small></h2>\n<div class=\"scroll\">"
			 "<table class=\"benches family\">\n<tr>");
	for (size_t k = 0; k < f->keys.n; k++) {
		rc |= buf_addstr(out, "<th>");
		rc |= esc_html(out, f->keys.key[k]);
		rc |= buf_addstr(out, "</th>");
	}
	rc |= buf_printf(out, "<th>change</th><th>verdict</th><th>%s</th><th>%s</th></tr>\n",
			 r->old_role, r->new_role);
	for (size_t i = 0; i < f->n; i++) {
		const struct report_bench *b = &r->benches[f->members[i]];
		char v[UNITS_MAX];
		rc |= buf_printf(out, "<tr>");
		for (size_t k = 0; k < f->values[i].n; k++) {
			rc |= buf_printf(out, "<td><a href=\"#bench-%zu\">", f->members[i]);
			rc |= esc_html(out, f->values[i].value[k]);
			rc |= buf_addstr(out, "</a></td>");
		}
		rc |= buf_addstr(out, "<td class=\"num\">");
		rc |= phrase_change(b, &t);
		rc |= raw_html(out, &t);
		rc |= buf_addstr(out, "</td><td>");
		rc |= verdict_badge(out, b);
		units_value(b->old ? b->old->center : NAN, metric_dim(b->metric), 0, v);
		rc |= buf_printf(out, "</td><td class=\"num\">%s</td>", b->old ? v : "");
		units_value(b->new ? b->new->center : NAN, metric_dim(b->metric), 0, v);
		rc |= buf_printf(out, "<td class=\"num\">%s</td></tr>\n", b->new ? v : "");
	}
	rc |= buf_addstr(out, "</table></div>\n");
	buf_release(&t);
	return rc ? -1 : 0;
}

static int families(const struct report *r, struct buf *out)
{
	struct buf t;
	int rc;

	buf_init(&t, REPORT_OUTPUT_MAX);
	rc = phrase_families(r, family_table, &t);
	if (rc == 0 && t.len) {
		rc |= buf_addstr(out, "<section class=\"families\">\n");
		rc |= buf_addstr(out, buf_cstr(&t));
		rc |= buf_addstr(out, "</section>\n");
	}
	buf_release(&t);
	return rc ? -1 : 0;
}

static int config_row(void *ctx, const char *key, const char *value)
{
	struct buf *out = ctx;
	int rc = buf_addstr(out, "<tr><td class=\"key\">");

	rc |= esc_html(out, key);
	rc |= buf_addstr(out, "</td><td class=\"fact\">");
	rc |= esc_html(out, value);
	rc |= buf_addstr(out, "</td></tr>\n");
	return rc ? -1 : 0;
}

/* The recorded configuration, collapsed: commands, hooks, pads, rounds, seed, labels. */
static int config_table(const struct report *r, struct buf *out)
{
	int rc = 0;

	rc |= buf_addstr(out, "<section class=\"config\">\n<details><summary><strong>Configuration"
			 "</strong> of the run (build and benchmark commands, hooks, pads, rounds, "
			 "seed, ASLR, labels)</summary>\n<div class=\"scroll\"><table class=\"facts\">\n"
			 "<tr><th>setting</th><th>value</th></tr>\n");
	rc |= phrase_config(r->new.m, config_row, out);
	rc |= buf_addstr(out, "</table></div>\n</details>\n</section>\n");
	return rc ? -1 : 0;
}

static int glossary(struct buf *out)
{
	size_t n;
	const struct phrase_term *t = phrase_glossary(&n);
	int rc = buf_addstr(out, "<section class=\"glossary\">\n<h2>Glossary</h2>\n<dl class=\"numbers\">");

	for (size_t i = 0; i < n; i++)
		rc |= buf_printf(out, "<dt>%s</dt><dd>%s</dd>", t[i].term, t[i].text);
	rc |= buf_addstr(out, "</dl>\n</section>\n");
	return rc ? -1 : 0;
}

int report_html(const struct report *r, struct buf *out, struct plumb_err *err)
{
	struct buf raw;
	char title[200];
	int rc = 0;

	snprintf(title, sizeof(title), "plumb report: %s against %s", r->new_role, r->old_role);
	buf_init(&raw, 1 << 20);
	rc |= html_begin(out, title);
	rc |= heading(r, out);
	rc |= overview(r, out, &raw);
	rc |= families(r, out);
	rc |= findings(r, out, &raw);
	rc |= about(r, out, &raw);
	for (size_t i = 0; i < r->n_benches; i++)
		rc |= bench_section(r, &r->benches[i], i, out, &raw);
	rc |= host_table(r, out);
	rc |= config_table(r, out);
	rc |= glossary(out);
	rc |= html_end(out);
	buf_release(&raw);
	if (rc)
		return buf_err(err, "html report");
	return 0;
}
