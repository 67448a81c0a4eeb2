/*
 * cli/output.c: the one way a command's results reach standard output
 * (a view's text, a JSON tree), whether color is wanted, and what a
 * command prints about itself (its usage and help, from its table entry).
 * cli/ prints nothing but what views give it, and these.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/jsonio.h"
#include "common/banned.h"

const struct plumb_cmd *cmd_find(const struct plumb_cmd *const *table,
				 const char *name)
{
	for (; table && *table; table++)
		if (strcmp((*table)->name, name) == 0)
			return *table;
	return NULL;
}

/* Each line of u as "usage: plumb LINE", the first after *prefix, then indented. */
static void usage_lines(const char *u, const char **prefix, FILE *out)
{
	while (u && *u) {
		const char *nl = strchr(u, '\n');
		size_t len = nl ? (size_t)(nl - u) : strlen(u);
		fprintf(out, "%s plumb %.*s\n", *prefix, (int)len, u);
		*prefix = "     ";
		u += len + (nl ? 1 : 0);
	}
}

void cmd_print_usage(const struct plumb_cmd *cmd, const char *path, FILE *out)
{
	const char *prefix = "usage:";

	(void)path;
	/* A family without a usage: its subcommands', so they cannot drift. */
	if (!cmd->usage && cmd->subs) {
		for (const struct plumb_cmd *const *sub = cmd->subs; *sub; sub++)
			usage_lines((*sub)->usage, &prefix, out);
		return;
	}
	usage_lines(cmd->usage, &prefix, out);
}

void cmd_print_help(const struct plumb_cmd *cmd, const char *path, FILE *out)
{
	cmd_print_usage(cmd, path, out);
	if (cmd->description)
		fprintf(out, "\n%s\n", cmd->description);
	if (cmd->subs) {
		fprintf(out, "\nsubcommands:\n");
		for (const struct plumb_cmd *const *s = cmd->subs; *s; s++)
			fprintf(out, "  %-16s %s\n", (*s)->name, (*s)->summary);
		fprintf(out, "\nSee 'plumb help %s SUBCOMMAND'.\n", path);
	}
	if (cmd->exec) {
		fprintf(out, "\n");
		opts_print_help(cmd->opts, out);
	}
}

int cli_print_json(const json_t *j, const char *what)
{
	struct plumb_err err;
	struct buf out;
	int status = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	if (!j) {
		plumb_err_oom(&err, what);
		return cli_fail(&err);
	}
	buf_init(&out, (size_t)256 << 20);
	if (jsonio_dump(j, &out, &err) < 0)
		status = cli_fail(&err);
	else if (fwrite(out.data, 1, out.len, stdout) != out.len)
		status = PLUMB_EXIT_IO;
	buf_release(&out);
	return status;
}

int cli_print_view(struct buf *out, int rc, const char *what)
{
	struct plumb_err err;
	int status = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	if (rc < 0) {
		(void)buf_err(&err, what);
		status = cli_fail(&err);
	} else if (fwrite(buf_cstr(out), 1, out->len, stdout) != out->len)
		status = PLUMB_EXIT_IO;
	buf_release(out);
	return status;
}

int cli_color(FILE *f)
{
	const char *nc = getenv("NO_COLOR");

	if (nc && *nc)
		return 0;
	return isatty(fileno(f));
}
