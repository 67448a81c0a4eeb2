/*
 * formats/bundle-pack.c: `plumb bundle pack DIR`: a folder holding
 * manifest.json, samples.tsv and optionally logs/NAME.log becomes a bundle.
 *
 * This is the import path for results from other tools, so the folder is
 * checked strictly: anything unexpected in it is an error rather than
 * silently left out of the bundle, and links are not followed.  A folder
 * a bundle was extracted into (README.txt, SHA256SUMS, SHA256SUMS.sig
 * beside the rest) is checked against its SHA256SUMS first, and its own
 * README.txt and checksums are made anew.  Either way the manifest must
 * agree with its samples and its host facts (the consistency check of
 * bundle verification): pack never makes a bundle that verify refuses.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/path.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/manifest.h"
#include "common/banned.h"

struct pack_logs {
	struct bundle_log *v;
	size_t n;
	char **names, **paths;
};

static void pack_logs_free(struct pack_logs *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->names[i]);
		free(p->paths[i]);
	}
	free(p->names);
	free(p->paths);
	free(p->v);
}

static int lstat_kind(const char *path, struct stat *st, struct plumb_err *err)
{
	if (lstat(path, st) < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path, NULL);
	return 0;
}

static int scan_logs(const char *logdir, struct pack_logs *out, struct plumb_err *err)
{
	DIR *d = opendir(logdir);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, logdir, "open folder");
	while ((errno = 0, de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		size_t len = strlen(n);
		char *path, *name;
		struct stat st;

		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
			continue;
		path = path_join(logdir, n);
		name = path_join(BUNDLE_LOGS, n);
		if (!path || !name) {
			free(path);
			free(name);
			rc = plumb_err_oom(err, logdir);
			break;
		}
		rc = lstat_kind(path, &st, err);
		if (rc == 0 && !S_ISREG(st.st_mode))
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: not a regular file (logs/ may "
					   "only hold *.log files)", path);
		if (rc == 0 && (len < 5 || strcmp(n + len - 4, ".log") != 0 ||
				bundle_name_problem(n, len)))
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: not a log name (logs/ may only "
					   "hold NAME.log files, NAME from [A-Za-z0-9._-])", path);
		if (rc == 0) {
			char **nn = realloc(out->names, (out->n + 1) * sizeof(*nn));
			char **np = nn ? realloc(out->paths, (out->n + 1) * sizeof(*np)) : NULL;
			if (nn)
				out->names = nn;
			if (np)
				out->paths = np;
			if (!nn || !np) {
				rc = plumb_err_oom(err, logdir);
			} else {
				out->names[out->n] = name;
				out->paths[out->n] = path;
				out->n++;
				continue;
			}
		}
		free(path);
		free(name);
		break;
	}
	if (rc == 0 && errno)
		rc = plumb_err_errno(err, PLUMB_EIO, errno, logdir, "read folder");
	closedir(d);
	if (rc == 0 && out->n) {
		out->v = calloc(out->n, sizeof(*out->v));
		if (!out->v)
			return plumb_err_oom(err, logdir);
		for (size_t i = 0; i < out->n; i++) {
			out->v[i].name = out->names[i];
			out->v[i].path = out->paths[i];
		}
	}
	return rc;
}

int bundle_pack(const char *dir, const char *out,
		const struct sign_secret_key *sign_key, char id[BUNDLE_ID_HEX],
		struct plumb_err *err)
{
	struct pack_logs logs = { NULL, 0, NULL, NULL };
	struct bundle_write_spec spec;
	char *mpath = NULL, *spath = NULL, *lpath = NULL;
	int have_manifest = 0, have_samples = 0, have_logs = 0, have_sums = 0;
	struct buf mtext;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int rc = 0;

	buf_init(&mtext, BUNDLE_MAX_MANIFEST + 1);
	if (stat(dir, &st) < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, dir, NULL);
	if (!S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not a folder", dir);
	d = opendir(dir);
	if (!d)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, dir, "open folder");
	while ((errno = 0, de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		char *p;

		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0)
			continue;
		p = path_join(dir, n);
		if (!p) {
			rc = plumb_err_oom(err, dir);
			break;
		}
		rc = lstat_kind(p, &st, err);
		if (rc < 0) {
			free(p);
			break;
		}
		if (strcmp(n, BUNDLE_MANIFEST) == 0 && S_ISREG(st.st_mode)) {
			have_manifest = 1;
			mpath = p;
		} else if (strcmp(n, BUNDLE_SAMPLES) == 0 && S_ISREG(st.st_mode)) {
			have_samples = 1;
			spath = p;
		} else if (strcmp(n, BUNDLE_LOGS) == 0 && S_ISDIR(st.st_mode)) {
			have_logs = 1;
			lpath = p;
		} else if ((strcmp(n, BUNDLE_SUMS) == 0 || strcmp(n, BUNDLE_SIG) == 0 ||
			    strcmp(n, BUNDLE_README) == 0) && S_ISREG(st.st_mode)) {
			/* An extracted bundle's: checked below, then made anew. */
			have_sums |= strcmp(n, BUNDLE_SUMS) == 0;
			free(p);
		} else {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: unexpected %s (a folder to pack "
					   "holds manifest.json, samples.tsv and optionally "
					   "logs/*.log, no links)", p,
					   S_ISDIR(st.st_mode) ? "folder" : "file");
			free(p);
			break;
		}
	}
	if (rc == 0 && errno)
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dir, "read folder");
	closedir(d);
	if (rc == 0 && !have_manifest)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: no manifest.json", dir);
	if (rc == 0 && !have_samples)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: no samples.tsv", dir);
	if (rc == 0 && have_logs)
		rc = scan_logs(lpath, &logs, err);
	if (rc == 0 && have_sums) {
		/* The checksums of an extracted bundle: a mismatch is refused. */
		struct bundle_info info;
		bundle_info_init(&info);
		rc = bundle_verify_dir(dir, NULL, NULL, NULL, &info, err);
		bundle_info_release(&info);
	}
	if (rc == 0)
		rc = file_read(mpath, BUNDLE_MAX_MANIFEST, &mtext, err);
	if (rc == 0) {
		memset(&spec, 0, sizeof(spec));
		spec.manifest_json = mtext.data;
		spec.manifest_len = mtext.len;
		spec.manifest_name = mpath;
		spec.samples_path = spath;
		spec.logs = logs.v;
		spec.n_logs = logs.n;
		spec.mtime = -1;
		spec.sign_key = sign_key;
		spec.check_name = dir;
		rc = bundle_write(out, &spec, id, err);
	}
	buf_release(&mtext);
	pack_logs_free(&logs);
	free(mpath);
	free(spath);
	free(lpath);
	return rc;
}
