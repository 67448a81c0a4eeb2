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
#include "formats/jsonio.h"
#include "reports/report.h"
#include "views/run-results.h"
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

	if (v->quiet)
		return;
	runview_finish(v);
	stamp(ts);
	fprintf(v->err, "plumb: %s ", ts);
	(void)esc_fputs(v->err, line, 0);   /* it may quote a name or a child's words */
	fputc('\n', v->err);
}

static void on_progress(void *ctx, const struct runner_progress *p)
{
	struct runview *v = ctx;
	double el = (double)p->elapsed_ns / 1e9;
	double eta = p->done && p->total > p->done ?
		     el / (double)p->done * (double)(p->total - p->done) : 0;
	char e1[32], e2[32], ts[16], load[32] = "";

	if (v->quiet)
		return;
	clock_text(el, e1, sizeof(e1));
	clock_text(eta, e2, sizeof(e2));
	if (p->load1 >= 0)
		snprintf(load, sizeof(load), ", load %.2f", p->load1);
	if (v->tty) {
		fprintf(v->err, "\r\033[K%s %u/%u  ", p->warmup ? "warmup" : "round", p->round,
			p->rounds);
		(void)esc_fputs(v->err, p->variant, 0);
		fputs("  ", v->err);
		(void)esc_fputs(v->err, p->bench, 0);
		if (p->commit) {
			fputs("  commit ", v->err);
			(void)esc_fputs(v->err, p->commit, 0);
		}
		fprintf(v->err, "  elapsed %s  ETA %s%s", e1, e2, load);
		fflush(v->err);
		v->drawn = 1;
		return;
	}
	if (!p->round_done)
		return;
	stamp(ts);
	fprintf(v->err, "plumb: %s %s %u/%u done", ts, p->warmup ? "warmup pass" : "round",
		p->round, p->rounds);
	if (p->commit) {
		/* A range job: the commit whose variant ran last. */
		fputs(p->warmup ? " for commit " : " (last run: commit ", v->err);
		(void)esc_fputs(v->err, p->commit, 0);
		if (!p->warmup)
			fputc(')', v->err);
	}
	fprintf(v->err, ": %llu of %llu runs, elapsed %s, ETA %s%s\n",
		(unsigned long long)p->done, (unsigned long long)p->total, e1, e2, load);
}

void runview_attach(struct runview *v, struct runner_run_opts *opts)
{
	opts->log = on_log;
	opts->progress = on_progress;
	opts->ctx = v;
}

int runview_render_bundle(const char *bundle, enum report_format format, int color,
			  enum report_fail_on fail_on, struct buf *out,
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
		rc = report_render(&side, NULL, &ro, out, rr, err);
	}
	report_source_release(&src);
	return rc;
}

int runview_github_bundle(const char *bundle, struct buf *md, struct buf *notes,
			  struct plumb_err *err)
{
	struct report_source src;
	struct report_side side;
	int rc;

	report_source_init(&src);
	src.want_dist = 0;
	rc = report_source_load(&src, bundle, err);
	if (rc == 0) {
		report_source_side(&src, MANIFEST_SIDE_CANDIDATE, &side);
		rc = report_github_render(&side, NULL, 0, md, notes, err);
	}
	report_source_release(&src);
	return rc;
}

int runview_output(const struct runner_run_result *res, int json, int quiet, int color,
		   enum report_fail_on fail_on, struct buf *out,
		   struct report_result *rr, struct plumb_err *err)
{
	int r;

	memset(rr, 0, sizeof(*rr));
	if (json || quiet) {
		json_t *j;
		struct buf scratch;
		/* What the report finds, for the gate and the verdict line. */
		buf_init(&scratch, REPORT_OUTPUT_MAX);
		r = res->bundle ? runview_render_bundle(res->bundle, REPORT_TEXT, 0, fail_on,
							&scratch, rr, err) : 0;
		buf_release(&scratch);
		if (r < 0)
			return r;
		if (!json) {
			if (rr->summary[0] && buf_printf(out, "plumb: %s\n", rr->summary) < 0)
				return buf_err(err, "summary");
			return 0;
		}
		j = runner_results_json(res);
		if (!j)
			return plumb_err_oom(err, "summary");
		r = jsonio_dump(j, out, err);
		json_decref(j);
		return r;
	}
	/* The report `plumb report BUNDLE` prints, read back from the bundle. */
	r = res->bundle ? runview_render_bundle(res->bundle, REPORT_TEXT, color, fail_on, out, rr, err)
			: runner_results_text(res, out, err);
	if (r == 0 && res->bundle && buf_addch(out, '\n') < 0)
		r = buf_err(err, "summary");
	if (r == 0 && res->bundle)
		r = runner_results_footer(res, out, err);
	return r;
}
