/*
 * cli/github.h: under GitHub Actions (GITHUB_ACTIONS=true), `plumb run`
 * and `plumb report` append the Markdown report to $GITHUB_STEP_SUMMARY
 * and print ::error / ::warning annotations (reports/github.c).
 *
 * Ownership: the buffers are the caller's.
 */
#ifndef PLUMB_CLI_GITHUB_H
#define PLUMB_CLI_GITHUB_H

struct buf;

/* GITHUB_ACTIONS is "true". */
int cli_github_on(void);

/*
 * Append md to $GITHUB_STEP_SUMMARY (when set) and print notes, on stdout
 * or, when stdout carries JSON (json), on stderr.  Returns the exit
 * status: 0, or 74 when the summary cannot be written.
 */
int cli_github_emit(const struct buf *md, const struct buf *notes, int json);

#endif
