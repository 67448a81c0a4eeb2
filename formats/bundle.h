/*
 * formats/bundle.h: result bundles (format v1, formats/bundle-v1.md):
 * writing, verifying, extracting and signing.
 *
 * A bundle is a tar stream (POSIX pax, ustar headers) compressed with
 * zstd.  Its members are README.txt, manifest.json, samples.tsv, optional
 * logs/<name>.log, optional artifacts/<variant> (an executable, named by
 * its variant id: b00, c01), SHA256SUMS (the SHA-256 of every other member) and an
 * optional SHA256SUMS.sig (minisign).  The bundle id is the SHA-256 of the
 * SHA256SUMS member, so signing does not change it.
 *
 * Writing is deterministic: the same members give the same bytes whatever
 * the umask, time zone, locale, user or file creation order; the file
 * appears whole under its name or not at all (common/fileio.h).
 *
 * Reading treats the file as hostile.  Every limit below is enforced while
 * streaming, memory stays bounded whatever the file's size, nothing is
 * written to disk, and every failure is PLUMB_EINPUT with a message naming
 * the bundle and the member (and the JSON path or TSV line inside it).
 *
 * Ownership: struct bundle_info and struct bundle_limits are caller-owned
 * storage; bundle_info_init() sets an info up and bundle_info_release()
 * frees what a successful read put in it (the parsed manifest and the
 * member table).  Option structs and the strings they point to are
 * borrowed for the duration of a call.
 */
#ifndef PLUMB_FORMATS_BUNDLE_H
#define PLUMB_FORMATS_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/digest.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "formats/sign.h"

struct buf;
struct plumb_err;

/* The numeric limits of format v1 (formats/bundle-v1.md, "Limits"). */
#define BUNDLE_MAX_FILE        ((uint64_t)4 << 30)   /* compressed file, bytes */
#define BUNDLE_MAX_TOTAL       ((uint64_t)4 << 30)   /* uncompressed tar stream */
#define BUNDLE_MAX_MEMBER      ((uint64_t)2 << 30)   /* one member's data */
#define BUNDLE_MAX_MEMBERS     1024u                 /* tar entries, folders included */
#define BUNDLE_MAX_NAME        4096u                 /* bytes of a member name */
#define BUNDLE_MAX_COMPONENT   255u                  /* bytes of one name component */
#define BUNDLE_WINDOW_LOG_MAX  23                    /* zstd window <= 8 MiB */
#define BUNDLE_MAX_README      ((uint64_t)64 << 10)
#define BUNDLE_MAX_SUMS        ((uint64_t)8 << 20)   /* SHA256SUMS */
#define BUNDLE_MAX_SIG         ((uint64_t)SIGN_TEXT_MAX)
#define BUNDLE_MAX_MANIFEST    ((uint64_t)1 << 20)   /* below MANIFEST_MAX_BYTES: see
                                                        bundle-v1.md, Limits */
#define BUNDLE_MAX_LOG         ((uint64_t)64 << 20)  /* each logs/ member */
#define BUNDLE_MAX_ARTIFACT    ((uint64_t)64 << 20)  /* each artifacts/ member */
#define BUNDLE_MAX_ARTIFACTS   ((uint64_t)1 << 30)   /* all artifacts/ members a run stores */
#define BUNDLE_MAX_JSON_VALUES 100000u               /* in manifest.json */
#define BUNDLE_MAX_ROUNDS      1000000u              /* distinct (bench, side, pad, round)
                                                        of the verdict metrics */
#define BUNDLE_MAX_DRAWS       2000000000u           /* bootstrap draws: resamples x rounds
                                                        of the margin and overlap benches */

/* zstd parameters of the writer. */
#define BUNDLE_ZSTD_LEVEL      3
#define BUNDLE_ZSTD_WINDOW_LOG 23

#define BUNDLE_ID_HEX          DIGEST_HEX            /* 64 hex digits and a NUL */

/* Reader limits; bundle_limits_default() fills the v1 values. Tests shrink them. */
struct bundle_limits {
	uint64_t max_file;
	uint64_t max_total;
	uint64_t max_member;
	unsigned max_members;
	unsigned window_log_max;
	uint64_t max_samples_rows;    /* 0: SAMPLES_DEFAULT_MAX_ROWS */
};

void bundle_limits_default(struct bundle_limits *lim);

enum bundle_sig_state {
	BUNDLE_SIG_NONE,        /* no SHA256SUMS.sig */
	BUNDLE_SIG_UNCHECKED,   /* present and well-formed, for this bundle; no key given */
	BUNDLE_SIG_GOOD         /* checked with the given public key */
};

struct bundle_member {
	char *name;             /* "logs" for the folder entry "logs/" */
	int is_dir;
	uint64_t size;
	unsigned char sha256[DIGEST_BYTES];
};

struct bundle_info {
	char id[BUNDLE_ID_HEX];             /* SHA-256 of SHA256SUMS, hex; "" for a
	                                       folder without SHA256SUMS */
	int unverified;                     /* a folder without SHA256SUMS: its members
	                                       were not checked against checksums */
	struct manifest manifest;           /* parsed manifest.json */
	struct bundle_member *members;      /* in archive order */
	size_t n_members;
	uint64_t file_bytes;                /* compressed size */
	uint64_t tar_bytes;                 /* uncompressed size of the tar stream */
	uint64_t samples_rows;              /* data rows of samples.tsv */
	enum bundle_sig_state sig;
	char sig_keyid[SIGN_KEYID_HEX];     /* when sig != NONE */
	char sig_comment[SIGN_TRUSTED_COMMENT_MAX + 1];
	int sig_key;                        /* GOOD: index of the key in pubkeys[] (0 for pubkey) */
	size_t checked_benches;             /* benchmarks re-judged from their samples */
	int fingerprint_checked;            /* host fingerprints recomputed from their facts */
};

void bundle_info_init(struct bundle_info *info);
void bundle_info_release(struct bundle_info *info);

/*
 * Consistency differences collected instead of refused (`plumb audit`):
 * with bundle_read_opts.diffs set, a bundle that contradicts its own
 * samples still verifies, and every difference found (the first
 * BUNDLE_DIFFS_MAX of them kept) is a message naming the JSON path or TSV
 * line, as the refusal would have said it.  on_bench, when set, sees every
 * benchmark's reduction of its samples after its check (the audit judges
 * it again under today's rule).  Caller-owned storage: zero it, and
 * bundle_diffs_release() frees the messages.
 */
#define BUNDLE_DIFFS_MAX 100
struct analysis_result;
struct bundle_diffs {
	char *msg[BUNDLE_DIFFS_MAX];
	size_t n;            /* messages kept */
	size_t total;        /* differences found */
	int (*on_bench)(void *ctx, size_t bench, const struct analysis_result *r,
			struct plumb_err *err);
	void *ctx;
};

void bundle_diffs_release(struct bundle_diffs *d);

struct bundle_read_opts {
	const struct bundle_limits *limits;      /* NULL: v1 defaults */
	const struct sign_public_key *pubkey;    /* NULL: signature not checked */
	int require_signature;                   /* a good signature or PLUMB_EINPUT */
	struct bundle_diffs *diffs;              /* NULL: a difference is refused */
	/* Keys to choose from by the signature's key id (beside pubkey): a
	 * signature by none of them is PLUMB_EINPUT naming its key id, unless
	 * other_keys_ok: then info->sig is BUNDLE_SIG_UNCHECKED (a signature by
	 * one of them that does not check is refused either way). */
	const struct sign_public_key *pubkeys;
	size_t n_pubkeys;
	int other_keys_ok;
};

/*
 * Verify a bundle completely: every limit, the tar structure, every
 * checksum, the manifest, samples.tsv and, with a public key, the
 * signature.  Writes nothing.  On success info (initialized by the caller)
 * describes the bundle.  name is used in messages.
 */
int bundle_verify_fd(int fd, const char *name, const struct bundle_read_opts *opts,
		     struct bundle_info *info, struct plumb_err *err);
int bundle_verify_path(const char *path, const struct bundle_read_opts *opts,
		       struct bundle_info *info, struct plumb_err *err);
int bundle_verify_mem(const void *data, size_t len, const char *name,
		      const struct bundle_read_opts *opts, struct bundle_info *info,
		      struct plumb_err *err);

/*
 * bundle_verify_path(), also handing every row of samples.tsv to on_sample
 * as the pass parses it (the reports' per-pad distributions read the
 * samples this way, without a second pass or a copy on disk).  Rows arrive
 * before the checksums are known: keep what the callback gathered only
 * when the call succeeds.  A callback error stops the pass like a
 * malformed row.
 */
int bundle_verify_path_samples(const char *path, const struct bundle_read_opts *opts,
			       samples_row_fn on_sample, void *sample_ctx,
			       struct bundle_info *info, struct plumb_err *err);
/* The same from an open file (read from its offset), named name in messages. */
int bundle_verify_fd_samples(int fd, const char *name, const struct bundle_read_opts *opts,
			     samples_row_fn on_sample, void *sample_ctx,
			     struct bundle_info *info, struct plumb_err *err);

/*
 * Verify an unpacked bundle: the folder dir holding manifest.json,
 * samples.tsv, optionally logs/ *.log and, as `bundle extract` writes them,
 * README.txt, SHA256SUMS and SHA256SUMS.sig.  With SHA256SUMS every member
 * is checked against it as in a bundle file (a file it does not list, or a
 * listed one missing, is refused), the id is the same and the signature is
 * checked; without it info->unverified is set and the id is "".  The
 * consistency check runs either way.  Other files are refused when
 * SHA256SUMS is present and ignored otherwise.
 */
int bundle_verify_dir(const char *dir, const struct bundle_read_opts *opts,
		      samples_row_fn on_sample, void *sample_ctx,
		      struct bundle_info *info, struct plumb_err *err);

/* bundle_verify_dir() for a folder, bundle_verify_path_samples() otherwise. */
int bundle_verify_any(const char *path, const struct bundle_read_opts *opts,
		      samples_row_fn on_sample, void *sample_ctx,
		      struct bundle_info *info, struct plumb_err *err);

/*
 * Verify the bundle at path, then write its members under dir.  dir is
 * created when missing; a non-empty dir is PLUMB_EARG unless force (then
 * files of the same name are replaced).  Nothing is ever written outside
 * dir, and when verification fails nothing is written at all.
 */
int bundle_extract(const char *path, const char *dir, int force,
		   const struct bundle_read_opts *opts, struct bundle_info *info,
		   struct plumb_err *err);

/*
 * One log or artifact to pack: its member name ("logs/build-b00.log",
 * "artifacts/b00") and its file.
 */
struct bundle_log {
	const char *name;
	const char *path;
};

/* What bundle_write() packs. */
struct bundle_write_spec {
	const char *manifest_json;     /* manifest.json bytes, checked here */
	size_t manifest_len;
	const char *manifest_name;     /* in messages; NULL: "manifest.json" */
	const char *samples_path;      /* samples.tsv, checked while hashed */
	const struct bundle_log *logs; /* logs and artifacts: any order; written sorted */
	size_t n_logs;
	int64_t mtime;                 /* every entry's mtime (seconds); -1:
	                                  SOURCE_DATE_EPOCH, else run.end, else created */
	const struct sign_secret_key *sign_key;  /* NULL: no SHA256SUMS.sig */
	/* Not NULL: also the consistency check of bundle verification (the
	 * manifest against its samples, the host fingerprint against its
	 * facts) in the first pass, its messages naming this (the folder). */
	const char *check_name;
	/* Not NULL: on success, the manifest as parsed from manifest_json
	 * (what a reader of the bundle parses), moved here (initialized by
	 * the caller, released by the caller). */
	struct manifest *parsed;
};

/*
 * Write a bundle to out atomically.  The manifest and samples.tsv are
 * checked first (PLUMB_EINPUT naming the JSON path or TSV line; nothing is
 * created then).  id receives the bundle id.
 */
int bundle_write(const char *out, const struct bundle_write_spec *spec,
		 char id[BUNDLE_ID_HEX], struct plumb_err *err);

/*
 * `plumb bundle pack`: dir holds manifest.json, samples.tsv and optionally
 * logs/ with *.log files; anything else is PLUMB_EINPUT.  The entries'
 * mtime is SOURCE_DATE_EPOCH when set, else the manifest's run.end, else
 * its created time, so packing the same folder twice gives the same bytes.
 */
int bundle_pack(const char *dir, const char *out,
		const struct sign_secret_key *sign_key, char id[BUNDLE_ID_HEX],
		struct plumb_err *err);

/*
 * Verify the bundle at path, then replace it atomically by the same bundle
 * with SHA256SUMS.sig made with key (an existing signature is replaced).
 * The bundle id does not change.  info describes the signed bundle.
 */
int bundle_sign(const char *path, const struct sign_secret_key *key,
		struct bundle_info *info, struct plumb_err *err);

/* The trusted comment of a bundle's signature: "bundle:<id>\tcreated:<time>". */
int bundle_trusted_comment(const char *id, const char *created, char *out,
			   size_t size);

/*
 * Why a member name is not acceptable in a bundle, or NULL: 1..4096 bytes,
 * components of 1..255 bytes from [A-Za-z0-9._-] separated by single '/',
 * no "." or ".." component, not absolute.
 */
const char *bundle_name_problem(const char *name, size_t len);

/*
 * Is name an artifact member, "artifacts/" and a variant id of base or
 * candidate ('b' or 'c' and two digits)?  Nothing else may sit under
 * artifacts/ (formats/bundle-v1.md, "artifacts/").
 */
int bundle_artifact_member(const char *name);

/*
 * The artifacts/ members of a verified bundle against the manifest's
 * provenance.artifacts and build.variants: every stored one listed, of the
 * listed size and SHA-256, that SHA-256 the variant's recorded artifact
 * hash; every listed one stored (unless the folder is unverified).
 * PLUMB_EINPUT naming the member otherwise.
 */
int bundle_check_artifacts(const char *bname, const struct bundle_info *info,
			   struct plumb_err *err);

/*
 * Count manifest.json's JSON values as format v1 does ('{', '[' and ','
 * outside strings, plus one) and refuse more than BUNDLE_MAX_JSON_VALUES:
 * the parsed form's memory follows that count, not the byte size.
 */
int bundle_manifest_budget(const char *json, size_t len, struct plumb_err *err);

/* The README.txt text this plumb writes (appended to out). */
int bundle_readme(struct buf *out, struct plumb_err *err);

#endif
