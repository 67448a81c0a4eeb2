/*
 * cli/trust.h: what `plumb run --from BUNDLE` and `plumb audit --remeasure`
 * ask before they run a command a bundle records (DESIGN §11: a bundle is
 * data, never instructions): a good signature by a trusted key
 * (formats/keyring.h), or the user's --trust-commands after seeing them.
 * Without either, the commands are printed as --dry-run prints them and
 * the command exits 3 naming the trust that is missing.
 *
 * Ownership: everything is borrowed for the call.
 */
#ifndef PLUMB_CLI_TRUST_H
#define PLUMB_CLI_TRUST_H

struct config_from;
struct keyring;
struct plumb_config;

/*
 * The --dry-run view on stdout: the configuration as plumb.conf (as JSON
 * with json) and every command it would run, one comment line each.
 * Returns the exit status.
 */
int cli_print_plan(const struct plumb_config *cfg, int json);

/*
 * May the commands of cfg, read from a bundle by config_load_bundle()
 * (which filled from, checking the signature against keys), run?  0 when
 * a trusted key signed the bundle, or trust_commands is set and the
 * bundle is not a folder without SHA256SUMS (never trusted); else the
 * plan on stdout, the missing trust on stderr, and exit status 3.
 */
int cli_from_trust(const struct plumb_config *cfg, const struct config_from *from,
		   const struct keyring *keys, int trust_commands, int json);

#endif
