/*
 * views/progress.h: the lines of the runner's events (runner/event.h) on
 * standard error: "plumb: 16:05:12 b01: built in 0.80 s".  The sentences
 * live here and only here; their numbers come from common/units.h.
 *
 * Ownership: struct progress_view is caller-owned storage with no
 * resources; nothing here keeps an event.
 */
#ifndef PLUMB_VIEWS_PROGRESS_H
#define PLUMB_VIEWS_PROGRESS_H

#include <stdio.h>

struct buf;
struct runner_event;

/* The sentence of ev, appended to out raw (names in it are untrusted: the
 * caller escapes the whole).  0, or -1 when out could not grow. */
int view_event_text(const struct runner_event *ev, struct buf *out);

/*
 * ev as one line appended to out: "plumb: ", the time ("16:05:12 ") with
 * stamp, the sentence escaped (esc_text), a newline.  A folder that could
 * not be removed is said without the time, as every warning outside the
 * progress is.  0 or -1 (buf).
 */
int view_event_line(const struct runner_event *ev, int stamp, struct buf *out);

/* Where the events of a command without a progress display go. */
struct progress_view {
	FILE *err;     /* stderr */
	int stamp;     /* lines carry the time */
	int quiet;     /* only the warnings no option silences (a folder left behind) */
};

/* A runner_event_fn: ev's line written to ((struct progress_view *)ctx)->err in one write. */
void view_event_put(void *ctx, const struct runner_event *ev);

/* The time of day for a line, "16:05:12" ("" when unknown). */
void view_clock_stamp(char out[16]);

/* Whether ev is shown even with --quiet (a folder plumb could not remove). */
int view_event_always(const struct runner_event *ev);

#endif
