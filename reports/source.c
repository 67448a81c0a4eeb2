/*
 * reports/source.c: what a report reads, and where from (source.h).
 *
 *   - a bundle file: verified completely (formats/bundle.h) before any of
 *     it is believed; its samples.tsv rows feed the per-pad distributions
 *     during that same pass;
 *   - an unpacked bundle folder: verified as a bundle is, against its
 *     SHA256SUMS when it has one (bundle_verify_dir()), else unverified;
 *     a folder holding only manifest.json is read as a bare manifest;
 *   - a bare manifest.json (what `plumb run` holds before it packs);
 *   - an archived bundle id (or a unique prefix), or for --baseline a
 *     baseline name of the archive (archive/baseline.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/baseline.h"
#include "archive/bundles.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/path.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "reports/distribution.h"
#include "reports/model.h"
#include "reports/source.h"
#include "common/banned.h"

void report_source_init(struct report_source *s)
{
	memset(s, 0, sizeof(*s));
	manifest_init(&s->m);
	s->side = MANIFEST_SIDE_CANDIDATE;
	s->want_dist = 1;
}

void report_source_release(struct report_source *s)
{
	int want = s->want_dist;

	manifest_release(&s->m);
	free(s->bundle);
	free(s->origin);
	free(s->baseline);
	report_dist_free(s->dist);
	report_source_init(s);
	s->want_dist = want;
}

void report_side_of(const struct manifest *m, enum manifest_side side, const char *bundle,
		    const char *origin, struct report_side *out)
{
	memset(out, 0, sizeof(*out));
	out->m = m;
	out->side = side;
	out->bundle = bundle;
	out->origin = origin;
}

void report_source_side(const struct report_source *s, enum manifest_side side,
			struct report_side *out)
{
	report_side_of(&s->m, side, s->bundle, s->origin, out);
	out->baseline = s->baseline;
	out->dist = s->dist;
	out->unverified = s->unverified;
}

/* A samples.tsv row into the distributions. */
static int dist_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	enum manifest_side side = row->side == SAMPLES_BASE ? MANIFEST_SIDE_BASE :
				  row->side == SAMPLES_CANDIDATE ? MANIFEST_SIDE_CANDIDATE :
				  MANIFEST_SIDE_CONTROL;

	return report_dist_add(ctx, row->bench, side, row->pad, row->round,
			       row->iter == SAMPLES_ITER_NONE ? UINT64_MAX : row->iter,
			       row->metric, row->value, err);
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

/*
 * A bundle file or folder, verified; its manifest moves into s.  name (NULL:
 * path) is what messages call a file: an archived bundle's place in its
 * store rather than a temporary copy.
 */
static int load_verified(struct report_source *s, const char *path, const char *name,
			 struct plumb_err *err)
{
	struct bundle_info info;
	int rc, fd;

	if (s->want_dist && !(s->dist = report_dist_new()))
		return plumb_err_oom(err, "report source");
	bundle_info_init(&info);
	if (!name) {
		rc = bundle_verify_any(path, NULL, s->dist ? dist_row : NULL, s->dist, &info, err);
	} else if ((rc = fd = file_open_regular(path, 0, NULL, err)) >= 0) {
		rc = bundle_verify_fd_samples(fd, name, NULL, s->dist ? dist_row : NULL, s->dist,
					      &info, err);
		close(fd);
	}
	if (rc == 0) {
		manifest_release(&s->m);
		s->m = info.manifest;
		manifest_init(&info.manifest);
		s->unverified = info.unverified;
		if (!info.unverified && !(s->bundle = strdup(info.id)))
			rc = plumb_err_oom(err, "report source");
	}
	bundle_info_release(&info);
	if (rc == 0 && s->dist)
		rc = report_dist_finish(s->dist, &s->m, err);
	return rc;
}

/* An unpacked bundle; a folder of only manifest.json is a bare manifest. */
static int load_folder(struct report_source *s, const char *dir, struct plumb_err *err)
{
	char *sums = path_join(dir, "SHA256SUMS"), *spath = path_join(dir, "samples.tsv");
	char *mpath = path_join(dir, "manifest.json");
	struct stat st;
	int rc;

	if (!sums || !spath || !mpath)
		rc = plumb_err_oom(err, "report source");
	else if (stat(sums, &st) != 0 && stat(spath, &st) != 0) {
		s->unverified = 1;
		rc = load_manifest(s, mpath, err);
	} else {
		rc = load_verified(s, dir, NULL, err);
	}
	free(sums);
	free(spath);
	free(mpath);
	return rc;
}

/* A bundle file, verified. */
static int load_bundle(struct report_source *s, const char *path, struct plumb_err *err)
{
	return load_verified(s, path, NULL, err);
}

/* Is the file at path JSON (a bare manifest) rather than a bundle? */
static int looks_like_json(const char *path)
{
	char head[64];
	struct plumb_err ignored;
	ssize_t n;
	int fd = file_open_regular(path, 0, NULL, &ignored);

	/* Not readable, not a regular file: the bundle reader says why. */
	if (fd < 0)
		return 0;
	n = read(fd, head, sizeof(head));
	close(fd);
	for (ssize_t i = 0; i < n; i++) {
		if (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')
			continue;
		return head[i] == '{';
	}
	return 0;
}

int report_source_load(struct report_source *s, const char *path,
		       struct plumb_err *err)
{
	struct stat st;

	free(s->origin);
	if (!(s->origin = strdup(path)))
		return plumb_err_oom(err, "report source");
	if (stat(path, &st) != 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path, "open");
	if (S_ISDIR(st.st_mode))
		return load_folder(s, path, err);
	if (looks_like_json(path)) {
		s->unverified = 1;
		return load_manifest(s, path, err);
	}
	return load_bundle(s, path, err);
}

/* Load an archived bundle by its full id. */
static int load_archived(struct report_source *s, struct store *st, const char *id,
			 struct plumb_err *err)
{
	char *path, *name;
	int rc;

	if ((rc = store_fetch(st, id, &path, &name, err)) < 0)
		return rc;
	rc = load_verified(s, path, name, err);
	if (st->remote)
		(void)unlink(path);
	free(path);
	free(name);
	if (rc == 0) {
		free(s->bundle);
		free(s->origin);
		s->origin = NULL;
		if (!(s->bundle = strdup(id)))
			rc = plumb_err_oom(err, "report source");
	}
	return rc;
}

int report_source_find(struct report_source *s, const char *what,
		       const char *dir, int baseline, struct plumb_err *err)
{
	char id[STORE_ID_LEN + 1], side[16];
	struct plumb_err e2;
	struct store st;
	struct stat sb;
	char *where = NULL;
	int64_t rid;
	int rc, hexid;

	if (stat(what, &sb) == 0)
		return report_source_load(s, what, err);
	hexid = strlen(what) >= 4 && strspn(what, "0123456789abcdef") == strlen(what);
	/* Not a path, and not an id: only a baseline name is left to try. */
	if (!baseline && !hexid)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, what, "open");
	plumb_err_clear(&e2);
	if ((rc = store_locate(dir, &where, err)) < 0)
		return rc;
	rc = store_open(&st, where, STORE_READONLY, &e2);
	free(where);
	if (rc < 0) {
		if (rc != PLUMB_EINPUT)
			return plumb_err_set(err, rc, "%s", e2.msg);
		return plumb_err_set(err, PLUMB_EINPUT, "%s%s': no such file or folder, "
				     "and no archive to look it up in (%s)",
				     baseline ? "baseline '" : "'", what, e2.msg);
	}
	rc = -1;
	if (baseline) {
		rc = baseline_get(&st, what, id, side, &e2);
		if (rc == 0) {
			s->side = strcmp(side, "base") == 0 ? MANIFEST_SIDE_BASE
							    : MANIFEST_SIDE_CANDIDATE;
			if (!(s->baseline = strdup(what)))
				rc = plumb_err_oom(err, "report source");
			else
				rc = load_archived(s, &st, id, err);
			store_close(&st);
			return rc;
		}
		if (rc != PLUMB_EINPUT || st.damaged) {
			store_close(&st);
			return plumb_err_set(err, rc, "%s", e2.msg);
		}
	}
	/* An archived bundle by id or unique prefix: its candidate side. */
	if (hexid) {
		plumb_err_clear(&e2);
		rc = store_resolve(&st, what, id, &rid, &e2);
		if (rc == 0)
			rc = load_archived(s, &st, id, err);
		else if (rc != PLUMB_EINPUT || st.damaged)
			rc = plumb_err_set(err, rc, "%s", e2.msg);
		else
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s", what, e2.msg);
		store_close(&st);
		return rc;
	}
	store_close(&st);
	return plumb_err_set(err, PLUMB_EINPUT, "'%s': no such file or folder%s",
			     what, baseline ? ", baseline name or archived bundle id"
					    : " or archived bundle id");
}
