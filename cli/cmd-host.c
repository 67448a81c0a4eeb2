/*
 * cli/cmd-host.c: `plumb host [--json] [--check [--strict]]`, the host
 * facts of DESIGN §8 and the readiness check (runner/host*.c), shown by
 * views/host.c.
 */
#include <stdio.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "runner/host.h"
#include "runner/host-check.h"
#include "views/host.h"
#include "common/banned.h"

/* Largest output accepted: far beyond any real host's facts. */
#define HOST_OUTPUT_MAX (16 * 1024 * 1024)

static int opt_json, opt_check, opt_strict;
static const char *opt_allow, *opt_config;

static const struct plumb_opt host_opts[] = {
	OPT_FLAG_("json", 0, "print one JSON object (keys in docs/host-facts.md)", &opt_json),
	OPT_FLAG_("check", 0, "list readiness warnings and notes, each with a fix", &opt_check),
	OPT_FLAG_("strict", 0, "with --check: exit 1 when any warning is raised", &opt_strict),
	OPT_STRING_("allow", 0, "ID,...", "with --check: these warnings never fail --strict (ids in docs/host-facts.md)",
		    &opt_allow),
	OPT_STRING_("config", 'c', "FILE", "with --check: also allow the ids of FILE's host.allow",
		    &opt_config),
	OPT_END_()
};

/* -c FILE: its host.allow, checked as the run checks it. */
static int allow_of_config(struct host_check *hc, struct plumb_err *err)
{
	struct plumb_config cfg;
	char where[600];
	int rc;

	if (config_load(&cfg, opt_config, NULL, err) < 0)
		return -1;
	snprintf(where, sizeof(where), "%s: host.allow", opt_config);
	rc = host_check_allow(hc, where, cfg.host.allow, err);
	config_release(&cfg);
	return rc;
}

static int host_exec(int argc, char **argv)
{
	struct host_facts hf;
	struct host_check hc;
	struct plumb_err err;
	struct buf out;
	size_t warnings;
	int rc;

	if (argc > 0) {
		fprintf(stderr, "plumb host: unexpected argument '%s'\n", argv[0]);
		cmd_print_usage(&cmd_host, "host", stderr);
		return PLUMB_EXIT_USAGE;
	}
	if ((opt_strict || opt_allow || opt_config) && !opt_check) {
		fprintf(stderr, "plumb host: %s needs --check\n",
			opt_strict ? "--strict" : opt_allow ? "--allow" : "-c");
		cmd_print_usage(&cmd_host, "host", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	if (opt_allow && host_check_allow(NULL, "--allow", opt_allow, &err) < 0) {
		fprintf(stderr, "plumb host: %s\n", err.msg);
		return PLUMB_EXIT_USAGE;
	}
	buf_init(&out, HOST_OUTPUT_MAX);
	host_facts_init(&hf);
	host_check_init(&hc);
	rc = host_facts_collect(&hf, &err);
	if (!rc && opt_check)
		rc = host_check_run(&hf, &hc, &err);
	if (!rc && opt_check && opt_allow)
		rc = host_check_allow(&hc, "--allow", opt_allow, &err);
	if (!rc && opt_check && opt_config && (rc = allow_of_config(&hc, &err)) < 0 &&
	    err.code == PLUMB_EARG)
		err.code = PLUMB_EINPUT;   /* a bad name in a file is bad input */
	if (!rc)
		rc = view_host(&hf, opt_check ? &hc : NULL, opt_json, &out, &err);
	warnings = hc.warnings;
	host_check_release(&hc);
	host_facts_release(&hf);
	if (rc) {
		buf_release(&out);
		return cli_fail(&err);
	}
	fwrite(buf_cstr(&out), 1, out.len, stdout);
	buf_release(&out);
	if (opt_strict && warnings > 0)
		return cli_result_status(CLI_RESULT_FAIL_ON);
	return PLUMB_EXIT_OK;
}

const struct plumb_cmd cmd_host = {
	.name = "host",
	.summary = "show the host facts that decide whether results compare",
	.usage = "host [--json] [--check [--strict] [--allow ID,...] [-c plumb.conf]]",
	.description =
		"Read the facts of this machine that make two measurements comparable\n"
		"or not (CPU, frequency governor, turbo, SMT, kernel, isolation, ...)\n"
		"from /proc and /sys, under PLUMB_SYSROOT when it is set. Unknown facts\n"
		"are shown as unknown (null), never guessed. --check adds readiness\n"
		"warnings in the manner of `pyperf system show`, each with a fix;\n"
		"--strict exits 1 on a warning not allowed by --allow or host.allow of -c\n"
		"FILE (on a VM: --allow virt,isolation,perf).",
	.opts = host_opts,
	.exec = host_exec,
};
