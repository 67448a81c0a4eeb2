/*
 * formats/manifest-valgrind.c: shape and lookups of the manifest's
 * Valgrind members; see manifest-valgrind.h.
 */
#include <math.h>
#include <string.h>

#include "common/err.h"
#include "formats/manifest.h"
#include "formats/manifest-valgrind.h"
#include "common/banned.h"

const struct manifest_vg_key manifest_vg_keys[MANIFEST_VG_NKEYS] = {
	{ METRIC_VG_INSTRUCTIONS, "instructions" },
	{ METRIC_VG_I1_MISSES, "i1Misses" },
	{ METRIC_VG_D1_MISSES, "d1Misses" },
	{ METRIC_VG_LL_MISSES, "llMisses" },
	{ METRIC_CACHESIM, "cachesim" },
};

static const char *key_of(enum metric_id m)
{
	for (size_t i = 0; i < MANIFEST_VG_NKEYS; i++)
		if (manifest_vg_keys[i].metric == m)
			return manifest_vg_keys[i].key;
	return NULL;
}

void manifest_vg_stat(const json_t *vg, const char *side, enum metric_id metric,
		      struct manifest_vg_stat *out)
{
	const char *key = key_of(metric);
	json_t *o = NULL;

	memset(out, 0, sizeof(*out));
	out->center = out->min = out->max = NAN;
	if (vg && key)
		o = json_object_get(json_object_get(json_object_get(vg, "sides"), side), key);
	if (!json_is_object(o))
		return;
	out->present = 1;
	out->center = json_number_value(json_object_get(o, "center"));
	out->min = json_number_value(json_object_get(o, "min"));
	out->max = json_number_value(json_object_get(o, "max"));
}

/* o.key is absent (optional) or of the type check accepts. */
static int want(const json_t *o, const char *key, int required, int (*check)(const json_t *),
		const char *what, const char *path, struct plumb_err *err)
{
	json_t *v = json_object_get(o, key);

	if (!v && !required)
		return 0;
	if (!v)
		return plumb_err_set(err, PLUMB_EINPUT, "%s.%s: missing required field",
				     path, key);
	if (!check(v))
		return plumb_err_set(err, PLUMB_EINPUT, "%s.%s: expected %s", path, key, what);
	return 0;
}

static int is_str(const json_t *v) { return json_is_string(v); }
static int is_obj(const json_t *v) { return json_is_object(v); }
static int is_bool(const json_t *v) { return json_is_boolean(v); }
static int is_count(const json_t *v) { return json_is_number(v) && json_number_value(v) >= 0; }

static int check_run(const json_t *o, struct plumb_err *err)
{
	static const char *const levels[] = { "I1", "D1", "LL" };
	const char *p = "run.valgrind";
	json_t *g;
	int r;

	if ((r = want(o, "version", 1, is_str, "a string", p, err)) < 0 ||
	    (r = want(o, "path", 0, is_str, "a string", p, err)) < 0 ||
	    (r = want(o, "costFormula", 1, is_str, "a string", p, err)) < 0 ||
	    (r = want(o, "runs", 1, is_count, "a count", p, err)) < 0 ||
	    (r = want(o, "ns", 1, is_count, "a count", p, err)) < 0 ||
	    (r = want(o, "geometry", 1, is_obj, "an object", p, err)) < 0)
		return r;
	g = json_object_get(o, "geometry");
	for (size_t i = 0; i < 3; i++) {
		char lp[64];
		json_t *l;
		snprintf(lp, sizeof(lp), "run.valgrind.geometry");
		if ((r = want(g, levels[i], 1, is_obj, "an object", lp, err)) < 0)
			return r;
		l = json_object_get(g, levels[i]);
		snprintf(lp, sizeof(lp), "run.valgrind.geometry.%s", levels[i]);
		if ((r = want(l, "size", 1, is_count, "a count", lp, err)) < 0 ||
		    (r = want(l, "assoc", 1, is_count, "a count", lp, err)) < 0 ||
		    (r = want(l, "lineSize", 1, is_count, "a count", lp, err)) < 0)
			return r;
	}
	return 0;
}

static int check_bench(const json_t *o, size_t bi, struct plumb_err *err)
{
	static const char *const sides[] = { "base", "candidate", "control" };
	char p[64];
	json_t *s;
	int r;

	snprintf(p, sizeof(p), "benches[%zu].valgrind", bi);
	if ((r = want(o, "source", 1, is_str, "a string", p, err)) < 0 ||
	    (r = want(o, "deterministic", 1, is_bool, "a boolean", p, err)) < 0 ||
	    (r = want(o, "difference", 0, is_str, "a string", p, err)) < 0 ||
	    (r = want(o, "runs", 1, is_count, "a count", p, err)) < 0 ||
	    (r = want(o, "ns", 1, is_count, "a count", p, err)) < 0 ||
	    (r = want(o, "sides", 0, is_obj, "an object", p, err)) < 0)
		return r;
	s = json_object_get(o, "sides");
	for (size_t i = 0; s && i < 3; i++) {
		json_t *so = json_object_get(s, sides[i]);
		char sp[96];
		snprintf(sp, sizeof(sp), "%s.sides", p);
		if ((r = want(s, sides[i], 0, is_obj, "an object", sp, err)) < 0)
			return r;
		for (size_t k = 0; so && k < MANIFEST_VG_NKEYS; k++) {
			json_t *st = json_object_get(so, manifest_vg_keys[k].key);
			char kp[128];
			snprintf(kp, sizeof(kp), "%s.sides.%s", p, sides[i]);
			if ((r = want(so, manifest_vg_keys[k].key, 0, is_obj, "an object", kp, err)) < 0)
				return r;
			if (!st)
				continue;
			snprintf(kp, sizeof(kp), "%s.sides.%s.%s", p, sides[i], manifest_vg_keys[k].key);
			if ((r = want(st, "center", 1, is_count, "a count", kp, err)) < 0 ||
			    (r = want(st, "min", 1, is_count, "a count", kp, err)) < 0 ||
			    (r = want(st, "max", 1, is_count, "a count", kp, err)) < 0)
				return r;
			if (!(json_number_value(json_object_get(st, "min")) <=
			      json_number_value(json_object_get(st, "center")) &&
			      json_number_value(json_object_get(st, "center")) <=
			      json_number_value(json_object_get(st, "max"))))
				return plumb_err_set(err, PLUMB_EINPUT, "%s: needs min <= center <= max", kp);
		}
	}
	return 0;
}

int manifest_vg_validate(const struct manifest *m, struct plumb_err *err)
{
	int r;

	if (m->run.valgrind && (r = check_run(m->run.valgrind, err)) < 0)
		return r;
	for (size_t i = 0; i < m->n_benches; i++)
		if (m->benches[i].valgrind && (r = check_bench(m->benches[i].valgrind, i, err)) < 0)
			return r;
	return 0;
}
