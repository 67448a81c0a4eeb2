/*
 * cli/cmd-audit.c: `plumb audit BUNDLE|DIR [-p KEY.pub]... [--format F]
 * [-o FILE]` (reports/audit.h, views/audit.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "reports/audit.h"
#include "reports/report.h"
#include "views/audit.h"
#include "common/banned.h"

static struct {
	struct strlist keys;
	const char *format, *output;
} o;

static const struct plumb_opt audit_opts[] = {
	OPT_LIST_("public-key", 'p', "KEY.pub",
		  "check the signature against this public key (repeatable; default: the *.pub of $XDG_CONFIG_HOME/plumb/trusted)",
		  &o.keys),
	OPT_STRING_("format", 0, "FORMAT", "text (default), md, html or json", &o.format),
	OPT_STRING_("output", 'o', "FILE", "write the audit to FILE (atomically) instead of standard output",
		    &o.output),
	OPT_END_()
};

static int audit_exec(int argc, char **argv)
{
	enum view_audit_format f = VIEW_AUDIT_TEXT;
	struct audit_opts ao = { NULL, NULL, 0, NULL };
	struct plumb_err err;
	struct audit a;
	struct buf out;
	int rc, failed;

	if (o.format && view_audit_format_parse(o.format, &f) < 0) {
		fprintf(stderr, "plumb audit: --format takes text, md, html or json\n");
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
	if (rc == 0)
		rc = view_audit(&a, f, &out, &err);
	if (rc == 0)
		rc = report_write(&out, o.output, &err);
	failed = audit_failed(&a);
	audit_release(&a);
	buf_release(&out);
	strlist_release(&o.keys);
	if (rc < 0)
		return cli_fail(&err);
	/* A bundle that fails its integrity or consistency check is bad input. */
	return failed ? cli_exit_status(PLUMB_EINPUT) : PLUMB_EXIT_OK;
}

const struct plumb_cmd cmd_audit = {
	.name = "audit",
	.summary = "verify, explain and re-analyse an old bundle",
	.usage = "audit BUNDLE|DIR [-p KEY.pub]... [--format FORMAT] [-o FILE]",
	.description =
		"One report an auditor can attach, in four parts, each with a pass/fail line.\n"
		"Integrity: every member against SHA256SUMS, the bundle id, the signature\n"
		"against -p or the trusted keys ($XDG_CONFIG_HOME/plumb/trusted/*.pub).\n"
		"Consistency: every summary and verdict recomputed from samples.tsv under the\n"
		"rule the bundle names, the host fingerprint from its facts; each difference\n"
		"is named. Provenance: what was recorded to redo the run. Re-analysis: what\n"
		"today's default rule says about the same samples, beside the recorded verdict.\n"
		"A folder (an extracted bundle) is audited too; without SHA256SUMS it is\n"
		"unverified. Exits 0 when integrity and consistency pass, 3 when either fails.",
	.opts = audit_opts,
	.exec = audit_exec,
};
