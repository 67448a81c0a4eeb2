/*
 * stats/analysis.c: grouping rows into rounds, and the per-round, per-pad,
 * per-side and per-benchmark figures; see analysis.h.
 *
 * Every round of every pad, side, bench and metric is one struct rstore
 * of 16 bytes, found through a 64-bit key (group, side, pad, round) in an
 * open-addressing hash; the previous row's round is tried first, which is
 * the common case (rows of one round arrive together), and then the group
 * that last followed the previous row's (the runner's rows of a run go
 * through the metrics in one order).  A process-mode round holds its
 * value; a samples-mode round holds the index of a struct sround, its
 * samples, until it is reduced, then its figures or only its median.
 * analysis_finish() sorts the rounds by key, which lines them up by group,
 * side, pad and round, and walks them once into the results: per pad, the
 * round numbers and values as two arrays.  A bundle's 1,000,000 rounds
 * (opts.consecutive and opts.values_only, as bundle verification asks)
 * thus take 24 MB while they are read (16 in rounds, 8 in the hash) and at
 * most 32 while they are sorted, in either mode.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "stats/analysis.h"
#include "stats/co.h"
#include "stats/quantile.h"
#include "common/banned.h"

#define ANALYSIS_MAGIC 0x414e4c59u  /* "ANLY" */
#define NO_ROUND ((size_t)-1)

/* key: group (16 bits) | side (2) | pad (16) | round (30). */
#define KEY(g, s, p, r) (((uint64_t)(g) << 48) | ((uint64_t)(s) << 46) | \
			 ((uint64_t)(p) << 30) | (uint64_t)(r))
#define KEY_GROUP(k) ((uint32_t)((k) >> 48))
#define KEY_SIDE(k) ((unsigned)(((k) >> 46) & 3u))
#define KEY_PAD(k) ((uint32_t)(((k) >> 30) & 0xffffu))
#define KEY_ROUND(k) ((uint32_t)((k) & 0x3fffffffu))

struct group {
	char *bench;
	size_t bench_len;
	char *metric;
	size_t metric_len;
	int mode;                /* -1 until the first row, then enum analysis_mode */
	/* The group of the row that last came after a row of this one (index
	 * + 1; 0: none): the runner's rows of a run go through the metrics in
	 * one order, so this is tried before the hash. */
	uint32_t next;
};

/* A samples-mode round's figures, once reduced (opts.consecutive). */
struct early {
	struct analysis_iter it;
	double median;
};

/* A samples-mode round's samples while it is open; the first one inline (cap == 0). */
struct sround {
	uint32_t n, cap;
	union {
		double one;
		double *v;
	} u;
};

/*
 * One round.  Process mode: u.one is its value.  Samples mode: u.s is
 * its samples, sr[u.s], while it is open.  With opts.consecutive every
 * samples-mode round but the previous row's is reduced (so at most one
 * sround is in use, sr[0]), and then u.s is its figures, early[u.s], or
 * with opts.values_only u.one is its median.
 */
struct rstore {
	uint64_t key;
	union {
		double one;
		size_t s;
	} u;
};

struct analysis {
	unsigned magic;
	struct analysis_opts opts;
	int failed;
	char finish_msg[PLUMB_ERR_MAX];   /* why analysis_finish() failed, said again */
	int finished;
	uint64_t rows;

	struct group *groups;
	size_t ngroups, groups_cap;
	uint32_t *ghash;         /* group index + 1; 0 is empty */
	size_t ghash_size;

	struct rstore *rs;
	size_t nrs, rs_cap;
	uint32_t *rhash;         /* rstore index + 1; 0 is empty */
	size_t rhash_size;
	size_t last;             /* the previous row's rstore, or NO_ROUND */
	struct sround *sr;       /* the samples of open samples-mode rounds */
	size_t nsr, sr_cap;
	struct early *early;     /* figures of rounds reduced early, unless values_only */
	size_t nearly, early_cap;

	/* Results, after analysis_finish(). */
	struct analysis_result *results;
	size_t nresults;
	struct analysis_pad *pads;
	uint32_t *round_no;      /* every pad's round numbers, then */
	double *values;          /* their values, in the same order */
	struct analysis_iter *iters;

	double *scratch;         /* per-round work */
	size_t scratch_cap;
};

const char *analysis_side_name(enum analysis_side s)
{
	switch (s) {
	case ANALYSIS_BASE: return "base";
	case ANALYSIS_CANDIDATE: return "candidate";
	case ANALYSIS_CONTROL: return "control";
	}
	return "?";
}

void analysis_opts_default(struct analysis_opts *o)
{
	memset(o, 0, sizeof(*o));
	stats_warmup_default(&o->warmup);
	o->co_cap = STATS_CO_CAP_DEFAULT;
	stats_rule_default(&o->rule);
}

struct analysis *analysis_new(const struct analysis_opts *opts, struct plumb_err *err)
{
	struct analysis *a = calloc(1, sizeof(*a));

	if (!a) {
		plumb_err_oom(err, "analysis");
		return NULL;
	}
	a->magic = ANALYSIS_MAGIC;
	if (opts)
		a->opts = *opts;
	else
		analysis_opts_default(&a->opts);
	assert(a->opts.co_cap > 0);
	a->last = NO_ROUND;
	return a;
}

static void free_hash(struct analysis *a)
{
	free(a->rhash);
	a->rhash = NULL;
	a->rhash_size = 0;
}

static void free_samples(struct analysis *a)
{
	for (size_t i = 0; i < a->nsr; i++)
		if (a->sr[i].cap)
			free(a->sr[i].u.v);
	free(a->sr);
	a->sr = NULL;
	a->nsr = a->sr_cap = 0;
	free(a->rs);
	a->rs = NULL;
	a->nrs = a->rs_cap = 0;
	free_hash(a);
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	assert(a->magic == ANALYSIS_MAGIC);
	free_samples(a);
	for (size_t i = 0; i < a->ngroups; i++) {
		free(a->groups[i].bench);
		free(a->groups[i].metric);
	}
	free(a->groups);
	free(a->ghash);
	free(a->results);
	free(a->pads);
	free(a->round_no);
	free(a->values);
	free(a->iters);
	free(a->early);
	free(a->scratch);
	a->magic = 0;
	free(a);
}

uint64_t analysis_rows(const struct analysis *a)
{
	return a->rows;
}

size_t analysis_round_count(const struct analysis *a)
{
	return a->nrs;
}

const struct analysis_opts *analysis_options(const struct analysis *a)
{
	return &a->opts;
}

size_t analysis_count(const struct analysis *a)
{
	assert(a->magic == ANALYSIS_MAGIC);
	return a->finished ? a->nresults : 0;
}

const struct analysis_result *analysis_get(const struct analysis *a, size_t i)
{
	assert(a->finished && i < a->nresults);
	return &a->results[i];
}

/* --- hashing --- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static uint64_t name_hash(const char *b, size_t bl, const char *m, size_t ml)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < bl; i++)
		h = (h ^ (unsigned char)b[i]) * 0x100000001b3ull;
	h = (h ^ 0xffu) * 0x100000001b3ull;
	for (size_t i = 0; i < ml; i++)
		h = (h ^ (unsigned char)m[i]) * 0x100000001b3ull;
	return mix64(h);
}

static int group_is(const struct group *g, const char *b, size_t bl, const char *m, size_t ml)
{
	return g->bench_len == bl && g->metric_len == ml &&
	       memcmp(g->bench, b, bl) == 0 && memcmp(g->metric, m, ml) == 0;
}

/* Rebuild a table of size slots from scratch (size a power of two). */
static int ghash_rebuild(struct analysis *a, size_t size)
{
	uint32_t *t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < a->ngroups; i++) {
		const struct group *g = &a->groups[i];
		size_t s = name_hash(g->bench, g->bench_len, g->metric, g->metric_len) & (size - 1);
		while (t[s])
			s = (s + 1) & (size - 1);
		t[s] = (uint32_t)i + 1;
	}
	free(a->ghash);
	a->ghash = t;
	a->ghash_size = size;
	return 0;
}

static char *dup_bytes(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

/* The index of bench+metric's group, created when new; -1 after err. */
static long group_find(struct analysis *a, const char *b, size_t bl,
		       const char *m, size_t ml, struct plumb_err *err)
{
	size_t s;
	struct group *g;

	if (a->ghash_size) {
		s = name_hash(b, bl, m, ml) & (a->ghash_size - 1);
		while (a->ghash[s]) {
			if (group_is(&a->groups[a->ghash[s] - 1], b, bl, m, ml))
				return (long)a->ghash[s] - 1;
			s = (s + 1) & (a->ghash_size - 1);
		}
	}
	if (a->ngroups >= ANALYSIS_MAX_GROUPS) {
		plumb_err_set(err, PLUMB_EINPUT, "column 'metric': more than %u distinct "
			      "bench and metric pairs (the limit)", ANALYSIS_MAX_GROUPS);
		return -1;
	}
	if (a->ngroups == a->groups_cap) {
		size_t cap = a->groups_cap ? 2 * a->groups_cap : 8;
		struct group *ng = realloc(a->groups, cap * sizeof(*ng));
		if (!ng) {
			plumb_err_oom(err, "analysis groups");
			return -1;
		}
		a->groups = ng;
		a->groups_cap = cap;
	}
	g = &a->groups[a->ngroups];
	g->bench = dup_bytes(b, bl);
	g->metric = dup_bytes(m, ml);
	g->bench_len = bl;
	g->metric_len = ml;
	g->mode = -1;
	g->next = 0;
	if (!g->bench || !g->metric) {
		free(g->bench);
		free(g->metric);
		plumb_err_oom(err, "analysis names");
		return -1;
	}
	a->ngroups++;
	if (2 * a->ngroups > a->ghash_size) {
		if (ghash_rebuild(a, a->ghash_size ? 2 * a->ghash_size : 16) < 0) {
			plumb_err_oom(err, "analysis groups");
			return -1;
		}
	} else {
		s = name_hash(b, bl, m, ml) & (a->ghash_size - 1);
		while (a->ghash[s])
			s = (s + 1) & (a->ghash_size - 1);
		a->ghash[s] = (uint32_t)a->ngroups;
	}
	return (long)a->ngroups - 1;
}

static int rhash_rebuild(struct analysis *a, size_t size)
{
	uint32_t *t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < a->nrs; i++) {
		size_t s = mix64(a->rs[i].key) & (size - 1);
		while (t[s])
			s = (s + 1) & (size - 1);
		t[s] = (uint32_t)i + 1;
	}
	free(a->rhash);
	a->rhash = t;
	a->rhash_size = size;
	return 0;
}

/*
 * The index of the round with this key, created empty (*created set) when
 * new; NO_ROUND after err.
 */
static size_t round_find(struct analysis *a, uint64_t key, int *created, struct plumb_err *err)
{
	size_t s = 0;
	struct rstore *r;

	*created = 0;
	if (a->rhash_size) {
		s = mix64(key) & (a->rhash_size - 1);
		while (a->rhash[s]) {
			if (a->rs[a->rhash[s] - 1].key == key)
				return a->rhash[s] - 1;
			s = (s + 1) & (a->rhash_size - 1);
		}
	}
	/* s: the empty slot where the key's probe ended, its slot unless the
	 * table is rebuilt below. */
	if (a->nrs >= UINT32_MAX - 1 || (a->opts.max_rounds && a->nrs >= a->opts.max_rounds)) {
		plumb_err_set(err, PLUMB_EINPUT, "column 'round': more than %zu distinct rounds "
			      "(bench, metric, side, pad and round; the limit)",
			      a->opts.max_rounds ? a->opts.max_rounds : (size_t)UINT32_MAX - 2);
		return NO_ROUND;
	}
	if (a->nrs == a->rs_cap) {
		size_t cap = a->rs_cap ? 2 * a->rs_cap : 64;
		struct rstore *n = realloc(a->rs, cap * sizeof(*n));
		if (!n) {
			plumb_err_oom(err, "analysis rounds");
			return NO_ROUND;
		}
		a->rs = n;
		a->rs_cap = cap;
	}
	r = &a->rs[a->nrs++];
	r->key = key;
	r->u.one = 0;
	if (2 * a->nrs > a->rhash_size) {
		if (rhash_rebuild(a, a->rhash_size ? 2 * a->rhash_size : 256) < 0) {
			a->nrs--;
			plumb_err_oom(err, "analysis rounds");
			return NO_ROUND;
		}
	} else {
		a->rhash[s] = (uint32_t)a->nrs;
	}
	*created = 1;
	return a->nrs - 1;
}

/* A samples-mode round's record, empty, for the round r just created. */
static int sround_new(struct analysis *a, struct rstore *r, struct plumb_err *err)
{
	if (a->nsr == a->sr_cap) {
		size_t cap = a->sr_cap ? 2 * a->sr_cap : 64;
		struct sround *n = realloc(a->sr, cap * sizeof(*n));
		if (!n)
			return plumb_err_oom(err, "analysis rounds");
		a->sr = n;
		a->sr_cap = cap;
	}
	memset(&a->sr[a->nsr], 0, sizeof(a->sr[a->nsr]));
	r->u.s = a->nsr++;
	return 0;
}

static int push_value(struct sround *r, double v, struct plumb_err *err)
{
	if (r->n == 0 && r->cap == 0) {
		r->u.one = v;
		r->n = 1;
		return 0;
	}
	if (r->n == UINT32_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "column 'iter': more than %u samples "
				     "in one round", UINT32_MAX);
	if (r->cap == 0) {
		double *p = malloc(64 * sizeof(*p));
		if (!p)
			return plumb_err_oom(err, "analysis samples");
		p[0] = r->u.one;
		r->u.v = p;
		r->cap = 64;
	} else if (r->n == r->cap) {
		uint32_t cap = r->cap > UINT32_MAX / 2 ? UINT32_MAX : 2 * r->cap;
		double *p = realloc(r->u.v, (size_t)cap * sizeof(*p));
		if (!p)
			return plumb_err_oom(err, "analysis samples");
		r->u.v = p;
		r->cap = cap;
	}
	r->u.v[r->n++] = v;
	return 0;
}

/* "bench 'b' metric 'm' side base pad 0 round 3", for messages. */
static void where(char *out, size_t size, const struct group *g, uint64_t key)
{
	snprintf(out, size, "bench '%s' metric '%s' side %s pad %u round %u", g->bench,
		 g->metric, analysis_side_name((enum analysis_side)KEY_SIDE(key)),
		 KEY_PAD(key), KEY_ROUND(key));
}

static int round_figures(struct analysis *a, const struct group *g, uint64_t key,
			 const struct sround *r, struct analysis_iter *it, double *median,
			 struct plumb_err *err);

/*
 * opts.consecutive: reduce the samples-mode round ri, the one open, now:
 * keep its figures (or its median) and free its samples.
 */
static int reduce_early(struct analysis *a, size_t ri, struct plumb_err *err)
{
	struct rstore *rs = &a->rs[ri];
	const struct group *g = &a->groups[KEY_GROUP(rs->key)];
	struct analysis_iter it;
	struct early *e;
	double median;

	if (g->mode != ANALYSIS_SAMPLES)
		return 0;
	assert(a->nsr == 1 && rs->u.s == 0);
	if (round_figures(a, g, rs->key, &a->sr[0], &it, &median, err) < 0)
		return err->code;
	if (a->opts.values_only) {
		rs->u.one = median;
	} else {
		if (a->nearly == a->early_cap) {
			size_t cap = a->early_cap ? 2 * a->early_cap : 64;
			e = realloc(a->early, cap * sizeof(*e));
			if (!e)
				return plumb_err_oom(err, "analysis rounds");
			a->early = e;
			a->early_cap = cap;
		}
		e = &a->early[a->nearly];
		e->it = it;
		e->median = median;
		rs->u.s = a->nearly++;
	}
	if (a->sr[0].cap)
		free(a->sr[0].u.v);
	a->nsr = 0;
	return 0;
}

static int add_fail(struct analysis *a, int rc)
{
	a->failed = rc;
	a->last = NO_ROUND;   /* no fast path after a failure */
	return rc;
}

int analysis_add(struct analysis *a, const char *bench, size_t bench_len,
		 const char *metric, size_t metric_len, enum analysis_side side,
		 uint32_t pad, uint32_t round, uint64_t iter, double value,
		 struct plumb_err *err)
{
	struct rstore *r = NULL;
	struct sround *sr;
	struct group *g;
	int created = 0;
	char w[PLUMB_ERR_MAX / 2];

	assert(a->magic == ANALYSIS_MAGIC);
	/*
	 * The common case first: the next sample of the previous row's round,
	 * with room in its array.  (A round with an array is in samples mode:
	 * process mode never stores a second value.)
	 */
	if (a->last != NO_ROUND && value >= 0 && isfinite(value)) {
		uint64_t lk = a->rs[a->last].key;
		const struct group *lg = &a->groups[KEY_GROUP(lk)];
		struct sround *l = lg->mode == ANALYSIS_SAMPLES ? &a->sr[a->rs[a->last].u.s] : NULL;
		if (l && iter == l->n && l->n < l->cap && KEY_ROUND(lk) == round &&
		    KEY_PAD(lk) == pad && KEY_SIDE(lk) == (unsigned)side &&
		    group_is(lg, bench, bench_len, metric, metric_len)) {
			l->u.v[l->n++] = value;
			a->rows++;
			return 0;
		}
	}
	if (a->failed)
		return plumb_err_set(err, a->failed, "analysis: add after an earlier error");
	if (a->finished)
		return plumb_err_set(err, PLUMB_EINTERNAL, "analysis: add after finish");
	if ((unsigned)side >= ANALYSIS_SIDES)
		return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'side': unknown side %d",
						 (int)side));
	if (pad > ANALYSIS_PAD_MAX)
		return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'pad': %u out of range",
						 pad));
	if (round > ANALYSIS_ROUND_MAX)
		return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'round': %u out of range",
						 round));
	if (!isfinite(value) || value < 0)
		return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'value': not a finite "
						 "non-negative number"));

	/* The previous row's round first: rows of one round come together. */
	if (a->last != NO_ROUND) {
		struct rstore *l = &a->rs[a->last];
		uint64_t lk = l->key;
		if (KEY_SIDE(lk) == (unsigned)side && KEY_PAD(lk) == pad &&
		    KEY_ROUND(lk) == round &&
		    group_is(&a->groups[KEY_GROUP(lk)], bench, bench_len, metric, metric_len))
			r = l;
	}
	if (!r) {
		struct group *prev = a->last != NO_ROUND ? &a->groups[KEY_GROUP(a->rs[a->last].key)] : NULL;
		long gi = -1;
		size_t ri;
		if (prev && prev->next &&
		    group_is(&a->groups[prev->next - 1], bench, bench_len, metric, metric_len))
			gi = (long)prev->next - 1;
		if (gi < 0) {
			gi = group_find(a, bench, bench_len, metric, metric_len, err);
			if (gi < 0)
				return add_fail(a, err->code);
			/* group_find() may have moved the groups. */
			if (a->last != NO_ROUND)
				a->groups[KEY_GROUP(a->rs[a->last].key)].next = (uint32_t)gi + 1;
		}
		ri = round_find(a, KEY(gi, side, pad, round), &created, err);
		if (ri == NO_ROUND)
			return add_fail(a, err->code);
		if (a->opts.consecutive && a->last != NO_ROUND && a->last != ri &&
		    reduce_early(a, a->last, err) < 0)
			return add_fail(a, err->code);
		r = &a->rs[ri];
		/* Not the previous row's round, so reduced already. */
		if (!created && a->opts.consecutive && a->groups[gi].mode == ANALYSIS_SAMPLES) {
			where(w, sizeof(w), &a->groups[KEY_GROUP(r->key)], r->key);
			return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'round': a row of "
				"%s after rows of another round (the rows of a round must be "
				"consecutive)", w));
		}
		a->last = ri;
	}
	g = &a->groups[KEY_GROUP(r->key)];
	if (iter == ANALYSIS_ITER_NONE) {
		if (g->mode == ANALYSIS_SAMPLES)
			return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'iter': '-' in "
				"bench '%s' metric '%s', whose other rows are per-iteration samples",
				g->bench, g->metric));
		g->mode = ANALYSIS_PROCESS;
		if (!created) {
			where(w, sizeof(w), g, r->key);
			return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'iter': a second "
				"'-' row for %s (one value per round)", w));
		}
		r->u.one = value;
		a->rows++;
		return 0;
	}
	if (g->mode == ANALYSIS_PROCESS)
		return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'iter': iteration "
			"%llu in bench '%s' metric '%s', whose other rows have '-' (one value "
			"per round)", (unsigned long long)iter, g->bench, g->metric));
	g->mode = ANALYSIS_SAMPLES;
	if (created && sround_new(a, r, err) < 0)
		return add_fail(a, err->code);
	sr = &a->sr[r->u.s];
	if (iter != sr->n) {
		where(w, sizeof(w), g, r->key);
		return add_fail(a, plumb_err_set(err, PLUMB_EINPUT, "column 'iter': %llu out "
			"of order for %s (expected %u: iterations are numbered 0, 1, 2, ... "
			"in order)", (unsigned long long)iter, w, (unsigned)sr->n));
	}
	if (push_value(sr, value, err) < 0)
		return add_fail(a, err->code);
	a->rows++;
	return 0;
}

/* --- finish --- */

static int cmp_rstore(const void *pa, const void *pb)
{
	uint64_t a = ((const struct rstore *)pa)->key, b = ((const struct rstore *)pb)->key;
	return (a > b) - (a < b);
}

static int cmp_group_ptr(const void *pa, const void *pb)
{
	const struct group *a = *(const struct group *const *)pa;
	const struct group *b = *(const struct group *const *)pb;
	int c = strcmp(a->bench, b->bench);
	return c ? c : strcmp(a->metric, b->metric);
}

static int scratch_need(struct analysis *a, size_t n, struct plumb_err *err)
{
	if (n <= a->scratch_cap)
		return 0;
	free(a->scratch);
	a->scratch = malloc(n * sizeof(*a->scratch));
	if (!a->scratch) {
		a->scratch_cap = 0;
		return plumb_err_oom(err, "analysis scratch");
	}
	a->scratch_cap = n;
	return 0;
}

/* Samples mode: the figures of the round key (x in time order); *median out. */
static int round_figures(struct analysis *a, const struct group *g, uint64_t key,
			 const struct sround *r, struct analysis_iter *it, double *median,
			 struct plumb_err *err)
{
	const double *x = r->cap ? r->u.v : &r->u.one;
	size_t n_raw = r->n, n, cap;
	const double *k;
	char w[PLUMB_ERR_MAX / 2];

	memset(it, 0, sizeof(*it));
	it->n_raw = n_raw;
	if (scratch_need(a, n_raw / 2 + 1 > n_raw ? n_raw / 2 + 1 : n_raw, err) < 0)
		return err->code;
	stats_warmup_apply(&a->opts.warmup, x, n_raw, a->scratch, &it->warm);
	n = n_raw - it->warm.start;
	if (n == 0) {
		where(w, sizeof(w), g, key);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: warmup %zu discards all %zu samples",
				     w, a->opts.warmup.discard, n_raw);
	}
	it->n = n;
	k = x + it->warm.start;
	memcpy(a->scratch, k, n * sizeof(*k));
	*median = stats_median_inplace(a->scratch, n);
	it->p99 = stats_percentile_inplace(a->scratch, n, 0.99);
	it->max = stats_max(k, n);
	it->co_expected = stats_co_expected(*median);
	cap = a->opts.co_cap > n ? a->opts.co_cap : n;
	it->co_n = stats_co_count(k, n, it->co_expected, cap, &it->co_capped);
	if (scratch_need(a, it->co_n, err) < 0)
		return err->code;
	stats_co_correct(k, n, it->co_expected, cap, a->scratch);
	it->co_p99 = stats_percentile_inplace(a->scratch, it->co_n, 0.99);
	return 0;
}

/*
 * A samples-mode round r's value (its median) into *value and, when it is
 * not NULL, its figures into *it; an open round's samples are freed.
 */
static int samples_round(struct analysis *a, const struct group *g, const struct rstore *r,
			 struct analysis_iter *it, double *value, struct plumb_err *err)
{
	struct analysis_iter scratch;
	struct sround *sd;
	int rc;

	if (a->opts.consecutive && a->opts.values_only) {
		*value = r->u.one;
		return 0;
	}
	if (a->opts.consecutive) {
		*value = a->early[r->u.s].median;
		if (it)
			*it = a->early[r->u.s].it;
		return 0;
	}
	sd = &a->sr[r->u.s];
	rc = round_figures(a, g, r->key, sd, it ? it : &scratch, value, err);
	if (sd->cap)
		free(sd->u.v);
	sd->cap = 0;
	sd->n = 0;
	return rc;
}

/* Median of vals[0..n) using tmp (n doubles). */
static double median_of(const double *vals, size_t n, double *tmp)
{
	return stats_median(vals, n, tmp);
}

/* The round a pad was first measured in: its sweep batch (stats/rule.h). */
static uint32_t first_round(const struct analysis_pad *p)
{
	uint32_t first = p->nrounds ? p->round[0] : 0;

	for (size_t r = 1; r < p->nrounds; r++)
		if (p->round[r] < first)
			first = p->round[r];
	return first;
}

int analysis_judge(const struct analysis_result *res, const struct stats_rule *rule,
		   enum stats_hot hot, enum stats_work work, struct stats_judgement *out)
{
	static const enum analysis_side order[3] = { ANALYSIS_BASE, ANALYSIS_CANDIDATE,
						     ANALYSIS_CONTROL };
	struct stats_judge_in in;
	struct stats_side_in *sides[3] = { &in.base, &in.candidate, &in.control };
	struct stats_pad_in *pads;
	size_t npads = 0, pi = 0;
	int rc;

	for (int s = 0; s < 3; s++)
		npads += res->side[order[s]].npads;
	pads = calloc(npads ? npads : 1, sizeof(*pads));
	if (!pads)
		return stats_judge_oom(rule, out);
	memset(&in, 0, sizeof(in));
	in.hot = hot;
	in.work = work;
	in.deterministic = res->deterministic;
	for (int s = 0; s < 3; s++) {
		const struct analysis_side_result *sr = &res->side[order[s]];
		sides[s]->pads = &pads[pi];
		sides[s]->npads = sr->npads;
		for (size_t p = 0; p < sr->npads; p++) {
			struct stats_pad_in *pin = &pads[pi++];
			pin->pad = sr->pads[p].pad;
			pin->values = sr->pads[p].value;
			pin->n = sr->pads[p].nrounds;
			pin->batch = first_round(&sr->pads[p]);
		}
	}
	rc = stats_judge(rule, &in, out);
	free(pads);
	return rc;
}

int analysis_finish(struct analysis *a, struct plumb_err *err)
{
	const struct group **order = NULL;
	uint32_t *gstart = NULL;
	double *vals = NULL, *tmp = NULL, *p99s = NULL, *co99s = NULL;
	size_t max_rounds = 0, max_pads = 0, npads_total = 0, nsamples_rounds = 0;
	size_t pi = 0, ii = 0;
	int rc = 0;

	assert(a->magic == ANALYSIS_MAGIC);
	if (a->failed)
		return plumb_err_set(err, a->failed, "%s", a->finish_msg[0] ? a->finish_msg :
				     "analysis: finish after an earlier error");
	if (a->finished)
		return 0;
	if (a->rows == 0)
		return plumb_err_set(err, PLUMB_EINPUT, "no samples (a header row but no data rows)");

	/* Consecutive rounds: the last one read is reduced like the others. */
	if (a->opts.consecutive && a->last != NO_ROUND && (rc = reduce_early(a, a->last, err)) < 0)
		goto out;
	/* The hash goes first: the sort's scratch takes as much as the rounds. */
	free_hash(a);
	qsort(a->rs, a->nrs, sizeof(*a->rs), cmp_rstore);
	a->last = NO_ROUND;

	/* Sizes: pads, the most rounds in a pad, the most pads in a side. */
	for (size_t i = 0; i < a->nrs;) {
		size_t j = i, pads = 0;
		uint64_t side_of = a->rs[i].key >> 46;
		while (j < a->nrs && (a->rs[j].key >> 46) == side_of) {
			size_t k = j;
			uint64_t pad_of = a->rs[j].key >> 30;
			while (k < a->nrs && (a->rs[k].key >> 30) == pad_of)
				k++;
			if (k - j > max_rounds)
				max_rounds = k - j;
			pads++;
			j = k;
		}
		npads_total += pads;
		if (pads > max_pads)
			max_pads = pads;
		i = j;
	}
	for (size_t i = 0; i < a->nrs; i++)
		if (a->groups[KEY_GROUP(a->rs[i].key)].mode == ANALYSIS_SAMPLES)
			nsamples_rounds++;

	order = malloc(a->ngroups * sizeof(*order));
	gstart = malloc((a->ngroups + 1) * sizeof(*gstart));
	a->results = calloc(a->ngroups, sizeof(*a->results));
	a->pads = calloc(npads_total, sizeof(*a->pads));
	a->round_no = malloc(a->nrs * sizeof(*a->round_no));
	a->values = malloc(a->nrs * sizeof(*a->values));
	if (a->opts.values_only)
		nsamples_rounds = 0;   /* no figures per round, nor their medians per pad */
	a->iters = nsamples_rounds ? calloc(nsamples_rounds, sizeof(*a->iters)) : NULL;
	vals = malloc(max_pads * sizeof(*vals));
	tmp = malloc((max_rounds > max_pads ? max_rounds : max_pads) * sizeof(*tmp));
	if (nsamples_rounds) {
		p99s = malloc(max_rounds * sizeof(*p99s));
		co99s = malloc(max_rounds * sizeof(*co99s));
	}
	if (!order || !gstart || !a->results || !a->pads || !a->round_no || !a->values ||
	    (nsamples_rounds && (!a->iters || !p99s || !co99s)) || !vals || !tmp) {
		rc = plumb_err_oom(err, "analysis results");
		goto out;
	}

	/* Where each group's rounds start in the sorted array. */
	{
		size_t i = 0;
		for (uint32_t g = 0; g <= a->ngroups; g++) {
			while (i < a->nrs && KEY_GROUP(a->rs[i].key) < g)
				i++;
			gstart[g] = (uint32_t)i;
		}
	}
	for (uint32_t g = 0; g < a->ngroups; g++)
		order[g] = &a->groups[g];
	qsort(order, a->ngroups, sizeof(*order), cmp_group_ptr);

	a->nresults = 0;
	for (size_t o = 0; o < a->ngroups; o++) {
		const struct group *grp = order[o];
		size_t g = (size_t)(grp - a->groups);
		struct analysis_result *res = &a->results[a->nresults];
		size_t i = gstart[g], end = gstart[g + 1];

		if (i == end)
			continue;   /* a group whose only row was rejected */
		res->bench = grp->bench;
		res->metric = grp->metric;
		for (const char *const *d = a->opts.deterministic; d && *d; d++)
			if (strcmp(*d, res->metric) == 0)
				res->deterministic = 1;
		res->mode = grp->mode == ANALYSIS_SAMPLES ? ANALYSIS_SAMPLES : ANALYSIS_PROCESS;
		while (i < end) {
			unsigned side = KEY_SIDE(a->rs[i].key);
			struct analysis_side_result *sr = &res->side[side];
			size_t min_rounds = (size_t)-1;

			sr->pads = &a->pads[pi];
			while (i < end && KEY_SIDE(a->rs[i].key) == side) {
				struct analysis_pad *pad = &a->pads[pi++];
				uint32_t padno = KEY_PAD(a->rs[i].key);

				pad->pad = padno;
				pad->round = &a->round_no[i];
				pad->value = &a->values[i];
				pad->iter = res->mode == ANALYSIS_SAMPLES && a->iters ? &a->iters[ii] : NULL;
				while (i < end && KEY_SIDE(a->rs[i].key) == side &&
				       KEY_PAD(a->rs[i].key) == padno) {
					const struct rstore *r = &a->rs[i];
					a->round_no[i] = KEY_ROUND(r->key);
					if (res->mode == ANALYSIS_SAMPLES) {
						struct analysis_iter *it = pad->iter ? &a->iters[ii++] : NULL;
						if ((rc = samples_round(a, grp, r, it, &a->values[i], err)) < 0)
							goto out;
						if (it) {
							p99s[pad->nrounds] = it->p99;
							co99s[pad->nrounds] = it->co_p99;
							if (a->opts.warmup.kind == STATS_WARMUP_AUTO &&
							    !it->warm.steady)
								res->unsteady_rounds++;
						}
					} else {
						a->values[i] = r->u.one;
					}
					pad->nrounds++;
					i++;
				}
				pad->median = median_of(pad->value, pad->nrounds, tmp);
				if (pad->iter) {
					pad->p99 = median_of(p99s, pad->nrounds, tmp);
					pad->co_p99 = median_of(co99s, pad->nrounds, tmp);
				}
				if (pad->nrounds < min_rounds)
					min_rounds = pad->nrounds;
				sr->npads++;
			}
			for (size_t p = 0; p < sr->npads; p++)
				vals[p] = sr->pads[p].median;
			stats_side_reduce(vals, sr->npads, min_rounds, tmp, &sr->summary);
		}
		if (a->opts.judge_later) {
			memset(&res->judge, 0, sizeof(res->judge));
			res->judge.rule = a->opts.rule;
			res->judge.verdict = VERDICT_INSUFFICIENT;
			snprintf(res->judge.why, sizeof(res->judge.why), "not judged");
		} else if (analysis_judge(res, &a->opts.rule, STATS_HOT_UNKNOWN, STATS_WORK_UNKNOWN, &res->judge) < 0) {
			rc = errno == ENOMEM ? plumb_err_oom(err, "analysis results")
					     : plumb_err_set(err, PLUMB_EINPUT, "%s", res->judge.why);
			goto out;
		}
		a->nresults++;
	}
	a->finished = 1;
	free_samples(a);
	free(a->scratch);
	a->scratch = NULL;
	a->scratch_cap = 0;
out:
	if (rc < 0) {
		a->failed = rc;
		snprintf(a->finish_msg, sizeof(a->finish_msg), "%s", err->msg);
	}
	free(order);
	free(gstart);
	free(vals);
	free(tmp);
	free(p99s);
	free(co99s);
	return rc;
}
