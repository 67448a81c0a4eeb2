/*
 * reports/gate.c: the --fail-on gate over a compared model (gate.h): a
 * benchmark trips it by its verdict (common/verdict.h says which verdict
 * fails which mode) when the verdict is shown, and, under the shift rule,
 * only when its Holm-adjusted p clears the rule's level; the builder
 * (compare.c) adjusts the p, the renderers and report_result_of() read
 * the gate here, so all of them agree on which benchmark fails.
 */
#include <math.h>
#include <stddef.h>

#include "common/buf.h"
#include "common/escape.h"
#include "common/verdict.h"
#include "reports/gate.h"
#include "common/banned.h"

/* Shown: compared, with a verdict, not withheld. */
int report_bench_shown(const struct report_bench *b)
{
	return !b->withheld && !b->failure && !b->missing && !b->old_failure &&
	       b->verdict != VERDICT_UNSET;
}

/* b's verdict trips fail_on, whatever its p. */
static int verdict_trips(const struct report_bench *b, enum report_fail_on fail_on)
{
	static const unsigned modes[] = {
		[REPORT_FAIL_SLOWER] = VERDICT_FAILS_SLOWER,
		[REPORT_FAIL_ANY] = VERDICT_FAILS_ANY,
		[REPORT_FAIL_NOISY] = VERDICT_FAILS_NOISY,
	};

	return (unsigned)fail_on < sizeof(modes) / sizeof(modes[0]) &&
	       verdict_fails(b->verdict, modes[fail_on]) && report_bench_shown(b);
}

/* b's Holm-adjusted p clears its rule's level (a verdict without a p always does). */
static int holm_passes(const struct report_bench *b)
{
	return !b->has_shift || isnan(b->p_holm) || b->p_holm <= 1 - b->rule.confidence;
}

int report_bench_fails(const struct report_bench *b, enum report_fail_on fail_on)
{
	return verdict_trips(b, fail_on) && holm_passes(b);
}

int report_bench_held(const struct report_bench *b, enum report_fail_on fail_on)
{
	return verdict_trips(b, fail_on) && !holm_passes(b);
}

/* Count the benchmarks keep() takes, naming the first ten in names. */
static size_t collect(const struct report *r, int (*keep)(const struct report_bench *, int),
		      int arg, struct buf *names)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_benches; i++) {
		const struct report_bench *b = &r->benches[i];
		if (!keep(b, arg))
			continue;
		if (names && n < 10) {
			if (n)
				buf_addstr(names, ", ");
			esc_text(names, b->name);
		} else if (names && n == 10) {
			buf_addstr(names, ", ...");
		}
		n++;
	}
	return n;
}

static int keep_failing(const struct report_bench *b, int fail_on)
{
	return report_bench_fails(b, (enum report_fail_on)fail_on);
}

static int keep_failed(const struct report_bench *b, int unused)
{
	(void)unused;
	return b->failure != NULL;
}

size_t report_failing(const struct report *r, enum report_fail_on fail_on,
		      struct buf *names)
{
	return collect(r, keep_failing, (int)fail_on, names);
}

size_t report_failed(const struct report *r, struct buf *names)
{
	return collect(r, keep_failed, 0, names);
}
