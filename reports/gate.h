/*
 * reports/gate.h: the --fail-on gate over a compared model
 * (reports/gate.c): which benchmark is shown with a verdict, which trips
 * the gate, which Holm's adjustment holds back, and the lists the exit
 * message names.  The file calls nothing else in reports/, so the model's
 * builder, the phrases and every renderer read the one gate.
 *
 * Ownership: the functions only read the model; names is the caller's.
 */
#ifndef PLUMB_REPORTS_GATE_H
#define PLUMB_REPORTS_GATE_H

#include <stddef.h>

#include "reports/model.h"

struct buf;

/* Shown: compared, with a verdict, not withheld. */
int report_bench_shown(const struct report_bench *b);

/*
 * Nonzero when b makes --fail-on fail: a verdict, shown, that trips that
 * mode (common/verdict.h), and, when the verdict has a p (shift rule),
 * a Holm-adjusted p (b->p_holm) of at most 1 - its rule's confidence.
 * Verdicts without a p (margin, overlap) gate by their verdict alone.
 */
int report_bench_fails(const struct report_bench *b, enum report_fail_on fail_on);

/* Nonzero when b's verdict trips fail_on but Holm's adjustment holds it back. */
int report_bench_held(const struct report_bench *b, enum report_fail_on fail_on);

/* Benchmarks that make --fail-on fail: count and, in names, a "a, b" list. */
size_t report_failing(const struct report *r, enum report_fail_on fail_on,
		      struct buf *names);

/* Benchmarks whose candidate failed (a --keep-going bundle): count and names. */
size_t report_failed(const struct report *r, struct buf *names);

#endif
