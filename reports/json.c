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
#include "reports/gate.h"
#include "reports/hostdiff.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/renderers.h"
#include "reports/words.h"
#include "common/banned.h"

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
		bad |= json_array_append_new(pads, jsonio_real(s->pads[i]));
	bad |= jsonio_set(o, "pads", pads);
	bad |= jsonio_set(o, "center", jsonio_real(s->center));
	bad |= jsonio_set(o, "min", jsonio_real(s->min));
	bad |= jsonio_set(o, "max", jsonio_real(s->max));
	bad |= jsonio_set(o, "spread", jsonio_real(s->spread));
	bad |= jsonio_set(o, "rounds", s->rounds >= 0 ? json_integer(s->rounds) : json_null());
	bad |= jsonio_set(o, "p99", jsonio_real(s->p99));
	bad |= jsonio_set(o, "coP99", jsonio_real(s->co_p99));
	if (s->counters.present) {
		c = json_object();
		if (c) {
			for (int k = 0; k < METRIC_NCOUNTERS; k++)
				bad |= jsonio_set(c, metric_counter(k)->key, jsonio_real(s->counters.value[k]));
		}
		bad |= jsonio_set(o, "counters", c);
	} else {
		bad |= jsonio_set(o, "counters", json_null());
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
	bad |= jsonio_set(o, "role", json_string(role));
	bad |= jsonio_set(o, "side", json_string(manifest_side_name(s->side)));
	bad |= jsonio_set(o, "bundle", jsonio_str(s->bundle));
	bad |= jsonio_set(o, "source", jsonio_str(s->origin));
	bad |= jsonio_set(o, "verified", json_boolean(!s->unverified));
	bad |= jsonio_set(o, "baseline", jsonio_str(r->kind == REPORT_BASELINE ? s->baseline : NULL));
	bad |= jsonio_set(o, "ref", jsonio_str(c->ref));
	bad |= jsonio_set(o, "commit", jsonio_str(c->commit));
	bad |= jsonio_set(o, "subject", jsonio_str(c->subject));
	bad |= jsonio_set(o, "dirty", tri(c->dirty));
	bad |= jsonio_set(o, "created", jsonio_str(s->m->created));
	bad |= jsonio_set(o, "hostFingerprint", s->m->host.fingerprint ? json_string(s->m->host.fingerprint) :
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
		bad |= jsonio_set(e, "key", json_string(it->key));
		bad |= jsonio_set(e, "what", json_string(it->what));
		bad |= jsonio_set(e, "old", json_string(it->old));
		bad |= jsonio_set(e, "new", json_string(it->new));
		bad |= jsonio_set(e, "level", json_string(it->level == HOSTDIFF_BLOCKER ?
						    "not-comparable" : "warning"));
		bad |= jsonio_set(e, "scope", json_string(it->scope == HOSTDIFF_JOB ? "job" : "baseline"));
	}
	for (size_t i = 0; !bad && i < r->host.n_statements; i++)
		bad |= json_array_append_new(st, json_string(r->host.statements[i]));
	if (bad) {
		json_decref(o);
		json_decref(items);
		json_decref(st);
		return NULL;
	}
	bad |= jsonio_set(o, "comparable", json_boolean(r->host.comparable));
	bad |= jsonio_set(o, "forced", json_boolean(r->forced));
	bad |= jsonio_set(o, "withheld", json_boolean(r->withheld));
	bad |= jsonio_set(o, "differences", items);
	bad |= jsonio_set(o, "statements", st);
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

	if (e && (jsonio_set(e, k1, jsonio_real(v1)) | jsonio_set(e, k2, jsonio_real(v2)))) {
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
	bad |= jsonio_set(e, "estimate", jsonio_real(b->shift));
	bad |= jsonio_set(e, "lo", jsonio_real(b->shift_lo));
	bad |= jsonio_set(e, "hi", jsonio_real(b->shift_hi));
	bad |= jsonio_set(e, "level", jsonio_real(b->shift_level));
	bad |= jsonio_set(e, "p", jsonio_real(b->p));
	bad |= jsonio_set(e, "pMin", jsonio_real(b->p_min));
	bad |= jsonio_set(e, "pAdjusted", jsonio_real(b->p_holm));
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

	if (e && (jsonio_set(e, "old", json_integer((json_int_t)b->old->n_pads)) |
		  jsonio_set(e, "new", json_integer((json_int_t)b->new->n_pads)))) {
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
	bad |= jsonio_set(o, "name", json_string(b->name));
	bad |= jsonio_set(o, "mode", json_string(manifest_mode_name(b->mode)));
	bad |= jsonio_set(o, "metric", json_string(metric_name(b->metric)));
	bad |= jsonio_set(o, "unit", json_string(metric_unit(b->metric)));
	bad |= jsonio_set(o, "failure", jsonio_str(b->failure));
	bad |= jsonio_set(o, "baselineFailure", jsonio_str(b->old_failure));
	bad |= jsonio_set(o, "notCompared", jsonio_str(b->missing));
	bad |= jsonio_set(o, "old", side_json(b->old));
	bad |= jsonio_set(o, "new", side_json(b->new));
	bad |= jsonio_set(o, "control", side_json(b->control));
	bad |= jsonio_set(o, "ratio", jsonio_real(b->ratio));
	bad |= jsonio_set(o, "verdict", jsonio_str(shown ? verdict_name(b->verdict) : NULL));
	bad |= jsonio_set(o, "direction", jsonio_str(shown ? manifest_direction_name(b->direction) : NULL));
	bad |= jsonio_set(o, "withheld", json_boolean(b->withheld));
	bad |= jsonio_set(o, "explanation", explanation_json(r, b));

	if (!isnan(b->noise)) {
		e = json_object();
		if (e) {
			bad |= jsonio_set(e, "relative", jsonio_real(b->noise));
			bad |= jsonio_set(e, "tooNoisy", json_boolean(b->noisy));
		}
		bad |= jsonio_set(o, "noise", e);
	} else {
		bad |= jsonio_set(o, "noise", json_null());
	}

	/* The rule and what it found beside the verdict (null when not shown). */
	if (shown && b->verdict != VERDICT_UNSET) {
		e = json_object();
		if (e) {
			bad |= jsonio_set(e, "name", json_string(stats_rule_name(b->rule.kind)));
			bad |= jsonio_set(e, "version", json_integer(b->rule.version));
			bad |= jsonio_set(e, "confidence", jsonio_real(b->rule.confidence));
			bad |= jsonio_set(e, "minEffect", b->rule.kind == STATS_RULE_SHIFT ?
				   jsonio_real(b->rule.min_effect) : json_null());
		}
		bad |= jsonio_set(o, "rule", e);
	} else {
		bad |= jsonio_set(o, "rule", json_null());
	}
	bad |= jsonio_set(o, "shift", shown && b->has_shift ? shift_json(b) : json_null());
	bad |= jsonio_set(o, "pads", b->old && b->new ? pads_json(b) : json_null());
	bad |= jsonio_set(o, "reason", jsonio_str(shown ? b->reason : NULL));
	bad |= jsonio_set(o, "interval", shown && !isnan(b->ratio_lo) ?
		   pair_json("lo", b->ratio_lo, "hi", b->ratio_hi) : json_null());
	bad |= jsonio_set(o, "detectable", shown && !isnan(b->detect_slower) ?
		   pair_json("slower", b->detect_slower, "faster", b->detect_faster) : json_null());
	if (shown && !isnan(b->margin)) {
		e = json_object();
		if (e) {
			bad |= jsonio_set(e, "figure", jsonio_real(b->noise));
			bad |= jsonio_set(e, "rounds", jsonio_real(b->noise_rounds));
			bad |= jsonio_set(e, "control", jsonio_real(b->noise_control));
			bad |= jsonio_set(e, "margin", jsonio_real(b->margin));
			bad |= jsonio_set(e, "gap", jsonio_real(b->gap));
		}
		bad |= jsonio_set(o, "noiseBasis", e);
	} else {
		bad |= jsonio_set(o, "noiseBasis", json_null());
	}

	if (b->hot_identical >= 0) {
		e = json_object();
		a = json_array();
		for (size_t i = 0; e && a && i < b->n_hot; i++) {
			json_t *s = json_object();
			bad |= json_array_append_new(a, s);
			if (s) {
				bad |= jsonio_set(s, "name", json_string(b->hot[i].name));
				bad |= jsonio_set(s, "identical", json_boolean(b->hot[i].identical));
				bad |= jsonio_set(s, "sameCode", json_boolean(b->hot[i].same_code));
			}
		}
		if (e) {
			bad |= jsonio_set(e, "identical", json_boolean(b->hot_identical == 1));
			bad |= jsonio_set(e, "sameCode", json_boolean(b->hot_identical >= 1));
			bad |= jsonio_set(e, "symbols", a);
		} else {
			json_decref(a);
		}
		bad |= jsonio_set(o, "hot", e);
	} else {
		bad |= jsonio_set(o, "hot", json_null());
	}
	bad |= jsonio_set(o, "work", b->work == STATS_WORK_SAME ? json_string("same") :
			  b->work == STATS_WORK_DIFFERENT ? json_string("different") : json_null());

	if (b->ck_old || b->ck_new || b->ck_consistent != MANIFEST_UNKNOWN) {
		e = json_object();
		if (e) {
			bad |= jsonio_set(e, "old", jsonio_str(b->ck_old));
			bad |= jsonio_set(e, "new", jsonio_str(b->ck_new));
			bad |= jsonio_set(e, "consistent", tri(b->ck_consistent));
			bad |= jsonio_set(e, "behaviourChanged", json_boolean(b->behaviour_changed));
		}
		bad |= jsonio_set(o, "checksum", e);
	} else {
		bad |= jsonio_set(o, "checksum", json_null());
	}

	if (!isnan(b->instr_ratio) || !isnan(b->cycles_ratio)) {
		e = json_object();
		if (e) {
			bad |= jsonio_set(e, "instructionsRatio", jsonio_real(b->instr_ratio));
			bad |= jsonio_set(e, "cyclesRatio", jsonio_real(b->cycles_ratio));
		}
		bad |= jsonio_set(o, "counters", e);
	} else {
		bad |= jsonio_set(o, "counters", json_null());
	}

	if (b->steady && b->steady->present) {
		e = json_object();
		if (e) {
			bad |= jsonio_set(e, "window", json_integer(b->steady->window));
			bad |= jsonio_set(e, "tolerance", jsonio_real(b->steady->tolerance));
			bad |= jsonio_set(e, "unsettled", json_integer(b->steady->unsettled));
			bad |= jsonio_set(e, "start", jsonio_real(b->steady->start));
		}
		bad |= jsonio_set(o, "steadyState", e);
	} else {
		bad |= jsonio_set(o, "steadyState", json_null());
	}

	bad |= jsonio_set(o, "simulated", report_vg_json(b));
	a = json_array();
	for (size_t i = 0; a && i < b->n_notes; i++)
		bad |= json_array_append_new(a, json_string(b->notes[i]));
	bad |= jsonio_set(o, "notes", a);
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
	bad |= jsonio_set(o, "benches", json_integer((json_int_t)r->n_benches));
	for (int v = VERDICT_UNSET + 1; v < VERDICT_COUNT; v++)
		bad |= jsonio_set(o, verdict_table[v].name, json_integer((json_int_t)c->verdict[v]));
	bad |= jsonio_set(o, "withheld", json_integer((json_int_t)c->withheld));
	bad |= jsonio_set(o, "failed", json_integer((json_int_t)c->failed));
	bad |= jsonio_set(o, "notCompared", json_integer((json_int_t)c->missing));
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
	bad |= jsonio_set(o, "method", json_string("holm"));
	bad |= jsonio_set(o, "benchmarks", json_integer((json_int_t)r->holm_n));
	bad |= jsonio_set(o, "held", held);
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
	bad |= jsonio_set(o, "format", json_string("plumb-report"));
	bad |= jsonio_set(o, "version", json_integer(REPORT_JSON_VERSION));
	bad |= jsonio_set(o, "kind", json_string(r->kind == REPORT_SELF ? "bundle" : "baseline"));
	bad |= jsonio_set(o, "old", who_json(r, &r->old, r->old_role, r->old_commit));
	bad |= jsonio_set(o, "new", who_json(r, &r->new, r->new_role, r->new_commit));
	bad |= jsonio_set(o, "host", host_json(r));
	bad |= jsonio_set(o, "benches", benches);
	bad |= jsonio_set(o, "summary", summary_json(r));
	bad |= jsonio_set(o, "failOn", report_fail_on_name(opts->fail_on) ?
		   json_string(report_fail_on_name(opts->fail_on)) : json_null());
	bad |= jsonio_set(o, "failing", failing);
	bad |= jsonio_set(o, "adjustment", adjustment_json(r, opts->fail_on));
	if (bad) {
		json_decref(o);
		return plumb_err_oom(err, "json report");
	}
	rc = jsonio_dump(o, out, err);
	json_decref(o);
	return rc;
}
