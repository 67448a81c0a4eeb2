/*
 * cli/open.c: what several commands open alike, each with its errors
 * printed and an exit status returned: the public key of -p, and the
 * archive of --archive-dir (or $PLUMB_ARCHIVE, or plumb.conf's
 * archive.url).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive/store.h"
#include "formats/config.h"
#include "formats/sign.h"
#include "cli/cmd.h"
#include "common/err.h"
#include "common/banned.h"

/* Load -p KEY.pub when given; 0, or an exit status (cmd.h). */
int cli_load_pubkey(const char *path, struct sign_public_key *pk, int *have)
{
	struct plumb_err err;

	*have = 0;
	if (!path)
		return 0;
	plumb_err_clear(&err);
	if (sign_public_key_load(pk, path, &err) < 0)
		return cli_fail(&err);
	*have = 1;
	return 0;
}

int cli_archive_dir(const char *opt, const char **dir, char **owned)
{
	const char *env = getenv("PLUMB_ARCHIVE");
	struct plumb_config cfg;
	struct plumb_err err;
	int status = 0;

	*dir = opt;
	*owned = NULL;
	if (opt || (env && *env) || access("plumb.conf", F_OK) != 0)
		return 0;
	plumb_err_clear(&err);
	if (config_init(&cfg, &err) < 0)
		return cli_fail(&err);
	if (config_read(&cfg, "plumb.conf", &err) < 0) {
		status = cli_fail(&err);
	} else if (cfg.archive.url && !(*owned = strdup(cfg.archive.url))) {
		plumb_err_oom(&err, "archive.url");
		status = cli_fail(&err);
	}
	*dir = *owned;
	config_release(&cfg);
	return status;
}

int cli_archive_open(struct store *st, const char *dir_opt, int flags)
{
	struct plumb_err err;
	char *dir = NULL, *owned;
	const char *chosen;
	int r;

	if ((r = cli_archive_dir(dir_opt, &chosen, &owned)) != 0)
		return r;
	plumb_err_clear(&err);
	if ((r = store_locate(chosen, &dir, &err)) < 0 ||
	    (r = store_open(st, dir, flags, &err)) < 0) {
		free(dir);
		free(owned);
		return cli_fail(&err);
	}
	free(dir);
	free(owned);
	return 0;
}
