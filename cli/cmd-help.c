/*
 * cli/cmd-help.c: `plumb help [CMD [SUB]]`, the same text as
 * `plumb CMD [SUB] --help`, and `plumb --help`, the list of commands.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/err.h"
#include "common/banned.h"

/* `plumb --help`: every command of the table with its summary. */
void cli_print_main_help(FILE *out)
{
	fprintf(out,
		"usage: plumb [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"Benchmark a base and a candidate commit across code placements, and\n"
		"call a difference only when placement cannot explain it.\n"
		"\n"
		"commands:\n");
	for (const struct plumb_cmd *const *c = plumb_commands; *c; c++)
		fprintf(out, "  %-10s %s\n", (*c)->name, (*c)->summary);
	fprintf(out,
		"\n"
		"See 'plumb help COMMAND' or 'plumb COMMAND --help'; exit statuses\n"
		"are listed in plumb(1).\n");
}

static int help_exec(int argc, char **argv)
{
	const struct plumb_cmd *const *table = plumb_commands;
	const struct plumb_cmd *cmd = NULL;
	char path[256] = "";

	if (argc == 0) {
		cli_print_main_help(stdout);
		return PLUMB_EXIT_OK;
	}
	for (int i = 0; i < argc; i++) {
		if (!table) {
			fprintf(stderr, "plumb help: '%s %s' has no subcommands\n", path, argv[i]);
			return PLUMB_EXIT_USAGE;
		}
		cmd = cmd_find(table, argv[i]);
		if (!cmd) {
			fprintf(stderr, "plumb help: '%s%s%s' is not a plumb command; see 'plumb --help'\n",
				path, *path ? " " : "", argv[i]);
			return PLUMB_EXIT_USAGE;
		}
		size_t len = strlen(path);
		snprintf(path + len, sizeof(path) - len, "%s%s", len ? " " : "", cmd->name);
		table = cmd->subs;
	}
	cmd_print_help(cmd, path, stdout);
	return PLUMB_EXIT_OK;
}

const struct plumb_cmd cmd_help = {
	.name = "help",
	.summary = "show the help of a command",
	.usage = "help [COMMAND [SUBCOMMAND]]",
	.description = "Print the same text as `plumb COMMAND --help`.",
	.exec = help_exec,
};
