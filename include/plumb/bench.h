/*
 * plumb/bench.h: a single-header timed loop for benchmarks that report one
 * duration per iteration (plumb's "samples" mode), for C99 and C++11.
 *
 *     #include <plumb/bench.h>       (first, or build with -D_GNU_SOURCE)
 *
 *     int main(void)
 *     {
 *             struct plumb_bench b;
 *
 *             if (plumb_bench_init(&b, "crc32", 1000, 100000) != 0)
 *                     return 1;
 *             while (plumb_bench_next(&b))
 *                     plumb_bench_sink(&b, crc32(buf, len));
 *             return plumb_bench_finish(&b) == 0 ? 0 : 1;
 *     }
 *
 * What it does (steady-state warm-up and per-iteration timing):
 *   - warmup: the first `warmup` iterations run untimed; their results are
 *     still folded into the checksum.  plumb applies its own steady-state
 *     policy on top; pass 0 to hand it every iteration (cold mode).
 *   - per-iteration timing: each of the `iters` timed iterations is timed
 *     on its own with CLOCK_MONOTONIC, from the end of one
 *     plumb_bench_next() call to the start of the next one.
 *   - under Valgrind (plumb's bench.NAME.counter = valgrind), only the
 *     bodies of the timed iterations are counted (callgrind client
 *     requests, see below and docs/bench-h.md).
 *   - the dead-code trap: a result nothing uses is a loop the compiler may
 *     delete.  plumb_bench_sink() folds every result into a checksum that
 *     plumb_bench_finish() prints, so the work cannot be proven dead, and
 *     the printed checksum is an oracle: two builds of the same code must
 *     agree on it.  plumb_bench_next() also contains a compiler barrier
 *     (an empty asm with a memory clobber on GCC and clang), and
 *     plumb_bench_opaque_u64() / plumb_bench_opaque_ptr() hide an input's
 *     value so a pure call on a constant input is not hoisted out of the
 *     loop.
 *
 * Output:
 *   - under plumb, the environment variable PLUMB_SAMPLES_FD names an open
 *     file descriptor; one duration in nanoseconds per line is written to
 *     it (decimal, "\n"-terminated), then a last line "checksum=<16 hex>".
 *     Nothing is printed on stdout.  Writes are buffered (4 KiB) and the
 *     buffer is flushed between two iterations, outside the timed span.
 *   - outside plumb (PLUMB_SAMPLES_FD unset or empty), stdout gets
 *         <name>: n=<iters> min=<ns> median=<ns> p99=<ns> max=<ns> (ns per iteration)
 *         checksum=<16 hex>
 *     with nearest-rank quantiles (sorted[floor(p * (n - 1))]).
 *
 * Checksum: starts at 0xcbf29ce484222325 and, for each value v given to
 * plumb_bench_sink(), becomes (c ^ v) * 0x100000001b3 modulo 2^64 (FNV-1a
 * on 64-bit words), warmup iterations included.  It is printed as 16
 * lower-case hexadecimal digits.
 *
 * Memory: samples mode allocates nothing; the 4 KiB buffer lives inside
 * struct plumb_bench (so keep the struct off small thread stacks, or make
 * it static).  Summary mode allocates exactly one array of `iters` 64-bit
 * integers, in plumb_bench_init() before the first iteration, and frees it
 * in plumb_bench_finish().  Nothing is allocated inside the loop.
 *
 * Errors: plumb_bench_init() and plumb_bench_finish() return 0, or -1 with
 * errno set after printing one line "plumb-bench: ..." on stderr.  A write
 * error on the samples fd stops further writes and is reported by
 * plumb_bench_finish().  The samples fd is never closed.
 *
 * Feature macros: clock_gettime() needs POSIX.1b.  Under strict -std=c99
 * this header defines _POSIX_C_SOURCE itself when it is included before any
 * system header; otherwise compile with -D_POSIX_C_SOURCE=200809L (or
 * _GNU_SOURCE, or -std=gnu99).
 *
 * Everything is static inline; there is nothing to link.  pkg-config
 * module: plumb-bench.  Documentation: docs/bench-h.md.
 *
 * Ownership: struct plumb_bench is caller storage, initialized by
 * plumb_bench_init() and released by plumb_bench_finish(); the name string
 * must outlive it.
 */
#ifndef PLUMB_BENCH_H
#define PLUMB_BENCH_H

/* Only strict modes (-std=c99) hide clock_gettime; gnu modes already see it. */
#if defined(__STRICT_ANSI__) && !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE) && \
	!defined(_GNU_SOURCE) && !defined(_DEFAULT_SOURCE) && !defined(_BSD_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * Under Valgrind (plumb's bench.NAME.counter = valgrind runs samples-mode
 * benchmarks under callgrind with collection off), only the bodies of the
 * timed iterations are counted: each one turns collection on as it starts
 * and off as it ends, so set-up, warmup, the clock reads and the samples'
 * formatting are not counted.  It needs valgrind/callgrind.h (Debian
 * package valgrind, header-only); without it, or with
 * -DPLUMB_BENCH_NO_VALGRIND, nothing is marked (and plumb, counting
 * nothing, says so).  Natively the cost is one predictable branch per
 * iteration: RUNNING_ON_VALGRIND is read once, in plumb_bench_init().
 */
#if !defined(PLUMB_BENCH_NO_VALGRIND) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PLUMB_BENCH_VALGRIND 1
#endif
#endif
#ifndef PLUMB_BENCH_VALGRIND
#define PLUMB_BENCH_VALGRIND 0
#endif

#if !defined(CLOCK_MONOTONIC)
#error "plumb/bench.h: CLOCK_MONOTONIC is not declared; include plumb/bench.h first or build with -D_POSIX_C_SOURCE=200809L"
#endif

#ifdef __cplusplus
#define PLUMB_BENCH_CAST(type, value) (static_cast<type>(value))
#define PLUMB_BENCH_NULL nullptr
#else
#define PLUMB_BENCH_NULL NULL
#define PLUMB_BENCH_CAST(type, value) ((type)(value))
#endif

#define PLUMB_BENCH_VERSION 1
#define PLUMB_BENCH_ENV_FD "PLUMB_SAMPLES_FD"
#define PLUMB_BENCH_BUFSIZE 4096
#define PLUMB_BENCH_CHECKSUM_INIT 0xcbf29ce484222325ULL
#define PLUMB_BENCH_CHECKSUM_PRIME 0x100000001b3ULL

struct plumb_bench {
	/* Read-only for the caller. */
	const char *name;        /* printed in the summary */
	uint64_t warmup;         /* untimed iterations first */
	uint64_t iters;          /* timed iterations after them */
	uint64_t started;        /* iterations started so far */
	uint64_t checksum;       /* the fold of every sunk value */
	/* Private. */
	int fd;                  /* samples fd, or -1 for summary mode */
	int write_errno;         /* first write error on fd, or 0 */
	uint64_t t0;             /* start of the running timed iteration, ns */
	uint64_t *store;         /* summary mode: one duration per timed iteration */
	uint64_t stored;         /* timed iterations recorded */
	int vg;                  /* running under Valgrind */
	int vg_collecting;       /* callgrind collection turned on by us */
	size_t buflen;
	char buf[PLUMB_BENCH_BUFSIZE];
};

/* Keep the compiler from moving memory accesses across this point. */
static inline void plumb_bench_barrier(void)
{
#if defined(__GNUC__) || defined(__clang__)
	__asm__ __volatile__("" : : : "memory");
#endif
}

/* Return v, hiding its value from the optimizer (nothing is hoisted past it). */
static inline uint64_t plumb_bench_opaque_u64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
	__asm__ __volatile__("" : "+r"(v));
#endif
	return v;
}

/* Return p, hiding its value and whatever it points to from the optimizer. */
static inline const void *plumb_bench_opaque_ptr(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
	__asm__ __volatile__("" : "+r"(p) : : "memory");
#endif
	return p;
}

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t plumb_bench_now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return PLUMB_BENCH_CAST(uint64_t, ts.tv_sec) * 1000000000ULL +
		PLUMB_BENCH_CAST(uint64_t, ts.tv_nsec);
}

/* Under Valgrind: count from here (the body of a timed iteration). */
static inline void plumb_bench_vg_start_(struct plumb_bench *b)
{
#if PLUMB_BENCH_VALGRIND
	if (b->vg && !b->vg_collecting) {
		CALLGRIND_TOGGLE_COLLECT;
		b->vg_collecting = 1;
	}
#else
	(void)b;
#endif
}

/* ... and no further. */
static inline void plumb_bench_vg_stop_(struct plumb_bench *b)
{
#if PLUMB_BENCH_VALGRIND
	if (b->vg_collecting) {
		CALLGRIND_TOGGLE_COLLECT;
		b->vg_collecting = 0;
	}
#else
	(void)b;
#endif
}

/* Fold a result into the checksum: c = (c ^ v) * 0x100000001b3. */
static inline void plumb_bench_sink(struct plumb_bench *b, uint64_t v)
{
	b->checksum = (b->checksum ^ v) * PLUMB_BENCH_CHECKSUM_PRIME;
}

/* The 0-based index of the running iteration, warmup iterations included. */
static inline uint64_t plumb_bench_index(const struct plumb_bench *b)
{
	return b->started - 1;
}

/* Write all of buf to fd, retrying short writes and EINTR; 0 or an errno. */
static inline int plumb_bench_write_all_(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (n == 0)
			return EIO;
		buf += n;
		len -= PLUMB_BENCH_CAST(size_t, n);
	}
	return 0;
}

static inline void plumb_bench_flush_(struct plumb_bench *b)
{
	if (b->buflen > 0 && b->write_errno == 0)
		b->write_errno = plumb_bench_write_all_(b->fd, b->buf, b->buflen);
	b->buflen = 0;
}

/* Append "<v>\n" to the samples buffer, flushing it first when full. */
static inline void plumb_bench_put_u64_(struct plumb_bench *b, uint64_t v)
{
	char digits[21];
	size_t n = 0;

	do {
		digits[n++] = PLUMB_BENCH_CAST(char, '0' + PLUMB_BENCH_CAST(int, v % 10));
		v /= 10;
	} while (v > 0);
	if (b->buflen + n + 1 > sizeof(b->buf))
		plumb_bench_flush_(b);
	while (n > 0)
		b->buf[b->buflen++] = digits[--n];
	b->buf[b->buflen++] = '\n';
}

/* Read PLUMB_SAMPLES_FD: the fd, -1 when unset or empty, -2 when invalid. */
static inline int plumb_bench_env_fd_(void)
{
	const char *s = getenv(PLUMB_BENCH_ENV_FD);
	char *end = PLUMB_BENCH_NULL;
	long v;

	if (s == PLUMB_BENCH_NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > 65535)
		return -2;
	return PLUMB_BENCH_CAST(int, v);
}

/*
 * Prepare a run of `warmup` untimed then `iters` timed iterations
 * (iters >= 1).  Reads PLUMB_SAMPLES_FD; in summary mode allocates the
 * sample array.  Returns 0, or -1 with errno set and a line on stderr.
 */
static inline int plumb_bench_init(struct plumb_bench *b, const char *name,
	uint64_t warmup, uint64_t iters)
{
	int fd;

	memset(b, 0, sizeof(*b));
	b->name = name != PLUMB_BENCH_NULL ? name : "bench";
	b->warmup = warmup;
	b->iters = iters;
	b->checksum = PLUMB_BENCH_CHECKSUM_INIT;
	b->fd = -1;
#if PLUMB_BENCH_VALGRIND
	b->vg = RUNNING_ON_VALGRIND ? 1 : 0;
#endif
	if (iters == 0 || warmup > UINT64_MAX - iters) {
		fprintf(stderr, "plumb-bench: %s: the timed iteration count must be at least 1\n", b->name);
		errno = EINVAL;
		return -1;
	}
	fd = plumb_bench_env_fd_();
	if (fd == -2) {
		fprintf(stderr, "plumb-bench: %s: %s is not a file descriptor number\n",
			b->name, PLUMB_BENCH_ENV_FD);
		errno = EINVAL;
		return -1;
	}
	if (fd >= 0) {
		b->fd = fd;
		return 0;
	}
	if (iters > SIZE_MAX / sizeof(uint64_t) ||
	    (b->store = PLUMB_BENCH_CAST(uint64_t *, malloc(PLUMB_BENCH_CAST(size_t, iters) * sizeof(uint64_t)))) == PLUMB_BENCH_NULL) {
		fprintf(stderr, "plumb-bench: %s: no memory for %llu samples\n", b->name,
			PLUMB_BENCH_CAST(unsigned long long, iters));
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

/*
 * Start the next iteration: returns 1 while there is one to run, 0 when all
 * warmup + iters iterations have run.  Ends the timing of the previous
 * iteration and starts the timing of the next timed one.
 */
static inline int plumb_bench_next(struct plumb_bench *b)
{
	plumb_bench_barrier();
	plumb_bench_vg_stop_(b);
	if (b->started > b->warmup && b->stored < b->started - b->warmup) {
		uint64_t d = plumb_bench_now_ns() - b->t0;

		if (b->fd >= 0)
			plumb_bench_put_u64_(b, d);
		else
			b->store[b->stored] = d;
		b->stored++;
	}
	if (b->started == b->warmup + b->iters)
		return 0;
	b->started++;
	if (b->started > b->warmup)
		b->t0 = plumb_bench_now_ns();
	plumb_bench_barrier();
	if (b->started > b->warmup)
		plumb_bench_vg_start_(b);
	return 1;
}

static inline int plumb_bench_cmp_u64_(const void *a, const void *b)
{
	uint64_t x = *PLUMB_BENCH_CAST(const uint64_t *, a);
	uint64_t y = *PLUMB_BENCH_CAST(const uint64_t *, b);

	return (x > y) - (x < y);
}

/* Nearest-rank quantile of a sorted array: sorted[floor(p * (n - 1))]. */
static inline uint64_t plumb_bench_quantile(const uint64_t *sorted, size_t n, double p)
{
	size_t i;

	if (n == 0)
		return 0;
	i = PLUMB_BENCH_CAST(size_t, p * PLUMB_BENCH_CAST(double, n - 1));
	return sorted[i < n ? i : n - 1];
}

/*
 * Finish: write the checksum line (to the samples fd, or the summary and
 * the checksum line to stdout) and free the sample array.  Returns 0, or -1
 * with errno set (a write error) after a line on stderr.
 */
static inline int plumb_bench_finish(struct plumb_bench *b)
{
	char line[32];
	int err = 0;

	snprintf(line, sizeof(line), "checksum=%016llx\n",
		PLUMB_BENCH_CAST(unsigned long long, b->checksum));
	if (b->fd >= 0) {
		size_t len = strlen(line);

		if (b->buflen + len > sizeof(b->buf))
			plumb_bench_flush_(b);
		memcpy(b->buf + b->buflen, line, len);
		b->buflen += len;
		plumb_bench_flush_(b);
		err = b->write_errno;
		if (err != 0)
			fprintf(stderr, "plumb-bench: %s: writing samples to fd %d: %s\n",
				b->name, b->fd, strerror(err));
	} else {
		uint64_t *s = b->store;
		size_t n = PLUMB_BENCH_CAST(size_t, b->stored);

		if (s != PLUMB_BENCH_NULL && n > 0) {
			qsort(s, n, sizeof(*s), plumb_bench_cmp_u64_);
			printf("%s: n=%llu min=%llu median=%llu p99=%llu max=%llu (ns per iteration)\n",
				b->name, PLUMB_BENCH_CAST(unsigned long long, n),
				PLUMB_BENCH_CAST(unsigned long long, s[0]),
				PLUMB_BENCH_CAST(unsigned long long, plumb_bench_quantile(s, n, 0.5)),
				PLUMB_BENCH_CAST(unsigned long long, plumb_bench_quantile(s, n, 0.99)),
				PLUMB_BENCH_CAST(unsigned long long, s[n - 1]));
		}
		fputs(line, stdout);
		errno = 0;
		if (fflush(stdout) != 0 || ferror(stdout)) {
			err = errno != 0 ? errno : EIO;
			fprintf(stderr, "plumb-bench: %s: writing the summary: %s\n",
				b->name, strerror(err));
		}
		free(b->store);
		b->store = PLUMB_BENCH_NULL;
	}
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

#endif /* PLUMB_BENCH_H */
