/*
 * formats/import-walk.c: what the three readers (import-hyperfine.c,
 * import-pyperf.c, import-gbench.c) share: the walk of a file's JSON with
 * paths for messages, the typed members, the host facts, the entries and
 * series they fill, the packed arrays read back, and the release of a
 * read file.  Reading the file (budgets, gzip, formats/jsonpull.h) is
 * formats/import.c, above this and the readers.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/units.h"
#include "formats/import-internal.h"
#include "formats/jsonio.h"
#include "common/banned.h"

const char *import_tool_name(enum import_tool t)
{
	switch (t) {
	case IMPORT_HYPERFINE: return "hyperfine";
	case IMPORT_PYPERF: return "pyperf";
	case IMPORT_GBENCH: return "google-benchmark";
	}
	return "?";
}

int import_fail(struct import_walk *w, const char *fmt, ...)
{
	char what[PLUMB_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return plumb_err_set(w->err, PLUMB_EINPUT, "%s: %s: %s", w->name,
			     jsonio_path_str(&w->path), what);
}

/* Member key of o of JSON type type: 0, 1 when absent or null and not required. */
static int member(struct import_walk *w, const json_t *o, const char *key, int required,
		  json_type type, const char *tname, const json_t **out)
{
	const json_t *v = json_object_get(o, key);
	size_t old;
	int rc = 0;

	*out = NULL;
	if (!v || json_is_null(v)) {
		if (!required)
			return 1;
		old = jsonio_path_key(&w->path, key);
		rc = import_fail(w, "missing required member");
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	if (json_typeof(v) != type && !(type == JSON_REAL && json_is_integer(v))) {
		old = jsonio_path_key(&w->path, key);
		rc = import_fail(w, "expected %s", tname);
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	*out = v;
	return 0;
}

int import_number(struct import_walk *w, const json_t *o, const char *key, int required,
		  double *out)
{
	const json_t *v;
	int rc = member(w, o, key, required, JSON_REAL, "number", &v);

	if (rc == 0)
		*out = json_number_value(v);
	return rc;
}

int import_string(struct import_walk *w, const json_t *o, const char *key, int required,
		  const char **out)
{
	const json_t *v;
	int rc = member(w, o, key, required, JSON_STRING, "string", &v);

	*out = rc == 0 ? json_string_value(v) : NULL;
	return rc;
}

int import_array(struct import_walk *w, const json_t *o, const char *key, int required,
		 const json_t **out)
{
	return member(w, o, key, required, JSON_ARRAY, "array", out);
}

int import_object(struct import_walk *w, const json_t *o, const char *key, int required,
		  const json_t **out)
{
	return member(w, o, key, required, JSON_OBJECT, "object", out);
}

int import_check_facts(struct import_walk *w, const json_t *src, const struct import_fact *map,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const json_t *v = map[i].src ? json_object_get(src, map[i].src) : NULL;
		const char *want = NULL;
		char least[UNITS_MAX], read[UNITS_MAX];
		size_t old;
		int rc;

		if (!v || json_is_null(v))
			continue;
		if (map[i].type == JSON_STRING && !json_is_string(v))
			want = "a string";
		else if (map[i].type == JSON_INTEGER &&
			 (!json_is_integer(v) || (double)json_integer_value(v) < map[i].min))
			want = "a whole number";
		else if (map[i].type == JSON_REAL &&
			 (!json_is_number(v) || !isfinite(json_number_value(v)) ||
			  json_number_value(v) < map[i].min))
			want = "a finite number";
		if (!want)
			continue;
		old = jsonio_path_key(&w->path, map[i].src);
		units_as_read(map[i].min, least);
		units_as_read(json_number_value(v), read);
		if (map[i].type == JSON_STRING)
			rc = import_fail(w, "expected %s, found %s", want, jsonio_type_name(v));
		else if (json_is_number(v))
			rc = import_fail(w, "expected %s of at least %s, not %s", want, least, read);
		else
			rc = import_fail(w, "expected %s of at least %s, found %s", want, least,
					 jsonio_type_name(v));
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	return 0;
}

json_t *import_host_facts(const json_t *src, const struct import_fact *map, size_t n)
{
	json_t *h = json_object();

	for (size_t i = 0; h && i < n; i++) {
		const json_t *v = map[i].src ? json_object_get(src, map[i].src) : NULL;
		const char *dot = strchr(map[i].path, '.');
		int ok = v && (map[i].type == JSON_REAL ? json_is_number(v) : json_typeof(v) == map[i].type);
		json_t *val = ok ? json_copy((json_t *)v) : json_null(), *at = h;
		char group[32];
		if (dot) {
			snprintf(group, sizeof(group), "%.*s", (int)(dot - map[i].path), map[i].path);
			at = json_object_get(h, group);
			if (!at && json_object_set_new(h, group, json_object()) == 0)
				at = json_object_get(h, group);
		}
		if (!val || !at || json_object_set_new(at, dot ? dot + 1 : map[i].path, val) < 0) {
			json_decref(h);
			return NULL;
		}
	}
	return h;
}

struct import_entry *import_entry_add(struct import_walk *w, const char *name)
{
	struct import_file *f = w->f;
	struct import_entry *v, *e;

	if (f->n_entries >= IMPORT_MAX_ENTRIES) {
		import_fail(w, "more than %d benchmarks (the limit of one file)", IMPORT_MAX_ENTRIES);
		return NULL;
	}
	v = realloc(f->entries, (f->n_entries + 1) * sizeof(*v));
	if (!v) {
		plumb_err_oom(w->err, "import");
		return NULL;
	}
	f->entries = v;
	e = &v[f->n_entries];
	memset(e, 0, sizeof(*e));
	if (!(e->name = strdup(name))) {
		plumb_err_oom(w->err, "import");
		return NULL;
	}
	f->n_entries++;
	return e;
}

struct import_series *import_series_of(struct import_walk *w, struct import_entry *e,
				       enum metric_id metric)
{
	for (size_t i = 0; i < e->n_series; i++)
		if (e->series[i].metric == metric)
			return &e->series[i];
	if (e->n_series >= IMPORT_MAX_METRICS) {
		plumb_err_set(w->err, PLUMB_EINTERNAL, "import: too many metrics");
		return NULL;
	}
	memset(&e->series[e->n_series], 0, sizeof(e->series[0]));
	e->series[e->n_series].metric = metric;
	return &e->series[e->n_series++];
}

int import_value(struct import_walk *w, struct import_series *s, uint32_t r, double v)
{
	char read[UNITS_MAX];

	if (!isfinite(v) || v < 0) {
		units_as_read(v, read);
		return import_fail(w, "expected a finite number of at least 0, not %s", read);
	}
	if (w->values >= IMPORT_MAX_VALUES)
		return import_fail(w, "more than %zu values (the limit of an imported file)",
				   IMPORT_MAX_VALUES);
	if ((s->n & (s->n - 1)) == 0) {
		size_t cap = s->n ? s->n * 2 : 1;
		double *nv = realloc(s->value, cap * sizeof(*nv));
		uint32_t *nr;
		if (!nv)
			return plumb_err_oom(w->err, "import");
		s->value = nv;
		nr = realloc(s->round, cap * sizeof(*nr));
		if (!nr)
			return plumb_err_oom(w->err, "import");
		s->round = nr;
	}
	s->value[s->n] = v;
	s->round[s->n] = r;
	s->n++;
	if (r > s->rounds)
		s->rounds = r;
	w->values++;
	return 0;
}

int import_line(struct import_walk *w, char ***v, size_t *n, const char *fmt, ...)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));
	char text[1024];
	va_list ap;

	if (!nv)
		return plumb_err_oom(w->err, "import");
	*v = nv;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!(nv[*n] = strdup(text)))
		return plumb_err_oom(w->err, "import");
	(*n)++;
	return 0;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void import_file_release(struct import_file *f)
{
	for (size_t i = 0; i < f->n_entries; i++) {
		struct import_entry *e = &f->entries[i];
		free(e->name);
		free(e->command);
		for (size_t k = 0; k < e->n_series; k++) {
			free(e->series[k].value);
			free(e->series[k].round);
		}
		free_lines(e->notes, e->n_notes);
	}
	free(f->entries);
	for (size_t i = 0; i < f->n_left; i++) {
		free(f->left[i].name);
		free(f->left[i].why);
	}
	free(f->left);
	free_lines(f->warnings, f->n_warnings);
	free(f->path);
	free(f->tool_version);
	json_decref(f->facts);
	json_decref(f->hostfacts);
	memset(f, 0, sizeof(*f));
}

/* Element i of a (an array of the tree, or one read into packed storage). */
size_t import_size(const struct import_walk *w, const json_t *a)
{
	for (size_t k = 0; k < w->n_packed; k++)
		if (w->packed[k].stand_in == a)
			return w->packed[k].n;
	return json_array_size(a);
}

void import_elem(const struct import_walk *w, const json_t *a, size_t i, struct import_elem *out)
{
	const json_t *v;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < w->n_packed; k++) {
		const struct import_packed *pk = &w->packed[k];
		if (pk->stand_in != a)
			continue;
		out->kind = pk->kind[i];
		if (out->kind == IMPORT_ELEM_INTEGER) {
			out->integer = pk->v[i].integer;
			out->number = (double)out->integer;
		} else if (out->kind == IMPORT_ELEM_REAL) {
			out->number = pk->v[i].number;
		}
		return;
	}
	v = json_array_get(a, i);
	out->kind = json_is_integer(v) ? IMPORT_ELEM_INTEGER : json_is_real(v) ? IMPORT_ELEM_REAL :
		    json_is_null(v) ? IMPORT_ELEM_NULL : IMPORT_ELEM_OTHER;
	if (json_is_integer(v))
		out->integer = json_integer_value(v);
	if (json_is_number(v))
		out->number = json_number_value(v);
}
