/*
 * cli/runstatus.h: the last step of `plumb run` and `plumb demo`.
 *
 * Ownership: everything is borrowed for the call.
 */
#ifndef PLUMB_CLI_RUNSTATUS_H
#define PLUMB_CLI_RUNSTATUS_H

struct plumb_err;
struct runner_run_result;
struct runview;

/*
 * After runner_run() returned rc: print the output of the run (views/run.h;
 * when v->quiet, nothing for a run that exits 0, else only the verdict
 * line) or the error and the failed run's
 * stderr tail; returns the exit status (cli_gate_status() for a run under
 * fail_on, an enum report_fail_on).
 */
int cli_run_status(struct runview *v, int rc, const struct plumb_err *err,
		   const struct runner_run_result *res, int json, int fail_on);

#endif
