/*
 * stats/co.h: coordinated-omission correction, seed 003's co_correct.
 *
 * A closed timing loop records a stall of length v as one sample, where a
 * caller issuing a request every E ns would have queued requests behind
 * it.  The correction keeps every raw sample and, behind each v > E,
 * backfills v - E, v - 2E, ... down to (and including) the last value
 * >= E.  The cap on the output size is checked inside the backfill loop,
 * so one pathological stall cannot blow it; when the cap is reached the
 * correction stops there (the remaining raw samples are not appended),
 * exactly as the seed's Go and Rust versions do.  With cap >= n this
 * guarantees co_n >= n; co_n == n when no sample exceeds E.  (Raw samples
 * are appended without a check, so the output can pass the cap by at most
 * n; no backfilled sample is added once it holds cap.)
 *
 * The seed also checks co_p99 >= p99.  That holds for its shape of data,
 * stalls in well under 1% of the samples, but is not a theorem: when more
 * than about 1% of the samples are long stalls, the raw p99 is itself a
 * stall, and the backfill below it can pull the corrected p99 under it
 * (tests/unit/test-stats.c keeps such a case).
 *
 * The seed works on int64 nanoseconds; these functions take doubles so
 * that any metric can be corrected, and agree with the seed bit for bit on
 * whole numbers below 2^53.
 *
 * Ownership: nothing allocates; the caller sizes the output with
 * stats_co_count() and passes it to stats_co_correct().
 */
#ifndef PLUMB_STATS_CO_H
#define PLUMB_STATS_CO_H

#include <stddef.h>

#define STATS_CO_CAP_DEFAULT 5000000u

/* The default expected interval: the raw median, floored at 1 (ns). */
double stats_co_expected(double raw_median);

/*
 * The number of samples the correction of raw[0..n) produces with expected
 * interval e and the cap; *capped (may be NULL) is set to 1 when the cap
 * stopped it, else 0.  e <= 0 means no correction (the count is n).
 */
size_t stats_co_count(const double *raw, size_t n, double e, size_t cap, int *capped);

/*
 * Write the corrected samples, in the seed's order, to out, which must hold
 * stats_co_count(raw, n, e, cap, NULL) doubles; returns that count.
 */
size_t stats_co_correct(const double *raw, size_t n, double e, size_t cap, double *out);

#endif
