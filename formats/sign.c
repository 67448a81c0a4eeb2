/*
 * formats/sign.c: minisign-compatible keys and signatures over libsodium;
 * see sign.h for the file layouts.
 *
 * Separate from the bundle code because it is the only place that touches
 * secret keys: every buffer that held secret bytes (decoded key, key file
 * text, key file read) is zeroed here before it is released.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/utf8.h"
#include "formats/sign.h"
#include "common/banned.h"

#define ALG_ED "Ed"                /* Ed25519 over the data */
#define ALG_ED_HASHED "ED"         /* Ed25519 over BLAKE2b-512 of the data */
#define KDF_SCRYPT "Sc"
#define CHK_BLAKE2B "B2"
#define COMMENT_PREFIX "untrusted comment: "
#define TRUSTED_PREFIX "trusted comment: "
#define SIG_COMMENT "signature from plumb secret key"

/* Sizes of the binary blobs inside the base64 lines. */
#define PUB_BLOB (2 + SIGN_KEYID_BYTES + SIGN_PUBLIC_BYTES)            /* 42 */
#define SIG_BLOB (2 + SIGN_KEYID_BYTES + SIGN_SIG_BYTES)               /* 74 */
#define SALT_BYTES 32
#define CHK_BYTES 32
#define SEC_BLOB (2 + 2 + 2 + SALT_BYTES + 8 + 8 + SIGN_KEYID_BYTES + \
		  SIGN_SECRET_BYTES + CHK_BYTES)                         /* 158 */
/* Offsets in the secret key blob. */
#define SEC_KDF 2
#define SEC_CHKALG 4
#define SEC_KEYID (6 + SALT_BYTES + 16)
#define SEC_SK (SEC_KEYID + SIGN_KEYID_BYTES)
#define SEC_CHK (SEC_SK + SIGN_SECRET_BYTES)
#define DECODE_MAX 256             /* larger than any blob: names wrong kinds */

static int ready(struct plumb_err *err)
{
	if (sodium_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libsodium failed to initialize");
	return 0;
}

void sign_keyid_hex(const unsigned char keyid[SIGN_KEYID_BYTES],
		    char out[SIGN_KEYID_HEX])
{
	static const char hex[] = "0123456789ABCDEF";
	char full[2 * SIGN_KEYID_BYTES + 1];
	size_t skip = 0;
	int i;

	/*
	 * minisign prints the id as a little-endian 64-bit number with
	 * PRIX64: upper case and without leading zeros.  Public key files
	 * carry it in their comment, so anything else differs from
	 * `minisign -R` for one key in sixteen.
	 */
	for (i = 0; i < SIGN_KEYID_BYTES; i++) {
		unsigned char b = keyid[SIGN_KEYID_BYTES - 1 - i];
		full[2 * i] = hex[b >> 4];
		full[2 * i + 1] = hex[b & 15];
	}
	full[2 * SIGN_KEYID_BYTES] = '\0';
	while (skip < 2 * SIGN_KEYID_BYTES - 1 && full[skip] == '0')
		skip++;
	memcpy(out, full + skip, sizeof(full) - skip);
}

int sign_keypair(struct sign_secret_key *sk, struct sign_public_key *pk,
		 struct plumb_err *err)
{
	if (ready(err) < 0)
		return PLUMB_EINTERNAL;
	randombytes_buf(sk->keyid, sizeof(sk->keyid));
	crypto_sign_keypair(pk->pk, sk->sk);
	memcpy(pk->keyid, sk->keyid, sizeof(pk->keyid));
	return 0;
}

void sign_public_key_from_secret(struct sign_public_key *pk,
				 const struct sign_secret_key *sk)
{
	memcpy(pk->keyid, sk->keyid, sizeof(pk->keyid));
	/* The Ed25519 secret key ends with its public key. */
	memcpy(pk->pk, sk->sk + SIGN_SECRET_BYTES - SIGN_PUBLIC_BYTES, sizeof(pk->pk));
}

void sign_secret_key_release(struct sign_secret_key *sk)
{
	sodium_memzero(sk, sizeof(*sk));
}

/* Append the base64 of bin and a newline. */
static int add_b64(struct buf *out, const unsigned char *bin, size_t n)
{
	char b64[DECODE_MAX * 2];
	int rc;

	sodium_bin2base64(b64, sizeof(b64), bin, n, sodium_base64_VARIANT_ORIGINAL);
	rc = buf_addstr(out, b64);
	sodium_memzero(b64, sizeof(b64));
	return rc < 0 ? -1 : buf_addch(out, '\n');
}

/* Undo a partial append: out back to len0 bytes, the dropped bytes zeroed. */
static void truncate_to(struct buf *out, size_t len0)
{
	if (out->data && out->len > len0) {
		sodium_memzero(out->data + len0, out->len - len0);
		out->len = len0;
	}
}

static void secret_blob(const struct sign_secret_key *sk, unsigned char blob[SEC_BLOB])
{
	crypto_generichash_state st;

	memset(blob, 0, SEC_BLOB);
	memcpy(blob, ALG_ED, 2);
	/* kdf "\0\0": unencrypted; salt and limits stay zero. */
	memcpy(blob + SEC_CHKALG, CHK_BLAKE2B, 2);
	memcpy(blob + SEC_KEYID, sk->keyid, SIGN_KEYID_BYTES);
	memcpy(blob + SEC_SK, sk->sk, SIGN_SECRET_BYTES);
	/* minisign -W leaves the checksum zero; ours lets corruption show. */
	crypto_generichash_init(&st, NULL, 0, CHK_BYTES);
	crypto_generichash_update(&st, blob, 2);
	crypto_generichash_update(&st, sk->keyid, SIGN_KEYID_BYTES);
	crypto_generichash_update(&st, sk->sk, SIGN_SECRET_BYTES);
	crypto_generichash_final(&st, blob + SEC_CHK, CHK_BYTES);
	sodium_memzero(&st, sizeof(st));
}

int sign_secret_key_format(const struct sign_secret_key *sk, struct buf *out,
			   struct plumb_err *err)
{
	unsigned char blob[SEC_BLOB];
	char id[SIGN_KEYID_HEX];
	size_t len0 = out->len;
	int rc;

	if (ready(err) < 0)
		return PLUMB_EINTERNAL;
	sign_keyid_hex(sk->keyid, id);
	secret_blob(sk, blob);
	rc = buf_printf(out, COMMENT_PREFIX "plumb secret key %s, unencrypted\n", id);
	if (rc == 0)
		rc = add_b64(out, blob, sizeof(blob));
	sodium_memzero(blob, sizeof(blob));
	if (rc < 0) {
		truncate_to(out, len0);
		return buf_err(err, "secret key");
	}
	return 0;
}

static void public_blob(const struct sign_public_key *pk, unsigned char blob[PUB_BLOB])
{
	memcpy(blob, ALG_ED, 2);
	memcpy(blob + 2, pk->keyid, SIGN_KEYID_BYTES);
	memcpy(blob + 2 + SIGN_KEYID_BYTES, pk->pk, SIGN_PUBLIC_BYTES);
}

int sign_public_key_format(const struct sign_public_key *pk, struct buf *out,
			   struct plumb_err *err)
{
	unsigned char blob[PUB_BLOB];
	char id[SIGN_KEYID_HEX];
	size_t len0 = out->len;

	sign_keyid_hex(pk->keyid, id);
	public_blob(pk, blob);
	if (buf_printf(out, COMMENT_PREFIX "minisign public key %s\n", id) < 0 ||
	    add_b64(out, blob, sizeof(blob)) < 0) {
		truncate_to(out, len0);
		return buf_err(err, "public key");
	}
	return 0;
}

void sign_public_key_base64(const struct sign_public_key *pk,
			    char out[SIGN_PUBLIC_B64_MAX])
{
	unsigned char blob[PUB_BLOB];

	public_blob(pk, blob);
	sodium_bin2base64(out, SIGN_PUBLIC_B64_MAX, blob, sizeof(blob),
			  sodium_base64_VARIANT_ORIGINAL);
}

/* "<name><suffix>" in a new string, or NULL. */
static char *with_suffix(const char *name, const char *suffix)
{
	struct buf b;

	buf_init(&b, PATH_MAX);
	if (buf_addstr(&b, name) < 0 || buf_addstr(&b, suffix) < 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

int sign_keygen(const char *name, int force, struct sign_public_key *pk_out,
		struct plumb_err *err)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct atomic_file kf, pf;
	struct buf ktext, ptext;
	char *kpath = with_suffix(name, ".key"), *ppath = with_suffix(name, ".pub");
	struct stat st;
	int rc;

	buf_init(&ktext, SIGN_TEXT_MAX);
	buf_init(&ptext, SIGN_TEXT_MAX);
	memset(&sk, 0, sizeof(sk));
	if (!kpath || !ppath) {
		rc = plumb_err_set(err, PLUMB_EARG, "%s: key name too long", name);
		goto out;
	}
	if (!force && (lstat(kpath, &st) == 0 || lstat(ppath, &st) == 0)) {
		rc = plumb_err_set(err, PLUMB_EARG, "%s: already exists, not overwritten",
				   lstat(kpath, &st) == 0 ? kpath : ppath);
		goto out;
	}
	rc = sign_keypair(&sk, &pk, err);
	if (rc == 0)
		rc = sign_secret_key_format(&sk, &ktext, err);
	if (rc == 0)
		rc = sign_public_key_format(&pk, &ptext, err);
	if (rc < 0)
		goto out;
	rc = atomic_file_open(&kf, kpath, 0600, err);
	if (rc < 0)
		goto out;
	rc = atomic_file_open(&pf, ppath, 0644, err);
	if (rc < 0) {
		atomic_file_abort(&kf);
		goto out;
	}
	rc = atomic_file_write(&kf, ktext.data, ktext.len, err);
	if (rc == 0)
		rc = atomic_file_write(&pf, ptext.data, ptext.len, err);
	if (rc < 0) {
		atomic_file_abort(&kf);
		atomic_file_abort(&pf);
		goto out;
	}
	rc = atomic_file_commit(&kf, err);
	if (rc < 0) {
		atomic_file_abort(&pf);
		goto out;
	}
	rc = atomic_file_commit(&pf, err);
	if (rc < 0) {
		/* Half a key pair is worse than none. */
		unlink(kpath);
		goto out;
	}
	if (pk_out)
		*pk_out = pk;
out:
	sign_secret_key_release(&sk);
	if (ktext.data)
		sodium_memzero(ktext.data, ktext.cap);
	buf_release(&ktext);
	buf_release(&ptext);
	free(kpath);
	free(ppath);
	return rc;
}

/* ---- parsing ---- */

/* A cursor over the lines of a text that is not NUL-terminated. */
struct lines {
	const char *p;
	size_t left;
	int no;            /* number of the line last returned */
};

/*
 * Next line without its "\n" (or "\r\n"): 1, or 0 at the end of the text.
 * A final line without a newline counts.
 */
static int next_line(struct lines *l, const char **line, size_t *n)
{
	const char *nl;

	if (l->left == 0)
		return 0;
	nl = memchr(l->p, '\n', l->left);
	*line = l->p;
	*n = nl ? (size_t)(nl - l->p) : l->left;
	l->p += *n + (nl ? 1 : 0);
	l->left -= *n + (nl ? 1 : 0);
	if (*n > 0 && (*line)[*n - 1] == '\r')
		(*n)--;
	l->no++;
	return 1;
}

/* Only blank lines remain. */
static int rest_blank(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->left; i++)
		if (l->p[i] != '\n' && l->p[i] != '\r' && l->p[i] != ' ' && l->p[i] != '\t')
			return 0;
	return 1;
}

static int has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && memcmp(s, prefix, k) == 0;
}

/*
 * Decode the base64 line s[0, n) into bin (DECODE_MAX bytes); returns the
 * decoded size, or -1 when s is not strict padded base64.
 */
static long decode_b64(unsigned char bin[DECODE_MAX], const char *s, size_t n)
{
	const char *end = NULL;
	size_t got = 0, i;

	if (n == 0 || n > (DECODE_MAX / 3) * 4)
		return -1;
	/* libsodium 1.0.18 decodes some bytes >= 0x80 as '/': check the alphabet. */
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '='))
			return -1;
	}
	if (sodium_base642bin(bin, DECODE_MAX, s, n, NULL, &got, &end,
			      sodium_base64_VARIANT_ORIGINAL) != 0 || end != s + n)
		return -1;
	return (long)got;
}

/* What a blob of this size is, for messages about the wrong kind of file. */
static const char *blob_kind(long n)
{
	switch (n) {
	case PUB_BLOB: return " (this is a public key)";
	case SEC_BLOB: return " (this is a secret key)";
	case SIG_BLOB: return " (this is a signature line)";
	case SIGN_SIG_BYTES: return " (this is a global signature line)";
	default: return "";
	}
}

/* Common checks on any key or signature text. */
static int check_text(const char *what, const char *text, size_t len,
		      struct plumb_err *err)
{
	if (len > SIGN_TEXT_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %zu bytes, more than the limit of %d",
				     what, len, SIGN_TEXT_MAX);
	if (len == 0)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty", what);
	if (memchr(text, '\0', len))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: contains a NUL byte", what);
	return 0;
}

int sign_signature_parse(struct sign_signature *s, const char *text, size_t len,
			 struct plumb_err *err)
{
	static const char *const names[] = {
		"", "untrusted comment", "signature", "trusted comment", "global signature"
	};
	unsigned char bin[DECODE_MAX];
	struct lines l = { text, len, 0 };
	const char *line = NULL;
	size_t n = 0, i, k;
	long got;

	memset(s, 0, sizeof(*s));
	if (check_text("signature", text, len, err) < 0)
		return PLUMB_EINPUT;
	for (i = 1; i <= 4; i++) {
		if (!next_line(&l, &line, &n))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "signature: truncated: line %zu (%s) is missing",
					     i, names[i]);
		if (memchr(line, '\r', n))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "signature: line %zu: stray carriage return", i);
		switch (i) {
		case 1:
			if (!has_prefix(line, n, COMMENT_PREFIX))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 1: expected '" COMMENT_PREFIX "...'");
			line += strlen(COMMENT_PREFIX);
			n -= strlen(COMMENT_PREFIX);
			if (n > SIGN_COMMENT_MAX)
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 1: untrusted comment longer than %d bytes",
						     SIGN_COMMENT_MAX);
			/* Untrusted, only ever shown: keep it on one printable line. */
			for (k = 0; k < n; k++)
				s->untrusted_comment[k] =
					((unsigned char)line[k] < 0x20 || line[k] == 0x7f) ? '?' : line[k];
			s->untrusted_comment[n] = '\0';
			break;
		case 2:
			got = decode_b64(bin, line, n);
			if (got != SIG_BLOB)
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 2: not a minisign signature (base64 of %d bytes expected)%s",
						     SIG_BLOB, blob_kind(got));
			if (memcmp(bin, ALG_ED_HASHED, 2) == 0)
				s->prehashed = 1;
			else if (memcmp(bin, ALG_ED, 2) == 0)
				s->prehashed = 0;
			else
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 2: unsupported signature algorithm (not Ed or ED)");
			memcpy(s->keyid, bin + 2, SIGN_KEYID_BYTES);
			memcpy(s->sig, bin + 2 + SIGN_KEYID_BYTES, SIGN_SIG_BYTES);
			break;
		case 3:
			if (!has_prefix(line, n, TRUSTED_PREFIX))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 3: expected '" TRUSTED_PREFIX "...'");
			line += strlen(TRUSTED_PREFIX);
			n -= strlen(TRUSTED_PREFIX);
			if (n > SIGN_TRUSTED_COMMENT_MAX)
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 3: trusted comment longer than %d bytes",
						     SIGN_TRUSTED_COMMENT_MAX);
			if (!utf8_ok(line, n, UTF8_PRINTABLE))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 3: trusted comment is not printable UTF-8");
			memcpy(s->trusted_comment, line, n);
			s->trusted_comment[n] = '\0';
			break;
		case 4:
			got = decode_b64(bin, line, n);
			if (got != SIGN_SIG_BYTES)
				return plumb_err_set(err, PLUMB_EINPUT,
						     "signature: line 4: not a global signature (base64 of %d bytes expected)%s",
						     SIGN_SIG_BYTES, blob_kind(got));
			memcpy(s->global_sig, bin, SIGN_SIG_BYTES);
			break;
		}
	}
	if (!rest_blank(&l))
		return plumb_err_set(err, PLUMB_EINPUT, "signature: line %d: unexpected text after the signature",
				     l.no + 1);
	return 0;
}

int sign_verify_parsed(const struct sign_public_key *pk, const void *data, size_t len,
		       const struct sign_signature *s, struct plumb_err *err)
{
	static const unsigned char empty[1];
	unsigned char hash[crypto_generichash_BYTES_MAX];
	unsigned char *global;
	const unsigned char *msg = data ? data : empty;
	size_t msg_len = len, tc_len = strlen(s->trusted_comment);
	char sid[SIGN_KEYID_HEX], pid[SIGN_KEYID_HEX];
	int bad;

	if (ready(err) < 0)
		return PLUMB_EINTERNAL;
	if (memcmp(s->keyid, pk->keyid, SIGN_KEYID_BYTES) != 0) {
		sign_keyid_hex(s->keyid, sid);
		sign_keyid_hex(pk->keyid, pid);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "signature: made with key %s, not with the given public key %s",
				     sid, pid);
	}
	if (s->prehashed) {
		crypto_generichash(hash, sizeof(hash), msg, len, NULL, 0);
		msg = hash;
		msg_len = sizeof(hash);
	}
	if (crypto_sign_verify_detached(s->sig, msg, msg_len, pk->pk) != 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "signature: does not match the data (the data or the signature was changed)");
	global = malloc(SIGN_SIG_BYTES + tc_len);
	if (!global)
		return plumb_err_oom(err, "signature");
	memcpy(global, s->sig, SIGN_SIG_BYTES);
	memcpy(global + SIGN_SIG_BYTES, s->trusted_comment, tc_len);
	bad = crypto_sign_verify_detached(s->global_sig, global, SIGN_SIG_BYTES + tc_len,
					  pk->pk) != 0;
	free(global);
	if (bad)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "signature: the trusted comment does not match its signature (it was changed)");
	return 0;
}

int sign_verify(const struct sign_public_key *pk, const void *data, size_t len,
		const char *sig_text, size_t sig_len,
		char *trusted_comment_out, size_t cap, struct plumb_err *err)
{
	struct sign_signature *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return plumb_err_oom(err, "signature");
	rc = sign_signature_parse(s, sig_text, sig_len, err);
	if (rc == 0)
		rc = sign_verify_parsed(pk, data, len, s, err);
	if (rc == 0 && trusted_comment_out) {
		size_t n = strlen(s->trusted_comment);

		if (n + 1 > cap)
			rc = plumb_err_set(err, PLUMB_EINTERNAL,
					   "signature: trusted comment of %zu bytes does not fit in %zu",
					   n, cap);
		else
			memcpy(trusted_comment_out, s->trusted_comment, n + 1);
	}
	free(s);
	return rc;
}

int sign_buffer(const struct sign_secret_key *sk, const void *data, size_t len,
		const char *trusted_comment, struct buf *sig_text,
		struct plumb_err *err)
{
	static const unsigned char empty[1];
	unsigned char hash[crypto_generichash_BYTES_MAX];
	unsigned char blob[SIG_BLOB], global[SIGN_SIG_BYTES];
	unsigned char *msg;
	size_t tc_len, len0 = sig_text->len;
	int rc;

	if (ready(err) < 0)
		return PLUMB_EINTERNAL;
	if (!trusted_comment)
		return plumb_err_set(err, PLUMB_EARG, "signature: no trusted comment given");
	tc_len = strlen(trusted_comment);
	if (tc_len > SIGN_TRUSTED_COMMENT_MAX)
		return plumb_err_set(err, PLUMB_EARG,
				     "signature: trusted comment longer than %d bytes",
				     SIGN_TRUSTED_COMMENT_MAX);
	if (!utf8_ok(trusted_comment, tc_len, UTF8_PRINTABLE))
		return plumb_err_set(err, PLUMB_EARG,
				     "signature: trusted comment must be one line of printable UTF-8");
	crypto_generichash(hash, sizeof(hash), data ? data : empty, len, NULL, 0);
	memcpy(blob, ALG_ED_HASHED, 2);
	memcpy(blob + 2, sk->keyid, SIGN_KEYID_BYTES);
	crypto_sign_detached(blob + 2 + SIGN_KEYID_BYTES, NULL, hash, sizeof(hash), sk->sk);
	msg = malloc(SIGN_SIG_BYTES + tc_len);
	if (!msg)
		return plumb_err_oom(err, "signature");
	memcpy(msg, blob + 2 + SIGN_KEYID_BYTES, SIGN_SIG_BYTES);
	memcpy(msg + SIGN_SIG_BYTES, trusted_comment, tc_len);
	crypto_sign_detached(global, NULL, msg, SIGN_SIG_BYTES + tc_len, sk->sk);
	free(msg);
	rc = buf_addstr(sig_text, COMMENT_PREFIX SIG_COMMENT "\n");
	if (rc == 0)
		rc = add_b64(sig_text, blob, sizeof(blob));
	if (rc == 0)
		rc = buf_printf(sig_text, TRUSTED_PREFIX "%s\n", trusted_comment);
	if (rc == 0)
		rc = add_b64(sig_text, global, sizeof(global));
	if (rc < 0) {
		truncate_to(sig_text, len0);
		return buf_err(err, "signature");
	}
	return 0;
}

int sign_secret_key_parse(struct sign_secret_key *sk, const char *text, size_t len,
			  struct plumb_err *err)
{
	unsigned char bin[DECODE_MAX], chk[CHK_BYTES], seed_pk[SIGN_PUBLIC_BYTES];
	unsigned char seed_sk[SIGN_SECRET_BYTES];
	struct lines l = { text, len, 0 };
	crypto_generichash_state st;
	const char *line = NULL;
	size_t n = 0, i;
	long got;
	int rc = 0, zero_chk = 1;

	memset(sk, 0, sizeof(*sk));
	if (ready(err) < 0)
		return PLUMB_EINTERNAL;
	if (check_text("secret key", text, len, err) < 0)
		return PLUMB_EINPUT;
	if (!next_line(&l, &line, &n) || !has_prefix(line, n, COMMENT_PREFIX))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "secret key: line 1: expected '" COMMENT_PREFIX "...'");
	if (!next_line(&l, &line, &n))
		return plumb_err_set(err, PLUMB_EINPUT, "secret key: truncated: line 2 (the key) is missing");
	got = decode_b64(bin, line, n);
	if (got != SEC_BLOB) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "secret key: line 2: not a minisign secret key (base64 of %d bytes expected)%s",
				   SEC_BLOB, blob_kind(got));
	} else if (!rest_blank(&l)) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "secret key: line 3: unexpected text after the key");
	} else if (memcmp(bin, ALG_ED, 2) != 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "secret key: unsupported signature algorithm (not Ed)");
	} else if (memcmp(bin + SEC_CHKALG, CHK_BLAKE2B, 2) != 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "secret key: unsupported checksum algorithm (not B2)");
	} else if (memcmp(bin + SEC_KDF, KDF_SCRYPT, 2) == 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "secret key: encrypted with a password, which plumb cannot ask for; "
				   "remove the password with 'minisign -C -W -s FILE' or make an unencrypted key with 'plumb bundle keygen'");
	} else if (bin[SEC_KDF] != 0 || bin[SEC_KDF + 1] != 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "secret key: unsupported key derivation function");
	}
	if (rc < 0)
		goto out;
	for (i = 0; i < CHK_BYTES; i++)
		if (bin[SEC_CHK + i])
			zero_chk = 0;
	/* minisign -G -W writes a zero checksum; any other must match. */
	if (!zero_chk) {
		crypto_generichash_init(&st, NULL, 0, CHK_BYTES);
		crypto_generichash_update(&st, bin, 2);
		crypto_generichash_update(&st, bin + SEC_KEYID, SIGN_KEYID_BYTES);
		crypto_generichash_update(&st, bin + SEC_SK, SIGN_SECRET_BYTES);
		crypto_generichash_final(&st, chk, CHK_BYTES);
		sodium_memzero(&st, sizeof(st));
		if (sodium_memcmp(chk, bin + SEC_CHK, CHK_BYTES) != 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT,
					   "secret key: checksum does not match (the key is corrupted)");
			goto out;
		}
	}
	/* The public half must be the one the seed gives. */
	crypto_sign_seed_keypair(seed_pk, seed_sk, bin + SEC_SK);
	if (sodium_memcmp(seed_pk, bin + SEC_SK + 32, SIGN_PUBLIC_BYTES) != 0) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "secret key: public half does not match the seed (the key is corrupted)");
		goto out;
	}
	memcpy(sk->keyid, bin + SEC_KEYID, SIGN_KEYID_BYTES);
	memcpy(sk->sk, bin + SEC_SK, SIGN_SECRET_BYTES);
out:
	sodium_memzero(bin, sizeof(bin));
	sodium_memzero(chk, sizeof(chk));
	sodium_memzero(seed_sk, sizeof(seed_sk));
	return rc;
}

/* Read a small file into buf[cap]; its length, or -1 with err set. */
static long read_small(const char *path, char *data, size_t cap, struct plumb_err *err)
{
	size_t total = 0;
	ssize_t n;
	int fd = file_open_regular(path, 0, NULL, err);

	if (fd < 0)
		return -1;
	while (total < cap) {
		n = read(fd, data + total, cap - total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			plumb_err_errno(err, PLUMB_EINPUT, errno, path, "read");
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		total += (size_t)n;
	}
	close(fd);
	if (total == cap) {
		plumb_err_set(err, PLUMB_EINPUT, "%s: larger than %zu bytes", path, cap - 1);
		return -1;
	}
	return (long)total;
}

int sign_secret_key_load(struct sign_secret_key *sk, const char *path,
			 struct plumb_err *err)
{
	char *text = malloc(SIGN_TEXT_MAX + 1);
	long n;
	int rc;

	memset(sk, 0, sizeof(*sk));
	if (!text)
		return plumb_err_oom(err, "secret key");
	n = read_small(path, text, SIGN_TEXT_MAX + 1, err);
	if (n < 0) {
		rc = err ? err->code : PLUMB_EINPUT;
	} else {
		rc = sign_secret_key_parse(sk, text, (size_t)n, err);
		if (rc < 0)
			plumb_err_prefix(err, "%s", path);
	}
	sodium_memzero(text, SIGN_TEXT_MAX + 1);
	free(text);
	return rc;
}

/* Decode one base64 public key line. */
static int public_from_line(struct sign_public_key *pk, const char *what,
			    const char *line, size_t n, struct plumb_err *err)
{
	unsigned char bin[DECODE_MAX];
	long got = decode_b64(bin, line, n);

	if (got != PUB_BLOB)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "public key: %snot a minisign public key (base64 of %d bytes expected)%s",
				     what, PUB_BLOB, blob_kind(got));
	if (memcmp(bin, ALG_ED, 2) != 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "public key: %sunsupported signature algorithm (not Ed)", what);
	memcpy(pk->keyid, bin + 2, SIGN_KEYID_BYTES);
	memcpy(pk->pk, bin + 2 + SIGN_KEYID_BYTES, SIGN_PUBLIC_BYTES);
	return 0;
}

int sign_public_key_parse(struct sign_public_key *pk, const char *text, size_t len,
			  struct plumb_err *err)
{
	struct lines l;
	const char *line = NULL;
	size_t n = 0;

	memset(pk, 0, sizeof(*pk));
	if (check_text("public key", text, len, err) < 0)
		return PLUMB_EINPUT;
	/* Trailing white space (a final newline) does not count. */
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
			   text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	/* The bare base64 string (minisign -P), or a .pub file. */
	if (!has_prefix(text, len, COMMENT_PREFIX)) {
		if (memchr(text, '\n', len))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "public key: line 1: expected '" COMMENT_PREFIX "...'");
		return public_from_line(pk, "", text, len, err);
	}
	l.p = text;
	l.left = len;
	l.no = 0;
	if (!next_line(&l, &line, &n) || !has_prefix(line, n, COMMENT_PREFIX))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "public key: line 1: expected '" COMMENT_PREFIX "...'");
	if (!next_line(&l, &line, &n))
		return plumb_err_set(err, PLUMB_EINPUT, "public key: truncated: line 2 (the key) is missing");
	if (public_from_line(pk, "line 2: ", line, n, err) < 0)
		return PLUMB_EINPUT;
	if (l.left > 0)
		return plumb_err_set(err, PLUMB_EINPUT, "public key: line 3: unexpected text after the key");
	return 0;
}

int sign_public_key_load(struct sign_public_key *pk, const char *path,
			 struct plumb_err *err)
{
	char *text = malloc(SIGN_TEXT_MAX + 1);
	long n;
	int rc;

	memset(pk, 0, sizeof(*pk));
	if (!text)
		return plumb_err_oom(err, "public key");
	n = read_small(path, text, SIGN_TEXT_MAX + 1, err);
	if (n < 0) {
		rc = err ? err->code : PLUMB_EINPUT;
	} else {
		rc = sign_public_key_parse(pk, text, (size_t)n, err);
		if (rc < 0)
			plumb_err_prefix(err, "%s", path);
	}
	free(text);
	return rc;
}
