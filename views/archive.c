/*
 * views/archive.c: the text and JSON of the archive's results (archive.h).
 * Plain, aligned, line-oriented text that reads well in a cron mail;
 * ids are shortened to 12 digits in tables and shown whole elsewhere.
 * Every string of a result came from a bundle and is untrusted: it reaches
 * the buf only through esc_text() (common/escape.h) or a table
 * (common/table.h), which escapes every cell.  Values print
 * as plumb report prints them (common/units.h): a center with its unit,
 * its range in the same unit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "views/archive.h"
#include "archive/baseline.h"
#include "archive/bundles.h"
#include "archive/query.h"
#include "archive/scrub.h"
#include "common/buf.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/units.h"
#include "common/utf8.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "reports/site.h"
#include "reports/trend.h"
#include "common/banned.h"

/* The dimension of a model's metric name ("wall", "instructions"). */
static enum units_dim dim_of(const char *metric)
{
	enum metric_id m;

	if (metric && metric_parse(metric, &m) == 0)
		return metric_dim(m);
	return UNITS_COUNT;
}

/* s, or "-" when unknown. */
static const char *dash(const char *s)
{
	return s ? s : "-";
}

/*
 * The first 12 bytes of s ("-" when unknown) in buf: an id's short form;
 * a character the cut would split is left out.
 */
static const char *head12(const char *s, char buf[13])
{
	snprintf(buf, 13, "%s", dash(s));
	utf8_cut(buf);
	return buf;
}

/* "k=v,k=v" of labels as t's next cell; -1 when it could not be composed. */
static int labels_cell(struct table *t, const struct query_label *v, size_t n)
{
	struct buf b;
	int bad = 0;

	buf_init(&b, TABLE_CELL_MAX);
	for (size_t i = 0; i < n; i++)
		bad |= buf_printf(&b, "%s%s=%s", i ? "," : "", v[i].key, v[i].value ? v[i].value : "");
	table_cell(t, bad ? NULL : buf_cstr(&b));
	buf_release(&b);
	return bad;
}

int view_list(struct buf *out, const struct query_summaries *l)
{
	/* The widths the columns had when they were fixed. */
	static const size_t min[] = { 12, 20, 12, 12, 12, 7, 0 };
	struct table t;
	int r, bad = 0;

	if (l->n == 0)
		return 0;
	table_init(&t, 7, "lllllrl");
	t.min = min;
	table_row(&t, "ID", "CREATED", "BASE", "CANDIDATE", "HOST", "BENCHES", "LABELS");
	for (size_t i = 0; i < l->n; i++) {
		const struct query_summary *b = &l->v[i];
		char id[13], base[13], cand[13], host[13];

		table_cell(&t, head12(b->id, id));
		table_cell(&t, dash(b->created));
		table_cell(&t, head12(b->base.commit, base));
		table_cell(&t, head12(b->candidate.commit, cand));
		table_cell(&t, head12(b->host, host));
		table_cellf(&t, "%lld", (long long)b->benches);
		bad |= labels_cell(&t, b->labels, b->nlabels);
		table_end_row(&t, NULL);
	}
	r = bad ? -1 : table_render(&t, out);
	table_release(&t);
	return r;
}

/* A label in the 11 columns of the field lines, then the field's value ("-" when unknown). */
static int field(struct buf *out, const char *label, const char *value)
{
	return buf_printf(out, "%-11s ", label) | esc_text(out, dash(value));
}

/* " (s)", nothing when s is unknown. */
static int paren(struct buf *out, const char *s)
{
	if (!s)
		return 0;
	return buf_addstr(out, " (") | esc_text(out, s) | buf_addch(out, ')');
}

/* "ref commit (time)" of a side. */
static int ref_line(struct buf *out, const char *label, const struct query_ref *r)
{
	return field(out, label, r->ref) | buf_addch(out, ' ') | esc_text(out, dash(r->commit)) |
	       paren(out, r->time) | buf_addch(out, '\n');
}

/* v with its own unit, or in scale sc when given; "-" when unknown (NAN). */
static const char *value(double v, enum units_dim dim, const struct units_scale *sc,
			 char buf[UNITS_MAX])
{
	if (isnan(v))
		snprintf(buf, UNITS_MAX, "-");
	else if (sc)
		units_number(v, sc, buf);
	else
		units_value(v, dim, 0, buf);
	return buf;
}

/* "center [min, max]" of one side: the center with its unit, the range in that unit. */
static void side_cell(const struct query_side *d, enum units_dim dim, char *buf, size_t size)
{
	char cs[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];
	struct units_scale sc;

	units_scale(isnan(d->center) ? 0 : d->center, dim, 0, &sc);
	snprintf(buf, size, "%s [%s, %s]", value(d->center, dim, NULL, cs),
		 value(d->min, dim, &sc, lo), value(d->max, dim, &sc, hi));
}

/* A ratio as every view prints it (common/units.h), "-" when unknown. */
static const char *ratio_text(double r, char buf[UNITS_MAX])
{
	if (isnan(r))
		snprintf(buf, UNITS_MAX, "-");
	else
		units_ratio(r, buf);
	return buf;
}

/* The table of a bundle's benchmarks, after a blank line; nothing when it has none. */
static int benches_table(struct buf *out, const struct query_detail *b)
{
	/* The columns as wide as they were when they had fixed widths. */
	static const size_t bench_min[] = { 0, 12, 34, 34, 8, 0 };
	struct table t;
	int r;

	if (b->nbenches == 0)
		return 0;
	table_init(&t, 6, "llllrl");
	t.min = bench_min;
	table_row(&t, "BENCH", "METRIC", "BASE center [min, max]", "CANDIDATE center [min, max]",
		  "RATIO", "VERDICT");
	for (size_t i = 0; i < b->nbenches; i++) {
		const struct query_bench *v = &b->benches[i];
		enum units_dim dim = dim_of(v->metric);
		char base[3 * UNITS_MAX + 8], cand[3 * UNITS_MAX + 8], ratio[UNITS_MAX];

		side_cell(&v->base, dim, base, sizeof(base));
		side_cell(&v->candidate, dim, cand, sizeof(cand));
		table_row(&t, dash(v->name), dash(v->metric), base, cand, ratio_text(v->ratio, ratio),
			  dash(v->verdict));
	}
	r = buf_addch(out, '\n') | table_render(&t, out);
	table_release(&t);
	return r;
}

int view_archived(struct buf *out, const struct query_detail *b)
{
	int bad;

	bad = field(out, "bundle", b->id) | buf_addch(out, '\n') |
	      field(out, "file", b->path) |
	      buf_printf(out, " (%lld bytes, SHA-256 ", (long long)b->size) |
	      esc_text(out, dash(b->file_sha256)) | buf_addstr(out, ")\n") |
	      field(out, "created", b->created) | buf_addstr(out, " (added ") |
	      esc_text(out, dash(b->added)) | buf_addstr(out, ")\n") |
	      field(out, "format", b->format_version) | buf_addstr(out, " (plumb ") |
	      esc_text(out, b->plumb_version ? b->plumb_version : "unknown") | buf_addstr(out, ")\n") |
	      field(out, "repo", b->repo) | buf_addch(out, '\n') |
	      ref_line(out, "base", &b->base) | ref_line(out, "candidate", &b->candidate) |
	      field(out, "host", b->host) | buf_addch(out, '\n') |
	      field(out, "signature", b->signature);
	if (b->signature_key)   /* who signed what is stored */
		bad |= buf_addstr(out, ", key ") | esc_text(out, b->signature_key) |
		       paren(out, b->signature_comment);
	if (b->replaced > 0)
		bad |= buf_printf(out, "; the stored file replaced %lld time%s by a better signed copy",
				  (long long)b->replaced, b->replaced == 1 ? "" : "s");
	bad |= buf_addch(out, '\n');
	if (b->nlabels > 0) {
		bad |= buf_printf(out, "%-11s", "labels");
		for (size_t i = 0; i < b->nlabels; i++)
			bad |= buf_addch(out, ' ') | esc_text(out, b->labels[i].key) | buf_addch(out, '=') |
			       esc_text(out, b->labels[i].value ? b->labels[i].value : "");
		bad |= buf_addch(out, '\n');
	}
	if (b->nbaselines > 0) {
		bad |= buf_printf(out, "%-11s", "baselines");
		for (size_t i = 0; i < b->nbaselines; i++)
			bad |= buf_addch(out, ' ') | esc_text(out, b->baselines[i].name ? b->baselines[i].name : "?") |
			       buf_addstr(out, " (") |
			       esc_text(out, b->baselines[i].side ? b->baselines[i].side : "?") |
			       buf_addch(out, ')');
		bad |= buf_addch(out, '\n');
	}
	return bad | benches_table(out, b);
}

/* The note under a series' table: which series its change points were found on. */
static int series_note(struct buf *out, const struct trend_series *s)
{
	const char *name = changes_series_name(s->series);
	char base[13];

	if (!s->base)
		return buf_addstr(out, "change points on the ") | esc_text(out, name) |
		       buf_addstr(out, " series: the candidate's level (the nights were not all "
				  "measured against one base)\n");
	snprintf(base, sizeof(base), "%s", s->base);
	return buf_addstr(out, "change points on the ") | esc_text(out, name) |
	       buf_addstr(out, " series: candidate / base ") | esc_text(out, base) |
	       buf_addstr(out, " of the same job, so a drift of the host cancels\n");
}

/* One series: a heading, one line per point, the change points. */
static int view_series(struct buf *out, const struct trend_series *s)
{
	/* The widths the columns had when they were fixed. */
	static const size_t min[] = { 20, 12, 12, 12, 12, 12, 12, 0 };
	const struct query_trend_result *t = s->t;
	enum units_dim dim = dim_of(t->metric);
	struct table tb;
	int bad;

	bad = buf_addstr(out, "bench ") | esc_text(out, dash(t->bench)) |
	      buf_addstr(out, ", metric ") | esc_text(out, dash(t->metric)) |
	      buf_addstr(out, ", host ") | esc_text(out, dash(t->host)) |
	      buf_printf(out, ": %zu point%s\n", t->n, t->n == 1 ? "" : "s");
	if (t->n == 0)
		return bad;
	table_init(&tb, 8, "llrrrlll");
	tb.min = min;
	table_row(&tb, "TIME", "COMMIT", "CENTER", "MIN", "MAX", "VERDICT", "BUNDLE", NULL);
	for (size_t i = 0; i < t->n; i++) {
		const struct query_trend_point *p = &t->points[i];
		char commit[13], id[13], c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];

		table_cell(&tb, dash(p->time));
		table_cell(&tb, head12(p->commit, commit));
		table_cell(&tb, value(p->center, dim, NULL, c));
		table_cell(&tb, value(p->min, dim, NULL, lo));
		table_cell(&tb, value(p->max, dim, NULL, hi));
		table_cell(&tb, dash(p->verdict));
		table_cell(&tb, head12(p->bundle, id));
		if (s->p[i].change)
			table_cellf(&tb, "change %s", s->p[i].change > 0 ? "up" : "down");
		else
			table_cell(&tb, NULL);
		table_end_row(&tb, NULL);
	}
	bad |= table_render(&tb, out);
	table_release(&tb);
	return bad | series_note(out, s) | view_change_lines(out, s->changes, 0);
}

int view_trend(struct buf *out, const struct trend_series *s, size_t n)
{
	int bad = 0;

	if (n == 1)
		return view_series(out, s);
	bad = buf_addstr(out, "bench ") | esc_text(out, dash(n ? s->t->bench : NULL)) |
	      buf_printf(out, ": %zu host classes, one series each\n", n);
	for (size_t i = 0; i < n; i++)
		bad |= buf_addch(out, '\n') | view_series(out, &s[i]);
	return bad;
}

/* n pad medians as the index holds them (jsonio_plain()); null when v is NULL, NULL: no memory. */
static json_t *pads_json(const double *v, size_t n)
{
	json_t *a = v ? json_array() : json_null();

	for (size_t i = 0; v && a && i < n; i++)
		if (json_array_append_new(a, jsonio_plain(v[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* One series as `archive trend --json` prints it (docs/plumb.1); NULL when memory ran out. */
static json_t *series_json(const struct trend_series *s)
{
	const struct query_trend_result *t = s->t;
	json_t *o = json_object(), *a = json_array();
	int bad = !o || !a;

	for (size_t i = 0; !bad && i < t->n; i++) {
		const struct query_trend_point *p = &t->points[i];
		json_t *e = json_object();

		bad |= json_array_append_new(a, e) != 0;
		if (bad)
			break;
		bad |= jsonio_set(e, "bundle", jsonio_str(p->bundle)) |
		       jsonio_set(e, "ref", jsonio_str(p->ref)) |
		       jsonio_set(e, "commit", jsonio_str(p->commit)) |
		       jsonio_set(e, "time", jsonio_str(p->time)) |
		       jsonio_set(e, "center", jsonio_real(p->center)) |
		       jsonio_set(e, "min", jsonio_real(p->min)) |
		       jsonio_set(e, "max", jsonio_real(p->max)) |
		       jsonio_set(e, "spread", jsonio_real(p->spread)) |
		       jsonio_set(e, "ratio", jsonio_real(p->ratio)) |
		       jsonio_set(e, "verdict", jsonio_str(p->verdict)) |
		       jsonio_set(e, "base_center", jsonio_real(p->base_center)) |
		       jsonio_set(e, "noise", jsonio_real(p->noise)) |
		       jsonio_set(e, "pads", pads_json(p->pads, p->npads)) |
		       jsonio_set(e, "base_commit", jsonio_str(p->base_commit)) |
		       jsonio_set(e, "base_pads", pads_json(p->base_pads, p->nbase_pads)) |
		       jsonio_set(e, "created", jsonio_str(p->created));
		if (s->p[i].change)
			bad |= jsonio_set(e, "change", json_string(s->p[i].change > 0 ? "up" : "down"));
	}
	if (!bad)
		bad |= jsonio_set(o, "bench", jsonio_str(t->bench)) |
		       jsonio_set(o, "project", jsonio_str(t->project)) |
		       jsonio_set(o, "metric", jsonio_str(t->metric)) |
		       jsonio_set(o, "host", jsonio_str(t->host)) |
		       jsonio_set(o, "points", json_incref(a)) | trend_json_found(o, s);
	json_decref(a);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *view_trend_json(const struct trend_series *s, size_t n)
{
	json_t *o, *classes;

	if (n == 1)
		return series_json(s);
	if (!(classes = json_array()))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (json_array_append_new(classes, series_json(&s[i]))) {
			json_decref(classes);
			return NULL;
		}
	o = json_object();
	if (!o || jsonio_set(o, "bench", jsonio_str(n ? s->t->bench : NULL)) |
		  jsonio_set(o, "classes", classes)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int view_change_lines(struct buf *out, const json_t *changes, int with)
{
	size_t i, n = json_array_size(changes), cols = 0;
	const char *head[9];
	size_t min[9];
	struct table t;
	json_t *c;
	int bad = buf_printf(out, "%zu change point%s\n", n, n == 1 ? "" : "s");

	if (n == 0)
		return bad;
#define COL(h, w) (head[cols] = (h), min[cols++] = (w))
	COL("FIRST NIGHT AFTER", 20);
	if (with & VIEW_CHANGE_HOST)
		COL("HOST", 16);
	if (with & VIEW_CHANGE_BENCH)
		COL("BENCH", 20);
	COL("DIR", 4);
	COL("SIZE [95%]", 26);
	COL("LAST NIGHT BEFORE", 20);
	COL("COMMITS", 26);
	COL("SERIES", 12);
	COL("CAUSE", 0);
#undef COL
	table_init(&t, cols, NULL);
	t.min = min;
	for (size_t k = 0; k < cols; k++)
		table_cell(&t, head[k]);
	table_end_row(&t, NULL);
	json_array_foreach(changes, i, c) {
		const json_t *a = json_object_get(c, "first_after"), *b = json_object_get(c, "last_before");
		const char *cause = jsonio_get_str(c, "cause", NULL);
		char size[96], ca[13], cb[13];

		trend_change_size(c, size, sizeof(size));
		table_cell(&t, jsonio_get_str(a, "time", "-"));
		if (with & VIEW_CHANGE_HOST)
			table_cell(&t, jsonio_get_str(c, "host", "-"));
		if (with & VIEW_CHANGE_BENCH)
			table_cell(&t, jsonio_get_str(c, "bench", "-"));
		table_cell(&t, jsonio_get_str(c, "direction", "-"));
		table_cell(&t, size);
		table_cell(&t, jsonio_get_str(b, "time", "-"));
		table_cellf(&t, "%-12s..%s", head12(jsonio_get_str(b, "commit", NULL), cb),
			    head12(jsonio_get_str(a, "commit", NULL), ca));
		table_cell(&t, jsonio_get_str(c, "series", "-"));
		table_cell(&t, cause && strcmp(cause, "host") == 0
			       ? "host: the same commit either side, no code changed (never gated)"
			       : dash(cause));
		table_end_row(&t, NULL);
	}
	bad |= table_render(&t, out);
	table_release(&t);
	return bad;
}

int view_changes(struct buf *out, const json_t *m)
{
	const json_t *hosts = json_object_get(m, "hosts");
	size_t k = json_array_size(hosts);
	int bad = 0;

	if (k > 1) {
		bad |= buf_printf(out, "%zu host classes (", k);
		for (size_t i = 0; i < k; i++)
			bad |= buf_addstr(out, i ? ", " : "") |
			       esc_text(out, dash(json_string_value(json_array_get(hosts, i))));
		bad |= buf_addch(out, ')');
	} else {
		bad |= buf_addstr(out, "host ") | esc_text(out, jsonio_get_str(m, "host", "-"));
	}
	bad |= buf_printf(out, ": %lld series, %lld nights",
			  (long long)json_integer_value(json_object_get(m, "series")),
			  (long long)json_integer_value(json_object_get(m, "nights")));
	if (json_is_string(json_object_get(m, "since")))
		bad |= buf_addstr(out, ", since ") | esc_text(out, jsonio_get_str(m, "since", "-"));
	return bad | buf_addch(out, '\n') |
	       view_change_lines(out, json_object_get(m, "changes"),
				 VIEW_CHANGE_BENCH | (k > 1 ? VIEW_CHANGE_HOST : 0));
}

int view_baselines(struct buf *out, const struct baseline_entries *l)
{
	static const size_t min[] = { 0, 12, 9, 20, 12, 0 };
	struct table t;
	int r;

	if (l->n == 0)
		return 0;
	table_init(&t, 6, NULL);
	t.min = min;
	table_row(&t, "NAME", "BUNDLE", "SIDE", "SET AT", "COMMIT", "NOTE");
	for (size_t i = 0; i < l->n; i++) {
		const struct baseline_entry *b = &l->v[i];
		char id[13], commit[13];

		table_row(&t, dash(b->name), head12(b->bundle, id), dash(b->side), dash(b->set_at),
			  head12(b->commit, commit), b->note ? b->note : "");
	}
	r = table_render(&t, out);
	table_release(&t);
	return r;
}

int view_baseline(struct buf *out, const struct baseline_detail *b)
{
	int bad = field(out, "baseline", b->entry.name) | buf_addch(out, '\n') |
		  field(out, "side", b->entry.side) | buf_addch(out, '\n') |
		  field(out, "set at", b->entry.set_at) | buf_addch(out, '\n');

	if (b->entry.note)
		bad |= field(out, "note", b->entry.note) | buf_addch(out, '\n');
	return bad | buf_addch(out, '\n') | view_archived(out, &b->bundle);
}

/* A fact of a host class as a cell: a string, a count, on/off, else "-". */
static const char *fact_cell(const json_t *h, const char *key, char buf[32])
{
	const json_t *v = json_object_get(h, key);

	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, 32, "%lld", (long long)json_integer_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, 32, "%s", json_is_true(v) ? "on" : "off");
	else
		snprintf(buf, 32, "-");
	return buf;
}

int view_hosts(struct buf *out, const json_t *m)
{
	static const struct { const char *head, *key; } col[] = {
		{ "FINGERPRINT", "fingerprint" }, { "CPU MODEL", "cpuModel" }, { "CPUS", "cpus" },
		{ "CORES", "cores" }, { "KERNEL", "kernel" }, { "GOVERNOR", "governor" },
		{ "TURBO", "turbo" }, { "SMT", "smt" }, { "BUNDLES", "bundles" },
		{ "BENCHES", "benchmarks" }, { "FIRST", "first" }, { "LAST", "last" },
	};
	enum { NCOL = sizeof(col) / sizeof(col[0]) };
	/* A fingerprint and a time keep their width when a host lacks them. */
	static const size_t min[NCOL] = { [0] = 16, [10] = 20 };
	const json_t *hosts = json_object_get(m, "hosts"), *h;
	struct table t;
	char buf[32];
	size_t i;
	int r = buf_printf(out, "%zu host class%s\n", json_array_size(hosts),
			   json_array_size(hosts) == 1 ? "" : "es");

	if (json_array_size(hosts) == 0)
		return r;
	table_init(&t, NCOL, NULL);
	t.min = min;
	for (int c = 0; c < NCOL; c++)
		table_cell(&t, col[c].head);
	table_end_row(&t, NULL);
	json_array_foreach(hosts, i, h) {
		for (int c = 0; c < NCOL; c++)
			table_cell(&t, fact_cell(h, col[c].key, buf));
		table_end_row(&t, NULL);
	}
	r |= table_render(&t, out);
	table_release(&t);
	return r;
}

/* ---- the same results as JSON (docs/plumb.1), for --json ---- */

/* {ref, commit, time} of a side. */
static json_t *ref_json(const struct query_ref *r)
{
	json_t *o = json_object();

	if (jsonio_set(o, "ref", jsonio_str(r->ref)) | jsonio_set(o, "commit", jsonio_str(r->commit)) |
	    jsonio_set(o, "time", jsonio_str(r->time))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {key: value} of labels. */
static json_t *labels_json(const struct query_label *v, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < n; i++)
		if (jsonio_set(o, v[i].key, jsonio_str(v[i].value))) {
			json_decref(o);
			return NULL;
		}
	return o;
}

json_t *view_list_json(const struct query_summaries *l)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < l->n; i++) {
		const struct query_summary *b = &l->v[i];
		json_t *o = json_object();

		if (json_array_append_new(arr, o) != 0 ||
		    jsonio_set(o, "id", jsonio_str(b->id)) | jsonio_set(o, "created", jsonio_str(b->created)) |
		    jsonio_set(o, "repo", jsonio_str(b->repo)) | jsonio_set(o, "base", ref_json(&b->base)) |
		    jsonio_set(o, "candidate", ref_json(&b->candidate)) |
		    jsonio_set(o, "signature", jsonio_str(b->signature)) |
		    jsonio_set(o, "host", jsonio_str(b->host)) |
		    jsonio_set(o, "benches", json_integer(b->benches)) |
		    jsonio_set(o, "size", json_integer(b->size)) |
		    jsonio_set(o, "project", jsonio_str(b->project)) |
		    jsonio_set(o, "labels", labels_json(b->labels, b->nlabels))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* {center, min, max, spread, pads} of one side. */
static json_t *side_json(const struct query_side *d)
{
	json_t *o = json_object();

	if (jsonio_set(o, "center", jsonio_real(d->center)) | jsonio_set(o, "min", jsonio_real(d->min)) |
	    jsonio_set(o, "max", jsonio_real(d->max)) | jsonio_set(o, "spread", jsonio_real(d->spread)) |
	    jsonio_set(o, "pads", jsonio_text(d->pads))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The benchmarks of a bundle. */
static json_t *benches_json(const struct query_detail *d)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < d->nbenches; i++) {
		const struct query_bench *b = &d->benches[i];
		json_t *o = json_object();

		if (json_array_append_new(arr, o) != 0 ||
		    jsonio_set(o, "name", jsonio_str(b->name)) | jsonio_set(o, "mode", jsonio_str(b->mode)) |
		    jsonio_set(o, "metric", jsonio_str(b->metric)) |
		    jsonio_set(o, "base", side_json(&b->base)) |
		    jsonio_set(o, "candidate", side_json(&b->candidate)) |
		    jsonio_set(o, "ratio", jsonio_real(b->ratio)) |
		    jsonio_set(o, "verdict", jsonio_str(b->verdict)) |
		    jsonio_set(o, "noise", jsonio_real(b->noise))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* [{name, side}] of the baselines naming a bundle. */
static json_t *named_json(const struct query_detail *d)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < d->nbaselines; i++) {
		json_t *o = json_object();

		if (json_array_append_new(arr, o) != 0 ||
		    jsonio_set(o, "name", jsonio_str(d->baselines[i].name)) |
		    jsonio_set(o, "side", jsonio_str(d->baselines[i].side))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* null, or {fingerprint, facts} of a bundle's host. */
static json_t *host_json(const struct query_detail *d)
{
	json_t *o;

	if (!d->host)
		return json_null();
	o = json_object();
	if (jsonio_set(o, "fingerprint", jsonio_str(d->host)) |
	    jsonio_set(o, "facts", jsonio_text(d->host_facts))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *view_archived_json(const struct query_detail *d)
{
	json_t *o = json_object();

	if (jsonio_set(o, "id", jsonio_str(d->id)) | jsonio_set(o, "path", jsonio_str(d->path)) |
	    jsonio_set(o, "file_sha256", jsonio_str(d->file_sha256)) |
	    jsonio_set(o, "size", json_integer(d->size)) |
	    jsonio_set(o, "created", jsonio_str(d->created)) |
	    jsonio_set(o, "added", jsonio_str(d->added)) |
	    jsonio_set(o, "plumb_version", jsonio_str(d->plumb_version)) |
	    jsonio_set(o, "format_version", jsonio_str(d->format_version)) |
	    jsonio_set(o, "repo", jsonio_str(d->repo)) | jsonio_set(o, "base", ref_json(&d->base)) |
	    jsonio_set(o, "candidate", ref_json(&d->candidate)) |
	    jsonio_set(o, "signature", jsonio_str(d->signature)) |
	    jsonio_set(o, "signature_key", jsonio_str(d->signature_key)) |
	    jsonio_set(o, "signature_comment", jsonio_str(d->signature_comment)) |
	    jsonio_set(o, "replaced", json_integer(d->replaced)) |
	    jsonio_set(o, "host", host_json(d)) |
	    jsonio_set(o, "labels", labels_json(d->labels, d->nlabels)) |
	    jsonio_set(o, "baselines", named_json(d)) | jsonio_set(o, "benches", benches_json(d))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {name, bundle, side, set_at, note, created, commit} of one baseline. */
static json_t *entry_json(const struct baseline_entry *e)
{
	json_t *o = json_object();

	if (jsonio_set(o, "name", jsonio_str(e->name)) | jsonio_set(o, "bundle", jsonio_str(e->bundle)) |
	    jsonio_set(o, "side", jsonio_str(e->side)) | jsonio_set(o, "set_at", jsonio_str(e->set_at)) |
	    jsonio_set(o, "note", jsonio_str(e->note)) | jsonio_set(o, "created", jsonio_str(e->created)) |
	    jsonio_set(o, "commit", jsonio_str(e->commit))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *view_baselines_json(const struct baseline_entries *l)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < l->n; i++)
		if (json_array_append_new(arr, entry_json(&l->v[i])) != 0) {
			json_decref(arr);
			return NULL;
		}
	return arr;
}

json_t *view_baseline_json(const struct baseline_detail *b)
{
	json_t *o = entry_json(&b->entry);

	if (jsonio_set(o, "bundle_info", view_archived_json(&b->bundle))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *view_baseline_set_json(const char *name, const struct baseline_change *c)
{
	return json_pack("{s:s, s:s, s:s, s:o}", "name", name, "bundle", c->bundle, "side", c->side,
			 "previous", c->previous[0] ? json_string(c->previous) : json_null());
}

/* ---- what archive add, rm, verify, gc, reindex and baseline print ---- */

/* "s" when n is not 1. */
static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

int view_archive_added(struct buf *out, const struct store_added *added)
{
	if (added->status == STORE_REPLACED)
		return esc_text(out, added->id) |
		       buf_printf(out, "  replaced: the stored copy was %s",
				  added->old_key[0] ? "signed by key " : "unsigned") |
		       esc_text(out, added->old_key) |
		       buf_addstr(out, ", this one is signed by key ") |
		       esc_text(out, added->new_key) | buf_addch(out, '\n');
	return esc_text(out, added->id) |
	       buf_printf(out, "  %s\n",
			  added->status == STORE_ADDED ? "added" :
			  added->status == STORE_RESTORED ? "restored (its file was missing or damaged)" :
			  "already in the archive");
}

int view_archive_removed(struct buf *out, const char *name)
{
	return esc_text(out, name) | buf_addstr(out, "  removed\n");
}

json_t *view_archive_removed_json(const char *key, const char *name)
{
	return json_pack("{s:s, s:s}", key, name, "status", "removed");
}

json_t *view_archive_added_json(const char *path, const struct store_added *added)
{
	static const char *const words[] = { "added", "present", "restored", "replaced" };
	json_t *o = json_pack("{s:s, s:s, s:s}", "path", path, "id", added->id, "status",
			      words[added->status == STORE_ADDED ? 0 : added->status == STORE_PRESENT ? 1 :
				    added->status == STORE_RESTORED ? 2 : 3]);

	if (o && added->status == STORE_REPLACED &&
	    (jsonio_set(o, "oldKey", added->old_key[0] ? json_string(added->old_key) : json_null()) |
	     jsonio_set(o, "newKey", json_string(added->new_key)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *view_scrub_json(const struct scrub_report *rep, int ok)
{
	json_t *lines = json_array();

	for (size_t i = 0; lines && i < rep->nlines; i++)
		if (json_array_append_new(lines, json_string(rep->lines[i])) < 0) {
			json_decref(lines);
			lines = NULL;
		}
	return lines ? json_pack("{s:b, s:I, s:I, s:I, s:o}", "ok", ok, "bundles",
				 (json_int_t)rep->nbundles, "files", (json_int_t)rep->nfiles,
				 "problems", (json_int_t)rep->nproblems, "lines", lines) : NULL;
}

int view_scrub_lines(struct buf *out, const struct scrub_report *rep)
{
	int bad = 0;

	for (size_t i = 0; i < rep->nlines; i++)
		bad |= esc_text(out, rep->lines[i]) | buf_addch(out, '\n');
	return bad;
}

int view_scrub_verified(struct buf *out, const struct scrub_report *rep, unsigned n, unsigned t)
{
	if (rep->nproblems > 0)
		return buf_printf(out, "FAILED: %zu bundle%s and %zu file%s checked (slice %u/%u), "
				  "%zu problem%s\n", rep->nbundles, plural(rep->nbundles), rep->nfiles,
				  plural(rep->nfiles), n, t, rep->nproblems, plural(rep->nproblems));
	return buf_printf(out, "ok: %zu bundle%s and %zu file%s checked (slice %u/%u), database "
			  "intact\n", rep->nbundles, plural(rep->nbundles), rep->nfiles,
			  plural(rep->nfiles), n, t);
}

int view_scrub_gc(struct buf *out, const struct scrub_report *rep)
{
	return buf_printf(out, "gc: %zu file%s looked at, %zu bundle%s adopted\n", rep->nfiles,
			  plural(rep->nfiles), rep->nbundles, plural(rep->nbundles));
}

int view_reindexed(struct buf *out, size_t nbundles, size_t nbaselines)
{
	return buf_printf(out, "reindex: %zu bundle%s indexed again, %zu baseline%s restored; the "
			  "old archive.db is archive.db.damaged\n", nbundles, plural(nbundles),
			  nbaselines, plural(nbaselines));
}

int view_baseline_set(struct buf *out, const char *name, const struct baseline_change *c)
{
	return esc_text(out, name) | buf_addstr(out, "  ") |
	       esc_text(out, c->previous[0] ? c->previous : "new") | buf_addstr(out, " -> ") |
	       esc_text(out, c->bundle) | buf_addstr(out, " (") | esc_text(out, c->side) |
	       buf_addstr(out, ")\n");
}

int view_site_written(struct buf *out, const char *dir, const struct site_result *res)
{
	return esc_text(out, dir) |
	       buf_printf(out, ": %zu page%s: %zu host class%s, %zu benchmark series\n", res->pages,
			  plural(res->pages), res->classes, res->classes == 1 ? "" : "es",
			  res->series);
}
