/*
 * reports/html-page.c: the page every HTML output of plumb is written in:
 * the head with its viewport, a Content-Security-Policy that loads
 * nothing, the one stylesheet (desktop, phone, print, dark), the footer,
 * and the verdict badge.  The report (html.c), the trend (trend.c) and
 * the archive's pages build on these functions, so every page looks and
 * escapes alike.  The page is well-formed XML: every element closed,
 * attributes quoted, only the five XML entities.
 */
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape.h"
#include "common/utf8.h"
#include "common/verdict.h"
#include "reports/html-page.h"
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
	"span.id{font-family:ui-monospace,monospace;font-size:.85rem;white-space:nowrap;"
	"text-decoration:underline dotted var(--muted)}\n"
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
	"svg .roundline{fill:none;stroke-width:1.2;stroke-opacity:.8}svg .roundline.old{stroke:var(--old)}"
	"svg .roundline.new{stroke:var(--new)}svg .roundline.ctl{stroke:var(--fg);stroke-dasharray:3 2}"
	"svg .pad.ctl{fill:var(--fg)}svg .grouplabel.ctl{fill:var(--fg)}"
	"svg .load{fill:var(--muted);fill-opacity:.5}svg .axisnote{fill:var(--warn);font-size:9.5px}\n"
	"td.name{overflow-wrap:anywhere;min-width:5rem;max-width:16rem}"
	".interval{color:var(--muted);font-size:.8rem}p.explain{margin:.2rem 0 .5rem}\n"
	"td .interval{white-space:normal}\n"
	"dl.numbers dt{font-weight:600}section.glossary dl.numbers dt{white-space:nowrap}\n"
	"@media (max-width:40rem){body{padding:.5rem;font-size:14px}"
	"th,td{padding:.2rem .3rem}h1{font-size:1.15rem}td.name{max-width:8.5rem}"
	"table.benches td.change{white-space:normal;min-width:5.5rem}section.bench{padding:.5rem}"
	"svg text{font-size:15px}svg .ticklabel,svg .overlaplabel,svg .vlabel,svg .ratiolabel"
	"{font-size:13px}svg .verdictlabel{font-size:16px}}\n"
	"@media print{:root{--fg:#000;--bg:#fff;--panel:#fff;--warnbg:#fff3b0;--blockbg:#ffd7d5}"
	"body{max-width:none;font-size:10pt;padding:0}section.bench{break-inside:avoid;"
	"page-break-inside:avoid}.scroll{overflow:visible}details>summary{list-style:none}"
	"a{text-decoration:none}table{width:100%;font-size:9pt}td.num{white-space:normal}"
	"td.key,td.fact,span.id{white-space:normal;"
	"overflow-wrap:anywhere}tr{break-inside:avoid}}\n";

/* Each verdict's class in its table colour (common/verdict.h). */
static int verdict_css(struct buf *out)
{
	static const char *const var[] = {
		[VERDICT_PLAIN] = "muted", [VERDICT_RED] = "slower", [VERDICT_GREEN] = "faster",
		[VERDICT_GREY] = "placement", [VERDICT_AMBER] = "warn",
	};
	int rc = 0;

	for (int v = VERDICT_UNSET + 1; v < VERDICT_COUNT; v++) {
		const struct verdict_def *d = &verdict_table[v];
		rc |= buf_printf(out, ".v-%s{color:var(--%s)}svg .v-%s{fill:var(--%s)}\n",
				 d->name, var[d->colour], d->name, var[d->colour]);
	}
	return rc ? -1 : 0;
}

int html_begin_style(struct buf *out, const char *title, const char *style)
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
	rc |= verdict_css(out);
	if (style)
		rc |= buf_addstr(out, style);
	rc |= buf_addstr(out, "</style>\n</head>\n<body>\n");
	return rc ? -1 : 0;
}

int html_begin(struct buf *out, const char *title)
{
	return html_begin_style(out, title, NULL);
}

int html_end(struct buf *out)
{
	return buf_addstr(out, "<footer>Written by plumb " PACKAGE_VERSION
			  ". This page is self-contained: it loads nothing.</footer>\n"
			  "</body>\n</html>\n");
}

int html_commit(struct buf *out, const char *id)
{
	char shown[4 * HTML_ID_SHOWN + 1];
	int rc = 0;

	if (!id || !*id)
		return buf_addstr(out, "?");
	snprintf(shown, sizeof(shown), "%.*s", HTML_ID_SHOWN, id);
	utf8_cut(shown);
	rc |= buf_addstr(out, "<span class=\"id\" title=\"");
	rc |= esc_html(out, id);
	rc |= buf_addstr(out, "\">");
	rc |= esc_html(out, shown);
	rc |= buf_addstr(out, "</span>");
	return rc ? -1 : 0;
}

int html_badge(struct buf *out, const char *cls, const char *word)
{
	int rc = buf_printf(out, "<span class=\"verdict v-%s\">", cls && *cls ? cls : "none");

	rc |= esc_html(out, word ? word : "");
	rc |= buf_addstr(out, "</span>");
	return rc ? -1 : 0;
}
