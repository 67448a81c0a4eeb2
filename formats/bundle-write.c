/*
 * formats/bundle-write.c: the deterministic bundle writer, and
 * `plumb bundle pack` (a folder of results to a bundle).
 *
 * libarchive writes the tar stream (restricted pax: plain ustar headers,
 * a pax header only for a name ustar cannot hold) into a callback that
 * compresses it with libzstd.  plumb drives zstd itself rather than
 * through libarchive's zstd filter because the format fixes parameters the
 * filter does not expose: the content checksum (so any damaged byte is
 * caught even outside the members' data) and a window that the reader's
 * limit accepts.
 *
 * What makes the output deterministic: members in byte order of their tar
 * name; every header built from scratch with owner and group 0 and no
 * owner names, mode 0644 (files) or 0755 (folders), one mtime for all, no
 * access, change or creation times; no blocking of the tar stream;
 * single-threaded zstd with fixed parameters.  Nothing of the writer's
 * environment (umask, TZ, locale, user, the order files were created in)
 * reaches the bytes.
 *
 * SHA256SUMS sorts before manifest.json and samples.tsv, so their hashes
 * are needed before they are stored.  The last member, samples.tsv (the
 * big one), is read once: hashed, checked and compressed into a zstd frame
 * of its own in a spool file, which is appended after the first frame
 * (everything up to samples.tsv's header).  Logs are read twice, hashing
 * again to catch a file that changed in between.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>
#include <archive.h>
#include <archive_entry.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "formats/sign.h"
#include "common/banned.h"

#define WRITER_MAGIC 0x42575452u  /* "BWTR" */
#define FILE_CHUNK ((size_t)1 << 20)

/* ---- zstd ----------------------------------------------------------------- */

int bundle_zsink_open(struct bundle_zsink *z, int fd, const char *path,
		      struct plumb_err *err)
{
	memset(z, 0, sizeof(*z));
	z->fd = fd;
	z->path = path;
	z->zout_cap = ZSTD_CStreamOutSize();
	z->zout = malloc(z->zout_cap);
	z->cctx = ZSTD_createCCtx();
	if (!z->zout || !z->cctx) {
		bundle_zsink_close(z);
		return plumb_err_oom(err, "zstd");
	}
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel,
						BUNDLE_ZSTD_LEVEL)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_windowLog,
						BUNDLE_ZSTD_WINDOW_LOG)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_checksumFlag, 1)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_contentSizeFlag, 0))) {
		bundle_zsink_close(z);
		return plumb_err_set(err, PLUMB_EINTERNAL, "zstd: cannot set the parameters");
	}
	return 0;
}

int bundle_zsink_write(struct bundle_zsink *z, const void *data, size_t len, int end,
		       struct plumb_err *err)
{
	ZSTD_inBuffer ib = { data, len, 0 };
	ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
	size_t ret;

	do {
		ZSTD_outBuffer ob = { z->zout, z->zout_cap, 0 };
		ret = ZSTD_compressStream2(z->cctx, &ob, &ib, mode);
		if (ZSTD_isError(ret))
			return plumb_err_set(err, PLUMB_EINTERNAL, "zstd: %s",
					     ZSTD_getErrorName(ret));
		if (ob.pos > 0 && write_all(z->fd, z->zout, ob.pos, z->path, err) < 0)
			return err ? err->code : PLUMB_EIO;
	} while (end ? ret != 0 : ib.pos < ib.size);
	return 0;
}

void bundle_zsink_close(struct bundle_zsink *z)
{
	ZSTD_freeCCtx(z->cctx);
	free(z->zout);
	z->cctx = NULL;
	z->zout = NULL;
}

int bundle_tail_open(struct bundle_tail *t, int fd, const char *path, uint64_t size,
		     struct plumb_err *err)
{
	t->size = size;
	t->done = 0;
	return bundle_zsink_open(&t->z, fd, path, err);
}

int bundle_tail_data(struct bundle_tail *t, const void *data, size_t len,
		     struct plumb_err *err)
{
	if (len > t->size - t->done)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: the last member is longer "
				     "than its header says", t->z.path);
	t->done += len;
	return bundle_zsink_write(&t->z, data, len, 0, err);
}

int bundle_tail_finish(struct bundle_tail *t, struct plumb_err *err)
{
	static const unsigned char zeros[1024 + 512];
	size_t pad = (size_t)((512 - t->size % 512) % 512);

	if (t->done != t->size)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: the last member is %llu bytes "
				     "short", t->z.path, (unsigned long long)(t->size - t->done));
	/* Padding of the data, then the two zero blocks that end a tar archive. */
	return bundle_zsink_write(&t->z, zeros, pad + 1024, 1, err);
}

void bundle_tail_close(struct bundle_tail *t)
{
	bundle_zsink_close(&t->z);
}

/* ---- the tar + zstd stream ---------------------------------------------- */

static la_ssize_t tar_write(struct archive *a, void *ctx, const void *buf, size_t len)
{
	struct bundle_writer *w = ctx;

	if (w->discard)
		return (la_ssize_t)len;
	if (w->cb_failed)
		return -1;
	if (bundle_zsink_write(&w->z, buf, len, 0, &w->cb_err) < 0) {
		w->cb_failed = 1;
		archive_set_error(a, EIO, "%s", w->cb_err.msg);
		return -1;
	}
	return (la_ssize_t)len;
}

/* A libarchive failure: the callback's own error when it caused it. */
static int ar_fail(struct bundle_writer *w, struct plumb_err *err, const char *what)
{
	if (w->cb_failed) {
		if (err)
			*err = w->cb_err;
		return w->cb_err.code;
	}
	return plumb_err_set(err, PLUMB_EINTERNAL, "%s: tar %s: %s", w->af.path, what,
			     archive_error_string(w->ar) ? archive_error_string(w->ar) : "?");
}

/*
 * Drop libarchive without letting anything more reach the file: its output
 * is discarded while it closes.  (Closing rather than archive_write_fail():
 * libarchive 3.6 leaks an entry's pax state when freed in the failed
 * state.  Closing writes the unwritten data as zeros, into the discard.)
 */
static void drop_archive(struct bundle_writer *w)
{
	if (w->ar) {
		w->discard = 1;
		archive_write_close(w->ar);
		archive_write_free(w->ar);
		w->ar = NULL;
	}
}

static void writer_free(struct bundle_writer *w)
{
	drop_archive(w);
	if (w->entry)
		archive_entry_free(w->entry);
	w->entry = NULL;
	if (w->tail_open)
		bundle_tail_close(&w->tail);
	w->tail_open = 0;
	bundle_zsink_close(&w->z);
	w->magic = 0;
}

int bundle_writer_open(struct bundle_writer *w, const char *path,
		       struct plumb_err *err)
{
	int rc;

	memset(w, 0, sizeof(*w));
	rc = atomic_file_open(&w->af, path, 0644, err);
	if (rc < 0)
		return rc;
	w->magic = WRITER_MAGIC;
	plumb_err_clear(&w->cb_err);
	rc = bundle_zsink_open(&w->z, w->af.fd, w->af.tmp_path, err);
	if (rc < 0) {
		bundle_writer_abort(w);
		return rc;
	}
	w->entry = archive_entry_new();
	w->ar = archive_write_new();
	if (!w->entry || !w->ar) {
		bundle_writer_abort(w);
		return plumb_err_oom(err, "bundle writer");
	}
	/* bytes_per_block 0: no blocking, no padding beyond the tar end blocks. */
	if (archive_write_set_format_pax_restricted(w->ar) != ARCHIVE_OK ||
	    archive_write_set_bytes_per_block(w->ar, 0) != ARCHIVE_OK ||
	    archive_write_open2(w->ar, w, NULL, tar_write, NULL, NULL) != ARCHIVE_OK) {
		rc = ar_fail(w, err, "open");
		bundle_writer_abort(w);
		return rc;
	}
	return 0;
}

int bundle_writer_entry(struct bundle_writer *w, const char *name, int is_dir,
			uint64_t size, int64_t mtime, struct plumb_err *err)
{
	char tarname[BUNDLE_MAX_NAME + 2];

	if (w->remaining)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: member '%s' is %llu bytes short",
				     w->af.path, w->cur ? w->cur : "?",
				     (unsigned long long)w->remaining);
	if (w->last)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: a member after the last one",
				     w->af.path);
	if (snprintf(tarname, sizeof(tarname), "%s%s", name, is_dir ? "/" : "") >=
	    (int)sizeof(tarname))
		return plumb_err_set(err, PLUMB_EINPUT, "member name too long: %.80s...", name);
	archive_entry_clear(w->entry);
	archive_entry_set_pathname(w->entry, tarname);
	archive_entry_set_filetype(w->entry, is_dir ? AE_IFDIR : AE_IFREG);
	archive_entry_set_perm(w->entry, is_dir ? 0755 : 0644);
	archive_entry_set_size(w->entry, is_dir ? 0 : (la_int64_t)size);
	archive_entry_set_mtime(w->entry, (time_t)mtime, 0);
	archive_entry_set_uid(w->entry, 0);
	archive_entry_set_gid(w->entry, 0);
	if (archive_write_header(w->ar, w->entry) != ARCHIVE_OK)
		return ar_fail(w, err, "header");
	w->remaining = is_dir ? 0 : size;
	w->cur = (char *)name;
	return 0;
}

int bundle_writer_last(struct bundle_writer *w, const char *name, uint64_t size,
		       int64_t mtime, struct plumb_err *err)
{
	int rc = bundle_writer_entry(w, name, 0, size, mtime, err);

	if (rc < 0)
		return rc;
	/*
	 * libarchive has written the header (no blocking); what it would add
	 * now is this member's data and the tar end, which the tail frame
	 * holds instead.
	 */
	drop_archive(w);
	rc = bundle_zsink_write(&w->z, NULL, 0, 1, err);
	if (rc < 0)
		return rc;
	w->last = 1;
	rc = bundle_tail_open(&w->tail, w->af.fd, w->af.tmp_path, size, err);
	if (rc == 0)
		w->tail_open = 1;
	return rc;
}

int bundle_writer_append(struct bundle_writer *w, int fd, const char *name,
			 struct plumb_err *err)
{
	unsigned char buf[65536];

	if (!w->last || w->tail.done)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: a tail frame out of place",
				     w->af.path);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, name, "seek");
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return plumb_err_errno(err, PLUMB_EIO, errno, name, "read");
		}
		if (n == 0)
			break;
		if (atomic_file_write(&w->af, buf, (size_t)n, err) < 0)
			return err ? err->code : PLUMB_EIO;
	}
	w->appended = 1;
	w->remaining = 0;
	return 0;
}

int bundle_writer_data(struct bundle_writer *w, const void *data, size_t len,
		       struct plumb_err *err)
{
	const char *p = data;

	if (len > w->remaining)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: member '%s' is longer than "
				     "its header says", w->af.path, w->cur ? w->cur : "?");
	if (w->last) {
		if (w->appended)
			return plumb_err_set(err, PLUMB_EINTERNAL, "%s: data after the tail",
					     w->af.path);
		w->remaining -= len;
		return bundle_tail_data(&w->tail, data, len, err);
	}
	while (len > 0) {
		la_ssize_t n = archive_write_data(w->ar, p, len);
		if (n <= 0)
			return ar_fail(w, err, "data");
		p += n;
		len -= (size_t)n;
		w->remaining -= (uint64_t)n;
	}
	return 0;
}

int bundle_writer_mem(struct bundle_writer *w, const char *name, const void *data,
		      size_t len, int64_t mtime, struct plumb_err *err)
{
	int rc = bundle_writer_entry(w, name, 0, len, mtime, err);
	if (rc < 0)
		return rc;
	return bundle_writer_data(w, data, len, err);
}

int bundle_writer_commit(struct bundle_writer *w, struct plumb_err *err)
{
	int rc;

	if (w->remaining) {
		rc = plumb_err_set(err, PLUMB_EINTERNAL, "%s: member '%s' is %llu bytes short",
				   w->af.path, w->cur ? w->cur : "?",
				   (unsigned long long)w->remaining);
		bundle_writer_abort(w);
		return rc;
	}
	if (w->last) {
		/* The tail frame ends the stream (or was copied in whole). */
		rc = w->appended ? 0 : bundle_tail_finish(&w->tail, err);
	} else if (archive_write_close(w->ar) != ARCHIVE_OK) {
		rc = ar_fail(w, err, "close");
	} else {
		rc = bundle_zsink_write(&w->z, NULL, 0, 1, err);
	}
	if (rc < 0) {
		bundle_writer_abort(w);
		return rc;
	}
	if (w->ar) {
		archive_write_free(w->ar);
		w->ar = NULL;
	}
	writer_free(w);
	return atomic_file_commit(&w->af, err);
}

void bundle_writer_abort(struct bundle_writer *w)
{
	if (!w || w->magic != WRITER_MAGIC)
		return;
	writer_free(w);
	atomic_file_abort(&w->af);
}

/* ---- bundle_write ------------------------------------------------------- */

enum src_kind { SRC_MEM, SRC_FILE, SRC_DIR };

struct wmember {
	char *name;                 /* member name ("logs" for the folder) */
	char *tarname;              /* sort key: "logs/" for the folder */
	enum src_kind kind;
	const char *data;           /* SRC_MEM */
	const char *path;           /* SRC_FILE */
	int is_samples;
	uint64_t size;
	unsigned char sha256[DIGEST_BYTES];
};

struct wlist {
	struct wmember *v;
	size_t n;
};

static void wlist_free(struct wlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].tarname);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static struct wmember *wlist_add(struct wlist *l, const char *name, enum src_kind kind,
				 struct plumb_err *err)
{
	struct wmember *v = realloc(l->v, (l->n + 1) * sizeof(*v));
	struct wmember *m;

	if (!v) {
		plumb_err_oom(err, "member list");
		return NULL;
	}
	l->v = v;
	m = &v[l->n];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->name = strdup(name);
	m->tarname = malloc(strlen(name) + 2);
	if (!m->name || !m->tarname) {
		free(m->name);
		free(m->tarname);
		plumb_err_oom(err, "member list");
		return NULL;
	}
	snprintf(m->tarname, strlen(name) + 2, "%s%s", name, kind == SRC_DIR ? "/" : "");
	l->n++;
	return m;
}

static int cmp_tarname(const void *a, const void *b)
{
	const struct wmember *x = a, *y = b;
	return strcmp(x->tarname, y->tarname);
}

/* The writer's limit for a member: the reader's default one. */
static uint64_t write_limit(const char *name)
{
	struct bundle_limits lim;

	bundle_limits_default(&lim);
	return bundle_member_limit(&lim, name);
}

/*
 * One pass over a file member: hash it, and check it as samples.tsv (pass
 * 1); also compress it into a tail frame on spool (the last member, pass
 * 1), or store it (pass 2, w != NULL).  Exactly m->size bytes must come.
 */
static int file_pass(struct wmember *m, struct bundle_writer *w, int spool,
		     const char *spool_name, int64_t mtime, unsigned char *chunk, unsigned char sha[DIGEST_BYTES],
		     struct bundle_check *chk, struct plumb_err *err)
{
	struct digest d;
	struct samples_reader tsv;
	struct bundle_tail tail;
	uint64_t size = 0, total = 0;
	int fd, rc;
	int check_tsv = m->is_samples && !w;
	int to_tail = spool >= 0;

	fd = file_open_regular(m->path, O_NOFOLLOW, &size, err);
	if (fd < 0)
		return fd;
	if (!w) {
		m->size = size;
		if (size > write_limit(m->name)) {
			close(fd);
			return plumb_err_set(err, PLUMB_EINPUT, "%s: %llu bytes, more than %llu "
					     "(the limit for %s in a bundle)", m->path,
					     (unsigned long long)size,
					     (unsigned long long)write_limit(m->name), m->name);
		}
	}
	if (check_tsv) {
		rc = samples_reader_init(&tsv, m->path, NULL, err);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	rc = digest_init(&d, m->size >= BUNDLE_THREADED_HASH, err);
	if (rc < 0)
		goto out_tsv;
	if (to_tail) {
		rc = bundle_tail_open(&tail, spool, spool_name, m->size, err);
		if (rc < 0) {
			to_tail = 0;
			goto out_digest;
		}
	}
	if (w) {
		rc = bundle_writer_entry(w, m->name, 0, m->size, mtime, err);
		if (rc < 0)
			goto out_digest;
	}
	for (;;) {
		ssize_t n = read(fd, chunk, FILE_CHUNK);
		if (n < 0) {
			if (errno == EINTR && !cleanup_signal_pending())
				continue;
			rc = plumb_err_errno(err, PLUMB_EIO, errno, m->path, "read");
			goto out_digest;
		}
		if (cleanup_signal_pending()) {
			rc = plumb_err_set(err, PLUMB_EINTERNAL, "interrupted");
			goto out_digest;
		}
		if (n == 0)
			break;
		total += (uint64_t)n;
		if (total > m->size) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: the file grew while it was "
					   "being packed", m->path);
			goto out_digest;
		}
		rc = digest_update(&d, chunk, (size_t)n, err);
		if (rc < 0)
			goto out_digest;
		if (check_tsv) {
			rc = samples_reader_feed(&tsv, chunk, (size_t)n, chk ? bundle_check_row : NULL,
						 chk, err);
			if (rc < 0)
				goto out_digest;
		}
		if (w) {
			rc = bundle_writer_data(w, chunk, (size_t)n, err);
			if (rc < 0)
				goto out_digest;
		}
		if (to_tail) {
			rc = bundle_tail_data(&tail, chunk, (size_t)n, err);
			if (rc < 0)
				goto out_digest;
		}
	}
	if (total != m->size) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: the file shrank while it was being "
				   "packed", m->path);
		goto out_digest;
	}
	if (check_tsv) {
		rc = samples_reader_finish(&tsv, chk ? bundle_check_row : NULL, chk, err);
		if (rc < 0)
			goto out_digest;
	}
	if (to_tail) {
		rc = bundle_tail_finish(&tail, err);
		if (rc < 0)
			goto out_digest;
	}
	rc = digest_final(&d, sha, err);
	goto out_tsv;
out_digest:
	digest_release(&d);
out_tsv:
	if (to_tail)
		bundle_tail_close(&tail);
	if (check_tsv)
		samples_reader_release(&tsv);
	close(fd);
	return rc;
}

/* The entries' mtime: SOURCE_DATE_EPOCH, else run.end, else created. */
static int resolve_mtime(const struct manifest *m, int64_t *out, struct plumb_err *err)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");

	if (sde && *sde) {
		char *end;
		long long v;
		errno = 0;
		v = strtoll(sde, &end, 10);
		if (errno || *end || v < 0 || sde[0] < '0' || sde[0] > '9' || v > 8589934591LL)
			return plumb_err_set(err, PLUMB_EARG, "SOURCE_DATE_EPOCH: '%.40s' is not "
					     "a number of seconds since 1970", sde);
		*out = v;
		return 0;
	}
	if (m->run.end && manifest_time_parse(m->run.end, out) == 0)
		return 0;
	if (m->created && manifest_time_parse(m->created, out) == 0)
		return 0;
	return plumb_err_set(err, PLUMB_EINPUT, "manifest.json: created: not a time");
}

/* SHA256SUMS text of every member but the folders, in name order. */
static int make_sums(const struct wlist *l, struct buf *out, struct plumb_err *err)
{
	char hex[DIGEST_HEX];

	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].kind == SRC_DIR)
			continue;
		digest_hex(l->v[i].sha256, hex);
		if (buf_printf(out, "%s  %s\n", hex, l->v[i].name) < 0)
			return buf_err(err, "SHA256SUMS");
	}
	return 0;
}

static int check_log_name(const char *name, struct plumb_err *err)
{
	char q[400];
	const char *why = bundle_name_problem(name, strlen(name));
	size_t len = strlen(name);

	if (why)
		return plumb_err_set(err, PLUMB_EINPUT, "log '%s': %s",
				     bundle_quote(q, sizeof(q), name, len), why);
	if (strncmp(name, BUNDLE_ARTIFACTS "/", sizeof(BUNDLE_ARTIFACTS)) == 0) {
		if (!bundle_artifact_member(name))
			return plumb_err_set(err, PLUMB_EINPUT, "artifact '%s': not a name of "
					     "the form artifacts/ID (ID a variant id: b00, c01)",
					     bundle_quote(q, sizeof(q), name, len));
		return 0;
	}
	if (strncmp(name, BUNDLE_LOGS "/", sizeof(BUNDLE_LOGS)) != 0 ||
	    strchr(name + sizeof(BUNDLE_LOGS), '/') || len < sizeof(BUNDLE_LOGS) + 5 ||
	    strcmp(name + len - 4, ".log") != 0)
		return plumb_err_set(err, PLUMB_EINPUT, "log '%s': not a name of the form "
				     "logs/NAME.log", bundle_quote(q, sizeof(q), name, len));
	return 0;
}

/* The artifacts/ members against the manifest, as verification checks them. */
static int check_artifacts(const struct wlist *l, const struct manifest *man,
			   const char *mname, struct plumb_err *err)
{
	struct bundle_info info;
	int rc;

	bundle_info_init(&info);
	info.members = calloc(l->n ? l->n : 1, sizeof(*info.members));
	if (!info.members)
		return plumb_err_oom(err, "member table");
	for (size_t i = 0; i < l->n; i++) {
		info.members[i].name = l->v[i].name;
		info.members[i].is_dir = l->v[i].kind == SRC_DIR;
		info.members[i].size = l->v[i].size;
		memcpy(info.members[i].sha256, l->v[i].sha256, DIGEST_BYTES);
	}
	info.n_members = l->n;
	info.manifest = *man;      /* borrowed: not released here */
	rc = bundle_check_artifacts(mname, &info, err);
	free(info.members);
	return rc;
}

int bundle_write(const char *out, const struct bundle_write_spec *spec,
		 char id[BUNDLE_ID_HEX], struct plumb_err *err)
{
	const char *mname = spec->manifest_name ? spec->manifest_name : BUNDLE_MANIFEST;
	struct manifest man;
	struct wlist l = { NULL, 0 };
	struct buf readme, sums, sig;
	struct bundle_writer w;
	struct wmember *m;
	unsigned char *chunk = NULL;
	unsigned char h[DIGEST_BYTES];
	uint64_t total = 0;
	int64_t mtime = spec->mtime;
	int sums_done = 0;
	int spool = -1;
	char *spool_name = NULL;
	struct wmember *last;
	struct bundle_check chk;
	int checking = 0;
	int rc;

	buf_init(&readme, BUNDLE_MAX_README);
	buf_init(&sums, BUNDLE_MAX_SUMS);
	buf_init(&sig, BUNDLE_MAX_SIG);
	manifest_init(&man);
	if (spec->manifest_len > BUNDLE_MAX_MANIFEST) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: larger than %llu bytes (the limit "
				   "of a bundle's manifest.json)", mname,
				   (unsigned long long)BUNDLE_MAX_MANIFEST);
		goto out;
	}
	rc = bundle_manifest_budget(spec->manifest_json, spec->manifest_len, err);
	if (rc == 0)
		rc = manifest_parse(&man, spec->manifest_json, spec->manifest_len, err);
	if (rc < 0) {
		plumb_err_prefix(err, "%s", mname);
		goto out;
	}
	if (spec->check_name) {
		rc = bundle_check_begin(&chk, spec->manifest_json, spec->manifest_len, err);
		checking = 1;
		if (rc < 0)
			goto out;
	}
	if (mtime < 0) {
		rc = resolve_mtime(&man, &mtime, err);
		if (rc < 0)
			goto out;
	}
	rc = bundle_readme(&readme, err);
	if (rc < 0)
		goto out;

	/* The member list, sorted as the tar stream holds it. */
	if (!(m = wlist_add(&l, BUNDLE_README, SRC_MEM, err)) ||
	    (m->data = readme.data, m->size = readme.len, 0) ||
	    !(m = wlist_add(&l, BUNDLE_MANIFEST, SRC_MEM, err)) ||
	    (m->data = spec->manifest_json, m->size = spec->manifest_len, 0) ||
	    !(m = wlist_add(&l, BUNDLE_SAMPLES, SRC_FILE, err)) ||
	    (m->path = spec->samples_path, m->is_samples = 1, 0)) {
		rc = err ? err->code : PLUMB_EINTERNAL;
		goto out;
	}
	for (int dir = 0; dir < 2; dir++) {
		/* The folders logs/ and artifacts/, each when a member is in it. */
		const char *folder = dir ? BUNDLE_ARTIFACTS : BUNDLE_LOGS;
		size_t flen = strlen(folder);
		for (size_t i = 0; i < spec->n_logs; i++)
			if (strncmp(spec->logs[i].name, folder, flen) == 0 &&
			    spec->logs[i].name[flen] == '/') {
				if (!wlist_add(&l, folder, SRC_DIR, err)) {
					rc = err ? err->code : PLUMB_EINTERNAL;
					goto out;
				}
				break;
			}
	}
	for (size_t i = 0; i < spec->n_logs; i++) {
		rc = check_log_name(spec->logs[i].name, err);
		if (rc < 0)
			goto out;
		for (size_t j = 0; j < i; j++)
			if (strcmp(spec->logs[i].name, spec->logs[j].name) == 0) {
				rc = plumb_err_set(err, PLUMB_EINPUT, "log '%s' given twice",
						   spec->logs[i].name);
				goto out;
			}
		m = wlist_add(&l, spec->logs[i].name, SRC_FILE, err);
		if (!m) {
			rc = err ? err->code : PLUMB_EINTERNAL;
			goto out;
		}
		m->path = spec->logs[i].path;
	}
	if (l.n + 2 > BUNDLE_MAX_MEMBERS) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "more than %u members (the limit)",
				   BUNDLE_MAX_MEMBERS);
		goto out;
	}
	qsort(l.v, l.n, sizeof(*l.v), cmp_tarname);
	/*
	 * The last member (samples.tsv) is read once: hashed, checked and
	 * compressed into its own zstd frame in pass 1 (bundle_tail).
	 */
	last = &l.v[l.n - 1];
	if (last->kind != SRC_FILE || strcmp(last->tarname, BUNDLE_SIG) <= 0)
		last = NULL;

	/* Pass 1: hash and check everything before anything is created. */
	chunk = malloc(FILE_CHUNK);
	if (!chunk) {
		rc = plumb_err_oom(err, "read buffer");
		goto out;
	}
	for (size_t i = 0; i < l.n; i++) {
		m = &l.v[i];
		if (m->kind == SRC_MEM) {
			if (m->size > write_limit(m->name)) {
				rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %llu bytes, more than the "
						   "limit", m->name, (unsigned long long)m->size);
				goto out;
			}
			digest_buffer(m->data, m->size, m->sha256);
		} else if (m->kind == SRC_FILE) {
			if (m == last) {
				/* The tail frame's scratch file, in the bundle's folder:
				 * it disappears with plumb whatever happens. */
				spool = tempfile_open_unnamed(out, "spool", &spool_name, err);
				if (spool < 0) {
					rc = spool;
					goto out;
				}
			}
			rc = file_pass(m, NULL, m == last ? spool : -1, spool_name, mtime,
				       chunk, m->sha256, m->is_samples && checking ? &chk : NULL, err);
			if (rc < 0)
				goto out;
		}
		total += 512 + (m->size + 511) / 512 * 512;
	}
	/* What the manifest says against its samples, before anything is written. */
	if (checking && (rc = bundle_check_finish(&chk, spec->check_name, &man, err)) < 0)
		goto out;
	rc = make_sums(&l, &sums, err);
	if (rc < 0)
		goto out;
	total += 512 + (sums.len + 511) / 512 * 512 + 512 + BUNDLE_MAX_SIG + 1024;
	if (total > BUNDLE_MAX_TOTAL) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "the members add up to more than %llu "
				   "bytes (the limit of a bundle)",
				   (unsigned long long)BUNDLE_MAX_TOTAL);
		goto out;
	}
	rc = check_artifacts(&l, &man, mname, err);
	if (rc < 0)
		goto out;
	digest_buffer(sums.data, sums.len, h);
	digest_hex(h, id);
	if (spec->sign_key) {
		char comment[200];
		bundle_trusted_comment(id, man.created, comment, sizeof(comment));
		rc = sign_buffer(spec->sign_key, sums.data, sums.len, comment, &sig, err);
		if (rc < 0)
			goto out;
	}

	/* Pass 2: the tar stream, in order. */
	rc = bundle_writer_open(&w, out, err);
	if (rc < 0)
		goto out;
	for (size_t i = 0; i < l.n && rc == 0; i++) {
		m = &l.v[i];
		if (!sums_done && strcmp(m->tarname, BUNDLE_SUMS) > 0) {
			rc = bundle_writer_mem(&w, BUNDLE_SUMS, sums.data, sums.len, mtime, err);
			if (rc == 0 && sig.len)
				rc = bundle_writer_mem(&w, BUNDLE_SIG, sig.data, sig.len, mtime, err);
			sums_done = 1;
			if (rc < 0)
				break;
		}
		if (m == last) {
			rc = bundle_writer_last(&w, m->name, m->size, mtime, err);
			if (rc == 0)
				rc = bundle_writer_append(&w, spool, spool_name, err);
		} else if (m->kind == SRC_MEM) {
			rc = bundle_writer_mem(&w, m->name, m->data, m->size, mtime, err);
		} else if (m->kind == SRC_DIR) {
			rc = bundle_writer_entry(&w, m->name, 1, 0, mtime, err);
		} else {
			rc = file_pass(m, &w, -1, NULL, mtime, chunk, h, NULL, err);
			if (rc == 0 && memcmp(h, m->sha256, DIGEST_BYTES) != 0)
				rc = plumb_err_set(err, PLUMB_EINPUT, "%s: the file changed while it "
						   "was being packed", m->path);
		}
	}
	if (rc == 0 && !sums_done) {
		rc = bundle_writer_mem(&w, BUNDLE_SUMS, sums.data, sums.len, mtime, err);
		if (rc == 0 && sig.len)
			rc = bundle_writer_mem(&w, BUNDLE_SIG, sig.data, sig.len, mtime, err);
	}
	if (rc < 0) {
		bundle_writer_abort(&w);
		goto out;
	}
	rc = bundle_writer_commit(&w, err);
	if (rc == 0 && spec->parsed) {
		manifest_release(spec->parsed);
		*spec->parsed = man;
		manifest_init(&man);
	}
out:
	if (spool >= 0)
		close(spool);
	free(spool_name);
	free(chunk);
	wlist_free(&l);
	buf_release(&readme);
	buf_release(&sums);
	buf_release(&sig);
	manifest_release(&man);
	if (checking)
		bundle_check_release(&chk);
	return rc;
}
