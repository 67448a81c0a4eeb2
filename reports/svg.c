/*
 * reports/svg.c: every SVG picture plumb draws, inline in its HTML pages:
 * the report's charts, the trend over commits, the range report's chart
 * and the bisect's path.  No other file writes SVG (t0008 checks), so
 * every string from a bundle, an archive or a repository that reaches a
 * picture is escaped here (esc_html) and nowhere else is forgotten.
 *
 * The report's chart of a benchmark shows the evidence the verdict rests
 * on: each side's range over pads as a bar, its pad medians as points,
 * its center as a tick, the overlap of the two ranges shaded (or the gap
 * between them marked), and the verdict as a label.  Samples-mode benchmarks get
 * a second chart: one box per pad (p25-p75, whiskers p1-p99, median).
 *
 * The SVG carries no xmlns attribute: inside an HTML document the parser
 * puts <svg> in the SVG namespace by itself, so the page holds no URI at
 * all.  Markup is well-formed XML (quoted attributes, closed elements),
 * so a chart can also be read by an XML parser.  Colours and fonts come
 * from the page's CSS classes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "reports/distribution.h"
#include "reports/model.h"
#include "reports/range.h"
#include "reports/render.h"
#include "reports/words.h"
#include "common/banned.h"

#define W 480.0          /* viewBox width: scaled to the page, text stays legible */
#define LEFT 88.0        /* room for the row labels */
#define RIGHT 16.0

struct axis {
	double lo, hi;       /* the values at the plot's left and right edges */
	enum metric_id metric;
};

static double xpos(const struct axis *a, double v)
{
	return LEFT + (v - a->lo) / (a->hi - a->lo) * (W - LEFT - RIGHT);
}

/*
 * Widen [lo, hi] by a margin, and to at least min_span around its middle
 * (the noise the run measured: a spread within the noise must not fill
 * the chart); give a zero-width range some room.
 */
static void axis_fit_min(struct axis *a, double lo, double hi, double min_span)
{
	double span = hi - lo;

	if (min_span > 0 && span < min_span) {
		double mid = (lo + hi) / 2;
		lo = mid - min_span / 2;
		hi = mid + min_span / 2;
		if (lo < 0 && (hi - lo) / 2 > 0 && mid >= 0) {
			hi -= lo;
			lo = 0;
		}
		span = hi - lo;
	}

	if (!(span > 0)) {
		span = fabs(lo) > 0 ? fabs(lo) * 0.02 : 1;
		lo -= span / 2;
		hi += span / 2;
		span = hi - lo;
	}
	a->lo = lo - span * 0.08;
	a->hi = hi + span * 0.08;
	if (lo >= 0 && a->lo < 0)
		a->lo = 0;
}

static void axis_fit(struct axis *a, double lo, double hi)
{
	axis_fit_min(a, lo, hi, 0);
}

/* The noise as an absolute span around center: what the axis must at least show. */
static double noise_span(const struct report_bench *b, double center)
{
	double f = 0;

	if (!isnan(b->noise))
		f = fmax(f, b->noise);
	if (!isnan(b->margin))
		f = fmax(f, b->margin);
	return isnan(center) ? 0 : 2 * f * fabs(center);
}

/* "axis starts at 200 ms, not zero", when it does not start at zero. */
static int axis_zero_note(struct buf *out, const struct axis *a, double x, double y,
			  const char *anchor)
{
	char v[UNITS_MAX];

	if (!(a->lo > 0))
		return 0;
	units_value(a->lo, metric_dim(a->metric), 0, v);
	return buf_printf(out, "<text class=\"axisnote\" x=\"%.1f\" y=\"%.1f\" "
			  "text-anchor=\"%s\">axis starts at %s, not zero</text>", x, y, anchor, v);
}

/* A 1, 2 or 5 times a power of ten near span/4. */
static double nice_step(double span)
{
	double raw = span / 4, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* A tick value with as many decimals as the step needs ("220", "1.505"). */
static void tick_number(double v, double step, const struct units_scale *sc,
			char out[UNITS_MAX])
{
	double st = step / sc->div;
	int decimals = st >= 1 ? 0 : (int)ceil(-log10(st) - 1e-9);

	if (decimals > 6)
		decimals = 6;
	snprintf(out, UNITS_MAX, "%.*f", decimals, v / sc->div);
}

/* The axis line at y with ticks and value labels in one unit. */
static int axis_draw(struct buf *out, const struct axis *a, double y)
{
	struct units_scale sc;
	double step = nice_step(a->hi - a->lo), v;
	char num[UNITS_MAX];
	int rc = 0, n = 0;

	units_scale((a->lo + a->hi) / 2, metric_dim(a->metric), 0, &sc);
	rc |= buf_printf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			 LEFT, y, W - RIGHT, y);
	for (v = ceil(a->lo / step) * step; v <= a->hi && n < 12; v += step, n++) {
		double x = xpos(a, v);
		tick_number(fabs(v) < step * 1e-9 ? 0 : v, step, &sc, num);
		rc |= buf_printf(out, "<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				 "<text class=\"ticklabel\" x=\"%.1f\" y=\"%.1f\">%s</text>",
				 x, y, x, y + 5, x, y + 18, num);
	}
	rc |= buf_printf(out, "<text class=\"rowlabel unit\" x=\"%.1f\" y=\"%.1f\">%s</text>",
			 LEFT - 8, y + 16, *sc.suffix ? sc.suffix + 1 : "count");
	return rc ? -1 : 0;
}

/* One side's row: label, range bar, center tick, pad medians. */
static int side_row(struct buf *out, const struct axis *a, const struct report_bench *b,
		    const struct manifest_side_stats *s, const char *role,
		    const char *cls, double y)
{
	char v[UNITS_MAX];
	double x0 = xpos(a, s->min), x1 = xpos(a, s->max), xc = xpos(a, s->center);
	int rc = 0;

	rc |= buf_printf(out, "<text class=\"rowlabel\" x=\"%.1f\" y=\"%.1f\">%s</text>",
			 LEFT - 8, y + 4, role);
	rc |= buf_printf(out, "<rect class=\"range %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\">"
			 "<title>", cls, x0 - (x1 - x0 < 2 ? 1 : 0), y - 6,
			 x1 - x0 < 2 ? 2 : x1 - x0);
	rc |= buf_printf(out, "%s range: ", role);
	rc |= phrase_side(b, s, out);
	rc |= buf_addstr(out, "</title></rect>");
	rc |= buf_printf(out, "<line class=\"center %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			 cls, xc, y - 11, xc, y + 11);
	for (size_t k = 0; k < s->n_pads; k++) {
		double x = xpos(a, s->pads[k]);
		/* Pads with equal medians would hide each other: stagger them. */
		double dy = (double)((int)(k % 3) - 1) * 3;
		units_value(s->pads[k], metric_dim(b->metric), 0, v);
		rc |= buf_printf(out, "<circle class=\"pad %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\">"
				 "<title>%s pad %zu: %s</title></circle>",
				 cls, x, y + dy, role, k, v);
	}
	return rc ? -1 : 0;
}

int svg_bench(struct buf *out, const struct report *r, const struct report_bench *b,
	      size_t index)
{
	const struct manifest_side_stats *o = b->old, *n = b->new;
	const char *word = render_verdict_word(b);
	struct axis a = { 0, 1, b->metric };
	double lo, hi, ov0, ov1, yo = 44, yn = 80, H = 136;
	char ratio[UNITS_MAX];
	int rc = 0;

	if (!o || !n)
		return 0;
	lo = fmin(o->min, n->min);
	hi = fmax(o->max, n->max);
	if (b->control && b->control->n_pads) {
		lo = fmin(lo, b->control->center);
		hi = fmax(hi, b->control->center);
	}
	axis_fit_min(&a, lo, hi, noise_span(b, o->center));
	H += a.lo > 0 ? 12 : 0;

	rc |= buf_printf(out, "<svg class=\"chart\" id=\"chart-%zu\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"", index, W, H);
	rc |= esc_html(out, b->name);
	rc |= buf_printf(out, ": %s\">", word);

	/* The overlap of the two ranges, or the gap between them. */
	ov0 = fmax(o->min, n->min);
	ov1 = fmin(o->max, n->max);
	if (ov0 <= ov1) {
		double x0 = xpos(&a, ov0), x1 = xpos(&a, ov1);
		rc |= buf_printf(out, "<rect class=\"overlap\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
				 "<title>the ranges overlap here</title></rect>"
				 "<text class=\"overlaplabel\" x=\"%.1f\" y=\"%.1f\">overlap</text>",
				 x0 - (x1 - x0 < 2 ? 1 : 0), yo - 16, x1 - x0 < 2 ? 2 : x1 - x0,
				 yn - yo + 32, (x0 + x1) / 2, yn + 28);
	} else {
		double x0 = xpos(&a, ov1), x1 = xpos(&a, ov0);
		rc |= buf_printf(out, "<line class=\"gap\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				 "<text class=\"overlaplabel\" x=\"%.1f\" y=\"%.1f\">no overlap</text>",
				 x0, (yo + yn) / 2, x1, (yo + yn) / 2, (x0 + x1) / 2, yn + 28);
	}

	rc |= side_row(out, &a, b, o, r->old_role, "old", yo);
	rc |= side_row(out, &a, b, n, r->new_role, "new", yn);
	if (b->control && b->control->n_pads && r->kind == REPORT_SELF) {
		double x = xpos(&a, b->control->center);
		char v[UNITS_MAX];
		units_value(b->control->center, metric_dim(b->metric), 0, v);
		rc |= buf_printf(out, "<path class=\"control\" d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\">"
				 "<title>control (base pad 0 again): %s</title></path>",
				 x, yo - 20, v);
	}

	/* The verdict as a label, with the ratio. */
	units_ratio(b->ratio, ratio);
	rc |= buf_printf(out, "<text class=\"verdictlabel v-%s\" x=\"%.1f\" y=\"14\">%s</text>",
			 b->withheld ? "withheld" : verdict_name(b->verdict) ?
			 verdict_name(b->verdict) : "none", W - RIGHT, word);
	rc |= buf_printf(out, "<text class=\"ratiolabel\" x=\"%.1f\" y=\"14\">ratio %s</text>",
			 LEFT, ratio);
	rc |= axis_draw(out, &a, yn + 34);
	rc |= axis_zero_note(out, &a, W - RIGHT, yn + 66, "end");
	rc |= buf_addstr(out, "</svg>");
	return rc ? -1 : 0;
}

int svg_dist(struct buf *out, const struct report *r, const struct report_bench *b,
	     size_t index)
{
	const struct report_dist_side *sides[2] = { b->dist_old, b->dist_new };
	const char *roles[2] = { r->old_role, r->new_role };
	const char *cls[2] = { "old", "new" };
	struct axis a = { 0, 1, b->metric };
	double lo = INFINITY, hi = -INFINITY, y, H;
	size_t rows = 0;
	int rc = 0;

	for (int s = 0; s < 2; s++) {
		for (size_t k = 0; sides[s] && k < sides[s]->n_pads; k++) {
			lo = fmin(lo, sides[s]->pads[k].p1);
			hi = fmax(hi, sides[s]->pads[k].p99);
			rows++;
		}
	}
	if (rows == 0)
		return 0;
	axis_fit(&a, lo, hi);
	H = 24 + (double)rows * 18 + 2 * 18 + 40;
	rc |= buf_printf(out, "<svg class=\"dist\" id=\"dist-%zu\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"", index, W, H);
	rc |= esc_html(out, b->name);
	rc |= buf_addstr(out, ": samples per pad\">");
	rc |= buf_printf(out, "<text class=\"ratiolabel\" x=\"%.1f\" y=\"12\">samples per pad: "
			 "box p25\u2013p75, whiskers p1\u2013p99, line median</text>", 4.0);
	y = 30;
	for (int s = 0; s < 2; s++) {
		if (!sides[s] || sides[s]->n_pads == 0)
			continue;
		rc |= buf_printf(out, "<text class=\"grouplabel %s\" x=\"4\" y=\"%.1f\">%s</text>",
				 cls[s], y + 4, roles[s]);
		y += 18;
		for (size_t k = 0; k < sides[s]->n_pads; k++, y += 18) {
			const struct report_dist_pad *p = &sides[s]->pads[k];
			char v[UNITS_MAX], q1[UNITS_MAX], q3[UNITS_MAX];
			double x1 = xpos(&a, p->p1), x25 = xpos(&a, p->p25), x50 = xpos(&a, p->p50);
			double x75 = xpos(&a, p->p75), x99 = xpos(&a, p->p99);
			units_value(p->p50, metric_dim(b->metric), 0, v);
			units_value(p->p25, metric_dim(b->metric), 0, q1);
			units_value(p->p75, metric_dim(b->metric), 0, q3);
			rc |= buf_printf(out, "<text class=\"rowlabel\" x=\"%.1f\" y=\"%.1f\">pad %u</text>",
					 LEFT - 8, y + 4, p->pad);
			rc |= buf_printf(out, "<line class=\"whisker %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
					 cls[s], x1, y, x99, y);
			rc |= buf_printf(out, "<rect class=\"box %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\">"
					 "<title>%s pad %u: median %s, p25 %s, p75 %s, %llu samples</title></rect>",
					 cls[s], x25, y - 5, x75 - x25 < 1 ? 1 : x75 - x25,
					 roles[s], p->pad, v, q1, q3, (unsigned long long)p->n);
			rc |= buf_printf(out, "<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
					 x50, y - 6, x50, y + 6);
		}
	}
	rc |= axis_draw(out, &a, y + 2);
	rc |= buf_addstr(out, "</svg>");
	return rc ? -1 : 0;
}

/* The point of index i of a trend's n, dx apart from left (the middle of w when alone). */
static double trend_x(size_t i, size_t n, double dx, double left, double w)
{
	return n > 1 ? left + (double)i * dx : (left + w - RIGHT) / 2;
}

/* The same commit, or both unknown. */
static int same_commit(const struct trend_point *a, const struct trend_point *b)
{
	if (!a->commit || !b->commit)
		return !a->commit && !b->commit;
	return strcmp(a->commit, b->commit) == 0;
}

/*
 * What a printed trend needs besides its ranges: each change point as a
 * dashed line between the last night before and the first after, with its
 * size ("host" before it when no code changed); and the commits printed under the axis, turned, so they read on
 * paper without hovering.  Nights of one commit keep their own places (a
 * night is an x step, whatever the times say) and are joined by a bracket
 * under one label.  Labels are thinned to one per 11 units, but the
 * commits either side of a change point are always named.
 */
static int trend_changes_and_commits(struct buf *out, const struct trend_point *p, size_t n,
				     double dx, double y0, double y1, double left, double w)
{
	double last_label = -1e9;
	int rc = 0;

	for (size_t i = 1; i < n; i++) {
		double x;
		char size[UNITS_MAX];

		if (!p[i].change)
			continue;
		x = (trend_x(i - 1, n, dx, left, w) + trend_x(i, n, dx, left, w)) / 2;
		units_change(p[i].change_ratio, size);
		rc |= buf_printf(out, "<line class=\"changeline %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				 "y2=\"%.1f\"/><text class=\"changelabel %s\" x=\"%.1f\" y=\"%.1f\">%s%s %s</text>",
				 p[i].change > 0 ? "up" : "down", x, y0 - 4, x, y1,
				 p[i].change > 0 ? "up" : "down", x, y0 - 8,
				 p[i].change > 0 ? "\u25b2" : "\u25bc", p[i].change_host ? " host" : "",
				 size);
	}
	for (size_t i = 0; i < n;) {
		size_t j = i, k;
		int named;
		double xa, xb, xm;
		char id[16];

		while (j + 1 < n && same_commit(&p[j + 1], &p[i]))
			j++;
		named = (j + 1 < n && p[j + 1].change) || p[i].change;
		xa = trend_x(i, n, dx, left, w);
		xb = trend_x(j, n, dx, left, w);
		xm = (xa + xb) / 2;
		if (j > i)
			rc |= buf_printf(out, "<line class=\"commitgroup\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					 "y2=\"%.1f\"><title>%zu nights of one commit</title></line>",
					 xa, y1 + 5, xb, y1 + 5, j - i + 1);
		if (named || xm - last_label >= 11) {
			snprintf(id, sizeof(id), "%.8s", p[i].commit ? p[i].commit : "?");
			utf8_cut(id);
			rc |= buf_printf(out, "<text class=\"commitlabel\" transform=\"translate(%.1f,%.1f) "
					 "rotate(-60)\">", xm + 3, y1 + 12);
			rc |= esc_html(out, id);
			if (j > i)
				rc |= buf_printf(out, " \u00d7%zu", j - i + 1);
			rc |= buf_addstr(out, "</text>");
			last_label = xm;
		}
		k = j + 1;
		i = k;
	}
	return rc;
}

int svg_trend(struct buf *out, const char *bench, enum metric_id metric,
	      const struct trend_point *p, size_t n, size_t index)
{
	const double top = 34, bottom = 100, left = 70, right = 16, H = 380;
	double lo = INFINITY, hi = -INFINITY, span, step, v, dx;
	struct units_scale sc;
	char num[UNITS_MAX];
	int rc = 0, ticks = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isnan(p[i].min))
			lo = fmin(lo, p[i].min);
		if (!isnan(p[i].max))
			hi = fmax(hi, p[i].max);
		if (!isnan(p[i].center)) {
			lo = fmin(lo, p[i].center);
			hi = fmax(hi, p[i].center);
		}
	}
	if (n == 0 || !isfinite(lo) || !isfinite(hi))
		return 0;
	span = hi - lo;
	if (!(span > 0))
		span = fabs(lo) > 0 ? fabs(lo) * 0.02 : 1;
	lo -= span * 0.08;
	hi += span * 0.08;
	span = hi - lo;
#define TY(val) (top + (hi - (val)) / span * (H - top - bottom))
	dx = n > 1 ? (W - left - right) / (double)(n - 1) : 0;
#define TX(i) (n > 1 ? left + (double)(i) * dx : (left + W - right) / 2)

	rc |= buf_printf(out, "<svg class=\"chart trend\" id=\"trend-chart-%zu\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"", index, W, H);
	rc |= esc_html(out, bench);
	rc |= buf_addstr(out, ": center and range over commits\">");
	/* Value axis with ticks. */
	units_scale((lo + hi) / 2, metric_dim(metric), 0, &sc);
	step = nice_step(span);
	rc |= buf_printf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			 left - 6, top, left - 6, H - bottom);
	for (v = ceil(lo / step) * step; v <= hi && ticks < 12; v += step, ticks++) {
		tick_number(fabs(v) < step * 1e-9 ? 0 : v, step, &sc, num);
		rc |= buf_printf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				 "<text class=\"vlabel\" x=\"%.1f\" y=\"%.1f\">%s</text>",
				 left - 6, TY(v), W - right, TY(v), left - 10, TY(v) + 4, num);
	}
	rc |= buf_printf(out, "<text class=\"vlabel\" x=\"%.1f\" y=\"%.1f\">%s</text>",
			 left - 10, top - 12, *sc.suffix ? sc.suffix + 1 : "count");
	/* Ranges, then the line of centers over them, then the marks. */
	for (size_t i = 0; i < n; i++) {
		double y0, y1;
		if (isnan(p[i].min) || isnan(p[i].max))
			continue;
		y0 = TY(p[i].max);
		y1 = TY(p[i].min);
		rc |= buf_printf(out, "<rect class=\"range new\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
				 TX(i) - fmin(4, fmax(1, dx * 0.3)), y0, 2 * fmin(4, fmax(1, dx * 0.3)),
				 y1 - y0 < 1 ? 1 : y1 - y0);
	}
	rc |= buf_addstr(out, "<polyline class=\"trendline\" points=\"");
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i].center))
			rc |= buf_printf(out, "%s%.1f,%.1f", i ? " " : "", TX(i), TY(p[i].center));
	rc |= buf_addstr(out, "\"/>");
	for (size_t i = 0; i < n; i++) {
		char c[UNITS_MAX];
		if (isnan(p[i].center))
			continue;
		units_value(p[i].center, metric_dim(metric), 0, c);
		rc |= buf_printf(out, "<circle class=\"pad new%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>",
				 p[i].shift ? " shift" : "", TX(i), TY(p[i].center), n > 200 ? "1.5" : "3");
		rc |= esc_html(out, p[i].time ? p[i].time : "");
		rc |= buf_printf(out, " %.12s: %s%s</title></circle>", p[i].commit ? p[i].commit : "", c,
				 p[i].shift > 0 ? ", range above the previous one" :
				 p[i].shift < 0 ? ", range below the previous one" : "");
		if (p[i].shift)
			rc |= buf_printf(out, "<text class=\"shiftlabel %s\" x=\"%.1f\" y=\"%.1f\">%s</text>",
					 p[i].shift > 0 ? "up" : "down", TX(i),
					 p[i].shift > 0 ? TY(p[i].max) - 6 : TY(p[i].min) + 14,
					 p[i].shift > 0 ? "\u25b2" : "\u25bc");
	}
	rc |= trend_changes_and_commits(out, p, n, dx, top, H - bottom, left, W);
	/* The first and last time under the axis. */
	for (size_t i = 0; i < n; i += (n > 1 ? n - 1 : 1)) {
		/* The first label starts at its point, the last one ends at it. */
		rc |= buf_printf(out, "<text class=\"ticklabel%s\" x=\"%.1f\" y=\"%.1f\">",
				 n == 1 ? "" : i == 0 ? " first" : " last", TX(i), H - 8.0);
		rc |= esc_html(out, p[i].time ? p[i].time : "");
		rc |= buf_addstr(out, "</text>");
		if (n == 1)
			break;
	}
	rc |= buf_addstr(out, "</svg>");
#undef TX
#undef TY
	return rc ? -1 : 0;
}

/* The sides of a benchmark's rounds, with their roles and classes. */
struct round_sides {
	const struct report_dist_side *s[3];
	const char *role[3];
	const char *cls[3];
	enum manifest_side side[3];
	int n;
};

static void round_sides(const struct report *r, const struct report_bench *b,
			struct round_sides *rs)
{
	const struct report_dist_side *s[3] = { b->dist_old, b->dist_new, b->dist_control };
	const char *role[3] = { r->old_role, r->new_role, "control" };
	const char *cls[3] = { "old", "new", "ctl" };
	enum manifest_side side[3] = { r->old.side, MANIFEST_SIDE_CANDIDATE, MANIFEST_SIDE_CONTROL };

	rs->n = 0;
	for (int i = 0; i < 3; i++) {
		if (!s[i] || !s[i]->n_pads)
			continue;
		rs->s[rs->n] = s[i];
		rs->role[rs->n] = role[i];
		rs->cls[rs->n] = cls[i];
		rs->side[rs->n] = side[i];
		rs->n++;
	}
}

/*
 * The smallest and largest value of any round of any pad of rs, the
 * rounds there are (*rounds, one past the last) and the first with a value
 * (*first: samples.tsv may number from 1).
 */
static int rounds_extent(const struct round_sides *rs, double *lo, double *hi, size_t *rounds,
			 size_t *first)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	*rounds = 0;
	*first = SIZE_MAX;
	for (int i = 0; i < rs->n; i++)
		for (size_t k = 0; k < rs->s[i]->n_pads; k++) {
			const struct report_dist_pad *p = &rs->s[i]->pads[k];
			for (size_t j = 0; j < p->n_rounds; j++) {
				if (isnan(p->rounds[j]))
					continue;
				*first = j < *first ? j : *first;
				*lo = fmin(*lo, p->rounds[j]);
				*hi = fmax(*hi, p->rounds[j]);
			}
			if (p->n_rounds > *rounds)
				*rounds = p->n_rounds;
		}
	return *lo <= *hi ? 0 : -1;
}

int svg_strip(struct buf *out, const struct report *r, const struct report_bench *b,
	      size_t index)
{
	struct round_sides rs;
	struct axis a = { 0, 1, b->metric };
	double lo, hi, y, H;
	size_t rows = 0, nr, first;
	int rc = 0;

	round_sides(r, b, &rs);
	if (rs.n == 0 || rounds_extent(&rs, &lo, &hi, &nr, &first) < 0)
		return 0;
	for (int i = 0; i < rs.n; i++)
		rows += rs.s[i]->n_pads;
	axis_fit_min(&a, lo, hi, noise_span(b, b->old ? b->old->center : NAN));
	H = 24 + (double)rows * 16 + (double)rs.n * 18 + 40 + (a.lo > 0 ? 12 : 0);
	rc |= buf_printf(out, "<svg class=\"strip\" id=\"strip-%zu\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"", index, W, H);
	rc |= esc_html(out, b->name);
	rc |= buf_addstr(out, ": each pad's rounds\">");
	rc |= buf_printf(out, "<text class=\"ratiolabel\" x=\"4\" y=\"12\">each pad's rounds: "
			 "a dot per round, a line at the pad's median</text>");
	y = 30;
	for (int i = 0; i < rs.n; i++) {
		rc |= buf_printf(out, "<text class=\"grouplabel %s\" x=\"4\" y=\"%.1f\">%s</text>",
				 rs.cls[i], y + 4, rs.role[i]);
		y += 18;
		for (size_t k = 0; k < rs.s[i]->n_pads; k++, y += 16) {
			const struct report_dist_pad *p = &rs.s[i]->pads[k];
			char v[UNITS_MAX];
			units_value(p->p50, metric_dim(b->metric), 0, v);
			rc |= buf_printf(out, "<text class=\"rowlabel\" x=\"%.1f\" y=\"%.1f\">pad %u</text>",
					 LEFT - 8, y + 4, p->pad);
			for (size_t j = 0; j < p->n_rounds; j++) {
				char rv[UNITS_MAX];
				if (isnan(p->rounds[j]))
					continue;
				units_value(p->rounds[j], metric_dim(b->metric), 0, rv);
				rc |= buf_printf(out, "<circle class=\"pad %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\">"
						 "<title>%s pad %u round %zu: %s</title></circle>",
						 rs.cls[i], xpos(&a, p->rounds[j]), y, rs.role[i], p->pad, j, rv);
			}
			rc |= buf_printf(out, "<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					 "y2=\"%.1f\"><title>%s pad %u median %s</title></line>",
					 xpos(&a, p->p50), y - 6, xpos(&a, p->p50), y + 6, rs.role[i], p->pad, v);
		}
	}
	rc |= axis_draw(out, &a, y + 2);
	rc |= axis_zero_note(out, &a, W - RIGHT, y + 34, "end");
	rc |= buf_addstr(out, "</svg>");
	return rc ? -1 : 0;
}

/* Where variant (side, pad) ran within round j of m's run.order: a fraction in [0, 1). */
static double order_pos(const struct manifest *m, enum manifest_side side, uint32_t pad, size_t j)
{
	const struct manifest_round *o;

	if (!m || j >= m->run.n_order)
		return 0.5;
	o = &m->run.order[j];
	for (size_t i = 0; i < o->n; i++) {
		const struct manifest_variant *v;
		if (o->variants[i] >= m->build.n_variants)
			continue;
		v = &m->build.variants[o->variants[i]];
		if (v->side == side && v->pad == (int64_t)pad)
			return ((double)i + 0.5) / (double)o->n;
	}
	return 0.5;
}

#define RTOP 24.0
#define RPLOT 120.0   /* height of the values */
#define RLOAD 24.0    /* height of the load band */

int svg_rounds(struct buf *out, const struct report *r, const struct report_bench *b,
	       size_t index)
{
	struct round_sides rs;
	struct axis a = { 0, 1, b->metric };
	const struct manifest *m = r->new.m;
	double lo, hi, H, pw = W - LEFT - RIGHT, yb, step, loadmax = 0;
	size_t nr, first, shown;
	struct units_scale sc;
	char num[UNITS_MAX], most[UNITS_MAX];
	int rc = 0, load = 0, ordered;

	round_sides(r, b, &rs);
	if (rs.n == 0 || rounds_extent(&rs, &lo, &hi, &nr, &first) < 0 || nr == 0)
		return 0;
	/* run.order and run.conditions hold the rounds in order, from the first. */
	shown = nr - first;
	ordered = m->run.n_order >= shown;
	for (size_t j = 0; j < m->run.n_conditions && j < shown; j++)
		if (!isnan(m->run.conditions[j].load[0])) {
			load = 1;
			loadmax = fmax(loadmax, m->run.conditions[j].load[0]);
		}
	axis_fit_min(&a, lo, hi, noise_span(b, b->old ? b->old->center : NAN));
	yb = RTOP + RPLOT;
	H = yb + 30 + (load ? RLOAD + 14 : 0) + 14;
	rc |= buf_printf(out, "<svg class=\"rounds\" id=\"rounds-%zu\" viewBox=\"0 0 %.0f %.0f\" "
			 "role=\"img\" aria-label=\"", index, W, H);
	rc |= esc_html(out, b->name);
	rc |= buf_addstr(out, ": samples over rounds\">");
	rc |= buf_printf(out, "<text class=\"ratiolabel\" x=\"4\" y=\"12\">over the rounds, %s: a line "
			 "per pad%s</text>", ordered ? "in the order they ran" : "round by round",
			 load ? "; below, the load average" : "");
	/* The value axis, upright, in one unit. */
	units_scale((a.lo + a.hi) / 2, metric_dim(b->metric), 0, &sc);
	step = nice_step(a.hi - a.lo);
	rc |= buf_printf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
			 LEFT, RTOP, LEFT, yb);
	for (double v = ceil(a.lo / step) * step; v <= a.hi; v += step) {
		double y = yb - (v - a.lo) / (a.hi - a.lo) * RPLOT;
		tick_number(fabs(v) < step * 1e-9 ? 0 : v, step, &sc, num);
		rc |= buf_printf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
				 "<text class=\"vlabel\" x=\"%.1f\" y=\"%.1f\">%s</text>",
				 LEFT, y, W - RIGHT, y, LEFT - 4, y + 3, num);
	}
	rc |= buf_printf(out, "<text class=\"vlabel unit\" x=\"%.1f\" y=\"%.1f\">%s</text>",
			 LEFT - 4, RTOP - 8, *sc.suffix ? sc.suffix + 1 : "count");
	/* One line per pad, its points where the variant ran. */
	for (int i = 0; i < rs.n; i++)
		for (size_t k = 0; k < rs.s[i]->n_pads; k++) {
			const struct report_dist_pad *p = &rs.s[i]->pads[k];
			const char *cmd = "M";
			rc |= buf_printf(out, "<path class=\"roundline %s\" d=\"", rs.cls[i]);
			for (size_t j = first; j < p->n_rounds; j++) {
				double x, y;
				if (isnan(p->rounds[j]))
					continue;
				x = LEFT + ((double)(j - first) + order_pos(ordered ? m : NULL, rs.side[i],
									    p->pad, j - first)) /
					   (double)shown * pw;
				y = yb - (p->rounds[j] - a.lo) / (a.hi - a.lo) * RPLOT;
				rc |= buf_printf(out, "%s%.1f %.1f", cmd, x, y);
				cmd = "L";
			}
			rc |= buf_printf(out, "\"><title>%s pad %u</title></path>", rs.role[i], p->pad);
		}
	/* The rounds under the plot. */
	for (size_t j = first; j < nr; j++) {
		double x = LEFT + ((double)(j - first) + 0.5) / (double)shown * pw;
		if (shown > 12 && (j - first) % ((shown + 11) / 12) != 0)
			continue;
		rc |= buf_printf(out, "<text class=\"ticklabel\" x=\"%.1f\" y=\"%.1f\">%zu</text>",
				 x, yb + 14, j);
	}
	rc |= buf_printf(out, "<text class=\"rowlabel unit\" x=\"%.1f\" y=\"%.1f\">round</text>",
			 LEFT - 8, yb + 14);
	if (load) {
		double y0 = yb + 22;
		rc |= buf_printf(out, "<text class=\"rowlabel unit\" x=\"%.1f\" y=\"%.1f\">load</text>",
				 LEFT - 8, y0 + RLOAD / 2 + 3);
		for (size_t j = 0; j < m->run.n_conditions && j < shown; j++) {
			double l = m->run.conditions[j].load[0], h;
			char lt[UNITS_MAX];

			if (isnan(l))
				continue;
			h = loadmax > 0 ? l / loadmax * RLOAD : 0;
			units_load(l, lt);
			rc |= buf_printf(out, "<rect class=\"load\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
					 "height=\"%.1f\"><title>round %zu: load %s</title></rect>",
					 LEFT + (double)j / (double)shown * pw + 1, y0 + RLOAD - h,
					 pw / (double)shown - 2 > 1 ? pw / (double)shown - 2 : 1, h,
					 j + first, lt);
		}
		units_load(loadmax, most);
		rc |= buf_printf(out, "<text class=\"vlabel\" x=\"%.1f\" y=\"%.1f\">%s</text>",
				 W - RIGHT, y0 - 2, most);
	}
	rc |= axis_zero_note(out, &a, W - RIGHT, H - 4, "end");
	rc |= buf_addstr(out, "</svg>");
	return rc ? -1 : 0;
}

/* The first 12 bytes of a commit id, "" for none. */
static const char *short_commit(const char *commit, char out[13])
{
	snprintf(out, 13, "%s", commit ? commit : "");
	return out;
}

int svg_range(struct buf *out, const struct range_report *r, const struct report_bench *b0)
{
	const double w = 60, left = 80, top = 20, h = 200;
	enum units_dim dim = metric_dim(b0->metric);
	double lo = INFINITY, hi = -INFINITY;
	size_t n = r->n + 1;
	char lab[UNITS_MAX], id[13];
	int rc = 0;

	for (size_t k = 0; k < n; k++) {
		const struct report_bench *vb = k ? range_bench(&r->rows[k - 1].vs_base, b0->name) : NULL;
		const struct manifest_side_stats *s = k ? (vb ? vb->new : NULL) : b0->old;
		if (s && !isnan(s->min) && s->min < lo)
			lo = s->min;
		if (s && !isnan(s->max) && s->max > hi)
			hi = s->max;
	}
	if (!(lo <= hi))
		return 0;
	if (hi - lo < 1e-12 * (fabs(hi) + 1e-300))
		hi = lo + fabs(lo) * 0.01 + 1e-12;
	rc |= buf_printf(out, "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 %.0f %.0f\">\n",
			 left + w * (double)n + 20, top + h + 50) < 0;
	rc |= buf_printf(out, "<text class=\"verdictlabel\" x=\"%.0f\" y=\"%.0f\">", left + w * (double)n + 10,
			 top - 6) < 0 || esc_html(out, range_bench_word(r, b0->name)) < 0 ||
	      buf_addstr(out, "</text>\n") < 0;
	units_value(hi, dim, 1, lab);
	rc |= buf_printf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>\n", left - 6, top + 4, lab) < 0;
	units_value(lo, dim, 1, lab);
	rc |= buf_printf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%s</text>\n", left - 6, top + h + 4, lab) < 0;
	rc |= buf_printf(out, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#888\"/>\n",
			 left, top + h, left + w * (double)n, top + h) < 0;
	for (size_t k = 0; rc == 0 && k < n; k++) {
		const struct report_bench *vb = k ? range_bench(&r->rows[k - 1].vs_base, b0->name) : NULL;
		const struct manifest_side_stats *s = k ? (vb ? vb->new : NULL) : b0->old;
		const char *commit = k ? r->rows[k - 1].src->m.repo.candidate.commit : r->base_commit;
		double x = left + w * ((double)k + 0.5), y0, y1, yc;
		/* A compared commit takes its verdict's colour (the page's v-<name>
		 * classes, common/verdict.h); A itself is drawn plain. */
		const char *cls = vb && verdict_name(vb->verdict) ? verdict_name(vb->verdict) : "none";

		rc |= buf_printf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"10\">", x,
				 top + h + 16) < 0;
		rc |= esc_html(out, k ? short_commit(commit, id) : "A") < 0;
		rc |= buf_addstr(out, "</text>\n") < 0;
		if (k) {
			rc |= buf_printf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\" font-size=\"9\">", x,
					 top + h + 30) < 0;
			rc |= esc_html(out, short_commit(commit, id)) < 0;
			rc |= buf_addstr(out, "</text>\n") < 0;
		}
		if (!s || isnan(s->min) || isnan(s->max) || isnan(s->center))
			continue;
		y0 = top + h * (hi - s->max) / (hi - lo);
		y1 = top + h * (hi - s->min) / (hi - lo);
		yc = top + h * (hi - s->center) / (hi - lo);
		rc |= buf_printf(out, "<rect class=\"v-%s\" x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"%.1f\" "
				 "fill=\"#2c3e50\" fill-opacity=\"0.35\"><title>", cls, x - 6, y0,
				 y1 - y0 < 1 ? 1 : y1 - y0) < 0;
		units_value(s->min, dim, 1, lab);
		rc |= esc_html(out, lab) < 0 || buf_addstr(out, " to ") < 0;
		units_value(s->max, dim, 1, lab);
		rc |= esc_html(out, lab) < 0 || buf_addstr(out, "</title></rect>\n") < 0;
		rc |= buf_printf(out, "<circle class=\"v-%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#2c3e50\"/>\n",
				 cls, x, yc) < 0;
	}
	rc |= buf_addstr(out, "</svg>\n") < 0;
	return rc ? -1 : 0;
}

/* A string member of a bisect document, "" when absent. */
static const char *doc_str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

static size_t doc_index(const json_t *o, const char *k)
{
	return (size_t)json_integer_value(json_object_get(o, k));
}

/* The first 12 bytes of commits[i].commit, escaped. */
static int doc_commit(struct buf *out, const json_t *doc, size_t i)
{
	char id[13];

	return esc_html(out, short_commit(doc_str(json_array_get(json_object_get(doc, "commits"), i),
						  "commit"), id));
}

int svg_bisect(struct buf *out, const json_t *doc)
{
	const json_t *steps = json_object_get(doc, "steps"), *res = json_object_get(doc, "result");
	size_t n = json_array_size(json_object_get(doc, "commits")), rows = json_array_size(steps);
	const double left = 150, width = 600, row = 26, top = 20;
	double h = top + row * (double)(rows + 1) + 30;
	int r = 0;

#define X(i) (left + width * (double)(i) / (double)(n > 1 ? n - 1 : 1))
	r |= buf_printf(out, "<svg class=\"bisect\" viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
			"role=\"img\" aria-label=\"the bisect's comparisons over the commits\">\n",
			left + width + 40, h, left + width + 40, h);
	r |= buf_addstr(out, "<title>the path of the bisect: one row per comparison, its range shaded, "
			     "the base a circle, the candidate a square</title>\n");
	/* The commit axis: the good end, the bad end, every commit measured. */
	r |= buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"axis\"/>\n", X(0),
			h - 30, X(n - 1), h - 30);
	r |= buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">0 good</text>\n", X(0), h - 12) |
	     buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick end\">%zu bad</text>\n", X(n - 1), h - 12, n - 1);
	for (size_t i = 0; i < rows; i++) {
		const json_t *s = json_array_get(steps, i), *rg = json_object_get(s, "range");
		double y = top + row * (double)i;
		size_t lo = (size_t)json_integer_value(json_array_get(rg, 0));
		size_t hi = (size_t)json_integer_value(json_array_get(rg, 1));
		size_t b = doc_index(s, "base"), c = doc_index(s, "candidate");
		const char *call = doc_str(s, "call");
		const char *cls = strcmp(call, "slower") == 0 ? "slower" : strcmp(call, "undecided") == 0 ? "undecided" : "same";
		r |= buf_printf(out, "<text x=\"4\" y=\"%.1f\" class=\"label\">%zu ", y + 4, doc_index(s, "n")) |
		     esc_html(out, doc_str(s, "kind")) | buf_addstr(out, "</text>\n");
		r |= buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" class=\"range\"/>\n", X(lo),
				y - 4, X(hi) - X(lo) > 1 ? X(hi) - X(lo) : 1);
		r |= buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"pair %s\"/>\n", X(b),
				y, X(c), y, cls);
		r |= buf_printf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"base\"><title>base %zu ", X(b), y, b) |
		     doc_commit(out, doc, b) | buf_addstr(out, "</title></circle>\n");
		r |= buf_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" class=\"cand %s\"><title>candidate %zu ",
				X(c) - 4, y - 4, cls, c) |
		     doc_commit(out, doc, c) | buf_addstr(out, ": ") |
		     esc_html(out, doc_str(s, "verdict")) | buf_addstr(out, "</title></rect>\n");
		r |= buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%zu</text>\n", X(c) + 6, y + 4, c);
	}
	if (json_is_integer(json_object_get(res, "culprit"))) {
		size_t c = doc_index(res, "culprit");
		r |= buf_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"culprit\"/>\n", X(c), top - 10,
				X(c), h - 30) |
		     buf_printf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">culprit %zu</text>\n", X(c) + 4,
				h - 12, c);
	}
#undef X
	r |= buf_addstr(out, "</svg>\n");
	return r ? -1 : 0;
}
