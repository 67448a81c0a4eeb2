/*
 * bench/report-render.c: time the report stage itself, for bench/report.sh:
 * load a bundle (or folder, or manifest) once, as `plumb report` does,
 * then render it with report_render() in each format, the way `plumb run`
 * calls it at its end with the results it holds.  Not installed.
 *
 * usage: report-render BUNDLE [REPEAT]
 *
 * Prints the load time, then per format the median render time of REPEAT
 * (default 21) renders and the output size, then the four formats in a row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "common/err.h"
#include "reports/report.h"
#include "reports/source.h"
#include "reports/words.h"
#include "common/banned.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Render once in format f; the milliseconds it took, or -1. */
static double render(const struct report_side *side, enum report_format f, size_t *bytes)
{
	struct report_opts o = { f, 0, 0, REPORT_FAIL_NEVER };
	struct report_result res;
	struct plumb_err err;
	struct buf out;
	double t0, t1;
	int rc;

	plumb_err_clear(&err);
	buf_init(&out, REPORT_OUTPUT_MAX);
	t0 = now_ms();
	rc = report_render(side, NULL, &o, &out, &res, &err);
	t1 = now_ms();
	*bytes = out.len;
	buf_release(&out);
	if (rc < 0) {
		fprintf(stderr, "report-render: %s\n", err.msg);
		return -1;
	}
	return t1 - t0;
}

int main(int argc, char **argv)
{
	struct report_source src;
	struct report_side side;
	struct plumb_err err;
	long repeat = argc > 2 ? strtol(argv[2], NULL, 10) : 21;
	double t0, t1, times[1000], all = 0;
	size_t bytes = 0;

	if (argc < 2 || repeat < 1 || repeat > 1000) {
		fprintf(stderr, "usage: report-render BUNDLE [REPEAT]\n");
		return 2;
	}
	plumb_err_clear(&err);
	report_source_init(&src);
	t0 = now_ms();
	if (report_source_load(&src, argv[1], &err) < 0) {
		fprintf(stderr, "report-render: %s\n", err.msg);
		return 3;
	}
	t1 = now_ms();
	printf("%-40s %8.1f ms  (%zu benchmarks)\n", "load (verify, parse, distributions)",
	       t1 - t0, src.m.n_benches);
	report_source_side(&src, MANIFEST_SIDE_CANDIDATE, &side);
	for (enum report_format f = REPORT_TEXT; f <= REPORT_JSON; f++) {
		for (long i = 0; i < repeat; i++)
			if ((times[i] = render(&side, f, &bytes)) < 0)
				return 70;
		qsort(times, (size_t)repeat, sizeof(times[0]), cmp);
		all += times[repeat / 2];
		printf("render --format %-24s %8.2f ms  (%zu bytes)\n", report_format_name(f),
		       times[repeat / 2], bytes);
	}
	printf("%-40s %8.2f ms\n", "render all four formats", all);
	printf("%-40s %8.2f ms\n", "load once + render all four", t1 - t0 + all);
	report_source_release(&src);
	return 0;
}
