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
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "reports/report.h"
#include "common/banned.h"

static const char css[] =
	":root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--panel:#f6f8fa;--line:#d0d7de;"
	"--old:#1f6feb;--new:#d4670b;--slower:#cf222e;--faster:#1a7f37;--placement:#57606a;"
	"--warn:#9a6700;--warnbg:#fff8c5;--block:#cf222e;--blockbg:#ffebe9;--overlap:#8c959f}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;"
	"--panel:#161b22;--line:#30363d;--old:#4493f8;--new:#f0883e;--slower:#f85149;"
	"--faster:#3fb950;--placement:#9198a1;--warn:#d29922;--warnbg:#3b2e00;--block:#f85149;"
	"--blockbg:#490202;--overlap:#6e7681}}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0 auto;padding:1rem;max-width:60rem;font:15px/1.45 system-ui,-apple-system,"
	"'Segoe UI',Roboto,sans-serif;color:var(--fg);background:var(--bg)}\n"
	"h1{font-size:1.35rem;margin:.2rem 0 .8rem}h2{font-size:1.1rem;margin:0 0 .4rem;"
	"overflow-wrap:anywhere}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
	"th,td{padding:.25rem .5rem;border-bottom:1px solid var(--line);text-align:left;"
	"vertical-align:top}\n"
	"td.num{text-align:right;white-space:nowrap}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	".meta{color:var(--muted);overflow-wrap:anywhere}\n"
	".finding{padding:.4rem .6rem;margin:.3rem 0;border-left:4px solid;border-radius:3px}\n"
	".finding.blocker{border-color:var(--block);background:var(--blockbg)}\n"
	".finding.warning{border-color:var(--warn);background:var(--warnbg)}\n"
	".finding.note{border-color:var(--line);background:var(--panel)}\n"
	".verdict{display:inline-block;padding:0 .45rem;border-radius:1rem;font-weight:600;"
	"font-size:.85rem;border:1px solid currentColor;white-space:nowrap}\n"
	".v-slower{color:var(--slower)}.v-faster{color:var(--faster)}"
	".v-placement{color:var(--placement)}.v-unswept,.v-insufficient,.v-noisy{color:var(--warn)}"
	".v-withheld,.v-failed{color:var(--block)}.v-none{color:var(--muted)}\n"
	"section.bench{border:1px solid var(--line);border-radius:6px;padding:.8rem;margin:1rem 0;"
	"break-inside:avoid}\n"
	"figure{margin:.4rem 0}figcaption{color:var(--muted);font-size:.8rem}\n"
	"svg{display:block;width:100%;height:auto;max-width:40rem;margin:.3rem 0;"
	"font-family:inherit}\n"
	"svg text{fill:var(--fg);font-size:10px}\n"
	"svg .rowlabel{text-anchor:end}svg .ticklabel{text-anchor:middle;fill:var(--muted);"
	"font-size:9.5px}svg .unit{fill:var(--muted)}svg .grouplabel{font-weight:700}"
	"svg .grouplabel.old{fill:var(--old)}svg .grouplabel.new{fill:var(--new)}\n"
	"svg .axis,svg .tick{stroke:var(--muted);stroke-width:1}\n"
	"svg .range.old{fill:var(--old);fill-opacity:.25;stroke:var(--old)}"
	"svg .range.new{fill:var(--new);fill-opacity:.25;stroke:var(--new)}\n"
	"svg .pad.old{fill:var(--old)}svg .pad.new{fill:var(--new)}"
	"svg .pad{stroke:var(--bg);stroke-width:1}\n"
	"svg .center{stroke-width:2}svg .center.old{stroke:var(--old)}"
	"svg .center.new{stroke:var(--new)}\n"
	"svg .overlap{fill:var(--overlap);fill-opacity:.28}"
	"svg .overlaplabel{text-anchor:middle;fill:var(--muted);font-size:9.5px}\n"
	"svg .gap{stroke:var(--muted);stroke-dasharray:4 3}\n"
	"svg .control{fill:none;stroke:var(--fg)}\n"
	"svg .verdictlabel{text-anchor:end;font-weight:700;font-size:12px}"
	"svg .ratiolabel{fill:var(--muted)}\n"
	"svg .v-slower{fill:var(--slower)}svg .v-faster{fill:var(--faster)}"
	"svg .v-placement{fill:var(--placement)}svg .v-unswept,svg .v-insufficient,svg .v-noisy{fill:var(--warn)}"
	"svg .v-withheld{fill:var(--block)}\n"
	"svg .whisker{stroke-width:1.5}svg .whisker.old{stroke:var(--old)}"
	"svg .whisker.new{stroke:var(--new)}\n"
	"svg .box.old{fill:var(--old);fill-opacity:.3;stroke:var(--old)}"
	"svg .box.new{fill:var(--new);fill-opacity:.3;stroke:var(--new)}"
	"svg .median{stroke:var(--fg);stroke-width:2}\n"
	"dl.numbers{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.4rem 0}"
	"dl.numbers dt{color:var(--muted)}dl.numbers dd{margin:0;font-variant-numeric:tabular-nums}\n"
	"ul.notes{margin:.4rem 0;padding-left:1.2rem}\n"
	"tr.differs td{background:var(--warnbg)}tr.blocker td{background:var(--blockbg)}\n"
	"td.key{font-family:ui-monospace,monospace;font-size:.85rem;white-space:nowrap}\n"
	"td.fact{overflow-wrap:anywhere;min-width:8rem}\n"
	"a{color:inherit}\n"
	"svg .ticklabel.first{text-anchor:start}svg .ticklabel.last{text-anchor:end}\n"
	"svg .grid{stroke:var(--line);stroke-width:1}svg .vlabel{text-anchor:end;fill:var(--muted);"
	"font-size:9.5px}\n"
	"svg .trendline{fill:none;stroke:var(--new);stroke-width:1.5}"
	"svg .pad.shift{fill:var(--slower);stroke:var(--fg)}\n"
	"svg .shiftlabel{text-anchor:middle;font-size:10px}svg .shiftlabel.up{fill:var(--slower)}"
	"svg .shiftlabel.down{fill:var(--faster)}\n"
	"svg .changeline{stroke-width:1.2;stroke-dasharray:5 3}svg .changeline.up{stroke:var(--slower)}"
	"svg .changeline.down{stroke:var(--faster)}svg .changelabel{font-size:9.5px;text-anchor:middle}"
	"svg .changelabel.up{fill:var(--slower)}svg .changelabel.down{fill:var(--faster)}"
	"svg .commitlabel{font-size:8.5px;text-anchor:end;fill:var(--fg);font-family:ui-monospace,monospace}"
	"svg .commitgroup{stroke:var(--muted);stroke-width:1.5}\n"
	"footer{color:var(--muted);font-size:.8rem;margin-top:2rem}\n"
	"@media (max-width:40rem){body{padding:.5rem;font-size:14px}"
	"th,td{padding:.2rem .3rem}h1{font-size:1.15rem}section.bench{padding:.5rem}"
	"svg text{font-size:15px}svg .ticklabel,svg .overlaplabel,svg .vlabel,svg .ratiolabel"
	"{font-size:13px}svg .verdictlabel{font-size:16px}}\n"
	"@media print{:root{--fg:#000;--bg:#fff;--panel:#fff;--warnbg:#fff3b0;--blockbg:#ffd7d5}"
	"body{max-width:none;font-size:10pt;padding:0}section.bench{break-inside:avoid;"
	"page-break-inside:avoid}.scroll{overflow:visible}details>summary{list-style:none}"
	"a{text-decoration:none}table{width:100%;font-size:9pt}td.num{white-space:normal}"
	"td.key,td.fact{white-space:normal;"
	"overflow-wrap:anywhere}tr{break-inside:avoid}}\n";

int html_begin(struct buf *out, const char *title)
{
	int rc = 0;

	rc |= buf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			 "<meta charset=\"utf-8\"/>\n"
			 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
			 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			 "style-src 'unsafe-inline'\"/>\n"
			 "<meta name=\"generator\" content=\"plumb " PACKAGE_VERSION "\"/>\n<title>");
	rc |= esc_html(out, title);
	rc |= buf_addstr(out, "</title>\n<style>\n");
	rc |= buf_addstr(out, css);
	rc |= buf_addstr(out, "</style>\n</head>\n<body>\n");
	return rc ? -1 : 0;
}

int html_end(struct buf *out)
{
	return buf_addstr(out, "<footer>Written by plumb " PACKAGE_VERSION
			  ". This page is self-contained: it loads nothing.</footer>\n"
			  "</body>\n</html>\n");
}

/* "<span class="verdict v-slower">slower</span>" */
static int verdict_badge(struct buf *out, const struct report_bench *b)
{
	const char *word = render_verdict_word(b);
	const char *cls = b->failure || b->old_failure ? "failed" : b->missing ? "none" :
			  b->withheld ? "withheld" : manifest_verdict_name(b->verdict);

	return buf_printf(out, "<span class=\"verdict v-%s\">%s</span>", cls ? cls : "none", word);
}

static int raw_html(struct buf *out, struct buf *raw)
{
	int rc = esc_html(out, buf_cstr(raw));

	buf_reset(raw);
	return rc;
}

static int heading(const struct report *r, struct buf *out, struct buf *raw)
{
	const struct manifest_commit *c[2] = { r->old_commit, r->new_commit };
	const char *roles[2] = { r->old_role, r->new_role };
	int rc = 0;

	rc |= buf_printf(out, "<header>\n<h1>plumb report: %s against %s", r->new_role, r->old_role);
	if (r->kind == REPORT_BASELINE && r->old.baseline) {
		rc |= buf_addch(out, ' ');
		rc |= esc_html(out, r->old.baseline);
	}
	rc |= buf_addstr(out, r->kind == REPORT_SELF ? " (one job)</h1>\n" : "</h1>\n");
	rc |= buf_addstr(out, "<div class=\"scroll\"><table class=\"sides\">\n"
			 "<tr><th>side</th><th>ref</th><th>commit</th><th>subject</th></tr>\n");
	for (int i = 0; i < 2; i++) {
		rc |= buf_printf(out, "<tr><td>%s</td><td>", roles[i]);
		rc |= esc_html(out, c[i]->ref ? c[i]->ref : "?");
		rc |= buf_printf(out, "</td><td class=\"key\">%.12s</td><td>", c[i]->commit ? c[i]->commit : "?");
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
	rc |= buf_addstr(out, ".</p>\n</header>\n");
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

static int overview(const struct report *r, struct buf *out, struct buf *raw)
{
	char x[UNITS_MAX];
	int rc = 0;

	rc |= buf_addstr(out, "<section class=\"overview\">\n<p class=\"summary\"><strong>");
	rc |= phrase_summary(r, raw);
	rc |= raw_html(out, raw);
	rc |= buf_addstr(out, "</strong></p>\n");
	if (r->n_benches == 0)
		return buf_addstr(out, "</section>\n") | rc;
	rc |= buf_printf(out, "<div class=\"scroll\"><table class=\"benches\">\n<tr><th>benchmark</th>"
			 "<th>metric</th><th>%s</th><th>%s</th><th>ratio</th><th>verdict</th></tr>\n",
			 r->old_role, r->new_role);
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		rc |= buf_printf(out, "<tr><td><a href=\"#bench-%zu\">", i);
		rc |= esc_html(out, b->name);
		rc |= buf_printf(out, "</a></td><td>%s</td><td class=\"num\">",
				 metric_name(b->metric));
		if (b->old)
			rc |= phrase_side(b, b->old, raw);
		rc |= raw_html(out, raw);
		rc |= buf_addstr(out, "</td><td class=\"num\">");
		if (b->new)
			rc |= phrase_side(b, b->new, raw);
		rc |= raw_html(out, raw);
		units_ratio(b->ratio, x);
		rc |= buf_printf(out, "</td><td class=\"num\">%s</td><td>", isnan(b->ratio) ? "" : x);
		rc |= verdict_badge(out, b);
		rc |= buf_addstr(out, "</td></tr>\n");
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
		rc |= buf_printf(out, "<dt>ratio</dt><dd>%s</dd>", x);
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
	rc |= buf_addstr(out, "</h2>\n");
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
	if (b->dist_old || b->dist_new) {
		rc |= buf_addstr(out, "<figure class=\"distribution\">");
		rc |= svg_dist(out, r, b, i);
		rc |= buf_addstr(out, "</figure>\n");
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

int report_html(const struct report *r, struct buf *out, struct plumb_err *err)
{
	struct buf raw;
	char title[200];
	int rc = 0;

	snprintf(title, sizeof(title), "plumb report: %s against %s", r->new_role, r->old_role);
	buf_init(&raw, 1 << 20);
	rc |= html_begin(out, title);
	rc |= heading(r, out, &raw);
	rc |= findings(r, out, &raw);
	rc |= overview(r, out, &raw);
	for (size_t i = 0; i < r->n_benches; i++)
		rc |= bench_section(r, &r->benches[i], i, out, &raw);
	rc |= host_table(r, out);
	rc |= html_end(out);
	buf_release(&raw);
	if (rc)
		return buf_err(err, "html report");
	return 0;
}
