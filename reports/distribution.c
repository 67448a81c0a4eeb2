/*
 * reports/distribution.c: per-pad quantiles and values per round of
 * every benchmark from the rows of samples.tsv (see distribution.h).
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

struct sample {
	uint64_t iter;        /* 0 for a process-mode row */
	uint32_t round;
	double value;
};

/* The samples of one benchmark's side and pad in one metric. */
struct series {
	char *bench, *metric;
	int side;
	uint32_t pad;
	struct sample *v;
	size_t n, cap;
	uint64_t seen;        /* values offered */
	uint64_t stride;      /* keep every stride-th value */
};

/* What a finished benchmark side shows. */
struct dist_out {
	char *bench;
	int side;
	struct report_dist_pad *pads;
	struct report_dist_side view;
};

/*
 * Lookups are hashed so that the report stays linear in rows: a series by
 * (bench, metric, side, pad) for every row, and the finished sides by
 * (bench, side) sorted for the renderers.
 */
#define HASH_SLOTS (2 * REPORT_DIST_SERIES)   /* a power of two, at most half full */

struct report_dist {
	unsigned magic;
	int finished;
	struct series *series;
	size_t n, cap;
	size_t last;                  /* the series of the previous row */
	uint32_t *slots;              /* series index + 1; 0 is empty */
	struct dist_out *out;
	size_t n_out;
};

struct report_dist *report_dist_new(void)
{
	struct report_dist *d = calloc(1, sizeof(*d));

	if (d)
		d->magic = DIST_MAGIC;
	return d;
}

void report_dist_free(struct report_dist *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->series[i].bench);
		free(d->series[i].metric);
		free(d->series[i].v);
	}
	free(d->series);
	free(d->slots);
	for (size_t i = 0; i < d->n_out; i++) {
		for (size_t k = 0; k < d->out[i].view.n_pads; k++)
			free(d->out[i].pads[k].rounds);
		free(d->out[i].bench);
		free(d->out[i].pads);
	}
	free(d->out);
	d->magic = 0;
	free(d);
}

static int same(const struct series *s, const char *bench, const char *metric,
		int side, uint32_t pad)
{
	return s->side == side && s->pad == pad && strcmp(s->bench, bench) == 0 &&
	       strcmp(s->metric, metric) == 0;
}

/* FNV-1a over the names, mixed with side and pad. */
static size_t slot_of(const char *bench, const char *metric, int side, uint32_t pad)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)bench; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	h = (h ^ 0xff) * 0x100000001b3ull;
	for (const unsigned char *p = (const unsigned char *)metric; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	h ^= ((uint64_t)(unsigned)side << 32) ^ pad;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 32) & (HASH_SLOTS - 1);
}

/* The series of a row, created when new; NULL when there is no room. */
static struct series *series_of(struct report_dist *d, const char *bench,
				const char *metric, int side, uint32_t pad, int *oom)
{
	struct series *s;
	size_t h;

	*oom = 0;
	if (d->last < d->n && same(&d->series[d->last], bench, metric, side, pad))
		return &d->series[d->last];
	if (!d->slots && !(d->slots = calloc(HASH_SLOTS, sizeof(*d->slots)))) {
		*oom = 1;
		return NULL;
	}
	for (h = slot_of(bench, metric, side, pad); d->slots[h]; h = (h + 1) & (HASH_SLOTS - 1))
		if (same(&d->series[d->slots[h] - 1], bench, metric, side, pad)) {
			d->last = d->slots[h] - 1;
			return &d->series[d->last];
		}
	if (d->n == REPORT_DIST_SERIES)
		return NULL;
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		s = realloc(d->series, cap * sizeof(*s));
		if (!s) {
			*oom = 1;
			return NULL;
		}
		d->series = s;
		d->cap = cap;
	}
	s = &d->series[d->n];
	memset(s, 0, sizeof(*s));
	s->bench = strdup(bench);
	s->metric = strdup(metric);
	if (!s->bench || !s->metric) {
		free(s->bench);
		free(s->metric);
		*oom = 1;
		return NULL;
	}
	s->side = side;
	s->pad = pad;
	s->stride = 1;
	d->last = d->n++;
	d->slots[h] = (uint32_t)d->n;
	return s;
}

static int series_add(struct series *s, uint32_t round, uint64_t iter, double value)
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
		struct sample *v;
		if (cap > REPORT_DIST_KEEP)
			cap = REPORT_DIST_KEEP;
		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n].iter = iter;
	s->v[s->n].round = round;
	s->v[s->n].value = value;
	s->n++;
	return 0;
}

int report_dist_add(struct report_dist *d, const char *bench,
		    enum manifest_side side, uint32_t pad, uint32_t round, uint64_t iter,
		    const char *metric, double value, struct plumb_err *err)
{
	struct series *s;
	int oom;

	if (d->finished || (int)side < 0 || (int)side > 2 || !isfinite(value) ||
	    round > REPORT_DIST_ROUNDS)
		return 0;
	s = series_of(d, bench, metric, (int)side, pad, &oom);
	if (!s)
		return oom ? plumb_err_oom(err, "sample distributions") : 0;
	if (series_add(s, round, iter == UINT64_MAX ? 0 : iter, value) < 0)
		return plumb_err_oom(err, "sample distributions");
	return 0;
}

/* Iterations to drop at the start of each round, as the run recorded it. */
static uint64_t warmup_skip(const struct manifest *m, const struct manifest_bench *b)
{
	const char *p = m->run.warmup_policy;

	if (p && *p >= '0' && *p <= '9') {
		char *end;
		unsigned long long n;
		errno = 0;
		n = strtoull(p, &end, 10);
		if (!errno && !*end)
			return n;
	}
	if (b->steady.present && !isnan(b->steady.start) && b->steady.start > 0)
		return (uint64_t)b->steady.start;
	return 0;
}

static int cmp_pad(const void *a, const void *b)
{
	uint32_t x = ((const struct report_dist_pad *)a)->pad;
	uint32_t y = ((const struct report_dist_pad *)b)->pad;

	return (x > y) - (x < y);
}

/* Series order: bench, metric, side, pad. */
static int cmp_key(const struct series *s, const char *bench, const char *metric, int side,
		   uint32_t pad)
{
	int c = strcmp(s->bench, bench);

	if (!c)
		c = strcmp(s->metric, metric);
	if (!c)
		c = (s->side > side) - (s->side < side);
	if (!c)
		c = (s->pad > pad) - (s->pad < pad);
	return c;
}

static int cmp_series(const void *a, const void *b)
{
	const struct series *y = *(struct series *const *)b;
	return cmp_key(*(struct series *const *)a, y->bench, y->metric, y->side, y->pad);
}

/* The first of order[0..n) at or after (bench, metric, side, pad 0). */
static size_t lower_bound(const struct report_dist *d, struct series *const *order, const char *bench,
			  const char *metric, int side)
{
	size_t lo = 0, hi = d->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_key(order[mid], bench, metric, side, 0) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * p->rounds: the value (process) or the median (samples) of each round's
 * kept samples, grouped by a counting sort so that it stays linear;
 * scratch holds REPORT_DIST_KEEP doubles.
 */
static int per_round(const struct series *s, uint64_t skip, size_t n_rounds, double *scratch,
		     struct report_dist_pad *p)
{
	size_t *start = calloc(n_rounds + 1, sizeof(*start));

	if (!start || !(p->rounds = malloc(n_rounds * sizeof(*p->rounds)))) {
		free(start);
		return -1;
	}
	p->n_rounds = n_rounds;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].iter >= skip)
			start[s->v[k].round + 1]++;
	for (size_t r = 0; r < n_rounds; r++)
		start[r + 1] += start[r];
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].iter >= skip)
			scratch[start[s->v[k].round]++] = s->v[k].value;
	/* start[r] is now the end of round r, the start of round r + 1. */
	for (size_t r = 0, from = 0; r < n_rounds; from = start[r], r++)
		p->rounds[r] = start[r] > from ? stats_median_inplace(scratch + from, start[r] - from)
					       : NAN;
	free(start);
	return 0;
}

/* Reduce the series of one benchmark's side into an output entry. */
static int finish_side(struct report_dist *d, struct series *const *order, const struct manifest_bench *b,
		       int side, uint64_t skip, double *scratch, struct plumb_err *err)
{
	const char *metric = metric_name(b->metric);
	struct dist_out *o;
	size_t first = lower_bound(d, order, b->name, metric, side), count = 0;

	while (first + count < d->n) {
		const struct series *s = order[first + count];
		if (s->side != side || strcmp(s->bench, b->name) != 0 || strcmp(s->metric, metric) != 0)
			break;
		count++;
	}
	if (count == 0)
		return 0;
	o = &d->out[d->n_out];
	memset(o, 0, sizeof(*o));
	o->side = side;
	if (!(o->bench = strdup(b->name)) || !(o->pads = calloc(count, sizeof(*o->pads)))) {
		free(o->bench);
		return plumb_err_oom(err, "sample distributions");
	}
	d->n_out++;
	for (size_t i = first; i < first + count; i++) {
		struct series *s = order[i];
		struct report_dist_pad *p = &o->pads[o->view.n_pads];
		size_t n = 0;
		uint32_t last = 0;
		for (size_t k = 0; k < s->n; k++)
			if (s->v[k].iter >= skip) {
				scratch[n++] = s->v[k].value;
				last = s->v[k].round > last ? s->v[k].round : last;
			}
		if (n == 0)
			continue;
		if (per_round(s, skip, last + 1, scratch + REPORT_DIST_KEEP, p) < 0)
			return plumb_err_oom(err, "sample distributions");
		/* The statistics' percentiles (nearest rank) and median. */
		p->pad = s->pad;
		p->n = n * s->stride;
		p->min = stats_min(scratch, n);
		p->max = stats_max(scratch, n);
		p->p1 = stats_percentile_inplace(scratch, n, 0.01);
		p->p25 = stats_percentile_inplace(scratch, n, 0.25);
		p->p75 = stats_percentile_inplace(scratch, n, 0.75);
		p->p99 = stats_percentile_inplace(scratch, n, 0.99);
		p->p50 = stats_median_inplace(scratch, n);
		o->view.n_pads++;
	}
	qsort(o->pads, o->view.n_pads, sizeof(*o->pads), cmp_pad);
	o->view.pads = o->pads;
	return 0;
}

static int cmp_out(const void *pa, const void *pb)
{
	const struct dist_out *a = pa, *b = pb;
	int c = strcmp(a->bench, b->bench);

	return c ? c : (a->side > b->side) - (a->side < b->side);
}

int report_dist_finish(struct report_dist *d, const struct manifest *m,
		       struct plumb_err *err)
{
	double *scratch;
	struct series **order;
	int rc = 0;

	if (d->finished)
		return 0;
	d->finished = 1;
	if (m->n_benches == 0 || d->n == 0)
		goto done;
	d->out = calloc(m->n_benches * 3, sizeof(*d->out));
	scratch = malloc(2 * REPORT_DIST_KEEP * sizeof(*scratch));
	order = malloc(d->n * sizeof(*order));
	if (!d->out || !scratch || !order) {
		free(scratch);
		free(order);
		return plumb_err_oom(err, "sample distributions");
	}
	for (size_t i = 0; i < d->n; i++)
		order[i] = &d->series[i];
	qsort(order, d->n, sizeof(*order), cmp_series);
	for (size_t i = 0; rc == 0 && i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		uint64_t skip = b->mode == MANIFEST_MODE_SAMPLES ? warmup_skip(m, b) : 0;
		for (int side = 0; rc == 0 && side < 3; side++)
			rc = finish_side(d, order, b, side, skip, scratch, err);
	}
	free(scratch);
	free(order);
	/* Sorted by bench and side for report_dist_find(). */
	qsort(d->out, d->n_out, sizeof(*d->out), cmp_out);
done:
	/* The raw samples are not needed any more. */
	for (size_t i = 0; i < d->n; i++) {
		free(d->series[i].v);
		d->series[i].v = NULL;
		d->series[i].n = d->series[i].cap = 0;
	}
	return rc;
}

const struct report_dist_side *report_dist_find(const struct report_dist *d,
						const char *bench,
						enum manifest_side side)
{
	struct dist_out key;
	const struct dist_out *o;

	if (!d || !d->finished || d->n_out == 0)
		return NULL;
	key.bench = (char *)bench;
	key.side = (int)side;
	o = bsearch(&key, d->out, d->n_out, sizeof(*d->out), cmp_out);
	return o && o->view.n_pads ? &o->view : NULL;
}
