/*
 * reports/distribution.c: per-pad quantiles of samples-mode benchmarks
 * from the rows of samples.tsv (see distribution.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "reports/distribution.h"
#include "stats/quantile.h"
#include "common/banned.h"

#define DIST_MAGIC 0x44495354u   /* "DIST" */

struct series {
	double *v;
	size_t n, cap;
	uint64_t seen;        /* values offered (after warmup) */
	uint64_t stride;      /* keep every stride-th value */
};

struct dist_bench {
	char *name;
	const char *metric;           /* static enum name */
	uint64_t skip;                /* iterations dropped at the start of a round */
	struct series *series[3];     /* per side: indexed by pad */
	size_t n_series[3];
	struct report_dist_pad *pads[3];   /* after finish */
	size_t n_pads[3];
	struct report_dist_side view[3];
};

struct report_dist {
	unsigned magic;
	int finished;
	struct dist_bench *benches;
	size_t n;
	size_t last;                  /* the bench of the previous row */
};

struct report_dist *report_dist_new(const struct manifest *m)
{
	struct report_dist *d = calloc(1, sizeof(*d));
	uint64_t count_skip = 0;
	int policy_count = 0;

	if (!d)
		return NULL;
	d->magic = DIST_MAGIC;
	if (m->run.warmup_policy && m->run.warmup_policy[0] >= '0' &&
	    m->run.warmup_policy[0] <= '9') {
		char *end;
		errno = 0;
		count_skip = strtoull(m->run.warmup_policy, &end, 10);
		policy_count = !errno && !*end;
	}
	for (size_t i = 0; i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		struct dist_bench *db;

		if (b->mode != MANIFEST_MODE_SAMPLES)
			continue;
		db = realloc(d->benches, (d->n + 1) * sizeof(*db));
		if (!db)
			goto oom;
		d->benches = db;
		db = &db[d->n];
		memset(db, 0, sizeof(*db));
		if (!(db->name = strdup(b->name)))
			goto oom;
		d->n++;
		db->metric = manifest_metric_name(b->metric);
		if (policy_count)
			db->skip = count_skip;
		else if (b->steady.present && !isnan(b->steady.start) && b->steady.start > 0)
			db->skip = (uint64_t)b->steady.start;
	}
	return d;
oom:
	report_dist_free(d);
	return NULL;
}

void report_dist_free(struct report_dist *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		struct dist_bench *b = &d->benches[i];
		for (int s = 0; s < 3; s++) {
			for (size_t p = 0; p < b->n_series[s]; p++)
				free(b->series[s][p].v);
			free(b->series[s]);
			free(b->pads[s]);
		}
		free(b->name);
	}
	free(d->benches);
	d->magic = 0;
	free(d);
}

static struct dist_bench *find(struct report_dist *d, const char *name)
{
	if (d->last < d->n && strcmp(d->benches[d->last].name, name) == 0)
		return &d->benches[d->last];
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->benches[i].name, name) == 0) {
			d->last = i;
			return &d->benches[i];
		}
	return NULL;
}

static int series_add(struct series *s, double value)
{
	uint64_t k = s->seen++;

	if (k % s->stride != 0)
		return 0;
	if (s->n == REPORT_DIST_KEEP) {
		/* Full: keep every second value, and from now on every 2*stride-th. */
		for (size_t i = 0; i < s->n / 2; i++)
			s->v[i] = s->v[2 * i];
		s->n /= 2;
		s->stride *= 2;
		if (k % s->stride != 0)
			return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		double *v;
		if (cap > REPORT_DIST_KEEP)
			cap = REPORT_DIST_KEEP;
		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = value;
	return 0;
}

int report_dist_add(struct report_dist *d, const char *bench,
		    enum manifest_side side, uint32_t pad, uint64_t iter,
		    const char *metric, double value, struct plumb_err *err)
{
	struct dist_bench *b;
	int si = (int)side;

	if (d->finished || iter == UINT64_MAX || si < 0 || si > 2)
		return 0;
	b = find(d, bench);
	if (!b || strcmp(b->metric, metric) != 0 || iter < b->skip || !isfinite(value))
		return 0;
	if (pad >= b->n_series[si]) {
		size_t n = (size_t)pad + 1;
		struct series *s = realloc(b->series[si], n * sizeof(*s));
		if (!s)
			return plumb_err_oom(err, "sample distributions");
		for (size_t i = b->n_series[si]; i < n; i++) {
			memset(&s[i], 0, sizeof(s[i]));
			s[i].stride = 1;
		}
		b->series[si] = s;
		b->n_series[si] = n;
	}
	if (series_add(&b->series[si][pad], value) < 0)
		return plumb_err_oom(err, "sample distributions");
	return 0;
}

int report_dist_finish(struct report_dist *d, struct plumb_err *err)
{
	if (d->finished)
		return 0;
	d->finished = 1;
	for (size_t i = 0; i < d->n; i++) {
		struct dist_bench *b = &d->benches[i];
		for (int s = 0; s < 3; s++) {
			size_t used = 0;
			if (b->n_series[s] == 0)
				continue;
			b->pads[s] = calloc(b->n_series[s], sizeof(*b->pads[s]));
			if (!b->pads[s])
				return plumb_err_oom(err, "sample distributions");
			for (size_t p = 0; p < b->n_series[s]; p++) {
				struct series *se = &b->series[s][p];
				struct report_dist_pad *o = &b->pads[s][used];
				if (se->n == 0)
					continue;
				/* The percentiles of the statistics (nearest rank), median as theirs. */
				o->pad = (uint32_t)p;
				o->n = se->seen;
				o->min = stats_min(se->v, se->n);
				o->max = stats_max(se->v, se->n);
				o->p1 = stats_percentile_inplace(se->v, se->n, 0.01);
				o->p25 = stats_percentile_inplace(se->v, se->n, 0.25);
				o->p75 = stats_percentile_inplace(se->v, se->n, 0.75);
				o->p99 = stats_percentile_inplace(se->v, se->n, 0.99);
				o->p50 = stats_median_inplace(se->v, se->n);
				used++;
				free(se->v);
				se->v = NULL;
				se->n = se->cap = 0;
			}
			b->n_pads[s] = used;
			b->view[s].pads = b->pads[s];
			b->view[s].n_pads = used;
		}
	}
	return 0;
}

const struct report_dist_side *report_dist_find(const struct report_dist *d,
						const char *bench,
						enum manifest_side side)
{
	if (!d || !d->finished || (int)side < 0 || (int)side > 2)
		return NULL;
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->benches[i].name, bench) == 0)
			return d->benches[i].n_pads[side] ? &d->benches[i].view[side] : NULL;
	return NULL;
}
