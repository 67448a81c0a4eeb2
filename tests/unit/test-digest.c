/*
 * tests/unit/test-digest.c: formats/digest on the NIST vectors (FIPS 180-2
 * examples), through each backend, one-shot and streamed in pieces that
 * split the 64-byte blocks and the helper's slots at odd places.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "tests/unit/unit.h"
#include "common/err.h"
#include "formats/digest.h"
#include "common/banned.h"

struct vector {
	const char *msg;
	size_t repeat;        /* msg this many times */
	const char *sha256;
};

static const struct vector nist[] = {
	{ "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu", 1,
	  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	{ "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
};

static unsigned char *expand(const struct vector *v, size_t *len)
{
	size_t n = strlen(v->msg);
	unsigned char *p = malloc(n * v->repeat + 1);

	assert_non_null(p);
	for (size_t i = 0; i < v->repeat; i++)
		memcpy(p + i * n, v->msg, n);
	*len = n * v->repeat;
	return p;
}

/* Stream data through d in pieces of 1, 2, 5, 14, 41, ... bytes (step*3 - 1). */
static void stream(const unsigned char *data, size_t len, int threaded, char hex[DIGEST_HEX])
{
	unsigned char h[DIGEST_BYTES];
	struct plumb_err err;
	struct digest d;
	size_t pos = 0, step = 1;

	plumb_err_clear(&err);
	assert_int_equal(digest_init(&d, threaded, &err), 0);
	while (pos < len) {
		size_t n = step < len - pos ? step : len - pos;
		assert_int_equal(digest_update(&d, data + pos, n, &err), 0);
		pos += n;
		step = step * 3 - 1;
		if (step > 3 * DIGEST_SLOT_BYTES)
			step = 7;
	}
	assert_int_equal(digest_final(&d, h, &err), 0);
	digest_hex(h, hex);
}

static void check_vectors(const char *backend)
{
	for (size_t i = 0; i < sizeof(nist) / sizeof(nist[0]); i++) {
		char hex[DIGEST_HEX];
		size_t len;
		unsigned char *data = expand(&nist[i], &len);

		digest_buffer_hex(data, len, hex);
		assert_string_equal(hex, nist[i].sha256);
		assert_string_equal(digest_backend(), backend);
		stream(data, len, 0, hex);
		assert_string_equal(hex, nist[i].sha256);
		stream(data, len, 1, hex);
		assert_string_equal(hex, nist[i].sha256);
		free(data);
	}
}

PLUMB_TEST(digest_nist_vectors_libcrypto)
{
	digest_force_sodium(0);
	check_vectors("libcrypto");
}

PLUMB_TEST(digest_nist_vectors_libsodium)
{
	digest_force_sodium(1);
	check_vectors("libsodium");
	digest_force_sodium(0);
}

PLUMB_TEST(digest_backends_agree_on_odd_lengths)
{
	/* Every length around the block and padding edges, and past a slot. */
	size_t max = DIGEST_SLOT_BYTES + 200;
	unsigned char *data = malloc(max);

	assert_non_null(data);
	for (size_t i = 0; i < max; i++)
		data[i] = (unsigned char)(i * 2654435761u >> 11);
	for (size_t len = 0; len <= max; len += len < 300 ? 1 : 65537) {
		unsigned char ref[DIGEST_BYTES];
		char want[DIGEST_HEX], hex[DIGEST_HEX];

		crypto_hash_sha256(ref, data, len);
		digest_hex(ref, want);
		digest_force_sodium(0);
		digest_buffer_hex(data, len, hex);
		assert_string_equal(hex, want);
		stream(data, len, len % 2, hex);
		assert_string_equal(hex, want);
		digest_force_sodium(1);
		stream(data, len, !(len % 2), hex);
		assert_string_equal(hex, want);
	}
	digest_force_sodium(0);
	free(data);
}
