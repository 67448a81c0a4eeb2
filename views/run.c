/*
 * views/run.c: progress lines and the end-of-run output of `plumb run`
 * and `plumb demo`; see run.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "views/run.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "formats/config.h"
#include "formats/jsonio.h"
#include "reports/github.h"
#include "reports/report.h"
#include "reports/source.h"
#include "views/progress.h"
#include "views/run-results.h"
#include "runner/range.h"
#include "runner/run-types.h"
#include "common/banned.h"

void runview_init(struct runview *v)
{
	memset(v, 0, sizeof(*v));
	v->err = stderr;
	v->tty = isatty(fileno(stderr));
}

/* "1:05" or "1:02:03" */
static void clock_text(double s, char *out, size_t size)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(out, size, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, size, "%lu:%02lu", t / 60, t % 60);
}

void runview_finish(struct runview *v)
{
	if (v->drawn) {
		fputs("\r\033[K", v->err);
		fflush(v->err);
		v->drawn = 0;
	}
}

/*
 * A line leaves in one write(2): stderr is unbuffered, so each printf
 * would be a write of its own, and a line per round of a measurement is
 * worth one system call, not five; a log shared with other processes never
 * gets half a line between two of theirs either.  Names and commits are
 * untrusted (esc_text).
 */
static void put_line(struct runview *v, struct buf *line)
{
	if (line->len)
		(void)fwrite(line->data, 1, line->len, v->err);
	fflush(v->err);
	buf_release(line);
}

/* A progress line drawn on the terminal is cleared first (in the same write). */
static void clear_drawn(struct runview *v, struct buf *line)
{
	if (v->drawn) {
		(void)buf_addstr(line, "\r\033[K");
		v->drawn = 0;
	}
}

#define LINE_MAX_BYTES 8192
#define PROGRESS_TTY_NS 100000000ull    /* 0.1 s */
#define PROGRESS_LOG_NS 1000000000ull   /* 1 s */

static void on_event(void *ctx, const struct runner_event *ev)
{
	struct runview *v = ctx;
	struct buf line;

	if (v->quiet && !view_event_always(ev))
		return;
	buf_init(&line, LINE_MAX_BYTES);
	clear_drawn(v, &line);
	(void)view_event_line(ev, 1, &line);
	put_line(v, &line);
}

static void on_progress(void *ctx, const struct runner_progress *p)
{
	struct runview *v = ctx;
	double el = (double)p->elapsed_ns / 1e9;
	double eta = p->done && p->total > p->done ?
		     el / (double)p->done * (double)(p->total - p->done) : 0;
	char e1[32], e2[32], ts[16], load[UNITS_MAX + 8] = "", l[UNITS_MAX];
	struct buf line;

	if (v->quiet || (!v->tty && !p->round_done))
		return;
	/*
	 * At most ten redraws a second on a terminal and a line a second in a
	 * log, the last round's always: a round of a fast benchmark takes
	 * microseconds, and a line per round (formatted, then a write to a
	 * terminal or a file) cost more than the run it told of.
	 */
	if (v->shown && p->elapsed_ns - v->shown_ns < (v->tty ? PROGRESS_TTY_NS : PROGRESS_LOG_NS) &&
	    !(p->round_done && p->round >= p->rounds))
		return;
	v->shown = 1;
	v->shown_ns = p->elapsed_ns;
	clock_text(el, e1, sizeof(e1));
	clock_text(eta, e2, sizeof(e2));
	if (p->load1 >= 0) {
		units_load(p->load1, l);
		snprintf(load, sizeof(load), ", load %s", l);
	}
	buf_init(&line, LINE_MAX_BYTES);
	if (v->tty) {
		(void)buf_printf(&line, "\r\033[K%s %u/%u  ", p->warmup ? "warmup" : "round",
				 p->round, p->rounds);
		(void)esc_text(&line, p->variant);
		(void)buf_addstr(&line, "  ");
		(void)esc_text(&line, p->bench);
		if (p->commit) {
			(void)buf_addstr(&line, "  commit ");
			(void)esc_text(&line, p->commit);
		}
		(void)buf_printf(&line, "  elapsed %s  ETA %s%s", e1, e2, load);
		put_line(v, &line);
		v->drawn = 1;
		return;
	}
	view_clock_stamp(ts);
	(void)buf_printf(&line, "plumb: %s %s %u/%u done", ts, p->warmup ? "warmup pass" : "round",
			 p->round, p->rounds);
	if (p->commit) {
		/* A range job: the commit whose variant ran last. */
		(void)buf_addstr(&line, p->warmup ? " for commit " : " (last run: commit ");
		(void)esc_text(&line, p->commit);
		if (!p->warmup)
			(void)buf_addch(&line, ')');
	}
	(void)buf_printf(&line, ": %llu of %llu runs, elapsed %s, ETA %s%s\n",
			 (unsigned long long)p->done, (unsigned long long)p->total, e1, e2, load);
	put_line(v, &line);
}

void runview_attach(struct runview *v, struct runner_run_opts *opts)
{
	opts->event = on_event;
	opts->progress = on_progress;
	opts->ctx = v;
}

int runview_render_bundle(const char *bundle, const char *origin, enum report_format format,
			  int color, enum report_fail_on fail_on, struct buf *out,
			  struct report_result *rr, struct plumb_err *err)
{
	struct report_opts ro = { format, color, 0, fail_on };
	struct report_source src;
	struct report_side side;
	int rc;

	report_source_init(&src);
	src.want_dist = format == REPORT_HTML || format == REPORT_MARKDOWN;
	rc = report_source_load(&src, bundle, err);
	if (rc == 0) {
		report_source_side(&src, MANIFEST_SIDE_CANDIDATE, &side);
		side.origin = origin;
		rc = report_render(&side, NULL, &ro, out, rr, err);
	}
	report_source_release(&src);
	return rc;
}

int runview_github_bundle(const char *bundle, const char *origin, enum report_fail_on fail_on,
			  struct buf *md, struct buf *notes, struct plumb_err *err)
{
	struct report_source src;
	struct report_side side;
	int rc;

	report_source_init(&src);
	src.want_dist = 0;
	rc = report_source_load(&src, bundle, err);
	if (rc == 0) {
		report_source_side(&src, MANIFEST_SIDE_CANDIDATE, &side);
		side.origin = origin;
		rc = report_github_render(&side, NULL, 0, fail_on, md, notes, err);
	}
	report_source_release(&src);
	return rc;
}

/*
 * The report `plumb report BUNDLE` prints of the bundle the run wrote:
 * rendered from the manifest bundle_write() parsed from the very bytes it
 * wrote (the parse a reader of the file makes), not read back and
 * verified.  That verification judged every benchmark again: about 10 us
 * per measured run, more than the rest of the harness's bookkeeping.
 */
static int render_written(const struct runner_run_result *res, const char *origin, int color,
			  enum report_fail_on fail_on, struct buf *out,
			  struct report_result *rr, struct plumb_err *err)
{
	struct report_opts ro = { REPORT_TEXT, color, 0, fail_on };
	struct report_side side;

	if (!res->have_written)   /* dropped (a range job's): read it back */
		return runview_render_bundle(res->bundle, origin, REPORT_TEXT, color, fail_on, out, rr, err);
	report_side_of(&res->written, MANIFEST_SIDE_CANDIDATE, res->id, origin, &side);
	return report_render(&side, NULL, &ro, out, rr, err);
}

int runview_output(const struct runner_run_result *res, const struct runview *v, int json,
		   int color, enum report_fail_on fail_on, struct buf *out,
		   struct report_result *rr, struct plumb_err *err)
{
	const char *origin = v->archived_only ? NULL : res->bundle;
	int r;

	memset(rr, 0, sizeof(*rr));
	if (json || v->quiet) {
		json_t *j;
		struct buf scratch;
		/* What the report finds, for the gate and the verdict line. */
		buf_init(&scratch, REPORT_OUTPUT_MAX);
		r = res->bundle ? render_written(res, origin, 0, fail_on, &scratch, rr, err) : 0;
		buf_release(&scratch);
		if (r < 0)
			return r;
		if (!json) {
			if (rr->summary[0] && buf_printf(out, "plumb: %s\n", rr->summary) < 0)
				return buf_err(err, "summary");
			return 0;
		}
		j = runner_results_json(res, v->archived_only);
		if (!j)
			return plumb_err_oom(err, "summary");
		r = jsonio_dump(j, out, err);
		json_decref(j);
		return r;
	}
	/* The report `plumb report BUNDLE` prints of the bundle written. */
	r = res->bundle ? render_written(res, origin, color, fail_on, out, rr, err)
			: runner_results_text(res, out, err);
	if (r == 0 && res->bundle && buf_addch(out, '\n') < 0)
		r = buf_err(err, "summary");
	if (r == 0 && res->bundle)
		r = runner_results_footer(res, v->archived_only, out, err);
	return r;
}

int view_range_plan(struct buf *out, const char *range, const struct runner_range_commits *c,
		    const struct plumb_config *cfg)
{
	unsigned pads = cfg->run.pads_auto ? CONFIG_PADS_AUTO_START : cfg->run.pads;
	unsigned per = pads + (cfg->run.control ? 1 : 0);
	int bad;

	bad = buf_addstr(out, "\n; --range ") | esc_text(out, range) |
	      buf_printf(out, ": %zu of %zu commit%s measured against A = %.12s, in one job\n", c->n,
			 c->total, c->total == 1 ? "" : "s", c->base);
	for (size_t k = 0; k < c->n; k++)
		bad |= buf_printf(out, ";   %2zu  %.12s  ", k + 1, c->v[k].commit) |
		       esc_text(out, c->v[k].subject) | buf_addch(out, '\n');
	bad |= buf_printf(out, "; builds: %zu pairs, each A at %u pad%s%s and its commit at %u pad%s: "
			  "%zu variants%s\n", c->n, pads, pads == 1 ? "" : "s",
			  cfg->run.control ? " plus the control" : "", pads, pads == 1 ? "" : "s",
			  c->n * (size_t)(per + pads),
			  cfg->run.pads_auto ? " to start with (run.pads = auto adds pads per pair)" : "");
	return bad;
}
