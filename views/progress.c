/*
 * views/progress.c: the sentences of the runner's events; see progress.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "views/progress.h"
#include "common/buf.h"
#include "common/escape.h"
#include "common/units.h"
#include "formats/config.h"
#include "runner/event.h"
#include "common/banned.h"

/* "s" when n is not one: "1 process", "2 processes". */
static const char *plural(unsigned long long n, const char *many)
{
	return n == 1 ? "" : many;
}

/* "sweep: N pads per side: a undecided (why), b undecided (why); " */
static int sweep_state(const struct runner_event *ev, struct buf *out)
{
	int r = buf_printf(out, "sweep: %llu pads per side: ", ev->n);

	for (size_t i = 0; r == 0 && i < ev->nitems; i++)
		r = buf_printf(out, "%s%s undecided (%s)", i ? ", " : "", ev->items[i].name,
			       ev->items[i].why);
	return r < 0 ? r : buf_addstr(out, "; ");
}

int view_event_text(const struct runner_event *ev, struct buf *out)
{
	char a[UNITS_MAX], b[UNITS_MAX], c[UNITS_MAX];
	int r = 0;

	if (ev->commit && (r = buf_printf(out, "%s: ", ev->commit)) < 0)
		return r;
	switch (ev->kind) {
	case RUNNER_EV_RUN_FOLDER:
		return buf_printf(out, "run folder %s", ev->subject);
	case RUNNER_EV_FETCHING:
		return buf_printf(out, "fetching %s", ev->subject);
	case RUNNER_EV_LATEST_TAG:
		return buf_printf(out, "base: " CONFIG_LATEST_TAG " is the tag %s", ev->subject);
	case RUNNER_EV_CHECKED_OUT:
		return buf_printf(out, "%s: %s is %.12s%s (%llu files)", ev->subject, ev->label,
				  ev->detail && ev->detail[0] ? ev->detail : "(no commit)",
				  ev->flag ? ", with uncommitted changes" : "", ev->n);
	case RUNNER_EV_SAME_TREE:
		return buf_printf(out, "base and candidate are the same tree (%.12s): built once",
				  ev->subject);
	case RUNNER_EV_BUILD_JOBS:
		return buf_printf(out, "building %llu variant%s, up to %llu at a time (build.jobs%s)",
				  ev->n, plural(ev->n, "s"), ev->n2, ev->flag ? " = auto: the CPUs" : "");
	case RUNNER_EV_BUILDING:
		return buf_printf(out, "%s: building%s", ev->subject,
				  ev->flag ? " (relink from pad 0)" : "");
	case RUNNER_EV_BUILT:
		units_seconds(ev->seconds, a);
		return buf_printf(out, "%s: built in %s", ev->subject, a);
	case RUNNER_EV_BUILD_LEFT:
		return buf_printf(out, "%s: the build left %llu process%s running; killed", ev->subject,
				  ev->n, plural(ev->n, "es"));
	case RUNNER_EV_COPIED:
		return buf_printf(out, "%s: the same tree as the base: copied from %s", ev->subject,
				  ev->label);
	case RUNNER_EV_RESTORED:
		units_seconds(ev->seconds, a);
		return buf_printf(out, "%s: restored from the build cache (%.12s; its build took %s)",
				  ev->subject, ev->label, a);
	case RUNNER_EV_CONTROL_REUSED:
		units_seconds(ev->seconds, a);
		return buf_printf(out, "%s: the control built at comparison %llu of this bisect, "
				  "reused (its build took %s)", ev->subject, ev->n, a);
	case RUNNER_EV_KEPT_HERE:
		return buf_printf(out, "%s: %s: built here, and kept for this folder", ev->subject,
				  ev->text);
	case RUNNER_EV_CACHE_REFUSED:
		return buf_printf(out, "warning: %s: %s; the entry is evicted and %s built instead",
				  ev->subject, ev->text, ev->subject);
	case RUNNER_EV_NOT_KEPT:
		return buf_printf(out, "warning: %s: not kept in the build cache, so every run builds "
				  "it again: %s", ev->subject, ev->text);
	case RUNNER_EV_CACHE_EVICTED:
		return buf_printf(out, "warning: build cache entry %s/%s (restored as %s) failed a "
				  "later check: %s; it and the other entries this run restored (%llu "
				  "in all) are evicted, and the variants are built again from clean",
				  ev->label, ev->detail, ev->subject, ev->text, ev->n);
	case RUNNER_EV_WARNING:
		return ev->subject ? buf_printf(out, "warning: %s: %s", ev->subject, ev->text)
				   : buf_printf(out, "warning: %s", ev->text);
	case RUNNER_EV_CANNOT_REMOVE:
		return buf_printf(out, "warning: cannot remove %s: %s", ev->subject, ev->text);
	case RUNNER_EV_BENCH_FAILED:
		return buf_printf(out, "benchmark %s: %s; recorded, going on (--keep-going)%s%s",
				  ev->subject, ev->text, ev->label ? "; log: " : "",
				  ev->label ? ev->label : "");
	case RUNNER_EV_BENCH_LEFT:
		return buf_printf(out, "benchmark %s: %s, %s, left %llu process%s running; killed "
				  "(so is every run's leftover)", ev->subject, ev->label, ev->detail,
				  ev->n, plural(ev->n, "es"));
	case RUNNER_EV_GBENCH_LIST:
		r = buf_printf(out, "benchmark %s: %llu Google Benchmark benchmark%s (", ev->subject,
			       ev->n, plural(ev->n, "s"));
		for (size_t i = 0; r == 0 && i < ev->nitems; i++)
			r = buf_printf(out, "%s%s", i ? ", " : "", ev->items[i].name);
		return r < 0 ? r : buf_addstr(out, ev->n > ev->nitems ? ", ...)" : ")");
	case RUNNER_EV_SAME_WORK:
		return buf_printf(out, "the same work: %s is %s with identical hot code; counting pad 0 "
				  "of each side under valgrind", ev->subject, ev->label);
	case RUNNER_EV_VG_RUN:
		units_whole(ev->count, a);
		units_seconds(ev->seconds, b);
		units_seconds(ev->seconds2, c);
		return buf_printf(out, "valgrind: %s, %s, run %llu: %s instructions%s, %s (valgrind so "
				  "far %s)", ev->subject, ev->label, ev->n, a,
				  ev->flag ? " per sample" : "", b, c);
	case RUNNER_EV_VG_WORK:
		units_whole(ev->count, a);
		units_seconds(ev->seconds, b);
		return buf_printf(out, "valgrind: %s, %s: %s instructions%s (for the same work), %s",
				  ev->subject, ev->label, a, ev->flag ? " per sample" : "", b);
	case RUNNER_EV_VG_NONDET:
		return buf_printf(out, "valgrind: %s is not deterministic (%s): its simulated counts "
				  "get no verdict from one round per variant", ev->subject, ev->text);
	case RUNNER_EV_SWEEP_DECIDED:
		return buf_printf(out, "sweep: every benchmark decided at %llu pads per side", ev->n);
	case RUNNER_EV_SWEEP_MAX_PADS:
		if ((r = sweep_state(ev, out)) < 0)
			return r;
		return buf_printf(out, "stopped at run.maxPads = %llu", ev->n2);
	case RUNNER_EV_SWEEP_BUDGET:
		if ((r = sweep_state(ev, out)) < 0)
			return r;
		units_seconds(ev->seconds, a);
		units_whole(ev->seconds2, b);
		return buf_printf(out, "stopped: one more extension (about %s) would end past "
				  "run.budget = %s s", a, b);
	case RUNNER_EV_SWEEP_EXTEND:
		if ((r = sweep_state(ev, out)) < 0)
			return r;
		return buf_printf(out, "adding pads %llu to %llu to each side, %s %llu rounds", ev->n,
				  ev->n2 - 1, ev->flag ? "and every variant runs in" : "measured in",
				  ev->n3);
	case RUNNER_EV_RUN_KEPT:
		return buf_printf(out, "the run folder is kept: %s", ev->subject);
	case RUNNER_EV_LOCK_WAIT:
		return buf_printf(out, "waiting for the lock %s, held by %s", ev->subject, ev->text);
	case RUNNER_EV_LOCK_TAKEN:
		return buf_printf(out, "%s: taken over from a holder that ended without releasing it "
				  "(%s)", ev->subject, ev->text);
	}
	return buf_printf(out, "event %d", (int)ev->kind);
}

void view_clock_stamp(char out[16])
{
	time_t now = time(NULL);
	struct tm tm;

	out[0] = '\0';
	if (localtime_r(&now, &tm))
		strftime(out, 16, "%H:%M:%S", &tm);
}

int view_event_always(const struct runner_event *ev)
{
	return ev->kind == RUNNER_EV_CANNOT_REMOVE;
}

int view_event_line(const struct runner_event *ev, int stamp, struct buf *out)
{
	struct buf text;
	char ts[16];
	int r;

	buf_init(&text, 8192);
	if (stamp && !view_event_always(ev)) {
		view_clock_stamp(ts);
		r = buf_printf(out, "plumb: %s ", ts);
	} else {
		r = buf_addstr(out, "plumb: ");
	}
	if (r == 0)
		r = view_event_text(ev, &text);
	if (r == 0)
		r = esc_text(out, buf_cstr(&text));   /* it may quote a name or a child's words */
	if (r == 0)
		r = buf_addch(out, '\n');
	buf_release(&text);
	return r;
}

void view_event_put(void *ctx, const struct runner_event *ev)
{
	struct progress_view *v = ctx;
	struct buf line;

	if (v->quiet && !view_event_always(ev))
		return;
	buf_init(&line, 16384);
	if (view_event_line(ev, v->stamp, &line) == 0 && line.len)
		(void)fwrite(line.data, 1, line.len, v->err);
	fflush(v->err);
	buf_release(&line);
}
