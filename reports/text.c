/*
 * reports/text.c: the report for a terminal or a cron log: a heading
 * naming both sides, the host findings, one aligned table row per
 * benchmark, each benchmark's remarks, and a summary line.  Colour
 * (ANSI) only when the caller asks (cli_color(): a terminal, NO_COLOR
 * unset); every line reads the same without it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/table.h"
#include "reports/hostdiff.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/renderers.h"
#include "reports/words.h"
#include "common/banned.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define BOLD_RED "\033[1;31m"
#define DIM "\033[2m"
#define RESET "\033[0m"

static const char *verdict_color(const struct report_bench *b)
{
	if (b->failure || b->old_failure || b->withheld)
		return BOLD_RED;
	if (b->missing)
		return DIM;
	switch (b->verdict > VERDICT_UNSET && b->verdict < VERDICT_COUNT ?
		verdict_table[b->verdict].colour : VERDICT_PLAIN) {
	case VERDICT_RED: return RED;
	case VERDICT_GREEN: return GREEN;
	case VERDICT_AMBER: return YELLOW;
	case VERDICT_GREY:
	case VERDICT_PLAIN: break;
	}
	return NULL;
}

/* "<label>: " in colour (or not), then the escaped text, then a newline. */
static int line(struct buf *out, int color, const char *c, const char *label,
		const char *text)
{
	int r = 0;

	if (color && c)
		r |= buf_addstr(out, c);
	r |= buf_addstr(out, label);
	if (color && c)
		r |= buf_addstr(out, RESET);
	r |= buf_addstr(out, ": ");
	r |= esc_text(out, text);
	r |= buf_addch(out, '\n');
	return r ? -1 : 0;
}

/* "  base       v1.2.0 3f2a9c0d1e4b Release 1.2.0" */
static int heading_line(struct buf *out, const char *label, struct buf *raw)
{
	int rc = buf_printf(out, "  %-13s ", label);

	rc |= esc_text(out, buf_cstr(raw));
	rc |= buf_addch(out, '\n');
	buf_reset(raw);
	return rc;
}

static int heading(const struct report *r, struct buf *out)
{
	struct buf raw;
	int rc = 0;

	buf_init(&raw, 1 << 20);
	rc |= buf_printf(out, "plumb report: %s against %s", r->new_role, r->old_role);
	if (r->kind == REPORT_BASELINE && r->old.baseline) {
		rc |= buf_addch(out, ' ');
		rc |= esc_text(out, r->old.baseline);
	}
	rc |= buf_addch(out, '\n');
	rc |= phrase_commit(r->old_commit, &raw);
	rc |= heading_line(out, r->old_role, &raw);
	rc |= phrase_commit(r->new_commit, &raw);
	rc |= heading_line(out, r->new_role, &raw);
	if (r->kind == REPORT_BASELINE) {
		rc |= phrase_source(&r->old, &raw);
		rc |= buf_printf(&raw, " (%s side)", manifest_side_name(r->old.side));
		rc |= heading_line(out, "baseline from", &raw);
	}
	rc |= phrase_source(&r->new, &raw);
	rc |= heading_line(out, "bundle", &raw);
	rc |= buf_addstr(&raw, r->new.m->created ? r->new.m->created : "?");
	rc |= heading_line(out, "created", &raw);
	if (r->kind == REPORT_BASELINE) {
		rc |= phrase_host(r->old.m->host.start, &raw);
		rc |= heading_line(out, "baseline host", &raw);
	}
	rc |= phrase_host(r->new.m->host.start, &raw);
	rc |= heading_line(out, "host", &raw);
	buf_release(&raw);
	return rc ? -1 : 0;
}

static int host_lines(const struct report *r, int color, struct buf *out)
{
	struct buf t;
	int rc = 0;

	buf_init(&t, 1 << 20);
	for (size_t i = 0; i < r->host.n_items; i++) {
		const struct hostdiff_item *it = &r->host.items[i];
		rc |= phrase_item(r, it, &t);
		rc |= line(out, color, it->level == HOSTDIFF_BLOCKER ? BOLD_RED : YELLOW,
			   phrase_item_label(it), buf_cstr(&t));
		buf_reset(&t);
	}
	for (size_t i = 0; i < r->host.n_statements; i++)
		rc |= line(out, color, YELLOW, "note", r->host.statements[i]);
	buf_release(&t);
	return rc ? -1 : 0;
}

/*
 * The numbers of the pads picture: each side's pad medians, one line a
 * side ("alloc: pad medians of base: 974.0, 981.3, 990.2, 1003 ms"), the
 * control on its own line.  Nothing for a side with one pad: its range
 * line says it.
 */
static int pad_lines(const struct report *r, const struct report_bench *b, struct buf *cell,
		     struct buf *out)
{
	const struct manifest_side_stats *s[3] = { b->old, b->new, b->control };
	const char *role[3] = { r->old_role, r->new_role, "control" };
	int rc = 0;

	for (int i = 0; i < 3; i++) {
		if (!s[i] || !s[i]->present || s[i]->n_pads < (i == 2 ? 1u : 2u))
			continue;
		buf_reset(cell);
		rc |= phrase_pads(b, s[i], cell);
		rc |= esc_text(out, b->name);
		rc |= buf_printf(out, ": pad medians of %s: ", role[i]);
		rc |= esc_text(out, buf_cstr(cell));
		rc |= buf_addch(out, '\n');
	}
	buf_reset(cell);
	return rc;
}

int report_text(const struct report *r, int color, struct buf *out,
		struct plumb_err *err)
{
	struct table t;
	struct buf cell;
	int rc = 0, counters = 0, noise = 0;
	size_t cols;

	rc |= heading(r, out);
	if (r->host.n_items || r->host.n_statements)
		rc |= buf_addch(out, '\n');
	rc |= host_lines(r, color, out);
	rc |= buf_addch(out, '\n');

	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		if (!isnan(b->instr_ratio) || !isnan(b->cycles_ratio))
			counters = 1;
		if (!isnan(b->noise))
			noise = 1;
	}
	cols = 6 + (counters ? 2 : 0) + (noise ? 1 : 0);

	/* The table: one row per benchmark, columns as wide as their cells. */
	table_init(&t, cols, NULL);
	buf_init(&cell, 1 << 20);
	table_cell(&t, "benchmark");
	table_cell(&t, "metric");
	table_cell(&t, r->old_role);
	table_cell(&t, r->new_role);
	table_cell(&t, "change");
	if (counters) {
		table_cell(&t, "instr");
		table_cell(&t, "cycles");
	}
	if (noise)
		table_cell(&t, "noise");
	table_cell(&t, "verdict");
	table_end_row(&t, NULL);
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		char x[UNITS_MAX + 8];

		table_cell(&t, b->name);
		table_cell(&t, metric_name(b->metric));
		buf_reset(&cell);
		if (b->old)
			rc |= phrase_side(b, b->old, &cell);
		table_cell(&t, b->old ? buf_cstr(&cell) : "-");
		buf_reset(&cell);
		if (b->new)
			rc |= phrase_side(b, b->new, &cell);
		table_cell(&t, b->new ? buf_cstr(&cell) : "-");
		buf_reset(&cell);
		rc |= phrase_change_signed(b, &cell);
		if (cell.len && !isnan(b->ratio_lo)) {
			rc |= buf_addstr(&cell, " (");
			rc |= phrase_interval(b, &cell);
			rc |= buf_addch(&cell, ')');
		}
		table_cell(&t, cell.len ? buf_cstr(&cell) : "-");
		if (counters) {
			units_ratio(b->instr_ratio, x);
			table_cell(&t, isnan(b->instr_ratio) ? "-" : x);
			units_ratio(b->cycles_ratio, x);
			table_cell(&t, isnan(b->cycles_ratio) ? "-" : x);
		}
		if (noise) {
			units_percent(b->noise, x);
			if (!isnan(b->noise) && b->noisy)
				memcpy(x + strlen(x), " noisy", sizeof(" noisy"));
			table_cell(&t, isnan(b->noise) ? "-" : x);
		}
		table_cell(&t, render_verdict_word(b));
		table_end_row(&t, color ? verdict_color(b) : NULL);
	}
	rc |= table_render(&t, out);
	table_release(&t);
	buf_release(&cell);

	/* Each benchmark's verdict in a sentence, then its remarks, one per
	 * line, greppable by name. */
	buf_init(&cell, 1 << 20);
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		const char *why = b->failure;
		rc |= buf_addch(out, '\n');
		rc |= phrase_explain(r, b, &cell);
		rc |= esc_text(out, b->name);
		rc |= buf_addstr(out, ": ");
		rc |= esc_text(out, buf_cstr(&cell));
		rc |= buf_addch(out, '\n');
		buf_reset(&cell);
		if (why) {
			rc |= esc_text(out, b->name);
			rc |= buf_addstr(out, ": failed: ");
			rc |= esc_text(out, why);
			rc |= buf_addch(out, '\n');
		}
		for (size_t k = 0; k < b->n_notes; k++) {
			rc |= esc_text(out, b->name);
			rc |= buf_addstr(out, ": ");
			rc |= esc_text(out, b->notes[k]);
			rc |= buf_addch(out, '\n');
		}
		rc |= pad_lines(r, b, &cell, out);
	}
	rc |= buf_addch(out, '\n');
	rc |= phrase_summary(r, out);
	rc |= buf_addch(out, '\n');
	/* The gate's adjustment, when one was asked for and made. */
	rc |= phrase_gate(r, &cell);
	if (cell.len) {
		rc |= esc_text(out, buf_cstr(&cell));
		rc |= buf_addch(out, '\n');
	}
	buf_release(&cell);
	if (rc)
		return buf_err(err, "text report");
	return 0;
}
