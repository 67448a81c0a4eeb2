/*
 * reports/markdown.c: the report as GitHub-flavoured Markdown, ready to
 * paste into release notes: the two commits, the host findings as a
 * quote, one table row per benchmark, each benchmark's remarks as a
 * list, and the summary.  Every string from the bundle goes through
 * esc_md(), so a name cannot open markup or break a table cell.
 */
#include <math.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "reports/report.h"
#include "common/banned.h"

static int commit_row(struct buf *out, const char *role,
		      const struct manifest_commit *c)
{
	int rc = 0;

	rc |= buf_printf(out, "| %s | ", role);
	rc |= esc_md(out, c->ref ? c->ref : "?");
	/* The commit id is validated hex: safe in a code span. */
	rc |= buf_printf(out, " | `%.12s` | ", c->commit ? c->commit : "?");
	rc |= esc_md(out, c->subject ? c->subject : "");
	if (c->dirty == 1)
		rc |= buf_addstr(out, " (dirty working copy)");
	rc |= buf_addstr(out, " |\n");
	return rc ? -1 : 0;
}

static const char *verdict_md(const struct report_bench *b)
{
	if (b->failure || b->old_failure || b->withheld || b->missing)
		return NULL;
	if (b->verdict == MANIFEST_VERDICT_SLOWER || b->verdict == MANIFEST_VERDICT_FASTER)
		return "**";
	return NULL;
}

int report_markdown(const struct report *r, struct buf *out, struct plumb_err *err)
{
	struct buf raw;
	int rc = 0, counters = 0, noise = 0;

	buf_init(&raw, 1 << 20);
	rc |= buf_printf(out, "## plumb report: %s against %s", r->new_role, r->old_role);
	if (r->kind == REPORT_BASELINE && r->old.baseline) {
		rc |= buf_addch(out, ' ');
		rc |= esc_md(out, r->old.baseline);
	}
	rc |= buf_addstr(out, r->kind == REPORT_SELF ? " (one job)\n\n" : "\n\n");

	rc |= buf_addstr(out, "| side | ref | commit | subject |\n|---|---|---|---|\n");
	rc |= commit_row(out, r->old_role, r->old_commit);
	rc |= commit_row(out, r->new_role, r->new_commit);
	rc |= buf_addch(out, '\n');

	rc |= buf_addstr(out, "Bundle: ");
	rc |= phrase_source(&r->new, &raw);
	rc |= esc_md(out, buf_cstr(&raw));
	buf_reset(&raw);
	rc |= buf_addstr(out, ", created ");
	rc |= esc_md(out, r->new.m->created ? r->new.m->created : "?");
	rc |= buf_addstr(out, ".  \n");
	if (r->kind == REPORT_BASELINE) {
		rc |= buf_addstr(out, "Baseline: ");
		rc |= phrase_source(&r->old, &raw);
		rc |= buf_printf(&raw, " (%s side)", manifest_side_name(r->old.side));
		rc |= esc_md(out, buf_cstr(&raw));
		buf_reset(&raw);
		rc |= buf_addstr(out, ".  \nBaseline host: ");
		rc |= phrase_host(r->old.m->host.start, &raw);
		rc |= esc_md(out, buf_cstr(&raw));
		buf_reset(&raw);
		rc |= buf_addstr(out, ".  \n");
	}
	rc |= buf_addstr(out, "Host: ");
	rc |= phrase_host(r->new.m->host.start, &raw);
	rc |= esc_md(out, buf_cstr(&raw));
	buf_reset(&raw);
	rc |= buf_addstr(out, ".\n\n");

	if (r->host.n_items || r->host.n_statements) {
		for (size_t i = 0; i < r->host.n_items; i++) {
			const struct hostdiff_item *it = &r->host.items[i];
			rc |= buf_printf(out, "> **%s:** ", it->level == HOSTDIFF_BLOCKER ?
					 "Not comparable" : "Warning");
			rc |= phrase_item(r, it, &raw);
			rc |= esc_md(out, buf_cstr(&raw));
			buf_reset(&raw);
			rc |= buf_addstr(out, "  \n");
		}
		for (size_t i = 0; i < r->host.n_statements; i++) {
			rc |= buf_addstr(out, "> **Note:** ");
			rc |= esc_md(out, r->host.statements[i]);
			rc |= buf_addstr(out, "  \n");
		}
		rc |= buf_addch(out, '\n');
	}

	for (size_t i = 0; i < r->n_benches; i++) {
		if (!isnan(r->benches[i].instr_ratio) || !isnan(r->benches[i].cycles_ratio))
			counters = 1;
		if (!isnan(r->benches[i].noise))
			noise = 1;
	}
	rc |= buf_printf(out, "| benchmark | metric | %s | %s | ratio |%s%s verdict |\n",
			 r->old_role, r->new_role, counters ? " instr | cycles |" : "",
			 noise ? " noise |" : "");
	rc |= buf_printf(out, "|---|---|---:|---:|---:|%s%s---|\n",
			 counters ? "---:|---:|" : "", noise ? "---:|" : "");
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		const char *em = verdict_md(b);
		char x[UNITS_MAX];

		rc |= buf_addstr(out, "| ");
		rc |= esc_md(out, b->name);
		rc |= buf_printf(out, " | %s | ", metric_name(b->metric));
		if (b->old)
			rc |= phrase_side(b, b->old, out);
		else
			rc |= buf_addstr(out, "\u2013");
		rc |= buf_addstr(out, " | ");
		if (b->new)
			rc |= phrase_side(b, b->new, out);
		else
			rc |= buf_addstr(out, "\u2013");
		units_ratio(b->ratio, x);
		rc |= buf_printf(out, " | %s |", isnan(b->ratio) ? "\u2013" : x);
		if (counters) {
			units_ratio(b->instr_ratio, x);
			rc |= buf_printf(out, " %s |", isnan(b->instr_ratio) ? "\u2013" : x);
			units_ratio(b->cycles_ratio, x);
			rc |= buf_printf(out, " %s |", isnan(b->cycles_ratio) ? "\u2013" : x);
		}
		if (noise) {
			units_percent(b->noise, x);
			rc |= buf_printf(out, " %s%s |", isnan(b->noise) ? "\u2013" : x,
					 !isnan(b->noise) && b->noisy ? " (noisy)" : "");
		}
		rc |= buf_printf(out, " %s%s%s |\n", em ? em : "", render_verdict_word(b),
				 em ? em : "");
	}

	/* Remarks: one list item each, led by the benchmark's name. */
	for (size_t i = 0, first = 1; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		const char *why = b->failure ? b->failure : b->missing;
		if (!why && !b->n_notes)
			continue;
		if (first)
			rc |= buf_addch(out, '\n');
		first = 0;
		if (why) {
			rc |= buf_addstr(out, "- **");
			rc |= esc_md(out, b->name);
			rc |= buf_addstr(out, b->failure ? "**: failed: " : "**: not compared: ");
			rc |= esc_md(out, why);
			rc |= buf_addch(out, '\n');
		}
		for (size_t k = 0; k < b->n_notes; k++) {
			rc |= buf_addstr(out, "- **");
			rc |= esc_md(out, b->name);
			rc |= buf_addstr(out, "**: ");
			rc |= esc_md(out, b->notes[k]);
			rc |= buf_addch(out, '\n');
		}
	}
	rc |= buf_addstr(out, "\n**");
	rc |= phrase_summary(r, &raw);
	rc |= esc_md(out, buf_cstr(&raw));
	rc |= buf_addstr(out, "**\n");
	buf_release(&raw);
	if (rc)
		return buf_err(err, "markdown report");
	return 0;
}
