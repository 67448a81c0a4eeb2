/*
 * reports/range.c: the range report's model (range.h, model.h): the job's
 * bundles put in order and checked to be the whole job, then two
 * comparisons per commit, both through report_compare().
 */
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/manifest-range.h"
#include "reports/compare.h"
#include "reports/model.h"
#include "reports/range.h"
#include "reports/source.h"
#include "reports/words.h"
#include "common/banned.h"

const char *range_hot_word(int hot_identical)
{
	switch (hot_identical) {
	case 0: return "changed";
	case 1: return "identical";
	case 2: return "same code";
	default: return "unknown";
	}
}

const struct report_bench *range_bench(const struct report *r, const char *name)
{
	for (size_t i = 0; i < r->n_benches; i++)
		if (strcmp(r->benches[i].name, name) == 0)
			return &r->benches[i];
	return NULL;
}

/* report_side.hot_vs_old of a row: its range.hot entry for bench. */
static const struct manifest_hot *row_hot(const void *ctx, const char *bench)
{
	const struct range_row *row = ctx;

	for (size_t i = 0; i < row->n_hot; i++)
		if (strcmp(row->src->m.benches[i].name, bench) == 0)
			return row->hot[i].present ? &row->hot[i] : NULL;
	return NULL;
}

static const char *name_of(const struct report_source *s)
{
	return s->origin ? s->origin : s->bundle ? s->bundle : "bundle";
}

static size_t m_benches(const struct range_row *row)
{
	return row->src->m.n_benches;
}

int range_report_build(struct range_report *r, const struct report_source *const *srcs, size_t n,
		       int force, struct plumb_err *err)
{
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (n == 0)
		return plumb_err_set(err, PLUMB_EARG, "--range: no bundle named");
	r->rows = calloc(n, sizeof(*r->rows));
	if (!r->rows)
		return plumb_err_oom(err, "range report");
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct report_source *s = srcs[i];
		struct manifest_range rg;
		if (!s->m.range)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: not a bundle of a range job (no member 'range')", name_of(s));
		if ((rc = manifest_range_read(s->m.range, &rg, err)) < 0)
			return plumb_err_prefix(err, "%s: manifest.json", name_of(s));
		if (i > 0 && strcmp(rg.id, json_string_value(json_object_get(srcs[0]->m.range, "id"))) != 0)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: range.id %s is not the job of %s (range.id %s)", name_of(s),
					     rg.id, name_of(srcs[0]),
					     json_string_value(json_object_get(srcs[0]->m.range, "id")));
		if ((size_t)rg.count != n)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: its job measured %lld commits, %zu bundles named",
					     name_of(s), (long long)rg.count, n);
		if (r->rows[rg.index].src)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: range.index %lld also in %s", name_of(s),
					     (long long)rg.index, name_of(r->rows[rg.index].src));
		r->rows[rg.index].src = s;
		r->rows[rg.index].rg = rg;
	}
	r->id = r->rows[0].rg.id;
	r->spec = r->rows[0].rg.spec;
	r->step = r->rows[0].rg.step;
	r->total = r->rows[0].rg.total;
	r->base_commit = r->rows[0].src->m.repo.base.commit;
	for (size_t k = 0; k < n; k++) {
		struct range_row *row = &r->rows[k];
		const struct manifest *m = &row->src->m;
		const char *want = k ? r->rows[k - 1].src->m.repo.candidate.commit : r->base_commit;
		if (strcmp(m->repo.base.commit, r->base_commit) != 0)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: base %s is not the job's base %s",
					     name_of(row->src), m->repo.base.commit, r->base_commit);
		if (strcmp(row->rg.parent, want) != 0)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: range.parent %s is not %s, the commit measured before it",
					     name_of(row->src), row->rg.parent, want);
	}
	for (size_t k = 0; k < n; k++) {
		struct range_row *row = &r->rows[k];
		struct report_side self, parent;
		report_source_side(row->src, MANIFEST_SIDE_CANDIDATE, &self);
		if ((rc = report_compare(&row->vs_base, REPORT_SELF, &self, &self, force, err)) < 0)
			return rc;
		row->have_base = 1;
		if (k == 0) {
			rc = report_compare(&row->vs_parent, REPORT_SELF, &self, &self, force, err);
		} else {
			report_source_side(r->rows[k - 1].src, MANIFEST_SIDE_CANDIDATE, &parent);
			row->hot = calloc(m_benches(row) + 1, sizeof(*row->hot));
			if (!row->hot)
				return plumb_err_oom(err, "range report");
			for (; row->n_hot < m_benches(row); row->n_hot++)
				if ((rc = manifest_range_hot(&row->rg, row->src->m.benches[row->n_hot].name,
							     &row->hot[row->n_hot], err)) < 0)
					return rc;
			self.hot_vs_old = row_hot;
			self.hot_ctx = row;
			rc = report_compare(&row->vs_parent, REPORT_BASELINE, &parent, &self, force, err);
		}
		if (rc < 0)
			return rc;
		row->have_parent = 1;
	}
	return 0;
}

void range_report_release(struct range_report *r)
{
	for (size_t k = 0; r->rows && k < r->n; k++) {
		if (r->rows[k].have_base)
			report_release(&r->rows[k].vs_base);
		if (r->rows[k].have_parent)
			report_release(&r->rows[k].vs_parent);
		for (size_t i = 0; i < r->rows[k].n_hot; i++)
			free(r->rows[k].hot[i].symbols);
		free(r->rows[k].hot);
	}
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

const char *range_bench_word(const struct range_report *r, const char *name)
{
	const char *first = NULL;
	int faster = 0;

	for (size_t k = 0; k < r->n; k++) {
		const struct report_bench *vp = range_bench(&r->rows[k].vs_parent, name);
		const char *w = vp ? render_verdict_word(vp) : "not compared";
		if (strcmp(w, verdict_name(VERDICT_SLOWER)) == 0)
			return w;
		faster |= strcmp(w, verdict_name(VERDICT_FASTER)) == 0;
		if (!first)
			first = w;
	}
	return faster ? verdict_name(VERDICT_FASTER) : first ? first : "not compared";
}
