/*
 * stats/co.c: coordinated-omission correction; see co.h.
 *
 * Counting and filling share one loop so that they cannot disagree on a
 * floating-point edge.
 */
#include <assert.h>
#include <stddef.h>

#include "stats/co.h"
#include "common/banned.h"

double stats_co_expected(double raw_median)
{
	return raw_median > 1.0 ? raw_median : 1.0;
}

/* The seed's co_correct; out may be NULL to count only. */
static size_t co_run(const double *raw, size_t n, double e, size_t cap,
		     double *out, int *capped)
{
	size_t len = 0;

	if (capped)
		*capped = 0;
	for (size_t i = 0; i < n; i++) {
		double v = raw[i], missing;

		if (out)
			out[len] = v;
		len++;
		if (e <= 0 || v <= e)
			continue;
		missing = v - e;
		while (missing >= e) {
			if (len >= cap) {
				if (capped)
					*capped = 1;
				return len;
			}
			if (out)
				out[len] = missing;
			len++;
			missing -= e;
		}
	}
	return len;
}

size_t stats_co_count(const double *raw, size_t n, double e, size_t cap, int *capped)
{
	return co_run(raw, n, e, cap, NULL, capped);
}

size_t stats_co_correct(const double *raw, size_t n, double e, size_t cap, double *out)
{
	size_t len = co_run(raw, n, e, cap, out, NULL);

	assert(len >= n || len >= cap);
	return len;
}
