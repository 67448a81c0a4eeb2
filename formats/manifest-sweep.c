/*
 * formats/manifest-sweep.c: run.sweep checked member by member; see
 * manifest-sweep.h.
 */
#include <string.h>

#include <jansson.h>

#include "common/err.h"
#include "formats/manifest-internal.h"
#include "formats/manifest-sweep.h"
#include "common/banned.h"

static const char *const stopped_names[] = { "decided", "maxPads", "budget", NULL };

/* o.key an integer >= min (required), into *out. */
static int get_int(const json_t *o, const char *path, const char *key, json_int_t min,
		   json_int_t *out, struct plumb_err *err)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return manifest_fail(err, "%s.%s: missing required field", path, key);
	if (!json_is_integer(v))
		return manifest_fail(err, "%s.%s: expected integer", path, key);
	if (json_integer_value(v) < min)
		return manifest_fail(err, "%s.%s: must be at least %lld", path, key, (long long)min);
	*out = json_integer_value(v);
	return 0;
}

static int get_str(const json_t *o, const char *path, const char *key, int required,
		   struct plumb_err *err)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		return required ? manifest_fail(err, "%s.%s: missing required field", path, key) : 0;
	if (!json_is_string(v) || json_string_length(v) == 0)
		return manifest_fail(err, "%s.%s: expected a non-empty string", path, key);
	return 0;
}

static int is_verdict(const char *s)
{
	return verdict_from_name(s) != VERDICT_UNSET;
}

/* An array of per-benchmark states; with_flag: each has "undecided" (bool). */
static int check_states(const json_t *o, const char *path, const char *key, int with_flag,
			struct plumb_err *err)
{
	const json_t *a = json_object_get(o, key);
	char p[160];
	size_t i;
	json_t *e;

	if (!a)
		return manifest_fail(err, "%s.%s: missing required field", path, key);
	if (!json_is_array(a))
		return manifest_fail(err, "%s.%s: expected array", path, key);
	json_array_foreach(a, i, e) {
		const json_t *u;
		int und = 1;
		snprintf(p, sizeof(p), "%s.%s[%zu]", path, key, i);
		if (!json_is_object(e))
			return manifest_fail(err, "%s: expected object", p);
		if (get_str(e, p, "bench", 1, err) < 0 || get_str(e, p, "verdict", 1, err) < 0)
			return PLUMB_EINPUT;
		if (!is_verdict(json_string_value(json_object_get(e, "verdict"))))
			return manifest_fail(err, "%s.verdict: not a verdict", p);
		if (with_flag) {
			u = json_object_get(e, "undecided");
			if (!json_is_boolean(u))
				return manifest_fail(err, "%s.undecided: %s", p,
						     u ? "expected boolean" : "missing required field");
			und = json_is_true(u);
		}
		if (get_str(e, p, "why", und, err) < 0)
			return PLUMB_EINPUT;
	}
	return 0;
}

int manifest_sweep_check(const json_t *sweep, struct plumb_err *err)
{
	const char *path = "run.sweep";
	json_int_t start, max, pads, v, at = 0, before, after, prev;
	const json_t *ext, *stopped, *of;
	json_t *e;
	size_t i;
	int known = 0;

	if (!json_is_object(sweep))
		return manifest_fail(err, "%s: expected object", path);
	if (get_int(sweep, path, "startPads", 1, &start, err) < 0 ||
	    get_int(sweep, path, "maxPads", start, &max, err) < 0 ||
	    get_int(sweep, path, "budgetNs", 0, &v, err) < 0 ||
	    get_int(sweep, path, "pads", start, &pads, err) < 0 ||
	    get_int(sweep, path, "spentNs", 0, &v, err) < 0)
		return PLUMB_EINPUT;
	if (pads > max)
		return manifest_fail(err, "%s.pads: %lld, more than maxPads %lld", path,
				     (long long)pads, (long long)max);
	if (json_object_get(sweep, "stepPads") && get_int(sweep, path, "stepPads", 1, &v, err) < 0)
		return PLUMB_EINPUT;
	stopped = json_object_get(sweep, "stopped");
	if (!stopped)
		return manifest_fail(err, "%s.stopped: missing required field", path);
	for (i = 0; json_is_string(stopped) && stopped_names[i]; i++)
		known |= strcmp(json_string_value(stopped), stopped_names[i]) == 0;
	if (!known)
		return manifest_fail(err, "%s.stopped: expected one of decided, maxPads, budget", path);
	ext = json_object_get(sweep, "extensions");
	if (!ext)
		return manifest_fail(err, "%s.extensions: missing required field", path);
	if (!json_is_array(ext))
		return manifest_fail(err, "%s.extensions: expected array", path);
	prev = start;
	json_array_foreach(ext, i, e) {
		char p[96];
		snprintf(p, sizeof(p), "%s.extensions[%zu]", path, i);
		if (!json_is_object(e))
			return manifest_fail(err, "%s: expected object", p);
		if (get_int(e, p, "padsBefore", 1, &before, err) < 0 ||
		    get_int(e, p, "padsAfter", 1, &after, err) < 0 ||
		    get_int(e, p, "rounds", 1, &v, err) < 0 ||
		    get_int(e, p, "atNs", at, &at, err) < 0 ||
		    get_int(e, p, "ns", 0, &v, err) < 0)
			return PLUMB_EINPUT;
		if ((of = json_object_get(e, "roundsOf")) &&
		    (!json_is_string(of) || (strcmp(json_string_value(of), "added") != 0 &&
					     strcmp(json_string_value(of), "every") != 0)))
			return manifest_fail(err, "%s.roundsOf: expected one of added, every", p);
		if (before != prev)
			return manifest_fail(err, "%s.padsBefore: %lld, but the sweep had %lld pads then",
					     p, (long long)before, (long long)prev);
		if (after <= before || after > max)
			return manifest_fail(err, "%s.padsAfter: %lld, not above padsBefore and at most maxPads",
					     p, (long long)after);
		if (check_states(e, p, "undecided", 0, err) < 0 ||
		    check_states(e, p, "after", 1, err) < 0)
			return PLUMB_EINPUT;
		if (json_array_size(json_object_get(e, "undecided")) == 0)
			return manifest_fail(err, "%s.undecided: empty: an extension is made for an "
					     "undecided benchmark", p);
		prev = after;
	}
	if (prev != pads)
		return manifest_fail(err, "%s.pads: %lld, but the extensions end at %lld", path,
				     (long long)pads, (long long)prev);
	return check_states(sweep, path, "final", 1, err);
}
