/*
 * formats/manifest-read.c: manifest.json text to struct manifest.
 *
 * The text is untrusted (a bundle from anywhere): jsonio_load() enforces
 * the size, depth and duplicate-key rules, then every member is looked up
 * with its type checked, and every message starts with the JSON path of the
 * offending value.  Semantic rules (ranges, formats, cross references) are
 * manifest_validate()'s, run on the result.  A JSON null for an optional
 * member counts as absent; members the model does not know are ignored.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/err.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "formats/manifest-internal.h"
#include "formats/manifest-valgrind.h"
#include "common/banned.h"

struct rd {
	struct jsonio_path path;
	struct plumb_err *err;
	struct vref *vrefs;       /* build.variants sorted by (side, pad) */
	size_t n_vrefs;
};

/* A variant's (side, pad) and index, for resolving run.order labels. */
struct vref {
	int side;
	int64_t pad;
	size_t index;
};

static int fail(struct rd *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "<path>: <message>" as PLUMB_EINPUT. */
static int fail(struct rd *r, const char *fmt, ...)
{
	char msg[PLUMB_ERR_MAX / 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return manifest_fail(r->err, "%s: %s", jsonio_path_str(&r->path), msg);
}

/* What kind of value a member must hold. */
enum want {
	W_OBJECT, W_ARRAY, W_STRING, W_INTEGER, W_NUMBER, W_BOOLEAN
};

static const char *want_name(enum want w)
{
	static const char *const names[] = {
		"object", "array", "string", "integer", "number", "boolean"
	};
	return names[w];
}

/* v holds what w asks for. */
static int type_ok(const json_t *v, enum want w)
{
	switch (w) {
	case W_OBJECT: return json_is_object(v);
	case W_ARRAY: return json_is_array(v);
	case W_STRING: return json_is_string(v);
	case W_INTEGER: return json_is_integer(v);
	case W_NUMBER: return json_is_number(v);
	case W_BOOLEAN: return json_is_boolean(v);
	}
	return 0;
}

/* Check that the value at the current path is a w. */
static int expect(struct rd *r, const json_t *v, enum want w)
{
	if (!type_ok(v, w))
		return fail(r, "expected %s, found %s", want_name(w), jsonio_type_name(v));
	return 0;
}

/*
 * Find member key of obj and check its type.  The path is extended by key
 * (restore it with *old).  *v is NULL for an absent (or null) optional
 * member; an absent required member is an error.
 */
static int member(struct rd *r, const json_t *obj, const char *key, int required,
		  enum want w, json_t **v, size_t *old)
{
	*old = jsonio_path_key(&r->path, key);
	*v = json_object_get(obj, key);
	if (!*v || (json_is_null(*v) && !required)) {
		*v = NULL;
		return required ? fail(r, "missing required field") : 0;
	}
	return expect(r, *v, w);
}

static int get_str(struct rd *r, const json_t *obj, const char *key, int required,
		   char **dst)
{
	json_t *v;
	size_t old;
	int rc = member(r, obj, key, required, W_STRING, &v, &old);

	if (rc == 0 && v && manifest_set_str(dst, json_string_value(v)) < 0)
		rc = plumb_err_oom(r->err, "manifest");
	jsonio_path_restore(&r->path, old);
	return rc;
}

static int get_int(struct rd *r, const json_t *obj, const char *key, int required,
		   int64_t *dst)
{
	json_t *v;
	size_t old;
	int rc = member(r, obj, key, required, W_INTEGER, &v, &old);

	if (rc == 0 && v) {
		if (json_integer_value(v) < 0)
			rc = fail(r, "must be at least 0, found %" JSON_INTEGER_FORMAT,
				  json_integer_value(v));
		else
			*dst = json_integer_value(v);
	}
	jsonio_path_restore(&r->path, old);
	return rc;
}

static int get_num(struct rd *r, const json_t *obj, const char *key, int required,
		   double *dst)
{
	json_t *v;
	size_t old;
	int rc = member(r, obj, key, required, W_NUMBER, &v, &old);

	if (rc == 0 && v)
		*dst = json_number_value(v);
	jsonio_path_restore(&r->path, old);
	return rc;
}

static int get_bool(struct rd *r, const json_t *obj, const char *key, int required,
		    int *dst)
{
	json_t *v;
	size_t old;
	int rc = member(r, obj, key, required, W_BOOLEAN, &v, &old);

	if (rc == 0 && v)
		*dst = json_is_true(v);
	jsonio_path_restore(&r->path, old);
	return rc;
}

/* names: a NULL-terminated table; "" entries are not valid values. */
static int get_enum(struct rd *r, const json_t *obj, const char *key, int required,
		    const char *const *names, int *dst)
{
	char list[256];
	json_t *v;
	size_t old, used = 0;
	int rc = member(r, obj, key, required, W_STRING, &v, &old), i;

	if (rc == 0 && v) {
		for (i = 0; names[i]; i++) {
			if (names[i][0] && strcmp(names[i], json_string_value(v)) == 0) {
				*dst = i;
				jsonio_path_restore(&r->path, old);
				return 0;
			}
		}
		list[0] = '\0';
		for (i = 0; names[i]; i++) {
			if (!names[i][0])
				continue;
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 used ? ", " : "", names[i]);
			if (used >= sizeof(list))
				break;
		}
		rc = fail(r, "unknown value '%.64s' (expected one of: %s)",
			  json_string_value(v), list);
	}
	jsonio_path_restore(&r->path, old);
	return rc;
}

/* Keep a reference to an opaque object member. */
static int get_opaque(struct rd *r, const json_t *obj, const char *key, int required,
		      json_t **dst)
{
	json_t *v;
	size_t old;
	int rc = member(r, obj, key, required, W_OBJECT, &v, &old);

	if (rc == 0 && v)
		*dst = json_incref(v);
	jsonio_path_restore(&r->path, old);
	return rc;
}

/* calloc for n elements of size, at least one (NULL only when out of memory). */
static void *alloc_n(struct rd *r, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		plumb_err_oom(r->err, "manifest");
	return p;
}

static int read_commit(struct rd *r, const json_t *repo, const char *key,
		       struct manifest_commit *c, int imported)
{
	json_t *o;
	size_t old;
	int rc = member(r, repo, key, 1, W_OBJECT, &o, &old);

	if (rc == 0)
		rc = get_str(r, o, "ref", 1, &c->ref);
	if (rc == 0)
		rc = get_str(r, o, "commit", !imported, &c->commit);
	if (rc == 0)
		rc = get_str(r, o, "tree", 0, &c->tree);
	if (rc == 0)
		rc = get_str(r, o, "subject", 0, &c->subject);
	if (rc == 0)
		rc = get_str(r, o, "author", 0, &c->author);
	if (rc == 0)
		rc = get_str(r, o, "time", 0, &c->time);
	if (rc == 0)
		rc = get_bool(r, o, "dirty", 0, &c->dirty);
	jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_hot_symbols(struct rd *r, const json_t *vo, struct manifest_variant *v)
{
	json_t *a, *o;
	size_t old, old2, i;
	int rc = member(r, vo, "hot", 0, W_ARRAY, &a, &old);

	if (rc == 0 && a) {
		v->hot = alloc_n(r, json_array_size(a), sizeof(*v->hot));
		if (!v->hot)
			rc = PLUMB_EINTERNAL;
		for (i = 0; rc == 0 && i < json_array_size(a); i++) {
			struct manifest_hot_symbol *h = &v->hot[i];

			v->n_hot++;
			old2 = jsonio_path_index(&r->path, i);
			o = json_array_get(a, i);
			rc = expect(r, o, W_OBJECT);
			if (rc == 0)
				rc = get_str(r, o, "name", 1, &h->name);
			if (rc == 0)
				rc = get_int(r, o, "address", 1, &h->address);
			if (rc == 0)
				rc = get_int(r, o, "size", 1, &h->size);
			if (rc == 0)
				rc = get_str(r, o, "sha256", 0, &h->sha256);
			if (rc == 0)
				jsonio_path_restore(&r->path, old2);
		}
	}
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_variant(struct rd *r, const json_t *o, struct manifest_variant *v)
{
	json_t *art;
	size_t old;
	int side = 0, rc;

	rc = expect(r, o, W_OBJECT);
	if (rc == 0)
		rc = get_enum(r, o, "side", 1, manifest_side_names, &side);
	v->side = (enum manifest_side)side;
	if (rc == 0)
		rc = get_int(r, o, "pad", 1, &v->pad);
	if (rc == 0) {
		rc = member(r, o, "artifact", 0, W_OBJECT, &art, &old);
		if (rc == 0 && art) {
			rc = get_str(r, art, "path", 1, &v->artifact_path);
			if (rc == 0)
				rc = get_int(r, art, "size", 1, &v->artifact_size);
			if (rc == 0)
				rc = get_str(r, art, "sha256", 1, &v->artifact_sha256);
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old);
	}
	if (rc == 0)
		rc = get_int(r, o, "buildNs", 0, &v->build_ns);
	if (rc == 0)
		rc = get_int(r, o, "padOffset", 0, &v->pad_offset);
	if (rc == 0)
		rc = get_bool(r, o, "cached", 0, &v->cached);
	if (rc == 0) {
		json_t *ru;
		rc = member(r, o, "reused", 0, W_OBJECT, &ru, &old);
		if (rc == 0 && ru) {
			rc = get_str(r, ru, "bisect", 1, &v->reused_bisect);
			if (rc == 0)
				rc = get_int(r, ru, "comparison", 1, &v->reused_comparison);
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old);
	}
	if (rc == 0)
		rc = read_hot_symbols(r, o, v);
	return rc;
}

static int cmp_vref(const void *a, const void *b)
{
	const struct vref *x = a, *y = b;

	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->pad != y->pad)
		return x->pad < y->pad ? -1 : 1;
	return 0;
}

static int read_build(struct rd *r, const json_t *root, struct manifest *m)
{
	json_t *b, *a;
	size_t old, old2, old3, i;
	int method = 0, rc = member(r, root, "build", 1, W_OBJECT, &b, &old);

	if (rc == 0)
		rc = get_enum(r, b, "method", 1, manifest_method_names, &method);
	m->build.method = (enum manifest_method)method;
	if (rc == 0)
		rc = get_int(r, b, "padBytes", 1, &m->build.pad_bytes);
	if (rc == 0)
		rc = get_str(r, b, "command", 0, &m->build.command);
	if (rc == 0)
		rc = get_str(r, b, "padOffsets", 0, &m->build.pad_offsets);
	if (rc == 0)
		rc = member(r, b, "variants", 1, W_ARRAY, &a, &old2);
	if (rc == 0) {
		m->build.variants = alloc_n(r, json_array_size(a), sizeof(*m->build.variants));
		if (!m->build.variants)
			return PLUMB_EINTERNAL;
		for (i = 0; i < json_array_size(a); i++) {
			manifest_variant_init(&m->build.variants[i]);
			m->build.n_variants++;
			old3 = jsonio_path_index(&r->path, i);
			rc = read_variant(r, json_array_get(a, i), &m->build.variants[i]);
			if (rc < 0)
				return rc;
			jsonio_path_restore(&r->path, old3);
		}
		jsonio_path_restore(&r->path, old2);
		r->vrefs = alloc_n(r, m->build.n_variants, sizeof(*r->vrefs));
		if (!r->vrefs)
			return PLUMB_EINTERNAL;
		for (i = 0; i < m->build.n_variants; i++) {
			r->vrefs[i].side = (int)m->build.variants[i].side;
			r->vrefs[i].pad = m->build.variants[i].pad;
			r->vrefs[i].index = i;
		}
		r->n_vrefs = m->build.n_variants;
		qsort(r->vrefs, r->n_vrefs, sizeof(*r->vrefs), cmp_vref);
	}
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_host(struct rd *r, const json_t *root, struct manifest *m)
{
	json_t *h;
	size_t old;
	int rc = member(r, root, "host", 1, W_OBJECT, &h, &old);

	if (rc == 0)
		rc = get_opaque(r, h, "start", 1, &m->host.start);
	if (rc == 0)
		rc = get_opaque(r, h, "end", 0, &m->host.end);
	if (rc == 0)
		rc = get_str(r, h, "fingerprint", 0, &m->host.fingerprint);
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

/* Resolve a label "side/pad" at the current path to a variant index. */
static int resolve_label(struct rd *r, const char *label, size_t *index)
{
	const char *slash = strchr(label, '/');
	struct vref key, *hit;
	size_t n;
	int i;

	key.side = -1;
	key.pad = 0;
	key.index = 0;
	if (slash) {
		n = (size_t)(slash - label);
		for (i = 0; manifest_side_names[i]; i++)
			if (strlen(manifest_side_names[i]) == n &&
			    memcmp(manifest_side_names[i], label, n) == 0)
				key.side = i;
		for (n = 1; slash[n]; n++) {
			if (slash[n] < '0' || slash[n] > '9' || n > 18) {
				key.side = -1;
				break;
			}
			key.pad = key.pad * 10 + (slash[n] - '0');
		}
		if (n == 1)
			key.side = -1;
	}
	if (key.side < 0)
		return fail(r, "'%.64s' is not a variant label like base/0", label);
	hit = bsearch(&key, r->vrefs, r->n_vrefs, sizeof(*r->vrefs), cmp_vref);
	if (!hit)
		return fail(r, "no variant '%.64s' in build.variants", label);
	*index = hit->index;
	return 0;
}

static int read_order(struct rd *r, const json_t *run, struct manifest *m)
{
	json_t *a, *round, *e;
	size_t old, old2, old3, i, j;
	int rc = member(r, run, "order", 0, W_ARRAY, &a, &old);

	if (rc < 0 || !a) {
		if (rc == 0)
			jsonio_path_restore(&r->path, old);
		return rc;
	}
	m->run.order = alloc_n(r, json_array_size(a), sizeof(*m->run.order));
	if (!m->run.order)
		return PLUMB_EINTERNAL;
	for (i = 0; i < json_array_size(a); i++) {
		struct manifest_round *rnd = &m->run.order[i];

		m->run.n_order++;
		old2 = jsonio_path_index(&r->path, i);
		round = json_array_get(a, i);
		rc = expect(r, round, W_ARRAY);
		if (rc < 0)
			return rc;
		rnd->variants = alloc_n(r, json_array_size(round), sizeof(*rnd->variants));
		if (!rnd->variants)
			return PLUMB_EINTERNAL;
		for (j = 0; j < json_array_size(round); j++) {
			old3 = jsonio_path_index(&r->path, j);
			e = json_array_get(round, j);
			rc = expect(r, e, W_STRING);
			if (rc == 0)
				rc = resolve_label(r, json_string_value(e), &rnd->variants[j]);
			if (rc < 0)
				return rc;
			rnd->n++;
			jsonio_path_restore(&r->path, old3);
		}
		jsonio_path_restore(&r->path, old2);
	}
	jsonio_path_restore(&r->path, old);
	return 0;
}

static int read_labels(struct rd *r, const json_t *run, struct manifest *m)
{
	json_t *o, *v;
	const char *key;
	size_t old, old2;
	int rc = member(r, run, "labels", 0, W_OBJECT, &o, &old);

	if (rc == 0 && o) {
		m->run.labels = alloc_n(r, json_object_size(o), sizeof(*m->run.labels));
		if (!m->run.labels)
			return PLUMB_EINTERNAL;
		json_object_foreach(o, key, v) {
			struct manifest_label *l = &m->run.labels[m->run.n_labels];

			old2 = jsonio_path_key(&r->path, key);
			rc = expect(r, v, W_STRING);
			if (rc < 0)
				return rc;
			m->run.n_labels++;
			if (manifest_set_str(&l->key, key) < 0 ||
			    manifest_set_str(&l->value, json_string_value(v)) < 0)
				return plumb_err_oom(r->err, "manifest");
			jsonio_path_restore(&r->path, old2);
		}
	}
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_conditions(struct rd *r, const json_t *run, struct manifest *m)
{
	json_t *a, *e, *l;
	size_t old, old2, old3 = 0, i, j;
	int rc = member(r, run, "conditions", 0, W_ARRAY, &a, &old);

	if (rc < 0 || !a) {
		if (rc == 0)
			jsonio_path_restore(&r->path, old);
		return rc;
	}
	m->run.conditions = alloc_n(r, json_array_size(a), sizeof(*m->run.conditions));
	if (!m->run.conditions)
		return PLUMB_EINTERNAL;
	for (i = 0; i < json_array_size(a); i++) {
		struct manifest_condition *c = &m->run.conditions[i];

		manifest_condition_init(c);
		m->run.n_conditions++;
		old2 = jsonio_path_index(&r->path, i);
		e = json_array_get(a, i);
		rc = expect(r, e, W_OBJECT);
		if (rc == 0)
			rc = get_int(r, e, "atNs", 1, &c->at_ns);
		if (rc == 0)
			rc = get_int(r, e, "curKhzMin", 0, &c->cur_khz_min);
		if (rc == 0)
			rc = get_int(r, e, "curKhzMax", 0, &c->cur_khz_max);
		if (rc == 0)
			rc = member(r, e, "load", 0, W_ARRAY, &l, &old3);
		if (rc == 0 && l) {
			if (json_array_size(l) != 3)
				rc = fail(r, "expected 3 load averages, found %zu", json_array_size(l));
			for (j = 0; rc == 0 && j < 3; j++) {
				size_t old4 = jsonio_path_index(&r->path, j);
				json_t *v = json_array_get(l, j);
				rc = expect(r, v, W_NUMBER);
				if (rc == 0)
					c->load[j] = json_number_value(v);
				if (rc == 0)
					jsonio_path_restore(&r->path, old4);
			}
		}
		if (rc < 0)
			return rc;
		jsonio_path_restore(&r->path, old3);
		jsonio_path_restore(&r->path, old2);
	}
	jsonio_path_restore(&r->path, old);
	return 0;
}

static int read_run(struct rd *r, const json_t *root, struct manifest *m)
{
	json_t *run, *o;
	size_t old, old2;
	int rc = member(r, root, "run", 1, W_OBJECT, &run, &old);

	if (rc == 0)
		rc = get_int(r, run, "seed", 1, &m->run.seed);
	if (rc == 0)
		rc = get_int(r, run, "rounds", 1, &m->run.rounds);
	if (rc == 0)
		rc = get_str(r, run, "start", 0, &m->run.start);
	if (rc == 0)
		rc = get_str(r, run, "end", 0, &m->run.end);
	if (rc == 0) {
		rc = member(r, run, "warmup", 0, W_OBJECT, &o, &old2);
		if (rc == 0 && o) {
			rc = get_int(r, o, "runs", 1, &m->run.warmup_runs);
			if (rc == 0)
				rc = get_str(r, o, "policy", 1, &m->run.warmup_policy);
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old2);
	}
	if (rc == 0) {
		rc = member(r, run, "counters", 0, W_OBJECT, &o, &old2);
		if (rc == 0 && o) {
			rc = get_bool(r, o, "available", 1, &m->run.counters_available);
			if (rc == 0)
				rc = get_str(r, o, "reason", 0, &m->run.counters_reason);
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old2);
	}
	if (rc == 0) {
		rc = member(r, run, "containment", 0, W_OBJECT, &o, &old2);
		if (rc == 0 && o) {
			rc = get_str(r, o, "method", 1, &m->run.containment_method);
			if (rc == 0)
				rc = get_str(r, o, "reason", 0, &m->run.containment_reason);
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old2);
	}
	if (rc == 0)
		rc = get_str(r, run, "project", 0, &m->run.project);
	if (rc == 0)
		rc = read_labels(r, run, m);
	if (rc == 0)
		rc = read_order(r, run, m);
	if (rc == 0)
		rc = read_conditions(r, run, m);
	if (rc == 0)
		rc = get_opaque(r, run, "sweep", 0, &m->run.sweep);
	if (rc == 0)
		rc = get_opaque(r, run, "valgrind", 0, &m->run.valgrind);
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_side(struct rd *r, const json_t *sides, const char *key, int required,
		     struct manifest_side_stats *s)
{
	json_t *o, *a, *c;
	size_t old, old2, i;
	int rc = member(r, sides, key, required, W_OBJECT, &o, &old);

	if (rc < 0 || !o) {
		if (rc == 0)
			jsonio_path_restore(&r->path, old);
		return rc;
	}
	s->present = 1;
	rc = member(r, o, "pads", 1, W_ARRAY, &a, &old2);
	if (rc < 0)
		return rc;
	s->pads = alloc_n(r, json_array_size(a), sizeof(*s->pads));
	if (!s->pads)
		return PLUMB_EINTERNAL;
	for (i = 0; i < json_array_size(a); i++) {
		size_t old3 = jsonio_path_index(&r->path, i);

		rc = expect(r, json_array_get(a, i), W_NUMBER);
		if (rc < 0)
			return rc;
		s->pads[i] = json_number_value(json_array_get(a, i));
		s->n_pads++;
		jsonio_path_restore(&r->path, old3);
	}
	if (s->n_pads == 0)
		return fail(r, "needs at least one pad");
	jsonio_path_restore(&r->path, old2);
	if (rc == 0)
		rc = get_num(r, o, "center", 1, &s->center);
	if (rc == 0)
		rc = get_num(r, o, "min", 1, &s->min);
	if (rc == 0)
		rc = get_num(r, o, "max", 1, &s->max);
	if (rc == 0)
		rc = get_num(r, o, "spread", 0, &s->spread);
	if (rc == 0)
		rc = get_int(r, o, "rounds", 0, &s->rounds);
	if (rc == 0)
		rc = get_num(r, o, "p99", 0, &s->p99);
	if (rc == 0)
		rc = get_num(r, o, "coP99", 0, &s->co_p99);
	if (rc == 0)
		rc = get_num(r, o, "rangeLo", 0, &s->range_lo);
	if (rc == 0)
		rc = get_num(r, o, "rangeHi", 0, &s->range_hi);
	if (rc == 0) {
		rc = member(r, o, "counters", 0, W_OBJECT, &c, &old2);
		if (rc == 0 && c) {
			s->counters.present = 1;
			for (int k = 0; rc == 0 && k < METRIC_NCOUNTERS; k++)
				rc = get_num(r, c, metric_counter(k)->key, 0, &s->counters.value[k]);
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old2);
	}
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_profile_side(struct rd *r, const json_t *prof, const char *key,
			     struct manifest_profile_side *ps)
{
	json_t *g, *a, *e;
	size_t old, old2, i;
	int rc = member(r, prof, key, 0, W_OBJECT, &g, &old);

	if (rc < 0 || !g) {
		if (rc == 0)
			jsonio_path_restore(&r->path, old);
		return rc;
	}
	ps->present = 1;
	rc = get_int(r, g, "samples", 1, &ps->samples);
	if (rc == 0)
		rc = member(r, g, "symbols", 1, W_ARRAY, &a, &old2);
	if (rc < 0)
		return rc;
	ps->symbols = alloc_n(r, json_array_size(a), sizeof(*ps->symbols));
	if (!ps->symbols && json_array_size(a))
		return PLUMB_EINTERNAL;
	for (i = 0; rc == 0 && i < json_array_size(a); i++) {
		size_t old3 = jsonio_path_index(&r->path, i);
		struct manifest_profile_sym *sy = &ps->symbols[i];
		ps->n_symbols++;
		sy->share = NAN;
		e = json_array_get(a, i);
		rc = expect(r, e, W_OBJECT);
		if (rc == 0)
			rc = get_str(r, e, "name", 1, &sy->name);
		if (rc == 0)
			rc = get_num(r, e, "share", 1, &sy->share);
		if (rc == 0)
			jsonio_path_restore(&r->path, old3);
	}
	if (rc == 0) {
		jsonio_path_restore(&r->path, old2);
		jsonio_path_restore(&r->path, old);
	}
	return rc;
}

static int read_profile(struct rd *r, const json_t *o, struct manifest_bench *b)
{
	json_t *g;
	size_t old;
	int rc = member(r, o, "profile", 0, W_OBJECT, &g, &old);

	if (rc == 0 && g) {
		b->profile.present = 1;
		rc = get_num(r, g, "coverage", 1, &b->profile.coverage);
		if (rc == 0)
			rc = read_profile_side(r, g, "base", &b->profile.base);
		if (rc == 0)
			rc = read_profile_side(r, g, "candidate", &b->profile.candidate);
	}
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

static int read_bench_extras(struct rd *r, const json_t *o, struct manifest_bench *b)
{
	json_t *g, *a, *e;
	size_t old, old2, i;
	int rc;

	rc = member(r, o, "noise", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->noise.present = 1;
		rc = get_num(r, g, "relative", 1, &b->noise.relative);
		if (rc == 0)
			rc = get_bool(r, g, "tooNoisy", 1, &b->noise.too_noisy);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "rule", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->rule.present = 1;
		rc = get_str(r, g, "name", 1, &b->rule.name);
		if (rc == 0)
			rc = get_int(r, g, "version", 1, &b->rule.version);
		if (rc == 0)
			rc = get_num(r, g, "confidence", 1, &b->rule.confidence);
		int shift = rc == 0 && b->rule.name && strcmp(b->rule.name, "shift") == 0;
		if (rc == 0)
			rc = get_num(r, g, "noiseFactor", !shift, &b->rule.noise_factor);
		if (rc == 0)
			rc = get_int(r, g, "resamples", !shift, &b->rule.resamples);
		if (rc == 0)
			rc = get_int(r, g, "seed", !shift, &b->rule.seed);
		if (rc == 0)
			rc = get_num(r, g, "minEffect", shift, &b->rule.min_effect);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);
	if ((rc = get_str(r, o, "reason", 0, &b->reason)) < 0)
		return rc;
	if ((rc = get_str(r, o, "work", 0, &b->work)) < 0)
		return rc;
	rc = member(r, o, "shift", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->shift.present = 1;
		rc = get_num(r, g, "estimate", 1, &b->shift.estimate);
		if (rc == 0)
			rc = get_num(r, g, "lo", 1, &b->shift.lo);
		if (rc == 0)
			rc = get_num(r, g, "hi", 1, &b->shift.hi);
		if (rc == 0)
			rc = get_num(r, g, "level", 1, &b->shift.level);
		if (rc == 0)
			rc = get_num(r, g, "p", 1, &b->shift.p);
		if (rc == 0)
			rc = get_num(r, g, "pMin", 1, &b->shift.p_min);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "interval", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->interval.present = 1;
		rc = get_num(r, g, "lo", 1, &b->interval.lo);
		if (rc == 0)
			rc = get_num(r, g, "hi", 1, &b->interval.hi);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "noiseBasis", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->noise_basis.present = 1;
		rc = get_num(r, g, "figure", 1, &b->noise_basis.figure);
		if (rc == 0)
			rc = get_num(r, g, "rounds", 1, &b->noise_basis.rounds);
		if (rc == 0)
			rc = get_num(r, g, "control", 0, &b->noise_basis.control);
		if (rc == 0)
			rc = get_num(r, g, "margin", 1, &b->noise_basis.margin);
		if (rc == 0)
			rc = get_num(r, g, "gap", 0, &b->noise_basis.gap);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "detectable", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->detectable.present = 1;
		rc = get_num(r, g, "slower", 1, &b->detectable.slower);
		if (rc == 0)
			rc = get_num(r, g, "faster", 1, &b->detectable.faster);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "hot", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->hot.present = 1;
		rc = get_bool(r, g, "identical", 1, &b->hot.identical);
		if (rc == 0)
			rc = member(r, g, "symbols", 0, W_ARRAY, &a, &old2);
		if (rc == 0 && a) {
			b->hot.symbols = alloc_n(r, json_array_size(a), sizeof(*b->hot.symbols));
			if (!b->hot.symbols)
				return PLUMB_EINTERNAL;
			for (i = 0; rc == 0 && i < json_array_size(a); i++) {
				size_t old3 = jsonio_path_index(&r->path, i);
				struct manifest_hot_cmp *h = &b->hot.symbols[i];

				b->hot.n_symbols++;
				h->identical = MANIFEST_UNKNOWN;
				e = json_array_get(a, i);
				rc = expect(r, e, W_OBJECT);
				if (rc == 0)
					rc = get_str(r, e, "name", 1, &h->name);
				if (rc == 0)
					rc = get_bool(r, e, "identical", 1, &h->identical);
				if (rc == 0)
					rc = get_str(r, e, "verdict", 0, &h->verdict);
				if (rc == 0)
					jsonio_path_restore(&r->path, old3);
			}
		}
		if (rc == 0)
			jsonio_path_restore(&r->path, old2);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = read_profile(r, o, b);
	if (rc < 0)
		return rc;

	rc = member(r, o, "checksum", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->checksum.present = 1;
		rc = get_bool(r, g, "consistent", 1, &b->checksum.consistent);
		if (rc == 0)
			rc = get_str(r, g, "base", 0, &b->checksum.base);
		if (rc == 0)
			rc = get_str(r, g, "candidate", 0, &b->checksum.candidate);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "steadyState", 0, W_OBJECT, &g, &old);
	if (rc == 0 && g) {
		b->steady.present = 1;
		rc = get_int(r, g, "window", 1, &b->steady.window);
		if (rc == 0)
			rc = get_num(r, g, "tolerance", 1, &b->steady.tolerance);
		if (rc == 0)
			rc = get_int(r, g, "unsettled", 1, &b->steady.unsettled);
		if (rc == 0)
			rc = get_num(r, g, "start", 0, &b->steady.start);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = member(r, o, "notes", 0, W_ARRAY, &a, &old);
	if (rc == 0 && a) {
		b->notes = alloc_n(r, json_array_size(a), sizeof(*b->notes));
		if (!b->notes)
			return PLUMB_EINTERNAL;
		for (i = 0; rc == 0 && i < json_array_size(a); i++) {
			size_t old3 = jsonio_path_index(&r->path, i);

			e = json_array_get(a, i);
			rc = expect(r, e, W_STRING);
			if (rc == 0 && manifest_set_str(&b->notes[i], json_string_value(e)) < 0)
				rc = plumb_err_oom(r->err, "manifest");
			if (rc == 0) {
				b->n_notes++;
				jsonio_path_restore(&r->path, old3);
			}
		}
	}
	if (rc == 0)
		jsonio_path_restore(&r->path, old);
	return rc;
}

/* benches[].gbench: which Google Benchmark benchmark of a binary (mode gbench). */
static int read_gbench(struct rd *r, const json_t *o, struct manifest_gbench *g)
{
	json_t *v;
	size_t old;
	int rc = member(r, o, "gbench", 0, W_OBJECT, &v, &old);

	if (rc < 0)
		return rc;
	if (!v) {
		jsonio_path_restore(&r->path, old);
		return 0;
	}
	g->present = 1;
	if ((rc = get_str(r, v, "section", 1, &g->section)) < 0 ||
	    (rc = get_str(r, v, "name", 1, &g->name)) < 0 ||
	    (rc = get_str(r, v, "family", 1, &g->family)) < 0)
		return rc;
	jsonio_path_restore(&r->path, old);
	return 0;
}

static int read_bench(struct rd *r, const json_t *o, struct manifest_bench *b)
{
	json_t *sides;
	size_t old;
	int mode = 0, metric = 0, verdict = 0, direction = 0, ok, rc;

	rc = expect(r, o, W_OBJECT);
	if (rc == 0)
		rc = get_str(r, o, "name", 1, &b->name);
	if (rc == 0)
		rc = get_enum(r, o, "mode", 1, manifest_mode_names, &mode);
	if (rc == 0)
		rc = get_enum(r, o, "metric", 1, metric_bench_names, &metric);
	if (rc == 0)
		rc = read_gbench(r, o, &b->gbench);
	if (rc == 0)
		rc = get_str(r, o, "failure", 0, &b->failure);
	if (rc == 0)
		rc = get_str(r, o, "failureLog", 0, &b->failure_log);
	if (rc == 0 && b->failure_log && (!b->failure || strncmp(b->failure_log, "logs/", 5) != 0))
		rc = fail(r, "failureLog: %s", !b->failure ? "only with failure" :
			  "expected a member under logs/");
	if (rc == 0)
		rc = get_str(r, o, "warmup", 0, &b->warmup);
	if (rc < 0)
		return rc;
	b->mode = (enum manifest_mode)mode;
	b->metric = (enum metric_id)metric;
	/* A failed benchmark may lack its results. */
	ok = b->failure == NULL;
	rc = member(r, o, "sides", ok, W_OBJECT, &sides, &old);
	if (rc == 0 && sides) {
		rc = read_side(r, sides, "base", ok, &b->base);
		if (rc == 0)
			rc = read_side(r, sides, "candidate", ok, &b->candidate);
		if (rc == 0)
			rc = read_side(r, sides, "control", 0, &b->control);
	}
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);
	rc = get_num(r, o, "ratio", 0, &b->ratio);
	if (rc == 0)
		rc = get_enum(r, o, "verdict", ok, verdict_names, &verdict);
	if (rc == 0)
		rc = get_enum(r, o, "direction", 0, manifest_direction_names, &direction);
	if (rc < 0)
		return rc;
	b->verdict = (enum verdict)verdict;
	b->direction = (enum manifest_direction)direction;
	if ((rc = get_opaque(r, o, "valgrind", 0, &b->valgrind)) < 0)
		return rc;
	return read_bench_extras(r, o, b);
}

static int read_benches(struct rd *r, const json_t *root, struct manifest *m)
{
	json_t *a;
	size_t old, old2, i;
	int rc = member(r, root, "benches", 1, W_ARRAY, &a, &old);

	if (rc < 0)
		return rc;
	m->benches = alloc_n(r, json_array_size(a), sizeof(*m->benches));
	if (!m->benches)
		return PLUMB_EINTERNAL;
	for (i = 0; i < json_array_size(a); i++) {
		manifest_bench_init(&m->benches[i]);
		m->n_benches++;
		old2 = jsonio_path_index(&r->path, i);
		rc = read_bench(r, json_array_get(a, i), &m->benches[i]);
		if (rc < 0)
			return rc;
		jsonio_path_restore(&r->path, old2);
	}
	jsonio_path_restore(&r->path, old);
	return 0;
}

static int read_root(struct rd *r, const json_t *root, struct manifest *m)
{
	json_t *v, *o;
	size_t old;
	int rc;

	rc = expect(r, root, W_OBJECT);
	if (rc < 0)
		return rc;
	/* format and version first: a newer major version fails on them alone. */
	rc = member(r, root, "format", 1, W_STRING, &v, &old);
	if (rc < 0)
		return rc;
	if (strcmp(json_string_value(v), MANIFEST_FORMAT) != 0)
		return fail(r, "expected \"" MANIFEST_FORMAT "\", found \"%.64s\"",
			    json_string_value(v));
	jsonio_path_restore(&r->path, old);
	rc = member(r, root, "version", 1, W_INTEGER, &v, &old);
	if (rc < 0)
		return rc;
	if (json_integer_value(v) != MANIFEST_VERSION_MAJOR)
		return fail(r, "major version %" JSON_INTEGER_FORMAT
			    " is not supported (this reader knows version %d)",
			    json_integer_value(v), MANIFEST_VERSION_MAJOR);
	jsonio_path_restore(&r->path, old);
	rc = get_int(r, root, "minorVersion", 0, &m->version_minor);
	if (rc < 0)
		return rc;

	rc = member(r, root, "tool", 1, W_OBJECT, &o, &old);
	if (rc == 0)
		rc = get_str(r, o, "name", 1, &m->tool.name);
	if (rc == 0)
		rc = get_str(r, o, "version", 1, &m->tool.version);
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);
	rc = get_str(r, root, "created", 1, &m->created);
	if (rc == 0)
		rc = get_opaque(r, root, "spec", 1, &m->spec);
	/* Read before repo: an imported bundle's sides may have no commit. */
	if (rc == 0)
		rc = get_opaque(r, root, "source", 0, &m->source);
	if (rc < 0)
		return rc;

	rc = member(r, root, "repo", 1, W_OBJECT, &o, &old);
	if (rc == 0)
		rc = get_str(r, o, "url", 0, &m->repo.url);
	if (rc == 0)
		rc = read_commit(r, o, "base", &m->repo.base, m->source != NULL);
	if (rc == 0)
		rc = read_commit(r, o, "candidate", &m->repo.candidate, m->source != NULL);
	if (rc < 0)
		return rc;
	jsonio_path_restore(&r->path, old);

	rc = read_build(r, root, m);
	if (rc == 0)
		rc = read_host(r, root, m);
	if (rc == 0)
		rc = read_run(r, root, m);
	if (rc == 0)
		rc = get_opaque(r, root, "provenance", 0, &m->provenance);
	if (rc == 0)
		rc = get_opaque(r, root, "range", 0, &m->range);
	if (rc == 0)
		rc = read_benches(r, root, m);
	return rc;
}

int manifest_parse(struct manifest *m, const char *json, size_t len,
		   struct plumb_err *err)
{
	struct rd r;
	json_t *root;
	int rc;

	manifest_init(m);
	rc = jsonio_load(json, len, MANIFEST_MAX_BYTES, MANIFEST_MAX_DEPTH, &root, err);
	if (rc < 0)
		return rc;
	jsonio_path_init(&r.path);
	r.err = err;
	r.vrefs = NULL;
	r.n_vrefs = 0;
	rc = read_root(&r, root, m);
	free(r.vrefs);
	json_decref(root);
	if (rc == 0)
		rc = manifest_validate(m, err);
	if (rc == 0)
		rc = manifest_vg_validate(m, err);
	if (rc < 0)
		manifest_release(m);
	return rc;
}
