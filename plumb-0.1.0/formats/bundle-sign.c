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
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "formats/sign.h"
#include "common/banned.h"

static const struct bundle_member *member_named(const struct bundle_info *info,
						const char *name)
{
	for (size_t i = 0; i < info->n_members; i++)
		if (strcmp(info->members[i].name, name) == 0)
			return &info->members[i];
	return NULL;
}

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

static int write_sig(struct bundle_writer *w, const struct sign_secret_key *key,
		     const struct bundle_info *first, const struct buf *sums,
		     int64_t mtime, struct plumb_err *err)
{
	char comment[200];
	struct buf sig;
	int rc;

	buf_init(&sig, BUNDLE_MAX_SIG);
	bundle_trusted_comment(first->id, first->manifest.created, comment, sizeof(comment));
	rc = sign_buffer(key, sums->data, sums->len, comment, &sig, err);
	if (rc == 0)
		rc = bundle_writer_mem(w, BUNDLE_SIG, sig.data, sig.len, mtime, err);
	buf_release(&sig);
	return rc;
}

static int copy_signed(int fd, const char *path, const struct sign_secret_key *key,
		       const struct bundle_info *first, struct plumb_err *err)
{
	struct bundle_reader r;
	struct bundle_writer w;
	struct bundle_entry e;
	struct buf sums;
	unsigned char sha[DIGEST_BYTES];
	int64_t sums_mtime = 0;
	int have_sums = 0, sig_done = 0;
	int rc;

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
	while ((rc = bundle_reader_next(&r, &e, err)) > 0) {
		const struct bundle_member *m;
		int is_sums = !e.is_dir && strcmp(e.name, BUNDLE_SUMS) == 0;

		if (!e.is_dir && strcmp(e.name, BUNDLE_SIG) == 0)
			continue;   /* the old signature goes; its data is skipped */
		/* The signature goes before the first member that sorts after it. */
		if (!sig_done && have_sums && sorts_after_sig(&e)) {
			rc = write_sig(&w, key, first, &sums, sums_mtime, err);
			if (rc < 0)
				break;
			sig_done = 1;
		}
		rc = bundle_writer_entry(&w, e.name, e.is_dir, e.size, e.mtime, err);
		if (rc < 0)
			break;
		if (e.is_dir)
			continue;
		rc = copy_data(&r, &w, is_sums ? &sums : NULL, sha, e.size, err);
		if (rc < 0)
			break;
		m = member_named(first, e.name);
		if (!m || memcmp(m->sha256, sha, DIGEST_BYTES) != 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s' changed while the "
					   "bundle was being signed", path, e.name);
			break;
		}
		if (is_sums) {
			have_sums = 1;
			sums_mtime = e.mtime;
		}
	}
	if (rc == 0)
		rc = bundle_reader_finish(&r, err);
	if (rc == 0 && !sig_done) {
		if (!have_sums)
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: no SHA256SUMS member", path);
		else
			rc = write_sig(&w, key, first, &sums, sums_mtime, err);
	}
	bundle_reader_close(&r);
	buf_release(&sums);
	if (rc < 0) {
		bundle_writer_abort(&w);
		return rc;
	}
	return bundle_writer_commit(&w, err);
}

int bundle_sign(const char *path, const struct sign_secret_key *key,
		struct bundle_info *info, struct plumb_err *err)
{
	struct bundle_read_opts opts = { NULL, NULL, 0 };
	struct sign_public_key pk;
	struct bundle_info first;
	int fd, rc;

	fd = bundle_open_input(path, err);
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
