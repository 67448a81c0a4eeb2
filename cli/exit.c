/*
 * cli/exit.c: the table of exit statuses; see exit.h.
 */
#include <stdio.h>

#include "cli/exit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "formats/bisect.h"
#include "reports/model.h"
#include "common/banned.h"

const struct cli_exit_row cli_exit_table[] = {
	{ PLUMB_EXIT_OK, PLUMB_OK, CLI_RESULT_OK, "Success." },
	{ PLUMB_EXIT_VERDICT, 0, CLI_RESULT_FAIL_ON, "A verdict the caller asked to fail on" },
	{ PLUMB_EXIT_USAGE, PLUMB_EARG, -1, "Usage error:" },
	{ PLUMB_EXIT_INPUT, PLUMB_EINPUT, CLI_RESULT_WITHHELD, "Bad input:" },
	{ PLUMB_EXIT_BUILD, PLUMB_EBUILD, -1, "A build failed" },
	{ PLUMB_EXIT_BENCH, PLUMB_EBENCH, CLI_RESULT_BENCH_FAILED, "A benchmark failed:" },
	{ PLUMB_EXIT_INTERNAL, PLUMB_EINTERNAL, -1, "Internal error." },
	{ PLUMB_EXIT_IO, PLUMB_EIO, -1, "I/O error" },
	{ PLUMB_EXIT_LOCKED, PLUMB_ELOCKED, -1, "Another run holds the lock;" },
};

const size_t cli_exit_rows = sizeof(cli_exit_table) / sizeof(cli_exit_table[0]);

int cli_exit_status(int code)
{
	for (size_t i = 0; i < cli_exit_rows; i++)
		if (cli_exit_table[i].code == code &&
		    (code != 0 || cli_exit_table[i].status == PLUMB_EXIT_OK))
			return cli_exit_table[i].status;
	return PLUMB_EXIT_INTERNAL;
}

int cli_result_status(enum cli_result r)
{
	for (size_t i = 0; i < cli_exit_rows; i++)
		if (cli_exit_table[i].result == (int)r)
			return cli_exit_table[i].status;
	return PLUMB_EXIT_INTERNAL;
}

int cli_bisect_status(int outcome)
{
	return cli_result_status(outcome == BISECT_FOUND ? CLI_RESULT_OK : CLI_RESULT_FAIL_ON);
}

int cli_gate_status(const struct report_result *rr, int fail_on, enum cli_gate_cmd cmd)
{
	if (rr->withheld && (fail_on || cmd == CLI_GATE_REPORT))
		return cli_result_status(CLI_RESULT_WITHHELD);
	if (rr->failed && (fail_on || cmd == CLI_GATE_RUN))
		return cli_result_status(CLI_RESULT_BENCH_FAILED);
	if (rr->failon_matched && !rr->withheld)
		return cli_result_status(CLI_RESULT_FAIL_ON);
	return cli_result_status(CLI_RESULT_OK);
}

int cli_report_status(const struct report_result *rr, int fail_on)
{
	if (rr->message[0])
		fprintf(stderr, "plumb: %s\n", rr->message);
	return cli_gate_status(rr, fail_on, CLI_GATE_REPORT);
}

int cli_fail(const struct plumb_err *err)
{
	struct buf line;

	/* A message may quote what a file, a bundle or a child said: shown
	 * as esc_text() shows untrusted strings, so it cannot repaint the
	 * terminal whatever the module that wrote it did.  The line leaves
	 * in one write: stderr is unbuffered, and processes sharing one log
	 * (cron, make -j, eight writers at once) must not interleave halves
	 * of their messages. */
	buf_init(&line, sizeof(err->msg) * 4 + 16);
	if (buf_addstr(&line, "plumb: ") == 0 &&
	    esc_text(&line, err->msg[0] ? err->msg : "unknown error") == 0 &&
	    buf_addch(&line, '\n') == 0)
		fwrite(line.data, 1, line.len, stderr);
	else
		fputs("plumb: out of memory showing an error\n", stderr);
	buf_release(&line);
	return cli_exit_status(err->code ? err->code : PLUMB_EINTERNAL);
}
