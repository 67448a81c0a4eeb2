/*
 * stats/holm.c: Holm's step-down adjustment of p-values (holm.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "stats/holm.h"
#include "common/banned.h"

struct ranked {
	double p;
	size_t at;
};

/* Ascending p; equal p keep their input order (qsort is not stable). */
static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

int stats_holm(const double *p, size_t n, double *adj)
{
	struct ranked *r;
	double run = 0;

	if (n == 0)
		return 0;
	r = malloc(n * sizeof(*r));
	if (!r) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		r[i].p = p[i];
		r[i].at = i;
	}
	qsort(r, n, sizeof(*r), by_p);
	for (size_t j = 0; j < n; j++) {
		double a = (double)(n - j) * r[j].p;
		if (a > 1)
			a = 1;
		if (a > run)
			run = a;
		adj[r[j].at] = run;
	}
	free(r);
	return 0;
}
