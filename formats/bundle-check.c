/*
 * formats/bundle-check.c: a bundle agrees with itself.  While verification
 * streams samples.tsv, every row is checked against the manifest (its
 * bench, side, pad and round exist there) and the rows of each
 * benchmark's verdict metric go to the analysis of stats/ (the one place
 * that turns samples into pad medians, centers, ranges, ratio and
 * verdict: analysis_judge() under the rule the benchmark records); after the pass every benchmark's recorded figures are compared
 * with what its samples give.  A bundle that contradicts its own samples
 * is refused (PLUMB_EINPUT) naming the TSV line and column or the JSON
 * path, so that no report, archive or gate ever reads a recorded verdict
 * that is not the samples' verdict.
 *
 * Why it is separate from bundle-verify.c: it is the only part of the
 * reader that computes statistics; the rest only checks structure.
 *
 * Memory stays bounded: one analysis per benchmark with rows, rounds
 * reduced to their medians as soon as the next round's rows start (a
 * bundle keeps a round's rows together, formats/bundle-v1.md section 7),
 * and at most BUNDLE_MAX_ROUNDS distinct rounds in all.  Time stays bounded
 * too: the bootstrap of the margin and overlap rules draws resamples x
 * rounds times, at most BUNDLE_MAX_DRAWS in all, checked before any
 * benchmark is judged.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/units.h"
#include "formats/bundle-internal.h"
#include "formats/fingerprint.h"
#include "formats/manifest.h"
#include "formats/manifest-rule.h"
#include "stats/analysis.h"
#include "common/banned.h"

#define NO_BENCH ((size_t)-1)

static const char *const side_names[ANALYSIS_SIDES] = { "base", "candidate", "control" };

static const struct manifest_side_stats *side_of(const struct manifest_bench *b, int s)
{
	const struct manifest_side_stats *st =
		s == ANALYSIS_BASE ? &b->base : s == ANALYSIS_CANDIDATE ? &b->candidate : &b->control;
	return st->present ? st : NULL;
}

static const struct manifest *cur_manifest(const struct bundle_check *c)
{
	return &c->early;
}

static int cmp_bench(const void *pa, const void *pb, void *ctx)
{
	const struct manifest *m = ctx;
	return strcmp(m->benches[*(const size_t *)pa].name, m->benches[*(const size_t *)pb].name);
}

/* Insertion-free sort of the bench index by name (qsort has no context in C11). */
static void sort_index(size_t *idx, size_t n, const struct manifest *m)
{
	/* A bottom-up merge sort: n is at most a few thousand. */
	size_t *tmp = malloc(n * sizeof(*tmp));
	if (!tmp) {
		/* Fall back to insertion sort: correct, only slower. */
		for (size_t i = 1; i < n; i++)
			for (size_t j = i; j > 0 && cmp_bench(&idx[j - 1], &idx[j], (void *)m) > 0; j--) {
				size_t t = idx[j];
				idx[j] = idx[j - 1];
				idx[j - 1] = t;
			}
		return;
	}
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = cmp_bench(&idx[a], &idx[b], (void *)m) <= 0 ? idx[a++] : idx[b++];
			while (a < mid)
				tmp[k++] = idx[a++];
			while (b < hi)
				tmp[k++] = idx[b++];
		}
		memcpy(idx, tmp, n * sizeof(*idx));
	}
	free(tmp);
}

int bundle_check_begin(struct bundle_check *c, const char *json, size_t len,
		       struct plumb_err *err)
{
	struct plumb_err ignored;

	memset(c, 0, sizeof(*c));
	manifest_init(&c->early);
	c->prev = NO_BENCH;
	/* A manifest that does not parse is reported later, in its turn. */
	plumb_err_clear(&ignored);
	if (bundle_manifest_budget(json, len, &ignored) < 0 ||
	    manifest_parse(&c->early, json ? json : "", len, &ignored) < 0) {
		c->unusable = 1;
		return 0;
	}
	c->ready = 1;
	c->n = c->early.n_benches;
	c->index = calloc(c->n ? c->n : 1, sizeof(*c->index));
	c->an = calloc(c->n ? c->n : 1, sizeof(*c->an));
	if (!c->index || !c->an)
		return plumb_err_oom(err, "bundle check");
	for (size_t i = 0; i < c->n; i++)
		c->index[i] = i;
	sort_index(c->index, c->n, &c->early);
	return 0;
}

static size_t find_bench(struct bundle_check *c, const char *name, size_t len)
{
	const struct manifest *m = cur_manifest(c);
	size_t lo = 0, hi = c->n;

	if (c->prev != NO_BENCH) {
		const char *p = m->benches[c->prev].name;
		if (strlen(p) == len && memcmp(p, name, len) == 0)
			return c->prev;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(m->benches[c->index[mid]].name, name);
		if (r == 0)
			return c->prev = c->index[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NO_BENCH;
}

/* The analysis options a benchmark was reduced with (its warmup policy). */
static void opts_of(const struct manifest *m, const struct manifest_bench *b,
		    struct analysis_opts *o)
{
	const char *policy = b->warmup ? b->warmup : m->run.warmup_policy;

	analysis_opts_default(o);
	o->judge_later = 1;   /* judge_bench() judges what the bundle records */
	if (policy)
		(void)stats_warmup_parse(policy, &o->warmup);   /* validated by the manifest */
	if (b->steady.present) {
		if (b->steady.window > 0)
			o->warmup.window = (size_t)b->steady.window;
		if (b->steady.tolerance > 0)
			o->warmup.tolerance = b->steady.tolerance;
	}
	o->consecutive = 1;
	o->values_only = 1;   /* a round's median is all the check compares */
	o->max_rounds = BUNDLE_MAX_ROUNDS;
	o->deterministic = metric_deterministic_names;
}

void bundle_diffs_release(struct bundle_diffs *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->msg[i]);
	d->n = d->total = 0;
}

int bundle_check_differ(struct bundle_check *c, int rc, struct plumb_err *err)
{
	struct bundle_diffs *d = c->diffs;

	if (rc >= 0 || !d || rc != PLUMB_EINPUT)
		return rc;
	if (d->n < BUNDLE_DIFFS_MAX) {
		if (!(d->msg[d->n] = strdup(err->msg)))
			return plumb_err_oom(err, "bundle check");
		d->n++;
	}
	d->total++;
	plumb_err_clear(err);
	return 0;
}

static int check_row(struct bundle_check *c, const struct samples_row *row,
		     struct plumb_err *err);

int bundle_check_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	struct bundle_check *c = ctx;
	int rc = check_row(c, row, err);

	/* Collected, a row's difference names its line as a refusal would. */
	if (rc == PLUMB_EINPUT && c->diffs) {
		plumb_err_prefix(err, "samples.tsv: line %llu", (unsigned long long)row->line);
		return bundle_check_differ(c, rc, err);
	}
	return rc;
}

static int check_row(struct bundle_check *c, const struct samples_row *row,
		     struct plumb_err *err)
{
	const struct manifest *m = cur_manifest(c);
	const struct manifest_bench *b;
	const struct manifest_side_stats *s;
	size_t bi, before;
	int rc;

	if (!c->ready)
		return 0;
	bi = find_bench(c, row->bench, row->bench_len);
	if (bi == NO_BENCH)
		return plumb_err_set(err, PLUMB_EINPUT, "column 'bench': '%.80s' is not a benchmark "
				     "of the manifest", row->bench);
	b = &m->benches[bi];
	if (b->failure && !b->base.present && !b->candidate.present)
		return 0;   /* a failed benchmark's rows: nothing recorded to agree with */
	s = side_of(b, (int)row->side);
	if (!s)
		return plumb_err_set(err, PLUMB_EINPUT, "column 'side': benchmark '%.80s' has no %s "
				     "side in the manifest (benches[%zu].sides.%s)", b->name,
				     side_names[row->side], bi, side_names[row->side]);
	if (row->pad >= s->n_pads)
		return plumb_err_set(err, PLUMB_EINPUT, "column 'pad': pad %u, but "
				     "benches[%zu].sides.%s.pads has %zu pad%s", row->pad, bi,
				     side_names[row->side], s->n_pads, s->n_pads == 1 ? "" : "s");
	/* A deterministic metric's pad 0 runs twice whatever run.rounds says. */
	if ((int64_t)row->round > m->run.rounds &&
	    !(row->round == 2 && metric_deterministic_named(row->metric, row->metric_len)))
		return plumb_err_set(err, PLUMB_EINPUT, "column 'round': round %u, but the manifest "
				     "has %lld rounds (run.rounds)", row->round,
				     (long long)m->run.rounds);
	if (strlen(metric_name(b->metric)) != row->metric_len ||
	    memcmp(metric_name(b->metric), row->metric, row->metric_len) != 0)
		return 0;   /* only the verdict's metric is recomputed */
	if (!c->an[bi]) {
		struct analysis_opts o;
		opts_of(m, b, &o);
		c->an[bi] = analysis_new(&o, err);
		if (!c->an[bi])
			return err->code;
	}
	before = analysis_round_count(c->an[bi]);
	rc = analysis_add(c->an[bi], row->bench, row->bench_len, row->metric, row->metric_len,
			  (enum analysis_side)row->side, row->pad, row->round,
			  row->iter == SAMPLES_ITER_NONE ? ANALYSIS_ITER_NONE : row->iter,
			  row->value, err);
	if (rc < 0)
		return rc;
	c->rounds += analysis_round_count(c->an[bi]) - before;
	if (c->rounds > BUNDLE_MAX_ROUNDS)
		return plumb_err_set(err, PLUMB_EINPUT, "column 'round': more than %u distinct "
				     "rounds (bench, side, pad and round; the limit)",
				     (unsigned)BUNDLE_MAX_ROUNDS);
	return 0;
}

int bundle_check_take(struct bundle_check *c, struct manifest *m)
{
	if (!c->ready)
		return 0;
	*m = c->early;
	manifest_init(&c->early);
	return 1;
}

/* Recorded and recomputed agree (to the last bits a writer's rounding may change). */
static int same(double recorded, double computed)
{
	double scale = fabs(recorded) > fabs(computed) ? fabs(recorded) : fabs(computed);
	return recorded == computed || fabs(recorded - computed) <= 1e-9 * scale;
}

/* v for a message, as samples.tsv writes it. */
static const char *num(char out[UNITS_EXACT_MAX], double v)
{
	units_exact(v, UNITS_EXACT_PLAIN, out);
	return out;
}

static int lie(struct plumb_err *err, const char *bname, size_t bi, const char *path,
	       double recorded, double computed)
{
	char a[UNITS_EXACT_MAX], b[UNITS_EXACT_MAX];

	return plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: benches[%zu].%s: %s "
			     "recorded, but samples.tsv gives %s", bname, bi, path,
			     num(a, recorded), num(b, computed));
}

static int check_side(struct bundle_check *c, const char *bname, size_t bi, const char *sname,
		      const struct manifest_side_stats *s, const struct analysis_side_result *r,
		      struct plumb_err *err)
{
	char path[96];
	int rc;

	if (r->npads == 0)
		return bundle_check_differ(c, plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: "
				     "benches[%zu].sides.%s: no rows in samples.tsv", bname, bi,
				     sname), err);
	for (size_t k = 0; k < s->n_pads; k++)
		if (k >= r->npads || r->pads[k].pad != k)
			return bundle_check_differ(c, plumb_err_set(err, PLUMB_EINPUT, "%s: "
					     "manifest.json: benches[%zu].sides.%s.pads[%zu]: no rows "
					     "for pad %zu in samples.tsv", bname, bi, sname, k, k), err);
	for (size_t k = 0; k < s->n_pads; k++)
		if (!same(s->pads[k], r->pads[k].median)) {
			snprintf(path, sizeof(path), "sides.%s.pads[%zu]", sname, k);
			if ((rc = bundle_check_differ(c, lie(err, bname, bi, path, s->pads[k],
							     r->pads[k].median), err)) < 0)
				return rc;
		}
	snprintf(path, sizeof(path), "sides.%s.center", sname);
	if (!same(s->center, r->summary.center) &&
	    (rc = bundle_check_differ(c, lie(err, bname, bi, path, s->center, r->summary.center),
				      err)) < 0)
		return rc;
	snprintf(path, sizeof(path), "sides.%s.min", sname);
	if (!same(s->min, r->summary.min) &&
	    (rc = bundle_check_differ(c, lie(err, bname, bi, path, s->min, r->summary.min),
				      err)) < 0)
		return rc;
	snprintf(path, sizeof(path), "sides.%s.max", sname);
	if (!same(s->max, r->summary.max) &&
	    (rc = bundle_check_differ(c, lie(err, bname, bi, path, s->max, r->summary.max),
				      err)) < 0)
		return rc;
	snprintf(path, sizeof(path), "sides.%s.rounds", sname);
	if (s->rounds >= 0 && (size_t)s->rounds != r->summary.min_rounds &&
	    (rc = bundle_check_differ(c, lie(err, bname, bi, path, (double)s->rounds,
					     (double)r->summary.min_rounds), err)) < 0)
		return rc;
	return 0;
}

static int judge_bench(struct bundle_check *c, const char *bname, size_t bi, const struct manifest_bench *b,
		       struct analysis *an, struct plumb_err *err)
{
	const struct analysis_result *r = NULL;
	const char *rv, *cv;
	char q[UNITS_EXACT_MAX];
	struct plumb_err e2;
	struct stats_rule rule;
	struct stats_judgement jd;
	int rc;

	if (!an)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: benches[%zu]: no rows "
				     "in samples.tsv for benchmark '%.80s' (metric %s)", bname, bi,
				     b->name, metric_name(b->metric));
	plumb_err_clear(&e2);
	if ((rc = analysis_finish(an, &e2)) < 0)
		return plumb_err_set(err, rc, "%s: samples.tsv: benchmark '%.80s': %s", bname,
				     b->name, e2.msg);
	if (analysis_count(an) == 1)
		r = analysis_get(an, 0);
	if (!r)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: benchmark '%.80s': no result",
				     bname, b->name);
	for (int s = 0; s < ANALYSIS_SIDES; s++) {
		const struct manifest_side_stats *ms = side_of(b, s);
		if (ms && (rc = check_side(c, bname, bi, side_names[s], ms, &r->side[s], err)) < 0)
			return rc;
	}
	c->checked++;
	if (c->diffs && c->diffs->on_bench && (rc = c->diffs->on_bench(c->diffs->ctx, bi, r, err)) < 0)
		return rc;
	/* The verdict, by the one verdict computation, under the rule the
	 * benchmark records (none: overlap v1) and its recorded hot identity. */
	manifest_bench_rule(b, &rule);
	if (analysis_judge(r, &rule, manifest_bench_hot(b), manifest_bench_work(b), &jd) < 0)
		return plumb_err_set(err, errno == ENOMEM ? PLUMB_EINTERNAL : PLUMB_EINPUT,
				     "%s: manifest.json: benches[%zu].rule: %s", bname, bi, jd.why);
	if (jd.has_ratio != !isnan(b->ratio) || (jd.has_ratio && !same(b->ratio, jd.ratio))) {
		if (!jd.has_ratio)
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: benches[%zu].ratio: "
					   "recorded, but the base center is 0", bname, bi);
		else if (isnan(b->ratio))
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: benches[%zu].ratio: "
					   "missing, but samples.tsv gives %s", bname, bi,
					   num(q, jd.ratio));
		else
			rc = lie(err, bname, bi, "ratio", b->ratio, jd.ratio);
		if ((rc = bundle_check_differ(c, rc, err)) < 0)
			return rc;
	}
	rv = verdict_name(b->verdict);
	cv = verdict_name(jd.verdict);
	if ((!rv || strcmp(rv, cv) != 0) &&
	    (rc = bundle_check_differ(c, plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: "
				      "benches[%zu].verdict: '%s' recorded, but samples.tsv gives "
				      "'%s' (the %s rule, version %d)", bname, bi, rv ? rv : "(none)",
				      cv, stats_rule_name(rule.kind), rule.version), err)) < 0)
		return rc;
	rv = manifest_direction_name(b->direction);
	cv = verdict_directed(jd.verdict) ? stats_direction_name(jd.direction) : NULL;
	if (((rv == NULL) != (cv == NULL) || (rv && strcmp(rv, cv) != 0)) &&
	    (rc = bundle_check_differ(c, plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: "
				      "benches[%zu].direction: '%s' recorded, but samples.tsv gives "
				      "'%s'", bname, bi, rv ? rv : "(none)", cv ? cv : "(none)"),
				      err)) < 0)
		return rc;
	if (b->interval.present && jd.has_interval &&
	    !(same(b->interval.lo, jd.ratio_lo) && same(b->interval.hi, jd.ratio_hi)))
		return lie(err, bname, bi, "interval.lo", b->interval.lo, jd.ratio_lo);
	if (b->shift.present != jd.has_shift)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: benches[%zu].shift: %s, "
				     "but the %s rule %s one", bname, bi,
				     b->shift.present ? "recorded" : "missing", stats_rule_name(rule.kind),
				     jd.has_shift ? "gives" : "gives no");
	if (b->shift.present) {
		const struct { const char *name; double rec, got; } f[] = {
			{ "shift.estimate", b->shift.estimate, jd.shift },
			{ "shift.lo", b->shift.lo, jd.shift_lo },
			{ "shift.hi", b->shift.hi, jd.shift_hi },
			{ "shift.level", b->shift.level, jd.shift_level },
			{ "shift.p", b->shift.p, jd.p },
			{ "shift.pMin", b->shift.p_min, jd.p_min },
		};
		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
			if (!same(f[k].rec, f[k].got))
				return lie(err, bname, bi, f[k].name, f[k].rec, f[k].got);
	}
	return 0;
}

/* One benchmark: a difference is refused, or collected and the next looked at. */
static int check_bench(struct bundle_check *c, const char *bname, size_t bi,
		       const struct manifest_bench *b, struct analysis *an, struct plumb_err *err)
{
	return bundle_check_differ(c, judge_bench(c, bname, bi, b, an, err), err);
}

/* A recorded fingerprint against the one its facts give (plumb's facts only). */
static int check_fingerprint(struct bundle_check *c, const char *bname, const char *what,
			     const char *recorded, const json_t *facts, struct plumb_err *err)
{
	char fp[FINGERPRINT_HEX];

	if (!recorded || !fingerprint_checkable(facts))
		return 0;
	if (fingerprint_of(facts, fp) < 0)
		return plumb_err_oom(err, "host fingerprint");
	c->fingerprint_checked = 1;
	if (strcmp(fp, recorded) == 0)
		return 0;
	return bundle_check_differ(c, plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: %s: "
				   "'%.40s' recorded, but the host facts it summarises give '%s'",
				   bname, what, recorded, fp), err);
}

static int check_host(struct bundle_check *c, const char *bname, const struct manifest *m,
		      struct plumb_err *err)
{
	const json_t *start = m->host.start, *end = m->host.end;
	int rc;

	if ((rc = check_fingerprint(c, bname, "host.fingerprint", m->host.fingerprint, start,
				    err)) < 0 ||
	    (rc = check_fingerprint(c, bname, "host.start.fingerprint",
				    json_string_value(json_object_get(start, "fingerprint")), start,
				    err)) < 0 ||
	    (rc = check_fingerprint(c, bname, "host.end.fingerprint",
				    json_string_value(json_object_get(end, "fingerprint")), end,
				    err)) < 0)
		return rc;
	return 0;
}

/*
 * The bootstrap draws the benchmarks ask for (resamples x their rounds,
 * under margin and overlap; shift has no bootstrap), summed, at most
 * BUNDLE_MAX_DRAWS: the default 2000 resamples over the most rounds a
 * bundle holds, so that no bundle asks for minutes of verify.
 */
static int check_draws(const struct bundle_check *c, const char *bname, const struct manifest *m,
		       struct plumb_err *err)
{
	uint64_t draws = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct stats_rule rule;
		uint64_t n;

		if (!c->an[i])
			continue;
		manifest_bench_rule(&m->benches[i], &rule);
		if (rule.kind == STATS_RULE_SHIFT)
			continue;
		n = (uint64_t)rule.resamples * analysis_round_count(c->an[i]);
		draws += n;
		if (draws > BUNDLE_MAX_DRAWS)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: manifest.json: benches[%zu].rule."
					     "resamples: %u resamples of %zu rounds ask for %llu bootstrap "
					     "draws%s, more than %u (the limit: resamples x rounds)",
					     bname, i, rule.resamples, analysis_round_count(c->an[i]),
					     (unsigned long long)draws, draws > n ? " with the benchmarks "
					     "before it" : "", (unsigned)BUNDLE_MAX_DRAWS);
	}
	return 0;
}

int bundle_check_finish(struct bundle_check *c, const char *bname, const struct manifest *m,
			struct plumb_err *err)
{
	int rc;

	if (!c->ready)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: samples.tsv comes before manifest.json "
				     "(the samples are checked against the manifest as they are read)",
				     bname);
	/* m is the manifest the rows were checked against, or the same bytes
	 * parsed again: its benchmarks are those c->an is indexed by. */
	assert(m->n_benches == c->n);
	if ((rc = check_host(c, bname, m, err)) < 0 || (rc = check_draws(c, bname, m, err)) < 0)
		return rc;
	for (size_t i = 0; i < c->n; i++) {
		const struct manifest_bench *b = &m->benches[i];
		if (b->failure && !b->base.present && !b->candidate.present)
			continue;
		if ((rc = check_bench(c, bname, i, b, c->an[i], err)) < 0)
			return rc;
	}
	return 0;
}

void bundle_check_release(struct bundle_check *c)
{
	if (c->an)
		for (size_t i = 0; i < c->n; i++)
			analysis_free(c->an[i]);
	free(c->an);
	free(c->index);
	manifest_release(&c->early);
	memset(c, 0, sizeof(*c));
}
