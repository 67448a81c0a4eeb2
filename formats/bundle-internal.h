/*
 * formats/bundle-internal.h: the pieces the bundle files share: the
 * streaming reader (zstd with a bounded window feeding libarchive's tar
 * reader, with every structural check of a member header) and the
 * deterministic writer (libarchive's tar writer feeding zstd).
 *
 * Only formats/bundle*.c and the unit tests include this file.
 *
 * Ownership: struct bundle_reader and struct bundle_writer are caller
 * storage.  After a successful bundle_reader_open_*() call
 * bundle_reader_close(); after bundle_writer_open() call exactly one of
 * bundle_writer_commit() or bundle_writer_abort(); after
 * bundle_zsink_open() or bundle_tail_open(), the matching _close().  A struct bundle_entry
 * filled by bundle_reader_next() points into the reader and is valid until
 * the next call.
 */
#ifndef PLUMB_FORMATS_BUNDLE_INTERNAL_H
#define PLUMB_FORMATS_BUNDLE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "common/fileio.h"
#include "formats/bundle.h"

struct archive;
struct archive_entry;

#define BUNDLE_README "README.txt"
#define BUNDLE_MANIFEST "manifest.json"
#define BUNDLE_SAMPLES "samples.tsv"
#define BUNDLE_SUMS "SHA256SUMS"
#define BUNDLE_SIG "SHA256SUMS.sig"
#define BUNDLE_LOGS "logs"
#define BUNDLE_ARTIFACTS "artifacts"

/* Members at least this large are hashed on a helper thread. */
#define BUNDLE_THREADED_HASH ((uint64_t)4 << 20)

/* Bytes of the previous decompressed chunk kept for the trailer check. */
#define BUNDLE_TAIL_KEEP 4096

struct bundle_entry {
	const char *name;     /* normalized: no trailing '/' on folders */
	int is_dir;
	uint64_t size;
	int64_t mtime;
};

/*
 * The raw tar header scanner (bundle-tarscan.c): follows the decompressed
 * stream header by header, ahead of libarchive, and refuses the entry
 * types and names libarchive would accept silently.
 */
#define BUNDLE_TARSCAN_EXT_MAX ((size_t)64 << 10)   /* pax or GNU long name data */

struct bundle_tarscan {
	const char *bundle;               /* in messages */
	int state;
	unsigned char hdr[512];
	size_t hdr_fill;
	uint64_t remaining, padding;      /* of the current entry's data */
	int cur_kind;                     /* 'x' or 'L' while reading one, else 0 */
	int ext_kind;                     /* the extended header before the next entry */
	unsigned char ext[BUNDLE_TARSCAN_EXT_MAX + 1];
	size_t ext_len;
	int64_t next_size;                /* a pax size record, or -1 */
	int failed;
	struct plumb_err err;
};

void bundle_tarscan_init(struct bundle_tarscan *s, const char *bundle);
/* Scan the next len bytes of the tar stream; -1 with s->err set on a refusal. */
int bundle_tarscan_feed(struct bundle_tarscan *s, const unsigned char *p, size_t len);

/*
 * The consistency check (bundle-check.c): samples.tsv against the
 * manifest, row by row while it is read, then every benchmark's recorded
 * figures against those its samples give.  bundle_check_begin() takes the
 * manifest.json bytes read so far (NULL when samples.tsv came first);
 * bundle_check_row() is a samples_row_fn; bundle_check_finish() after the
 * pass, once the manifest itself was verified, with that manifest (the one
 * bundle_check_take() handed over, or another parse of the same bytes);
 * bundle_check_release() always.
 */
struct analysis;

struct bundle_check {
	int ready;                        /* the manifest parsed before the samples */
	int unusable;
	struct manifest early;            /* that manifest, until bundle_check_take() */
	size_t n;                         /* its benchmarks */
	size_t *index;                    /* benchmark indexes sorted by name */
	size_t prev;                      /* the previous row's benchmark */
	struct analysis **an;             /* per benchmark, NULL until its first row */
	size_t rounds;                    /* distinct rounds in all analyses */
	struct bundle_diffs *diffs;       /* NULL: the first difference is refused */
	size_t checked;                   /* benchmarks re-judged */
	int fingerprint_checked;          /* a fingerprint was recomputed */
};

int bundle_check_begin(struct bundle_check *c, const char *json, size_t len,
		       struct plumb_err *err);
int bundle_check_row(void *ctx, const struct samples_row *row, struct plumb_err *err);
/*
 * Move the manifest parsed at bundle_check_begin() into m (as after
 * manifest_init()) and return 1, or return 0 when it did not parse: the
 * manifest is then parsed once, not twice, while the analyses are held.
 */
int bundle_check_take(struct bundle_check *c, struct manifest *m);
int bundle_check_finish(struct bundle_check *c, const char *bname, const struct manifest *m,
			struct plumb_err *err);
/* Collect the difference err describes (0) or refuse it (rc): see bundle_diffs. */
int bundle_check_differ(struct bundle_check *c, int rc, struct plumb_err *err);
void bundle_check_release(struct bundle_check *c);

struct bundle_reader {
	unsigned magic;
	const char *name;                 /* the bundle, in messages */
	struct bundle_limits lim;
	/* compressed input: an fd or a memory block */
	int fd;
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	const unsigned char *in;          /* inbuf, or the memory block itself */
	unsigned char *inbuf;             /* fd mode only */
	size_t in_cap, in_len, in_pos;
	int in_eof;
	uint64_t file_bytes;
	void *dctx;                       /* ZSTD_DCtx */
	int frame_open;                   /* inside a zstd frame */
	int checked_magic;
	/* decompressed output, handed to libarchive */
	unsigned char *out;
	size_t out_cap, out_len;
	unsigned char tail[BUNDLE_TAIL_KEEP];
	size_t tail_len;
	uint64_t tar_bytes;
	int src_eof;
	struct bundle_tarscan *scan;      /* every header, from the raw bytes */
	/* an error raised inside the read callback */
	struct plumb_err src_err;
	int src_failed;
	/* tar */
	struct archive *ar;
	struct archive_entry *entry;
	char *cur;                        /* the current member's name */
	int in_member;
	uint64_t member_offset;
	uint64_t declared;                /* sum of header and data sizes so far */
	char **names;                     /* every member so far */
	unsigned char *name_is_dir;
	size_t n_names;
	int done;                         /* the tar end was reached */
};

int bundle_reader_open_fd(struct bundle_reader *r, int fd, const char *name,
			  const struct bundle_limits *lim, struct plumb_err *err);
int bundle_reader_open_mem(struct bundle_reader *r, const void *data, size_t len,
			   const char *name, const struct bundle_limits *lim,
			   struct plumb_err *err);

/*
 * The next member: 1 and *e filled, 0 at the end of the archive, or an
 * error.  Every structural rule is checked here: name, type, duplicates,
 * file/folder clashes, member count, sizes against the limits.
 */
int bundle_reader_next(struct bundle_reader *r, struct bundle_entry *e,
		       struct plumb_err *err);

/*
 * The next block of the current member's data: 1 with *p and *len set, 0
 * at its end, or an error.  Unread data is skipped by the next
 * bundle_reader_next().
 */
int bundle_reader_data(struct bundle_reader *r, const void **p, size_t *len,
		       struct plumb_err *err);

/*
 * After bundle_reader_next() returned 0: only zero bytes may follow the tar
 * end, and the zstd stream must end with a complete frame.
 */
int bundle_reader_finish(struct bundle_reader *r, struct plumb_err *err);

void bundle_reader_close(struct bundle_reader *r);

/* The data limit of a member by name (manifest.json, SHA256SUMS, ...). */
uint64_t bundle_member_limit(const struct bundle_limits *lim, const char *name);

/* Quote a member name for a message: printable ASCII, else \xHH, cut at ~80 bytes. */
const char *bundle_quote(char *out, size_t size, const char *s, size_t len);

/* A zstd stream written to an fd with the writer's fixed parameters. */
struct bundle_zsink {
	void *cctx;                       /* ZSTD_CCtx */
	unsigned char *zout;
	size_t zout_cap;
	int fd;
	const char *path;                 /* in messages */
};

int bundle_zsink_open(struct bundle_zsink *z, int fd, const char *path,
		      struct plumb_err *err);
/* Compress len bytes; end != 0 then ends the frame (the next write starts one). */
int bundle_zsink_write(struct bundle_zsink *z, const void *data, size_t len, int end,
		       struct plumb_err *err);
void bundle_zsink_close(struct bundle_zsink *z);

/*
 * The last member's data and the end of the tar stream, as a zstd frame of
 * their own: data, zero padding to 512 bytes, two zero blocks.  The writer
 * ends its first frame after the last member's header, so this frame can
 * be made before the first one: `bundle pack` compresses samples.tsv while
 * it hashes and checks it, in one read of the file.
 */
struct bundle_tail {
	struct bundle_zsink z;
	uint64_t size, done;
};

int bundle_tail_open(struct bundle_tail *t, int fd, const char *path, uint64_t size,
		     struct plumb_err *err);
int bundle_tail_data(struct bundle_tail *t, const void *data, size_t len,
		     struct plumb_err *err);
int bundle_tail_finish(struct bundle_tail *t, struct plumb_err *err);
void bundle_tail_close(struct bundle_tail *t);

struct bundle_writer {
	unsigned magic;
	struct atomic_file af;
	struct bundle_zsink z;
	struct archive *ar;
	struct archive_entry *entry;
	struct plumb_err cb_err;          /* an error raised inside the write callback */
	int cb_failed;
	int discard;                      /* drop what libarchive writes from now on */
	uint64_t remaining;               /* data bytes the current entry still needs */
	char *cur;
	int last;                         /* the last member's header is written */
	struct bundle_tail tail;          /* its frame, when written here */
	int tail_open;
	int appended;                     /* its frame was copied in */
};

/* Create the temporary file beside path and start the tar and zstd streams. */
int bundle_writer_open(struct bundle_writer *w, const char *path,
		       struct plumb_err *err);

/* Start a member: a file of size bytes, or a folder (size 0). */
int bundle_writer_entry(struct bundle_writer *w, const char *name, int is_dir,
			uint64_t size, int64_t mtime, struct plumb_err *err);

/*
 * Start the last member, a file: its header ends the first zstd frame.
 * Then either its data (bundle_writer_data) or an already made tail frame
 * (bundle_writer_append) follows.
 */
int bundle_writer_last(struct bundle_writer *w, const char *name, uint64_t size,
		       int64_t mtime, struct plumb_err *err);

/* Copy a finished tail frame from fd (read from its start). */
int bundle_writer_append(struct bundle_writer *w, int fd, const char *name,
			 struct plumb_err *err);

/* Data of the current member; all of it must come before the next entry. */
int bundle_writer_data(struct bundle_writer *w, const void *data, size_t len,
		       struct plumb_err *err);

/* A whole member from memory. */
int bundle_writer_mem(struct bundle_writer *w, const char *name, const void *data,
		      size_t len, int64_t mtime, struct plumb_err *err);

/* End the tar and zstd streams, fsync, rename into place, fsync the folder. */
int bundle_writer_commit(struct bundle_writer *w, struct plumb_err *err);

/* Remove the temporary file; the destination is untouched. */
void bundle_writer_abort(struct bundle_writer *w);

/* Check SHA256SUMS text; entries receive (name, hash) pairs in order. */
struct bundle_sum {
	char *name;
	unsigned char sha256[DIGEST_BYTES];
};
int bundle_sums_parse(const char *text, size_t len, struct bundle_sum **out,
		      size_t *n, struct plumb_err *err);
void bundle_sums_free(struct bundle_sum *s, size_t n);

/* Find "bundle:<id>" in a trusted comment: 0 found (id copied), -1 absent. */
int bundle_comment_id(const char *comment, char id[BUNDLE_ID_HEX]);

#endif
