/*
 * formats/bundle-sign.c: `plumb bundle sign`: add (or replace)
 * SHA256SUMS.sig in an existing bundle.
 *
 * The bundle is verified, then copied member by member into a new file
 * beside it with the signature inserted at its sorted place, and the new
 * file replaces the old one atomically.  Every copied member is hashed
 * again and compared with the first pass, so a file that changes under
 * plumb is never signed.  A bundle packed with --sign and the same bundle
 * packed unsigned and signed later are byte-identical: the trusted comment
 * holds the bundle id and the manifest's created time, not the time of
 * signing, and Ed25519 signatures are deterministic.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "formats/sign.h"
#include "common/banned.h"

/* Copy the current member's data into w, hashing it; 0 or an error. */
static int copy_data(struct bundle_reader *r, struct bundle_writer *w, struct buf *keep,
		     unsigned char sha[DIGEST_BYTES], uint64_t size, struct plumb_err *err)
{
	struct digest d;
	const void *p;
	size_t len;
	int rc = digest_init(&d, size >= BUNDLE_THREADED_HASH, err);

	if (rc < 0)
		return rc;
	while ((rc = bundle_reader_data(r, &p, &len, err)) > 0) {
		rc = digest_update(&d, p, len, err);
		if (rc == 0)
			rc = bundle_writer_data(w, p, len, err);
		if (rc == 0 && keep && buf_add(keep, p, len) < 0)
			rc = buf_err(err, BUNDLE_SUMS);
		if (rc < 0)
			break;
	}
	if (rc < 0) {
		digest_release(&d);
		return rc;
	}
	return digest_final(&d, sha, err);
}

/* Does the member's tar name sort after "SHA256SUMS.sig"? */
static int sorts_after_sig(const struct bundle_entry *e)
{
	char tarname[BUNDLE_MAX_NAME + 2];

	snprintf(tarname, sizeof(tarname), "%s%s", e->name, e->is_dir ? "/" : "");
	return strcmp(tarname, BUNDLE_SIG) > 0;
}

/* The signature file text for the bundle first describes. */
static int make_sig(const struct sign_secret_key *key, const struct bundle_info *first,
		    const struct buf *sums, struct buf *sig, struct plumb_err *err)
{
	char comment[200];

	bundle_trusted_comment(first->id, first->manifest.created, comment, sizeof(comment));
	return sign_buffer(key, sums->data, sums->len, comment, sig, err);
}

/*
 * Where the new signature goes: before member sig_at (the first that
 * sorts after it once SHA256SUMS was seen), or at the end (n).  last is
 * the index of the last member copied (not the old signature), or -1.
 */
static void plan(const struct bundle_info *first, size_t *sig_at, long *last)
{
	int have_sums = 0;

	*sig_at = first->n_members;
	*last = -1;
	for (size_t i = 0; i < first->n_members; i++) {
		const struct bundle_member *m = &first->members[i];
		struct bundle_entry e = { m->name, m->is_dir, m->size, 0 };
		if (!m->is_dir && strcmp(m->name, BUNDLE_SIG) == 0)
			continue;
		if (*sig_at == first->n_members && have_sums && sorts_after_sig(&e))
			*sig_at = i;
		if (!m->is_dir && strcmp(m->name, BUNDLE_SUMS) == 0)
			have_sums = 1;
		*last = (long)i;
	}
}

/*
 * Copy the bundle into w with the signature at its place.  The last member
 * written, when it is a file, goes through bundle_writer_last(), so the
 * result has the two zstd frames `bundle pack` writes.
 */
static int copy_signed(int fd, const char *path, const struct sign_secret_key *key,
		       const struct bundle_info *first, struct plumb_err *err)
{
	struct bundle_reader r;
	struct bundle_writer w;
	struct bundle_entry e;
	struct buf sums, sig;
	unsigned char sha[DIGEST_BYTES];
	int64_t sums_mtime = 0;
	int sig_done = 0;
	size_t sig_at, idx = 0;
	long last;
	int rc;

	plan(first, &sig_at, &last);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "seek");
	rc = bundle_reader_open_fd(&r, fd, path, NULL, err);
	if (rc < 0)
		return rc;
	rc = bundle_writer_open(&w, path, err);
	if (rc < 0) {
		bundle_reader_close(&r);
		return rc;
	}
	buf_init(&sums, BUNDLE_MAX_SUMS);
	buf_init(&sig, BUNDLE_MAX_SIG);
	while ((rc = bundle_reader_next(&r, &e, err)) > 0) {
		const struct bundle_member *m = idx < first->n_members ? &first->members[idx] : NULL;
		int is_sums = !e.is_dir && strcmp(e.name, BUNDLE_SUMS) == 0;
		size_t i = idx++;

		if (!m || strcmp(m->name, e.name) != 0 || m->size != e.size) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: changed while the bundle was "
					   "being signed", path);
			break;
		}
		if (!e.is_dir && strcmp(e.name, BUNDLE_SIG) == 0)
			continue;   /* the old signature goes; its data is skipped */
		if (i == sig_at) {
			rc = make_sig(key, first, &sums, &sig, err);
			if (rc == 0)
				rc = bundle_writer_mem(&w, BUNDLE_SIG, sig.data, sig.len, sums_mtime, err);
			if (rc < 0)
				break;
			sig_done = 1;
		}
		if ((long)i == last && !e.is_dir && sig_at != first->n_members)
			rc = bundle_writer_last(&w, e.name, e.size, e.mtime, err);
		else
			rc = bundle_writer_entry(&w, e.name, e.is_dir, e.size, e.mtime, err);
		if (rc < 0)
			break;
		if (e.is_dir)
			continue;
		rc = copy_data(&r, &w, is_sums ? &sums : NULL, sha, e.size, err);
		if (rc < 0)
			break;
		if (memcmp(m->sha256, sha, DIGEST_BYTES) != 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s' changed while the "
					   "bundle was being signed", path, e.name);
			break;
		}
		if (is_sums)
			sums_mtime = e.mtime;
	}
	if (rc == 0)
		rc = bundle_reader_finish(&r, err);
	if (rc == 0 && !sig_done) {
		/* At the end: the signature is the last member. */
		rc = make_sig(key, first, &sums, &sig, err);
		if (rc == 0)
			rc = bundle_writer_last(&w, BUNDLE_SIG, sig.len, sums_mtime, err);
		if (rc == 0)
			rc = bundle_writer_data(&w, sig.data, sig.len, err);
	}
	bundle_reader_close(&r);
	buf_release(&sums);
	buf_release(&sig);
	if (rc < 0) {
		bundle_writer_abort(&w);
		return rc;
	}
	return bundle_writer_commit(&w, err);
}

int bundle_sign(const char *path, const struct sign_secret_key *key,
		struct bundle_info *info, struct plumb_err *err)
{
	struct bundle_read_opts opts = { .limits = NULL };
	struct sign_public_key pk;
	struct bundle_info first;
	int fd, rc;

	fd = file_open_regular(path, 0, NULL, err);
	if (fd < 0)
		return fd;
	bundle_info_init(&first);
	rc = bundle_verify_fd(fd, path, &opts, &first, err);
	if (rc == 0)
		rc = copy_signed(fd, path, key, &first, err);
	close(fd);
	bundle_info_release(&first);
	if (rc < 0)
		return rc;
	/* Read back what was written, checking the new signature. */
	sign_public_key_from_secret(&pk, key);
	opts.pubkey = &pk;
	return bundle_verify_path(path, &opts, info, err);
}
