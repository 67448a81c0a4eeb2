/*
 * cli/cmd-archive-transfer.c: `plumb archive push [--to URL]` and `plumb
 * archive pull [--from URL] [--host FP] [--since DATE]`: this host's
 * archive and the shared one (archive/transfer.h).  The shared archive is
 * --to/--from, else $PLUMB_SHARED_ARCHIVE.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "archive/store.h"
#include "archive/transfer.h"
#include "views/transfer.h"
#include "cli/cmd.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/banned.h"

#define SHARED_ENV "PLUMB_SHARED_ARCHIVE"

static const char *opt_dir, *opt_url, *opt_host, *opt_since;
static int opt_json, opt_quiet;

struct progress {
	const char *verb;
};

static int on_bundle(void *ctx, size_t i, size_t n, const char *id,
		     enum transfer_status status, const char *reason)
{
	const struct progress *p = ctx;

	if (!opt_quiet || status == TRANSFER_REFUSED)
		view_transfer_progress(stderr, p->verb, i, n, id, status, reason);
	return cleanup_signal_pending();
}

/* The shared archive: the option, else the environment; NULL after a usage message. */
static const char *shared_url(const char *verb, const char *opt)
{
	const char *env = getenv(SHARED_ENV);

	if (opt && !*opt) {
		fprintf(stderr, "plumb archive %s: --%s: empty\n", verb,
			strcmp(verb, "push") == 0 ? "to" : "from");
		return NULL;
	}
	if (opt)
		return opt;
	if (env && *env)
		return env;
	fprintf(stderr, "plumb archive %s: no shared archive: give --%s or set %s\n", verb,
		strcmp(verb, "push") == 0 ? "to" : "from", SHARED_ENV);
	return NULL;
}

/* Nonzero when a and b name one existing folder. */
static int same_folder(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

static int transfer_exec(int argc, const char *verb, int pull)
{
	struct store local, shared;
	struct transfer_opts o;
	struct progress prog = { verb };
	struct plumb_err err;
	json_t *model = NULL;
	const char *url;
	int r, status = 0;

	if (argc != 0) {
		fprintf(stderr, "plumb archive %s: takes no arguments (the shared archive is --%s URL)\n",
			verb, pull ? "from" : "to");
		return PLUMB_EXIT_USAGE;
	}
	if (!(url = shared_url(verb, opt_url)))
		return PLUMB_EXIT_USAGE;
	if ((r = cli_archive_open(&local, opt_dir, pull ? STORE_CREATE : STORE_READONLY)) != 0)
		return r;
	if (same_folder(local.dir, url)) {
		fprintf(stderr, "plumb archive %s: the shared archive is this host's own archive (%s)\n",
			verb, local.dir);
		store_close(&local);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	if (store_open(&shared, url, pull ? STORE_READONLY : STORE_CREATE, &err) < 0) {
		store_close(&local);
		return cli_fail(&err);
	}
	memset(&o, 0, sizeof(o));
	o.host = opt_host;
	o.since = opt_since;
	o.progress = on_bundle;
	o.ctx = &prog;
	if (transfer_bundles(pull ? &shared : &local, pull ? &local : &shared, &o, &model, &err) < 0)
		status = cli_fail(&err);
	store_close(&shared);
	store_close(&local);
	if (!model)
		return status;
	if (opt_json) {
		int s = cli_print_json(model, "transfer JSON");
		if (!status)
			status = s;
	} else if (!opt_quiet) {
		view_transfer(model, pull ? "pulled from" : "pushed to", url, stdout);
	}
	if (json_array_size(json_object_get(model, "refused"))) {
		char lead[64];
		snprintf(lead, sizeof(lead), "plumb: archive %s: refused:", verb);
		view_transfer_refused(model, lead, stderr);
		if (!status)
			status = PLUMB_EXIT_INPUT;
	}
	json_decref(model);
	return status;
}

/* The options push and pull share, after their own. */
#define SHARED_OPTS_ \
	OPT_FLAG_("json", 0, "print JSON: {sent: [ID], present: [ID], refused: [{id, reason}], stopped}", \
		  &opt_json), \
	OPT_FLAG_("quiet", 'q', "print only refusals and errors (for cron)", &opt_quiet), \
	OPT_STRING_("archive-dir", 0, "DIR", "this host's archive (default: $PLUMB_ARCHIVE, else " \
		    "$XDG_DATA_HOME/plumb)", &opt_dir), \
	OPT_END_()

static const struct plumb_opt push_opts[] = {
	OPT_STRING_("to", 0, "URL", "the shared archive (default: $PLUMB_SHARED_ARCHIVE)", &opt_url),
	SHARED_OPTS_
};

static int push_exec(int argc, char **argv)
{
	(void)argv;
	return transfer_exec(argc, "push", 0);
}

const struct plumb_cmd cmd_archive_push = {
	.name = "push",
	.summary = "send this host's bundles that the shared archive does not hold",
	.usage = "archive push [--to URL] [--quiet] [--json] [--archive-dir DIR]",
	.description =
		"Send every bundle of this host's archive that the shared archive (--to,\n"
		"else $PLUMB_SHARED_ARCHIVE) does not hold, by id.  Each is verified on\n"
		"arrival as 'archive add' verifies it, and must be the id it is stored\n"
		"under; one that fails (or is no regular file, or cannot be downloaded)\n"
		"is refused with the reason, never indexed, and the push goes on (exit 3\n"
		"at the end, naming it).\n"
		"Idempotent: a push stopped at any point and run again completes it.",
	.opts = push_opts,
	.exec = push_exec,
};

static const struct plumb_opt pull_opts[] = {
	OPT_STRING_("from", 0, "URL", "the shared archive (default: $PLUMB_SHARED_ARCHIVE)", &opt_url),
	OPT_STRING_("host", 0, "FP", "only bundles measured on this host fingerprint (or prefix)", &opt_host),
	OPT_STRING_("since", 0, "DATE", "only bundles created at or after DATE (YYYY-MM-DD[THH:MM:SS(Z|+HH:MM)])",
		    &opt_since),
	SHARED_OPTS_
};

static int pull_exec(int argc, char **argv)
{
	(void)argv;
	return transfer_exec(argc, "pull", 1);
}

const struct plumb_cmd cmd_archive_pull = {
	.name = "pull",
	.summary = "fetch the shared archive's bundles that this host's archive does not hold",
	.usage = "archive pull [--from URL] [--host FP] [--since DATE] [--quiet] [--json] [--archive-dir DIR]",
	.description =
		"The reverse of push: every bundle of the shared archive (--from, else\n"
		"$PLUMB_SHARED_ARCHIVE) that this host's archive does not hold, verified on\n"
		"arrival; --host and --since choose which.",
	.opts = pull_opts,
	.exec = pull_exec,
};
