/*
 * views/run-results.c: the end-of-run summary of `plumb run`, as text and as
 * JSON; see run-results.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "formats/manifest.h"
#include "views/run-results.h"
#include "runner/run-types.h"
#include "common/banned.h"

void results_format_value(double v, int is_time, char *out, size_t size)
{
	char s[UNITS_MAX];
	size_t n;

	units_fixed(v, is_time ? UNITS_TIME_NS : UNITS_COUNT, s);
	n = strlen(s);
	if (size == 0)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* "unswept, slower: <the verdict's words> (<the recorded reason>)", from the table. */
static int verdict_text(struct buf *out, const struct manifest_bench *b)
{
	const char *d = verdict_directed(b->verdict) ? manifest_direction_name(b->direction) : NULL;
	int rc;

	if (b->verdict == VERDICT_UNSET)
		return buf_addstr(out, "none");
	rc = buf_printf(out, "%s%s%s: %s", verdict_name(b->verdict), d ? ", " : "", d ? d : "",
			verdict_table[b->verdict].words);
	if (rc == 0 && b->reason)
		rc = buf_printf(out, " (%s)", b->reason);
	return rc;
}

static int side_line(struct buf *out, const char *name, const struct manifest_side_stats *s,
		     int is_time)
{
	char c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];

	if (!s->present)
		return 0;
	results_format_value(s->center, is_time, c, sizeof(c));
	results_format_value(s->min, is_time, lo, sizeof(lo));
	results_format_value(s->max, is_time, hi, sizeof(hi));
	if (buf_printf(out, "  %-10s %s  (range %s .. %s over %zu pad%s", name, c, lo, hi,
		       s->n_pads, s->n_pads == 1 ? "" : "s") < 0)
		return -1;
	if (!isnan(s->spread)) {
		units_percent(s->spread, c);
		if (buf_printf(out, ", spread %s", c) < 0)
			return -1;
	}
	if (!isnan(s->p99)) {
		results_format_value(s->p99, is_time, c, sizeof(c));
		if (buf_printf(out, "; p99 %s", c) < 0)
			return -1;
		if (!isnan(s->co_p99)) {
			results_format_value(s->co_p99, is_time, c, sizeof(c));
			if (buf_printf(out, ", corrected p99 %s", c) < 0)
				return -1;
		}
	}
	if (buf_addstr(out, ")\n") < 0)
		return -1;
	if (s->counters.present) {
		if (buf_printf(out, "  %-10s", "") < 0)
			return -1;
		for (int k = 0; k < METRIC_NCOUNTERS; k++) {
			if (isnan(s->counters.value[k]))
				continue;
			results_format_value(s->counters.value[k], 0, c, sizeof(c));
			if (buf_printf(out, " %s %s", metric_counter(k)->name, c) < 0)
				return -1;
		}
		if (buf_addch(out, '\n') < 0)
			return -1;
	}
	return 0;
}

static int bench_text(struct buf *out, const struct manifest_bench *b)
{
	int is_time = metric_dim(b->metric) == UNITS_TIME_NS;

	if (buf_printf(out, "%s (%s mode, %s)", b->name, manifest_mode_name(b->mode),
		       metric_name(b->metric)) < 0)
		return -1;
	if (b->failure)
		return buf_printf(out, ": FAILED: %s\n", b->failure);
	if (buf_addstr(out, ": ") < 0 || verdict_text(out, b) < 0 || buf_addch(out, '\n') < 0)
		return -1;
	if (side_line(out, "base", &b->base, is_time) < 0 ||
	    side_line(out, "candidate", &b->candidate, is_time) < 0)
		return -1;
	if (!isnan(b->ratio)) {
		char r[UNITS_MAX];
		units_ratio(b->ratio, r);
		if (buf_printf(out, "  %-10s %s (candidate center / base center)\n", "ratio", r) < 0)
			return -1;
	}
	if (b->control.present) {
		char c[UNITS_MAX], n[UNITS_MAX];
		results_format_value(b->control.center, is_time, c, sizeof(c));
		if (buf_printf(out, "  %-10s %s", "control", c) < 0)
			return -1;
		units_percent(b->noise.relative, n);
		if (b->noise.present &&
		    buf_printf(out, "  (noise %s of the base center%s)", n,
			       b->noise.too_noisy ? ": too noisy for this benchmark" : "") < 0)
			return -1;
		if (buf_addch(out, '\n') < 0)
			return -1;
	}
	for (size_t i = 0; b->hot.present && i < b->hot.n_symbols; i++) {
		const struct manifest_hot_cmp *h = &b->hot.symbols[i];
		if (buf_printf(out, "  %-10s %s: %s\n", i == 0 ? "hot code" : "", h->name,
			       h->verdict ? h->verdict : h->identical ? "identical" : "changed") < 0)
			return -1;
	}
	if (b->checksum.present) {
		const char *cb = b->checksum.base ? b->checksum.base : "(none)";
		const char *cc = b->checksum.candidate ? b->checksum.candidate : "(none)";
		if (strcmp(cb, cc) == 0) {
			if (buf_printf(out, "  %-10s %s on both sides\n", "checksum", cb) < 0)
				return -1;
		} else if (buf_printf(out, "  %-10s base %s, candidate %s: behaviour changed\n",
				      "checksum", cb, cc) < 0) {
			return -1;
		}
	}
	for (size_t i = 0; i < b->n_notes; i++)
		if (buf_printf(out, "  %-10s %s\n", "note", b->notes[i]) < 0)
			return -1;
	return 0;
}

int runner_results_text(const struct runner_run_result *res, struct buf *out,
			struct plumb_err *err)
{
	const struct manifest *m = &res->manifest;
	struct buf raw;
	int rc = 0;

	/* Names come from the configuration and the child: escaped line by line. */
	buf_init(&raw, out->max);
	for (size_t i = 0; rc == 0 && i < m->n_benches; i++)
		if (bench_text(&raw, &m->benches[i]) < 0)
			rc = buf_err(err, "summary");
	if (rc == 0 && raw.len && esc_text_lines(out, buf_cstr(&raw)) < 0)
		rc = buf_err(err, "summary");
	buf_release(&raw);
	return rc ? rc : runner_results_footer(res, 0, out, err);
}

int runner_results_footer(const struct runner_run_result *res, int archived_only,
			  struct buf *out, struct plumb_err *err)
{
	const struct manifest *m = &res->manifest;

	if (m->run.counters_available == 0 &&
	    buf_printf(out, "counters: unavailable: %s\n",
		       m->run.counters_reason ? m->run.counters_reason : "unknown reason") < 0)
		return buf_err(err, "summary");
	if (res->bundle && buf_printf(out, "bundle: %s\nid: %s\n",
				      archived_only ? "in the archive only (-o FILE keeps a copy)" : res->bundle,
				      res->id) < 0)
		return buf_err(err, "summary");
	return 0;
}

/* Add v as obj.key, dropping the reference; returns -1 when v is NULL or adding fails. */
static int put(json_t *obj, const char *key, json_t *v)
{
	if (!v)
		return -1;
	return json_object_set_new(obj, key, v);
}

static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *side_json(const struct manifest_side_stats *s)
{
	json_t *o, *pads;

	if (!s->present)
		return json_null();
	o = json_object();
	pads = json_array();
	if (!o || !pads) {
		json_decref(o);
		json_decref(pads);
		return NULL;
	}
	for (size_t k = 0; k < s->n_pads; k++)
		if (json_array_append_new(pads, json_real(s->pads[k])) < 0) {
			json_decref(o);
			json_decref(pads);
			return NULL;
		}
	if (put(o, "center", json_real(s->center)) < 0 || put(o, "min", json_real(s->min)) < 0 ||
	    put(o, "max", json_real(s->max)) < 0 || put(o, "spread", num_or_null(s->spread)) < 0 ||
	    put(o, "pads", pads) < 0 || put(o, "p99", num_or_null(s->p99)) < 0 ||
	    put(o, "coP99", num_or_null(s->co_p99)) < 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *bench_json(const struct manifest_bench *b)
{
	json_t *o = json_object(), *sides = json_object(), *notes = json_array();
	int bad = !o || !sides || !notes;

	if (bad) {
		json_decref(o);
		json_decref(sides);
		json_decref(notes);
		return NULL;
	}
	bad |= put(o, "name", json_string(b->name)) < 0;
	bad |= put(o, "mode", json_string(manifest_mode_name(b->mode))) < 0;
	bad |= put(o, "metric", json_string(metric_name(b->metric))) < 0;
	bad |= put(o, "unit", json_string(metric_unit(b->metric))) < 0;
	bad |= put(o, "failure", str_or_null(b->failure)) < 0;
	bad |= put(o, "verdict", str_or_null(verdict_name(b->verdict))) < 0;
	bad |= put(o, "direction", str_or_null(manifest_direction_name(b->direction))) < 0;
	bad |= put(o, "ratio", num_or_null(b->ratio)) < 0;
	bad |= put(sides, "base", side_json(&b->base)) < 0;
	bad |= put(sides, "candidate", side_json(&b->candidate)) < 0;
	bad |= put(sides, "control", side_json(&b->control)) < 0;
	bad |= put(o, "sides", sides) < 0;
	if (b->noise.present) {
		json_t *n = json_pack("{s:f, s:b}", "relative", b->noise.relative,
				      "tooNoisy", b->noise.too_noisy == 1);
		bad |= put(o, "noise", n) < 0;
	} else {
		bad |= put(o, "noise", json_null()) < 0;
	}
	if (b->hot.present) {
		json_t *h = json_object(), *syms = json_array();
		bad |= !h || !syms;
		for (size_t i = 0; !bad && i < b->hot.n_symbols; i++)
			bad |= json_array_append_new(syms, json_pack("{s:s, s:b, s:s?}",
					"name", b->hot.symbols[i].name,
					"identical", b->hot.symbols[i].identical == 1,
					"verdict", b->hot.symbols[i].verdict)) < 0;
		bad |= put(h, "identical", json_boolean(b->hot.identical == 1)) < 0;
		bad |= put(h, "symbols", syms) < 0;
		bad |= put(o, "hot", h) < 0;
	} else {
		bad |= put(o, "hot", json_null()) < 0;
	}
	if (b->checksum.present) {
		int changed = (b->checksum.base == NULL) != (b->checksum.candidate == NULL) ||
			      (b->checksum.base && strcmp(b->checksum.base, b->checksum.candidate) != 0);
		bad |= put(o, "checksum", json_pack("{s:o, s:o, s:b}",
			   "base", str_or_null(b->checksum.base),
			   "candidate", str_or_null(b->checksum.candidate),
			   "behaviourChanged", changed)) < 0;
	} else {
		bad |= put(o, "checksum", json_null()) < 0;
	}
	for (size_t i = 0; !bad && i < b->n_notes; i++)
		bad |= json_array_append_new(notes, json_string(b->notes[i])) < 0;
	bad |= put(o, "notes", notes) < 0;
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *runner_results_json(const struct runner_run_result *res, int archived_only)
{
	const struct manifest *m = &res->manifest;
	json_t *o = json_object(), *benches = json_array();
	int bad = !o || !benches;

	if (bad) {
		json_decref(o);
		json_decref(benches);
		return NULL;
	}
	bad |= put(o, "bundle", str_or_null(archived_only ? NULL : res->bundle)) < 0;
	bad |= put(o, "id", res->id[0] ? json_string(res->id) : json_null()) < 0;
	bad |= put(o, "runs", json_integer((json_int_t)res->runs)) < 0;
	bad |= put(o, "buildNs", json_integer((json_int_t)res->build_ns)) < 0;
	bad |= put(o, "measureNs", json_integer((json_int_t)res->measure_ns)) < 0;
	bad |= put(o, "failures", json_integer((json_int_t)res->failures)) < 0;
	bad |= put(o, "counters", json_pack("{s:b, s:o}", "available", m->run.counters_available == 1,
					    "reason", str_or_null(m->run.counters_reason))) < 0;
	for (size_t i = 0; !bad && i < m->n_benches; i++)
		bad |= json_array_append_new(benches, bench_json(&m->benches[i])) < 0;
	bad |= put(o, "benches", benches) < 0;
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
