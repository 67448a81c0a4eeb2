/*
 * formats/config-spec.c: a bundle's recorded configuration (manifest
 * spec, the effective configuration config_to_json() wrote) read back
 * into a struct plumb_config: `plumb run --from BUNDLE`.
 *
 * Every recorded key goes through config_set(), as if read from a
 * plumb.conf, so the same checks and messages apply; its origin in
 * messages is "BUNDLE: spec".  A key this plumb does not know is an error
 * naming it: a configuration that cannot be applied whole is not run.  A
 * bundle is data: the keys of this machine's lock, cache and archive are
 * refused (config_spec_key_check()), its signature is checked against the
 * trusted keys for the caller to decide whether its commands may run, and
 * the commits it recorded are pinned for the checkout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "common/banned.h"

int config_value_text(const json_t *v, struct buf *out)
{
	size_t i;
	const json_t *e;
	char t[UNITS_EXACT_MAX];

	switch (json_typeof(v)) {
	case JSON_NULL:
		return 1;
	case JSON_STRING:
		return buf_addstr(out, json_string_value(v));
	case JSON_INTEGER:
		return buf_printf(out, "%lld", (long long)json_integer_value(v));
	case JSON_REAL:
		units_exact(json_real_value(v), UNITS_EXACT_PLAIN, t);
		return buf_addstr(out, t);
	case JSON_TRUE:
		return buf_addstr(out, "true");
	case JSON_FALSE:
		return buf_addstr(out, "false");
	case JSON_ARRAY:
		/* Word lists (run.env, hot) by blanks; CPU numbers by commas. */
		json_array_foreach(v, i, e) {
			int rc = json_is_integer(e) ?
				buf_printf(out, "%s%lld", i ? "," : "", (long long)json_integer_value(e)) :
				json_is_string(e) ?
				buf_printf(out, "%s%s", i ? " " : "", json_string_value(e)) : -1;
			if (rc < 0)
				return -1;
		}
		return 0;
	default:
		return -1;
	}
}

static int set_one(struct plumb_config *cfg, const char *name, const json_t *v,
		   const char *origin, struct plumb_err *err)
{
	struct buf t;
	int rc;

	buf_init(&t, (size_t)1 << 20);
	rc = config_value_text(v, &t);
	if (rc < 0)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s: not a value plumb.conf can hold",
				   origin, name);
	else if (rc == 0 && (rc = config_spec_key_check(name, buf_cstr(&t), origin, err)) == 0)
		rc = config_set(cfg, name, buf_cstr(&t), origin, err);
	else if (rc > 0)
		rc = 0;   /* null: not set */
	buf_release(&t);
	return rc;
}

/* One section's keys; an object value (run.label) is one key=value each. */
static int set_section(struct plumb_config *cfg, const char *prefix, const json_t *sec,
		       const char *origin, struct plumb_err *err)
{
	const char *key, *k2;
	const json_t *v, *v2;
	int rc = 0;

	json_object_foreach((json_t *)sec, key, v) {
		char *name;
		if (!(name = buf_strdupf("%s%s", prefix, key)))
			return plumb_err_oom(err, "configuration");
		if (json_is_object(v)) {
			json_object_foreach((json_t *)v, k2, v2) {
				char *kv;
				if (!json_is_string(v2)) {
					rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s.%s: expected a "
							   "string", origin, name, k2);
					break;
				}
				if (!(kv = buf_strdupf("%s=%s", k2, json_string_value(v2)))) {
					rc = plumb_err_oom(err, "configuration");
					break;
				}
				rc = config_set(cfg, name, kv, origin, err);
				free(kv);
				if (rc < 0)
					break;
			}
		} else {
			rc = set_one(cfg, name, v, origin, err);
		}
		free(name);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int config_from_spec(struct plumb_config *cfg, const json_t *spec, const char *origin,
		     struct plumb_err *err)
{
	const char *sec;
	const json_t *v;
	int rc;

	if (!json_is_object(spec))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not an object", origin);
	json_object_foreach((json_t *)spec, sec, v) {
		if (strcmp(sec, "bench") == 0) {
			size_t i;
			const json_t *b;
			json_array_foreach(v, i, b) {
				const char *name = json_string_value(json_object_get(b, "name"));
				char *prefix;
				json_t *rest;
				if (!name)
					return plumb_err_set(err, PLUMB_EINPUT, "%s: bench[%zu]: no name",
							     origin, i);
				if (!(prefix = buf_strdupf("bench.%s.", name)) ||
				    !(rest = json_deep_copy(b))) {
					free(prefix);
					return plumb_err_oom(err, "configuration");
				}
				json_object_del(rest, "name");
				rc = set_section(cfg, prefix, rest, origin, err);
				json_decref(rest);
				free(prefix);
				if (rc < 0)
					return rc;
			}
			continue;
		}
		if (!json_is_object(v))
			return plumb_err_set(err, PLUMB_EINPUT, "%s: %s: expected a section", origin,
					     sec);
		{
			char *prefix = buf_strdupf("%s.", sec);
			if (!prefix)
				return plumb_err_oom(err, "configuration");
			rc = set_section(cfg, prefix, v, origin, err);
			free(prefix);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/*
 * The remote URL to check the commits out of when no --repo is given and
 * the folder the run recorded (repo.url, a local path) is no repository
 * any more: provenance.remote, when recorded.  NULL otherwise.
 */
static const char *recorded_remote(const struct manifest *m, const char *repo)
{
	const char *remote = json_string_value(json_object_get(m->provenance, "remote"));
	const char *path = m->repo.url;
	struct stat st;

	if (repo || !remote || !path || path[0] != '/')
		return NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return NULL;
	return remote;
}

/* The signature against the trusted keys, as config_load_bundle() reports it. */
static void note_trust(const struct bundle_info *info, struct config_from *from)
{
	from->unverified = info->unverified;
	from->trusted = info->sig == BUNDLE_SIG_GOOD;
	from->signed_by_other = info->sig == BUNDLE_SIG_UNCHECKED;
	snprintf(from->keyid, sizeof(from->keyid), "%s",
		 info->sig == BUNDLE_SIG_NONE ? "" : info->sig_keyid);
}

/* The commits the bundle recorded, pinned unless a flag replaced the revision. */
static int pin_commits(struct plumb_config *cfg, const char *bundle, const struct manifest *m,
		       const struct config_overrides *ov, struct plumb_err *err)
{
	const char *commit[2] = { m->repo.base.commit, m->repo.candidate.commit };
	const char *flag[2] = { ov ? ov->base : NULL, ov ? ov->candidate : NULL };

	if (!(cfg->from.bundle = strdup(bundle)))
		return plumb_err_oom(err, "configuration");
	for (int s = 0; s < 2; s++)
		if (commit[s] && !flag[s] && !(cfg->from.commit[s] = strdup(commit[s])))
			return plumb_err_oom(err, "configuration");
	return 0;
}

int config_load_bundle(struct plumb_config *cfg, const char *bundle, struct config_from *from,
		       struct plumb_err *err)
{
	struct bundle_read_opts ro = { .limits = NULL };
	struct bundle_info info;
	char *origin = buf_strdupf("%s: spec", bundle);
	const char *path, *remote = NULL, *repo = from->repo;
	int rc;

	bundle_info_init(&info);
	if (!origin)
		return plumb_err_oom(err, "configuration");
	/* A signature by a trusted key is checked; one by another key is only noted. */
	ro.pubkeys = from->keys;
	ro.n_pubkeys = from->n_keys;
	ro.other_keys_ok = 1;
	rc = config_init(cfg, err);
	if (rc == 0)
		rc = bundle_verify_any(bundle, from->n_keys ? &ro : NULL, NULL, NULL, &info, err);
	if (rc == 0)
		note_trust(&info, from);
	if (rc == 0 && (remote = recorded_remote(&info.manifest, repo))) {
		/* The recorded folder is gone: its remote, as recorded. */
		json_t *spec = json_deep_copy(info.manifest.spec);
		json_t *r = json_object_get(spec, "repo");
		if (!spec || !r)
			rc = spec ? plumb_err_set(err, PLUMB_EINPUT, "%s: no repo section", origin)
				  : plumb_err_oom(err, "configuration");
		if (rc == 0) {
			json_object_del(r, "path");
			json_object_del(r, "url");
			rc = config_from_spec(cfg, spec, origin, err);
		}
		if (rc == 0)
			rc = config_set(cfg, "repo.url", remote, origin, err);
		json_decref(spec);
	} else if (rc == 0) {
		rc = config_from_spec(cfg, info.manifest.spec, origin, err);
	}
	/* The repository the run used: the recorded folder, when the spec
	 * names it relative to a plumb.conf this bundle does not hold. */
	path = repo ? repo : info.manifest.repo.url;
	if (rc == 0 && !remote && cfg->repo.path && (repo || (path && path[0] == '/' &&
							      cfg->repo.path[0] != '/')))
		rc = config_set(cfg, "repo.path", path, repo ? "--repo" : origin, err);
	if (rc == 0)
		rc = pin_commits(cfg, bundle, &info.manifest, from->ov, err);
	if (rc == 0)
		rc = config_apply_overrides(cfg, from->ov, err);
	if (rc == 0)
		rc = config_check(cfg, err);
	bundle_info_release(&info);
	free(origin);
	if (rc < 0)
		config_release(cfg);
	return rc;
}
