/*
 * cli/main.c: `plumb`: global options, the walk down the command table,
 * option parsing, and the exit status.
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <capstone/capstone.h>
#include <elfutils/version.h>
#include <git2.h>
#include <jansson.h>
#include <libpq-fe.h>
#include <openssl/crypto.h>
#include <sodium.h>
#include <sqlite3.h>
#include <zlib.h>
#include <zstd.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "views/version.h"
#include "common/banned.h"

/* plumb's version and the run-time versions of the libraries it links (views/version.c). */
static int print_version(void)
{
	struct view_versions v = {
		.plumb = PACKAGE_VERSION,
		.libarchive = archive_version_string(),
		.libpq = PQlibVersion(),
		.libcrypto = OpenSSL_version_num(),
		.sqlite = sqlite3_libversion(),
		.zstd = ZSTD_versionString(),
		.zlib = zlibVersion(),
		.jansson = jansson_version_str(),
		.libsodium = sodium_version_string(),
		.libelf = _ELFUTILS_VERSION,
	};
	struct buf out;

	git_libgit2_version(&v.libgit2[0], &v.libgit2[1], &v.libgit2[2]);
	cs_version(&v.capstone[0], &v.capstone[1]);
	buf_init(&out, 1 << 16);
	return cli_print_view(&out, view_version(&out, &v), "plumb --version");
}

/*
 * Whether standard output is a pipe or socket whose reader has gone: the
 * write end then polls as an error (SIGPIPE is ignored, so the write only
 * failed with EPIPE).
 */
static int stdout_reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0;
}

/* Walk argv down the tables, parse options, run.  Returns an exit status. */
static int dispatch(int argc, char **argv)
{
	const struct plumb_cmd *const *table = plumb_commands;
	const struct plumb_cmd *cmd = NULL;
	char path[256] = "";
	char who[300];
	int help, npos;

	while (argc > 0 && table) {
		const struct plumb_cmd *next = cmd_find(table, argv[0]);
		if (!next) {
			if (!cmd) {
				fprintf(stderr, "plumb: '%s' is not a plumb command; see 'plumb --help'\n",
					argv[0]);
				cli_print_main_help(stderr);
				return PLUMB_EXIT_USAGE;
			}
			if (argv[0][0] == '-' )
				break;
			fprintf(stderr, "plumb %s: '%s' is not a subcommand of '%s'\n",
				path, argv[0], path);
			cmd_print_help(cmd, path, stderr);
			return PLUMB_EXIT_USAGE;
		}
		size_t len = strlen(path);
		snprintf(path + len, sizeof(path) - len, "%s%s", len ? " " : "", next->name);
		cmd = next;
		table = cmd->subs;
		argc--;
		argv++;
	}
	snprintf(who, sizeof(who), "plumb %s", path);
	if (!cmd->exec) {
		/* A family such as `plumb bundle`: help, or a missing subcommand. */
		if (argc > 0 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
			cmd_print_help(cmd, path, stdout);
			return PLUMB_EXIT_OK;
		}
		fprintf(stderr, "%s: a subcommand is needed\n", who);
		cmd_print_help(cmd, path, stderr);
		return PLUMB_EXIT_USAGE;
	}
	npos = opts_parse(cmd->opts, argc, argv, who, &help);
	if (help) {
		cmd_print_help(cmd, path, stdout);
		return PLUMB_EXIT_OK;
	}
	if (npos < 0) {
		cmd_print_usage(cmd, path, stderr);
		return PLUMB_EXIT_USAGE;
	}
	return cmd->exec(npos, argv);
}

int main(int argc, char **argv)
{
	int status;

	if (argc < 2) {
		cli_print_main_help(stderr);
		return PLUMB_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		return print_version();
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cli_print_main_help(stdout);
		return PLUMB_EXIT_OK;
	}
	if (argv[1][0] == '-') {
		fprintf(stderr, "plumb: unknown option '%s'\n", argv[1]);
		cli_print_main_help(stderr);
		return PLUMB_EXIT_USAGE;
	}
	cleanup_install_handlers();
	status = dispatch(argc - 1, argv + 1);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (stdout_reader_gone()) {
			/* `plumb ... | head`: the reader left; quiet, like a tool
			 * that SIGPIPE stopped. */
			return 128 + SIGPIPE;
		}
		fprintf(stderr, "plumb: standard output: write error\n");
		if (status == PLUMB_EXIT_OK || status == PLUMB_EXIT_VERDICT)
			status = PLUMB_EXIT_IO;
	}
	if (cleanup_signal_pending())
		status = 128 + cleanup_signal_pending();
	return status;
}
