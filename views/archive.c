/*
 * views/archive.c: text renderings of the archive's JSON models (archive.h).
 * Plain, aligned, line-oriented text that reads well in a cron mail;
 * ids are shortened to 12 digits in tables and shown whole elsewhere.
 * Every string of a model came from a bundle and is untrusted: it reaches
 * the stream or the buf only through esc_fputs() or esc_text()
 * (common/escape.h) or a table (common/table.h), which escapes every cell.  Values print
 * as plumb report prints them (common/units.h): a center with its unit,
 * its range in the same unit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "views/archive.h"
#include "archive/bundles.h"
#include "archive/scrub.h"
#include "common/buf.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/units.h"
#include "formats/manifest.h"
#include "reports/site.h"
#include "reports/trend.h"
#include "common/banned.h"

/* A string member, or def when missing or not a string. */
static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

/* The first 12 characters of a string member, or "-". */
static const char *short12(const json_t *o, const char *key, char *buf)
{
	snprintf(buf, 13, "%s", str(o, key, "-"));
	return buf;
}

/* s escaped, padded with spaces to width columns (0: none). */
static void put(FILE *out, const char *s, int width)
{
	(void)esc_fputs(out, s, width > 0 ? (size_t)width : 0);
}

/* A string member escaped and padded, def when missing. */
static void put_str(FILE *out, const json_t *o, const char *key, const char *def, int width)
{
	put(out, str(o, key, def), width);
}

/* The dimension of a model's metric name ("wall", "instructions"). */
static enum units_dim dim_of(const char *metric)
{
	enum metric_id m;

	if (metric && metric_parse(metric, &m) == 0)
		return metric_dim(m);
	return UNITS_COUNT;
}

/* A number member as %.6g into buf, or "-". */
/* A ratio as every view prints it (common/units.h), "-" when absent. */
static const char *ratio_cell(const json_t *o, const char *key, char buf[UNITS_MAX])
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		snprintf(buf, UNITS_MAX, "-");
	else
		units_ratio(json_number_value(v), buf);
	return buf;
}

void view_list(const json_t *list, FILE *out)
{
	size_t i;
	json_t *b;

	if (json_array_size(list) == 0)
		return;
	fprintf(out, "%-12s  %-20s  %-12s  %-12s  %-12s  %7s  %s\n", "ID", "CREATED", "BASE",
		"CANDIDATE", "HOST", "BENCHES", "LABELS");
	json_array_foreach(list, i, b) {
		char id[13], base[13], cand[13], host[13];
		const json_t *labels = json_object_get(b, "labels");
		const char *k;
		json_t *v;
		int first = 1;

		put(out, short12(b, "id", id), 12);
		fputs("  ", out);
		put_str(out, b, "created", "-", 20);
		fputs("  ", out);
		put(out, short12(json_object_get(b, "base"), "commit", base), 12);
		fputs("  ", out);
		put(out, short12(json_object_get(b, "candidate"), "commit", cand), 12);
		fputs("  ", out);
		put(out, short12(b, "host", host), 12);
		fprintf(out, "  %7lld  ", (long long)json_integer_value(json_object_get(b, "benches")));
		json_object_foreach((json_t *)labels, k, v) {
			fputs(first ? "" : ",", out);
			put(out, k, 0);
			fputc('=', out);
			put(out, json_string_value(v) ? json_string_value(v) : "", 0);
			first = 0;
		}
		fputc('\n', out);
	}
}

/* A label in the 11 columns of the field lines, then the field's value. */
static void field(FILE *out, const char *label, const char *value)
{
	fprintf(out, "%-11s ", label);
	put(out, value, 0);
}

/* " (value)" of a string member, nothing when it is absent. */
static void put_paren(FILE *out, const json_t *o, const char *key)
{
	if (!json_is_string(json_object_get(o, key)))
		return;
	fputs(" (", out);
	put_str(out, o, key, "", 0);
	fputc(')', out);
}

/* "ref commit (time)" of a side. */
static void ref_line(FILE *out, const char *label, const json_t *side)
{
	field(out, label, str(side, "ref", "-"));
	fputc(' ', out);
	put_str(out, side, "commit", "-", 0);
	put_paren(out, side, "time");
	fputc('\n', out);
}

/* A number member with its own unit, or in scale sc when given; "-" when missing. */
static const char *value(const json_t *o, const char *key, enum units_dim dim,
			 const struct units_scale *sc, char buf[UNITS_MAX])
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		snprintf(buf, UNITS_MAX, "-");
	else if (sc)
		units_number(json_number_value(v), sc, buf);
	else
		units_value(json_number_value(v), dim, 0, buf);
	return buf;
}

/* "center [min, max]" of one side: the center with its unit, the range in that unit. */
static void side_cell(const json_t *side, enum units_dim dim, char *buf, size_t size)
{
	const json_t *c = json_object_get(side, "center");
	char cs[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];
	struct units_scale sc;

	units_scale(json_is_number(c) ? json_number_value(c) : 0, dim, 0, &sc);
	snprintf(buf, size, "%s [%s, %s]", value(side, "center", dim, NULL, cs),
		 value(side, "min", dim, &sc, lo), value(side, "max", dim, &sc, hi));
}

void view_bundle(const json_t *b, FILE *out)
{
	const json_t *host = json_object_get(b, "host");
	const json_t *labels = json_object_get(b, "labels");
	const json_t *bls = json_object_get(b, "baselines");
	const json_t *benches = json_object_get(b, "benches");
	/* The columns as wide as they were when they had fixed widths. */
	static const size_t bench_min[] = { 0, 12, 34, 34, 8, 0 };
	const char *k;
	json_t *v;
	size_t i;
	struct table t;

	field(out, "bundle", str(b, "id", "-"));
	fputc('\n', out);
	field(out, "file", str(b, "path", "-"));
	fprintf(out, " (%lld bytes, SHA-256 ", (long long)json_integer_value(json_object_get(b, "size")));
	put_str(out, b, "file_sha256", "-", 0);
	fputs(")\n", out);
	field(out, "created", str(b, "created", "-"));
	fputs(" (added ", out);
	put_str(out, b, "added", "-", 0);
	fputs(")\n", out);
	field(out, "format", str(b, "format_version", "-"));
	fputs(" (plumb ", out);
	put_str(out, b, "plumb_version", "unknown", 0);
	fputs(")\n", out);
	field(out, "repo", str(b, "repo", "-"));
	fputc('\n', out);
	ref_line(out, "base", json_object_get(b, "base"));
	ref_line(out, "candidate", json_object_get(b, "candidate"));
	field(out, "host", json_is_object(host) ? str(host, "fingerprint", "-") : "-");
	fputc('\n', out);
	field(out, "signature", str(b, "signature", "-"));
	if (json_is_string(json_object_get(b, "signature_key"))) {
		/* Who signed what is stored. */
		fputs(", key ", out);
		put_str(out, b, "signature_key", "-", 0);
		put_paren(out, b, "signature_comment");
	}
	if (json_integer_value(json_object_get(b, "replaced")) > 0)
		fprintf(out, "; the stored file replaced %lld time%s by a better signed copy",
			(long long)json_integer_value(json_object_get(b, "replaced")),
			json_integer_value(json_object_get(b, "replaced")) == 1 ? "" : "s");
	fputc('\n', out);
	if (json_object_size(labels) > 0) {
		fprintf(out, "%-11s", "labels");
		json_object_foreach((json_t *)labels, k, v) {
			fputc(' ', out);
			put(out, k, 0);
			fputc('=', out);
			put(out, json_string_value(v) ? json_string_value(v) : "", 0);
		}
		fputc('\n', out);
	}
	if (json_array_size(bls) > 0) {
		fprintf(out, "%-11s", "baselines");
		json_array_foreach(bls, i, v) {
			fputc(' ', out);
			put_str(out, v, "name", "?", 0);
			fputs(" (", out);
			put_str(out, v, "side", "?", 0);
			fputc(')', out);
		}
		fputc('\n', out);
	}
	if (json_array_size(benches) == 0)
		return;
	table_init(&t, 6, "llllrl");
	t.min = bench_min;
	table_row(&t, "BENCH", "METRIC", "BASE center [min, max]", "CANDIDATE center [min, max]",
		  "RATIO", "VERDICT");
	json_array_foreach(benches, i, v) {
		enum units_dim dim = dim_of(str(v, "metric", NULL));
		char base[128], cand[128], ratio[UNITS_MAX];

		side_cell(json_object_get(v, "base"), dim, base, sizeof(base));
		side_cell(json_object_get(v, "candidate"), dim, cand, sizeof(cand));
		table_row(&t, str(v, "name", "-"), str(v, "metric", "-"), base, cand,
			  ratio_cell(v, "ratio", ratio), str(v, "verdict", "-"));
	}
	fputc('\n', out);
	(void)table_write(&t, out);
	table_release(&t);
}

void view_trend(const json_t *t, FILE *out)
{
	const json_t *pts = json_object_get(t, "points"), *classes = json_object_get(t, "classes");
	enum units_dim dim = dim_of(str(t, "metric", NULL));
	json_t *p;
	size_t i;

	if (json_is_array(classes)) {
		fputs("bench ", out);
		put_str(out, t, "bench", "-", 0);
		fprintf(out, ": %zu host classes, one series each\n", json_array_size(classes));
		json_array_foreach(classes, i, p) {
			fputc('\n', out);
			view_trend(p, out);
		}
		return;
	}

	fputs("bench ", out);
	put_str(out, t, "bench", "-", 0);
	fputs(", metric ", out);
	put_str(out, t, "metric", "-", 0);
	fputs(", host ", out);
	put_str(out, t, "host", "-", 0);
	fprintf(out, ": %zu point%s\n", json_array_size(pts), json_array_size(pts) == 1 ? "" : "s");
	if (json_array_size(pts) == 0)
		return;
	fprintf(out, "%-20s  %-12s  %12s  %12s  %12s  %-12s  %s\n", "TIME", "COMMIT", "CENTER",
		"MIN", "MAX", "VERDICT", "BUNDLE");
	json_array_foreach(pts, i, p) {
		char commit[13], id[13], c[UNITS_MAX], lo[UNITS_MAX], hi[UNITS_MAX];

		value(p, "center", dim, NULL, c);
		value(p, "min", dim, NULL, lo);
		value(p, "max", dim, NULL, hi);
		put_str(out, p, "time", "-", 20);
		fputs("  ", out);
		put(out, short12(p, "commit", commit), 12);
		fprintf(out, "  %12s  %12s  %12s  ", c, lo, hi);
		put_str(out, p, "verdict", "-", 12);
		fputs("  ", out);
		put(out, short12(p, "bundle", id), 12);
		if (json_is_string(json_object_get(p, "change"))) {
			fputs("  change ", out);
			put_str(out, p, "change", "-", 0);
		}
		fputc('\n', out);
	}
	if (json_is_string(json_object_get(t, "series"))) {
		char base[13];

		fputs("change points on the ", out);
		put_str(out, t, "series", "-", 0);
		if (json_is_string(json_object_get(t, "series_base"))) {
			fputs(" series: candidate / base ", out);
			put(out, short12(t, "series_base", base), 0);
			fputs(" of the same job, so a drift of the host cancels\n", out);
		} else {
			fputs(" series: the candidate's level (the nights were not all measured against "
			      "one base)\n", out);
		}
	}
	view_change_lines(json_object_get(t, "changes"), 0, out);
}

void view_change_lines(const json_t *changes, int with, FILE *out)
{
	size_t i, n = json_array_size(changes);
	json_t *c;

	fprintf(out, "%zu change point%s\n", n, n == 1 ? "" : "s");
	if (n == 0)
		return;
	fprintf(out, "%-20s  ", "FIRST NIGHT AFTER");
	if (with & VIEW_CHANGE_HOST)
		fprintf(out, "%-16s  ", "HOST");
	if (with & VIEW_CHANGE_BENCH)
		fprintf(out, "%-20s  ", "BENCH");
	fprintf(out, "%-4s  %-26s  %-20s  %-26s  %-12s  %s\n", "DIR", "SIZE [95%]", "LAST NIGHT BEFORE",
		"COMMITS", "SERIES", "CAUSE");
	json_array_foreach(changes, i, c) {
		const json_t *a = json_object_get(c, "first_after"), *b = json_object_get(c, "last_before");
		char size[96], ca[13], cb[13];

		trend_change_size(c, size, sizeof(size));
		put_str(out, a, "time", "-", 20);
		fputs("  ", out);
		if (with & VIEW_CHANGE_HOST) {
			put_str(out, c, "host", "-", 16);
			fputs("  ", out);
		}
		if (with & VIEW_CHANGE_BENCH) {
			put_str(out, c, "bench", "-", 20);
			fputs("  ", out);
		}
		put_str(out, c, "direction", "-", 4);
		fprintf(out, "  %-26s  ", size);
		put_str(out, b, "time", "-", 20);
		fputs("  ", out);
		put(out, short12(b, "commit", cb), 12);
		fputs("..", out);
		put(out, short12(a, "commit", ca), 12);
		fputs("  ", out);
		put_str(out, c, "series", "-", 12);
		fputs("  ", out);
		if (str(c, "cause", NULL) && strcmp(str(c, "cause", ""), "host") == 0)
			fputs("host: the same commit either side, no code changed (never gated)", out);
		else
			put_str(out, c, "cause", "-", 0);
		fputc('\n', out);
	}
}

void view_changes(const json_t *m, FILE *out)
{
	const json_t *hosts = json_object_get(m, "hosts");
	size_t i, k = json_array_size(hosts);

	if (k > 1) {
		fprintf(out, "%zu host classes (", k);
		for (i = 0; i < k; i++) {
			fputs(i ? ", " : "", out);
			put(out, json_string_value(json_array_get(hosts, i)) ?
			    json_string_value(json_array_get(hosts, i)) : "-", 0);
		}
		fputs(")", out);
	} else {
		fputs("host ", out);
		put_str(out, m, "host", "-", 0);
	}
	fprintf(out, ": %lld series, %lld nights", (long long)json_integer_value(json_object_get(m, "series")),
		(long long)json_integer_value(json_object_get(m, "nights")));
	if (json_is_string(json_object_get(m, "since"))) {
		fputs(", since ", out);
		put_str(out, m, "since", "-", 0);
	}
	fputs("\n", out);
	view_change_lines(json_object_get(m, "changes"),
			  VIEW_CHANGE_BENCH | (k > 1 ? VIEW_CHANGE_HOST : 0), out);
}

void view_baselines(const json_t *list, FILE *out)
{
	static const size_t min[] = { 0, 12, 9, 20, 12, 0 };
	struct table t;
	json_t *b;
	size_t i;

	if (json_array_size(list) == 0)
		return;
	table_init(&t, 6, NULL);
	t.min = min;
	table_row(&t, "NAME", "BUNDLE", "SIDE", "SET AT", "COMMIT", "NOTE");
	json_array_foreach(list, i, b) {
		char id[13], commit[13];

		table_row(&t, str(b, "name", "-"), short12(b, "bundle", id), str(b, "side", "-"),
			  str(b, "set_at", "-"), short12(b, "commit", commit), str(b, "note", ""));
	}
	(void)table_write(&t, out);
	table_release(&t);
}

void view_baseline(const json_t *b, FILE *out)
{
	field(out, "baseline", str(b, "name", "-"));
	fputc('\n', out);
	field(out, "side", str(b, "side", "-"));
	fputc('\n', out);
	field(out, "set at", str(b, "set_at", "-"));
	fputc('\n', out);
	if (json_is_string(json_object_get(b, "note"))) {
		field(out, "note", str(b, "note", ""));
		fputc('\n', out);
	}
	fputc('\n', out);
	view_bundle(json_object_get(b, "bundle_info"), out);
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

void view_hosts(const json_t *m, FILE *out)
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

	fprintf(out, "%zu host class%s\n", json_array_size(hosts), json_array_size(hosts) == 1 ? "" : "es");
	if (json_array_size(hosts) == 0)
		return;
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
	(void)table_write(&t, out);
	table_release(&t);
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

int view_baseline_set(struct buf *out, const char *name, const json_t *res)
{
	const char *prev = json_string_value(json_object_get(res, "previous"));

	return esc_text(out, name) | buf_addstr(out, "  ") | esc_text(out, prev ? prev : "new") |
	       buf_addstr(out, " -> ") |
	       esc_text(out, json_string_value(json_object_get(res, "bundle"))) |
	       buf_addstr(out, " (") | esc_text(out, json_string_value(json_object_get(res, "side"))) |
	       buf_addstr(out, ")\n");
}

int view_site_written(struct buf *out, const char *dir, const struct site_result *res)
{
	return esc_text(out, dir) |
	       buf_printf(out, ": %zu page%s: %zu host class%s, %zu benchmark series\n", res->pages,
			  plural(res->pages), res->classes, res->classes == 1 ? "" : "es",
			  res->series);
}
