/*
 * archive/ingest.h: what the archive keeps of one verified bundle, and
 * the code that turns it into rows.
 *
 * struct ingest_record is the archive's own view of a bundle: its id and
 * file hash, the manifest fields the queries need, the host fingerprint
 * and the per-benchmark summaries.  ingest_read_bundle() fills it from a
 * bundle file through the bundle library (formats/bundle.h), which does
 * all the verifying; ingest_insert() writes it.  Everything that adds
 * rows (archive add, gc adopting a file, plumb run --archive, the bench
 * helper) goes through ingest_insert(), so there is one insert path.
 *
 * Ownership: struct ingest_record is caller-owned storage; every string
 * and array in it is malloc'd and freed by ingest_record_release().
 */
#ifndef PLUMB_ARCHIVE_INGEST_H
#define PLUMB_ARCHIVE_INGEST_H

#include <stddef.h>
#include <stdint.h>

#include "archive/store.h"

struct manifest;
struct plumb_err;

/* One side (base or candidate) of one benchmark; NAN marks a missing value. */
struct ingest_side {
	double center, min, max, spread;
	double *pads;    /* the pad medians, in pad order */
	size_t npads;
};

struct ingest_bench {
	char *name;
	char *mode;      /* process | samples | gbench, or NULL */
	char *metric;    /* wall | cpu | cycles | instructions | ..., or NULL */
	char *verdict;   /* slower | faster | placement | unswept ... | insufficient, or NULL */
	struct ingest_side base, cand;
	double ratio;    /* candidate center / base center, or NAN */
	double noise;    /* control noise relative to the center, or NAN */
};

/* A commit a side was built from; time is seconds since the epoch. */
struct ingest_ref {
	char *ref;       /* as asked (v1.2.0, HEAD), or NULL */
	char *commit;    /* full commit id, or NULL */
	int64_t time;    /* commit time */
	int has_time;
};

struct ingest_label {
	char *key, *value;
};

struct ingest_record {
	char id[STORE_ID_LEN + 1];          /* bundle id: SHA-256 of SHA256SUMS */
	char file_sha256[STORE_ID_LEN + 1]; /* SHA-256 of the whole file */
	int64_t size;                       /* file size in bytes */
	int64_t created;                    /* manifest creation time, epoch seconds */
	char *plumb_version;                /* tool version that wrote it, or NULL */
	char *format_version;               /* "1" or "1.2" */
	char *repo;                         /* repository path or URL, or NULL */
	char *project;                      /* run.project, else repo; NULL when neither */
	struct ingest_ref base, cand;
	const char *signature;              /* "none" | "present" | "verified" (static) */
	char sig_key[17];                   /* key id of SHA256SUMS.sig (16 hex), "" unsigned */
	char *sig_comment;                  /* its trusted comment, NULL unsigned */
	char *host_fingerprint;             /* NULL when the bundle has no host facts */
	char *host_facts;                   /* JSON object text, with the fingerprint */
	struct ingest_bench *benches;
	size_t nbenches;
	struct ingest_label *labels;
	size_t nlabels;
};

void ingest_record_init(struct ingest_record *rec);
void ingest_record_release(struct ingest_record *rec);

/* Append an empty benchmark / a label; NULL or -1 when out of memory. */
struct ingest_bench *ingest_add_bench(struct ingest_record *rec);
int ingest_add_label(struct ingest_record *rec, const char *key, const char *value);

/*
 * Verify the bundle at path completely (every limit, checksum and, when
 * present, the signature's form) and fill rec from it, except the file
 * hash and size, which the copy into the store computes.  A bundle that
 * does not verify is PLUMB_EINPUT naming path and the member.
 */
int ingest_read_bundle(const char *path, struct ingest_record *rec,
		       struct plumb_err *err);

/* The same from an open file, read from its current offset; name is for messages. */
/* The same, checking the signature with pubkey (NULL: not checked against a key). */
struct sign_public_key;
int ingest_read_bundle_fd_key(int fd, const char *name, const struct sign_public_key *pubkey,
			      struct ingest_record *rec, struct plumb_err *err);
int ingest_read_bundle_fd(int fd, const char *name, struct ingest_record *rec,
			  struct plumb_err *err);

/*
 * Fill rec's manifest-derived fields (everything but the id, the file
 * hash and size, and the signature state) from a parsed manifest.
 */
int ingest_from_manifest(const struct manifest *m, struct ingest_record *rec,
			 struct plumb_err *err);

/*
 * Insert rec's rows (host, bundle, benchmarks, labels).  Must run inside
 * store_begin(); *rid receives the new row number.  A bundle already
 * present is PLUMB_EINPUT (callers check first, under the same lock).
 */
int ingest_insert(struct store *st, const struct ingest_record *rec,
		  int64_t *rid, struct plumb_err *err);

#endif
