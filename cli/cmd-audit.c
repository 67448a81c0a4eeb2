/*
 * cli/cmd-audit.c: `plumb audit BUNDLE|DIR [-p KEY.pub]... [--format F]
 * [-o FILE] [--remeasure [--repo PATH] [--bundle FILE]]` (reports/audit.h,
 * views/audit.h; --remeasure runs the recorded configuration through
 * runner/run.h, as `plumb run --from BUNDLE` does).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cmd.h"
#include "cli/trust.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "reports/audit.h"
#include "reports/report.h"
#include "runner/run.h"
#include "views/audit.h"
#include "views/progress.h"
#include "common/banned.h"

static struct {
	struct strlist keys;
	const char *format, *output;
	int remeasure, json, trust_commands;
	const char *repo, *bundle;
} o;

static const struct plumb_opt audit_opts[] = {
	OPT_LIST_("public-key", 'p', "KEY.pub",
		  "check the signature against this public key (repeatable; default: the *.pub of $XDG_CONFIG_HOME/plumb/trusted)",
		  &o.keys),
	OPT_STRING_("format", 0, "FORMAT", "text (default), md, html or json", &o.format),
	OPT_FLAG_("json", 0, "as --format json", &o.json),
	OPT_STRING_("output", 'o', "FILE", "write the audit to FILE (atomically) instead of standard output",
		    &o.output),
	OPT_FLAG_("remeasure", 0, "run the recorded configuration again on this host and say whether it reproduces",
		  &o.remeasure),
	OPT_STRING_("repo", 0, "PATH", "with --remeasure: the repository to check the commits out of (default: the recorded one)",
		    &o.repo),
	OPT_STRING_("bundle", 0, "FILE", "with --remeasure: where the new bundle goes (default: plumb run's name, here)",
		    &o.bundle),
	OPT_FLAG_("trust-commands", 0,
		  "with --remeasure: run the commands the bundle records although no trusted key signed it",
		  &o.trust_commands),
	OPT_END_()
};

/*
 * --remeasure: the recorded configuration run again, then compared.  An
 * error of the run itself (a build that fails, a missing repository) is
 * returned as the run would exit.  Without trust in the bundle's commands
 * nothing runs: *refused is the exit status after the commands were
 * printed (cli/trust.h).
 */
static int remeasure(struct audit *a, int json, int *refused, struct plumb_err *err)
{
	struct config_from from = { .repo = o.repo };
	struct plumb_config cfg;
	struct runner_run_opts ro;
	struct runner_run_result res;
	struct progress_view pv = { stderr, 0, 0 };
	int rc;

	/* The keys the audit checked the signature with. */
	from.keys = a->keys.keys;
	from.n_keys = a->keys.n;
	if ((rc = config_load_bundle(&cfg, a->path, &from, err)) < 0)
		return rc;
	if ((*refused = cli_from_trust(&cfg, &from, &a->keys, o.trust_commands, json)) != PLUMB_EXIT_OK) {
		config_release(&cfg);
		return 0;
	}
	memset(&ro, 0, sizeof(ro));
	memset(&res, 0, sizeof(res));
	ro.output = o.bundle;
	ro.event = view_event_put;
	ro.ctx = &pv;
	rc = runner_run(&cfg, &ro, &res, err);
	if (rc == 0)
		rc = audit_remeasure(a, &res.manifest, res.bundle, res.id, err);
	runner_run_result_release(&res);
	config_release(&cfg);
	return rc;
}

static int audit_exec(int argc, char **argv)
{
	enum view_audit_format f = VIEW_AUDIT_TEXT;
	struct audit_opts ao = { NULL, NULL, 0, NULL };
	struct plumb_err err;
	struct audit a;
	struct buf out;
	int rc, failed, refused = PLUMB_EXIT_OK, status = PLUMB_EXIT_OK;

	if (opt_json_alias("audit", o.json, &o.format) < 0)
		return PLUMB_EXIT_USAGE;
	if (o.format && view_audit_format_parse(o.format, &f) < 0) {
		fprintf(stderr, "plumb audit: --format takes text, md, html or json\n");
		return PLUMB_EXIT_USAGE;
	}
	if ((o.repo || o.bundle || o.trust_commands) && !o.remeasure) {
		fprintf(stderr, "plumb audit: --repo, --bundle and --trust-commands go with --remeasure\n");
		return PLUMB_EXIT_USAGE;
	}
	if (argc != 1) {
		fprintf(stderr, "plumb audit: %s\n", argc ? "one bundle at a time" : "a bundle is needed");
		cmd_print_usage(&cmd_audit, "audit", stderr);
		return PLUMB_EXIT_USAGE;
	}
	ao.path = argv[0];
	ao.keys = o.keys.v;
	ao.n_keys = o.keys.n;
	plumb_err_clear(&err);
	audit_init(&a);
	buf_init(&out, REPORT_OUTPUT_MAX);
	rc = audit_run(&ao, &a, &err);
	/* Only a bundle that verifies and agrees with itself is measured again. */
	if (rc == 0 && o.remeasure && !audit_failed(&a))
		rc = remeasure(&a, f == VIEW_AUDIT_JSON, &refused, &err);
	/* Refused for want of trust: the commands were printed instead. */
	if (rc == 0 && refused == PLUMB_EXIT_OK)
		rc = view_audit(&a, f, &out, &err);
	if (rc == 0 && refused == PLUMB_EXIT_OK)
		rc = report_write(&out, o.output, &err);
	failed = audit_failed(&a);
	/* 0 reproduced, 1 not reproduced, 3 not comparable or not verifiable. */
	if (rc == 0 && o.remeasure && !failed)
		status = !a.re.host.comparable ? cli_exit_status(PLUMB_EINPUT) :
			 a.re.reproduced ? PLUMB_EXIT_OK : PLUMB_EXIT_VERDICT;
	audit_release(&a);
	buf_release(&out);
	strlist_release(&o.keys);
	if (rc < 0)
		return cli_fail(&err);
	if (refused != PLUMB_EXIT_OK)
		return refused;
	/* A bundle that fails its integrity or consistency check is bad input. */
	return failed ? cli_exit_status(PLUMB_EINPUT) : status;
}

const struct plumb_cmd cmd_audit = {
	.name = "audit",
	.summary = "verify, explain and re-analyse an old bundle",
	.usage = "audit BUNDLE|DIR [-p KEY.pub]... [--format FORMAT] [-o FILE]\n"
		 "audit BUNDLE|DIR --remeasure [--repo PATH] [--bundle FILE] [--trust-commands] [-p KEY.pub]... "
		 "[--format FORMAT] [-o FILE]",
	.description =
		"One report an auditor can attach, in four parts, each with a pass/fail line.\n"
		"Integrity: every member against SHA256SUMS, the bundle id, the signature\n"
		"against -p or the trusted keys ($XDG_CONFIG_HOME/plumb/trusted/*.pub).\n"
		"Consistency: every summary and verdict recomputed from samples.tsv under the\n"
		"rule the bundle names, the host fingerprint from its facts; each difference\n"
		"is named. Provenance: what was recorded to redo the run. Re-analysis: what\n"
		"today's default rule says about the same samples, beside the recorded verdict.\n"
		"A folder (an extracted bundle) is audited too; without SHA256SUMS it is\n"
		"unverified. Exits 0 when integrity and consistency pass, 3 when either fails.\n"
		"--remeasure runs the recorded configuration again on this host (the commits\n"
		"out of --repo PATH or the recorded repository; plumb run --from BUNDLE),\n"
		"at the recorded commits and only when a trusted key signed the bundle or\n"
		"with --trust-commands (else its commands are printed and it exits 3),\n"
		"writes a new bundle and says per benchmark whether the new center lies in\n"
		"the recorded range (an instruction count within 0.01% of it) and the\n"
		"verdict is the same, and whether the hosts are comparable: exit 0\n"
		"reproduced, 1 not reproduced, 3 not comparable or not verifiable.",
	.opts = audit_opts,
	.exec = audit_exec,
};
