/*
 * examples/fnv/fnv.c: a benchmark that code placement hardly moves.
 *
 *     ./fnv [N]       hash a 64 KiB buffer N times (default 2000)
 *
 * It prints one line, checksum=<16 hex>, a function of N only.  The hot
 * function, hash_all(), is a tight FNV-1a loop: one multiply and one xor
 * per byte, a serial dependency chain with no indirect branch and no
 * data-dependent branch, so its speed is set by the multiplier's latency
 * and barely by where the loop lands.  It is the example whose spread over
 * pads stays within a few percent (bench/truth.sh uses it to check that a
 * planted 10% slowdown is called), beside the placement-sensitive interp.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE 65536

static unsigned char buf[SIZE];

uint64_t hash_all(const unsigned char *p, size_t size, long long rounds);

/* The hot loop: FNV-1a over the buffer, rounds times, chained. */
__attribute__((noinline)) uint64_t hash_all(const unsigned char *p, size_t size, long long rounds)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (long long r = 0; r < rounds; r++) {
		for (size_t i = 0; i < size; i++) {
			h ^= p[i];
			h *= 0x100000001b3ull;
		}
	}
	return h;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	long long n = 2000;
	uint32_t x = 1;

	if (argc > 2 || (argc == 2 && ((n = strtoll(argv[1], &end, 10)) <= 0 || *end != '\0'))) {
		fputs("usage: fnv [N]   (N >= 1, default 2000)\n", stderr);
		return 2;
	}
	for (size_t i = 0; i < SIZE; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (unsigned char)(x >> 16);
	}
	printf("checksum=%016llx\n", (unsigned long long)hash_all(buf, SIZE, n));
	return 0;
}
