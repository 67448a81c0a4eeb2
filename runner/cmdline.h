/*
 * runner/cmdline.h: turning a configured command line (build.command,
 * bench.command) into what the process harness executes.
 *
 * A command line is split into words on blanks and run directly, unless it
 * uses shell syntax (quotes, $, ;, |, &, redirections, globs, a leading
 * VAR=value, a shell keyword or built-in first); then it runs as
 * `/bin/sh -c LINE`, and the record says so.  Placeholders `{name}` are
 * replaced by the caller's values; each expands to one word (quoted for the
 * shell to suit the quotes it stands in, so `LDFLAGS={pad_ldflags}`,
 * `LDFLAGS='{pad_ldflags}'` and `LDFLAGS="{pad_ldflags}"` all pass the
 * value intact); an empty value expands to nothing.  Other words in braces
 * stay as written (the configuration reader refuses near misses).
 *
 * Ownership: struct cmdline is caller-owned storage; cmdline_expand() fills
 * it, cmdline_release() frees everything it holds.
 */
#ifndef PLUMB_RUNNER_CMDLINE_H
#define PLUMB_RUNNER_CMDLINE_H

#include <stddef.h>

struct plumb_err;

struct cmdline_var {
	const char *name;   /* without braces: "pad_object" */
	const char *value;  /* never NULL; "" expands to nothing */
};

struct cmdline {
	char **argv;  /* NULL-terminated; {"/bin/sh", "-c", text} when shell */
	char *text;   /* the expanded line, as recorded and shown */
	int shell;    /* 1 when the line runs through /bin/sh -c */
};

/*
 * Expand tmpl with vars and decide how to run it.  key names the setting
 * for messages ("build.command").  An empty line is PLUMB_EINPUT.
 */
int cmdline_expand(struct cmdline *cl, const char *tmpl,
		   const struct cmdline_var *vars, size_t nvars,
		   const char *key, struct plumb_err *err);

/*
 * Append one word to an expanded command line, as its last argument: a
 * word of argv, or quoted for the shell at the end of the text it runs
 * (after the line's last command).  Messages name key.
 */
int cmdline_append(struct cmdline *cl, const char *word, const char *key,
		   struct plumb_err *err);

/* Free what cl holds; cl is empty after. */
void cmdline_release(struct cmdline *cl);

/* Nonzero when text needs a shell to mean what it says. */
int cmdline_needs_shell(const char *text);

/* Append s to b quoted for /bin/sh when it needs it; -1 on a buf error. */
struct buf;
int cmdline_quote(struct buf *b, const char *s);

#endif
