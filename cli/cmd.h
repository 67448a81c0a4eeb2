/*
 * cli/cmd.h: the command table (STYLE 1-2).
 *
 * Adding a command is five steps, none optional:
 *   1. cli/cmd-<name>.c defining `const struct plumb_cmd cmd_<name>`: it
 *      parses options into a plain struct and calls one stage function;
 *   2. its row in plumb_commands[] (cli/commands.c) and its extern below;
 *   3. its line in cli/local.am;
 *   4. its section in docs/plumb.1, listing every option of its table
 *      (t0002-help-man.sh fails otherwise);
 *   5. an integration test tests/integration/tNNNN-<name>-*.sh.
 *
 * A command with subcommands (archive, bundle) sets `subs` to its own
 * NULL-terminated table of pointers; main.c descends into it.
 *
 * Ownership: everything here is static, read-only data.
 */
#ifndef PLUMB_CLI_CMD_H
#define PLUMB_CLI_CMD_H

#include <stdio.h>

#include <jansson.h>

#include "cli/exit.h"
#include "cli/options.h"

struct plumb_err;

struct plumb_cmd {
	const char *name;
	const char *summary;          /* one line for `plumb --help` */
	const char *usage;            /* synopsis lines without "plumb ", '\n'-separated */
	const char *description;      /* a paragraph for `plumb CMD --help`, or NULL */
	const struct plumb_opt *opts; /* ends with OPT_END_(); NULL for none */
	const struct plumb_cmd *const *subs; /* NULL-terminated table, or NULL */
	/* Runs with argv holding only the positional arguments; returns an exit status. */
	int (*exec)(int argc, char **argv);
};

/* The top-level table, ending with NULL. */
extern const struct plumb_cmd *const plumb_commands[];

extern const struct plumb_cmd cmd_analyze;
extern const struct plumb_cmd cmd_help;
extern const struct plumb_cmd cmd_report;
extern const struct plumb_cmd cmd_host;
extern const struct plumb_cmd cmd_archive;
extern const struct plumb_cmd cmd_bundle;
extern const struct plumb_cmd cmd_run;
extern const struct plumb_cmd cmd_demo;
extern const struct plumb_cmd cmd_init;
extern const struct plumb_cmd cmd_cache;
extern const struct plumb_cmd cmd_audit;
extern const struct plumb_cmd cmd_completion;
extern const struct plumb_cmd cmd_bisect;
extern const struct plumb_cmd cmd_import;

/* Print "usage: plumb <path> ..." lines of cmd to out. */
void cmd_print_usage(const struct plumb_cmd *cmd, const char *path, FILE *out);

/* Print the whole help of cmd (usage, description, options, subcommands). */
void cmd_print_help(const struct plumb_cmd *cmd, const char *path, FILE *out);

/* `plumb --help`: every command with its summary (cli/cmd-help.c). */
void cli_print_main_help(FILE *out);

/* Find a command by name in a table, or NULL. */
const struct plumb_cmd *cmd_find(const struct plumb_cmd *const *table,
				 const char *name);

/*
 * Write j to standard output as every --json does, through the one JSON
 * writer (formats/jsonio.h); j is borrowed, NULL means out of memory.
 * Returns the exit status.
 */
int cli_print_json(const json_t *j, const char *what);

/*
 * Write the text a view composed in out to standard output and release
 * out; rc is the view's return (0, or -1 when out could not grow: then
 * nothing is written and buf_err() names what).  Returns
 * the exit status.  cli/ prints nothing but what views give it.
 */
struct buf;
int cli_print_view(struct buf *out, int rc, const char *what);

/* Load a public key when path is not NULL: 0 (*have set), or an exit status. */
struct sign_public_key;
int cli_load_pubkey(const char *path, struct sign_public_key *pk, int *have);

/*
 * Open the archive of --archive-dir (dir_opt, or NULL for $PLUMB_ARCHIVE
 * and the default) with store_open() flags: 0, or an exit status after
 * the error was printed.
 */
struct store;
int cli_archive_open(struct store *st, const char *dir_opt, int flags);

/*
 * The archive a command names: --archive-dir (opt) when given, else NULL
 * for $PLUMB_ARCHIVE when it is set, else plumb.conf's archive.url when a
 * plumb.conf in the current folder sets one, else NULL (the default
 * folder).  *owned (the caller frees) holds what was read.  0, or an exit
 * status after the error (a plumb.conf that does not read) was printed.
 */
int cli_archive_dir(const char *opt, const char **dir, char **owned);

/* `plumb archive push` and `pull` (cli/cmd-archive-transfer.c). */
extern const struct plumb_cmd cmd_archive_push;
extern const struct plumb_cmd cmd_archive_pull;

/* Nonzero when colored output is wanted on f (a terminal, NO_COLOR unset). */
int cli_color(FILE *f);

#endif
