/*
 * formats/bundle-read.c: the streaming bundle reader: zstd decompression
 * with a bounded window, feeding libarchive's tar reader through read
 * callbacks, and every structural check of a member header.
 *
 * Why plumb decompresses itself instead of using libarchive's zstd filter:
 * the filter gives no way to set ZSTD_d_windowLogMax, so a frame that
 * declares a 2 GiB window (zstd --long=31) would make it allocate that
 * much.  Here the window is capped (BUNDLE_WINDOW_LOG_MAX), and the reader
 * also counts every decompressed byte against the total limit, so a
 * decompression bomb stops at the limit with a few hundred KiB of buffers.
 * libarchive only ever sees a plain tar stream, and only the tar format is
 * enabled.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>
#include <zstd_errors.h>
#include <archive.h>
#include <archive_entry.h>

#include "common/cleanup.h"
#include "common/err.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "common/banned.h"

#define READER_MAGIC 0x42524452u  /* "BRDR" */
#define IN_CHUNK ((size_t)256 << 10)

/*
 * Fill err with "<bundle>: member '<name>': <what>" (name quoted; NULL: no
 * member, "<bundle>: <what>"), exit 3's code.
 */
static int member_errv(const struct bundle_reader *r, struct plumb_err *err,
		       const char *name, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
static int member_errv(const struct bundle_reader *r, struct plumb_err *err,
		       const char *name, size_t len, const char *fmt, va_list ap)
{
	char what[PLUMB_ERR_MAX];
	char q[400];

	vsnprintf(what, sizeof(what), fmt, ap);
	if (!name)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %s", r->name, what);
	return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s': %s", r->name,
			     bundle_quote(q, sizeof(q), name, len), what);
}

/* Record an error raised while producing tar bytes; -1 for the callback. */
static int src_fail(struct bundle_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int src_fail(struct bundle_reader *r, const char *fmt, ...)
{
	const char *cur = r->in_member ? r->cur : NULL;
	va_list ap;

	va_start(ap, fmt);
	member_errv(r, &r->src_err, cur, cur ? strlen(cur) : 0, fmt, ap);
	va_end(ap);
	r->src_failed = 1;
	return -1;
}

/* Refill the compressed input; -1 on a read error. */
static int refill(struct bundle_reader *r)
{
	size_t got;

	r->in_pos = 0;
	r->in_len = 0;
	if (r->fd < 0) {
		/* Memory: the whole block at once, read in place. */
		got = r->mem_len - r->mem_pos;
		r->in = r->mem + r->mem_pos;
		r->mem_pos += got;
	} else {
		ssize_t n;
		do {
			n = read(r->fd, r->inbuf, r->in_cap);
		} while (n < 0 && errno == EINTR);
		if (n < 0) {
			plumb_err_errno(&r->src_err, PLUMB_EIO, errno, r->name, "read");
			r->src_failed = 1;
			return -1;
		}
		got = (size_t)n;
		r->in = r->inbuf;
	}
	if (got == 0) {
		r->in_eof = 1;
		return 0;
	}
	r->in_len = got;
	r->file_bytes += got;
	if (r->file_bytes > r->lim.max_file)
		return src_fail(r, "file larger than %llu bytes (the limit)",
				(unsigned long long)r->lim.max_file);
	if (!r->checked_magic) {
		/* Only the first read is checked: a clearer message than zstd's. */
		static const unsigned char zmagic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
		static const unsigned char skippable[3] = { 0x2a, 0x4d, 0x18 };
		r->checked_magic = 1;
		if (got < 4 || (memcmp(r->in, zmagic, 4) != 0 &&
				((r->in[0] & 0xf0) != 0x50 || memcmp(r->in + 1, skippable, 3) != 0))) {
			return src_fail(r, "not a zstd stream (a plumb bundle is a "
					"zstd-compressed tar archive)");
		}
	}
	return 0;
}

static int zstd_fail(struct bundle_reader *r, size_t ret)
{
	switch (ZSTD_getErrorCode(ret)) {
	case ZSTD_error_frameParameter_windowTooLarge:
		return src_fail(r, "zstd frame window larger than %llu bytes (the limit)",
				1ULL << r->lim.window_log_max);
	case ZSTD_error_checksum_wrong:
		return src_fail(r, "damaged: zstd content checksum mismatch");
	default:
		return src_fail(r, "damaged zstd stream: %s", ZSTD_getErrorName(ret));
	}
}

/*
 * Decompress the next piece of the tar stream into r->out: 1 when there
 * is data, 0 at the clean end of the zstd stream, -1 on an error.
 */
static int produce(struct bundle_reader *r)
{
	ZSTD_outBuffer ob = { r->out, r->out_cap, 0 };

	if (r->src_failed)
		return -1;
	/* Keep the end of the previous chunk for the trailer check. */
	if (r->out_len > 0) {
		size_t keep = r->out_len < BUNDLE_TAIL_KEEP ? r->out_len : BUNDLE_TAIL_KEEP;
		memcpy(r->tail, r->out + r->out_len - keep, keep);
		r->tail_len = keep;
	}
	r->out_len = 0;
	while (ob.pos == 0) {
		ZSTD_inBuffer ib;
		size_t ret;

		if (r->in_pos == r->in_len && !r->in_eof && refill(r) < 0)
			return -1;
		if (r->in_pos == r->in_len && r->in_eof) {
			if (!r->frame_open) {
				if (r->file_bytes == 0)
					return src_fail(r, "empty file");
				r->src_eof = 1;
				return 0;
			}
			/* Flush what the decoder still holds, else it was cut. */
			ib.src = r->in;
			ib.size = 0;
			ib.pos = 0;
			ret = ZSTD_decompressStream(r->dctx, &ob, &ib);
			if (ZSTD_isError(ret))
				return zstd_fail(r, ret);
			if (ret == 0)
				r->frame_open = 0;
			if (ob.pos == 0 && r->frame_open)
				return src_fail(r, "truncated: the zstd stream ends inside a frame");
			continue;
		}
		ib.src = r->in;
		ib.size = r->in_len;
		ib.pos = r->in_pos;
		ret = ZSTD_decompressStream(r->dctx, &ob, &ib);
		r->in_pos = ib.pos;
		if (ZSTD_isError(ret))
			return zstd_fail(r, ret);
		r->frame_open = ret != 0;
	}
	if (r->tar_bytes + ob.pos > r->lim.max_total)
		return src_fail(r, "uncompressed size exceeds %llu bytes (the limit)",
				(unsigned long long)r->lim.max_total);
	r->tar_bytes += ob.pos;
	r->out_len = ob.pos;
	if (bundle_tarscan_feed(r->scan, r->out, r->out_len) < 0) {
		r->src_err = r->scan->err;
		r->src_failed = 1;
		return -1;
	}
	return 1;
}

static la_ssize_t tar_read(struct archive *a, void *ctx, const void **buf)
{
	struct bundle_reader *r = ctx;
	int rc;

	(void)a;
	if (r->src_eof)
		return 0;
	rc = produce(r);
	if (rc < 0) {
		archive_set_error(a, EINVAL, "%s", r->src_err.msg);
		return -1;
	}
	if (rc == 0)
		return 0;
	*buf = r->out;
	return (la_ssize_t)r->out_len;
}

static int reader_open(struct bundle_reader *r, const char *name,
		       const struct bundle_limits *lim, struct plumb_err *err)
{
	size_t zr;

	r->magic = READER_MAGIC;
	r->name = name;
	if (lim)
		r->lim = *lim;
	else
		bundle_limits_default(&r->lim);
	plumb_err_clear(&r->src_err);
	if (r->fd >= 0) {
		r->in_cap = IN_CHUNK;
		r->inbuf = malloc(r->in_cap);
	}
	r->out_cap = ZSTD_DStreamOutSize();
	r->out = malloc(r->out_cap);
	r->dctx = ZSTD_createDCtx();
	r->scan = malloc(sizeof(*r->scan));
	if (r->scan)
		bundle_tarscan_init(r->scan, name);
	r->entry = archive_entry_new();
	r->ar = archive_read_new();
	if ((r->fd >= 0 && !r->inbuf) || !r->out || !r->dctx || !r->scan || !r->entry || !r->ar) {
		bundle_reader_close(r);
		return plumb_err_oom(err, "bundle reader");
	}
	zr = ZSTD_DCtx_setParameter(r->dctx, ZSTD_d_windowLogMax, (int)r->lim.window_log_max);
	if (ZSTD_isError(zr)) {
		bundle_reader_close(r);
		return plumb_err_set(err, PLUMB_EINTERNAL, "zstd: cannot set the window limit: %s",
				     ZSTD_getErrorName(zr));
	}
	if (archive_read_support_format_tar(r->ar) != ARCHIVE_OK ||
	    archive_read_open(r->ar, r, NULL, tar_read, NULL) != ARCHIVE_OK) {
		/* Opening reads the first block: the source may have failed. */
		if (r->src_failed) {
			*err = r->src_err;
		} else {
			plumb_err_set(err, PLUMB_EINPUT, "%s: not a tar archive: %s", name,
				      archive_error_string(r->ar) ? archive_error_string(r->ar) : "?");
		}
		bundle_reader_close(r);
		return err ? err->code : PLUMB_EINPUT;
	}
	return 0;
}

int bundle_reader_open_fd(struct bundle_reader *r, int fd, const char *name,
			  const struct bundle_limits *lim, struct plumb_err *err)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	return reader_open(r, name, lim, err);
}

int bundle_reader_open_mem(struct bundle_reader *r, const void *data, size_t len,
			   const char *name, const struct bundle_limits *lim,
			   struct plumb_err *err)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->mem = data;
	r->mem_len = len;
	return reader_open(r, name, lim, err);
}

void bundle_reader_close(struct bundle_reader *r)
{
	if (!r || r->magic != READER_MAGIC)
		return;
	if (r->ar)
		archive_read_free(r->ar);
	if (r->entry)
		archive_entry_free(r->entry);
	ZSTD_freeDCtx(r->dctx);
	free(r->inbuf);
	free(r->out);
	free(r->scan);
	for (size_t i = 0; i < r->n_names; i++)
		free(r->names[i]);
	free(r->names);
	free(r->name_is_dir);
	r->magic = 0;
}

/* A libarchive failure: the source's own error when it caused it. */
static int tar_fail(struct bundle_reader *r, struct plumb_err *err, const char *what)
{
	char q[400];
	const char *detail = archive_error_string(r->ar);

	if (r->src_failed) {
		if (err)
			*err = r->src_err;
		return r->src_err.code;
	}
	if (r->cur)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: damaged tar stream %s member '%s': %s",
				     r->name, what, bundle_quote(q, sizeof(q), r->cur, strlen(r->cur)),
				     detail ? detail : "unknown error");
	return plumb_err_set(err, PLUMB_EINPUT, "%s: damaged tar stream %s: %s", r->name,
			     r->n_names ? what : "at its start", detail ? detail : "unknown error");
}

static int member_err(struct bundle_reader *r, struct plumb_err *err,
		      const char *name, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int member_err(struct bundle_reader *r, struct plumb_err *err,
		      const char *name, size_t len, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = member_errv(r, err, name, len, fmt, ap);
	va_end(ap);
	return rc;
}

/* Is a a parent folder of b ("logs" of "logs/x.log")? */
static int is_parent(const char *a, const char *b)
{
	size_t la = strlen(a);
	return strncmp(a, b, la) == 0 && b[la] == '/';
}

static const char *type_problem(struct archive_entry *e)
{
	if (archive_entry_hardlink(e))
		return "hard link (links are not allowed in a bundle)";
	switch (archive_entry_filetype(e)) {
	case AE_IFREG:
	case AE_IFDIR:
		break;
	case AE_IFLNK:
		return "symbolic link (links are not allowed in a bundle)";
	case AE_IFCHR:
		return "character device (only files and folders are allowed)";
	case AE_IFBLK:
		return "block device (only files and folders are allowed)";
	case AE_IFIFO:
		return "FIFO (only files and folders are allowed)";
	case AE_IFSOCK:
		return "socket (only files and folders are allowed)";
	default:
		return "unknown member type (only files and folders are allowed)";
	}
	if (archive_entry_symlink(e))
		return "symbolic link (links are not allowed in a bundle)";
	if (archive_entry_sparse_count(e) > 0)
		return "sparse file (not allowed in a bundle)";
	return NULL;
}

int bundle_reader_next(struct bundle_reader *r, struct bundle_entry *e,
		       struct plumb_err *err)
{
	const char *path, *why;
	size_t len;
	int is_dir, rc;
	uint64_t size, limit;
	char **nn;
	unsigned char *nd;
	char *copy;

	if (r->done)
		return 0;
	rc = archive_read_next_header2(r->ar, r->entry);
	r->in_member = 0;
	if (rc == ARCHIVE_EOF) {
		if (r->src_failed)
			return tar_fail(r, err, "");
		r->done = 1;
		r->cur = NULL;
		return 0;
	}
	if (rc != ARCHIVE_OK)
		return tar_fail(r, err, "after");
	if (r->n_names >= r->lim.max_members)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %u members (the limit)",
				     r->name, r->lim.max_members);
	path = archive_entry_pathname(r->entry);
	if (!path)
		path = "";
	len = strlen(path);
	is_dir = archive_entry_filetype(r->entry) == AE_IFDIR;
	if (is_dir && len > 1 && path[len - 1] == '/')
		len--;
	why = bundle_name_problem(path, len);
	if (why)
		return member_err(r, err, path, len, "%s", why);
	why = type_problem(r->entry);
	if (why)
		return member_err(r, err, path, len, "%s", why);
	for (size_t i = 0; i < r->n_names; i++) {
		const char *o = r->names[i];
		if (strlen(o) == len && memcmp(o, path, len) == 0)
			return member_err(r, err, path, len, "duplicate name");
	}
	copy = strndup(path, len);
	if (!copy)
		return plumb_err_oom(err, "member name");
	for (size_t i = 0; i < r->n_names; i++) {
		if ((!r->name_is_dir[i] && is_parent(r->names[i], copy)) ||
		    (!is_dir && is_parent(copy, r->names[i]))) {
			char q[400];
			rc = member_err(r, err, copy, len, "clashes with member '%s': a file "
					"cannot also be a folder",
					bundle_quote(q, sizeof(q), r->names[i], strlen(r->names[i])));
			free(copy);
			return rc;
		}
	}
	if (!archive_entry_size_is_set(r->entry) || archive_entry_size(r->entry) < 0) {
		free(copy);
		return member_err(r, err, path, len, "no size in its header");
	}
	size = (uint64_t)archive_entry_size(r->entry);
	if (is_dir && size != 0) {
		free(copy);
		return member_err(r, err, path, len, "a folder with %llu bytes of data",
				  (unsigned long long)size);
	}
	limit = bundle_member_limit(&r->lim, copy);
	if (size > limit) {
		free(copy);
		return member_err(r, err, path, len, "%llu bytes, more than %llu (the limit)",
				  (unsigned long long)size, (unsigned long long)limit);
	}
	/* Header, data and padding, before any of the data is read. */
	r->declared += 512 + ((size + 511) / 512) * 512;
	if (r->declared > r->lim.max_total) {
		free(copy);
		return member_err(r, err, path, len, "the members' sizes add up to more than "
				  "%llu bytes (the limit)", (unsigned long long)r->lim.max_total);
	}
	nn = realloc(r->names, (r->n_names + 1) * sizeof(*nn));
	if (!nn) {
		free(copy);
		return plumb_err_oom(err, "member names");
	}
	r->names = nn;
	nd = realloc(r->name_is_dir, r->n_names + 1);
	if (!nd) {
		free(copy);
		return plumb_err_oom(err, "member names");
	}
	r->name_is_dir = nd;
	r->names[r->n_names] = copy;
	r->name_is_dir[r->n_names] = (unsigned char)is_dir;
	r->n_names++;
	r->cur = copy;
	r->in_member = 1;
	r->member_offset = 0;
	e->name = copy;
	e->is_dir = is_dir;
	e->size = size;
	e->mtime = archive_entry_mtime(r->entry);
	return 1;
}

int bundle_reader_data(struct bundle_reader *r, const void **p, size_t *len,
		       struct plumb_err *err)
{
	la_int64_t off;
	int rc;

	if (!r->in_member)
		return 0;
	/* Long members are where a SIGINT or SIGTERM is noticed. */
	if (cleanup_signal_pending())
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: interrupted", r->name);
	rc = archive_read_data_block(r->ar, p, len, &off);
	if (rc == ARCHIVE_EOF) {
		r->in_member = 0;
		return 0;
	}
	if (rc != ARCHIVE_OK)
		return tar_fail(r, err, "in");
	if (off < 0 || (uint64_t)off != r->member_offset) {
		char q[400];
		return plumb_err_set(err, PLUMB_EINPUT, "%s: member '%s': data with holes",
				     r->name, bundle_quote(q, sizeof(q), r->cur, strlen(r->cur)));
	}
	r->member_offset += *len;
	return 1;
}

/* Are the n bytes at p all zero?  (memcmp of p with p + 1 runs at memory speed.) */
static int all_zero(const unsigned char *p, size_t n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

int bundle_reader_finish(struct bundle_reader *r, struct plumb_err *err)
{
	la_int64_t consumed = archive_filter_bytes(r->ar, 0);
	uint64_t unread;
	int rc;

	if (!r->done)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: finish before the end", r->name);
	if (r->src_failed) {
		*err = r->src_err;
		return r->src_err.code;
	}
	r->cur = NULL;
	if (consumed < 0 || (uint64_t)consumed > r->tar_bytes)
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: tar position unknown", r->name);
	/* What libarchive was given but did not need: zeros only. */
	unread = r->tar_bytes - (uint64_t)consumed;
	if (unread > r->out_len + r->tail_len)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: cannot check the end of the tar "
				     "stream", r->name);
	if (unread > r->out_len) {
		size_t from_tail = (size_t)(unread - r->out_len);
		if (!all_zero(r->tail + r->tail_len - from_tail, from_tail) ||
		    !all_zero(r->out, r->out_len))
			goto trailing;
	} else if (!all_zero(r->out + r->out_len - unread, (size_t)unread)) {
		goto trailing;
	}
	while (!r->src_eof) {
		rc = produce(r);
		if (rc < 0) {
			*err = r->src_err;
			return r->src_err.code;
		}
		if (rc > 0 && !all_zero(r->out, r->out_len))
			goto trailing;
	}
	/* The decoder's window is not needed any more: give it back early. */
	ZSTD_freeDCtx(r->dctx);
	r->dctx = NULL;
	return 0;
trailing:
	return plumb_err_set(err, PLUMB_EINPUT, "%s: data after the end of the tar archive",
			     r->name);
}
