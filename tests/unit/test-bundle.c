/*
 * tests/unit/test-bundle.c: formats/bundle*.c and formats/digest.c:
 * names, SHA256SUMS, hashing on a thread, the writer's output read back,
 * and, in-process, every truncation and every single-bit flip of a small
 * bundle plus the limits with shrunken values (a few-KiB bomb).
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <sodium.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/bundle-internal.h"
#include "formats/digest.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "common/banned.h"

/* A scratch folder, removed by cleanup_dir(). */
static void make_dir(char *dir)
{
	assert_non_null(mkdtemp(dir));
}

static void cleanup_dir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void fixture(char *out, size_t cap, const char *name)
{
	snprintf(out, cap, "%s/tests/fixtures/bundle/%s", unit_srcdir(), name);
}

/* Pack a fixture folder into dir/name and read the bundle into b. */
static void pack_fixture(const char *dir, const char *fix, struct buf *b, char id[BUNDLE_ID_HEX])
{
	char in[512], out[512];
	struct plumb_err err;

	fixture(in, sizeof(in), fix);
	snprintf(out, sizeof(out), "%s/%s.plumb", dir, fix);
	plumb_err_clear(&err);
	if (bundle_pack(in, out, NULL, id, &err) != 0)
		fail_msg("pack: %s", err.msg);
	buf_init(b, (size_t)64 << 20);
	assert_int_equal(file_read(out, (size_t)64 << 20, b, &err), 0);
}

/* The decompressed bytes of a zstd stream, or -1 when it does not decode. */
static long decompress(const void *src, size_t len, unsigned char *dst, size_t cap)
{
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	ZSTD_inBuffer ib = { src, len, 0 };
	ZSTD_outBuffer ob = { dst, cap, 0 };
	size_t ret = 1;

	ZSTD_DCtx_setParameter(dc, ZSTD_d_windowLogMax, BUNDLE_WINDOW_LOG_MAX);
	while (ib.pos < ib.size) {
		ret = ZSTD_decompressStream(dc, &ob, &ib);
		if (ZSTD_isError(ret) || ob.pos == ob.size)
			break;
	}
	ZSTD_freeDCtx(dc);
	if (ZSTD_isError(ret) || ret != 0)
		return -1;
	return (long)ob.pos;
}

PLUMB_TEST(digest_threaded_equals_inline)
{
	static const size_t sizes[] = { 0, 1, 63, 64, DIGEST_SLOT_BYTES - 1, DIGEST_SLOT_BYTES,
					DIGEST_SLOT_BYTES + 1, 7 * DIGEST_SLOT_BYTES / 2 + 17 };
	size_t max = sizes[sizeof(sizes) / sizeof(sizes[0]) - 1];
	unsigned char *data = malloc(max);
	struct plumb_err err;

	assert_non_null(data);
	for (size_t i = 0; i < max; i++)
		data[i] = (unsigned char)(i * 2654435761u >> 13);
	plumb_err_clear(&err);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned char one[DIGEST_BYTES], h0[DIGEST_BYTES], h1[DIGEST_BYTES];
		for (int threaded = 0; threaded <= 1; threaded++) {
			struct digest d;
			size_t pos = 0, step = 1;
			assert_int_equal(digest_init(&d, threaded, &err), 0);
			/* Uneven pieces, so slot boundaries fall mid-piece. */
			while (pos < sizes[s]) {
				size_t n = step < sizes[s] - pos ? step : sizes[s] - pos;
				assert_int_equal(digest_update(&d, data + pos, n, &err), 0);
				pos += n;
				step = step * 3 + 1;
			}
			assert_int_equal(digest_final(&d, threaded ? h1 : h0, &err), 0);
		}
		digest_buffer(data, sizes[s], one);
		assert_memory_equal(one, h0, DIGEST_BYTES);
		assert_memory_equal(one, h1, DIGEST_BYTES);
	}
	free(data);
}

PLUMB_TEST(digest_abandoned_on_a_thread)
{
	static unsigned char data[3 * DIGEST_SLOT_BYTES];
	struct plumb_err err;
	struct digest d;

	plumb_err_clear(&err);
	assert_int_equal(digest_init(&d, 1, &err), 0);
	assert_int_equal(digest_update(&d, data, sizeof(data), &err), 0);
	digest_release(&d);
	digest_release(&d);   /* twice is harmless */
}

PLUMB_TEST(digest_hex_round_trip)
{
	unsigned char h[DIGEST_BYTES], back[DIGEST_BYTES];
	char hex[DIGEST_HEX];

	digest_buffer("abc", 3, h);
	digest_hex(h, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(digest_from_hex(hex, 64, back), 0);
	assert_memory_equal(h, back, DIGEST_BYTES);
	hex[3] = 'A';
	assert_int_equal(digest_from_hex(hex, 64, back), -1);
	assert_int_equal(digest_from_hex(hex, 63, back), -1);
}

PLUMB_TEST(bundle_names)
{
	static const struct { const char *name; const char *why; } cases[] = {
		{ "manifest.json", NULL },
		{ "logs/build-base-0.log", NULL },
		{ "a/b/c_d-e.f", NULL },
		{ "", "empty name" },
		{ "/abs", "absolute path" },
		{ "../x", "path escapes" },
		{ "a/../../x", "path escapes" },
		{ "a/..", "path escapes" },
		{ "./x", "'.' path component" },
		{ "a//b", "empty path component" },
		{ "a/", "empty path component" },
		{ "a b", "character outside" },
		{ "a\\b", "character outside" },
		{ "caf\xc3\xa9", "character outside" },
		{ "x\ny", "character outside" },
	};
	char big[BUNDLE_MAX_NAME + 2];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = bundle_name_problem(cases[i].name, strlen(cases[i].name));
		if (!cases[i].why) {
			assert_null(why);
		} else {
			assert_non_null(why);
			assert_non_null(strstr(why, cases[i].why));
		}
	}
	/* 4096 bytes in components of at most 255: fine; one more is not. */
	memset(big, 'a', sizeof(big));
	for (size_t i = 200; i < BUNDLE_MAX_NAME; i += 201)
		big[i] = '/';
	assert_null(bundle_name_problem(big, BUNDLE_MAX_NAME));
	assert_non_null(strstr(bundle_name_problem(big, BUNDLE_MAX_NAME + 1), "longer than 4096"));
	memset(big, 'a', 256);
	assert_non_null(strstr(bundle_name_problem(big, 256), "longer than 255"));
	assert_null(bundle_name_problem(big, 255));
}

PLUMB_TEST(bundle_sums_text)
{
	const char *good =
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  README.txt\n"
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  logs/a.log\n";
	static const struct { const char *text; const char *msg; } bad[] = {
		{ "", "SHA256SUMS: empty" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a", "does not end" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad a\n", "line 1: malformed line" },
		{ "BA7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n", "line 1: malformed checksum" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad *a\n", "line 1: malformed line" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  b\n"
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n", "line 2: not sorted" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n"
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  a\n", "line 2: member listed twice" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  ../a\n", "line 1: path escapes" },
		{ "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  SHA256SUMS.sig\n", "lists itself" },
		{ "\n", "line 1: malformed line" },
	};
	struct bundle_sum *s;
	struct plumb_err err;
	size_t n;

	plumb_err_clear(&err);
	assert_int_equal(bundle_sums_parse(good, strlen(good), &s, &n, &err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(s[1].name, "logs/a.log");
	bundle_sums_free(s, n);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(bundle_sums_parse(bad[i].text, strlen(bad[i].text), &s, &n, &err),
				 PLUMB_EINPUT);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, bad[i].msg);
	}
}

PLUMB_TEST(bundle_trusted_comment_names_the_id)
{
	char c[200], id[BUNDLE_ID_HEX];
	const char *want = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

	assert_int_equal(bundle_trusted_comment(want, "2025-01-02T03:04:05Z", c, sizeof(c)), 0);
	assert_string_equal(c, "bundle:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
			       "\tcreated:2025-01-02T03:04:05Z");
	assert_int_equal(bundle_comment_id(c, id), 0);
	assert_string_equal(id, want);
	assert_int_equal(bundle_comment_id("timestamp:1\tfile:SHA256SUMS", id), -1);
	assert_int_equal(bundle_comment_id("x\tbundle:0123", id), -1);
	assert_int_equal(bundle_trusted_comment(want, "t", c, 20), -1);
}

PLUMB_TEST(bundle_write_read_round_trip)
{
	char dir[] = "/tmp/plumb-unit-bundle-XXXXXX";
	char path[600], logpath[600], mpath[512], spath[512];
	char id[BUNDLE_ID_HEX], id2[BUNDLE_ID_HEX];
	struct bundle_log logs[2];
	struct bundle_write_spec spec;
	struct bundle_info info;
	struct plumb_err err;
	struct buf m, b1, b2;
	FILE *f;

	make_dir(dir);
	plumb_err_clear(&err);
	fixture(mpath, sizeof(mpath), "run/manifest.json");
	fixture(spath, sizeof(spath), "run/samples.tsv");
	buf_init(&m, MANIFEST_MAX_BYTES);
	assert_int_equal(file_read(mpath, MANIFEST_MAX_BYTES, &m, &err), 0);
	/* A log big enough to be hashed on the helper thread. */
	snprintf(logpath, sizeof(logpath), "%s/big.log", dir);
	f = fopen(logpath, "w");
	assert_non_null(f);
	for (int i = 0; i < 400000; i++)
		fprintf(f, "line %d of a long build log\n", i);
	fclose(f);
	logs[0].name = "logs/z-big.log";
	logs[0].path = logpath;
	logs[1].name = "logs/a.log";
	logs[1].path = mpath;
	memset(&spec, 0, sizeof(spec));
	spec.manifest_json = m.data;
	spec.manifest_len = m.len;
	spec.samples_path = spath;
	spec.logs = logs;
	spec.n_logs = 2;
	spec.mtime = 1700000000;
	snprintf(path, sizeof(path), "%s/a.plumb", dir);
	if (bundle_write(path, &spec, id, &err) != 0)
		fail_msg("%s", err.msg);
	buf_init(&b1, (size_t)64 << 20);
	assert_int_equal(file_read(path, (size_t)64 << 20, &b1, &err), 0);
	snprintf(path, sizeof(path), "%s/b.plumb", dir);
	assert_int_equal(bundle_write(path, &spec, id2, &err), 0);
	buf_init(&b2, (size_t)64 << 20);
	assert_int_equal(file_read(path, (size_t)64 << 20, &b2, &err), 0);
	assert_string_equal(id, id2);
	assert_int_equal(b1.len, b2.len);
	assert_memory_equal(b1.data, b2.data, b1.len);

	bundle_info_init(&info);
	if (bundle_verify_mem(b1.data, b1.len, "a.plumb", NULL, &info, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(info.id, id);
	assert_int_equal(info.n_members, 7);
	assert_string_equal(info.members[0].name, "README.txt");
	assert_string_equal(info.members[1].name, "SHA256SUMS");
	assert_string_equal(info.members[2].name, "logs");
	assert_true(info.members[2].is_dir);
	assert_string_equal(info.members[3].name, "logs/a.log");
	assert_string_equal(info.members[4].name, "logs/z-big.log");
	assert_true(info.members[4].size > BUNDLE_THREADED_HASH);
	assert_string_equal(info.members[5].name, "manifest.json");
	assert_string_equal(info.members[6].name, "samples.tsv");
	assert_int_equal(info.samples_rows, 155);
	assert_int_equal(info.sig, BUNDLE_SIG_NONE);
	assert_string_equal(info.manifest.repo.base.ref, "v1.2.0");
	bundle_info_release(&info);

	/* A log name of another form is refused before anything is written. */
	logs[1].name = "logs/a.txt";
	snprintf(path, sizeof(path), "%s/c.plumb", dir);
	assert_int_equal(bundle_write(path, &spec, id, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "logs/a.txt"));
	assert_int_equal(access(path, F_OK), -1);

	buf_release(&m);
	buf_release(&b1);
	buf_release(&b2);
	cleanup_dir(dir);
}

/* Every prefix of a small bundle is refused, cleanly. */
PLUMB_TEST(bundle_every_truncation_refused)
{
	char dir[] = "/tmp/plumb-unit-bundle-XXXXXX";
	char id[BUNDLE_ID_HEX];
	struct bundle_info info;
	struct plumb_err err;
	struct buf b;

	make_dir(dir);
	pack_fixture(dir, "small", &b, id);
	bundle_info_init(&info);
	plumb_err_clear(&err);
	assert_int_equal(bundle_verify_mem(b.data, b.len, "t.plumb", NULL, &info, &err), 0);
	for (size_t n = 0; n < b.len; n++) {
		int rc = bundle_verify_mem(b.data, n, "t.plumb", NULL, &info, &err);
		if (rc != PLUMB_EINPUT || strncmp(err.msg, "t.plumb: ", 9) != 0)
			fail_msg("truncated to %zu of %zu bytes: %d %s", n, b.len, rc, err.msg);
	}
	bundle_info_release(&info);
	buf_release(&b);
	cleanup_dir(dir);
}

/*
 * Every single-bit flip of a small bundle is refused, unless the file
 * still decompresses to the very same tar stream: the frame header's
 * unused bit, a smaller window that still suffices, a padding bit of an
 * entropy-coded stream.  Then the bundle is the same bundle.
 */
PLUMB_TEST(bundle_every_bit_flip_refused)
{
	char dir[] = "/tmp/plumb-unit-bundle-XXXXXX";
	char id[BUNDLE_ID_HEX];
	struct bundle_info info;
	struct plumb_err err;
	unsigned char *orig = malloc(1 << 20), *out = malloc(1 << 20);
	long orig_len;
	size_t benign = 0;
	struct buf b;

	assert_non_null(orig);
	assert_non_null(out);
	make_dir(dir);
	pack_fixture(dir, "small", &b, id);
	orig_len = decompress(b.data, b.len, orig, 1 << 20);
	assert_true(orig_len > 0);
	bundle_info_init(&info);
	plumb_err_clear(&err);
	for (size_t bit = 0; bit < 8 * b.len; bit++) {
		int rc;
		b.data[bit / 8] ^= (char)(1 << (bit % 8));
		rc = bundle_verify_mem(b.data, b.len, "f.plumb", NULL, &info, &err);
		if (rc == 0) {
			long n = decompress(b.data, b.len, out, 1 << 20);
			if (n != orig_len || memcmp(out, orig, (size_t)n) != 0)
				fail_msg("bit %zu flipped: accepted with other content", bit);
			assert_string_equal(info.id, id);
			benign++;
		} else if (rc != PLUMB_EINPUT || strncmp(err.msg, "f.plumb: ", 9) != 0) {
			fail_msg("bit %zu flipped: %d %s", bit, rc, err.msg);
		}
		b.data[bit / 8] ^= (char)(1 << (bit % 8));
	}
	/*
	 * Harmless flips exist (unused header bits, padding bits of entropy
	 * streams): they decode to the same bytes.  They are rare.
	 */
	assert_true(benign * 50 < 8 * b.len);
	bundle_info_release(&info);
	buf_release(&b);
	free(orig);
	free(out);
	cleanup_dir(dir);
}

/* Append a zstd frame of size zero bytes made of RLE blocks. */
static void add_rle_frame(struct buf *b, size_t size)
{
	static const unsigned char hdr[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, (17 - 10) << 3 };

	assert_int_equal(buf_add(b, hdr, sizeof(hdr)), 0);
	while (size > 0) {
		size_t n = size < 131072 ? size : 131072;
		unsigned v;
		unsigned char blk[4];
		size -= n;
		v = (size == 0 ? 1u : 0u) | (1u << 1) | ((unsigned)n << 3);
		blk[0] = (unsigned char)v;
		blk[1] = (unsigned char)(v >> 8);
		blk[2] = (unsigned char)(v >> 16);
		blk[3] = 0;
		assert_int_equal(buf_add(b, blk, 4), 0);
	}
}

PLUMB_TEST(bundle_limits_shrunk)
{
	char dir[] = "/tmp/plumb-unit-bundle-XXXXXX";
	char id[BUNDLE_ID_HEX];
	struct bundle_read_opts opts = { .limits = NULL };
	struct bundle_limits lim;
	struct bundle_info info;
	struct plumb_err err;
	struct buf b;
	size_t good_len;

	make_dir(dir);
	pack_fixture(dir, "small", &b, id);
	good_len = b.len;
	bundle_info_init(&info);
	plumb_err_clear(&err);
	opts.limits = &lim;

	/* A bomb of a few KiB: zeros after the tar end, past a 1 MiB limit. */
	bundle_limits_default(&lim);
	lim.max_total = (uint64_t)1 << 20;
	add_rle_frame(&b, (size_t)2 << 20);
	assert_true(b.len < good_len + 100);
	assert_int_equal(bundle_verify_mem(b.data, b.len, "bomb", &opts, &info, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "bomb: uncompressed size exceeds 1048576 bytes (the limit)");
	/* Below the limit the zeros are fine. */
	b.len = good_len;
	add_rle_frame(&b, (size_t)512 << 10);
	assert_int_equal(bundle_verify_mem(b.data, b.len, "zeros", &opts, &info, &err), 0);
	b.len = good_len;

	/* The window: the writer uses 8 MiB, so a 1 MiB limit refuses it. */
	bundle_limits_default(&lim);
	lim.window_log_max = 20;
	assert_int_equal(bundle_verify_mem(b.data, b.len, "w", &opts, &info, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "w: zstd frame window larger than 1048576 bytes (the limit)");

	bundle_limits_default(&lim);
	lim.max_members = 3;
	assert_int_equal(bundle_verify_mem(b.data, b.len, "m", &opts, &info, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "m: more than 3 members (the limit)");

	bundle_limits_default(&lim);
	lim.max_member = 100;
	assert_int_equal(bundle_verify_mem(b.data, b.len, "s", &opts, &info, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "s: member 'README.txt': "));
	assert_non_null(strstr(err.msg, "more than 100 (the limit)"));

	bundle_limits_default(&lim);
	lim.max_file = 1000;
	assert_int_equal(bundle_verify_mem(b.data, b.len, "f", &opts, &info, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "f: file larger than 1000 bytes (the limit)");

	bundle_limits_default(&lim);
	lim.max_samples_rows = 5;
	assert_int_equal(bundle_verify_mem(b.data, b.len, "r", &opts, &info, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "r: samples.tsv: line 7: more than 5 rows"));

	bundle_info_release(&info);
	buf_release(&b);
	cleanup_dir(dir);
}

/* A member whose header claims more than the total limit stops at the header. */
PLUMB_TEST(bundle_declared_size_checked_before_data)
{
	struct bundle_read_opts opts = { .limits = NULL };
	struct bundle_limits lim;
	struct bundle_info info;
	struct plumb_err err;
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	size_t cap = (size_t)4 << 20, used = 0, zcap;
	char *tar = calloc(1, cap), *z;
	static char zeros[65536];

	assert_non_null(tar);
	archive_write_set_format_pax_restricted(a);
	archive_write_set_bytes_per_block(a, 0);
	assert_int_equal(archive_write_open_memory(a, tar, cap, &used), ARCHIVE_OK);
	archive_entry_set_pathname(e, "samples.tsv");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, 3 << 20);
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	for (int i = 0; i < 48; i++)
		archive_write_data(a, zeros, sizeof(zeros));
	archive_write_close(a);
	archive_write_free(a);
	archive_entry_free(e);
	zcap = ZSTD_compressBound(used);
	z = malloc(zcap);
	assert_non_null(z);
	zcap = ZSTD_compress(z, zcap, tar, used, 3);
	assert_false(ZSTD_isError(zcap));

	bundle_limits_default(&lim);
	lim.max_total = (uint64_t)1 << 20;
	opts.limits = &lim;
	bundle_info_init(&info);
	plumb_err_clear(&err);
	assert_int_equal(bundle_verify_mem(z, zcap, "d", &opts, &info, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "d: member 'samples.tsv': the members' sizes add up to more "
			    "than 1048576 bytes (the limit)");
	bundle_info_release(&info);
	free(tar);
	free(z);
}

PLUMB_TEST(bundle_not_a_bundle)
{
	struct bundle_info info;
	struct plumb_err err;

	bundle_info_init(&info);
	plumb_err_clear(&err);
	assert_int_equal(bundle_verify_mem("", 0, "e", NULL, &info, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "e: empty file");
	assert_int_equal(bundle_verify_mem("hello world", 11, "h", NULL, &info, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "h: not a zstd stream"));
	assert_int_equal(bundle_verify_mem("\x28\xb5\x2f\xfd", 4, "z", NULL, &info, &err),
			 PLUMB_EINPUT);
	bundle_info_release(&info);
}

PLUMB_TEST(bundle_sign_and_check)
{
	char dir[] = "/tmp/plumb-unit-bundle-XXXXXX";
	char in[512], out[600], id[BUNDLE_ID_HEX];
	struct sign_secret_key sk, sk2;
	struct sign_public_key pk, pk2;
	struct bundle_read_opts opts = { .require_signature = 1 };
	struct bundle_info info;
	struct plumb_err err;

	make_dir(dir);
	plumb_err_clear(&err);
	assert_int_equal(sign_keypair(&sk, &pk, &err), 0);
	assert_int_equal(sign_keypair(&sk2, &pk2, &err), 0);
	fixture(in, sizeof(in), "small");
	snprintf(out, sizeof(out), "%s/s.plumb", dir);
	assert_int_equal(bundle_pack(in, out, NULL, id, &err), 0);
	bundle_info_init(&info);
	opts.pubkey = &pk;
	assert_int_equal(bundle_verify_path(out, &opts, &info, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "not signed"));
	assert_int_equal(bundle_sign(out, &sk, &info, &err), 0);
	assert_string_equal(info.id, id);
	assert_int_equal(info.sig, BUNDLE_SIG_GOOD);
	assert_int_equal(bundle_verify_path(out, &opts, &info, &err), 0);
	assert_non_null(strstr(info.sig_comment, id));
	opts.pubkey = &pk2;
	assert_int_equal(bundle_verify_path(out, &opts, &info, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "SHA256SUMS.sig"));
	opts.pubkey = NULL;
	assert_int_equal(bundle_verify_path(out, &opts, &info, &err), PLUMB_EARG);
	opts.require_signature = 0;
	assert_int_equal(bundle_verify_path(out, &opts, &info, &err), 0);
	assert_int_equal(info.sig, BUNDLE_SIG_UNCHECKED);
	bundle_info_release(&info);
	sign_secret_key_release(&sk);
	sign_secret_key_release(&sk2);
	cleanup_dir(dir);
}

/* ---- the specification's limits are the compiled ones ------------------------ */

/* The values a limit cell states: "4 GiB (4,294,967,296 bytes)", "8 MiB (2^23
 * bytes)", "255 / 64 bytes".  Numbers in parentheses count only when "bytes"
 * follows them ("32 (the top-level object is depth 1)" states 32). */
static size_t cell_values(const char *cell, uint64_t *out, size_t max)
{
	size_t n = 0;
	int paren = 0;

	for (const char *p = cell; *p && n < max; ) {
		uint64_t v = 0;
		const char *q = p;

		if (*p == '(' || *p == ')') {
			paren = *p == '(';
			p++;
			continue;
		}
		if (*p < '0' || *p > '9' || (p > cell && ((p[-1] >= 'a' && p[-1] <= 'z') || p[-1] == '_'))) {
			p++;
			continue;
		}
		while ((*q >= '0' && *q <= '9') || (*q == ',' && q[1] >= '0' && q[1] <= '9')) {
			if (*q != ',')
				v = v * 10 + (uint64_t)(*q - '0');
			q++;
		}
		if (*q == '^') {
			uint64_t e = 0;
			for (q++; *q >= '0' && *q <= '9'; q++)
				e = e * 10 + (uint64_t)(*q - '0');
			v = (uint64_t)1 << e;
		}
		if (strncmp(q, " GiB", 4) == 0)
			v <<= 30;
		else if (strncmp(q, " MiB", 4) == 0)
			v <<= 20;
		else if (strncmp(q, " KiB", 4) == 0)
			v <<= 10;
		if (!paren || strncmp(q, " bytes", 6) == 0) {
			int seen = 0;
			for (size_t i = 0; i < n; i++)
				seen |= out[i] == v;
			if (!seen)
				out[n++] = v;
		}
		p = q;
	}
	return n;
}

PLUMB_TEST(bundle_spec_limits_are_the_constants)
{
	struct bundle_limits lim;
	struct limit_row {
		const char *what;
		uint64_t v[2];
		size_t n;
		int seen;
	} rows[] = {
		{ "bundle file (compressed)", { 0 }, 1, 0 },
		{ "tar stream (uncompressed, headers, padding and trailer included)", { 0 }, 1, 0 },
		{ "the data of one member", { 0 }, 1, 0 },
		{ "`README.txt`", { BUNDLE_MAX_README }, 1, 0 },
		{ "`manifest.json`", { BUNDLE_MAX_MANIFEST, BUNDLE_MAX_JSON_VALUES }, 2, 0 },
		{ "`SHA256SUMS`", { BUNDLE_MAX_SUMS }, 1, 0 },
		{ "`SHA256SUMS.sig`", { BUNDLE_MAX_SIG }, 1, 0 },
		{ "each `logs/` member", { BUNDLE_MAX_LOG }, 1, 0 },
		{ "tar entries (folders included)", { 0 }, 1, 0 },
		{ "member name", { BUNDLE_MAX_NAME }, 1, 0 },
		{ "name component", { BUNDLE_MAX_COMPONENT }, 1, 0 },
		{ "zstd window", { 0 }, 1, 0 },
		{ "manifest nesting depth", { MANIFEST_MAX_DEPTH }, 1, 0 },
		{ "manifest JSON values", { BUNDLE_MAX_JSON_VALUES }, 1, 0 },
		{ "samples.tsv line", { SAMPLES_DEFAULT_MAX_LINE }, 1, 0 },
		{ "samples.tsv data rows", { 0 }, 1, 0 },
		{ "samples.tsv `bench` / `metric`", { SAMPLES_NAME_MAX, SAMPLES_METRIC_MAX }, 2, 0 },
		{ "distinct rounds of the verdict metrics (bench, side, pad, round)",
		  { BUNDLE_MAX_ROUNDS }, 1, 0 },
		{ "bootstrap draws (`rule.resamples` x distinct rounds, summed over the margin and "
		  "overlap benchmarks)", { BUNDLE_MAX_DRAWS }, 1, 0 },
		{ "each `artifacts/` member", { BUNDLE_MAX_ARTIFACT }, 1, 0 },
	};
	const size_t nrows = sizeof(rows) / sizeof(rows[0]);
	char path[4096];
	struct plumb_err err;
	struct buf spec;
	const char *p, *end;
	size_t table_rows = 0;

	/* What the reader enforces, where it is a run-time limit. */
	bundle_limits_default(&lim);
	rows[0].v[0] = lim.max_file;
	rows[1].v[0] = lim.max_total;
	rows[2].v[0] = lim.max_member;
	rows[8].v[0] = lim.max_members;
	rows[11].v[0] = (uint64_t)1 << lim.window_log_max;
	rows[15].v[0] = lim.max_samples_rows;

	snprintf(path, sizeof(path), "%s/formats/bundle-v1.md", unit_srcdir());
	buf_init(&spec, 1 << 20);
	plumb_err_clear(&err);
	assert_int_equal(file_read(path, 1 << 20, &spec, &err), 0);
	p = strstr(buf_cstr(&spec), "\n## 11. Limits\n");
	assert_non_null(p);
	p = strstr(p, "\n| what | limit |\n|---|---|\n");
	assert_non_null(p);
	p = strchr(p + 1, '\n');
	p = strchr(p + 1, '\n') + 1;
	/* Every row of the table: a known limit, stating exactly its values. */
	for (; strncmp(p, "| ", 2) == 0; p = end + 1) {
		char line[512], *bar;
		uint64_t got[8];
		size_t ngot, i;

		end = strchr(p, '\n');
		assert_non_null(end);
		assert_true((size_t)(end - p) < sizeof(line));
		memcpy(line, p + 2, (size_t)(end - p) - 2);
		line[end - p - 2] = '\0';
		bar = strstr(line, " | ");
		assert_non_null(bar);
		*bar = '\0';
		if (strlen(bar + 3) >= 2 && strcmp(bar + 3 + strlen(bar + 3) - 2, " |") == 0)
			bar[3 + strlen(bar + 3) - 2] = '\0';
		table_rows++;
		for (i = 0; i < nrows && strcmp(rows[i].what, line) != 0; i++)
			;
		if (i == nrows)
			fail_msg("formats/bundle-v1.md: limit '%s' is not tied to a constant", line);
		rows[i].seen = 1;
		ngot = cell_values(bar + 3, got, 8);
		if (ngot != rows[i].n)
			fail_msg("formats/bundle-v1.md: '%s' states %zu values, the code has %zu",
				 line, ngot, rows[i].n);
		for (size_t k = 0; k < rows[i].n; k++) {
			int found = 0;
			for (size_t g = 0; g < ngot; g++)
				found |= got[g] == rows[i].v[k];
			if (!found)
				fail_msg("formats/bundle-v1.md: '%s': the code's limit is %llu, the text says %s",
					 line, (unsigned long long)rows[i].v[k], bar + 3);
		}
	}
	assert_int_equal(table_rows, nrows);
	for (size_t i = 0; i < nrows; i++)
		if (!rows[i].seen)
			fail_msg("formats/bundle-v1.md: no row for the limit '%s'", rows[i].what);
	buf_release(&spec);
}
