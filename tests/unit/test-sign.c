/*
 * tests/unit/test-sign.c: formats/sign (minisign-compatible keys and
 * signatures).
 *
 * Three layers: round trips and every failure class in memory; fixtures
 * made by the stock minisign 0.11 (tests/fixtures/sign/, so the formats are
 * checked even where minisign is not installed); and, when `minisign` is
 * on PATH, live interoperability both ways in a temporary folder.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/sign.h"
#include "common/banned.h"

static const char tc1[] = "bundle id 5f1e0c2a created 2024-05-01T12:34:56Z";
static const char data1[] = "0123abcd  manifest.json\n4567ef01  samples.tsv\n";

/* A fresh key pair and the signature text of data1 with tc1. */
static void signed_sample(struct sign_secret_key *sk, struct sign_public_key *pk,
			  struct buf *sig)
{
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(sign_keypair(sk, pk, &err), 0);
	buf_init(sig, SIGN_TEXT_MAX);
	assert_int_equal(sign_buffer(sk, data1, strlen(data1), tc1, sig, &err), 0);
}

/* Verify text against data1; expect a failure whose message contains want. */
static void expect_verify_error(const struct sign_public_key *pk, const char *text,
				size_t len, const char *want)
{
	struct plumb_err err;
	char tc[SIGN_TRUSTED_COMMENT_MAX + 1];
	int rc;

	plumb_err_clear(&err);
	rc = sign_verify(pk, data1, strlen(data1), text, len, tc, sizeof(tc), &err);
	if (rc == 0)
		fail_msg("verified, wanted: %s", want);
	assert_int_equal(rc, PLUMB_EINPUT);
	if (!strstr(err.msg, want))
		fail_msg("got:    %s\nwanted: ...%s...", err.msg, want);
}

/* A copy of s with the first from replaced by to. */
static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	struct buf b;

	assert_non_null(at);
	buf_init(&b, 1 << 20);
	assert_int_equal(buf_add(&b, s, (size_t)(at - s)), 0);
	assert_int_equal(buf_addstr(&b, to), 0);
	assert_int_equal(buf_addstr(&b, at + strlen(from)), 0);
	return buf_detach(&b, NULL);
}

/* Line n (1-based) of s, without its newline, in a static buffer. */
static const char *line_of(const char *s, int n)
{
	static char out[SIGN_TEXT_MAX];
	const char *e;

	while (--n > 0) {
		s = strchr(s, '\n');
		assert_non_null(s);
		s++;
	}
	e = strchr(s, '\n');
	if (!e)
		e = s + strlen(s);
	assert_true((size_t)(e - s) < sizeof(out));
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return out;
}

PLUMB_TEST(sign_round_trip)
{
	struct sign_secret_key sk;
	struct sign_public_key pk, pk2;
	struct sign_signature s;
	struct plumb_err err;
	struct buf sig;
	char tc[SIGN_TRUSTED_COMMENT_MAX + 1];

	plumb_err_clear(&err);
	signed_sample(&sk, &pk, &sig);
	assert_int_equal(strncmp(sig.data, "untrusted comment: ", 19), 0);
	assert_string_equal(line_of(sig.data, 3), "trusted comment: bundle id 5f1e0c2a created 2024-05-01T12:34:56Z");
	assert_int_equal(sign_verify(&pk, data1, strlen(data1), sig.data, sig.len,
				     tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, tc1);
	assert_int_equal(sign_signature_parse(&s, sig.data, sig.len, &err), 0);
	assert_int_equal(s.prehashed, 1);
	assert_memory_equal(s.keyid, pk.keyid, SIGN_KEYID_BYTES);
	assert_string_equal(s.untrusted_comment, "signature from plumb secret key");
	sign_public_key_from_secret(&pk2, &sk);
	assert_memory_equal(&pk2, &pk, sizeof(pk));
	/* Empty data and an empty trusted comment are fine too. */
	buf_reset(&sig);
	assert_int_equal(sign_buffer(&sk, NULL, 0, "", &sig, &err), 0);
	assert_int_equal(sign_verify(&pk, NULL, 0, sig.data, sig.len, tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, "");
	/* A comment that does not fit the caller's buffer is an error. */
	buf_reset(&sig);
	assert_int_equal(sign_buffer(&sk, data1, strlen(data1), tc1, &sig, &err), 0);
	assert_int_equal(sign_verify(&pk, data1, strlen(data1), sig.data, sig.len, tc, 8, &err),
			 PLUMB_EINTERNAL);
	sign_secret_key_release(&sk);
	assert_true(sodium_is_zero((const unsigned char *)&sk, sizeof(sk)));
	buf_release(&sig);
}

PLUMB_TEST(sign_wrong_key_data_or_comment)
{
	struct sign_secret_key sk, sk2;
	struct sign_public_key pk, pk2, mixed;
	struct plumb_err err;
	struct buf sig, other;
	char *edited, id[SIGN_KEYID_HEX], want[128];

	plumb_err_clear(&err);
	signed_sample(&sk, &pk, &sig);
	assert_int_equal(sign_keypair(&sk2, &pk2, &err), 0);

	/* Another key: the key ids differ, and the message names both. */
	sign_keyid_hex(pk.keyid, id);
	snprintf(want, sizeof(want), "made with key %s, not with the given public key", id);
	expect_verify_error(&pk2, sig.data, sig.len, want);

	/* Same key id, other key: the signature itself fails. */
	mixed = pk2;
	memcpy(mixed.keyid, pk.keyid, SIGN_KEYID_BYTES);
	expect_verify_error(&mixed, sig.data, sig.len, "does not match the data");

	/* Data changed (an edited SHA256SUMS). */
	plumb_err_clear(&err);
	assert_int_equal(sign_verify(&pk, "x", 1, sig.data, sig.len, NULL, 0, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "does not match the data"));

	/* Trusted comment edited. */
	edited = replace(sig.data, "5f1e0c2a", "5f1e0c2b");
	expect_verify_error(&pk, edited, strlen(edited), "trusted comment does not match its signature");
	free(edited);

	/* A signature copied from another bundle signed by the same key. */
	buf_init(&other, SIGN_TEXT_MAX);
	assert_int_equal(sign_buffer(&sk, "other bundle", 12, tc1, &other, &err), 0);
	expect_verify_error(&pk, other.data, other.len, "does not match the data");

	/* Signature line from one file, comment lines from another. */
	{
		char *l4 = strdup(line_of(other.data, 4));

		assert_non_null(l4);
		edited = replace(sig.data, line_of(sig.data, 4), l4);
		expect_verify_error(&pk, edited, strlen(edited), "trusted comment does not match");
		free(edited);
		free(l4);
	}

	sign_secret_key_release(&sk);
	sign_secret_key_release(&sk2);
	buf_release(&sig);
	buf_release(&other);
}

PLUMB_TEST(sign_truncated_and_malformed_signatures)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct plumb_err err;
	struct buf sig;
	char *bad, *big;
	size_t cut;

	plumb_err_clear(&err);
	signed_sample(&sk, &pk, &sig);

	/* Cut at every offset: always an error, never a crash. */
	for (cut = 0; cut + 1 < sig.len; cut++)
		expect_verify_error(&pk, sig.data, cut, "signature");
	/* Only the final newline missing is still a whole signature. */
	plumb_err_clear(&err);
	assert_int_equal(sign_verify(&pk, data1, strlen(data1), sig.data, sig.len - 1, NULL, 0, &err), 0);

	expect_verify_error(&pk, sig.data, 0, "signature: empty");
	expect_verify_error(&pk, sig.data, strchr(sig.data, '\n') + 1 - sig.data,
			    "truncated: line 2 (signature) is missing");
	bad = replace(sig.data, "untrusted comment: ", "comment: ");
	expect_verify_error(&pk, bad, strlen(bad), "line 1: expected 'untrusted comment: ...'");
	free(bad);
	bad = replace(sig.data, "trusted comment: bundle", "trusted: bundle");
	expect_verify_error(&pk, bad, strlen(bad), "line 3: expected 'trusted comment: ...'");
	free(bad);
	bad = replace(sig.data, "bundle id", "bundle\x1b[31mid");
	expect_verify_error(&pk, bad, strlen(bad), "line 3: trusted comment is not printable UTF-8");
	free(bad);
	bad = replace(sig.data, line_of(sig.data, 2), "not*base64");
	expect_verify_error(&pk, bad, strlen(bad), "line 2: not a minisign signature");
	free(bad);
	bad = replace(sig.data, line_of(sig.data, 4), "AAAA");
	expect_verify_error(&pk, bad, strlen(bad), "line 4: not a global signature");
	free(bad);
	/* The global signature line where the signature line belongs. */
	{
		char *l4 = strdup(line_of(sig.data, 4));

		assert_non_null(l4);
		bad = replace(sig.data, line_of(sig.data, 2), l4);
		expect_verify_error(&pk, bad, strlen(bad), "(this is a global signature line)");
		free(bad);
		free(l4);
	}
	bad = replace(sig.data, "untrusted comment: signature from plumb secret key\n",
		      "untrusted comment: signature from plumb secret key\r\r\n");
	expect_verify_error(&pk, bad, strlen(bad), "line 1: stray carriage return");
	free(bad);
	bad = replace(sig.data, line_of(sig.data, 4), "");
	expect_verify_error(&pk, bad, strlen(bad), "line 4: not a global signature");
	free(bad);
	/* Text after the signature. */
	big = malloc(sig.len + 8);
	assert_non_null(big);
	memcpy(big, sig.data, sig.len);
	memcpy(big + sig.len, "extra\n", 7);
	expect_verify_error(&pk, big, sig.len + 6, "line 5: unexpected text after the signature");
	/* A NUL byte. */
	big[10] = '\0';
	expect_verify_error(&pk, big, sig.len, "contains a NUL byte");
	free(big);
	/* Over the size limit. */
	big = calloc(SIGN_TEXT_MAX + 1, 1);
	assert_non_null(big);
	memset(big, 'a', SIGN_TEXT_MAX + 1);
	expect_verify_error(&pk, big, SIGN_TEXT_MAX + 1, "more than the limit of 16384");
	free(big);
	sign_secret_key_release(&sk);
	buf_release(&sig);
}

PLUMB_TEST(sign_unknown_algorithm_is_refused)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct buf sig;
	unsigned char blob[74];
	char b64[128], *bad;
	size_t got;

	signed_sample(&sk, &pk, &sig);
	assert_int_equal(sodium_base642bin(blob, sizeof(blob), line_of(sig.data, 2),
					   strlen(line_of(sig.data, 2)), NULL, &got, NULL,
					   sodium_base64_VARIANT_ORIGINAL), 0);
	assert_int_equal(got, 74);
	assert_memory_equal(blob, "ED", 2);
	memcpy(blob, "EX", 2);
	sodium_bin2base64(b64, sizeof(b64), blob, sizeof(blob), sodium_base64_VARIANT_ORIGINAL);
	bad = replace(sig.data, line_of(sig.data, 2), b64);
	expect_verify_error(&pk, bad, strlen(bad), "line 2: unsupported signature algorithm");
	free(bad);
	/* Claiming legacy "Ed" for a prehashed signature does not verify. */
	memcpy(blob, "Ed", 2);
	sodium_bin2base64(b64, sizeof(b64), blob, sizeof(blob), sodium_base64_VARIANT_ORIGINAL);
	bad = replace(sig.data, line_of(sig.data, 2), b64);
	expect_verify_error(&pk, bad, strlen(bad), "does not match the data");
	free(bad);
	sign_secret_key_release(&sk);
	buf_release(&sig);
}

PLUMB_TEST(sign_bit_flips_never_verify)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct plumb_err err;
	struct buf sig;
	size_t start, i;
	int bit;
	char *copy;

	signed_sample(&sk, &pk, &sig);
	copy = malloc(sig.len);
	assert_non_null(copy);
	/* The untrusted comment is untrusted: flips there are not detected. */
	start = (size_t)(strchr(sig.data, '\n') - sig.data);
	for (i = start; i < sig.len; i++) {
		for (bit = 0; bit < 8; bit++) {
			memcpy(copy, sig.data, sig.len);
			copy[i] ^= (char)(1 << bit);
			plumb_err_clear(&err);
			if (sign_verify(&pk, data1, strlen(data1), copy, sig.len, NULL, 0, &err) == 0)
				fail_msg("flip of bit %d at byte %zu verified", bit, i);
			assert_true(err.msg[0] != '\0');
		}
	}
	free(copy);
	sign_secret_key_release(&sk);
	buf_release(&sig);
}

PLUMB_TEST(sign_trusted_comment_rules)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct plumb_err err;
	struct buf sig;
	char *longc, tc[SIGN_TRUSTED_COMMENT_MAX + 1];

	plumb_err_clear(&err);
	signed_sample(&sk, &pk, &sig);
	buf_reset(&sig);
	assert_int_equal(sign_buffer(&sk, "d", 1, "two\nlines", &sig, &err), PLUMB_EARG);
	assert_non_null(strstr(err.msg, "one line of printable UTF-8"));
	assert_int_equal(sign_buffer(&sk, "d", 1, "bad \xff utf-8", &sig, &err), PLUMB_EARG);
	assert_int_equal(sign_buffer(&sk, "d", 1, "c1 \xc2\x85 control", &sig, &err), PLUMB_EARG);
	assert_int_equal(sign_buffer(&sk, "d", 1, "overlong \xc0\xaf", &sig, &err), PLUMB_EARG);
	assert_int_equal(sign_buffer(&sk, "d", 1, "surrogate \xed\xa0\x80", &sig, &err), PLUMB_EARG);
	assert_int_equal(sign_buffer(&sk, "d", 1, NULL, &sig, &err), PLUMB_EARG);
	assert_int_equal(sig.len, 0);
	/* Tabs and UTF-8 text are fine. */
	assert_int_equal(sign_buffer(&sk, "d", 1, "id:\tabc\tcaf\xc3\xa9 \xe2\x9c\x93", &sig, &err), 0);
	assert_int_equal(sign_verify(&pk, "d", 1, sig.data, sig.len, tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, "id:\tabc\tcaf\xc3\xa9 \xe2\x9c\x93");
	/* The longest comment minisign reads back, and one byte more. */
	longc = malloc(SIGN_TRUSTED_COMMENT_MAX + 2);
	assert_non_null(longc);
	memset(longc, 'c', SIGN_TRUSTED_COMMENT_MAX + 1);
	longc[SIGN_TRUSTED_COMMENT_MAX + 1] = '\0';
	buf_reset(&sig);
	assert_int_equal(sign_buffer(&sk, "d", 1, longc, &sig, &err), PLUMB_EARG);
	longc[SIGN_TRUSTED_COMMENT_MAX] = '\0';
	assert_int_equal(sign_buffer(&sk, "d", 1, longc, &sig, &err), 0);
	assert_int_equal(sign_verify(&pk, "d", 1, sig.data, sig.len, tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, longc);
	free(longc);
	sign_secret_key_release(&sk);
	buf_release(&sig);
}

PLUMB_TEST(sign_key_text_round_trip)
{
	struct sign_secret_key sk, sk2;
	struct sign_public_key pk, pk2;
	struct plumb_err err;
	struct buf kt, pt;
	char b64[SIGN_PUBLIC_B64_MAX], id[SIGN_KEYID_HEX], *crlf;

	plumb_err_clear(&err);
	assert_int_equal(sign_keypair(&sk, &pk, &err), 0);
	buf_init(&kt, SIGN_TEXT_MAX);
	buf_init(&pt, SIGN_TEXT_MAX);
	assert_int_equal(sign_secret_key_format(&sk, &kt, &err), 0);
	assert_int_equal(sign_public_key_format(&pk, &pt, &err), 0);
	sign_keyid_hex(pk.keyid, id);
	assert_non_null(strstr(pt.data, id));
	assert_int_equal(strncmp(pt.data, "untrusted comment: minisign public key ", 39), 0);
	assert_int_equal(sign_secret_key_parse(&sk2, kt.data, kt.len, &err), 0);
	assert_memory_equal(&sk2, &sk, sizeof(sk));
	assert_int_equal(sign_public_key_parse(&pk2, pt.data, pt.len, &err), 0);
	assert_memory_equal(&pk2, &pk, sizeof(pk));
	/* The bare base64 string, as minisign -P takes it. */
	sign_public_key_base64(&pk, b64);
	assert_int_equal(strlen(b64), 56);
	assert_string_equal(b64, line_of(pt.data, 2));
	memset(&pk2, 0, sizeof(pk2));
	assert_int_equal(sign_public_key_parse(&pk2, b64, strlen(b64), &err), 0);
	assert_memory_equal(&pk2, &pk, sizeof(pk));
	/* CRLF files read the same. */
	crlf = replace(pt.data, "\n", "\r\n");
	assert_int_equal(sign_public_key_parse(&pk2, crlf, strlen(crlf), &err), 0);
	assert_memory_equal(&pk2, &pk, sizeof(pk));
	free(crlf);
	sign_secret_key_release(&sk);
	sign_secret_key_release(&sk2);
	sodium_memzero(kt.data, kt.cap);
	buf_release(&kt);
	buf_release(&pt);
}

PLUMB_TEST(sign_base64_is_strict)
{
	struct sign_secret_key sk;
	struct sign_public_key pk, pk2;
	struct plumb_err err;
	char b64[SIGN_PUBLIC_B64_MAX], *slash;
	int tries;

	/*
	 * libsodium 1.0.18 decodes 0xaf like '/': the same key, but a changed
	 * file.  Find a key whose text has a '/' and alias it.
	 */
	plumb_err_clear(&err);
	for (tries = 0; tries < 1000; tries++) {
		assert_int_equal(sign_keypair(&sk, &pk, &err), 0);
		sign_secret_key_release(&sk);
		sign_public_key_base64(&pk, b64);
		if ((slash = strchr(b64, '/')))
			break;
	}
	assert_non_null(slash);
	assert_int_equal(sign_public_key_parse(&pk2, b64, strlen(b64), &err), 0);
	*slash = (char)0xaf;
	assert_int_equal(sign_public_key_parse(&pk2, b64, strlen(b64), &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "not a minisign public key"));
	/* Padding is required, white space inside is not allowed. */
	*slash = '/';
	b64[strlen(b64) - 1] = '\0';
	assert_int_equal(sign_public_key_parse(&pk2, b64, strlen(b64), &err), PLUMB_EINPUT);
	b64[10] = ' ';
	assert_int_equal(sign_public_key_parse(&pk2, b64, strlen(b64), &err), PLUMB_EINPUT);
}

PLUMB_TEST(sign_keyid_is_shown_as_minisign_shows_it)
{
	static const unsigned char id[8] = { 0xf9, 0x5b, 0x7a, 0x67, 0x97, 0x57, 0xa8, 0xd9 };
	static const unsigned char low[8] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00 };
	static const unsigned char zero[8] = { 0 };
	char hex[SIGN_KEYID_HEX];

	sign_keyid_hex(id, hex);
	assert_string_equal(hex, "D9A85797677A5BF9");
	/* PRIX64, as minisign: no leading zeros (one key id in sixteen). */
	sign_keyid_hex(low, hex);
	assert_string_equal(hex, "7060504030201");
	sign_keyid_hex(zero, hex);
	assert_string_equal(hex, "0");
}

/* Expect parsing key text to fail with a message containing want. */
static void expect_key_error(int secret, const char *text, const char *want)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct plumb_err err;
	int rc;

	plumb_err_clear(&err);
	rc = secret ? sign_secret_key_parse(&sk, text, strlen(text), &err)
		    : sign_public_key_parse(&pk, text, strlen(text), &err);
	if (rc == 0)
		fail_msg("key accepted, wanted: %s", want);
	assert_int_equal(rc, PLUMB_EINPUT);
	if (!strstr(err.msg, want))
		fail_msg("got:    %s\nwanted: ...%s...", err.msg, want);
	if (secret)
		assert_true(sodium_is_zero((const unsigned char *)&sk, sizeof(sk)));
}

/* Re-encode line 2 of a secret key text after changing byte at to v. */
static char *edit_secret(const char *kt, size_t at, unsigned char v)
{
	unsigned char blob[158];
	char b64[256];
	size_t got;
	const char *l2 = line_of(kt, 2);

	assert_int_equal(sodium_base642bin(blob, sizeof(blob), l2, strlen(l2), NULL, &got, NULL,
					   sodium_base64_VARIANT_ORIGINAL), 0);
	assert_int_equal(got, 158);
	blob[at] = v;
	sodium_bin2base64(b64, sizeof(b64), blob, sizeof(blob), sodium_base64_VARIANT_ORIGINAL);
	return replace(kt, l2, b64);
}

PLUMB_TEST(sign_bad_keys_are_named)
{
	struct sign_secret_key sk;
	struct sign_public_key pk;
	struct plumb_err err;
	struct buf kt, pt;
	char *bad;

	plumb_err_clear(&err);
	assert_int_equal(sign_keypair(&sk, &pk, &err), 0);
	buf_init(&kt, SIGN_TEXT_MAX);
	buf_init(&pt, SIGN_TEXT_MAX);
	assert_int_equal(sign_secret_key_format(&sk, &kt, &err), 0);
	assert_int_equal(sign_public_key_format(&pk, &pt, &err), 0);

	expect_key_error(1, pt.data, "line 2: not a minisign secret key (base64 of 158 bytes expected) (this is a public key)");
	expect_key_error(0, kt.data, "line 2: not a minisign public key (base64 of 42 bytes expected) (this is a secret key)");
	expect_key_error(1, "", "secret key: empty");
	expect_key_error(1, "untrusted comment: x\n", "truncated: line 2 (the key) is missing");
	expect_key_error(1, "hello\nRWQAAA==\n", "line 1: expected 'untrusted comment: ...'");
	expect_key_error(0, "untrusted comment: x\n", "truncated: line 2 (the key) is missing");
	expect_key_error(0, "RWQ!", "public key: not a minisign public key");
	expect_key_error(0, "comment\nRWQ=\n", "line 1: expected 'untrusted comment: ...'");
	bad = replace(pt.data, "\n", "\nmore\n");
	expect_key_error(0, bad, "line 2: not a minisign public key");
	free(bad);
	bad = malloc(pt.len + 8);
	assert_non_null(bad);
	memcpy(bad, pt.data, pt.len);
	memcpy(bad + pt.len, "more\n", 6);
	expect_key_error(0, bad, "line 3: unexpected text after the key");
	free(bad);

	/* An encrypted key: kdf "Sc". */
	{
		char *k1 = edit_secret(kt.data, 2, 'S');
		char *k2 = edit_secret(k1, 3, 'c');

		expect_key_error(1, k2, "encrypted with a password");
		free(k1);
		free(k2);
	}
	bad = edit_secret(kt.data, 2, 'X');
	expect_key_error(1, bad, "unsupported key derivation function");
	free(bad);
	bad = edit_secret(kt.data, 4, 'X');
	expect_key_error(1, bad, "unsupported checksum algorithm");
	free(bad);
	bad = edit_secret(kt.data, 0, 'X');
	expect_key_error(1, bad, "unsupported signature algorithm");
	free(bad);
	/* A flipped secret byte: the checksum catches it. */
	bad = edit_secret(kt.data, 60, 0);
	if (strcmp(bad, kt.data) == 0) {
		free(bad);
		bad = edit_secret(kt.data, 60, 1);
	}
	expect_key_error(1, bad, "checksum does not match (the key is corrupted)");
	free(bad);
	sign_secret_key_release(&sk);
	sodium_memzero(kt.data, kt.cap);
	buf_release(&kt);
	buf_release(&pt);
}

/* The fixture folder path of name. */
static void fixture_path(char *out, size_t cap, const char *name)
{
	snprintf(out, cap, "%s/tests/fixtures/sign/%s", unit_srcdir(), name);
}

static void read_fixture(const char *name, struct buf *b)
{
	char path[4096];
	struct plumb_err err;

	plumb_err_clear(&err);
	fixture_path(path, sizeof(path), name);
	buf_init(b, 1 << 20);
	if (file_read(path, 1 << 20, b, &err) < 0)
		fail_msg("%s", err.msg);
}

PLUMB_TEST(sign_reads_what_minisign_wrote)
{
	struct sign_public_key pk;
	struct sign_secret_key sk;
	struct sign_signature s;
	struct plumb_err err;
	struct buf data, sig, legacy, mine;
	char path[4096], tc[SIGN_TRUSTED_COMMENT_MAX + 1];

	plumb_err_clear(&err);
	fixture_path(path, sizeof(path), "minisign.pub");
	assert_int_equal(sign_public_key_load(&pk, path, &err), 0);
	read_fixture("data.txt", &data);
	read_fixture("data.txt.minisig", &sig);
	read_fixture("data.txt.legacy.minisig", &legacy);
	assert_int_equal(sign_verify(&pk, data.data, data.len, sig.data, sig.len,
				     tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, "bundle id 0123abcd created 2024-05-01T12:34:56Z");
	assert_int_equal(sign_signature_parse(&s, legacy.data, legacy.len, &err), 0);
	assert_int_equal(s.prehashed, 0);
	assert_int_equal(sign_verify(&pk, data.data, data.len, legacy.data, legacy.len,
				     tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, "legacy signature");
	expect_verify_error(&pk, sig.data, sig.len, "does not match the data");

	/* minisign -G -W's secret key (zero checksum) signs for its public key. */
	fixture_path(path, sizeof(path), "minisign.key");
	assert_int_equal(sign_secret_key_load(&sk, path, &err), 0);
	buf_init(&mine, SIGN_TEXT_MAX);
	assert_int_equal(sign_buffer(&sk, data.data, data.len, "re-signed", &mine, &err), 0);
	assert_int_equal(sign_verify(&pk, data.data, data.len, mine.data, mine.len,
				     tc, sizeof(tc), &err), 0);
	sign_secret_key_release(&sk);

	/* A password-protected minisign key is refused with a way out. */
	fixture_path(path, sizeof(path), "encrypted.key");
	plumb_err_clear(&err);
	assert_int_equal(sign_secret_key_load(&sk, path, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, path));
	assert_non_null(strstr(err.msg, "minisign -C -W"));
	fixture_path(path, sizeof(path), "no-such.key");
	assert_int_equal(sign_secret_key_load(&sk, path, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "no-such.key"));
	buf_release(&data);
	buf_release(&sig);
	buf_release(&legacy);
	buf_release(&mine);
}

/* ---- a temporary folder, for keygen and the live minisign tests ---- */

static void make_tmpdir(char *dir, size_t cap)
{
	snprintf(dir, cap, "/tmp/plumb-sign-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void remove_tmpdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
}

static void write_file(const char *dir, const char *name, const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void read_file(const char *dir, const char *name, struct buf *b)
{
	char path[4096];
	struct plumb_err err;

	plumb_err_clear(&err);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf_init(b, 1 << 20);
	if (file_read(path, 1 << 20, b, &err) < 0)
		fail_msg("%s", err.msg);
}

PLUMB_TEST(sign_keygen_writes_a_key_pair)
{
	struct sign_public_key pk, pk2;
	struct sign_secret_key sk;
	struct plumb_err err;
	struct stat st;
	char dir[64], name[128], path[160];

	plumb_err_clear(&err);
	make_tmpdir(dir, sizeof(dir));
	snprintf(name, sizeof(name), "%s/release", dir);
	assert_int_equal(sign_keygen(name, 0, &pk, &err), 0);
	snprintf(path, sizeof(path), "%s.key", name);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(sign_secret_key_load(&sk, path, &err), 0);
	snprintf(path, sizeof(path), "%s.pub", name);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(sign_public_key_load(&pk2, path, &err), 0);
	assert_memory_equal(&pk, &pk2, sizeof(pk));
	sign_public_key_from_secret(&pk2, &sk);
	assert_memory_equal(&pk, &pk2, sizeof(pk));
	sign_secret_key_release(&sk);
	/* An existing pair is kept unless forced. */
	assert_int_equal(sign_keygen(name, 0, &pk2, &err), PLUMB_EARG);
	assert_non_null(strstr(err.msg, "already exists"));
	assert_int_equal(sign_keygen(name, 1, &pk2, &err), 0);
	assert_memory_not_equal(&pk, &pk2, sizeof(pk));
	/* A missing folder is an error naming the file, and nothing is left. */
	snprintf(name, sizeof(name), "%s/none/release", dir);
	assert_true(sign_keygen(name, 0, NULL, &err) < 0);
	assert_non_null(strstr(err.msg, "/none/"));
	remove_tmpdir(dir);
}

/* ---- live interoperability with the stock minisign ---- */

static int have_minisign(void)
{
	return system("command -v minisign >/dev/null 2>&1") == 0;
}

/* Run a shell command (stdin from /dev/null); its exit status. */
static int run(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

PLUMB_TEST(sign_interop_minisign_signs_plumb_verifies)
{
	struct sign_public_key pk;
	struct sign_secret_key sk;
	struct plumb_err err;
	struct buf data, sig, mine;
	char dir[64], path[160], tc[SIGN_TRUSTED_COMMENT_MAX + 1];

	if (!have_minisign())
		skip();
	plumb_err_clear(&err);
	make_tmpdir(dir, sizeof(dir));
	write_file(dir, "SHA256SUMS", data1, strlen(data1));
	assert_int_equal(run("cd %s && minisign -G -W -p m.pub -s m.key </dev/null >out 2>&1", dir), 0);
	assert_int_equal(run("cd %s && minisign -S -s m.key -m SHA256SUMS -t '%s' </dev/null >out 2>&1",
			     dir, tc1), 0);
	assert_int_equal(run("cd %s && minisign -S -l -s m.key -m SHA256SUMS -x legacy.minisig "
			     "-t legacy </dev/null >out 2>&1", dir), 0);

	snprintf(path, sizeof(path), "%s/m.pub", dir);
	assert_int_equal(sign_public_key_load(&pk, path, &err), 0);
	read_file(dir, "SHA256SUMS", &data);
	read_file(dir, "SHA256SUMS.minisig", &sig);
	assert_int_equal(sign_verify(&pk, data.data, data.len, sig.data, sig.len,
				     tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, tc1);
	buf_release(&sig);
	read_file(dir, "legacy.minisig", &sig);
	assert_int_equal(sign_verify(&pk, data.data, data.len, sig.data, sig.len,
				     tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, "legacy");

	/* minisign's unencrypted secret key, used by plumb, checked by minisign. */
	snprintf(path, sizeof(path), "%s/m.key", dir);
	assert_int_equal(sign_secret_key_load(&sk, path, &err), 0);
	buf_init(&mine, SIGN_TEXT_MAX);
	assert_int_equal(sign_buffer(&sk, data.data, data.len, "signed by plumb", &mine, &err), 0);
	sign_secret_key_release(&sk);
	write_file(dir, "SHA256SUMS.minisig", mine.data, mine.len);
	assert_int_equal(run("cd %s && minisign -Vm SHA256SUMS -p m.pub >out 2>&1", dir), 0);
	buf_release(&data);
	buf_release(&sig);
	buf_release(&mine);
	remove_tmpdir(dir);
}

PLUMB_TEST(sign_interop_plumb_signs_minisign_verifies)
{
	struct sign_public_key pk;
	struct sign_secret_key sk;
	struct plumb_err err;
	struct buf sig, out, data;
	char dir[64], name[128], path[160], b64[SIGN_PUBLIC_B64_MAX], *edited;
	char tc[SIGN_TRUSTED_COMMENT_MAX + 1];

	if (!have_minisign())
		skip();
	plumb_err_clear(&err);
	make_tmpdir(dir, sizeof(dir));
	snprintf(name, sizeof(name), "%s/KEY", dir);
	assert_int_equal(sign_keygen(name, 0, &pk, &err), 0);
	snprintf(path, sizeof(path), "%s.key", name);
	assert_int_equal(sign_secret_key_load(&sk, path, &err), 0);
	write_file(dir, "SHA256SUMS", data1, strlen(data1));
	buf_init(&sig, SIGN_TEXT_MAX);
	assert_int_equal(sign_buffer(&sk, data1, strlen(data1), tc1, &sig, &err), 0);
	write_file(dir, "SHA256SUMS.minisig", sig.data, sig.len);

	/* The literal command of README.txt, and the trusted comment shown. */
	assert_int_equal(run("cd %s && minisign -Vm SHA256SUMS -p KEY.pub >out 2>&1", dir), 0);
	read_file(dir, "out", &out);
	assert_non_null(strstr(out.data, "Signature and comment signature verified"));
	assert_non_null(strstr(out.data, "Trusted comment: bundle id 5f1e0c2a created 2024-05-01T12:34:56Z"));
	buf_release(&out);
	/* -Q prints the trusted comment alone. */
	assert_int_equal(run("cd %s && minisign -Q -Vm SHA256SUMS -p KEY.pub >out 2>&1", dir), 0);
	read_file(dir, "out", &out);
	assert_string_equal(out.data, "bundle id 5f1e0c2a created 2024-05-01T12:34:56Z\n");
	buf_release(&out);
	/* The bare public key string. */
	sign_public_key_base64(&pk, b64);
	assert_int_equal(run("cd %s && minisign -Vm SHA256SUMS -P '%s' >out 2>&1", dir, b64), 0);

	/* What plumb rejects, minisign rejects: an edited comment, edited data. */
	edited = replace(sig.data, "5f1e0c2a", "5f1e0c2b");
	write_file(dir, "SHA256SUMS.minisig", edited, strlen(edited));
	assert_int_not_equal(run("cd %s && minisign -Vm SHA256SUMS -p KEY.pub >out 2>&1", dir), 0);
	free(edited);
	write_file(dir, "SHA256SUMS.minisig", sig.data, sig.len);
	write_file(dir, "SHA256SUMS", "x", 1);
	assert_int_not_equal(run("cd %s && minisign -Vm SHA256SUMS -p KEY.pub >out 2>&1", dir), 0);
	write_file(dir, "SHA256SUMS", data1, strlen(data1));

	/* minisign signs with plumb's secret key; plumb verifies. */
	buf_release(&sig);
	assert_int_equal(run("cd %s && minisign -S -s KEY.key -m SHA256SUMS -t 'from minisign' "
			     "</dev/null >out 2>&1", dir), 0);
	read_file(dir, "SHA256SUMS.minisig", &sig);
	read_file(dir, "SHA256SUMS", &data);
	assert_int_equal(sign_verify(&pk, data.data, data.len, sig.data, sig.len,
				     tc, sizeof(tc), &err), 0);
	assert_string_equal(tc, "from minisign");
	/* And minisign re-derives plumb's public key from plumb's secret key. */
	assert_int_equal(run("cd %s && minisign -R -s KEY.key -p again.pub </dev/null >out 2>&1 && "
			     "cmp -s KEY.pub again.pub", dir), 0);
	sign_secret_key_release(&sk);
	buf_release(&sig);
	buf_release(&data);
	remove_tmpdir(dir);
}
