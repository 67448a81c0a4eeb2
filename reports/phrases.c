/*
 * reports/phrases.c: the sentences every renderer shares (a side's
 * center and range, a host finding, the host in one line, the summary),
 * so that text, Markdown and HTML say the same thing in the same words.
 * The phrases are raw: a renderer escapes them for its format, since
 * some quote the bundle's strings.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "reports/report.h"
#include "common/banned.h"

int phrase_side(const struct report_bench *b, const struct manifest_side_stats *s,
		struct buf *out)
{
	struct units_scale sc;
	char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX], sp[UNITS_MAX];
	int rc = 0;

	units_scale(s->center, metric_dim(b->metric), 0, &sc);
	units_number(s->center, &sc, c);
	units_number(s->min, &sc, lo);
	units_number(s->max, &sc, hi);
	rc |= buf_printf(out, "%s%s (%s\u2013%s", c, sc.suffix, lo, hi);
	if (!isnan(s->spread)) {
		units_percent(s->spread, sp);
		rc |= buf_printf(out, ", %s", sp);
	}
	rc |= buf_addch(out, ')');
	return rc ? -1 : 0;
}

const char *phrase_item_label(const struct hostdiff_item *it)
{
	return it->level == HOSTDIFF_BLOCKER ? "not comparable" : "warning";
}

int phrase_item(const struct report *r, const struct hostdiff_item *it,
		struct buf *out)
{
	int rc = buf_printf(out, "%s differs: %s \u2192 %s (%s)", it->what, it->old,
			    it->new, hostdiff_scope_text(it->scope, 0));

	if (rc == 0 && it->level == HOSTDIFF_BLOCKER)
		rc = buf_addstr(out, r->forced ? "; compared anyway (--force)"
				    : "; verdicts withheld, --force compares anyway");
	return rc;
}

int phrase_host(const json_t *facts, struct buf *out)
{
	const json_t *v;
	const char *sep = "";
	int rc = 0;

	if (!json_is_object(facts))
		return buf_addstr(out, "unknown");
	if (json_is_string(v = hostdiff_lookup(facts, "cpu.model"))) {
		rc |= buf_addstr(out, json_string_value(v));
		sep = ", ";
	}
	if (json_is_integer(v = hostdiff_lookup(facts, "cpu.logical"))) {
		rc |= buf_printf(out, "%s%lld CPUs", sep, (long long)json_integer_value(v));
		sep = ", ";
	}
	if (json_is_string(v = hostdiff_lookup(facts, "kernel.release"))) {
		rc |= buf_printf(out, "%skernel %s", sep, json_string_value(v));
		sep = ", ";
	}
	if (json_is_string(v = hostdiff_lookup(facts, "cpufreq.governor"))) {
		rc |= buf_printf(out, "%sgovernor %s", sep, json_string_value(v));
		sep = ", ";
	}
	v = hostdiff_lookup(facts, "cpufreq.turbo");
	if (json_is_boolean(v)) {
		rc |= buf_printf(out, "%sturbo %s", sep, json_is_true(v) ? "on" : "off");
		sep = ", ";
	}
	if (!*sep)
		rc |= buf_addstr(out, "unknown");
	return rc ? -1 : 0;
}

int phrase_commit(const struct manifest_commit *c, struct buf *out)
{
	int rc = 0;

	rc |= buf_addstr(out, c->ref ? c->ref : "?");
	rc |= buf_printf(out, " %.12s", c->commit ? c->commit : "?");
	if (c->subject)
		rc |= buf_printf(out, " %s", c->subject);
	if (c->dirty == 1)
		rc |= buf_addstr(out, " (dirty working copy)");
	return rc ? -1 : 0;
}

int phrase_summary(const struct report *r, struct buf *out)
{
	const struct report_counts *c = &r->counts;
	const struct { size_t n; const char *word; } parts[] = {
		{ c->slower, "slower" }, { c->faster, "faster" },
		{ c->placement, "placement" }, { c->unswept, "unswept" },
		{ c->insufficient, "insufficient" }, { c->noisy, "noisy" },
		{ c->withheld, "withheld" },
		{ c->failed, "failed" }, { c->missing, "not compared" },
	};
	const char *sep = ": ";
	int rc;

	rc = buf_printf(out, "%zu benchmark%s", r->n_benches, r->n_benches == 1 ? "" : "s");
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!parts[i].n)
			continue;
		rc |= buf_printf(out, "%s%zu %s", sep, parts[i].n, parts[i].word);
		sep = ", ";
	}
	if (r->withheld)
		rc |= buf_addstr(out, " (hosts not comparable: verdicts withheld, --force compares anyway)");
	else if (r->forced && !r->host.comparable)
		rc |= buf_addstr(out, " (hosts not comparable: compared anyway, --force)");
	return rc ? -1 : 0;
}

int phrase_source(const struct report_side *s, struct buf *out)
{
	int rc = 0;

	if (s->bundle)
		rc |= buf_addstr(out, s->bundle);
	if (s->origin)
		rc |= buf_printf(out, "%s%s", s->bundle ? " " : "", s->origin);
	if (!s->bundle && !s->origin)
		rc |= buf_addstr(out, "in memory");
	if (s->unverified && s->origin)
		rc |= buf_addstr(out, " (unverified: no SHA256SUMS)");
	return rc ? -1 : 0;
}
