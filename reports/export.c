/*
 * reports/export.c: the report as data for other tools: CSV (one row per
 * benchmark x metric x side x pad, the layout of formats/csv.h and
 * docs/csv.md) and bencher's metric format, BMF (docs/bmf.md).  Both are
 * read from the comparison model, like every other format, so they say
 * what the text and HTML say.
 */
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/metric.h"
#include "formats/csv.h"
#include "formats/jsonio.h"
#include "reports/model.h"
#include "reports/renderers.h"
#include "reports/words.h"
#include "common/banned.h"

/* The verdict as the CSV says it: NULL (empty) when not compared. */
static const char *verdict_field(const struct report_bench *b, const char **direction)
{
	*direction = NULL;
	if (b->failure || b->old_failure || b->withheld)
		return render_verdict_word(b);
	if (b->missing || b->verdict == VERDICT_UNSET)
		return NULL;
	if (b->direction != MANIFEST_DIRECTION_UNSET)
		*direction = manifest_direction_name(b->direction);
	return verdict_name(b->verdict);
}

/* The rows of one side: a row per pad in the benchmark's metric, then a
 * row per counter the side recorded (counters are kept per side only). */
static int csv_side(struct buf *out, const struct report_bench *b, const char *role,
		    const struct manifest_side_stats *s, const struct csv_row *common)
{
	struct csv_row r = *common;

	if (!s || !s->present)
		return 0;
	r.side = role;
	r.pads = (int64_t)s->n_pads;
	r.rounds = s->rounds >= 0 ? s->rounds : -1;
	r.center = s->center;
	r.min = s->min;
	r.max = s->max;
	r.spread = s->spread;
	for (size_t p = 0; p < s->n_pads; p++) {
		r.pad = (int64_t)p;
		r.value = s->pads[p];
		if (csv_put(out, &r) < 0)
			return -1;
	}
	if (!s->counters.present)
		return 0;
	for (int k = 0; k < METRIC_NCOUNTERS; k++) {
		enum metric_id m = metric_of_counter(k);
		struct csv_row c = *common;

		if (m == b->metric || isnan(s->counters.value[k]))
			continue;
		c.side = role;
		c.pads = (int64_t)s->n_pads;
		c.metric = metric_name(m);
		c.unit = metric_unit(m);
		c.value = s->counters.value[k];
		if (csv_put(out, &c) < 0)
			return -1;
	}
	return 0;
}

int report_csv(const struct report *r, struct buf *out, struct plumb_err *err)
{
	int rc = csv_header(out);

	for (size_t i = 0; !rc && i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		struct csv_row c;
		int shown = !b->withheld && !b->missing;

		csv_row_init(&c);
		c.bench = b->name;
		c.mode = manifest_mode_name(b->mode);
		c.metric = metric_name(b->metric);
		c.unit = metric_unit(b->metric);
		if (shown) {
			c.ratio = b->ratio;
			c.ratio_low = b->ratio_lo;
			c.ratio_high = b->ratio_hi;
			c.detectable_slower = b->detect_slower;
			c.detectable_faster = b->detect_faster;
		}
		if (shown && b->has_shift) {
			csv_row_shift(&c, b->shift, b->shift_lo, b->shift_hi, b->shift_level, b->p,
				      b->rule.min_effect);
			c.p_adjusted = b->p_holm;
		}
		c.verdict = verdict_field(b, &c.direction);
		if ((!b->old || !b->old->present) && (!b->new || !b->new->present)) {
			/* A failed candidate, a benchmark not in the baseline: no
			 * numbers, one row says so. */
			c.side = r->new_role;
			rc = csv_put(out, &c);
			continue;
		}
		rc = csv_side(out, b, r->old_role, b->old, &c) ||
		     csv_side(out, b, r->new_role, b->new, &c) ||
		     csv_side(out, b, "control", b->control, &c);
	}
	return rc ? buf_err(err, "CSV report") : 0;
}

/*
 * The measure a metric is tracked as: wall time is bencher's built-in
 * "latency" (nanoseconds, like plumb's); the others keep plumb's name,
 * which bencher creates as a measure of its own.
 */
static const char *bmf_measure(enum metric_id m)
{
	return m == METRIC_WALL ? "latency" : metric_name(m);
}

static int bmf_put(json_t *o, const char *k, double v)
{
	return isnan(v) || isinf(v) ? 0 : json_object_set_new(o, k, json_real(v));
}

/* {"value": center, "lower_value": min, "upper_value": max}, the bounds when known. */
static json_t *bmf_metric(double value, double lo, double hi)
{
	json_t *o = json_object();

	if (!o || bmf_put(o, "value", value) || bmf_put(o, "lower_value", lo) ||
	    bmf_put(o, "upper_value", hi)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int report_bmf(const struct report *r, struct buf *out, struct plumb_err *err)
{
	json_t *root = json_object();
	int bad = !root;

	for (size_t i = 0; !bad && i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		const struct manifest_side_stats *s = b->new;
		json_t *bench;

		/* bencher tracks what a run measured: the candidate's side. */
		if (!s || !s->present || b->failure || isnan(s->center))
			continue;
		bench = json_object();
		bad |= !bench || json_object_set_new(root, b->name, bench);
		if (bad)
			break;
		bad |= json_object_set_new(bench, bmf_measure(b->metric),
					   bmf_metric(s->center, s->min, s->max));
		for (int k = 0; !bad && s->counters.present && k < METRIC_NCOUNTERS; k++) {
			enum metric_id m = metric_of_counter(k);
			if (m == b->metric || isnan(s->counters.value[k]))
				continue;
			bad |= json_object_set_new(bench, bmf_measure(m),
						   bmf_metric(s->counters.value[k], NAN, NAN));
		}
		/* The shift rule's verdict figures, as measures of their own
		 * (docs/bmf.md): the shift with its interval, p, pads, minEffect. */
		if (!bad && b->has_shift && !b->withheld && b->old) {
			bad |= json_object_set_new(bench, "shift",
						   bmf_metric(b->shift, b->shift_lo, b->shift_hi));
			bad |= json_object_set_new(bench, "p-value", bmf_metric(b->p, NAN, NAN));
			bad |= json_object_set_new(bench, "pads",
						   bmf_metric((double)s->n_pads, NAN, NAN));
			bad |= json_object_set_new(bench, "min-effect",
						   bmf_metric(b->rule.min_effect, NAN, NAN));
		}
	}
	if (bad) {
		json_decref(root);
		return plumb_err_oom(err, "BMF report");
	}
	bad = jsonio_dump(root, out, err);
	json_decref(root);
	return bad;
}
