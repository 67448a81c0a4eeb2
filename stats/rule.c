/*
 * stats/rule.c: the verdict rules; definitions in rule.h and docs/verdict.md.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "stats/quantile.h"
#include "stats/rule.h"
#include "stats/shift.h"
#include "common/banned.h"

void stats_rule_margin(struct stats_rule *r)
{
	memset(r, 0, sizeof(*r));
	r->kind = STATS_RULE_MARGIN;
	r->version = STATS_RULE_MARGIN_VERSION;
	r->confidence = STATS_RULE_CONFIDENCE;
	r->noise_factor = 1.0;
	r->resamples = STATS_RULE_RESAMPLES;
	r->seed = STATS_RULE_SEED;
}

void stats_rule_default(struct stats_rule *r)
{
	stats_rule_margin(r);
	r->kind = STATS_RULE_SHIFT;
	r->version = STATS_RULE_SHIFT_VERSION;
	r->confidence = STATS_RULE_SHIFT_CONFIDENCE;
	r->min_effect = STATS_RULE_MIN_EFFECT;
}

void stats_rule_overlap(struct stats_rule *r)
{
	stats_rule_margin(r);
	r->kind = STATS_RULE_OVERLAP;
	r->version = STATS_RULE_OVERLAP_VERSION;
}

int stats_rule_select(const char *name, int version, struct stats_rule *r)
{
	if (strcmp(name, "overlap") == 0 && (version == 0 || version == STATS_RULE_OVERLAP_VERSION)) {
		stats_rule_overlap(r);
		return 0;
	}
	if (strcmp(name, "margin") == 0 && (version == 0 || version == STATS_RULE_MARGIN_VERSION)) {
		stats_rule_margin(r);
		return 0;
	}
	if (strcmp(name, "shift") == 0 &&
	    (version == 0 || version == 3 || version == STATS_RULE_SHIFT_VERSION)) {
		stats_rule_default(r);
		if (version == 3)
			r->version = 3;
		return 0;
	}
	return -1;
}

const char *stats_rule_name(enum stats_rule_kind k)
{
	return k == STATS_RULE_OVERLAP ? "overlap" : k == STATS_RULE_MARGIN ? "margin" :
	       k == STATS_RULE_SHIFT ? "shift" : "?";
}

int stats_rule_check(const struct stats_rule *r, const char **why)
{
	*why = NULL;
	if (r->kind == STATS_RULE_OVERLAP && r->version != STATS_RULE_OVERLAP_VERSION)
		*why = "overlap has version 1 only";
	else if (r->kind == STATS_RULE_MARGIN && r->version != STATS_RULE_MARGIN_VERSION)
		*why = "margin has version 2 only";
	else if (r->kind == STATS_RULE_SHIFT && r->version != 3 && r->version != STATS_RULE_SHIFT_VERSION)
		*why = "shift has versions 3 and 4 only";
	else if (r->kind != STATS_RULE_OVERLAP && r->kind != STATS_RULE_MARGIN &&
		 r->kind != STATS_RULE_SHIFT)
		*why = "unknown rule";
	else if (r->kind == STATS_RULE_SHIFT && !(r->min_effect >= 0 && r->min_effect < 1))
		*why = "minEffect must be at least 0 and below 1";
	else if (!(r->confidence >= 0.5 && r->confidence < 1))
		*why = "confidence must be at least 0.5 and below 1";
	else if (!(r->noise_factor >= 0 && r->noise_factor <= 100))
		*why = "noiseFactor must be between 0 and 100";
	else if (r->resamples < 100 || r->resamples > STATS_RULE_RESAMPLES_MAX)
		*why = "resamples must be between 100 and 100000";
	return *why ? -1 : 0;
}

unsigned stats_sweep_looks(unsigned start, unsigned step, unsigned max)
{
	if (max <= start || step == 0)
		return 1;
	return 1 + (max - start + step - 1) / step;
}

double stats_confidence_per_look(double confidence, unsigned looks)
{
	return round((1 - (1 - confidence) / (looks ? looks : 1)) * 1e6) / 1e6;
}

const char *stats_reason_name(enum stats_reason r)
{
	switch (r) {
	case STATS_REASON_NONE: return "";
	case STATS_REASON_OVERLAP: return "ranges overlap";
	case STATS_REASON_WITHIN_NOISE: return "ranges apart by no more than the noise";
	case STATS_REASON_HOT_IDENTICAL: return "hot code identical";
	case STATS_REASON_HOT_SAME_CODE: return "hot code identical except the addresses of moved data";
	case STATS_REASON_ONE_PAD: return "too few pads to rule out placement";
	case STATS_REASON_APART: return "ranges apart by more than the noise";
	case STATS_REASON_MISSING: return "a side has no samples";
	case STATS_REASON_FEW_ROUNDS: return "a pad has too few rounds";
	case STATS_REASON_BEYOND: return "the shift's interval lies beyond the minimum effect";
	case STATS_REASON_WITHIN: return "the shift's interval lies within the minimum effect";
	case STATS_REASON_STRADDLES: return "the shift's interval reaches across an edge of the minimum effect";
	case STATS_REASON_FEW_PADS: return "too few pads to reach the rule's confidence";
	}
	return "";
}

const char *stats_undecided(const struct stats_judgement *jd)
{
	switch (jd->verdict) {
	case VERDICT_NOISY:
		return "ranges apart by no more than the noise";
	case VERDICT_UNSWEPT:
		return "too few pads for the confidence level";
	case VERDICT_INSUFFICIENT:
		return jd->reason == STATS_REASON_FEW_ROUNDS ? "a pad has too few rounds" : NULL;
	case VERDICT_PLACEMENT:
		if (jd->reason == STATS_REASON_STRADDLES)
			return "the shift's interval reaches across an edge of the minimum effect";
		if (jd->reason == STATS_REASON_OVERLAP &&
		    (jd->base.s.max < jd->candidate.s.min || jd->candidate.s.max < jd->base.s.min))
			return "pad intervals too wide (the pad medians are apart)";
		return NULL;
	case VERDICT_SLOWER:
	case VERDICT_FASTER:
	case VERDICT_UNCHANGED:
	case VERDICT_UNSET:
	case VERDICT_COUNT:
		break;
	}
	return NULL;
}

/* ---- order statistics -------------------------------------------------------- */

void stats_median_ranks(size_t n, double confidence, size_t *l, size_t *u, double *level)
{
	double alpha2 = (1 - confidence) / 2, logp, cdf = 0, below = 0;
	size_t k;

	*l = 1;
	*u = n;
	*level = 0;
	if (n == 0)
		return;
	/* cdf = P(Bin(n, 1/2) <= k), walked up in log space. */
	logp = -(double)n * log(2.0);
	for (k = 0; k < n / 2; k++) {
		cdf += exp(logp);
		if (cdf > alpha2)
			break;
		below = cdf;   /* P(Bin < k + 1) <= alpha / 2: rank k + 1 works */
		*l = k + 1;
		logp += log((double)(n - k) / (double)(k + 1));
	}
	if (*l == 1)
		below = exp(-(double)n * log(2.0));
	*u = n + 1 - *l;
	*level = 1 - 2 * below;
	if (*level < 0)
		*level = 0;
}

void stats_pad_interval(const double *values, size_t n, double confidence,
			double *scratch, struct stats_pad_interval *out)
{
	size_t l, u;

	stats_median_ranks(n, confidence, &l, &u, &out->level);
	out->median = stats_median(values, n, scratch);
	memcpy(scratch, values, n * sizeof(*scratch));
	out->lo = stats_select(scratch, n, l - 1);
	out->hi = stats_select(scratch, n, u - 1);
}

/* ---- the bootstrap --------------------------------------------------------------- */

/*
 * The stream: splitmix64, one state advanced by a constant per draw.  A
 * draw among n scales the top 53 bits to [0, 1) and by n, and truncates.
 * Every interval recorded in a bundle came from these draws in this order
 * (per replicate the base side, then the candidate: for each pad slot a
 * pad drawn among the side's pads, then its rounds drawn among its n), so
 * neither the formula nor the order may change.
 */
#define SPLITMIX_STEP 0x9e3779b97f4a7c15ull
#define SPLITMIX_MUL1 0xbf58476d1ce4e5b9ull
#define SPLITMIX_MUL2 0x94d049bb133111ebull

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += SPLITMIX_STEP);
	z = (z ^ (z >> 30)) * SPLITMIX_MUL1;
	z = (z ^ (z >> 27)) * SPLITMIX_MUL2;
	return z ^ (z >> 31);
}

/*
 * A draw among n (n < 2^32).  Written first as (x 2^-53) n for the top 53
 * bits x; x (n 2^-53) is the same figure: both are one rounding of the
 * real x n 2^-53, since the other product is exact either way (a power of
 * two times x < 2^53, or times n: nothing subnormal).  n 2^-53 is what a
 * loop of draws among one n computes once.  The product is below n <
 * 2^32, so it truncates through a signed integer to the same figure, in
 * one instruction where an unsigned one tests for 2^63 first (4% of a
 * 1,000,000-round bundle's verify, bench/bundle.sh --rounds).
 */
static size_t draw(uint64_t *s, size_t n)
{
	return (size_t)(int64_t)((double)(splitmix(s) >> 11) * ((double)n * (1.0 / 9007199254740992.0)));
}

/* Count the next n draws among n by the rank of the value each picks. */
static void boot_count(uint64_t *s, size_t n, uint32_t *cnt, const uint32_t *rank)
{
	for (size_t i = 0; i < n; i++)
		cnt[rank[draw(s, n)]]++;
}

/*
 * A pad ready for resampling.  A replicate's median is an order statistic
 * of the values drawn, and the values sorted are monotone in their rank:
 * so the median of the values at the drawn indices is the value at the
 * median of the drawn ranks.  Counting the draws (an array of n counters,
 * walked in rank order) gives the same number as copying the values
 * drawn and selecting their median, bit for bit (the same draws in the
 * same order, the same two middle values averaged the same way), in a
 * fraction of the time: the selection was most of what a comparison of
 * many rounds cost after its measuring.
 *
 * Only the draws in a window of ranks around the middle are counted by
 * rank, the others only as below or above it: one byte per round says
 * which (zone), where a counter per rank, read at random, left the cache
 * once a pad had some 100,000 rounds and made the time grow faster than
 * the rounds.  A replicate's median rank has a standard deviation of
 * sqrt(n) / 2 ranks; the window spans 3 of them each way, and the few
 * replicates (0.3%) whose median falls outside it draw again from the
 * same state, counting every rank.
 */
enum { BOOT_BELOW, BOOT_INSIDE, BOOT_ABOVE };

struct boot_pad {
	const double *sorted;    /* NULL: a summary-only pad, median below */
	const uint32_t *rank;    /* rank[i]: where values[i] is in sorted */
	const unsigned char *zone;   /* zone[i]: rank[i] below lo, inside, or from hi on */
	size_t n, lo, hi;        /* the window: ranks lo to hi - 1 */
	double median;
};

struct boot_side {
	struct boot_pad *pads;
	size_t npads;
};

struct ranked {
	double v;
	uint32_t i;
};

static int by_value(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v < y->v)
		return -1;
	if (x->v > y->v)
		return 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * bp[npads]; sorted, rank, zone: the side's rounds in all; pairs: the most
 * rounds.
 */
static void boot_prepare(const struct stats_side_in *in, struct boot_pad *bp,
			 double *sorted, uint32_t *rank, unsigned char *zone,
			 struct ranked *pairs)
{
	for (size_t i = 0; i < in->npads; i++) {
		const struct stats_pad_in *p = &in->pads[i];
		size_t w = (size_t)(1.5 * sqrt((double)p->n)) + 4, mid = p->n / 2;

		bp[i].n = p->n;
		bp[i].median = p->median;
		bp[i].sorted = NULL;
		bp[i].rank = NULL;
		bp[i].zone = NULL;
		if (!p->values)
			continue;
		for (size_t r = 0; r < p->n; r++) {
			pairs[r].v = p->values[r];
			pairs[r].i = (uint32_t)r;
		}
		qsort(pairs, p->n, sizeof(*pairs), by_value);
		for (size_t r = 0; r < p->n; r++) {
			sorted[r] = pairs[r].v;
			rank[pairs[r].i] = (uint32_t)r;
		}
		bp[i].lo = mid > w ? mid - w : 0;
		bp[i].hi = p->n - mid > w ? mid + w : p->n;
		for (size_t r = 0; r < p->n; r++)
			zone[r] = rank[r] < bp[i].lo ? BOOT_BELOW :
				  rank[r] < bp[i].hi ? BOOT_INSIDE : BOOT_ABOVE;
		bp[i].sorted = sorted;
		bp[i].rank = rank;
		bp[i].zone = zone;
		sorted += p->n;
		rank += p->n;
		zone += p->n;
	}
}

/*
 * The rank of order statistic k (0-based) of the draws counted by rank in
 * cnt, walked from rank p,
 * below which fall `below` of them.  From the middle rank the walk is
 * about the spread of a replicate's median, a few times sqrt(n) ranks,
 * where from rank 0 it was n / 2.
 */
static size_t boot_rank(const uint32_t *cnt, size_t p, size_t below,
			size_t k)
{
	size_t j = p, cum = below;   /* cum: the draws at ranks below j */

	if (cum <= k) {
		while (cum + cnt[j] <= k)
			cum += cnt[j++];
	} else {
		while (cum > k)
			cum -= cnt[--j];
	}
	return j;
}

/*
 * The median of the n values drawn from p from state *s, every draw
 * counted by rank in cnt (zero on entry and on return).  The walks start
 * at the middle rank.
 */
static double boot_median_all(const struct boot_pad *p, uint32_t *cnt, uint64_t *s)
{
	size_t n = p->n, hi = n / 2, below = 0;
	double upper;

	boot_count(s, n, cnt, p->rank);
	for (size_t j = 0; j < hi; j++)
		below += cnt[j];
	upper = p->sorted[boot_rank(cnt, hi, below, hi)];
	/* An even count averages the two middle values: order statistics
	 * hi - 1 and hi (0-based), as stats_median_inplace() does. */
	if (n % 2 == 0)
		upper = (p->sorted[boot_rank(cnt, hi, below, hi - 1)] + upper) / 2;
	memset(cnt, 0, n * sizeof(*cnt));
	return upper;
}

/*
 * The median of n values drawn from p into *out, the draws inside p's
 * window counted by rank in win (less its start; zero on entry and on
 * return), or, when the median is not among them, boot_median_all() from
 * the same state *s (not yet advanced) with all's n counters: the same
 * draws, the same figure.  Without all (a worker's), -1 and *s not
 * advanced: the replicate is done again with them.
 */
static int boot_median(const struct boot_pad *p, uint32_t *win, uint32_t *all, uint64_t *s,
		       double *out)
{
	size_t n = p->n, hi = n / 2, below = 0, inside = 0;
	uint64_t st = *s;   /* a local copy: the loop keeps it in a register */
	double upper;

	for (size_t i = 0; i < n; i++) {
		size_t d = draw(&st, n);
		unsigned z = p->zone[d];
		below += z == BOOT_BELOW;
		if (z == BOOT_INSIDE) {
			win[p->rank[d] - p->lo]++;
			inside++;
		}
	}
	/* Order statistics hi - 1 (n even) and hi are draws below + 0 to
	 * below + inside - 1, or the window is not enough. */
	if (below > (n % 2 == 0 ? hi - 1 : hi) || below + inside <= hi) {
		memset(win, 0, (p->hi - p->lo) * sizeof(*win));
		if (!all)
			return -1;
		*out = boot_median_all(p, all, s);
		return 0;
	}
	*s = st;
	upper = p->sorted[p->lo + boot_rank(win, 0, below, hi)];
	if (n % 2 == 0)
		upper = (p->sorted[p->lo + boot_rank(win, 0, below, hi - 1)] + upper) / 2;
	memset(win, 0, (p->hi - p->lo) * sizeof(*win));
	*out = upper;
	return 0;
}

/*
 * One replicate's center into *out: pads drawn with replacement, rounds
 * within them; -1 when a median is not in its pad's window and all is
 * NULL (boot_median()).
 */
static int boot_center(const struct boot_side *side, uint64_t *s, double *pm, uint32_t *win,
		       uint32_t *all, double *out)
{
	for (size_t i = 0; i < side->npads; i++) {
		const struct boot_pad *p = &side->pads[draw(s, side->npads)];
		if (!p->sorted)
			pm[i] = p->median;
		else if (boot_median(p, win, all, s, &pm[i]) < 0)
			return -1;
	}
	*out = stats_median_inplace(pm, side->npads);
	return 0;
}

/*
 * The state after one replicate's draws on a side from s, without making
 * them: a pad's rounds take n draws whatever they give, and a draw adds
 * SPLITMIX_STEP to the state, so n draws add n steps (mod 2^64).  Only
 * the pad draws are made.  This gives every replicate its first state
 * before any is computed, and so the replicates can be shared among
 * threads and still draw what one loop over them drew.
 */
static uint64_t boot_skip(const struct boot_side *side, uint64_t s)
{
	for (size_t i = 0; i < side->npads; i++) {
		const struct boot_pad *p = &side->pads[draw(&s, side->npads)];
		if (p->sorted)
			s += (uint64_t)p->n * SPLITMIX_STEP;
	}
	return s;
}

/*
 * The replicates shared among threads: each takes the next BOOT_CHUNK not
 * yet taken, so a thread slowed by the machine's other work takes fewer.
 * A replicate whose median falls outside a window is left to the calling
 * thread (BOOT_REDO), which alone holds a counter per round: a thread's
 * memory is a window's counters, whatever the rounds.
 */
enum { BOOT_SKIP, BOOT_KEEP, BOOT_REDO };
#define BOOT_CHUNK 8u

struct boot_job {
	const struct boot_side *base, *cand;
	const uint64_t *start;     /* start[i]: replicate i's first state */
	double *rep;               /* rep[i]: its ratio, when BOOT_KEEP */
	unsigned char *state;      /* state[i]: BOOT_SKIP (base center not above 0), KEEP, REDO */
	unsigned n;                /* replicates */
	size_t npm, nwin;          /* a thread's pad medians and window counters */
	atomic_uint next;          /* the first replicate not taken */
};

/* Replicate i into j->rep[i]; its state.  all: as boot_median(). */
static unsigned char boot_replicate(struct boot_job *j, unsigned i, double *pm, uint32_t *win,
				    uint32_t *all)
{
	uint64_t s = j->start[i];
	double cb, cc;

	if (boot_center(j->base, &s, pm, win, all, &cb) < 0 ||
	    boot_center(j->cand, &s, pm, win, all, &cc) < 0)
		return BOOT_REDO;
	if (!(cb > 0))
		return BOOT_SKIP;
	j->rep[i] = cc / cb;
	return BOOT_KEEP;
}

/* Take replicates until none is left. */
static void boot_take(struct boot_job *j, double *pm, uint32_t *win)
{
	for (;;) {
		unsigned i = atomic_fetch_add(&j->next, BOOT_CHUNK);
		if (i >= j->n)
			return;
		for (unsigned k = i; k < j->n && k - i < BOOT_CHUNK; k++)
			j->state[k] = boot_replicate(j, k, pm, win, NULL);
	}
}

/* A thread: its own pad medians and window counters (none: it takes nothing). */
static void *boot_thread(void *arg)
{
	struct boot_job *j = arg;
	double *pm = malloc(j->npm * sizeof(*pm));
	uint32_t *win = calloc(j->nwin, sizeof(*win));

	if (pm && win)
		boot_take(j, pm, win);
	free(pm);
	free(win);
	return NULL;
}

/* The CPUs this process may run on (its affinity mask), at least 1. */
static unsigned boot_cpus(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 1 ?
	       (unsigned)CPU_COUNT(&set) : 1;
}

/*
 * The replicates of job j, on as many threads as the process has CPUs
 * (the calling thread one of them); pm, win as a thread's, all a counter
 * per round of the largest pad.  A thread that cannot be started leaves
 * its share to the others: the figures are the same on any number.
 */
static void boot_run(struct boot_job *j, double *pm, uint32_t *win, uint32_t *all)
{
	unsigned want = boot_cpus(), started = 0;
	pthread_t *tids;
	sigset_t every, old;

	if (want > (j->n + BOOT_CHUNK - 1) / BOOT_CHUNK)
		want = (j->n + BOOT_CHUNK - 1) / BOOT_CHUNK;
	tids = want > 1 ? malloc((want - 1) * sizeof(*tids)) : NULL;
	/* Signals stay the calling thread's, as they were without threads. */
	sigfillset(&every);
	pthread_sigmask(SIG_SETMASK, &every, &old);
	for (unsigned t = 0; tids && t < want - 1; t++)
		if (pthread_create(&tids[started], NULL, boot_thread, j) == 0)
			started++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	boot_take(j, pm, win);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	for (unsigned i = 0; i < j->n; i++)
		if (j->state[i] == BOOT_REDO)
			j->state[i] = boot_replicate(j, i, pm, win, all);
}

/* ---- the judgement --------------------------------------------------------------- */

static size_t max_rounds(const struct stats_side_in *s)
{
	size_t m = 0;
	for (size_t i = 0; i < s->npads; i++)
		if (s->pads[i].values && s->pads[i].n > m)
			m = s->pads[i].n;
	return m;
}

/* Reduce one side; pm holds npads doubles, tmp the most rounds. */
static void judge_side(const struct stats_rule *rule, const struct stats_side_in *in,
		       double *pm, double *tmp, double *halfw, size_t *nhalf,
		       struct stats_side_judged *out)
{
	size_t minr = (size_t)-1;

	memset(out, 0, sizeof(*out));
	out->level = 1;
	for (size_t i = 0; i < in->npads; i++) {
		struct stats_pad_interval iv;
		if (in->pads[i].values) {
			stats_pad_interval(in->pads[i].values, in->pads[i].n, rule->confidence, tmp, &iv);
		} else {
			size_t l, u;
			iv.median = in->pads[i].median;
			iv.lo = in->pads[i].lo;
			iv.hi = in->pads[i].hi;
			stats_median_ranks(in->pads[i].n, rule->confidence, &l, &u, &iv.level);
		}
		pm[i] = iv.median;
		if (in->pads[i].n < minr)
			minr = in->pads[i].n;
		if (i == 0 || iv.lo < out->lo)
			out->lo = iv.lo;
		if (i == 0 || iv.hi > out->hi)
			out->hi = iv.hi;
		if (iv.level < out->level)
			out->level = iv.level;
		if (iv.median > 0)
			halfw[(*nhalf)++] = (iv.hi - iv.lo) / (2 * iv.median);
	}
	stats_side_reduce(pm, in->npads, minr, tmp, &out->s);
	if (rule->kind == STATS_RULE_OVERLAP) {
		out->lo = out->s.min;
		out->hi = out->s.max;
	}
}

/* log C(a + b, a) */
static double log_choose(size_t a, size_t b)
{
	return lgamma((double)(a + b) + 1) - lgamma((double)a + 1) - lgamma((double)b + 1);
}

/*
 * A deterministic metric's claim holds: no pad's values differ, and some
 * pad holds two (the check was made), or none holds values at all.
 */
static int repeats_exactly(const struct stats_judge_in *in)
{
	const struct stats_side_in *sides[3] = { &in->base, &in->candidate, &in->control };
	int checked = 0, values = 0;

	if (!in->deterministic)
		return 0;
	for (int j = 0; j < 3; j++)
		for (size_t p = 0; p < sides[j]->npads; p++) {
			const struct stats_pad_in *pd = &sides[j]->pads[p];
			if (!pd->values)
				continue;
			values = 1;
			for (size_t r = 1; r < pd->n; r++)
				if (pd->values[r] != pd->values[0])
					return 0;
			checked |= pd->n >= 2;
		}
	return checked || !values;
}

static void insufficient(const struct stats_judge_in *in, struct stats_judgement *out)
{
	const struct stats_side_in *sides[2] = { &in->base, &in->candidate };
	static const char *const names[2] = { "base", "candidate" };
	size_t need = repeats_exactly(in) ? 1 : STATS_MIN_ROUNDS;

	out->verdict = VERDICT_INSUFFICIENT;
	for (int j = 0; j < 2; j++)
		if (sides[j]->npads == 0) {
			out->reason = STATS_REASON_MISSING;
			snprintf(out->why, sizeof(out->why), "no %s samples", names[j]);
			return;
		}
	for (int j = 0; j < 2; j++)
		for (size_t p = 0; p < sides[j]->npads; p++)
			if (sides[j]->pads[p].n < need) {
				size_t n = sides[j]->pads[p].n;
				out->reason = STATS_REASON_FEW_ROUNDS;
				snprintf(out->why, sizeof(out->why),
					 "%s pad %u has %zu round%s (fewer than %d)%s", names[j],
					 sides[j]->pads[p].pad, n, n == 1 ? "" : "s", STATS_MIN_ROUNDS,
					 in->deterministic ? "; the metric did not repeat exactly" : "");
				return;
			}
}

static size_t side_rounds(const struct stats_side_in *s)
{
	size_t t = 0;
	for (size_t i = 0; i < s->npads; i++)
		if (s->pads[i].values)
			t += s->pads[i].n;
	return t;
}

/* The most window counters a pad of side needs. */
static size_t max_window(const struct boot_side *side)
{
	size_t m = 0;
	for (size_t i = 0; i < side->npads; i++)
		if (side->pads[i].sorted && side->pads[i].hi - side->pads[i].lo > m)
			m = side->pads[i].hi - side->pads[i].lo;
	return m;
}

static int bootstrap(const struct stats_rule *rule, const struct stats_judge_in *in,
		     size_t npm, size_t ntmp, struct stats_judgement *out)
{
	size_t nb = side_rounds(&in->base), nc = side_rounds(&in->candidate), nwin;
	unsigned nrep = rule->resamples;
	double *rep = malloc(nrep * sizeof(*rep));
	uint64_t *start = malloc(nrep * sizeof(*start));
	unsigned char *state = malloc(nrep);
	double *pm = malloc(npm * sizeof(*pm));
	double *sorted = malloc((nb + nc + 1) * sizeof(*sorted));
	uint32_t *rank = malloc((nb + nc + 1) * sizeof(*rank));
	unsigned char *zone = malloc(nb + nc + 1);
	uint32_t *all = NULL, *win = NULL;
	struct ranked *pairs = malloc((ntmp + 1) * sizeof(*pairs));
	struct boot_pad *bp = malloc((in->base.npads + in->candidate.npads + 1) * sizeof(*bp));
	struct boot_side base = { bp, in->base.npads };
	struct boot_side cand = { bp + in->base.npads, in->candidate.npads };
	struct boot_job job;
	uint64_t s = rule->seed;
	size_t k = 0;
	double a = (1 - rule->confidence) / 2;
	int rc = -1;

	if (!rep || !start || !state || !pm || !sorted || !rank || !zone || !pairs || !bp) {
		errno = ENOMEM;
		goto done;
	}
	boot_prepare(&in->base, base.pads, sorted, rank, zone, pairs);
	boot_prepare(&in->candidate, cand.pads, sorted + nb, rank + nb, zone + nb, pairs);
	free(pairs);
	pairs = NULL;   /* before all: the two are the most memory a pad takes */
	nwin = max_window(&base) > max_window(&cand) ? max_window(&base) : max_window(&cand);
	if (!(win = calloc(nwin + 1, sizeof(*win))) || !(all = calloc(ntmp + 1, sizeof(*all)))) {
		errno = ENOMEM;
		goto done;
	}
	for (unsigned i = 0; i < nrep; i++) {
		start[i] = s;
		s = boot_skip(&cand, boot_skip(&base, s));
	}
	job.base = &base;
	job.cand = &cand;
	job.start = start;
	job.rep = rep;
	job.state = state;
	job.n = nrep;
	job.npm = npm;
	job.nwin = nwin + 1;
	atomic_init(&job.next, 0);
	boot_run(&job, pm, win, all);
	/* The kept ratios in replicate order, as one loop kept them. */
	for (unsigned i = 0; i < nrep; i++)
		if (state[i] == BOOT_KEEP)
			rep[k++] = rep[i];
	if (k) {
		out->has_interval = 1;
		/* Percentile interval: rank floor(a (k - 1)) and ceil((1 - a)(k - 1)). */
		size_t lo = (size_t)floor(a * (double)(k - 1));
		size_t hi = (size_t)ceil((1 - a) * (double)(k - 1));
		out->ratio_lo = stats_select(rep, k, lo);
		out->ratio_hi = stats_select(rep, k, hi < k ? hi : k - 1);
	}
	rc = 0;
done:
	free(rep);
	free(start);
	free(state);
	free(pm);
	free(sorted);
	free(rank);
	free(zone);
	free(all);
	free(win);
	free(pairs);
	free(bp);
	return rc;
}

/* The pad medians of a side into pm (npads doubles); tmp holds the most rounds. */
static void pad_medians(const struct stats_side_in *in, double *pm, double *tmp)
{
	for (size_t i = 0; i < in->npads; i++)
		pm[i] = in->pads[i].values ? stats_median(in->pads[i].values, in->pads[i].n, tmp)
					   : in->pads[i].median;
}

/*
 * The shift rule's verdict (rule.h), after the sides are reduced and the
 * rounds checked; bm, cm hold each side's pads.  -1 when memory runs out.
 */
static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The group (stratum) of batch b among the sorted batches ub[0..nb). */
static size_t group_of(const uint32_t *ub, const size_t *grp, size_t nb, uint32_t b)
{
	const uint32_t *f = bsearch(&b, ub, nb, sizeof(*ub), by_u32);

	return f ? grp[f - ub] : 0;
}

/*
 * shift v4's strata (rule.h): the pad medians bm[0..base.npads) and
 * cm[0..candidate.npads) reordered batch by batch, the sizes into st (its
 * m and c arrays hold npads entries each).  Batches in the order of their
 * first round; a batch that lacks a side joins the next, and one left over
 * at the end the one before.  Any pad of unknown batch: one stratum.  -1
 * when memory runs out.
 */
static int batch_strata(const struct stats_judge_in *in, double *bm, double *cm, size_t *sm,
			size_t *sc, struct stats_strata *st)
{
	size_t nb = in->base.npads, nc = in->candidate.npads, n = nb + nc, nu = 0, ng = 0;
	uint32_t *ub = malloc(n * sizeof(*ub));
	size_t *grp = malloc(n * sizeof(*grp));
	double *copy = malloc(n * sizeof(*copy));
	int unknown = 0;

	st->m = sm;
	st->c = sc;
	st->n = 1;
	sm[0] = nb;
	sc[0] = nc;
	if (!ub || !grp || !copy) {
		free(ub);
		free(grp);
		free(copy);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t b = i < nb ? in->base.pads[i].batch : in->candidate.pads[i - nb].batch;
		unknown |= b == 0;
		ub[i] = b;
	}
	if (!unknown) {
		qsort(ub, n, sizeof(*ub), by_u32);
		for (size_t i = 0; i < n; i++)
			if (nu == 0 || ub[nu - 1] != ub[i])
				ub[nu++] = ub[i];
		/* Close a group when it holds both sides. */
		size_t hb = 0, hc = 0;
		for (size_t u = 0; u < nu; u++) {
			grp[u] = ng;
			for (size_t i = 0; i < nb; i++)
				hb += in->base.pads[i].batch == ub[u];
			for (size_t j = 0; j < nc; j++)
				hc += in->candidate.pads[j].batch == ub[u];
			if (hb && hc) {
				sm[ng] = hb;
				sc[ng] = hc;
				ng++;
				hb = hc = 0;
			}
		}
		if (ng == 0) {       /* cannot be: both sides have pads */
			ng = 1;
			unknown = 1;
		} else if (hb || hc) {      /* the rest joins the group before */
			for (size_t u = 0; u < nu; u++)
				if (grp[u] == ng)
					grp[u] = ng - 1;
			sm[ng - 1] += hb;
			sc[ng - 1] += hc;
		}
	}
	if (!unknown) {
		st->n = ng;
		memcpy(copy, bm, nb * sizeof(*bm));
		memcpy(copy + nb, cm, nc * sizeof(*cm));
		for (size_t g = 0, bi = 0, ci = 0; g < ng; g++) {
			for (size_t i = 0; i < nb; i++)
				if (group_of(ub, grp, nu, in->base.pads[i].batch) == g)
					bm[bi++] = copy[i];
			for (size_t j = 0; j < nc; j++)
				if (group_of(ub, grp, nu, in->candidate.pads[j].batch) == g)
					cm[ci++] = copy[nb + j];
		}
	}
	free(ub);
	free(grp);
	free(copy);
	return 0;
}

static int judge_shift(const struct stats_rule *rule, const struct stats_judge_in *in,
		       double *bm, double *cm, double *tmp, struct stats_judgement *out)
{
	struct stats_shift sh;
	struct stats_strata st;
	double m = rule->min_effect, up, down;
	size_t n = in->base.npads + in->candidate.npads;
	size_t *sizes = malloc(2 * n * sizeof(*sizes));
	int rc;

	pad_medians(&in->base, bm, tmp);
	pad_medians(&in->candidate, cm, tmp);
	if (!sizes)
		return -1;
	if (rule->version >= 4) {
		rc = batch_strata(in, bm, cm, sizes, sizes + n, &st);
	} else {
		st = (struct stats_strata){ sizes, sizes + n, 1 };
		sizes[0] = in->base.npads;
		sizes[n] = in->candidate.npads;
		rc = 0;
	}
	if (rc == 0)
		rc = stats_shift_strata(bm, cm, &st, rule->confidence, &sh);
	out->batches = st.n;
	free(sizes);
	if (rc < 0)
		return -1;
	out->has_shift = 1;
	out->shift = sh.estimate;
	out->shift_lo = sh.lo;
	out->shift_hi = sh.hi;
	out->shift_level = sh.level;
	out->p = sh.p;
	out->p_min = sh.p_min;
	out->has_interval = 1;
	out->ratio_lo = 1 + sh.lo;
	out->ratio_hi = 1 + sh.hi;
	out->direction = sh.estimate >= 0 ? STATS_DIR_SLOWER : STATS_DIR_FASTER;
	out->control_outside = out->has_control &&
		(out->control.s.center < out->base.s.min || out->control.s.center > out->base.s.max);

	/* Power: the interval keeps its width about the estimate; how far must
	 * the candidate move for it to clear the band? */
	up = sh.log_scale ? (1 + sh.estimate) / (1 + sh.lo) : 1 + (sh.estimate - sh.lo);
	down = sh.log_scale ? (1 + sh.hi) / (1 + sh.estimate) : 1 + (sh.hi - sh.estimate);
	if (sh.reaches && isfinite(up) && isfinite(down)) {
		out->has_detectable = 1;
		out->detect_slower = (1 + m) * up - 1;
		out->detect_faster = 1 - m > 0 ? 1 - (1 - m) / down : 1;
		out->detectable = out->detect_slower > out->detect_faster ? out->detect_slower
									  : out->detect_faster;
	}

	if (out->reason == STATS_REASON_FEW_ROUNDS)
		return 0;   /* insufficient: figures above, no verdict */
	out->reason = STATS_REASON_NONE;
	if (!sh.reaches) {
		char most[UNITS_MAX], want[UNITS_MAX];

		out->verdict = VERDICT_UNSWEPT;
		out->reason = STATS_REASON_FEW_PADS;
		/* Rounded down: never "can reach 99%" for 98.9%. */
		units_level(floor(sh.level * 100) / 100, most);
		units_level(rule->confidence, want);
		snprintf(out->why, sizeof(out->why), "%zu+%zu pads can reach %s at most, not %s",
			 in->base.npads, in->candidate.npads, most, want);
		return 0;
	}
	if (sh.lo > m || sh.hi < -m) {
		out->verdict = sh.lo > m ? VERDICT_SLOWER : VERDICT_FASTER;
		out->reason = STATS_REASON_BEYOND;
	} else if (sh.lo >= -m && sh.hi <= m) {
		out->verdict = VERDICT_UNCHANGED;
		out->reason = STATS_REASON_WITHIN;
	} else {
		out->verdict = VERDICT_PLACEMENT;
		out->reason = STATS_REASON_STRADDLES;
	}
	/* Identical hot code decides only with the same work shown. */
	if ((in->hot == STATS_HOT_IDENTICAL || in->hot == STATS_HOT_SAME_CODE) &&
	    (out->verdict == VERDICT_SLOWER || out->verdict == VERDICT_FASTER)) {
		if (in->work == STATS_WORK_SAME) {
			out->verdict = VERDICT_PLACEMENT;
			out->reason = in->hot == STATS_HOT_IDENTICAL ? STATS_REASON_HOT_IDENTICAL
								      : STATS_REASON_HOT_SAME_CODE;
		} else {
			out->hot_remark = 1;
		}
	}
	return 0;
}

int stats_judge(const struct stats_rule *rule, const struct stats_judge_in *in,
		struct stats_judgement *out)
{
	const char *why;
	size_t npm, ntmp, nhalf = 0, npads_all;
	double *pm = NULL, *tmp = NULL, *halfw = NULL, cb;
	int margin, shift;

	memset(out, 0, sizeof(*out));
	out->rule = *rule;
	out->verdict = VERDICT_INSUFFICIENT;
	if (stats_rule_check(rule, &why) < 0) {
		snprintf(out->why, sizeof(out->why), "verdict rule: %s", why);
		errno = EINVAL;
		return -1;
	}
	margin = rule->kind == STATS_RULE_MARGIN;
	shift = rule->kind == STATS_RULE_SHIFT;
	insufficient(in, out);
	if (out->reason == STATS_REASON_MISSING)
		return 0;

	npads_all = in->base.npads + in->candidate.npads + in->control.npads;
	npm = in->base.npads > in->candidate.npads ? in->base.npads : in->candidate.npads;
	if (in->control.npads > npm)
		npm = in->control.npads;
	ntmp = max_rounds(&in->base);
	if (max_rounds(&in->candidate) > ntmp)
		ntmp = max_rounds(&in->candidate);
	if (max_rounds(&in->control) > ntmp)
		ntmp = max_rounds(&in->control);
	if (ntmp < npm)
		ntmp = npm;
	pm = malloc(npm * sizeof(*pm));
	tmp = malloc(ntmp * sizeof(*tmp));
	halfw = malloc(npads_all * sizeof(*halfw));
	if (!pm || !tmp || !halfw)
		goto oom;

	judge_side(rule, &in->base, pm, tmp, halfw, &nhalf, &out->base);
	judge_side(rule, &in->candidate, pm, tmp, halfw, &nhalf, &out->candidate);
	if (in->control.npads) {
		out->has_control = 1;
		judge_side(rule, &in->control, pm, tmp, halfw, &nhalf, &out->control);
	}
	cb = out->base.s.center;
	if (cb > 0) {
		out->has_ratio = 1;
		out->ratio = out->candidate.s.center / cb;
	}

	/* Noise: round-to-round (pad intervals) and build-to-build (control). */
	if (cb > 0) {
		out->has_noise = 1;
		out->noise_rounds = nhalf ? stats_median_inplace(halfw, nhalf) : 0;
		if (in->control.npads) {
			for (size_t p = 0; p < in->base.npads; p++)
				if (in->base.pads[p].pad == 0) {
					double b0 = in->base.pads[p].values ?
						stats_median(in->base.pads[p].values, in->base.pads[p].n, tmp) :
						in->base.pads[p].median;
					out->has_control_noise = 1;
					out->noise_control = fabs(b0 - out->control.s.center) / cb;
				}
		}
		if (shift) {
			/* The interval holds the round and placement noise; the
			 * control is a remark (judge_shift()). */
			out->noise = out->noise_rounds > out->noise_control ? out->noise_rounds
									    : out->noise_control;
		} else if (margin) {
			out->noise = out->noise_rounds > out->noise_control ? out->noise_rounds
									    : out->noise_control;
			if (in->noise_floor > out->noise)
				out->noise = in->noise_floor;
			/* The ranges hold each pad's round-to-round interval already: the
			 * gap must clear what they do not, the build-to-build noise of
			 * the control (and any recorded floor). */
			out->margin = rule->noise_factor *
				(out->noise_control > in->noise_floor ? out->noise_control : in->noise_floor);
		} else {
			/* The seeds' check: the control against half the base spread. */
			out->noise = out->noise_control;
			out->noise_limit = out->base.s.spread / 2;
			out->noisy = out->has_control_noise && out->noise_control > out->noise_limit;
			if (!out->has_control_noise)
				out->has_noise = 0;
		}
	}

	if (shift) {
		double *bm = malloc((in->base.npads + in->candidate.npads) * sizeof(*bm));
		int rc = bm ? judge_shift(rule, in, bm, bm + in->base.npads, tmp, out) : -1;
		free(bm);
		free(pm);
		free(tmp);
		free(halfw);
		if (rc < 0)
			return stats_judge_oom(rule, out);
		return 0;
	}

	/* Power: how far the candidate must move, ranges keeping their shape. */
	if (cb > 0 && out->candidate.s.center > 0) {
		double cc = out->candidate.s.center;
		double up_b = (out->base.hi - cb) / cb, dn_b = (cb - out->base.lo) / cb;
		double up_c = (out->candidate.hi - cc) / cc, dn_c = (cc - out->candidate.lo) / cc;
		double m = out->margin;
		if (dn_c < 1) {
			out->has_detectable = 1;
			out->detect_slower = (1 + up_b + m) / (1 - dn_c) - 1;
			out->detect_faster = 1 - dn_b - m > 0 ? 1 - (1 - dn_b - m) / (1 + up_c) : 1;
			out->detectable = out->detect_slower > out->detect_faster ? out->detect_slower
										  : out->detect_faster;
		}
	}

	/* Direction of a non-overlap (touching ranges overlap). */
	if (out->candidate.lo > out->base.hi)
		out->direction = STATS_DIR_SLOWER;
	else if (out->candidate.hi < out->base.lo)
		out->direction = STATS_DIR_FASTER;
	if (cb > 0) {
		double g1 = out->candidate.lo - out->base.hi, g2 = out->base.lo - out->candidate.hi;
		out->gap = (g1 > g2 ? g1 : g2) / cb;
	}

	if (out->reason == STATS_REASON_FEW_ROUNDS)
		goto done;   /* insufficient: figures above, no verdict */

	out->reason = STATS_REASON_NONE;
	if (out->direction == STATS_DIR_NONE) {
		out->verdict = VERDICT_PLACEMENT;
		out->reason = STATS_REASON_OVERLAP;
	} else if (margin && in->hot == STATS_HOT_IDENTICAL) {
		out->verdict = VERDICT_PLACEMENT;
		out->reason = STATS_REASON_HOT_IDENTICAL;
	} else if (margin && in->hot == STATS_HOT_SAME_CODE) {
		out->verdict = VERDICT_PLACEMENT;
		out->reason = STATS_REASON_HOT_SAME_CODE;
	} else if (margin && !(out->gap > out->margin)) {
		out->verdict = VERDICT_NOISY;
		out->reason = STATS_REASON_WITHIN_NOISE;
		out->noisy = 1;
	} else if (in->base.npads == 1 || in->candidate.npads == 1 ||
		   (margin && log(2.0) - log_choose(in->base.npads, in->candidate.npads) >
		    log(1 - rule->confidence))) {
		/* One pad, or (margin) so few that sides drawn from one placement
		 * distribution fall apart more often than 1 - confidence. */
		out->verdict = VERDICT_UNSWEPT;
		out->reason = STATS_REASON_ONE_PAD;
	} else {
		out->verdict = out->direction == STATS_DIR_SLOWER ? VERDICT_SLOWER
								  : VERDICT_FASTER;
		out->reason = STATS_REASON_APART;
	}
done:
	free(pm);
	free(tmp);
	free(halfw);
	pm = tmp = halfw = NULL;
	if (bootstrap(rule, in, npm, ntmp, out) < 0)
		goto oom;
	return 0;
oom:
	free(pm);
	free(tmp);
	free(halfw);
	return stats_judge_oom(rule, out);
}

int stats_judge_oom(const struct stats_rule *rule, struct stats_judgement *out)
{
	memset(out, 0, sizeof(*out));
	out->rule = *rule;
	out->verdict = VERDICT_INSUFFICIENT;
	snprintf(out->why, sizeof(out->why), "out of memory");
	errno = ENOMEM;
	return -1;
}
