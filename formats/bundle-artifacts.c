/*
 * formats/bundle-artifacts.c: the optional artifacts/ members (executables
 * a run kept, run.keepArtifacts) against what the manifest says of them:
 * provenance.artifacts lists each with its size and SHA-256, and that
 * SHA-256 is the artifact hash build.variants recorded for the variant.
 * A stored executable that is not the one measured is refused.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/err.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "formats/manifest.h"
#include "common/banned.h"

#define ARTIFACTS_PREFIX BUNDLE_ARTIFACTS "/"

int bundle_artifact_member(const char *name)
{
	const size_t n = sizeof(ARTIFACTS_PREFIX) - 1;

	return strncmp(name, ARTIFACTS_PREFIX, n) == 0 && strlen(name) == n + 3 &&
	       (name[n] == 'b' || name[n] == 'c') &&
	       name[n + 1] >= '0' && name[n + 1] <= '9' &&
	       name[n + 2] >= '0' && name[n + 2] <= '9';
}

/* provenance.artifacts[i] naming member, or NULL (*index set when found). */
static const json_t *listed(const json_t *list, const char *member, size_t *index)
{
	const json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		const char *s = json_string_value(json_object_get(e, "member"));
		if (s && strcmp(s, member) == 0) {
			*index = i;
			return e;
		}
	}
	return NULL;
}

static const struct bundle_member *stored(const struct bundle_info *info, const char *name)
{
	for (size_t i = 0; i < info->n_members; i++)
		if (!info->members[i].is_dir && strcmp(info->members[i].name, name) == 0)
			return &info->members[i];
	return NULL;
}

/* The variant an artifact member is of: "artifacts/c01" -> candidate pad 1. */
static const struct manifest_variant *variant_of(const struct manifest *m, const char *member)
{
	const char *id = member + sizeof(ARTIFACTS_PREFIX) - 1;
	int64_t pad = (id[1] - '0') * 10 + (id[2] - '0');

	return manifest_find_variant(m, id[0] == 'b' ? MANIFEST_SIDE_BASE :
				     MANIFEST_SIDE_CANDIDATE, pad);
}

/* One stored member against its entry and its variant. */
static int check_one(const char *bname, const struct bundle_info *info,
		     const struct bundle_member *bm, const json_t *list, struct plumb_err *err)
{
	const struct manifest_variant *v;
	const json_t *e;
	size_t i = 0;
	char hex[DIGEST_HEX];

	e = listed(list, bm->name, &i);
	if (!e)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s' is not listed in "
				     "provenance.artifacts", bname, bm->name);
	digest_hex(bm->sha256, hex);
	if ((uint64_t)json_integer_value(json_object_get(e, "size")) != bm->size ||
	    strcmp(json_string_value(json_object_get(e, "sha256")), hex) != 0)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s': %llu bytes hashing to "
				     "%.16s..., not what provenance.artifacts[%zu] records", bname,
				     bm->name, (unsigned long long)bm->size, hex, i);
	v = variant_of(&info->manifest, bm->name);
	if (!v || !v->artifact_sha256 || strcmp(v->artifact_sha256, hex) != 0)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s': its SHA-256 %.16s... is "
				     "not the artifact hash build.variants records for %s",
				     bname, bm->name, hex, bm->name + sizeof(ARTIFACTS_PREFIX) - 1);
	return 0;
}

int bundle_check_artifacts(const char *bname, const struct bundle_info *info,
			   struct plumb_err *err)
{
	const json_t *list = json_object_get(info->manifest.provenance, "artifacts");
	const json_t *e;
	size_t i;
	int rc;

	for (size_t k = 0; k < info->n_members; k++) {
		const struct bundle_member *bm = &info->members[k];
		if (bm->is_dir || !bundle_artifact_member(bm->name))
			continue;
		rc = check_one(bname, info, bm, list, err);
		if (rc < 0)
			return rc;
	}
	if (info->unverified)
		return 0;   /* a folder without SHA256SUMS: its artifacts were not read */
	json_array_foreach(list, i, e) {
		const char *s = json_string_value(json_object_get(e, "member"));
		if (s && !stored(info, s))
			return plumb_err_set(err, PLUMB_EINPUT, "%s: provenance.artifacts[%zu]: "
					     "member '%s' is missing", bname, i, s);
	}
	return 0;
}
