/*
 * cli/commands.c: the one table of top-level commands, in the order
 * `plumb --help` lists them.
 */
#include <stddef.h>

#include "cli/cmd.h"
#include "common/banned.h"

const struct plumb_cmd *const plumb_commands[] = {
	&cmd_run,
	&cmd_analyze,
	&cmd_demo,
	&cmd_init,
	&cmd_help,
	&cmd_report,
	&cmd_host,
	&cmd_archive,
	&cmd_bundle,
	&cmd_import,
	&cmd_audit,
	&cmd_bisect,
	&cmd_cache,
	&cmd_completion,
	NULL
};
