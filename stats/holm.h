/*
 * stats/holm.h: one gate over many benchmarks.  A run of 40 benchmarks,
 * each tested at 1%, calls some benchmark slower by chance far more often
 * than 1% of nights; Holm's step-down method adjusts their p-values so
 * that comparing every adjusted p with alpha keeps the chance of any
 * false call among all of them at most alpha (the family-wise error
 * rate), whatever the dependence between the tests.  `--fail-on` applies
 * it to the benchmarks judged by the shift rule (reports/compare.c
 * adjusts, reports/gate.c gates; docs/verdict.md "Many benchmarks, one
 * gate").
 *
 * Ownership: the input is only read; stats_holm() allocates its scratch
 * and frees it before it returns.
 */
#ifndef PLUMB_STATS_HOLM_H
#define PLUMB_STATS_HOLM_H

#include <stddef.h>

/*
 * Holm's adjusted p-values of p[0..n) (any order, each in [0, 1], no NaN)
 * into adj[0..n) (adj may be p): with the p sorted ascending p(1) <= ... <=
 * p(n), adj(i) = max over j <= i of min(1, (n - j + 1) p(j)), returned at
 * each p's own index.  Ties keep their order.  0, or -1 when memory runs
 * out (errno ENOMEM).
 */
int stats_holm(const double *p, size_t n, double *adj);

#endif
