/*
 * reports/json.c: the report for machines, in the versioned layout of
 * docs/report-json.md ("format": "plumb-report", "version": 1).  Every
 * member is always present (null when unknown), in a fixed order, and
 * printed by formats/jsonio.h, so the same comparison gives the same
 * bytes.  Values are in the metric's unit (ns or a count), unscaled.
 */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/jsonio.h"
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "reports/report.h"
#include "common/banned.h"

/* Set k on o, taking v; -1 when v is NULL (out of memory) or on failure. */
static int put(json_t *o, const char *k, json_t *v)
{
	if (!v)
		return -1;
	return json_object_set_new(o, k, v) ? -1 : 0;
}

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *tri(int v)
{
	return v == MANIFEST_UNKNOWN ? json_null() : json_boolean(v);
}

static json_t *side_json(const struct manifest_side_stats *s)
{
	json_t *o, *pads, *c;
	int bad = 0;

	if (!s)
		return json_null();
	if (!(o = json_object()))
		return NULL;
	pads = json_array();
	for (size_t i = 0; pads && i < s->n_pads; i++)
		bad |= json_array_append_new(pads, num(s->pads[i]));
	bad |= put(o, "pads", pads);
	bad |= put(o, "center", num(s->center));
	bad |= put(o, "min", num(s->min));
	bad |= put(o, "max", num(s->max));
	bad |= put(o, "spread", num(s->spread));
	bad |= put(o, "rounds", s->rounds >= 0 ? json_integer(s->rounds) : json_null());
	bad |= put(o, "p99", num(s->p99));
	bad |= put(o, "coP99", num(s->co_p99));
	if (s->counters.present) {
		c = json_object();
		if (c) {
			for (int k = 0; k < METRIC_NCOUNTERS; k++)
				bad |= put(c, metric_counter(k)->key, num(s->counters.value[k]));
		}
		bad |= put(o, "counters", c);
	} else {
		bad |= put(o, "counters", json_null());
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *who_json(const struct report *r, const struct report_side *s,
			const char *role, const struct manifest_commit *c)
{
	json_t *o = json_object();
	const json_t *fp;
	int bad = !o;

	if (bad)
		return NULL;
	fp = s->m->host.fingerprint ? NULL : json_object_get(s->m->host.start, "fingerprint");
	bad |= put(o, "role", json_string(role));
	bad |= put(o, "side", json_string(manifest_side_name(s->side)));
	bad |= put(o, "bundle", str(s->bundle));
	bad |= put(o, "source", str(s->origin));
	bad |= put(o, "verified", json_boolean(!s->unverified));
	bad |= put(o, "baseline", str(r->kind == REPORT_BASELINE ? s->baseline : NULL));
	bad |= put(o, "ref", str(c->ref));
	bad |= put(o, "commit", str(c->commit));
	bad |= put(o, "subject", str(c->subject));
	bad |= put(o, "dirty", tri(c->dirty));
	bad |= put(o, "created", str(s->m->created));
	bad |= put(o, "hostFingerprint", s->m->host.fingerprint ? json_string(s->m->host.fingerprint) :
		   json_is_string(fp) ? json_incref((json_t *)fp) : json_null());
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *host_json(const struct report *r)
{
	json_t *o = json_object(), *items = json_array(), *st = json_array();
	int bad = !o || !items || !st;

	for (size_t i = 0; !bad && i < r->host.n_items; i++) {
		const struct hostdiff_item *it = &r->host.items[i];
		json_t *e = json_object();
		bad |= json_array_append_new(items, e);
		if (bad)
			break;
		bad |= put(e, "key", json_string(it->key));
		bad |= put(e, "what", json_string(it->what));
		bad |= put(e, "old", json_string(it->old));
		bad |= put(e, "new", json_string(it->new));
		bad |= put(e, "level", json_string(it->level == HOSTDIFF_BLOCKER ?
						    "not-comparable" : "warning"));
		bad |= put(e, "scope", json_string(it->scope == HOSTDIFF_JOB ? "job" : "baseline"));
	}
	for (size_t i = 0; !bad && i < r->host.n_statements; i++)
		bad |= json_array_append_new(st, json_string(r->host.statements[i]));
	if (bad) {
		json_decref(o);
		json_decref(items);
		json_decref(st);
		return NULL;
	}
	bad |= put(o, "comparable", json_boolean(r->host.comparable));
	bad |= put(o, "forced", json_boolean(r->forced));
	bad |= put(o, "withheld", json_boolean(r->withheld));
	bad |= put(o, "differences", items);
	bad |= put(o, "statements", st);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* { k1: v1, k2: v2 }, or NULL when memory runs out. */
static json_t *pair_json(const char *k1, double v1, const char *k2, double v2)
{
	json_t *e = json_object();

	if (e && (put(e, k1, num(v1)) | put(e, k2, num(v2)))) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* The shift rule's figures (null without them), with p adjusted by Holm. */
static json_t *shift_json(const struct report_bench *b)
{
	json_t *e = json_object();
	int bad = !e;

	if (bad)
		return NULL;
	bad |= put(e, "estimate", num(b->shift));
	bad |= put(e, "lo", num(b->shift_lo));
	bad |= put(e, "hi", num(b->shift_hi));
	bad |= put(e, "level", num(b->shift_level));
	bad |= put(e, "p", num(b->p));
	bad |= put(e, "pMin", num(b->p_min));
	bad |= put(e, "pAdjusted", num(b->p_holm));
	if (bad) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* {"old": pads, "new": pads}: how many pads each side compared. */
static json_t *pads_json(const struct report_bench *b)
{
	json_t *e = json_object();

	if (e && (put(e, "old", json_integer((json_int_t)b->old->n_pads)) |
		  put(e, "new", json_integer((json_int_t)b->new->n_pads)))) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* The explanation sentence of every format (phrases.c), raw. */
static json_t *explanation_json(const struct report *r, const struct report_bench *b)
{
	struct buf t;
	json_t *s;

	buf_init(&t, 1 << 16);
	if (phrase_explain(r, b, &t) < 0) {
		buf_release(&t);
		return NULL;
	}
	s = json_string(buf_cstr(&t));
	buf_release(&t);
	return s;
}

static json_t *bench_json(const struct report *r, const struct report_bench *b)
{
	json_t *o = json_object(), *e, *a;
	int bad = !o;
	int shown = !b->withheld && !b->missing && !b->failure && !b->old_failure;

	if (bad)
		return NULL;
	bad |= put(o, "name", json_string(b->name));
	bad |= put(o, "mode", json_string(manifest_mode_name(b->mode)));
	bad |= put(o, "metric", json_string(metric_name(b->metric)));
	bad |= put(o, "unit", json_string(metric_unit(b->metric)));
	bad |= put(o, "failure", str(b->failure));
	bad |= put(o, "baselineFailure", str(b->old_failure));
	bad |= put(o, "notCompared", str(b->missing));
	bad |= put(o, "old", side_json(b->old));
	bad |= put(o, "new", side_json(b->new));
	bad |= put(o, "control", side_json(b->control));
	bad |= put(o, "ratio", num(b->ratio));
	bad |= put(o, "verdict", str(shown ? verdict_name(b->verdict) : NULL));
	bad |= put(o, "direction", str(shown ? manifest_direction_name(b->direction) : NULL));
	bad |= put(o, "withheld", json_boolean(b->withheld));
	bad |= put(o, "explanation", explanation_json(r, b));

	if (!isnan(b->noise)) {
		e = json_object();
		if (e) {
			bad |= put(e, "relative", num(b->noise));
			bad |= put(e, "tooNoisy", json_boolean(b->noisy));
		}
		bad |= put(o, "noise", e);
	} else {
		bad |= put(o, "noise", json_null());
	}

	/* The rule and what it found beside the verdict (null when not shown). */
	if (shown && b->verdict != VERDICT_UNSET) {
		e = json_object();
		if (e) {
			bad |= put(e, "name", json_string(stats_rule_name(b->rule.kind)));
			bad |= put(e, "version", json_integer(b->rule.version));
			bad |= put(e, "confidence", num(b->rule.confidence));
			bad |= put(e, "minEffect", b->rule.kind == STATS_RULE_SHIFT ?
				   num(b->rule.min_effect) : json_null());
		}
		bad |= put(o, "rule", e);
	} else {
		bad |= put(o, "rule", json_null());
	}
	bad |= put(o, "shift", shown && b->has_shift ? shift_json(b) : json_null());
	bad |= put(o, "pads", b->old && b->new ? pads_json(b) : json_null());
	bad |= put(o, "reason", str(shown ? b->reason : NULL));
	bad |= put(o, "interval", shown && !isnan(b->ratio_lo) ?
		   pair_json("lo", b->ratio_lo, "hi", b->ratio_hi) : json_null());
	bad |= put(o, "detectable", shown && !isnan(b->detect_slower) ?
		   pair_json("slower", b->detect_slower, "faster", b->detect_faster) : json_null());
	if (shown && !isnan(b->margin)) {
		e = json_object();
		if (e) {
			bad |= put(e, "figure", num(b->noise));
			bad |= put(e, "rounds", num(b->noise_rounds));
			bad |= put(e, "control", num(b->noise_control));
			bad |= put(e, "margin", num(b->margin));
			bad |= put(e, "gap", num(b->gap));
		}
		bad |= put(o, "noiseBasis", e);
	} else {
		bad |= put(o, "noiseBasis", json_null());
	}

	if (b->hot_identical >= 0) {
		e = json_object();
		a = json_array();
		for (size_t i = 0; e && a && i < b->n_hot; i++) {
			json_t *s = json_object();
			bad |= json_array_append_new(a, s);
			if (s) {
				bad |= put(s, "name", json_string(b->hot[i].name));
				bad |= put(s, "identical", json_boolean(b->hot[i].identical));
				bad |= put(s, "sameCode", json_boolean(b->hot[i].same_code));
			}
		}
		if (e) {
			bad |= put(e, "identical", json_boolean(b->hot_identical == 1));
			bad |= put(e, "sameCode", json_boolean(b->hot_identical >= 1));
			bad |= put(e, "symbols", a);
		} else {
			json_decref(a);
		}
		bad |= put(o, "hot", e);
	} else {
		bad |= put(o, "hot", json_null());
	}

	if (b->ck_old || b->ck_new || b->ck_consistent != MANIFEST_UNKNOWN) {
		e = json_object();
		if (e) {
			bad |= put(e, "old", str(b->ck_old));
			bad |= put(e, "new", str(b->ck_new));
			bad |= put(e, "consistent", tri(b->ck_consistent));
			bad |= put(e, "behaviourChanged", json_boolean(b->behaviour_changed));
		}
		bad |= put(o, "checksum", e);
	} else {
		bad |= put(o, "checksum", json_null());
	}

	if (!isnan(b->instr_ratio) || !isnan(b->cycles_ratio)) {
		e = json_object();
		if (e) {
			bad |= put(e, "instructionsRatio", num(b->instr_ratio));
			bad |= put(e, "cyclesRatio", num(b->cycles_ratio));
		}
		bad |= put(o, "counters", e);
	} else {
		bad |= put(o, "counters", json_null());
	}

	if (b->steady && b->steady->present) {
		e = json_object();
		if (e) {
			bad |= put(e, "window", json_integer(b->steady->window));
			bad |= put(e, "tolerance", num(b->steady->tolerance));
			bad |= put(e, "unsettled", json_integer(b->steady->unsettled));
			bad |= put(e, "start", num(b->steady->start));
		}
		bad |= put(o, "steadyState", e);
	} else {
		bad |= put(o, "steadyState", json_null());
	}

	bad |= put(o, "simulated", report_vg_json(b));
	a = json_array();
	for (size_t i = 0; a && i < b->n_notes; i++)
		bad |= json_array_append_new(a, json_string(b->notes[i]));
	bad |= put(o, "notes", a);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *summary_json(const struct report *r)
{
	const struct report_counts *c = &r->counts;
	json_t *o = json_object();
	int bad = !o;

	if (bad)
		return NULL;
	bad |= put(o, "benches", json_integer((json_int_t)r->n_benches));
	for (int v = VERDICT_UNSET + 1; v < VERDICT_COUNT; v++)
		bad |= put(o, verdict_table[v].name, json_integer((json_int_t)c->verdict[v]));
	bad |= put(o, "withheld", json_integer((json_int_t)c->withheld));
	bad |= put(o, "failed", json_integer((json_int_t)c->failed));
	bad |= put(o, "notCompared", json_integer((json_int_t)c->missing));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The gate's family-wise adjustment: null when no benchmark has a p. */
static json_t *adjustment_json(const struct report *r, enum report_fail_on fail_on)
{
	json_t *o, *held;
	int bad;

	if (r->holm_n == 0 || r->withheld)
		return json_null();
	o = json_object();
	held = json_array();
	bad = !o || !held;
	for (size_t i = 0; !bad && i < r->n_benches; i++)
		if (report_bench_held(&r->benches[i], fail_on))
			bad |= json_array_append_new(held, json_string(r->benches[i].name));
	if (bad) {
		json_decref(o);
		json_decref(held);
		return NULL;
	}
	bad |= put(o, "method", json_string("holm"));
	bad |= put(o, "benchmarks", json_integer((json_int_t)r->holm_n));
	bad |= put(o, "held", held);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int report_json(const struct report *r, const struct report_opts *opts,
		struct buf *out, struct plumb_err *err)
{
	json_t *o = json_object(), *benches = json_array(), *failing = json_array();
	int bad = !o || !benches || !failing, rc;

	for (size_t i = 0; !bad && i < r->n_benches; i++)
		bad |= json_array_append_new(benches, bench_json(r, &r->benches[i]));
	for (size_t i = 0; !bad && i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		if (report_bench_fails(b, opts->fail_on))
			bad |= json_array_append_new(failing, json_string(b->name));
	}
	if (bad) {
		json_decref(o);
		json_decref(benches);
		json_decref(failing);
		return plumb_err_oom(err, "json report");
	}
	bad |= put(o, "format", json_string("plumb-report"));
	bad |= put(o, "version", json_integer(REPORT_JSON_VERSION));
	bad |= put(o, "kind", json_string(r->kind == REPORT_SELF ? "bundle" : "baseline"));
	bad |= put(o, "old", who_json(r, &r->old, r->old_role, r->old_commit));
	bad |= put(o, "new", who_json(r, &r->new, r->new_role, r->new_commit));
	bad |= put(o, "host", host_json(r));
	bad |= put(o, "benches", benches);
	bad |= put(o, "summary", summary_json(r));
	bad |= put(o, "failOn", report_fail_on_name(opts->fail_on) ?
		   json_string(report_fail_on_name(opts->fail_on)) : json_null());
	bad |= put(o, "failing", failing);
	bad |= put(o, "adjustment", adjustment_json(r, opts->fail_on));
	if (bad) {
		json_decref(o);
		return plumb_err_oom(err, "json report");
	}
	rc = jsonio_dump(o, out, err);
	json_decref(o);
	return rc;
}
