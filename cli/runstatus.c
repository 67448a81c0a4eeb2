/*
 * cli/runstatus.c: the end of `plumb run` and `plumb demo`: write what
 * views/run.h rendered, show an error and the failed child's last lines,
 * and turn the outcome into the exit status (cli/ alone does that).
 */
#include <stdio.h>

#include "cli/cmd.h"
#include "cli/runstatus.h"
#include "common/buf.h"
#include "common/err.h"
#include "reports/model.h"
#include "runner/run-types.h"
#include "views/run.h"
#include "common/banned.h"

int cli_run_status(struct runview *v, int rc, const struct plumb_err *err,
		   const struct runner_run_result *res, int json, int fail_on)
{
	struct plumb_err e;
	struct buf out;
	struct report_result rr;
	int r, status;

	runview_finish(v);
	if (rc < 0) {
		status = cli_fail(err);
		/* runner/failed.c: a heading, then the diagnostics or the tail. */
		if (res->stderr_tail)
			fprintf(stderr, "plumb: %s", res->stderr_tail);
		return status;
	}
	plumb_err_clear(&e);
	buf_init(&out, REPORT_OUTPUT_MAX);
	r = runview_output(res, v, json, cli_color(stdout), (enum report_fail_on)fail_on,
			   &out, &rr, &e);
	if (r < 0) {
		buf_release(&out);
		return cli_fail(&e);
	}
	/* Hosts not comparable, a failure or a verdict under --fail-on. */
	if (rr.message[0])
		fprintf(stderr, "plumb: %s\n", rr.message);
	if (res->failures && rr.failed < res->failures)
		rr.failed = res->failures;
	status = cli_gate_status(&rr, fail_on != REPORT_FAIL_NEVER, CLI_GATE_RUN);
	/* --quiet: a run that exits 0 says nothing (cron mails what is printed). */
	if ((!v->quiet || status != PLUMB_EXIT_OK) &&
	    fwrite(out.data, 1, out.len, stdout) != out.len) {
		buf_release(&out);
		return cli_exit_status(PLUMB_EIO);
	}
	buf_release(&out);
	if (res->failures) {
		if (res->stderr_tail)
			fprintf(stderr, "plumb: %s", res->stderr_tail);
		fprintf(stderr, "plumb: %zu benchmark%s failed; recorded in %s\n", res->failures,
			res->failures == 1 ? "" : "s", res->bundle ? res->bundle : "the bundle");
	}
	return status;
}
