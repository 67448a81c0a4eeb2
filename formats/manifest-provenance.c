/*
 * formats/manifest-provenance.c: the shape of the manifest's optional
 * provenance object (formats/bundle-v1.md, "provenance").  The object is
 * kept whole (like spec), so a later minor version may add members; the
 * members this version defines must have their documented types.
 */
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "formats/manifest.h"
#include "formats/manifest-internal.h"
#include "common/banned.h"

static int bad(struct plumb_err *err, const char *path, const char *what)
{
	return plumb_err_set(err, PLUMB_EINPUT, "provenance.%s: %s", path, what);
}

static int is_hex64(const char *s)
{
	return s && strlen(s) == 64 && strspn(s, "0123456789abcdef") == 64;
}

/* An optional member: absent, or of the given type. */
static int typed(const json_t *o, const char *key, json_type type, struct plumb_err *err)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_typeof(v) == type || (type == JSON_STRING && json_is_null(v)))
		return 0;
	return bad(err, key, type == JSON_STRING ? "expected string" :
		   type == JSON_OBJECT ? "expected object" : "expected array");
}

int manifest_provenance_check(const json_t *p, struct plumb_err *err)
{
	const json_t *v, *e;
	const char *k;
	char path[64];
	size_t i;

	if (!json_is_object(p))
		return plumb_err_set(err, PLUMB_EINPUT, "provenance: expected object");
	if (typed(p, "workdir", JSON_STRING, err) < 0 || typed(p, "remote", JSON_STRING, err) < 0 ||
	    typed(p, "environment", JSON_OBJECT, err) < 0 ||
	    typed(p, "toolchain", JSON_OBJECT, err) < 0 || typed(p, "plumb", JSON_OBJECT, err) < 0 ||
	    typed(p, "commands", JSON_ARRAY, err) < 0 || typed(p, "inputs", JSON_ARRAY, err) < 0)
		return PLUMB_EINPUT;
	json_object_foreach((json_t *)json_object_get(p, "environment"), k, v)
		if (!json_is_string(v))
			return plumb_err_set(err, PLUMB_EINPUT, "provenance.environment.%.64s: "
					     "expected string", k);
	json_object_foreach((json_t *)json_object_get(p, "toolchain"), k, v)
		if (!json_is_string(v) && !json_is_null(v))
			return plumb_err_set(err, PLUMB_EINPUT, "provenance.toolchain.%.64s: "
					     "expected string or null", k);
	json_object_foreach((json_t *)json_object_get(p, "plumb"), k, v)
		if (!json_is_string(v))
			return plumb_err_set(err, PLUMB_EINPUT, "provenance.plumb.%.64s: "
					     "expected string", k);
	json_array_foreach(json_object_get(p, "commands"), i, e) {
		snprintf(path, sizeof(path), "commands[%zu]", i);
		if (!json_is_object(e) || !json_is_string(json_object_get(e, "bench")) ||
		    !json_is_string(json_object_get(e, "variant")) ||
		    !json_is_string(json_object_get(e, "line")))
			return bad(err, path, "expected an object with strings bench, variant "
				   "and line");
		if (json_object_get(e, "shell") && !json_is_boolean(json_object_get(e, "shell")))
			return bad(err, path, "shell: expected boolean");
	}
	json_array_foreach(json_object_get(p, "inputs"), i, e) {
		const json_t *size = json_object_get(e, "size");
		snprintf(path, sizeof(path), "inputs[%zu]", i);
		if (!json_is_object(e) || !json_is_string(json_object_get(e, "path")) ||
		    !json_is_integer(size) || json_integer_value(size) < 0 ||
		    !is_hex64(json_string_value(json_object_get(e, "sha256"))))
			return bad(err, path, "expected an object with path (string), size "
				   "(integer >= 0) and sha256 (64 lower-case hex digits)");
	}
	return 0;
}
