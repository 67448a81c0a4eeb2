/*
 * formats/sign.h: minisign-compatible Ed25519 signatures (libsodium), for
 * SHA256SUMS.sig in bundles (DESIGN §7).
 *
 * The files are minisign's, so an auditor checks a bundle with the stock
 * tool (`minisign -Vm SHA256SUMS -p KEY.pub`) and plumb reads keys minisign
 * made (`minisign -G -W`):
 *
 *   public key   "untrusted comment: <text>\n" then base64 of
 *                "Ed" | key id (8) | Ed25519 public key (32)
 *   secret key   "untrusted comment: <text>\n" then base64 of
 *                "Ed" | kdf (2) | "B2" | salt (32) | opslimit (8) |
 *                memlimit (8) | key id (8) | Ed25519 secret key (64) |
 *                checksum (32, BLAKE2b-256 of "Ed" | key id | secret key);
 *                kdf "\0\0" is an unencrypted key (salt and limits zero),
 *                kdf "Sc" is scrypt-encrypted with a password
 *   signature    "untrusted comment: <text>\n"
 *                base64 of "ED" | key id (8) | Ed25519 signature (64) of
 *                BLAKE2b-512(data) ("Ed": of the data itself, legacy)
 *                "trusted comment: <comment>\n"
 *                base64 of the Ed25519 signature of
 *                signature (64) | comment, the "global signature"
 *
 * The key id is shown as minisign shows it: the 8 bytes read as a
 * little-endian integer, 16 upper-case hex digits.
 *
 * Key, signature and public-key text is hostile input: it is bounded
 * (SIGN_TEXT_MAX), every failure is PLUMB_EINPUT with a message naming the
 * line and the problem, and nothing is read past the given length.
 * plumb writes unencrypted secret keys only (for cron jobs: protect the
 * file, mode 0600) and refuses encrypted ones with a message saying how to
 * remove the password.  Signing always uses the prehashed "ED" algorithm,
 * as current minisign does; verifying accepts "ED" and legacy "Ed".
 *
 * Ownership: every struct here is caller-owned storage with no heap
 * memory.  A struct sign_secret_key holds secret material: the caller
 * must call sign_secret_key_release() (which zeroes it) when done, on every
 * path; the functions here zero their own temporary copies.
 */
#ifndef PLUMB_FORMATS_SIGN_H
#define PLUMB_FORMATS_SIGN_H

#include <stddef.h>

struct buf;
struct plumb_err;

#define SIGN_KEYID_BYTES 8
#define SIGN_PUBLIC_BYTES 32
#define SIGN_SECRET_BYTES 64
#define SIGN_SIG_BYTES 64
#define SIGN_KEYID_HEX 17              /* 16 hex digits and a NUL */
#define SIGN_PUBLIC_B64_MAX 57         /* 56 base64 characters and a NUL */
#define SIGN_TEXT_MAX (16 * 1024)      /* largest key or signature text read */
#define SIGN_COMMENT_MAX 1000          /* bytes of an untrusted comment */
/* Bytes of a trusted comment that minisign still reads back (8192-byte line). */
#define SIGN_TRUSTED_COMMENT_MAX 8173

struct sign_public_key {
	unsigned char keyid[SIGN_KEYID_BYTES];
	unsigned char pk[SIGN_PUBLIC_BYTES];
};

struct sign_secret_key {
	unsigned char keyid[SIGN_KEYID_BYTES];
	unsigned char sk[SIGN_SECRET_BYTES];    /* seed (32) | public key (32) */
};

/* A parsed signature file. */
struct sign_signature {
	int prehashed;                           /* 1: "ED", 0: legacy "Ed" */
	unsigned char keyid[SIGN_KEYID_BYTES];
	unsigned char sig[SIGN_SIG_BYTES];       /* over the data (or its hash) */
	unsigned char global_sig[SIGN_SIG_BYTES];/* over sig | trusted comment */
	char untrusted_comment[SIGN_COMMENT_MAX + 1];
	char trusted_comment[SIGN_TRUSTED_COMMENT_MAX + 1];
};

/* The key id as minisign prints it ("D9A85797677A5BF9"). */
void sign_keyid_hex(const unsigned char keyid[SIGN_KEYID_BYTES],
		    char out[SIGN_KEYID_HEX]);

/* A new random key pair in memory. */
int sign_keypair(struct sign_secret_key *sk, struct sign_public_key *pk,
		 struct plumb_err *err);

/* The public half of a secret key. */
void sign_public_key_from_secret(struct sign_public_key *pk,
				 const struct sign_secret_key *sk);

/* Zero the secret key. */
void sign_secret_key_release(struct sign_secret_key *sk);

/*
 * Make a key pair and write "<name>.key" (unencrypted, mode 0600) and
 * "<name>.pub", each atomically.  An existing file of either name is
 * PLUMB_EARG unless force; when the second file cannot be written the
 * first is removed.  pk_out (may be NULL) receives the public key.
 */
int sign_keygen(const char *name, int force, struct sign_public_key *pk_out,
		struct plumb_err *err);

/*
 * Append the text of a secret key file (unencrypted) or a public key file;
 * the secret text is secret: zero it (sodium_memzero) before freeing it.
 */
int sign_secret_key_format(const struct sign_secret_key *sk, struct buf *out,
			   struct plumb_err *err);
int sign_public_key_format(const struct sign_public_key *pk, struct buf *out,
			   struct plumb_err *err);

/* The public key as one base64 string, as `minisign -P` takes it. */
void sign_public_key_base64(const struct sign_public_key *pk,
			    char out[SIGN_PUBLIC_B64_MAX]);

/*
 * Read a secret key from file text.  An encrypted key, a corrupted one
 * (checksum, or public half not matching the seed) or any malformed text
 * is PLUMB_EINPUT naming the problem.
 */
int sign_secret_key_parse(struct sign_secret_key *sk, const char *text, size_t len,
			  struct plumb_err *err);

/* The same from a file; errors start with the path. */
int sign_secret_key_load(struct sign_secret_key *sk, const char *path,
			 struct plumb_err *err);

/*
 * Read a public key from the text of a .pub file (comment line, key line)
 * or from the bare base64 string (`minisign -P`).
 */
int sign_public_key_parse(struct sign_public_key *pk, const char *text, size_t len,
			  struct plumb_err *err);
int sign_public_key_load(struct sign_public_key *pk, const char *path,
			 struct plumb_err *err);

/*
 * Sign len bytes of data (prehashed "ED") and append the signature file
 * text to sig_text.  trusted_comment: one line of printable UTF-8 (tabs
 * allowed), at most SIGN_TRUSTED_COMMENT_MAX bytes, else PLUMB_EARG.
 */
int sign_buffer(const struct sign_secret_key *sk, const void *data, size_t len,
		const char *trusted_comment, struct buf *sig_text,
		struct plumb_err *err);

/*
 * Parse the text of a signature file without checking it.  Errors name
 * the line: a missing or misprefixed comment line, a line that is not
 * base64 of the right size, an unknown algorithm, a trusted comment with
 * control characters, missing lines (truncation), text after line 4.
 */
int sign_signature_parse(struct sign_signature *s, const char *text, size_t len,
			 struct plumb_err *err);

/*
 * Check a parsed signature against data and a public key: key ids differ
 * ("signed by key X, not by key Y"), the data does not match, or the
 * trusted comment was changed (global signature fails); each PLUMB_EINPUT.
 */
int sign_verify_parsed(const struct sign_public_key *pk, const void *data, size_t len,
		       const struct sign_signature *s, struct plumb_err *err);

/*
 * Parse and check in one call.  On success the trusted comment is copied
 * to trusted_comment_out when it is not NULL; a cap smaller than the
 * comment and its NUL is PLUMB_EINTERNAL (pass SIGN_TRUSTED_COMMENT_MAX + 1).
 */
int sign_verify(const struct sign_public_key *pk, const void *data, size_t len,
		const char *sig_text, size_t sig_len,
		char *trusted_comment_out, size_t cap, struct plumb_err *err);

#endif
