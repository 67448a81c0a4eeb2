/*
 * formats/manifest-range.c: the optional member `range` (see
 * manifest-range.h): its checker, reader and builder.  Separate from
 * manifest.c because only range jobs and the range report use it.
 */
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/manifest-internal.h"
#include "formats/manifest-range.h"
#include "common/banned.h"

static int get_int(const json_t *r, const char *key, int64_t min, int64_t *out,
		   struct plumb_err *err)
{
	const json_t *v = json_object_get(r, key);

	if (!v)
		return manifest_fail(err, "range.%s: missing required field", key);
	if (!json_is_integer(v))
		return manifest_fail(err, "range.%s: expected integer", key);
	if (json_integer_value(v) < min)
		return manifest_fail(err, "range.%s: must be at least %lld", key, (long long)min);
	*out = json_integer_value(v);
	return 0;
}

static int get_str(const json_t *r, const char *key, size_t max, const char **out,
		   struct plumb_err *err)
{
	const json_t *v = json_object_get(r, key);

	if (!v)
		return manifest_fail(err, "range.%s: missing required field", key);
	if (!json_is_string(v))
		return manifest_fail(err, "range.%s: expected string", key);
	if (json_string_length(v) == 0 || json_string_length(v) > max)
		return manifest_fail(err, "range.%s: must be 1 to %zu bytes", key, max);
	*out = json_string_value(v);
	return 0;
}

static int check_hot(const json_t *hot, struct plumb_err *err)
{
	static const char *const verdicts[] = { "identical", "identical except addresses", "changed" };
	size_t i, k;
	const json_t *e, *sym;

	if (!json_is_array(hot))
		return manifest_fail(err, "range.hot: expected array");
	json_array_foreach(hot, i, e) {
		const json_t *syms = json_object_get(e, "symbols");
		if (!json_is_object(e) || !json_is_string(json_object_get(e, "bench")) ||
		    !json_is_boolean(json_object_get(e, "identical")) || !json_is_array(syms))
			return manifest_fail(err, "range.hot[%zu]: expected {bench, identical, symbols}", i);
		json_array_foreach(syms, k, sym) {
			const json_t *v = json_object_get(sym, "verdict");
			int known = 0;
			if (!json_is_object(sym) || !json_is_string(json_object_get(sym, "name")) ||
			    !json_is_boolean(json_object_get(sym, "identical")) || !json_is_string(v))
				return manifest_fail(err, "range.hot[%zu].symbols[%zu]: expected {name, identical, verdict}",
						     i, k);
			for (size_t n = 0; n < sizeof(verdicts) / sizeof(*verdicts); n++)
				known |= strcmp(json_string_value(v), verdicts[n]) == 0;
			if (!known)
				return manifest_fail(err, "range.hot[%zu].symbols[%zu].verdict: not a hot-code verdict", i, k);
			if (json_is_true(json_object_get(sym, "identical")) != (strcmp(json_string_value(v), "identical") == 0))
				return manifest_fail(err, "range.hot[%zu].symbols[%zu].identical: contradicts its verdict", i, k);
		}
	}
	return 0;
}

int manifest_range_hot(const struct manifest_range *r, const char *bench, struct manifest_hot *out,
		       struct plumb_err *err)
{
	size_t i, k;
	const json_t *e, *sym;

	memset(out, 0, sizeof(*out));
	if (!r->hot)
		return 0;
	json_array_foreach(r->hot, i, e) {
		const json_t *syms = json_object_get(e, "symbols");
		if (strcmp(json_string_value(json_object_get(e, "bench")), bench) != 0)
			continue;
		out->present = 1;
		out->identical = json_is_true(json_object_get(e, "identical"));
		out->symbols = calloc(json_array_size(syms) + 1, sizeof(*out->symbols));
		if (!out->symbols)
			return plumb_err_oom(err, "range.hot");
		json_array_foreach(syms, k, sym) {
			struct manifest_hot_cmp *c = &out->symbols[out->n_symbols++];
			c->name = (char *)json_string_value(json_object_get(sym, "name"));
			c->identical = json_is_true(json_object_get(sym, "identical"));
			c->verdict = (char *)json_string_value(json_object_get(sym, "verdict"));
		}
		return 0;
	}
	return 0;
}

int manifest_range_read(const json_t *r, struct manifest_range *out, struct plumb_err *err)
{
	struct manifest_range x;

	memset(&x, 0, sizeof(x));
	if (!json_is_object(r))
		return manifest_fail(err, "range: expected object");
	if (get_str(r, "id", MANIFEST_RANGE_ID_MAX, &x.id, err) < 0 ||
	    get_str(r, "spec", MANIFEST_RANGE_SPEC_MAX, &x.spec, err) < 0 ||
	    get_str(r, "parent", 64, &x.parent, err) < 0 ||
	    get_int(r, "step", 1, &x.step, err) < 0 ||
	    get_int(r, "index", 0, &x.index, err) < 0 ||
	    get_int(r, "count", 1, &x.count, err) < 0 ||
	    get_int(r, "total", 1, &x.total, err) < 0)
		return PLUMB_EINPUT;
	for (const char *p = x.id; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z')))
			return manifest_fail(err, "range.id: only digits and lower-case letters");
	if (!manifest_is_hex(x.parent, 40, 64))
		return manifest_fail(err, "range.parent: expected a commit id (40 or 64 lower-case hex)");
	if ((x.hot = json_object_get(r, "hot")) && check_hot(x.hot, err) < 0)
		return PLUMB_EINPUT;
	if (x.index >= x.count)
		return manifest_fail(err, "range.index: %lld is not below range.count %lld",
				     (long long)x.index, (long long)x.count);
	if (x.count > x.total)
		return manifest_fail(err, "range.count: %lld is more than range.total %lld",
				     (long long)x.count, (long long)x.total);
	if (out)
		*out = x;
	return 0;
}

json_t *manifest_range_new(const struct manifest_range *r)
{
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:s}", "id", r->id, "spec", r->spec,
			 "step", (json_int_t)r->step, "index", (json_int_t)r->index,
			 "count", (json_int_t)r->count, "total", (json_int_t)r->total,
			 "parent", r->parent);
}
