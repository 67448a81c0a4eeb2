/*
 * cli/trust.c: the trust a bundle's commands need before they run; see
 * trust.h.
 */
#include <stdio.h>

#include <jansson.h>

#include "cli/cmd.h"
#include "cli/trust.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "formats/keyring.h"
#include "views/build-summary.h"
#include "common/banned.h"

int cli_print_plan(const struct plumb_config *cfg, int json)
{
	struct plumb_err err;
	struct buf out;

	plumb_err_clear(&err);
	if (json) {
		json_t *j = config_to_json(cfg);
		int r = cli_print_json(j, "configuration");
		json_decref(j);
		return r;
	}
	buf_init(&out, 1 << 24);
	if (config_to_text(cfg, &out, &err) < 0 || runner_commands_text(cfg, &out, &err) < 0) {
		buf_release(&out);
		return cli_fail(&err);
	}
	fputs(buf_cstr(&out), stdout);
	buf_release(&out);
	return PLUMB_EXIT_OK;
}

/* The trusted keys, for the message: those of -p, or of the folder, or none. */
static void key_source(const struct keyring *keys, char *out, size_t size)
{
	if (keys->n && !keys->from_folder)
		snprintf(out, size, "the %zu key%s given with -p", keys->n, keys->n == 1 ? "" : "s");
	else if (keys->n)
		snprintf(out, size, "the %zu trusted key%s in %s", keys->n, keys->n == 1 ? "" : "s",
			 keys->folder);
	else
		snprintf(out, size, "no trusted key is set up (-p KEY.pub, or KEY.pub in %s)",
			 keys->folder ? keys->folder : "$XDG_CONFIG_HOME/plumb/trusted");
}

int cli_from_trust(const struct plumb_config *cfg, const struct config_from *from,
		   const struct keyring *keys, int trust_commands, int json)
{
	static const char *const not_run = "its commands were not run (printed above: check "
					   "them, then --trust-commands)";
	struct plumb_err err;
	char src[PLUMB_ERR_MAX / 2];
	int status;

	if (!from->unverified && (from->trusted || trust_commands))
		return PLUMB_EXIT_OK;
	key_source(keys, src, sizeof(src));
	if (from->unverified)
		plumb_err_set(&err, PLUMB_EINPUT, "%s: a folder without SHA256SUMS: nothing in it is "
			      "checked, so its commands (printed above) never run, not even with "
			      "--trust-commands", cfg->from.bundle);
	else if (from->signed_by_other)
		plumb_err_set(&err, PLUMB_EINPUT, "%s: signed with key %s, %s %s: %s", cfg->from.bundle,
			      from->keyid, keys->n ? "which is none of" : "but", src, not_run);
	else
		plumb_err_set(&err, PLUMB_EINPUT, "%s: not signed%s %s: %s", cfg->from.bundle,
			      keys->n ? " by any of" : ", and", src, not_run);
	status = cli_print_plan(cfg, json);
	fflush(stdout);
	return status != PLUMB_EXIT_OK ? status : cli_fail(&err);
}
