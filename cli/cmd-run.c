/*
 * cli/cmd-run.c: `plumb run`: read plumb.conf with the command-line
 * overrides, then print the effective configuration (--dry-run), or check
 * out, build and verify every pad variant (--build-only, runner_build()),
 * or do the whole run and write the bundle (runner_run()).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "archive/bundles.h"
#include "archive/store.h"
#include "cli/cmd.h"
#include "cli/github.h"
#include "views/run.h"
#include "common/buf.h"
#include "cli/runlock.h"
#include "cli/runstatus.h"
#include "cli/trust.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/url.h"
#include "formats/config.h"
#include "formats/keyring.h"
#include "reports/report.h"
#include "reports/words.h"
#include "runner/build.h"
#include "runner/host.h"
#include "runner/host-check.h"
#include "runner/lock.h"
#include "runner/range.h"
#include "runner/run.h"
#include "runner/workdir.h"
#include "views/build-summary.h"
#include "views/progress.h"
#include "views/range.h"
#include "common/banned.h"

static struct {
	const char *config;
	const char *base, *candidate, *pads, *rounds, *jobs;
	struct strlist benches, labels;
	const char *output, *workdir, *report;
	int archive, build_only, dry_run, keep, keep_going, json, no_cache;
	const char *fail_on;
	enum report_fail_on gate;
	int quiet;
	const char *wait, *prune;
	const char *from;
	struct strlist keys;
	int trust_commands;
	const char *range;
	long step;
} o;

static const struct plumb_opt run_opts[] = {
	OPT_STRING_("config", 'c', "FILE", "the run's configuration (default ./plumb.conf)", &o.config),
	OPT_STRING_("base", 0, "REF", "the base revision, or latest-tag: the newest release before the candidate (run.base)", &o.base),
	OPT_STRING_("candidate", 0, "REF", "the candidate revision, or WORKTREE (run.candidate)", &o.candidate),
	OPT_STRING_("pads", 0, "N", "pad variants per side, or auto (run.pads)", &o.pads),
	OPT_STRING_("rounds", 0, "N", "timed rounds (run.rounds)", &o.rounds),
	OPT_STRING_("jobs", 'j', "N", "builds at once, or auto (build.jobs)", &o.jobs),
	OPT_LIST_("bench", 0, "NAME", "run only this benchmark (repeatable)", &o.benches),
	OPT_STRING_("output", 'o', "FILE.plumb", "write the result bundle here", &o.output),
	OPT_FLAG_("archive", 0, "import the bundle into the archive (without -o, keep no other copy)", &o.archive),
	OPT_LIST_("label", 0, "K=V", "record a label with the run (repeatable)", &o.labels),
	OPT_FLAG_("build-only", 0, "stop after the builds and their checks", &o.build_only),
	OPT_FLAG_("dry-run", 0, "print the effective configuration and stop", &o.dry_run),
	OPT_STRING_("workdir", 0, "DIR", "work folder (default $XDG_CACHE_HOME/plumb/runs)", &o.workdir),
	OPT_FLAG_("keep", 0, "keep the run folder (builds and logs) at the end", &o.keep),
	OPT_FLAG_("no-cache", 0, "build every variant: neither use nor fill the build cache", &o.no_cache),
	OPT_FLAG_("keep-going", 0, "record a failed benchmark and go on with the others", &o.keep_going),
	OPT_STRING_("report", 0, "FILE.html", "also write an HTML report", &o.report),
	OPT_FLAG_("json", 0, "print JSON for machines", &o.json),
	OPT_STRING_("fail-on", 0, "WHAT",
		    "exit 1 on a swept slower (slower), slower or faster (any), slower or noisy (noisy); "
		    "exit 5 on a failed benchmark", &o.fail_on),
	OPT_FLAG_("quiet", 'q', "print nothing when the run exits 0; else its errors and the verdict line", &o.quiet),
	OPT_OPTIONAL_("wait", "DURATION",
		      "wait for the machine-wide lock (at most DURATION) instead of exiting 75", &o.wait),
	OPT_OPTIONAL_("prune", "AGE",
		      "first remove kept run folders and failure logs older than AGE (default 14d)", &o.prune),
	OPT_STRING_("range", 0, "A..B",
		    "measure every commit of A..B against A in one job, one bundle each (-o: their folder)",
		    &o.range),
	OPT_INT_("step", 0, "N", "with --range: every Nth commit from A, and B", &o.step, 1, 1000000),
	OPT_STRING_("from", 0, "BUNDLE", "run the configuration a bundle recorded (its spec) instead of a plumb.conf",
		    &o.from),
	OPT_LIST_("public-key", 'p', "KEY.pub",
		  "with --from: a key whose signature lets the bundle's commands run (repeatable; default: the *.pub of $XDG_CONFIG_HOME/plumb/trusted)",
		  &o.keys),
	OPT_FLAG_("trust-commands", 0, "with --from: run the commands the bundle records although no trusted key signed it",
		  &o.trust_commands),
	OPT_END_()
};

static int print_result(const struct plumb_config *cfg, const struct runner_result *res)
{
	struct plumb_err err;

	plumb_err_clear(&err);
	if (o.json) {
		json_t *j = runner_summary_json(cfg, res);
		int r = cli_print_json(j, "summary");
		json_decref(j);
		return r;
	} else {
		struct buf out;
		buf_init(&out, 1 << 24);
		if (runner_summary_text(cfg, res, &out, &err) < 0) {
			buf_release(&out);
			return cli_fail(&err);
		}
		fputs(buf_cstr(&out), stdout);
		buf_release(&out);
	}
	return PLUMB_EXIT_OK;
}

/*
 * --archive: import the bundle just written, as `plumb archive add` does,
 * into $PLUMB_ARCHIVE, else plumb.conf's archive.url, else the default folder.
 */
static int archive_bundle(const struct plumb_config *cfg, const char *bundle)
{
	const char *env = getenv("PLUMB_ARCHIVE");
	struct store_added added;
	struct plumb_err err;
	struct store st;
	char *dir = NULL;
	int status = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	if (store_locate(env && *env ? NULL : cfg->archive.url, &dir, &err) < 0 ||
	    store_open(&st, dir, STORE_CREATE, &err) < 0) {
		free(dir);
		return cli_fail(&err);
	}
	if (store_add(&st, bundle, &added, &err) < 0)
		status = cli_fail(&err);
	else if (!o.quiet)
		fprintf(stderr, "plumb: %s %s the archive in %s\n", added.id,
			added.status == STORE_PRESENT ? "was already in" : "added to",
			url_is_postgres(dir) ? st.db_path : dir);
	store_close(&st);
	free(dir);
	return status;
}

/* --report FILE.html: the bundle's candidate against its own base. */
static int report_bundle(const char *bundle, const char *origin, const char *path)
{
	struct report_result rr;
	struct plumb_err err, werr;
	struct buf out;
	int rc;

	plumb_err_clear(&err);
	plumb_err_clear(&werr);
	buf_init(&out, REPORT_OUTPUT_MAX);
	rc = runview_render_bundle(bundle, origin, REPORT_HTML, 0, o.gate, &out, &rr, &err);
	/* Withheld verdicts still write the page. */
	if (rc == 0 && report_write(&out, path, &werr) < 0) {
		buf_release(&out);
		return cli_fail(&werr);
	}
	buf_release(&out);
	if (rc < 0)
		return cli_fail(&err);
	if (!o.quiet)
		fprintf(stderr, "plumb: report written to %s\n", path);
	/* The run's own status said what the report found already. */
	return rr.withheld ? cli_gate_status(&rr, 1, CLI_GATE_REPORT) : PLUMB_EXIT_OK;
}

/* GitHub Actions: the bundle's Markdown report to the step summary, its annotations. */
static int github_bundle(const char *bundle, const char *origin)
{
	struct plumb_err err;
	struct buf md, notes;
	int status;

	plumb_err_clear(&err);
	buf_init(&md, REPORT_OUTPUT_MAX);
	buf_init(&notes, 1 << 20);
	if (runview_github_bundle(bundle, origin, o.gate, &md, &notes, &err) < 0)
		status = cli_fail(&err);
	else
		status = cli_github_emit(&md, &notes, o.json);
	buf_release(&md);
	buf_release(&notes);
	return status;
}

/*
 * --archive without -o: the bundle is written into the work folder, not
 * the current one, and goes once the archive holds it (a nightly job
 * would otherwise leave a copy beside the archive's every night).
 */
static int archive_only_output(const struct plumb_config *cfg, struct buf *out)
{
	struct plumb_err err;

	plumb_err_clear(&err);
	if (workdir_path(cfg->workdir, out, &err) < 0 || mkdir_p(buf_cstr(out), &err) < 0)
		return cli_fail(&err);
	if (buf_addch(out, '/') < 0 ||
	    runner_default_output(cfg->run.base, cfg->run.candidate, (int64_t)time(NULL), out) < 0) {
		buf_err(&err, "bundle name");
		return cli_fail(&err);
	}
	return PLUMB_EXIT_OK;
}

/* The whole run: builds, rounds, statistics, bundle. */
static int run_all(const struct plumb_config *cfg)
{
	struct runner_run_opts ropts;
	struct runner_run_result res;
	struct runview view;
	struct plumb_err err;
	struct buf tmp;
	int rc, status, after = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	memset(&ropts, 0, sizeof(ropts));
	runview_init(&view);
	view.quiet = o.quiet;
	runview_attach(&view, &ropts);
	ropts.output = o.output;
	buf_init(&tmp, PATH_MAX);
	if (o.archive && !o.output) {
		if ((status = archive_only_output(cfg, &tmp)) != PLUMB_EXIT_OK) {
			buf_release(&tmp);
			return status;
		}
		ropts.output = buf_cstr(&tmp);
	}
	rc = runner_run(cfg, &ropts, &res, &err);
	runview_finish(&view);
	/* A bundle was published (a failed benchmark under --keep-going too):
	 * archived first, so that what follows names it as it is kept. */
	if (rc == 0 && res.bundle) {
		const char *origin;
		int s;
		if (o.archive && (s = archive_bundle(cfg, res.bundle)) != PLUMB_EXIT_OK) {
			after = s;
			if (!o.output)
				fprintf(stderr, "plumb: the bundle is kept in %s\n", res.bundle);
		} else if (o.archive && !o.output) {
			view.archived_only = 1;
		}
		origin = view.archived_only ? NULL : res.bundle;
		if (cli_github_on() && (s = github_bundle(res.bundle, origin)) != PLUMB_EXIT_OK &&
		    after == PLUMB_EXIT_OK)
			after = s;
		if (o.report && (s = report_bundle(res.bundle, origin, o.report)) != PLUMB_EXIT_OK &&
		    after == PLUMB_EXIT_OK)
			after = s;
	}
	status = cli_run_status(&view, rc, &err, &res, o.json, o.gate);
	if (status == PLUMB_EXIT_OK)
		status = after;
	if (view.archived_only && unlink(res.bundle) < 0)
		fprintf(stderr, "plumb: warning: %s: cannot remove the archived bundle's temporary file: %s\n",
			res.bundle, strerror(errno));
	runner_run_result_release(&res);
	buf_release(&tmp);
	return status;
}

/* --range --dry-run: the commits it would measure and the builds it would do. */
static int print_range(const struct plumb_config *cfg, const struct runner_range_commits *c)
{
	struct buf out;

	buf_init(&out, (size_t)1 << 20);
	return cli_print_view(&out, view_range_plan(&out, o.range, c, cfg), "run --range");
}

/* --range: the whole job, then the range report of its bundles. */
static int run_range(const struct plumb_config *cfg, const struct runner_range_commits *c,
		     const char *id)
{
	struct runner_run_opts ropts;
	struct runner_run_result *res = calloc(c->n, sizeof(*res));
	const char **paths = calloc(c->n, sizeof(*paths));
	struct runner_range rg;
	struct runview view;
	struct plumb_err err;
	struct buf out;
	int rc, status = PLUMB_EXIT_OK;

	if (!res || !paths) {
		free(res);
		free(paths);
		fprintf(stderr, "plumb: out of memory (range)\n");
		return PLUMB_EXIT_INTERNAL;
	}
	plumb_err_clear(&err);
	memset(&ropts, 0, sizeof(ropts));
	runview_init(&view);
	view.quiet = o.quiet;
	runview_attach(&view, &ropts);
	rg.spec = o.range;
	rg.id = id;
	rg.step = o.step ? (unsigned)o.step : 1;
	rg.commits = c;
	rg.outdir = o.output;
	rc = runner_run_range(cfg, &rg, &ropts, res, &err);
	runview_finish(&view);
	if (rc < 0) {
		status = cli_fail(&err);
		for (size_t k = 0; k < c->n; k++)
			if (res[k].stderr_tail)
				fprintf(stderr, "plumb: %s", res[k].stderr_tail);
		goto out;
	}
	for (size_t k = 0; k < c->n; k++) {
		paths[k] = res[k].bundle;
		if (!o.quiet)
			fprintf(stderr, "plumb: commit %.12s: %s\n", c->v[k].commit, res[k].bundle);
		if (res[k].failures && status == PLUMB_EXIT_OK)
			status = PLUMB_EXIT_BENCH;
	}
	buf_init(&out, REPORT_OUTPUT_MAX);
	if (range_render_paths(paths, c->n, NULL, o.json ? REPORT_JSON : REPORT_TEXT, 0, &out, &err) < 0) {
		buf_release(&out);
		status = cli_fail(&err);
		goto out;
	}
	if (!o.quiet && fwrite(out.data, 1, out.len, stdout) != out.len)
		status = PLUMB_EXIT_IO;
	buf_release(&out);
	if (o.report) {
		buf_init(&out, REPORT_OUTPUT_MAX);
		if (range_render_paths(paths, c->n, NULL, REPORT_HTML, 0, &out, &err) < 0 ||
		    report_write(&out, o.report, &err) < 0)
			status = cli_fail(&err);
		else if (!o.quiet)
			fprintf(stderr, "plumb: range report written to %s\n", o.report);
		buf_release(&out);
	}
	for (size_t k = 0; o.archive && k < c->n; k++) {
		int s = archive_bundle(cfg, res[k].bundle);
		if (s != PLUMB_EXIT_OK && status == PLUMB_EXIT_OK)
			status = s;
	}
out:
	for (size_t k = 0; k < c->n; k++)
		runner_run_result_release(&res[k]);
	free(res);
	free(paths);
	return status;
}

/* The options that cannot go together; 0, or the usage status (said). */
static int check_opts(int argc, char **argv)
{
	const char *why = NULL;
	char msg[160];

	if (argc > 0) {
		snprintf(msg, sizeof(msg), "unexpected argument '%s'", argv[0]);
		why = msg;
	} else if ((o.build_only || o.dry_run) && (o.output || o.archive || o.report)) {
		snprintf(msg, sizeof(msg), "%s needs a measuring run (not --build-only or --dry-run)",
			 o.output ? "-o" : o.archive ? "--archive" : "--report");
		why = msg;
	} else if (o.fail_on && report_fail_on_parse(o.fail_on, &o.gate) < 0) {
		why = "--fail-on takes slower, any or noisy";
	} else if (o.dry_run && (o.wait || o.prune)) {
		snprintf(msg, sizeof(msg), "%s needs a run that builds (not --dry-run)",
			 o.wait ? "--wait" : "--prune");
		why = msg;
	} else if ((o.build_only || o.dry_run) && o.fail_on) {
		why = "--fail-on needs a measuring run (not --build-only or --dry-run)";
	} else if (o.quiet && o.json) {
		why = "--quiet and --json do not go together";
	} else if (o.step && !o.range) {
		why = "--step goes with --range";
	} else if (o.range && (o.base || o.candidate || o.from || o.build_only || o.fail_on)) {
		snprintf(msg, sizeof(msg), "--range measures A..B against A; it takes no %s",
			 o.base ? "--base" : o.candidate ? "--candidate" : o.from ? "--from" :
			 o.build_only ? "--build-only" : "--fail-on");
		why = msg;
	} else if (o.from && o.config) {
		why = "--from and -c do not go together";
	} else if (!o.from && (o.keys.n || o.trust_commands)) {
		why = o.keys.n ? "-p goes with --from" : "--trust-commands goes with --from";
	}
	if (!why)
		return 0;
	fprintf(stderr, "plumb run: %s\n", why);
	return PLUMB_EXIT_USAGE;
}

/* A range job's id, its label among the run's and its first revision. */
struct range_job {
	char id[16], label[32];
	char *a;                     /* A of A..B */
	const char **labels;         /* --label's, then range=ID */
};

static int range_prepare(struct range_job *rj)
{
	const char *dots = strstr(o.range, "..");
	unsigned char rnd[6];

	if (!dots || dots == o.range || !dots[2]) {
		fprintf(stderr, "plumb run: --range: '%s' is not A..B (two revisions, two dots)\n", o.range);
		return PLUMB_EXIT_USAGE;
	}
	for (size_t i = 0; i < o.labels.n; i++)
		if (strncmp(o.labels.v[i], "range=", 6) == 0) {
			fprintf(stderr, "plumb run: --label range=... is the range job's own label\n");
			return PLUMB_EXIT_USAGE;
		}
	if (sodium_init() < 0) {
		fprintf(stderr, "plumb: libsodium: cannot initialize\n");
		return PLUMB_EXIT_INTERNAL;
	}
	randombytes_buf(rnd, sizeof(rnd));
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(rj->id + 2 * i, 3, "%02x", rnd[i]);
	snprintf(rj->label, sizeof(rj->label), "range=%s", rj->id);
	rj->labels = calloc(o.labels.n + 1, sizeof(*rj->labels));
	/* The configuration's own revisions give way to the range's. */
	rj->a = strndup(o.range, (size_t)(dots - o.range));
	if (!rj->labels || !rj->a) {
		fprintf(stderr, "plumb: out of memory (labels)\n");
		return PLUMB_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < o.labels.n; i++)
		rj->labels[i] = o.labels.v[i];
	rj->labels[o.labels.n] = rj->label;
	return 0;
}

static void fill_overrides(struct config_overrides *ov, const struct range_job *rj)
{
	memset(ov, 0, sizeof(*ov));
	ov->base = o.range ? rj->a : o.base;
	ov->candidate = o.range ? strstr(o.range, "..") + 2 : o.candidate;
	ov->pads = o.pads;
	ov->rounds = o.rounds;
	ov->jobs = o.jobs;
	ov->benches = o.benches.v;
	ov->nbenches = o.benches.n;
	ov->labels = rj->labels ? rj->labels : o.labels.v;
	ov->nlabels = o.labels.n + (rj->labels != NULL);
	ov->workdir = o.workdir;
	ov->keep = o.keep;
	ov->keep_going = o.keep_going;
	ov->no_cache = o.no_cache;
}

/*
 * plumb.conf, or the bundle of --from (with the trusted keys, which keys
 * holds), and its host.allow checked; 0 or the status (cfg released).
 */
static int load_config(struct plumb_config *cfg, struct config_from *from, struct keyring *keys,
		       struct plumb_err *err)
{
	if (o.from && !o.dry_run &&
	    keyring_load(keys, (const char *const *)o.keys.v, o.keys.n, NULL, err) < 0)
		return cli_fail(err);
	from->keys = keys->keys;
	from->n_keys = keys->n;
	if (o.from ? config_load_bundle(cfg, o.from, from, err) < 0 :
	    config_load(cfg, o.config ? o.config : "plumb.conf", from->ov, err) < 0)
		return cli_fail(err);
	if (cfg->host.allow) {
		/* Recorded in the bundle (spec.host.allow): only names plumb host knows. */
		char where[600];
		snprintf(where, sizeof(where), "%s: host.allow", cfg->file ? cfg->file : "plumb.conf");
		if (host_check_allow(NULL, where, cfg->host.allow, err) < 0) {
			err->code = PLUMB_EINPUT;
			config_release(cfg);
			return cli_fail(err);
		}
	}
	return 0;
}

/* --build-only: the variants built, what it took said. */
static int build_only(const struct plumb_config *cfg, struct plumb_err *err)
{
	struct progress_view pv = { stderr, 1, 0 };
	struct runner_result res;
	struct runner_opts ropts;
	int status;

	memset(&ropts, 0, sizeof(ropts));
	pv.quiet = o.quiet;
	ropts.event = view_event_put;
	ropts.event_ctx = &pv;
	if (runner_build(cfg, &ropts, &res, err) < 0) {
		status = cli_fail(err);
		if (res.log_tail)
			fprintf(stderr, "plumb: %s", res.log_tail);
		if (res.run_dir && res.keep)
			fprintf(stderr, "plumb: the run folder is kept: %s\n", res.run_dir);
	} else {
		status = print_result(cfg, &res);
	}
	runner_result_release(&res);
	return status;
}

/* After the configuration: the plan, or the lock, the trust and the run. */
static int run_configured(struct plumb_config *cfg, struct config_from *from, struct keyring *keys,
			  const struct range_job *rj, struct plumb_err *err)
{
	struct run_lock lock = { -1, NULL, 0 };
	struct runner_range_commits commits;
	int status;

	memset(&commits, 0, sizeof(commits));
	runner_config_warnings(cfg, stderr);
	if (o.range && runner_range_resolve(cfg, o.range, o.step ? (unsigned)o.step : 1, &commits,
					    err) < 0)
		status = cli_fail(err);
	else if (o.dry_run) {
		status = cli_print_plan(cfg, o.json);
		if (status == PLUMB_EXIT_OK && o.range && !o.json)
			status = print_range(cfg, &commits);
	/* A bundle is data: what it records runs only with trust. */
	} else if (o.from && (status = cli_from_trust(cfg, from, keys, o.trust_commands, o.json)) !=
		   PLUMB_EXIT_OK) {
		;
	} else if ((status = cli_machine_lock(&lock, cfg, o.wait, o.quiet)) == PLUMB_EXIT_OK &&
		   (status = cli_run_prune(cfg, o.prune, o.quiet)) == PLUMB_EXIT_OK) {
		status = o.range ? run_range(cfg, &commits, rj->id) : !o.build_only ? run_all(cfg)
										   : build_only(cfg, err);
	}
	run_lock_release(&lock);
	runner_range_commits_release(&commits);
	return status;
}

static int run_exec(int argc, char **argv)
{
	struct config_overrides ov;
	struct plumb_config cfg;
	struct plumb_err err;
	struct config_from from;
	struct keyring keys;
	struct range_job rj;
	int status;

	memset(&from, 0, sizeof(from));
	memset(&rj, 0, sizeof(rj));
	keyring_init(&keys);
	plumb_err_clear(&err);
	o.gate = REPORT_FAIL_NEVER;
	if ((status = check_opts(argc, argv)) == 0 && (!o.range || (status = range_prepare(&rj)) == 0)) {
		fill_overrides(&ov, &rj);
		from.ov = &ov;
		if ((status = load_config(&cfg, &from, &keys, &err)) == 0) {
			status = run_configured(&cfg, &from, &keys, &rj, &err);
			config_release(&cfg);
		}
	}
	keyring_release(&keys);
	strlist_release(&o.keys);
	free(rj.a);
	free(rj.labels);
	strlist_release(&o.benches);
	strlist_release(&o.labels);
	return status;
}

const struct plumb_cmd cmd_run = {
	.name = "run",
	.summary = "build base and candidate at every pad, measure them in rounds, write a bundle",
	.usage = "run [-c plumb.conf] [--base REF] [--candidate REF] [--pads N] [--rounds N] "
		 "[--bench NAME]... [-o FILE.plumb] [--archive] [--label K=V]... "
		 "[--build-only] [--dry-run] [--workdir DIR] [--keep] [--keep-going] [--no-cache] "
		 "[--report FILE.html] [--json] [--fail-on slower|any|noisy] [--quiet] [--wait[=DURATION]] [--prune[=AGE]] "
		 "[--from BUNDLE [-p KEY.pub]... [--trust-commands]] [--range A..B [--step N]]",
	.description =
		"Check out the base and candidate revisions of plumb.conf, build each at\n"
		"every pad variant (the code shifted by K x build.padBytes), prove that\n"
		"every pad moved the code, check that the control build is reproducible,\n"
		"and compare the hot code of the two sides.  Then run every benchmark on\n"
		"every variant: warmup runs, then run.rounds rounds, each running every\n"
		"variant once in an order shuffled by run.seed.  Print per benchmark the\n"
		"centers and ranges over pads, the ratio and the verdict, and write the\n"
		"result bundle (-o, default plumb-<base>-<candidate>-<UTC time>.plumb;\n"
		"with --archive and no -o, the archive's copy alone).\n"
		"--dry-run prints the effective configuration; --build-only stops after\n"
		"the builds and prints every variant and the checks.  A failed benchmark\n"
		"exits 5 and publishes nothing, unless --keep-going.  --fail-on gates in\n"
		"the same command as `plumb report --fail-on` does (plumb(1) GATING);\n"
		"--quiet prints nothing on a run that exits 0, else the errors and the\n"
		"verdict line.  One run at a time per\n"
		"machine builds and measures (the machine-wide lock); another exits 75,\n"
		"or waits with --wait.  --prune removes kept run folders and the logs of\n"
		"failures older than AGE first.  --from BUNDLE runs the configuration a\n"
		"bundle recorded instead of a plumb.conf (with --dry-run: prints it as\n"
		"plumb.conf), at the commits it recorded; its commands run only when a\n"
		"trusted key signed it (-p, or $XDG_CONFIG_HOME/plumb/trusted/*.pub) or\n"
		"with --trust-commands, else they are printed and the run exits 3.\n"
		"--range A..B measures every commit of A..B (first parents,\n"
		"oldest first; --step N every Nth from A, and B) against A in one job:\n"
		"every variant of every commit in the same rounds, one bundle per commit\n"
		"(-o: their folder), labelled range=<id>, then the range report (plumb\n"
		"report --range).  An empty range or an unknown revision exits 3.",
	.opts = run_opts,
	.exec = run_exec,
};
