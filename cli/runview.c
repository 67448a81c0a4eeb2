/*
 * cli/runview.c: progress lines and the end-of-run output of `plumb run`
 * and `plumb demo`; see runview.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cmd.h"
#include "cli/runview.h"
#include "common/buf.h"
#include "common/err.h"
#include "reports/report.h"
#include "runner/results.h"
#include "runner/run.h"
#include "common/banned.h"

void runview_init(struct runview *v)
{
	memset(v, 0, sizeof(*v));
	v->err = stderr;
	v->tty = isatty(fileno(stderr));
}

static void stamp(char out[16])
{
	time_t now = time(NULL);
	struct tm tm;

	out[0] = '\0';
	if (localtime_r(&now, &tm))
		strftime(out, 16, "%H:%M:%S", &tm);
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

static void on_log(void *ctx, const char *line)
{
	struct runview *v = ctx;
	char ts[16];

	runview_finish(v);
	stamp(ts);
	fprintf(v->err, "plumb: %s %s\n", ts, line);
}

static void on_progress(void *ctx, const struct runner_progress *p)
{
	struct runview *v = ctx;
	double el = (double)p->elapsed_ns / 1e9;
	double eta = p->done ? el / (double)p->done * (double)(p->total - p->done) : 0;
	char e1[32], e2[32], ts[16], load[32] = "";

	if (v->quiet)
		return;
	clock_text(el, e1, sizeof(e1));
	clock_text(eta, e2, sizeof(e2));
	if (p->load1 >= 0)
		snprintf(load, sizeof(load), ", load %.2f", p->load1);
	if (v->tty) {
		fprintf(v->err, "\r\033[K%s %u/%u  %s  %s  elapsed %s  ETA %s%s",
			p->warmup ? "warmup" : "round", p->round, p->rounds, p->variant, p->bench,
			e1, e2, load);
		fflush(v->err);
		v->drawn = 1;
		return;
	}
	if (!p->round_done)
		return;
	stamp(ts);
	fprintf(v->err, "plumb: %s %s %u/%u done: %llu of %llu runs, elapsed %s, ETA %s%s\n",
		ts, p->warmup ? "warmup pass" : "round", p->round, p->rounds,
		(unsigned long long)p->done, (unsigned long long)p->total, e1, e2, load);
}

void runview_attach(struct runview *v, struct runner_run_opts *opts)
{
	opts->log = on_log;
	opts->progress = on_progress;
	opts->ctx = v;
}

int runview_render_bundle(const char *bundle, enum report_format format, int color,
			  struct buf *out, struct plumb_err *err)
{
	struct report_opts ro = { format, color, 0, REPORT_FAIL_NEVER };
	struct report_source src;
	struct report_side side;
	int rc;

	report_source_init(&src);
	src.want_dist = format == REPORT_HTML;
	rc = report_source_load(&src, bundle, err);
	if (rc == 0) {
		report_source_side(&src, MANIFEST_SIDE_CANDIDATE, &side);
		rc = report_render(&side, NULL, &ro, out, err);
	}
	report_source_release(&src);
	return rc;
}

int runview_report(struct runview *v, int rc, const struct plumb_err *err,
		   const struct runner_run_result *res, int json)
{
	struct plumb_err e;
	int status;

	runview_finish(v);
	if (rc < 0) {
		status = cli_fail(err);
		if (res->stderr_tail)
			fprintf(stderr, "plumb: %s:\n%s",
				err->code == PLUMB_EBUILD ? "the last lines of the build log" :
				"the last lines of its standard error", res->stderr_tail);
		return status;
	}
	plumb_err_clear(&e);
	if (json) {
		json_t *j = runner_results_json(res);
		int r;
		if (!j) {
			plumb_err_oom(&e, "summary");
			return cli_fail(&e);
		}
		r = json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		json_decref(j);
		fputc('\n', stdout);
		if (r < 0)
			return PLUMB_EXIT_IO;
	} else {
		struct buf out;
		int r;
		buf_init(&out, REPORT_OUTPUT_MAX);
		/* The report `plumb report BUNDLE` prints, read back from the bundle. */
		r = res->bundle ? runview_render_bundle(res->bundle, REPORT_TEXT, cli_color(stdout),
							&out, &e)
				: runner_results_text(res, &out, &e);
		if (r == PLUMB_EINPUT && out.len) {
			/* Hosts not comparable (start against end): the report says so. */
			fprintf(stderr, "plumb: %s\n", e.msg);
			r = 0;
		}
		if (r < 0 || (res->bundle && (r = buf_addch(&out, '\n')) < 0) ||
		    (res->bundle && (r = runner_results_footer(res, &out, &e)) < 0)) {
			buf_release(&out);
			return cli_fail(&e);
		}
		fputs(buf_cstr(&out), stdout);
		buf_release(&out);
	}
	if (res->failures) {
		if (res->stderr_tail)
			fprintf(stderr, "plumb: the last lines of the failed run's standard error:\n%s",
				res->stderr_tail);
		fprintf(stderr, "plumb: %zu benchmark%s failed; recorded in %s\n", res->failures,
			res->failures == 1 ? "" : "s", res->bundle ? res->bundle : "the bundle");
		return PLUMB_EXIT_BENCH;
	}
	return PLUMB_EXIT_OK;
}
