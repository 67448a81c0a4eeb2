/*
 * formats/bundle-verify.c: `plumb bundle verify` and the check every other
 * reader of a bundle runs first: one streaming pass over the file that
 * hashes every member while it reads it, parses samples.tsv on the way and
 * keeps in memory only the small members (SHA256SUMS, its signature and
 * manifest.json, each under its limit).
 *
 * The order of the checks after the pass decides which message a damaged
 * bundle gets: structure first (while reading), then SHA256SUMS and the
 * checksums, then the signature, and only then what the members say (the
 * manifest, samples.tsv), so a bit flip is reported as a checksum mismatch
 * rather than as the JSON or TSV error it causes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/path.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "formats/sign.h"
#include "common/banned.h"

enum member_kind { K_OTHER, K_SUMS, K_SIG, K_MANIFEST, K_SAMPLES, K_README };

struct verify_state {
	struct bundle_info *info;
	struct buf sums, sig, manifest;
	int seen[K_README + 1];
	struct samples_reader tsv;
	struct plumb_err tsv_err;
	int tsv_bad;
	samples_row_fn on_sample;         /* the caller's row callback, or NULL */
	void *sample_ctx;
	struct bundle_check check;        /* samples.tsv against the manifest */
	int check_begun;
	struct bundle_diffs *diffs;       /* the caller's, or NULL */
	int folder;                       /* an unpacked bundle (bundle_verify_dir) */
};

/* Each row: the consistency check, then the caller's callback. */
static int verify_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	struct verify_state *vs = ctx;
	int rc = bundle_check_row(&vs->check, row, err);

	if (rc < 0 || !vs->on_sample)
		return rc;
	return vs->on_sample(vs->sample_ctx, row, err);
}

static enum member_kind kind_of(const char *name)
{
	if (strcmp(name, BUNDLE_SUMS) == 0)
		return K_SUMS;
	if (strcmp(name, BUNDLE_SIG) == 0)
		return K_SIG;
	if (strcmp(name, BUNDLE_MANIFEST) == 0)
		return K_MANIFEST;
	if (strcmp(name, BUNDLE_SAMPLES) == 0)
		return K_SAMPLES;
	if (strcmp(name, BUNDLE_README) == 0)
		return K_README;
	return K_OTHER;
}

static struct bundle_member *add_member(struct bundle_info *info,
					const struct bundle_entry *e, const char *bname,
					struct plumb_err *err)
{
	struct bundle_member *m;
	char q[400];

	/* Under artifacts/ only the names a variant id makes (never a path). */
	if (strncmp(e->name, BUNDLE_ARTIFACTS "/", sizeof(BUNDLE_ARTIFACTS)) == 0 &&
	    (e->is_dir || !bundle_artifact_member(e->name))) {
		plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s': not an artifact name (artifacts/ "
			      "holds only files named by a variant id: artifacts/b00, "
			      "artifacts/c01)", bname, bundle_quote(q, sizeof(q), e->name, strlen(e->name)));
		return NULL;
	}
	m = realloc(info->members, (info->n_members + 1) * sizeof(*m));
	if (!m) {
		plumb_err_oom(err, "member table");
		return NULL;
	}
	info->members = m;
	m = &info->members[info->n_members];
	memset(m, 0, sizeof(*m));
	m->name = strdup(e->name);
	if (!m->name) {
		plumb_err_oom(err, "member table");
		return NULL;
	}
	m->is_dir = e->is_dir;
	m->size = e->size;
	info->n_members++;
	return m;
}

/* Where a member's data comes from: the tar stream, or a file of a folder. */
typedef int (*member_data_fn)(void *src, const void **p, size_t *len, struct plumb_err *err);

static int tar_data(void *src, const void **p, size_t *len, struct plumb_err *err)
{
	return bundle_reader_data(src, p, len, err);
}

/* Read one member's data: hash it, and keep or parse it by kind. */
static int read_member(member_data_fn data, void *src, struct verify_state *vs,
		       const struct bundle_entry *e, struct bundle_member *m,
		       const struct bundle_limits *lim, struct plumb_err *err)
{
	enum member_kind kind = kind_of(e->name);
	struct buf *keep = NULL;
	struct digest d;
	const void *p;
	size_t len;
	int rc;

	vs->seen[kind] = 1;
	if (kind == K_SUMS)
		keep = &vs->sums;
	else if (kind == K_SIG)
		keep = &vs->sig;
	else if (kind == K_MANIFEST)
		keep = &vs->manifest;
	if (kind == K_SAMPLES) {
		struct samples_limits sl = { 0, lim->max_samples_rows };
		rc = samples_reader_init(&vs->tsv, BUNDLE_SAMPLES, &sl, err);
		if (rc < 0)
			return rc;
		if (!vs->check_begun) {
			vs->check_begun = 1;
			rc = bundle_check_begin(&vs->check, vs->seen[K_MANIFEST] ? vs->manifest.data : NULL,
						vs->seen[K_MANIFEST] ? vs->manifest.len : 0, err);
			vs->check.diffs = vs->diffs;
			if (rc < 0) {
				samples_reader_release(&vs->tsv);
				return rc;
			}
			/* Parsed: the text is not needed again while the rows are read. */
			if (vs->check.ready)
				buf_release(&vs->manifest);
		}
	}
	rc = digest_init(&d, e->size >= BUNDLE_THREADED_HASH, err);
	if (rc < 0) {
		if (kind == K_SAMPLES)
			samples_reader_release(&vs->tsv);
		return rc;
	}
	while ((rc = data(src, &p, &len, err)) > 0) {
		rc = digest_update(&d, p, len, err);
		if (rc < 0)
			break;
		if (keep && buf_add(keep, p, len) < 0) {
			rc = buf_err(err, e->name);
			break;
		}
		if (kind == K_SAMPLES && !vs->tsv_bad &&
		    samples_reader_feed(&vs->tsv, p, len, verify_row, vs, &vs->tsv_err) < 0)
			vs->tsv_bad = 1;
	}
	if (rc == 0 && kind == K_SAMPLES && !vs->tsv_bad &&
	    samples_reader_finish(&vs->tsv, verify_row, vs, &vs->tsv_err) < 0)
		vs->tsv_bad = 1;
	if (kind == K_SAMPLES) {
		vs->info->samples_rows = vs->tsv.rows;
		samples_reader_release(&vs->tsv);
	}
	if (rc < 0) {
		digest_release(&d);
		return rc;
	}
	return digest_final(&d, m->sha256, err);
}

static const struct bundle_sum *find_sum(const struct bundle_sum *s, size_t n,
					 const char *name)
{
	size_t lo = 0, hi = n;

	/* SHA256SUMS is sorted (bundle_sums_parse checked it). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s[mid].name, name);
		if (c == 0)
			return &s[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static const struct bundle_member *find_member(const struct bundle_info *info,
					       const char *name)
{
	for (size_t i = 0; i < info->n_members; i++)
		if (strcmp(info->members[i].name, name) == 0)
			return &info->members[i];
	return NULL;
}

/* Every member listed, every listed member present, every checksum equal. */
static int check_sums(const char *bname, const struct bundle_info *info,
		      const struct bundle_sum *sums, size_t n, struct plumb_err *err)
{
	char q[400], h1[DIGEST_HEX], h2[DIGEST_HEX];

	for (size_t i = 0; i < info->n_members; i++) {
		const struct bundle_member *m = &info->members[i];
		const struct bundle_sum *s;
		if (m->is_dir || strcmp(m->name, BUNDLE_SUMS) == 0 ||
		    strcmp(m->name, BUNDLE_SIG) == 0)
			continue;
		s = find_sum(sums, n, m->name);
		if (!s)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s' is not listed "
					     "in SHA256SUMS", bname,
					     bundle_quote(q, sizeof(q), m->name, strlen(m->name)));
		if (memcmp(s->sha256, m->sha256, DIGEST_BYTES) != 0) {
			digest_hex(s->sha256, h1);
			digest_hex(m->sha256, h2);
			return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s': checksum "
					     "mismatch (SHA256SUMS says %.16s..., the data hashes "
					     "to %.16s...)", bname,
					     bundle_quote(q, sizeof(q), m->name, strlen(m->name)),
					     h1, h2);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct bundle_member *m = find_member(info, sums[i].name);
		if (!m || m->is_dir)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s' is listed in "
					     "SHA256SUMS but %s", bname,
					     bundle_quote(q, sizeof(q), sums[i].name,
							  strlen(sums[i].name)),
					     m ? "is a folder" : "missing");
	}
	return 0;
}

/* The signature: well-formed, for this bundle, and good with the key. */
static int check_sig(const char *bname, struct verify_state *vs,
		     const struct bundle_read_opts *opts, struct plumb_err *err)
{
	struct bundle_info *info = vs->info;
	const struct sign_public_key *key = opts ? opts->pubkey : NULL;
	struct sign_signature s;
	char id[BUNDLE_ID_HEX];
	int rc;

	if (!vs->seen[K_SIG]) {
		if (opts && opts->require_signature)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: not signed (no SHA256SUMS.sig), "
					     "and a signature is required", bname);
		info->sig = BUNDLE_SIG_NONE;
		return 0;
	}
	rc = sign_signature_parse(&s, vs->sig.data ? vs->sig.data : "", vs->sig.len, err);
	if (rc < 0)
		return plumb_err_prefix(err, "%s: SHA256SUMS.sig", bname);
	sign_keyid_hex(s.keyid, info->sig_keyid);
	memcpy(info->sig_comment, s.trusted_comment, sizeof(info->sig_comment));
	if (opts && !opts->pubkey && opts->n_pubkeys) {
		/* A keyring: the key the signature names, else a refusal naming it. */
		for (size_t i = 0; i < opts->n_pubkeys; i++)
			if (memcmp(opts->pubkeys[i].keyid, s.keyid, SIGN_KEYID_BYTES) == 0)
				key = &opts->pubkeys[i], info->sig_key = (int)i;
		if (!key && !opts->other_keys_ok)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: SHA256SUMS.sig: signed with key "
					     "%s, which is none of the %zu trusted key%s", bname,
					     info->sig_keyid, opts->n_pubkeys,
					     opts->n_pubkeys == 1 ? "" : "s");
	}
	if (key) {
		rc = sign_verify_parsed(key, vs->sums.data, vs->sums.len, &s, err);
		if (rc < 0)
			return plumb_err_prefix(err, "%s: SHA256SUMS.sig", bname);
	}
	if (bundle_comment_id(s.trusted_comment, id) < 0)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: SHA256SUMS.sig: the trusted comment "
				     "names no bundle id", bname);
	if (strcmp(id, info->id) != 0)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: SHA256SUMS.sig: the signature is for "
				     "bundle %.16s..., not this one (%.16s...)", bname, id, info->id);
	if (key) {
		info->sig = BUNDLE_SIG_GOOD;
	} else {
		if (opts && opts->require_signature)
			return plumb_err_set(err, PLUMB_EARG, "a required signature needs a "
					     "public key to check it with");
		info->sig = BUNDLE_SIG_UNCHECKED;
	}
	return 0;
}

/* What a folder's or a file's members say, once their bytes are trusted. */
static int verify_content(const char *name, struct verify_state *vs, struct plumb_err *err)
{
	struct bundle_info *info = vs->info;
	int rc;

	if (!vs->seen[K_MANIFEST])
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no manifest.json member", name);
	if (!vs->seen[K_SAMPLES])
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no samples.tsv member", name);
	/* Peak memory: SHA256SUMS is done with before the manifest is parsed,
	 * and the manifest the samples were checked against, parsed from the
	 * same bytes, is the one kept (a second parse beside it doubled what
	 * a manifest of 100,000 values costs). */
	buf_release(&vs->sums);
	buf_release(&vs->sig);
	if (!bundle_check_take(&vs->check, &info->manifest)) {
		rc = bundle_manifest_budget(vs->manifest.data, vs->manifest.len, err);
		if (rc < 0)
			return plumb_err_prefix(err, "%s: manifest.json", name);
		rc = manifest_parse(&info->manifest, vs->manifest.data ? vs->manifest.data : "",
				    vs->manifest.len, err);
		if (rc < 0)
			return plumb_err_prefix(err, "%s: manifest.json", name);
	}
	buf_release(&vs->manifest);
	if (vs->tsv_bad) {
		*err = vs->tsv_err;
		return plumb_err_prefix(err, "%s", name);
	}
	rc = bundle_check_artifacts(name, info, err);
	if (rc < 0)
		return rc;
	rc = bundle_check_finish(&vs->check, name, &info->manifest, err);
	info->checked_benches = vs->check.checked;
	info->fingerprint_checked = vs->check.fingerprint_checked;
	return rc;
}

/* SHA256SUMS against the members, the id, the signature, then the content. */
static int verify_after_pass(const char *name, struct verify_state *vs,
			     const struct bundle_read_opts *opts, struct plumb_err *err)
{
	struct bundle_info *info = vs->info;
	struct bundle_sum *sums = NULL;
	size_t n_sums = 0;
	unsigned char id[DIGEST_BYTES];
	int rc;

	if (!vs->seen[K_SUMS] && vs->folder) {
		info->unverified = 1;
		return verify_content(name, vs, err);
	}
	if (!vs->seen[K_SUMS])
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no SHA256SUMS member", name);
	rc = bundle_sums_parse(vs->sums.data, vs->sums.len, &sums, &n_sums, err);
	if (rc < 0)
		return plumb_err_prefix(err, "%s", name);
	rc = check_sums(name, info, sums, n_sums, err);
	bundle_sums_free(sums, n_sums);
	if (rc < 0)
		return rc;
	if (!vs->seen[K_MANIFEST])
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no manifest.json member", name);
	if (!vs->seen[K_SAMPLES])
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no samples.tsv member", name);
	if (!vs->seen[K_README] && !vs->folder)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: no README.txt member", name);
	digest_buffer(vs->sums.data, vs->sums.len, id);
	digest_hex(id, info->id);
	rc = check_sig(name, vs, opts, err);
	if (rc < 0)
		return rc;
	return verify_content(name, vs, err);
}

static int verify_after(struct bundle_reader *r, struct verify_state *vs,
			const struct bundle_read_opts *opts, struct plumb_err *err)
{
	vs->info->tar_bytes = r->tar_bytes;
	vs->info->file_bytes = r->file_bytes;
	return verify_after_pass(r->name, vs, opts, err);
}

static void state_init(struct verify_state *vs, const struct bundle_read_opts *opts,
		       samples_row_fn on_sample, void *sample_ctx, struct bundle_info *info)
{
	memset(vs, 0, sizeof(*vs));
	vs->info = info;
	vs->diffs = opts ? opts->diffs : NULL;
	vs->on_sample = on_sample;
	vs->sample_ctx = sample_ctx;
	buf_init(&vs->sums, BUNDLE_MAX_SUMS);
	buf_init(&vs->sig, BUNDLE_MAX_SIG);
	buf_init(&vs->manifest, BUNDLE_MAX_MANIFEST);
}

static void state_release(struct verify_state *vs)
{
	buf_release(&vs->sums);
	buf_release(&vs->sig);
	buf_release(&vs->manifest);
	if (vs->check_begun)
		bundle_check_release(&vs->check);
}

static int verify_reader(struct bundle_reader *r, const struct bundle_read_opts *opts,
			 samples_row_fn on_sample, void *sample_ctx,
			 struct bundle_info *info, struct plumb_err *err)
{
	const struct bundle_limits *lim = &r->lim;
	struct verify_state vs;
	struct bundle_entry e;
	int rc;

	state_init(&vs, opts, on_sample, sample_ctx, info);
	while ((rc = bundle_reader_next(r, &e, err)) > 0) {
		struct bundle_member *m = add_member(info, &e, r->name, err);
		if (!m) {
			rc = err ? err->code : PLUMB_EINTERNAL;
			break;
		}
		if (e.is_dir)
			continue;
		rc = read_member(tar_data, r, &vs, &e, m, lim, err);
		if (rc < 0)
			break;
	}
	if (rc == 0)
		rc = bundle_reader_finish(r, err);
	if (rc == 0)
		rc = verify_after(r, &vs, opts, err);
	state_release(&vs);
	return rc;
}

/* The checks before a bundle is opened; info is released for a fresh fill. */
static int verify_begin(const struct bundle_read_opts *opts, struct bundle_info *info,
			struct plumb_err *err)
{
	if (opts && opts->require_signature && !opts->pubkey && !opts->n_pubkeys)
		return plumb_err_set(err, PLUMB_EARG, "a required signature needs a public "
				     "key to check it with");
	bundle_info_release(info);
	return 0;
}

/* Verify through r, for which bundle_reader_open_*() returned rc; closes r. */
static int verify_opened(struct bundle_reader *r, int rc, const struct bundle_read_opts *opts,
			 samples_row_fn on_sample, void *sample_ctx,
			 struct bundle_info *info, struct plumb_err *err)
{
	if (rc < 0)
		return rc;
	rc = verify_reader(r, opts, on_sample, sample_ctx, info, err);
	bundle_reader_close(r);
	if (rc < 0)
		bundle_info_release(info);
	return rc;
}

int bundle_verify_fd_samples(int fd, const char *name, const struct bundle_read_opts *opts,
			     samples_row_fn on_sample, void *sample_ctx,
			     struct bundle_info *info, struct plumb_err *err)
{
	struct bundle_reader r;
	int rc = verify_begin(opts, info, err);

	if (rc < 0)
		return rc;
	rc = bundle_reader_open_fd(&r, fd, name, opts ? opts->limits : NULL, err);
	return verify_opened(&r, rc, opts, on_sample, sample_ctx, info, err);
}

int bundle_verify_fd(int fd, const char *name, const struct bundle_read_opts *opts,
		     struct bundle_info *info, struct plumb_err *err)
{
	return bundle_verify_fd_samples(fd, name, opts, NULL, NULL, info, err);
}

int bundle_verify_mem(const void *data, size_t len, const char *name,
		      const struct bundle_read_opts *opts, struct bundle_info *info,
		      struct plumb_err *err)
{
	struct bundle_reader r;
	int rc = verify_begin(opts, info, err);

	if (rc < 0)
		return rc;
	rc = bundle_reader_open_mem(&r, data, len, name, opts ? opts->limits : NULL, err);
	return verify_opened(&r, rc, opts, NULL, NULL, info, err);
}

int bundle_verify_path(const char *path, const struct bundle_read_opts *opts,
		       struct bundle_info *info, struct plumb_err *err)
{
	int fd = file_open_regular(path, 0, NULL, err);
	int rc;

	if (fd < 0)
		return fd;
	rc = bundle_verify_fd(fd, path, opts, info, err);
	close(fd);
	return rc;
}

int bundle_verify_path_samples(const char *path, const struct bundle_read_opts *opts,
			       samples_row_fn on_sample, void *sample_ctx,
			       struct bundle_info *info, struct plumb_err *err)
{
	int fd = file_open_regular(path, 0, NULL, err);
	int rc;

	if (fd < 0)
		return fd;
	rc = bundle_verify_fd_samples(fd, path, opts, on_sample, sample_ctx, info, err);
	close(fd);
	return rc;
}

/* ---- unpacked bundles ---------------------------------------------------- */

/* A file of a folder, read in blocks. */
struct file_src {
	int fd;
	const char *path;
	unsigned char buf[64 * 1024];
};

static int file_data(void *src, const void **p, size_t *len, struct plumb_err *err)
{
	struct file_src *f = src;
	ssize_t n;

	do
		n = read(f->fd, f->buf, sizeof(f->buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, f->path, "read");
	*p = f->buf;
	*len = (size_t)n;
	return n > 0;
}

struct dir_list {
	char **names;      /* member names, "logs/x.log" under logs/ */
	size_t n;
	int has_logs, has_artifacts, has_sums;
};

static void dir_list_free(struct dir_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of dir (prefix "", "logs" or "artifacts"), no links followed. */
static int list_files(const char *dir, const char *prefix, struct dir_list *l,
		      struct plumb_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return plumb_err_errno(err, errno == ENOENT || errno == ENOTDIR ||
				       errno == EACCES ? PLUMB_EINPUT : PLUMB_EIO, errno, dir,
				       "open folder");
	while ((errno = 0, de = readdir(d)) != NULL) {
		struct stat st;
		char *path, *name, **nn;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		path = path_join(dir, de->d_name);
		if (!path) {
			rc = plumb_err_oom(err, dir);
			break;
		}
		if (lstat(path, &st) < 0) {
			rc = plumb_err_errno(err, PLUMB_EIO, errno, path, "stat");
			free(path);
			break;
		}
		free(path);
		if (!*prefix && S_ISDIR(st.st_mode) && strcmp(de->d_name, BUNDLE_LOGS) == 0) {
			l->has_logs = 1;
			continue;
		}
		if (!*prefix && S_ISDIR(st.st_mode) && strcmp(de->d_name, BUNDLE_ARTIFACTS) == 0) {
			l->has_artifacts = 1;
			continue;
		}
		if (!S_ISREG(st.st_mode))
			continue;   /* refused below when SHA256SUMS lists it, else not a member */
		if (!*prefix && strcmp(de->d_name, BUNDLE_SUMS) == 0)
			l->has_sums = 1;
		name = *prefix ? path_join(prefix, de->d_name) : strdup(de->d_name);
		nn = name && l->n < BUNDLE_MAX_MEMBERS ?
			realloc(l->names, (l->n + 1) * sizeof(*nn)) : NULL;
		if (!nn) {
			free(name);
			rc = name ? plumb_err_set(err, PLUMB_EINPUT, "%s: more than %u files",
						  dir, BUNDLE_MAX_MEMBERS)
				  : plumb_err_oom(err, dir);
			break;
		}
		l->names = nn;
		l->names[l->n++] = name;
	}
	if (rc == 0 && errno)
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dir, "read folder");
	closedir(d);
	return rc;
}

/* One file of the folder as a member: its checks, hash and content. */
static int dir_member(const char *dir, const char *name, struct verify_state *vs,
		      const struct bundle_limits *lim, struct plumb_err *err)
{
	struct bundle_entry e = { name, 0, 0, 0 };
	struct bundle_member *m;
	struct file_src *f;
	char q[400], *path = path_join(dir, name);
	int rc;

	if (!path)
		return plumb_err_oom(err, dir);
	if (bundle_name_problem(name, strlen(name))) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s': not a member name of a bundle",
				   dir, bundle_quote(q, sizeof(q), name, strlen(name)));
		free(path);
		return rc;
	}
	rc = file_open_regular(path, O_NOFOLLOW, &e.size, err);
	if (rc < 0) {
		free(path);
		return rc;
	}
	f = malloc(sizeof(*f));
	if (!f) {
		close(rc);
		free(path);
		return plumb_err_oom(err, dir);
	}
	f->fd = rc;
	f->path = path;
	if (e.size > bundle_member_limit(lim, name))
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %llu bytes, above the limit of %llu "
				   "for this member", path, (unsigned long long)e.size,
				   (unsigned long long)bundle_member_limit(lim, name));
	else if (!(m = add_member(vs->info, &e, dir, err)))
		rc = err->code;
	else
		rc = read_member(file_data, f, vs, &e, m, lim, err);
	close(f->fd);
	free(f);
	free(path);
	return rc;
}

/* Is name read from a folder without SHA256SUMS? Only what the check needs. */
static int content_member(const char *name)
{
	return strcmp(name, BUNDLE_MANIFEST) == 0 || strcmp(name, BUNDLE_SAMPLES) == 0;
}

int bundle_verify_dir(const char *dir, const struct bundle_read_opts *opts,
		      samples_row_fn on_sample, void *sample_ctx,
		      struct bundle_info *info, struct plumb_err *err)
{
	struct bundle_limits lim;
	struct dir_list l = { NULL, 0, 0, 0, 0 };
	struct verify_state vs;
	int rc = verify_begin(opts, info, err);
	char *logs = path_join(dir, BUNDLE_LOGS), *arts = path_join(dir, BUNDLE_ARTIFACTS);

	if (rc < 0 || !logs || !arts) {
		free(logs);
		free(arts);
		return rc < 0 ? rc : plumb_err_oom(err, dir);
	}
	if (opts && opts->limits)
		lim = *opts->limits;
	else
		bundle_limits_default(&lim);
	state_init(&vs, opts, on_sample, sample_ctx, info);
	vs.folder = 1;
	rc = list_files(dir, "", &l, err);
	if (rc == 0 && l.has_logs && l.has_sums)
		rc = list_files(logs, BUNDLE_LOGS, &l, err);
	if (rc == 0 && l.has_artifacts && l.has_sums)
		rc = list_files(arts, BUNDLE_ARTIFACTS, &l, err);
	if (rc == 0)
		qsort(l.names, l.n, sizeof(*l.names), cmp_name);
	for (size_t i = 0; rc == 0 && i < l.n; i++)
		if (l.has_sums || content_member(l.names[i]))
			rc = dir_member(dir, l.names[i], &vs, &lim, err);
	if (rc == 0)
		rc = verify_after_pass(dir, &vs, opts, err);
	state_release(&vs);
	dir_list_free(&l);
	free(logs);
	free(arts);
	if (rc < 0)
		bundle_info_release(info);
	return rc;
}

int bundle_verify_any(const char *path, const struct bundle_read_opts *opts,
		      samples_row_fn on_sample, void *sample_ctx,
		      struct bundle_info *info, struct plumb_err *err)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return bundle_verify_dir(path, opts, on_sample, sample_ctx, info, err);
	return bundle_verify_path_samples(path, opts, on_sample, sample_ctx, info, err);
}
