/*
 * runner/failed.h: a failed build or benchmark keeps its evidence.
 *
 * The whole log of the failure is copied out of the run folder (which is
 * removed at the end of the run) into
 * $XDG_STATE_HOME/plumb/failed/<run>/<name>.log (default
 * ~/.local/state/plumb/failed), named in the message, and removed by a
 * later run once older than FAILED_KEEP_DAYS days (or plumb run --prune's
 * age).  The message quotes the lines that matter: the compiler's and the
 * linker's diagnostics found in the log, else its tail.
 *
 * Ownership: strings returned are malloc'd and the caller's.
 */
#ifndef PLUMB_RUNNER_FAILED_H
#define PLUMB_RUNNER_FAILED_H

#include <stddef.h>
#include <time.h>

struct buf;
struct plumb_err;

#define FAILED_KEEP_DAYS 30
#define FAILED_QUOTE_LINES 20

/* $XDG_STATE_HOME/plumb/failed (absolute XDG_STATE_HOME), else ~/.local/state/plumb/failed. */
int failed_root(struct buf *out, struct plumb_err *err);

/*
 * Copy the log at path (at most 64 MiB of it) to failed/<basename of
 * run_dir>/<basename of path>; *kept is the copy's path.  A log that does
 * not exist keeps nothing (*kept NULL, 0).
 */
int failed_keep(const char *run_dir, const char *path, char **kept, struct plumb_err *err);

/* Nonzero for a line that is a diagnostic ("error:", "undefined reference", ...). */
int failed_is_diagnostic(const char *line, size_t len);

/*
 * The lines that matter of text[0..len) (a log named what: "the build
 * log"), for the message: a heading line, then up to FAILED_QUOTE_LINES
 * lines each after indent, escaped for a terminal; the diagnostics when
 * there are any ("the diagnostics in the build log (lines 6-12 of
 * 55):"), else the last lines ("the last lines of the build log:").
 */
int failed_quote(const char *text, size_t len, const char *what, const char *indent,
		 struct buf *out);

/*
 * The hook of a failure path: keep the log at path (failed_keep()) and
 * quote it (failed_quote(), indent "  | "), or text[0..len) instead of the
 * log when text is set; *quote and *kept are malloc'd, or NULL when there
 * was nothing (a copy that cannot be made leaves *kept NULL: the failure
 * is still reported, naming the log in the run folder).
 */
void failed_evidence(const char *run_dir, const char *path, const char *text, size_t len,
		     const char *what, char **quote, char **kept);

/* Remove failed/<run> folders last changed more than age seconds before now. */
int failed_prune(time_t now, long age, struct plumb_err *err);

#endif
