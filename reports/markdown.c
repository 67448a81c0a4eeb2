/*
 * reports/markdown.c: the report as GitHub-flavoured Markdown, ready to
 * paste into release notes: the two commits, the host findings as a
 * quote, one table row per benchmark, each benchmark's remarks as a
 * list, and the summary.  Every string from the bundle goes through
 * esc_md(), so a name cannot open markup or break a table cell.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "reports/distribution.h"
#include "reports/hostdiff.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/renderers.h"
#include "reports/words.h"
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
	/* A change called either way (common/verdict.h: it trips --fail-on any). */
	if (verdict_fails(b->verdict, VERDICT_FAILS_ANY))
		return "**";
	return NULL;
}

/* The unit b's numbers are shown in: its base center's (else its candidate's). */
static int unit_of(const struct report_bench *b, struct units_scale *sc)
{
	const struct manifest_side_stats *s = b->old ? b->old : b->new;

	if (!s)
		return -1;
	units_scale(s->center, metric_dim(b->metric), 0, sc);
	return 0;
}

/* A side's three cells in the table's unit: "| 83.20 | 81.20\u201384.10 | 3.49% " */
static int side_cells(const struct manifest_side_stats *s, const struct units_scale *sc,
		      struct buf *out)
{
	char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX], sp[UNITS_MAX];

	if (!s)
		return buf_addstr(out, " \u2013 | \u2013 | \u2013 |");
	units_number(s->center, sc, c);
	units_number(s->min, sc, lo);
	units_number(s->max, sc, hi);
	units_percent(s->spread, sp);
	return buf_printf(out, " %s | %s\u2013%s | %s |", c, lo, hi, isnan(s->spread) ? "\u2013" : sp);
}

/* The table of every benchmark shown in the unit of benchmark `first`. */
static int bench_table(const struct report *r, size_t first, int counters, int noise,
		       struct buf *out)
{
	struct units_scale sc, si;
	struct buf raw;
	const char *u;
	int rc = 0, any = unit_of(&r->benches[first], &sc) == 0;

	u = any ? sc.suffix : "";
	if (*u == ' ')
		u++;
	rc |= buf_addstr(out, "| benchmark | metric ");
	for (int k = 0; k < 2; k++) {
		const char *role = k ? r->new_role : r->old_role;
		if (*u)
			rc |= buf_printf(out, "| %s (%s) | %s range (%s) ", role, u, role, u);
		else
			rc |= buf_printf(out, "| %s | %s range ", role, role);
		rc |= buf_printf(out, "| %s spread ", role);
	}
	rc |= buf_printf(out, "| change | change interval |%s%s verdict |\n",
			 counters ? " instr | cycles |" : "", noise ? " noise |" : "");
	rc |= buf_printf(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|%s%s---|\n",
			 counters ? "---:|---:|" : "", noise ? "---:|" : "");
	buf_init(&raw, 1 << 20);
	for (size_t i = first; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		const char *em = verdict_md(b);
		char x[UNITS_MAX];
		int has = unit_of(b, &si) == 0;

		if (has != any || (has && strcmp(si.suffix, sc.suffix) != 0))
			continue;
		rc |= buf_addstr(out, "| ");
		rc |= esc_md(out, b->name);
		rc |= buf_printf(out, " | %s |", metric_name(b->metric));
		rc |= side_cells(b->old, &sc, out);
		rc |= side_cells(b->new, &sc, out);
		rc |= phrase_change_signed(b, &raw);
		rc |= buf_printf(out, " %s |", raw.len ? buf_cstr(&raw) : "\u2013");
		buf_reset(&raw);
		rc |= phrase_interval(b, &raw);
		rc |= buf_printf(out, " %s |", raw.len ? buf_cstr(&raw) : "\u2013");
		buf_reset(&raw);
		if (counters) {
			units_ratio(b->instr_ratio, x);
			rc |= buf_printf(out, " %s |", isnan(b->instr_ratio) ? "\u2013" : x);
			units_ratio(b->cycles_ratio, x);
			rc |= buf_printf(out, " %s |", isnan(b->cycles_ratio) ? "\u2013" : x);
		}
		if (noise) {
			units_percent(b->noise, x);
			rc |= buf_printf(out, " %s |", isnan(b->noise) ? "\u2013" : x);
		}
		rc |= buf_printf(out, " %s%s%s |\n", em ? em : "", render_verdict_word(b),
				 em ? em : "");
	}
	buf_release(&raw);
	return rc ? -1 : 0;
}

#define MD_ROUNDS_MAX 20   /* round columns a table shows */

/* The pictures' numbers: per side and pad its median, its rounds' extremes, each round. */
static int rounds_table(const struct report *r, const struct report_bench *b, struct buf *out)
{
	const struct report_dist_side *sd[3] = { b->dist_old, b->dist_new, b->dist_control };
	const char *role[3] = { r->old_role, r->new_role, "control" };
	struct units_scale sc;
	size_t nr = 0, first = SIZE_MAX, last;
	const char *u;
	int rc = 0;

	if ((!sd[0] && !sd[1]) || unit_of(b, &sc) < 0)
		return 0;
	/* The rounds with a value (samples.tsv may number them from 1). */
	for (int i = 0; i < 3; i++)
		for (size_t k = 0; sd[i] && k < sd[i]->n_pads; k++) {
			const struct report_dist_pad *p = &sd[i]->pads[k];
			nr = p->n_rounds > nr ? p->n_rounds : nr;
			for (size_t j = 0; j < p->n_rounds && j < first; j++)
				if (!isnan(p->rounds[j]))
					first = j;
		}
	if (first == SIZE_MAX)
		return 0;
	last = nr - first > MD_ROUNDS_MAX ? first + MD_ROUNDS_MAX : nr;
	u = *sc.suffix == ' ' ? sc.suffix + 1 : sc.suffix;
	rc |= buf_addstr(out, "\n<details><summary>");
	rc |= esc_md(out, b->name);
	rc |= buf_printf(out, ": each pad over the rounds</summary>\n\n"
			 "| side | pad | median%s%s%s | rounds min–max%s%s%s |", *u ? " (" : "", u, *u ? ")" : "",
			 *u ? " (" : "", u, *u ? ")" : "");
	for (size_t j = first; j < last; j++)
		rc |= buf_printf(out, " r%zu |", j);
	rc |= buf_addstr(out, "\n|---|---:|---:|---:|");
	for (size_t j = first; j < last; j++)
		rc |= buf_addstr(out, "---:|");
	rc |= buf_addch(out, '\n');
	for (int i = 0; i < 3; i++)
		for (size_t k = 0; sd[i] && k < sd[i]->n_pads; k++) {
			const struct report_dist_pad *p = &sd[i]->pads[k];
			double lo = INFINITY, hi = -INFINITY;
			char v[UNITS_MAX], a[UNITS_MAX], z[UNITS_MAX];
			for (size_t j = 0; j < p->n_rounds; j++)
				if (!isnan(p->rounds[j])) {
					lo = fmin(lo, p->rounds[j]);
					hi = fmax(hi, p->rounds[j]);
				}
			units_number(p->p50, &sc, v);
			units_number(lo, &sc, a);
			units_number(hi, &sc, z);
			rc |= buf_printf(out, "| %s | %u | %s | %s–%s |", role[i], p->pad, v, a, z);
			for (size_t j = first; j < last; j++) {
				if (j < p->n_rounds && !isnan(p->rounds[j]))
					units_number(p->rounds[j], &sc, v);
				rc |= buf_printf(out, " %s |", j < p->n_rounds && !isnan(p->rounds[j]) ?
						 v : "\u2013");
			}
			rc |= buf_addch(out, '\n');
		}
	if (last < nr)
		rc |= buf_printf(out, "\nRounds %zu to %zu are in the HTML report and samples.tsv.\n",
				 last, nr - 1);
	rc |= buf_addstr(out, "\n</details>\n");
	return rc ? -1 : 0;
}

/* A parameter family: a column per parameter, a row per combination. */
static int family_table(void *ctx, const struct report *r, const struct phrase_family *f)
{
	struct buf *out = ctx, name;
	struct units_scale sc;
	const char *u;
	int rc = 0, has = unit_of(&r->benches[f->members[0]], &sc) == 0;

	u = !has ? "" : *sc.suffix == ' ' ? sc.suffix + 1 : sc.suffix;
	buf_init(&name, 1 << 16);
	rc |= buf_add(&name, f->name, f->name_len);
	rc |= buf_addstr(out, "### ");
	rc |= esc_md(out, buf_cstr(&name));
	rc |= buf_addstr(out, " by parameter\n\n|");
	for (size_t k = 0; k < f->keys.n; k++) {
		rc |= buf_addch(out, ' ');
		rc |= esc_md(out, f->keys.key[k]);
		rc |= buf_addstr(out, " |");
	}
	if (*u)
		rc |= buf_printf(out, " %s (%s) | %s (%s) |", r->old_role, u, r->new_role, u);
	else
		rc |= buf_printf(out, " %s | %s |", r->old_role, r->new_role);
	rc |= buf_addstr(out, " change | verdict |\n|");
	for (size_t k = 0; k < f->keys.n; k++)
		rc |= buf_addstr(out, "---|");
	rc |= buf_addstr(out, "---:|---:|---:|---|\n");
	for (size_t i = 0; i < f->n; i++) {
		const struct report_bench *b = &r->benches[f->members[i]];
		struct units_scale bs;
		char o[UNITS_MAX], n[UNITS_MAX];
		rc |= buf_addch(out, '|');
		for (size_t k = 0; k < f->values[i].n; k++) {
			rc |= buf_addch(out, ' ');
			rc |= esc_md(out, f->values[i].value[k]);
			rc |= buf_addstr(out, " |");
		}
		/* A member in another unit than the first says its own. */
		if (unit_of(b, &bs) == 0 && has && strcmp(bs.suffix, sc.suffix) != 0) {
			units_value(b->old ? b->old->center : NAN, metric_dim(b->metric), 0, o);
			units_value(b->new ? b->new->center : NAN, metric_dim(b->metric), 0, n);
		} else {
			units_number(b->old ? b->old->center : NAN, &sc, o);
			units_number(b->new ? b->new->center : NAN, &sc, n);
		}
		rc |= buf_printf(out, " %s | %s | ", b->old ? o : "\u2013", b->new ? n : "\u2013");
		buf_reset(&name);
		rc |= phrase_change_signed(b, &name);
		rc |= buf_printf(out, "%s | %s |\n", name.len ? buf_cstr(&name) : "\u2013",
				 render_verdict_word(b));
	}
	buf_release(&name);
	rc |= buf_addch(out, '\n');
	return rc ? -1 : 0;
}

static int config_row(void *ctx, const char *key, const char *value)
{
	struct buf *out = ctx;
	int rc = buf_addstr(out, "| ");

	rc |= esc_md(out, key);
	rc |= buf_addstr(out, " | ");
	rc |= esc_md(out, value);
	rc |= buf_addstr(out, " |\n");
	return rc ? -1 : 0;
}

/* The recorded configuration, collapsed (GitHub renders <details>). */
static int config_table(const struct report *r, struct buf *out)
{
	int rc = buf_addstr(out, "\n<details><summary>Configuration of the run</summary>\n\n"
			    "| setting | value |\n|---|---|\n");

	rc |= phrase_config(r->new.m, config_row, out);
	rc |= buf_addstr(out, "\n</details>\n");
	return rc ? -1 : 0;
}

static int glossary(struct buf *out)
{
	size_t n;
	const struct phrase_term *t = phrase_glossary(&n);
	int rc = buf_addstr(out, "\n### Glossary\n\n");

	for (size_t i = 0; i < n; i++)
		rc |= buf_printf(out, "- **%s**: %s\n", t[i].term, t[i].text);
	return rc ? -1 : 0;
}

int report_markdown(const struct report *r, struct buf *out, struct plumb_err *err)
{
	struct buf raw;
	int rc = 0, counters = 0, noise = 0, shifts = 0;

	buf_init(&raw, 1 << 20);
	rc |= buf_printf(out, "## plumb report: %s against %s", r->new_role, r->old_role);
	if (r->kind == REPORT_BASELINE && r->old.baseline) {
		rc |= buf_addch(out, ' ');
		rc |= esc_md(out, r->old.baseline);
	}
	rc |= buf_addstr(out, "\n\n");

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
		shifts |= r->benches[i].has_shift;
	}
	/* One table per unit, so the unit is in the header and a cell is a number. */
	for (size_t i = 0; i < r->n_benches; i++) {
		struct units_scale si, sk;
		int hi = unit_of(&r->benches[i], &si) == 0, seen = 0;
		for (size_t k = 0; k < i && !seen; k++) {
			int hk = unit_of(&r->benches[k], &sk) == 0;
			seen = hk == hi && (!hi || strcmp(si.suffix, sk.suffix) == 0);
		}
		if (!seen)
			rc |= bench_table(r, i, counters, noise, out);
	}
	rc |= buf_addstr(out, "\nLegend: the center is the median over pads of each pad's median "
			 "over rounds; the range runs from the smallest to the largest pad median; "
			 "the spread is the range's width over the center; the change is the "
			 "candidate's center over the base's, minus one");
	rc |= buf_addstr(out, shifts ? " (under the shift rule, the Hodges-Lehmann shift of "
			 "the pad medians, with its exact interval at the rule's confidence)" : "");
	rc |= buf_addstr(out, counters ? "; instr and cycles are the candidate's counts over "
			 "the base's" : "");
	rc |= buf_addstr(out, noise ? "; noise is what the run measured between two builds "
			 "of the same code (control) or between rounds" : "");
	rc |= buf_addstr(out, ".\n\n");

	rc |= phrase_families(r, family_table, out);

	/* Each benchmark's verdict in a sentence. */
	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		rc |= buf_addstr(out, "- **");
		rc |= esc_md(out, b->name);
		rc |= buf_printf(out, "** (%s): ", render_verdict_word(b));
		rc |= phrase_explain(r, b, &raw);
		rc |= esc_md(out, buf_cstr(&raw));
		buf_reset(&raw);
		rc |= buf_addch(out, '\n');
		/* Its remarks beneath it. */
		if (b->failure) {
			rc |= buf_addstr(out, "  - failed: ");
			rc |= esc_md(out, b->failure);
			rc |= buf_addch(out, '\n');
		}
		for (size_t k = 0; k < b->n_notes; k++) {
			rc |= buf_addstr(out, "  - ");
			rc |= esc_md(out, b->notes[k]);
			rc |= buf_addch(out, '\n');
		}
	}

	for (size_t i = 0; i < r->n_benches; i++)
		rc |= rounds_table(r, &r->benches[i], out);
	rc |= config_table(r, out);
	rc |= glossary(out);
	rc |= buf_addstr(out, "\n**");
	rc |= phrase_summary(r, &raw);
	rc |= esc_md(out, buf_cstr(&raw));
	rc |= buf_addstr(out, "**\n");
	buf_reset(&raw);
	rc |= phrase_gate(r, &raw);
	if (raw.len) {
		rc |= buf_addch(out, '\n');
		rc |= esc_md(out, buf_cstr(&raw));
		rc |= buf_addch(out, '\n');
	}
	buf_release(&raw);
	if (rc)
		return buf_err(err, "markdown report");
	return 0;
}
