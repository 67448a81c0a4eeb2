/*
 * reports/hostdiff.c: the host-facts comparison of a report (see
 * hostdiff.h): decisive facts that differ, the statements a host's
 * governor and turbo call for, and the flat table of every fact.
 *
 * Separate from compare.c because it knows the host-facts keys
 * (docs/host-facts.md) and nothing about benchmarks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/err.h"
#include "common/units.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "common/banned.h"

/*
 * The facts that decide comparability, in the order reports list them.
 * CPU model and core count change what a cycle buys: results taken on two
 * such hosts are not comparable.  The rest move the clock or the code
 * (kernel, governor, turbo, SMT, microcode, compiler): worth a warning.
 */
static const struct {
	const char *key;
	const char *what;
	enum hostdiff_level level;
} decisive[] = {
	{ "cpu.model", "CPU model", HOSTDIFF_BLOCKER },
	{ "cpu.logical", "logical CPU count", HOSTDIFF_BLOCKER },
	{ "cpu.physical_cores", "physical core count", HOSTDIFF_BLOCKER },
	{ "kernel.release", "kernel", HOSTDIFF_WARNING },
	{ "cpufreq.governor", "governor", HOSTDIFF_WARNING },
	{ "cpufreq.turbo", "turbo", HOSTDIFF_WARNING },
	{ "cpu.smt", "SMT", HOSTDIFF_WARNING },
	{ "cpu.microcode", "microcode", HOSTDIFF_WARNING },
	{ "compiler.version", "compiler", HOSTDIFF_WARNING },
};

void hostdiff_init(struct hostdiff *d)
{
	memset(d, 0, sizeof(*d));
	d->comparable = 1;
}

void hostdiff_release(struct hostdiff *d)
{
	for (size_t i = 0; i < d->n_items; i++) {
		free(d->items[i].old);
		free(d->items[i].new);
	}
	free(d->items);
	for (size_t i = 0; i < d->n_statements; i++)
		free(d->statements[i]);
	free(d->statements);
	for (size_t i = 0; i < d->n_rows; i++) {
		free(d->rows[i].key);
		free(d->rows[i].old);
		free(d->rows[i].new);
	}
	free(d->rows);
	hostdiff_init(d);
}

const char *hostdiff_scope_text(enum hostdiff_scope scope, int ascii)
{
	if (scope == HOSTDIFF_JOB)
		return ascii ? "start -> end of the job" : "start \u2192 end of the job";
	return ascii ? "baseline -> this bundle" : "baseline \u2192 this bundle";
}

const json_t *hostdiff_lookup(const json_t *facts, const char *path)
{
	const json_t *v = facts;
	const char *p = path;
	char seg[128];

	if (!json_is_object(facts))
		return NULL;
	/* A flat object keyed by the dotted name is accepted too. */
	if ((v = json_object_get(facts, path)) != NULL)
		return v;
	v = facts;
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		if (n >= sizeof(seg) || !json_is_object(v))
			return NULL;
		memcpy(seg, p, n);
		seg[n] = '\0';
		v = json_object_get(v, seg);
		if (!v)
			return NULL;
		p += n + (dot ? 1 : 0);
	}
	return v;
}

char *hostdiff_value_text(const json_t *v)
{
	char num[UNITS_EXACT_MAX];

	if (!v || json_is_null(v))
		return strdup("unknown");
	switch (json_typeof(v)) {
	case JSON_STRING:
		return strndup(json_string_value(v), json_string_length(v));
	case JSON_TRUE:
		return strdup("true");
	case JSON_FALSE:
		return strdup("false");
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		return strdup(num);
	case JSON_REAL:
		if (units_exact(json_real_value(v), UNITS_EXACT_REAL, num) < 0)
			return strdup("unknown");
		return strdup(num);
	default:
		return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	}
}

static int is_unknown(const json_t *v)
{
	return !v || json_is_null(v);
}

static int add_item(struct hostdiff *d, const char *key, const char *what,
		    const json_t *a, const json_t *b, enum hostdiff_level level,
		    enum hostdiff_scope scope, struct plumb_err *err)
{
	struct hostdiff_item *items, *it;

	items = realloc(d->items, (d->n_items + 1) * sizeof(*items));
	if (!items)
		return plumb_err_oom(err, "host facts");
	d->items = items;
	it = &items[d->n_items];
	it->key = key;
	it->what = what;
	it->level = level;
	it->scope = scope;
	it->old = hostdiff_value_text(a);
	it->new = hostdiff_value_text(b);
	if (!it->old || !it->new) {
		free(it->old);
		free(it->new);
		return plumb_err_oom(err, "host facts");
	}
	d->n_items++;
	if (level == HOSTDIFF_BLOCKER)
		d->comparable = 0;
	return 0;
}

int hostdiff_compare(struct hostdiff *d, const json_t *old, const json_t *new,
		     enum hostdiff_scope scope, struct plumb_err *err)
{
	if (!old || !new)
		return 0;
	for (size_t i = 0; i < sizeof(decisive) / sizeof(decisive[0]); i++) {
		const json_t *a = hostdiff_lookup(old, decisive[i].key);
		const json_t *b = hostdiff_lookup(new, decisive[i].key);
		enum hostdiff_level level = decisive[i].level;
		int r;

		if (is_unknown(a) && is_unknown(b))
			continue;
		if (!is_unknown(a) && !is_unknown(b) && json_equal(a, b))
			continue;
		/* Unknown on one side proves nothing: a warning, not a refusal. */
		if (is_unknown(a) || is_unknown(b))
			level = HOSTDIFF_WARNING;
		r = add_item(d, decisive[i].key, decisive[i].what, a, b, level,
			     scope, err);
		if (r < 0)
			return r;
	}
	return 0;
}

static int add_statement(struct hostdiff *d, const char *who, const char *fmt,
			 const char *value, struct plumb_err *err)
{
	char text[512], line[600];
	char **st;

	snprintf(text, sizeof(text), fmt, value);
	utf8_cut(text);
	snprintf(line, sizeof(line), "%s%s%s", who ? who : "", who ? ": " : "", text);
	utf8_cut(line);
	for (size_t i = 0; i < d->n_statements; i++)
		if (strcmp(d->statements[i], line) == 0)
			return 0;
	st = realloc(d->statements, (d->n_statements + 1) * sizeof(*st));
	if (!st)
		return plumb_err_oom(err, "host facts");
	d->statements = st;
	if (!(st[d->n_statements] = strdup(line)))
		return plumb_err_oom(err, "host facts");
	d->n_statements++;
	return 0;
}

int hostdiff_state(struct hostdiff *d, const json_t *facts, const char *who,
		   struct plumb_err *err)
{
	const json_t *gov = hostdiff_lookup(facts, "cpufreq.governor");
	const json_t *turbo = hostdiff_lookup(facts, "cpufreq.turbo");
	char value[200];
	int r;

	if (json_is_string(gov) && strcmp(json_string_value(gov), "performance") != 0) {
		/* Cut a long per-CPU summary; the table shows it whole. */
		snprintf(value, sizeof(value), "%s", json_string_value(gov));
		utf8_cut(value);
		r = add_statement(d, who,
				  "governor is %s, not performance: the clock follows the load",
				  value, err);
		if (r < 0)
			return r;
	}
	if (json_is_true(turbo)) {
		r = add_statement(d, who, "turbo is on%s: the clock follows temperature and load",
				  "", err);
		if (r < 0)
			return r;
	}
	return 0;
}

int hostdiff_load(struct hostdiff *d, const struct manifest_run *run, const json_t *facts,
		  const char *who, struct plumb_err *err)
{
	const json_t *cpus = hostdiff_lookup(facts, "cpu.logical");
	double lo = NAN, hi = NAN;
	size_t n = 0;
	char text[320], l0[UNITS_MAX], l1[UNITS_MAX];

	for (size_t i = 0; i < run->n_conditions; i++) {
		double l = run->conditions[i].load[0];
		if (isnan(l))
			continue;
		if (n == 0 || l < lo)
			lo = l;
		if (n == 0 || l > hi)
			hi = l;
		n++;
	}
	if (n == 0)
		return 0;
	units_load(lo, l0);
	units_load(hi, l1);
	if (json_is_integer(cpus) && json_integer_value(cpus) > 0 &&
	    hi > (double)json_integer_value(cpus))
		snprintf(text, sizeof(text), "load during the rounds %s to %s on %lld CPUs: more "
			 "work than CPUs, the wall-clock timings include waiting for one "
			 "(metric = cpu leaves it out)", l0, l1,
			 (long long)json_integer_value(cpus));
	else if (json_is_integer(cpus))
		snprintf(text, sizeof(text), "load during the rounds %s to %s on %lld CPUs", l0, l1,
			 (long long)json_integer_value(cpus));
	else
		snprintf(text, sizeof(text), "load during the rounds %s to %s", l0, l1);
	return add_statement(d, who, "%s", text, err);
}

/* A flat list of (dotted key, value text), sorted by key once built. */
struct flat_entry {
	char *key, *val;
};

struct flat {
	struct flat_entry *e;
	size_t n, cap;
};

static void flat_release(struct flat *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->e[i].key);
		free(f->e[i].val);
	}
	free(f->e);
}

static int flat_add(struct flat *f, const char *key, const json_t *v)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		struct flat_entry *e = realloc(f->e, cap * sizeof(*e));
		if (!e)
			return -1;
		f->e = e;
		f->cap = cap;
	}
	f->e[f->n].key = strdup(key);
	f->e[f->n].val = hostdiff_value_text(v);
	if (!f->e[f->n].key || !f->e[f->n].val) {
		free(f->e[f->n].key);
		free(f->e[f->n].val);
		return -1;
	}
	f->n++;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct flat_entry *)a)->key,
		      ((const struct flat_entry *)b)->key);
}

/* Flatten obj under prefix: nested objects become dotted keys. */
static int flatten(struct flat *f, const json_t *obj, const char *prefix, int depth)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		size_t len = strlen(prefix) + strlen(k) + 2;
		char *path = malloc(len);
		int r;
		if (!path)
			return -1;
		snprintf(path, len, "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_is_object(v) && json_object_size(v) > 0 && depth < 8)
			r = flatten(f, v, path, depth + 1);
		else
			r = flat_add(f, path, v);
		free(path);
		if (r < 0)
			return r;
	}
	return 0;
}

static int flat_build(struct flat *f, const json_t *obj)
{
	if (!json_is_object(obj))
		return 0;
	if (flatten(f, obj, "", 0) < 0)
		return -1;
	if (f->n > 1)
		qsort(f->e, f->n, sizeof(*f->e), cmp_entry);
	return 0;
}

static int add_row(struct hostdiff *d, const char *key, const char *a,
		   const char *b)
{
	struct hostdiff_row *rows = realloc(d->rows, (d->n_rows + 1) * sizeof(*rows));
	struct hostdiff_row *row;

	if (!rows)
		return -1;
	d->rows = rows;
	row = &rows[d->n_rows];
	row->key = strdup(key);
	row->old = a ? strdup(a) : NULL;
	row->new = b ? strdup(b) : NULL;
	if (!row->key || (a && !row->old) || (b && !row->new)) {
		free(row->key);
		free(row->old);
		free(row->new);
		return -1;
	}
	row->differs = !a || !b || strcmp(a, b) != 0;
	d->n_rows++;
	return 0;
}

int hostdiff_table(struct hostdiff *d, const json_t *old, const json_t *new,
		   const char *old_label, const char *new_label,
		   struct plumb_err *err)
{
	struct flat a = { 0 }, b = { 0 };
	size_t i = 0, j = 0;
	int r = 0;

	d->old_label = old_label;
	d->new_label = new_label;
	if (flat_build(&a, old) < 0 || flat_build(&b, new) < 0) {
		r = plumb_err_oom(err, "host facts");
		goto done;
	}
	/* Both lists are in key order: merge them. */
	while (i < a.n || j < b.n) {
		int c = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.e[i].key, b.e[j].key);
		int rc;
		if (c < 0) {
			rc = add_row(d, a.e[i].key, a.e[i].val, NULL);
			i++;
		} else if (c > 0) {
			rc = add_row(d, b.e[j].key, NULL, b.e[j].val);
			j++;
		} else {
			rc = add_row(d, a.e[i].key, a.e[i].val, b.e[j].val);
			i++;
			j++;
		}
		if (rc < 0) {
			r = plumb_err_oom(err, "host facts");
			goto done;
		}
	}
done:
	flat_release(&a);
	flat_release(&b);
	return r;
}
