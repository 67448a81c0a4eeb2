/*
 * reports/source.c: what a report reads: a bundle file, an unpacked
 * bundle folder (manifest.json and, when present, samples.tsv), or a
 * bare manifest.json.  The manifest is parsed with its own budgets
 * (formats/manifest.h); the samples only feed the per-pad distributions.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/manifest.h"
#include "reports/distribution.h"
#include "reports/report.h"
#include "common/banned.h"

void report_source_init(struct report_source *s)
{
	memset(s, 0, sizeof(*s));
	manifest_init(&s->m);
	s->side = MANIFEST_SIDE_CANDIDATE;
}

void report_source_release(struct report_source *s)
{
	manifest_release(&s->m);
	free(s->bundle);
	free(s->origin);
	free(s->baseline);
	report_dist_free(s->dist);
	report_source_init(s);
}

void report_source_side(const struct report_source *s, enum manifest_side side,
			struct report_side *out)
{
	memset(out, 0, sizeof(*out));
	out->m = &s->m;
	out->side = side;
	out->bundle = s->bundle;
	out->origin = s->origin;
	out->baseline = s->baseline;
	out->dist = s->dist;
}

/* Parse the manifest held in path; errors are prefixed with path. */
static int load_manifest(struct report_source *s, const char *path,
			 struct plumb_err *err)
{
	struct buf text;
	int rc;

	buf_init(&text, MANIFEST_MAX_BYTES + 1);
	rc = file_read(path, MANIFEST_MAX_BYTES, &text, err);
	if (rc == 0) {
		rc = manifest_parse(&s->m, text.data ? text.data : "", text.len, err);
		if (rc < 0)
			plumb_err_prefix(err, "%s", path);
	}
	buf_release(&text);
	return rc;
}

int report_source_load(struct report_source *s, const char *path,
		       struct plumb_err *err)
{
	struct stat st;
	char *mpath = NULL;
	int rc;

	if (!(s->origin = strdup(path)))
		return plumb_err_oom(err, "report source");
	if (stat(path, &st) != 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path, "open");
	if (S_ISDIR(st.st_mode)) {
		size_t n = strlen(path) + sizeof("/manifest.json");
		if (!(mpath = malloc(n)))
			return plumb_err_oom(err, "report source");
		snprintf(mpath, n, "%s/manifest.json", path);
		rc = load_manifest(s, mpath, err);
		free(mpath);
		return rc;
	}
	return load_manifest(s, path, err);
}

int report_source_find(struct report_source *s, const char *what,
		       const char *dir, struct plumb_err *err)
{
	struct stat st;

	(void)dir;
	if (stat(what, &st) == 0)
		return report_source_load(s, what, err);
	return plumb_err_set(err, PLUMB_EINPUT, "baseline '%s': no such file or folder", what);
}
