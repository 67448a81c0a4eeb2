/*
 * cli/cmd-demo.c: `plumb demo [DIR]`: make a small repository with a
 * placement-sensitive example and two commits (runner/demo.h), then run
 * its 4-pad comparison like `plumb run` and write the bundle into DIR.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cmd.h"
#include "views/run.h"
#include "common/buf.h"
#include "common/clock.h"
#include "cli/runlock.h"
#include "cli/runstatus.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "runner/demo.h"
#include "runner/lock.h"
#include "runner/run.h"
#include "common/banned.h"

static struct {
	int json;
} o;

static const struct plumb_opt demo_opts[] = {
	OPT_FLAG_("json", 0, "print the result as JSON (as plumb run --json)", &o.json),
	OPT_END_()
};

/* Run the demo's comparison into bundle, and say what the sweep took. */
static int demo_run(const struct plumb_config *cfg, const char *bundle, const char *dir,
		    uint64_t t0)
{
	struct runner_run_opts ropts;
	struct runner_run_result res;
	struct runview view;
	struct plumb_err err;
	int rc, status;

	plumb_err_clear(&err);
	memset(&ropts, 0, sizeof(ropts));
	runview_init(&view);
	runview_attach(&view, &ropts);
	ropts.output = bundle;
	rc = runner_run(cfg, &ropts, &res, &err);
	status = cli_run_status(&view, rc, &err, &res, o.json, REPORT_FAIL_NEVER);
	if (rc == 0) {
		/* The sweep may have grown: count the base's pads. */
		unsigned pads = 0;
		for (size_t i = 0; i < res.manifest.build.n_variants; i++)
			pads += res.manifest.build.variants[i].side == MANIFEST_SIDE_BASE;
		char took[UNITS_MAX], built[UNITS_MAX], measured[UNITS_MAX];
		units_seconds((double)(clock_now_ns() - t0) / 1e9, took);
		units_seconds((double)res.build_ns / 1e9, built);
		units_seconds((double)res.measure_ns / 1e9, measured);
		fprintf(stderr, "plumb demo: the whole sweep (%u pads x 2 sides + control, %lld rounds) "
			"took %s: builds %s, measuring %s; run `plumb run` in %s to measure again\n",
			pads, (long long)res.manifest.run.rounds, took, built, measured, dir);
	}
	runner_run_result_release(&res);
	return status;
}

static int demo_exec(int argc, char **argv)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct buf dir, conf, out;
	struct run_lock lock = { -1, NULL, 0 };
	uint64_t t0 = clock_now_ns();
	int status;

	if (argc > 1) {
		fprintf(stderr, "plumb demo: one folder at most\n");
		cmd_print_usage(&cmd_demo, "demo", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	buf_init(&dir, PATH_MAX);
	buf_init(&conf, PATH_MAX);
	buf_init(&out, PATH_MAX);
	if (runner_demo_prepare(argc ? argv[0] : NULL, &dir, &err) < 0) {
		status = cli_fail(&err);
		goto out;
	}
	fprintf(stderr, "plumb demo: %s: a repository with two commits of examples/interp; "
		"the candidate changes only code outside the hot loop run()\n", dir.data);
	if (buf_printf(&conf, "%s/plumb.conf", dir.data) < 0 ||
	    buf_printf(&out, "%s/demo.plumb", dir.data) < 0) {
		buf_err(&err, "demo folder");
		status = cli_fail(&err);
		goto out;
	}
	if (config_load(&cfg, conf.data, NULL, &err) < 0) {
		status = cli_fail(&err);
		goto out;
	}
	if ((status = cli_machine_lock(&lock, &cfg, NULL, 0)) != PLUMB_EXIT_OK) {
		config_release(&cfg);
		goto out;
	}
	status = demo_run(&cfg, out.data, dir.data, t0);
	config_release(&cfg);
	run_lock_release(&lock);
out:
	buf_release(&dir);
	buf_release(&conf);
	buf_release(&out);
	return status;
}

const struct plumb_cmd cmd_demo = {
	.name = "demo",
	.summary = "make a small repository with two commits and compare them",
	.usage = "demo [DIR] [--json]",
	.description =
		"Create DIR (default: a new ./plumb-demo-XXXXXX; an existing DIR must be\n"
		"empty) as a git repository holding the example interpreter\n"
		"examples/interp with two commits, the second changing only code outside\n"
		"its hot loop, and a plumb.conf that builds each at 6 pads to start with\n"
		"(the adaptive sweep, within a budget of 3 minutes).  Then run the\n"
		"comparison as plumb run does, write DIR/demo.plumb and print the\n"
		"verdict, and how long the whole sweep took.",
	.opts = demo_opts,
	.exec = demo_exec,
};
