/*
 * cli/exit.h: exit statuses, and the one table that maps stage error
 * codes (common/err.h) and results (what a stage found: verdicts withheld,
 * --fail-on matched, a failed benchmark) to them.  Only cli/ includes
 * this: stages report codes and results, never statuses (STYLE 20).  The
 * table is documented in the EXIT STATUS section of docs/plumb.1; a unit
 * test checks that each row is there.
 *
 * Ownership: everything here is static data or plain values.
 */
#ifndef PLUMB_CLI_EXIT_H
#define PLUMB_CLI_EXIT_H

#include <stddef.h>

struct report_result;

enum plumb_exit {
	PLUMB_EXIT_OK = 0,
	PLUMB_EXIT_VERDICT = 1,   /* a verdict the caller asked to fail on */
	PLUMB_EXIT_USAGE = 2,     /* usage error */
	PLUMB_EXIT_INPUT = 3,     /* bad input: config, bundle, archive, signature */
	PLUMB_EXIT_BUILD = 4,     /* a build failed */
	PLUMB_EXIT_BENCH = 5,     /* a benchmark failed */
	PLUMB_EXIT_INTERNAL = 70, /* internal error (EX_SOFTWARE) */
	PLUMB_EXIT_IO = 74,       /* I/O error (EX_IOERR) */
	PLUMB_EXIT_LOCKED = 75    /* another run holds the lock (EX_TEMPFAIL) */
};

/* What a command found that is not an error. */
enum cli_result {
	CLI_RESULT_OK,
	CLI_RESULT_FAIL_ON,       /* --fail-on matched; host --check --strict warned */
	CLI_RESULT_WITHHELD,      /* hosts not comparable: verdicts withheld */
	CLI_RESULT_BENCH_FAILED,  /* a benchmark failed, recorded, and the run went on */
};

/* One row: a status, the codes and results that give it, its words in plumb(1). */
struct cli_exit_row {
	int status;
	int code;                 /* the PLUMB_E* code, 0 for none */
	int result;               /* an enum cli_result, -1 for none */
	const char *words;        /* how plumb(1) begins its paragraph */
};

extern const struct cli_exit_row cli_exit_table[];
extern const size_t cli_exit_rows;

/* The status of a stage code (0 for PLUMB_OK, 70 for anything unknown). */
int cli_exit_status(int code);

/*
 * Report a stage error on stderr as "plumb: <message>", escaped as
 * esc_text() escapes untrusted strings (a message may quote a file, a
 * bundle or a child), and return the exit status for its code
 * (cli_exit_status()).
 */
struct plumb_err;
int cli_fail(const struct plumb_err *err);

/* plumb bisect's status for how it ended (an enum bisect_outcome,
 * formats/bisect.h): 0 found, 1 anything else (plumb(1) GATING). */
int cli_bisect_status(int outcome);

/* The status of a result. */
int cli_result_status(enum cli_result r);

/* Which command gates: they differ where a run stands on its own. */
enum cli_gate_cmd {
	CLI_GATE_REPORT,          /* plumb report, report --trend, run --report */
	CLI_GATE_RUN              /* plumb run, plumb demo */
};

/*
 * The gate: what a rendered report found (rr), under --fail-on (fail_on
 * nonzero when given), for one command, as an exit status.  docs/plumb.1
 * "GATING" holds the same rules as a table; test-exit.c checks one
 * against the other.  In order: verdicts withheld exit 3 (a run without
 * --fail-on stands: 0); a failed benchmark exits 5 (a report without
 * --fail-on shows it: 0); a verdict --fail-on asked for exits 1.
 */
int cli_gate_status(const struct report_result *rr, int fail_on, enum cli_gate_cmd cmd);

/*
 * After report_render(): say on stderr why verdicts were withheld or which
 * verdicts --fail-on matched, and return the status (cli_gate_status()
 * for CLI_GATE_REPORT).
 */
int cli_report_status(const struct report_result *rr, int fail_on);

#endif
