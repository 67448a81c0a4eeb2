/*
 * runner/run-artifacts.c: run.keepArtifacts, the executables a bundle
 * keeps so that an auditor can disassemble the measured code years later
 * (formats/bundle-v1.md, "artifacts/" and provenance.artifacts).
 *
 * pad0 keeps base and candidate pad 0, all every base and candidate
 * variant; never the control, a second build of base pad 0 from the same
 * tree whose hash build.variants records beside b00's.  Each is stored as
 * artifacts/<variant id>, a name made here and never from a string of the
 * repository.  One that cannot be kept within the bundle limits (a folder,
 * above BUNDLE_MAX_ARTIFACT bytes, past BUNDLE_MAX_ARTIFACTS for the run,
 * or changed since it was built) is left out and provenance.artifacts says
 * why: keeping artifacts never fails a run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/err.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "runner/build-internal.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "common/banned.h"

/* Is variant v kept under keep? */
static int wanted(const struct runner_variant *v, enum config_keep keep)
{
	if (v->control || keep == CONFIG_KEEP_NONE)
		return 0;
	return keep == CONFIG_KEEP_ALL || v->pad == 0;
}

/* Why v cannot be stored (NULL: it can), its bytes added to *total. */
static const char *left_out(const struct runner_variant *v, uint64_t *total, char *why,
			    size_t size)
{
	struct plumb_err e;
	struct stat st;
	char hex[65];
	uint64_t n = 0;

	if (!v->built || lstat(v->artifact, &st) < 0)
		return "not built";
	if (!S_ISREG(st.st_mode))
		return "not a regular file (a folder or a link is not kept)";
	if ((uint64_t)st.st_size > BUNDLE_MAX_ARTIFACT) {
		snprintf(why, size, "%llu bytes, above the limit of %llu bytes for one artifact",
			 (unsigned long long)st.st_size, (unsigned long long)BUNDLE_MAX_ARTIFACT);
		return why;
	}
	if (*total + (uint64_t)st.st_size > BUNDLE_MAX_ARTIFACTS) {
		snprintf(why, size, "the run's artifacts would pass the limit of %llu bytes",
			 (unsigned long long)BUNDLE_MAX_ARTIFACTS);
		return why;
	}
	plumb_err_clear(&e);
	if (build_artifact_digest(v->artifact, hex, &n, &e) < 0 || strcmp(hex, v->sha256) != 0)
		return "changed since it was built";
	*total += n;
	return NULL;
}

int run_artifacts(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	const struct runner_result *b = &st->build;
	json_t *list;
	uint64_t total = 0;
	int bad = 0;

	if (st->cfg->run.keep_artifacts == CONFIG_KEEP_NONE || !m->provenance)
		return 0;
	list = json_array();
	bad |= !list;
	for (size_t i = 0; list && i < b->nvariants; i++) {
		const struct runner_variant *v = &b->variants[i];
		char why[160], member[32];
		const char *no;
		json_t *e;

		if (!wanted(v, st->cfg->run.keep_artifacts))
			continue;
		no = left_out(v, &total, why, sizeof(why));
		snprintf(member, sizeof(member), "artifacts/%s", v->id);
		if (no)
			e = json_pack("{s:s, s:s}", "variant", v->id, "omitted", no);
		else
			e = json_pack("{s:s, s:s, s:I, s:s}", "variant", v->id, "member", member,
				      "size", (json_int_t)v->size, "sha256", v->sha256);
		bad |= !e || json_array_append_new(list, e) < 0;
	}
	if (bad) {
		json_decref(list);
		return plumb_err_oom(err, "manifest provenance");
	}
	if (json_object_set_new(m->provenance, "artifacts", list) < 0)
		return plumb_err_oom(err, "manifest provenance");
	return 0;
}

size_t run_artifact_logs(const struct run_state *st, const struct manifest *m,
			 struct bundle_log *out)
{
	const json_t *e;
	size_t i, n = 0;

	json_array_foreach(json_object_get(m->provenance, "artifacts"), i, e) {
		const char *member = json_string_value(json_object_get(e, "member"));
		const char *id = json_string_value(json_object_get(e, "variant"));
		if (!member || !id)
			continue;
		for (size_t k = 0; k < st->build.nvariants; k++)
			if (!st->build.variants[k].control &&
			    strcmp(st->build.variants[k].id, id) == 0) {
				out[n].name = member;
				out[n].path = st->build.variants[k].artifact;
				n++;
				break;
			}
	}
	return n;
}
