/*
 * examples/samples/varint.c: a samples-mode benchmark built on plumb/bench.h.
 *
 * One iteration is a round trip through a small codec: 4096 signed 64-bit
 * integers are zigzag + LEB128 varint encoded into a byte buffer, decoded
 * back, and compared with the originals.  One input value changes per
 * iteration, so no two iterations compute the same thing.  The hot function
 * is `roundtrip` (plumb.conf: hot = roundtrip).
 *
 *     ./varint [ITERS]      default 4000 timed iterations after 200 warmup
 *
 * Under plumb (PLUMB_SAMPLES_FD set) the header streams one duration per
 * iteration to plumb; run by hand it prints min/median/p99/max.  Either way
 * the last line is checksum=<hex>: encoded sizes and decoded values folded
 * together, the same for every correct build of this file.  A round trip
 * that does not give back its input exits 1.
 */
#include <plumb/bench.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 4096
#define MAX_VARINT 10

static int64_t values[COUNT];
static int64_t decoded[COUNT];
static uint8_t bytes[COUNT * MAX_VARINT];

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* Encode n values; returns the number of bytes written to out. */
static size_t encode(const int64_t *in, size_t n, uint8_t *out)
{
	uint8_t *p = out;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t u = zigzag(in[i]);

		while (u >= 0x80) {
			*p++ = (uint8_t)(u | 0x80);
			u >>= 7;
		}
		*p++ = (uint8_t)u;
	}
	return (size_t)(p - out);
}

/* Decode n values from len bytes; returns 0, or -1 on truncated or overlong input. */
static int decode(const uint8_t *in, size_t len, int64_t *out, size_t n)
{
	const uint8_t *p = in, *end = in + len;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t u = 0;
		unsigned shift = 0;

		for (;;) {
			if (p == end || shift > 63)
				return -1;
			u |= (uint64_t)(*p & 0x7f) << shift;
			if ((*p++ & 0x80) == 0)
				break;
			shift += 7;
		}
		out[i] = unzigzag(u);
	}
	return p == end ? 0 : -1;
}

uint64_t roundtrip(uint64_t index);

/* One iteration: change one value, round-trip all of them, fold what came back. */
__attribute__((noinline)) uint64_t roundtrip(uint64_t index)
{
	size_t len, slot = (size_t)(index % COUNT);
	uint64_t h;

	values[slot] ^= (int64_t)(index * 0x9e3779b97f4a7c15ULL >> (index % 64));
	len = encode(values, COUNT, bytes);
	if (decode(bytes, len, decoded, COUNT) != 0 ||
	    memcmp(values, decoded, sizeof(decoded)) != 0) {
		fprintf(stderr, "varint: iteration %llu: the round trip lost data\n",
			(unsigned long long)index);
		exit(1);
	}
	h = (uint64_t)len;
	h = h * 31 + (uint64_t)decoded[slot];
	h = h * 31 + (uint64_t)decoded[(slot * 7 + 1) % COUNT];
	return h;
}

/* Fixed inputs of every size: 1 to 10 bytes once encoded. */
static void fill(void)
{
	uint64_t x = 88172645463325252ULL;
	size_t i;

	for (i = 0; i < COUNT; i++) {
		unsigned bits;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		bits = (unsigned)(x % 63) + 1;
		values[i] = (int64_t)(x >> (64 - bits)) * ((x & 0x100) ? -1 : 1);
	}
}

int main(int argc, char **argv)
{
	struct plumb_bench b;
	unsigned long long iters = 4000;
	char *end = NULL;

	if (argc > 2 || (argc == 2 && (argv[1][0] < '0' || argv[1][0] > '9' ||
	    (iters = strtoull(argv[1], &end, 10)) == 0 || *end != '\0'))) {
		fputs("usage: varint [ITERS]\n", stderr);
		return 2;
	}
	fill();
	if (plumb_bench_init(&b, "varint", 200, iters) != 0)
		return 1;
	while (plumb_bench_next(&b))
		plumb_bench_sink(&b, roundtrip(plumb_bench_index(&b)));
	return plumb_bench_finish(&b) == 0 ? 0 : 1;
}
