/*
 * reports/trend.c: `plumb report --trend BENCH`: one benchmark's series
 * from the archive as a table, Markdown, JSON or an HTML chart.  A point
 * whose range lies wholly above or below the previous point's is marked:
 * that is where, by the overlap rule, something changed between two
 * consecutive nights (DESIGN §6 applied along the series).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "archive/hosts.h"
#include "archive/query.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "common/table.h"
#include "formats/jsonio.h"
#include "reports/changes.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/trend.h"
#include "reports/words.h"
#include "common/banned.h"

static enum metric_id metric_of(const char *name)
{
	enum metric_id m;

	if (name && metric_parse(name, &m) == 0)
		return m;
	return METRIC_CYCLES;   /* unknown: shown as a plain count */
}

/* n pad medians v as the change points use them: none unless all are known and at most QUERY_PADS_MAX. */
static size_t pads_usable(const double *v, size_t n)
{
	if (!v || n > QUERY_PADS_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (isnan(v[i]))
			return 0;
	return n;
}

/* The observations of the points of t in *obs (malloc'd), pointing into t. */
static int observations(const struct query_trend_result *t, struct changes_obs **obs,
			struct plumb_err *err)
{
	*obs = calloc(t->n ? t->n : 1, sizeof(**obs));
	if (!*obs)
		return plumb_err_oom(err, "trend");
	for (size_t i = 0; i < t->n; i++) {
		const struct query_trend_point *e = &t->points[i];
		struct changes_obs *o = &(*obs)[i];
		o->pads = e->pads;
		o->npads = pads_usable(e->pads, e->npads);
		o->base_pads = e->base_pads;
		o->nbase = pads_usable(e->base_pads, e->nbase_pads);
		o->center = e->center;
		o->min = e->min;
		o->max = e->max;
		o->base_center = e->base_center;
		o->ratio = e->ratio;
		o->commit = e->commit;
		o->base_commit = e->base_commit;
	}
	return 0;
}

static void ref_of(const struct query_trend_point *e, struct changes_ref *r)
{
	r->commit = e->commit;
	r->time = e->time;
	r->bundle = e->bundle;
}

/* The points of t with the shifts marked, in s->p (calloc'd). */
static int points_of(const struct query_trend_result *t, struct trend_series *s,
		     struct plumb_err *err)
{
	struct trend_point *p = calloc(t->n ? t->n : 1, sizeof(*p));

	if (!p)
		return plumb_err_oom(err, "trend");
	for (size_t i = 0; i < t->n; i++) {
		const struct query_trend_point *e = &t->points[i];
		p[i].bundle = e->bundle;
		p[i].ref = e->ref;
		p[i].commit = e->commit;
		p[i].time = e->time;
		p[i].created = e->created;
		p[i].verdict = e->verdict;
		p[i].center = e->center;
		p[i].min = e->min;
		p[i].max = e->max;
		p[i].spread = e->spread;
		p[i].ratio = e->ratio;
		if (isnan(p[i].min) || isnan(p[i].max))
			p[i].min = p[i].max = NAN;
		/* Compare with the last point that had a range. */
		for (size_t k = i; k-- > 0;) {
			if (isnan(p[k].min))
				continue;
			if (!isnan(p[i].min))
				p[i].shift = p[i].min > p[k].max ? 1 : p[i].max < p[k].min ? -1 : 0;
			break;
		}
	}
	s->p = p;
	s->n = t->n;
	return 0;
}

void trend_series_release(struct trend_series *s)
{
	free(s->p);
	json_decref(s->changes);
	memset(s, 0, sizeof(*s));
}

int trend_series_find(const struct query_trend_result *t, struct trend_series *s,
		      struct plumb_err *err)
{
	size_t n = t->n, nc = 0;
	struct changes_obs *obs = NULL;
	struct cp_night *x = NULL;
	struct cp_change *c = NULL;
	int r;

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->noise = NAN;
	if (!(s->changes = json_array()))
		return plumb_err_oom(err, "trend");
	if ((r = points_of(t, s, err)) < 0 || n == 0)
		goto done;
	if ((r = observations(t, &obs, err)) < 0)
		goto done;
	if (!(x = malloc(n * sizeof(*x)))) {
		r = plumb_err_oom(err, "trend");
		goto done;
	}
	s->series = changes_series_of(obs, n, &s->base);
	for (size_t i = 0; i < n; i++)
		x[i] = changes_night(&obs[i], s->series);
	if ((r = changes_find(x, n, &c, &nc, &s->noise, err)) < 0)
		goto done;
	for (size_t i = 0; i < nc; i++) {
		struct changes_ref before, after;
		size_t k = c[i].at;
		json_t *o;

		while (k-- > 0 && !isfinite(x[k].level))
			;
		ref_of(&t->points[k], &before);
		ref_of(&t->points[c[i].at], &after);
		o = changes_object(&c[i], &before, &after, s->series);
		if (!o || json_object_set_new(o, "index", json_integer((json_int_t)c[i].at)) ||
		    json_array_append_new(s->changes, o)) {
			r = plumb_err_oom(err, "trend");
			goto done;
		}
		s->host += changes_is_host(&before, &after);
		s->p[c[i].at].change = c[i].after > c[i].before ? 1 : -1;
		s->p[c[i].at].change_ratio = c[i].ratio;
		s->p[c[i].at].change_host = changes_is_host(&before, &after);
	}
done:
	if (r < 0)
		trend_series_release(s);
	free(obs);
	free(x);
	free(c);
	return r;
}

int trend_json_found(json_t *o, const struct trend_series *s)
{
	return json_object_set_new(o, "series", json_string(changes_series_name(s->series))) ||
	       json_object_set_new(o, "series_base", s->base ? json_string(s->base) : json_null()) ||
	       json_object_set_new(o, "noise", isnan(s->noise) ? json_null() : json_real(s->noise)) ||
	       json_object_set(o, "changes", s->changes) ? -1 : 0;
}

int trend_fail_on_parse(const char *s, enum report_fail_on *out)
{
	if (strcmp(s, "change") == 0) {
		*out = REPORT_FAIL_CHANGE;
		return 0;
	}
	return report_fail_on_parse(s, out);
}

static const char *shift_word(int s)
{
	return s > 0 ? "up: no overlap with the previous range" :
	       s < 0 ? "down: no overlap with the previous range" : "";
}

/* "94.00–97.13 ms" */
static void range_text(const struct trend_point *p, enum metric_id m, char *out, size_t size)
{
	struct units_scale sc;
	char lo[UNITS_MAX], hi[UNITS_MAX];

	if (isnan(p->min)) {
		snprintf(out, size, "-");
		return;
	}
	units_scale(isnan(p->center) ? p->max : p->center, metric_dim(m), 0, &sc);
	units_number(p->min, &sc, lo);
	units_number(p->max, &sc, hi);
	snprintf(out, size, "%s\u2013%s%s", lo, hi, sc.suffix);
}

static size_t count_shifts(const struct trend_point *p, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += p[i].shift != 0;
	return k;
}

void trend_change_size(const json_t *c, char *out, size_t size)
{
	char v[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];

	units_change(jsonio_get_num(c, "ratio"), v);
	units_change(jsonio_get_num(c, "low"), lo);
	units_change(jsonio_get_num(c, "high"), hi);
	snprintf(out, size, "%s [%s, %s]", v, lo, hi);
}

/* A change's commits "a..b", each cut to 12 hex digits, in *out (size >= 32). */
static void change_commits(const json_t *c, char *out, size_t size)
{
	const char *a = jsonio_get_str(json_object_get(c, "last_before"), "commit", NULL);
	const char *b = jsonio_get_str(json_object_get(c, "first_after"), "commit", NULL);

	snprintf(out, size, "%.12s..%.12s", a ? a : "?", b ? b : "?");
	utf8_cut(out);
}

static const char *change_time(const json_t *c, const char *side)
{
	const char *t = jsonio_get_str(json_object_get(c, side), "time", NULL);

	return t ? t : "?";
}

/* How one view writes a change point's row: its pieces around the values. */
struct change_row {
	const char *start;    /* printf format of the direction and the size */
	const char *mid;      /* between the last night before and the first after */
	const char *commits;  /* before the commits */
	const char *end;
	int (*esc)(struct buf *out, const char *s);
	/* A commit id shown (html_commit()), or NULL: 12 digits by esc. */
	int (*commit)(struct buf *out, const char *id);
};

/* After the commits of a change that moved no code (changes_is_host()). */
#define HOST_WORDS "; the host: the same commit on both nights, no code changed (never gated)"

/* Every change point as one row of f. */
static int change_rows(const json_t *changes, const struct change_row *f, struct buf *out)
{
	int rc = 0;

	for (size_t i = 0; i < json_array_size(changes); i++) {
		const json_t *c = json_array_get(changes, i);
		char size[96], commits[64];
		trend_change_size(c, size, sizeof(size));
		change_commits(c, commits, sizeof(commits));
		rc |= buf_printf(out, f->start, jsonio_get_str(c, "direction", NULL), size);
		rc |= f->esc(out, change_time(c, "last_before"));
		rc |= buf_addstr(out, f->mid);
		rc |= f->esc(out, change_time(c, "first_after"));
		rc |= buf_addstr(out, f->commits);
		if (f->commit) {
			rc |= f->commit(out, jsonio_get_str(json_object_get(c, "last_before"), "commit", NULL));
			rc |= buf_addstr(out, "..");
			rc |= f->commit(out, jsonio_get_str(json_object_get(c, "first_after"), "commit", NULL));
		} else {
			rc |= f->esc(out, commits);
		}
		if (jsonio_get_str(c, "cause", NULL) && strcmp(jsonio_get_str(c, "cause", NULL), "host") == 0)
			rc |= f->esc(out, HOST_WORDS);
		rc |= buf_addstr(out, f->end);
	}
	return rc;
}

/* Which series the change points were found on, as a sentence escaped by esc. */
static int series_sentence(const struct trend_series *f, struct buf *out,
			   int (*esc)(struct buf *out, const char *s))
{
	char base[16];
	int rc = 0;

	if (f->series == CHANGES_LEVEL)
		return esc(out, "Change points on the candidate's level (the nights were not all "
			   "measured against one base: a drift of the host moves the series too).");
	snprintf(base, sizeof(base), "%.12s", f->base ? f->base : "?");
	utf8_cut(base);
	rc |= esc(out, "Change points on the within-night ratio: each night's candidate over its base ");
	rc |= esc(out, base);
	rc |= esc(out, " (the same every night, measured in the same job), so a drift of the host "
		  "cancels.");
	return rc;
}

/* The change point lines of the text view. */
static int text_changes(const struct trend_series *f, struct buf *out)
{
	static const struct change_row row = { "  %-4s %s  between ", " and ", ", commits ", "\n",
					       esc_text, NULL };
	size_t nc = json_array_size(f->changes);
	int rc = 0;

	rc |= series_sentence(f, out, esc_text);
	rc |= buf_printf(out, "\n%zu change point%s%s\n", nc, nc == 1 ? "" : "s", nc ? ":" : "");
	rc |= change_rows(f->changes, &row, out);
	return rc;
}

static int text(const struct trend_series *f, enum metric_id m, struct buf *out)
{
	const struct trend_point *p = f->p;
	size_t n = f->n;
	struct table t;
	int rc = 0;

	rc |= buf_addstr(out, "plumb report --trend ");
	rc |= esc_text(out, f->t->bench);
	rc |= buf_addstr(out, ": metric ");
	rc |= esc_text(out, f->t->metric ? f->t->metric : "?");
	rc |= buf_addstr(out, ", host ");
	rc |= esc_text(out, f->t->host ? f->t->host : "?");
	rc |= buf_printf(out, ", %zu point%s\n\n", n, n == 1 ? "" : "s");
	table_init(&t, 8, NULL);
	table_row(&t, "time", "commit", "ref", "center", "range", "spread", "verdict", "shift");
	for (size_t i = 0; i < n; i++) {
		const struct trend_point *q = &p[i];
		char c[UNITS_MAX], r[256], s[UNITS_MAX], id[13];

		snprintf(id, sizeof(id), "%s", q->commit ? q->commit : "-");
		utf8_cut(id);
		units_value(q->center, metric_dim(m), 0, c);
		range_text(q, m, r, sizeof(r));
		units_percent(q->spread, s);
		table_cell(&t, q->time ? q->time : "-");
		table_cell(&t, id);
		table_cell(&t, q->ref ? q->ref : "-");
		table_cell(&t, c);
		table_cell(&t, r);
		table_cell(&t, s);
		table_cell(&t, q->verdict ? q->verdict : "-");
		table_cellf(&t, "%s%s%s", q->shift > 0 ? "up" : q->shift < 0 ? "down" : "",
			    q->shift && q->change ? ", " : "",
			    q->change > 0 ? "change up" : q->change < 0 ? "change down" : "");
		table_end_row(&t, NULL);
	}
	rc |= table_render(&t, out);
	table_release(&t);
	rc |= buf_printf(out, "\n%zu shift%s", count_shifts(p, n), count_shifts(p, n) == 1 ? "" : "s");
	for (size_t i = 0, first = 1; i < n; i++) {
		if (!p[i].shift)
			continue;
		rc |= buf_addstr(out, first ? ": " : ", ");
		first = 0;
		rc |= esc_text(out, p[i].time ? p[i].time : "?");
		rc |= buf_printf(out, " %.12s (%s)", p[i].commit ? p[i].commit : "?",
				 p[i].shift > 0 ? "up" : "down");
	}
	rc |= buf_addstr(out, "\n");
	rc |= text_changes(f, out);
	return rc ? -1 : 0;
}

static int markdown(const struct trend_series *f, enum metric_id m, struct buf *out)
{
	const struct trend_point *p = f->p;
	size_t n = f->n;
	static const struct change_row md_row = { "| %s | %s | ", " | ", " | ", " |\n", esc_md, NULL };
	char c[UNITS_MAX], r[256], s[UNITS_MAX];
	int rc = 0;

	rc |= buf_addstr(out, "## plumb trend: ");
	rc |= esc_md(out, f->t->bench);
	rc |= buf_addstr(out, "\n\nMetric ");
	rc |= esc_md(out, f->t->metric ? f->t->metric : "?");
	rc |= buf_addstr(out, ", host ");
	rc |= esc_md(out, f->t->host ? f->t->host : "?");
	rc |= buf_printf(out, ", %zu point%s, %zu shift%s (a range wholly above or below the "
			 "previous one).\n\n", n, n == 1 ? "" : "s", count_shifts(p, n),
			 count_shifts(p, n) == 1 ? "" : "s");
	rc |= buf_addstr(out, "| time | commit | ref | center | range | spread | verdict | shift |\n"
			 "|---|---|---|---:|---:|---:|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		units_value(p[i].center, metric_dim(m), 0, c);
		range_text(&p[i], m, r, sizeof(r));
		units_percent(p[i].spread, s);
		rc |= buf_addstr(out, "| ");
		rc |= esc_md(out, p[i].time ? p[i].time : "\u2013");
		rc |= buf_addstr(out, " | ");
		if (p[i].commit && strspn(p[i].commit, "0123456789abcdef") == strlen(p[i].commit))
			rc |= buf_printf(out, "`%.12s`", p[i].commit);
		else
			rc |= esc_md(out, p[i].commit ? p[i].commit : "");
		rc |= buf_addstr(out, " | ");
		rc |= esc_md(out, p[i].ref ? p[i].ref : "");
		rc |= buf_printf(out, " | %s | %s | %s | ", c, r, s);
		rc |= esc_md(out, p[i].verdict ? p[i].verdict : "\u2013");
		rc |= buf_printf(out, " | %s%s |\n", p[i].shift > 0 ? "**\u25b2 up**" :
				 p[i].shift < 0 ? "**\u25bc down**" : "",
				 p[i].change > 0 ? " change \u2191" : p[i].change < 0 ? " change \u2193" : "");
	}
	rc |= buf_addstr(out, "\n### Change points\n\n");
	rc |= series_sentence(f, out, esc_md);
	rc |= buf_printf(out, "\n\n%zu change point%s (docs/changes.md).\n",
			 json_array_size(f->changes), json_array_size(f->changes) == 1 ? "" : "s");
	if (json_array_size(f->changes))
		rc |= buf_addstr(out, "\n| direction | size [95%] | last night before | first night after | commits |\n"
				 "|---|---:|---|---|---|\n");
	rc |= change_rows(f->changes, &md_row, out);
	return rc ? -1 : 0;
}

/* The JSON trend object (docs/report-json.md); NULL when memory ran out. */
static json_t *json_model(const struct trend_series *f)
{
	const struct trend_point *p = f->p;
	size_t n = f->n;
	json_t *o = json_object(), *a = json_array();
	int bad = !o || !a;

	for (size_t i = 0; !bad && i < n; i++) {
		json_t *e = json_object();
		bad |= json_array_append_new(a, e);
		if (bad)
			break;
		bad |= json_object_set_new(e, "bundle", jsonio_str(p[i].bundle));
		bad |= json_object_set_new(e, "ref", jsonio_str(p[i].ref));
		bad |= json_object_set_new(e, "commit", jsonio_str(p[i].commit));
		bad |= json_object_set_new(e, "time", jsonio_str(p[i].time));
		bad |= json_object_set_new(e, "created", jsonio_str(p[i].created));
		bad |= json_object_set_new(e, "center", jsonio_real(p[i].center));
		bad |= json_object_set_new(e, "min", jsonio_real(p[i].min));
		bad |= json_object_set_new(e, "max", jsonio_real(p[i].max));
		bad |= json_object_set_new(e, "spread", jsonio_real(p[i].spread));
		bad |= json_object_set_new(e, "ratio", jsonio_real(p[i].ratio));
		bad |= json_object_set_new(e, "verdict", jsonio_str(p[i].verdict));
		bad |= json_object_set_new(e, "shift", p[i].shift > 0 ? json_string("up") :
					   p[i].shift < 0 ? json_string("down") : json_null());
		bad |= json_object_set_new(e, "change", p[i].change > 0 ? json_string("up") :
					   p[i].change < 0 ? json_string("down") : json_null());
	}
	if (!bad) {
		bad |= json_object_set_new(o, "format", json_string("plumb-trend"));
		bad |= json_object_set_new(o, "version", json_integer(TREND_JSON_VERSION));
		bad |= json_object_set_new(o, "bench", jsonio_str(f->t->bench));
		bad |= json_object_set_new(o, "project", jsonio_str(f->t->project));
		bad |= json_object_set_new(o, "metric", jsonio_str(f->t->metric));
		bad |= json_object_set_new(o, "host", jsonio_str(f->t->host));
		bad |= json_object_set_new(o, "shifts", json_integer((json_int_t)count_shifts(p, n)));
		bad |= json_object_set_new(o, "points", a);
		a = NULL;
		bad |= trend_json_found(o, f);
	}
	json_decref(a);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* How much of the HTML page to write. */
struct html_part {
	int page;            /* the whole page (html_begin() .. html_end()), else the body only */
	const char *nav;     /* raw HTML put first in the body (escaped by its maker), or NULL */
	const char *heading; /* "h1" for a page, "h2" for one class among others */
	size_t index;        /* the section's number on its page */
};

static int html(const struct trend_series *f, enum metric_id m, const struct html_part *part,
		struct buf *out)
{
	const struct trend_point *p = f->p;
	size_t n = f->n;
	static const struct change_row html_row = {
		"<tr class=\"differs\"><td>%s</td><td class=\"num\">%s</td><td class=\"num\">",
		"</td><td class=\"num\">", "</td><td class=\"key\">", "</td></tr>\n", esc_html, html_commit
	};
	char title[300], c[UNITS_MAX], r[256], s[UNITS_MAX];
	int rc = 0;

	snprintf(title, sizeof(title), "plumb trend: %s", f->t->bench);
	utf8_cut(title);
	if (part->page)
		rc |= html_begin(out, title);
	if (part->nav)
		rc |= buf_addstr(out, part->nav);
	rc |= buf_printf(out, "<header>\n<%s>plumb trend: ", part->heading);
	rc |= esc_html(out, f->t->bench);
	rc |= buf_printf(out, "</%s>\n<p class=\"meta\">Metric ", part->heading);
	rc |= esc_html(out, f->t->metric ? f->t->metric : "?");
	rc |= buf_addstr(out, ", host ");
	rc |= esc_html(out, f->t->host ? f->t->host : "?");
	rc |= buf_printf(out, ", %zu point%s, <strong>%zu shift%s</strong>: a range wholly above "
			 "(\u25b2) or below (\u25bc) the previous one.</p>\n</header>\n",
			 n, n == 1 ? "" : "s", count_shifts(p, n), count_shifts(p, n) == 1 ? "" : "s");
	rc |= buf_printf(out, "<section class=\"bench\" id=\"bench-%zu\">\n<figure class=\"chart\">",
			 part->index);
	rc |= svg_trend(out, f->t->bench, m, p, n, part->index);
	rc |= buf_addstr(out, "</figure>\n</section>\n");
	/* The verdict second, on a phone's first screen without scrolling. */
	rc |= buf_addstr(out, "<section class=\"points\"><div class=\"scroll\"><table class=\"benches\">\n"
			 "<tr><th>time</th><th>verdict</th><th>center</th><th>range</th><th>shift</th>"
			 "<th>commit</th><th>ref</th><th>spread</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		units_value(p[i].center, metric_dim(m), 0, c);
		range_text(&p[i], m, r, sizeof(r));
		units_percent(p[i].spread, s);
		rc |= buf_printf(out, "<tr%s><td class=\"num\">", p[i].shift ? " class=\"differs\"" : "");
		rc |= esc_html(out, p[i].time ? p[i].time : "");
		rc |= buf_addstr(out, "</td><td>");
		rc |= esc_html(out, p[i].verdict ? p[i].verdict : "");
		rc |= buf_printf(out, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>%s</td>"
				 "<td class=\"key\">", c, r, shift_word(p[i].shift));
		rc |= html_commit(out, p[i].commit);
		rc |= buf_addstr(out, "</td><td>");
		rc |= esc_html(out, p[i].ref ? p[i].ref : "");
		rc |= buf_printf(out, "</td><td class=\"num\">%s</td></tr>\n", s);
	}
	rc |= buf_addstr(out, "</table></div></section>\n");
	rc |= buf_printf(out, "<section class=\"changes\"><h2>Change points</h2>\n<p>%zu change point%s "
			 "(docs/changes.md): where the nights' levels, their pads' whole range counted, "
			 "move by more than the series' noise.  ", json_array_size(f->changes),
			 json_array_size(f->changes) == 1 ? "" : "s");
	rc |= series_sentence(f, out, esc_html);
	rc |= buf_addstr(out, "</p>\n");
	if (json_array_size(f->changes))
		rc |= buf_addstr(out, "<div class=\"scroll\"><table class=\"benches\">\n<tr><th>direction</th>"
				 "<th>size [95%]</th><th>last night before</th><th>first night after</th>"
				 "<th>commits</th></tr>\n");
	rc |= change_rows(f->changes, &html_row, out);
	if (json_array_size(f->changes))
		rc |= buf_addstr(out, "</table></div>\n");
	rc |= buf_addstr(out, "</section>\n");
	if (part->page)
		rc |= html_end(out);
	return rc ? -1 : 0;
}

int trend_gate(const struct trend_point *p, size_t n, enum report_fail_on fail_on,
	       char *why, size_t size)
{
	int either = fail_on == REPORT_FAIL_ANY || fail_on == REPORT_FAIL_CHANGE;
	char commit[16];

	why[0] = '\0';
	if (!n || fail_on == REPORT_FAIL_NEVER)
		return 0;
	for (size_t i = n > CHANGES_LATEST ? n - CHANGES_LATEST : 0; i < n; i++) {
		if (!p[i].change || p[i].change_host || (p[i].change < 0 && !either))
			continue;
		snprintf(commit, sizeof(commit), "%.12s", p[i].commit ? p[i].commit : "?");
		utf8_cut(commit);
		snprintf(why, size, "the latest nights start a change point %s: %zu of the last %d "
			 "nights are after it, the first at commit %s (--fail-on %s)",
			 p[i].change > 0 ? "up" : "down", n - i, CHANGES_LATEST, commit,
			 report_fail_on_name(fail_on));
		return 1;
	}
	return 0;
}

static const struct html_part page_whole = { 1, NULL, "h1", 0 };

/*
 * Render one series in format under part (HTML); the JSON object goes to
 * *jout when jout is given, else it is written to out.
 */
static int render_one(const struct query_trend_result *t, enum report_format format,
		      enum report_fail_on fail_on, const struct html_part *part, struct buf *out,
		      json_t **jout, struct report_result *rr, struct plumb_err *err)
{
	struct trend_series f;
	enum metric_id m;
	size_t nc;
	json_t *j;
	int rc;

	memset(rr, 0, sizeof(*rr));
	if ((rc = trend_series_find(t, &f, err)) < 0)
		return rc;
	nc = json_array_size(f.changes);
	rr->failon_matched = (size_t)trend_gate(f.p, f.n, fail_on, rr->message, sizeof(rr->message));
	snprintf(rr->summary, sizeof(rr->summary), "%zu point%s, %zu shift%s, %zu change point%s%s "
		 "(on the %s series)", f.n, f.n == 1 ? "" : "s", count_shifts(f.p, f.n),
		 count_shifts(f.p, f.n) == 1 ? "" : "s", nc, nc == 1 ? "" : "s",
		 f.host ? ", of the host not gated" : "", changes_series_name(f.series));
	m = metric_of(t->metric);
	switch (format) {
	case REPORT_TEXT:
		rc = text(&f, m, out);
		break;
	case REPORT_MARKDOWN:
		rc = markdown(&f, m, out);
		break;
	case REPORT_HTML:
		rc = html(&f, m, part, out);
		break;
	case REPORT_JSON:
		j = json_model(&f);
		trend_series_release(&f);
		if (!j)
			return plumb_err_oom(err, "trend");
		if (jout) {
			*jout = j;
			return 0;
		}
		rc = jsonio_dump(j, out, err);
		json_decref(j);
		return rc;
	case REPORT_CSV:
	case REPORT_BMF:
		trend_series_release(&f);
		return plumb_err_set(err, PLUMB_EARG, "trend: --format %s exports a bundle's report, "
				     "not a trend", report_format_name(format));
	}
	trend_series_release(&f);
	if (rc)
		return buf_err(err, "trend");
	return 0;
}

int trend_render_model(const struct query_trend_result *t, enum report_format format,
		       struct buf *out, struct plumb_err *err)
{
	struct report_result rr;

	return trend_render_gated(t, format, REPORT_FAIL_NEVER, out, &rr, err);
}

int trend_render_gated(const struct query_trend_result *t, enum report_format format,
		       enum report_fail_on fail_on, struct buf *out,
		       struct report_result *rr, struct plumb_err *err)
{
	return render_one(t, format, fail_on, &page_whole, out, NULL, rr, err);
}

int trend_render_page(const struct query_trend_result *t, const char *nav, struct buf *out,
		      struct plumb_err *err)
{
	const struct html_part part = { 1, nav, "h1", 0 };
	struct report_result rr;

	return render_one(t, REPORT_HTML, REPORT_FAIL_NEVER, &part, out, NULL, &rr, err);
}

/*
 * The series of one benchmark on several host classes (c, one query_trend()
 * result each), one after the other: a table or chart per class, never one
 * series through two.  The gate matches when any class's latest point does.
 */
static int render_classes(const char *bench, const struct trend_classes *c,
			  enum report_format format, enum report_fail_on fail_on, struct buf *out,
			  struct report_result *rr, struct plumb_err *err)
{
	static const char what[] = "one series each: results of different host classes are never "
				   "put in one series";
	size_t k = c->n;
	json_t *arr = format == REPORT_JSON ? json_array() : NULL, *o = NULL;
	char title[300];
	int rc = 0, r = 0;

	memset(rr, 0, sizeof(*rr));
	if (format == REPORT_JSON && !arr)
		return plumb_err_oom(err, "trend");
	if (format == REPORT_HTML) {
		snprintf(title, sizeof(title), "plumb trend: %s", bench);
		utf8_cut(title);
		rc |= html_begin(out, title);
		rc |= buf_addstr(out, "<header>\n<h1>plumb trend: ");
		rc |= esc_html(out, bench);
		rc |= buf_printf(out, "</h1>\n<p class=\"meta\">%zu host classes, %s.</p>\n</header>\n",
				 k, what);
	} else if (format == REPORT_TEXT) {
		rc |= buf_addstr(out, "plumb report --trend ");
		rc |= esc_text(out, bench);
		rc |= buf_printf(out, ": %zu host classes, %s\n\n", k, what);
	} else if (format == REPORT_MARKDOWN) {
		rc |= buf_addstr(out, "# plumb trend: ");
		rc |= esc_md(out, bench);
		rc |= buf_printf(out, "\n\n%zu host classes, %s.\n\n", k, what);
	}
	for (size_t i = 0; r == 0 && i < k; i++) {
		const struct query_trend_result *t = &c->v[i];
		const struct html_part part = { 0, NULL, "h2", i };
		struct report_result one;
		json_t *j = NULL;

		if (format == REPORT_HTML)
			rc |= buf_printf(out, "<section class=\"hostclass\" id=\"class-%zu\">\n", i);
		else if (i > 0 && format != REPORT_JSON)
			rc |= buf_addstr(out, "\n");
		r = render_one(t, format, fail_on, &part, out, format == REPORT_JSON ? &j : NULL,
			       &one, err);
		if (r == 0 && j && json_array_append_new(arr, j))
			r = plumb_err_oom(err, "trend");
		if (format == REPORT_HTML)
			rc |= buf_addstr(out, "</section>\n");
		if (r == 0 && one.failon_matched) {
			if (!rr->failon_matched)
				snprintf(rr->message, sizeof(rr->message), "host %.40s: %.900s",
					 t->host ? t->host : "?", one.message);
			rr->failon_matched += one.failon_matched;
		}
	}
	snprintf(rr->summary, sizeof(rr->summary), "%zu host classes, one series each", k);
	if (r == 0 && format == REPORT_HTML)
		rc |= html_end(out);
	if (r == 0 && format == REPORT_JSON) {
		o = json_object();
		if (!o || json_object_set_new(o, "format", json_string("plumb-trend-classes")) ||
		    json_object_set_new(o, "version", json_integer(TREND_JSON_VERSION)) ||
		    json_object_set_new(o, "bench", json_string(bench)) ||
		    json_object_set(o, "classes", arr))
			r = plumb_err_oom(err, "trend");
		else
			r = jsonio_dump(o, out, err);
	}
	json_decref(o);
	json_decref(arr);
	if (r == 0 && rc)
		r = buf_err(err, "trend");
	return r;
}

void trend_classes_release(struct trend_classes *c)
{
	for (size_t i = 0; i < c->n; i++)
		query_trend_release(&c->v[i]);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

int trend_query_classes(struct store *st, const struct query_trend *q, struct trend_classes *out,
			struct plumb_err *err)
{
	struct query_trend one = *q;
	json_t *classes = NULL;
	size_t k;
	int r = 0;

	memset(out, 0, sizeof(*out));
	/* Without a host: every class that measured it, each its own series. */
	if (!q->host && (r = hosts_of_bench(st, q->bench, q->metric, q->project, &classes, err)) < 0)
		return r;
	k = json_array_size(classes) > 1 ? json_array_size(classes) : 1;
	if (!(out->v = calloc(k, sizeof(*out->v)))) {
		json_decref(classes);
		return plumb_err_oom(err, "trend");
	}
	for (size_t i = 0; r == 0 && i < k; i++) {
		if (k > 1)
			one.host = json_string_value(json_array_get(classes, i));
		if ((r = query_trend(st, &one, &out->v[i], err)) == 0)
			out->n++;
	}
	json_decref(classes);
	if (r < 0)
		trend_classes_release(out);
	return r;
}

int trend_render(const struct trend_opts *o, struct buf *out, struct report_result *rr,
		 struct plumb_err *err)
{
	struct query_trend q = { o->bench, NULL, o->host, o->last, o->project };
	struct trend_classes c;
	struct store st;
	char *dir = NULL;
	int rc;

	if ((rc = store_locate(o->archive_dir, &dir, err)) < 0)
		return rc;
	rc = store_open(&st, dir, STORE_READONLY, err);
	free(dir);
	if (rc < 0)
		return rc;
	rc = trend_query_classes(&st, &q, &c, err);
	store_close(&st);
	if (rc < 0)
		return rc;
	if (c.n > 1)
		rc = render_classes(o->bench, &c, o->format, o->fail_on, out, rr, err);
	else
		rc = trend_render_gated(&c.v[0], o->format, o->fail_on, out, rr, err);
	trend_classes_release(&c);
	return rc;
}
