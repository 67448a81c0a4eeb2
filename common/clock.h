/*
 * common/clock.h: the monotonic clock every timeout, elapsed time and
 * measured wall time is read from.
 *
 * Ownership: nothing is allocated.
 */
#ifndef PLUMB_COMMON_CLOCK_H
#define PLUMB_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Nanoseconds on CLOCK_MONOTONIC (never goes back; its zero is arbitrary). */
static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Milliseconds on the same clock. */
static inline long long clock_now_ms(void)
{
	return (long long)(clock_now_ns() / 1000000);
}

#endif
