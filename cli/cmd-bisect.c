/*
 * cli/cmd-bisect.c: `plumb bisect`: read plumb.conf, take the machine-wide
 * lock once, and find the first commit of good..bad that made the
 * benchmark slower (runner/bisect.h), each comparison a whole `plumb run`
 * whose bundle goes into the bisect's folder (and, with --archive, into the
 * archive with the label bisect=<id>); print the report (views/bisect.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "archive/bundles.h"
#include "archive/store.h"
#include "cli/cmd.h"
#include "cli/runlock.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/url.h"
#include "formats/config.h"
#include "runner/bisect.h"
#include "runner/lock.h"
#include "reports/bisect.h"
#include "views/bisect.h"
#include "views/build-summary.h"
#include "views/run.h"
#include "common/banned.h"

static struct {
	const char *config, *good, *bad, *bench, *metric, *output, *format, *workdir, *wait, *show;
	int archive, quiet, json;
} o;

static const struct plumb_opt bisect_opts[] = {
	OPT_STRING_("good", 0, "REF", "a revision where the benchmark is fast (required)", &o.good),
	OPT_STRING_("bad", 0, "REF", "a later revision where it is slower (required)", &o.bad),
	OPT_STRING_("config", 'c', "FILE", "the configuration (default ./plumb.conf)", &o.config),
	OPT_STRING_("bench", 0, "NAME", "the benchmark to bisect (needed when plumb.conf has several)", &o.bench),
	OPT_STRING_("metric", 0, "M", "judge on this metric instead of bench.NAME.metric", &o.metric),
	OPT_FLAG_("archive", 0, "import every comparison's bundle into the archive, labelled bisect=ID", &o.archive),
	OPT_STRING_("output", 'o', "DIR", "the bisect's folder (default ./plumb-bisect-ID)", &o.output),
	OPT_STRING_("format", 0, "FORMAT", "text (default), md, html or json", &o.format),
	OPT_FLAG_("json", 0, "as --format json", &o.json),
	OPT_STRING_("workdir", 0, "DIR", "work folder (default $XDG_CACHE_HOME/plumb/runs)", &o.workdir),
	OPT_OPTIONAL_("wait", "DURATION", "wait for the machine-wide lock instead of exiting 75", &o.wait),
	OPT_FLAG_("quiet", 'q', "no progress: only errors and the report", &o.quiet),
	OPT_STRING_("show", 0, "DIR", "print the report of a finished bisect's folder (its bisect.json) and stop",
		    &o.show),
	OPT_END_()
};

struct bisect_ctx {
	struct runview *view;
	struct store st;
	int have_store;
	char *store_dir;
};

static void say(const char *line)
{
	char stamp[16] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	fprintf(stderr, "plumb: %s %s\n", stamp, line);
}

static void on_start(void *vctx, const struct bisect_record *rec, enum bisect_kind kind, size_t base,
		     size_t candidate)
{
	struct bisect_ctx *c = vctx;
	struct buf line;

	if (c->view->quiet)
		return;
	buf_init(&line, 1 << 14);
	if (view_bisect_step_start(rec, kind, base, candidate, &line) == 0)
		say(buf_cstr(&line));
	buf_release(&line);
}

static int on_done(void *vctx, const struct bisect_record *rec, const struct bisect_step *s,
		   struct plumb_err *err)
{
	struct bisect_ctx *c = vctx;
	struct store_added added;
	struct buf line;

	runview_finish(c->view);
	if (!c->view->quiet) {
		buf_init(&line, 1 << 14);
		if (view_bisect_step_done(rec, s, &line) == 0)
			say(buf_cstr(&line));
		buf_release(&line);
	}
	if (!c->have_store)
		return 0;
	if (store_add(&c->st, s->bundle, &added, err) < 0)
		return -1;
	if (!c->view->quiet)
		fprintf(stderr, "plumb: %s %s the archive in %s\n", added.id,
			added.status == STORE_PRESENT ? "was already in" : "added to",
			url_is_postgres(c->store_dir) ? c->st.db_path : c->store_dir);
	return 0;
}

/* The bisect's id: its start (UTC) and plumb's pid, "20261201T162500Z-4242". */
static void make_id(char id[40])
{
	char stamp[24] = "0";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(id, 40, "%s-%ld", stamp, (long)getpid());
}

static int write_record(const struct bisect_record *rec, const char *dir, struct plumb_err *err)
{
	struct buf path, json;
	int r;

	buf_init(&path, 1 << 16);
	buf_init(&json, 1 << 26);
	if (buf_printf(&path, "%s/bisect.json", dir) < 0)
		r = buf_err(err, dir);
	else if ((r = view_bisect(rec, VIEW_BISECT_JSON, &json, err)) == 0) {
		struct atomic_file af;
		if ((r = atomic_file_open(&af, path.data, 0644, err)) == 0) {
			if ((r = atomic_file_write(&af, json.data, json.len, err)) == 0)
				r = atomic_file_commit(&af, err);
			else
				atomic_file_abort(&af);
		}
	}
	buf_release(&path);
	buf_release(&json);
	return r;
}

/* --show DIR: the report of a bisect that ran, from its bisect.json. */
static int show(enum view_bisect_format fmt)
{
	struct plumb_err err;
	struct buf path, out;
	json_t *doc = NULL;
	int status = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	buf_init(&path, 1 << 16);
	buf_init(&out, 1 << 26);
	if (buf_printf(&path, "%s/bisect.json", o.show) < 0 || bisect_report_load(path.data, &doc, &err) < 0 ||
	    view_bisect_doc(doc, fmt, &out, &err) < 0) {
		if (!err.code)
			buf_err(&err, o.show);
		status = cli_fail(&err);
	} else {
		fputs(buf_cstr(&out), stdout);
		if (fflush(stdout) != 0)
			status = PLUMB_EXIT_IO;
	}
	json_decref(doc);
	buf_release(&path);
	buf_release(&out);
	return status;
}

/* The configuration a bisect runs, labelled with its id; 0 or the status. */
static int load_config(struct plumb_config *cfg, const char *id, struct plumb_err *err)
{
	struct config_overrides ov;
	const char *bench_list[1];
	char label[64];
	int rc = 0;

	memset(&ov, 0, sizeof(ov));
	/* The refs are checked by the bisect; these only satisfy run.base's requirement. */
	ov.base = o.good;
	ov.candidate = o.bad;
	ov.workdir = o.workdir;
	if (o.bench) {
		bench_list[0] = o.bench;
		ov.benches = bench_list;
		ov.nbenches = 1;
	}
	if (config_load(cfg, o.config ? o.config : "plumb.conf", &ov, err) < 0)
		return cli_fail(err);
	if (cfg->nbenches != 1) {
		fprintf(stderr, "plumb bisect: %s has %zu benchmarks; name the one to bisect with --bench\n",
			cfg->file ? cfg->file : "plumb.conf", cfg->nbenches);
		rc = PLUMB_EXIT_USAGE;
	} else if (cfg->benches[0].mode == CONFIG_MODE_GBENCH) {
		/* Its benchmarks are known only once a binary is built. */
		fprintf(stderr, "plumb bisect: bench.%s.mode = gbench: a Google Benchmark binary "
			"is several benchmarks, and bisect follows one; bisect a process-mode "
			"benchmark that runs the one you want "
			"({artifact} --benchmark_filter=...)\n", cfg->benches[0].name);
		rc = PLUMB_EXIT_USAGE;
	}
	snprintf(label, sizeof(label), "bisect=%s", id);
	if (rc == 0 && config_set(cfg, "run.label", label, "plumb bisect", err) < 0)
		rc = cli_fail(err);
	if (rc == 0 && o.metric) {
		struct buf key;
		buf_init(&key, 1 << 12);
		rc = buf_printf(&key, "bench.%s.metric", cfg->benches[0].name) < 0 ? buf_err(err, "--metric")
										    : config_set(cfg, key.data, o.metric, "--metric", err);
		buf_release(&key);
		if (rc == 0)
			rc = config_check(cfg, err);
		if (rc < 0)
			rc = cli_fail(err);
	}
	if (rc != 0)
		config_release(cfg);
	return rc;
}

/* --archive: $PLUMB_ARCHIVE, else plumb.conf's archive.url, as plumb run --archive. */
static int open_archive(struct bisect_ctx *ctx, const struct plumb_config *cfg, struct plumb_err *err)
{
	const char *env = getenv("PLUMB_ARCHIVE");

	if (store_locate(env && *env ? NULL : cfg->archive.url, &ctx->store_dir, err) < 0 ||
	    store_open(&ctx->st, ctx->store_dir, STORE_CREATE, err) < 0)
		return cli_fail(err);
	ctx->have_store = 1;
	return 0;
}

/* Run the bisect into dir, keep bisect.json and print the path it took. */
static int bisect_and_show(struct plumb_config *cfg, struct bisect_ctx *ctx, const char *dir,
			   enum view_bisect_format fmt, struct bisect_record *rec, struct plumb_err *err)
{
	struct runner_run_opts ropts;
	struct runview view;
	struct bisect_opts bo;
	struct buf out;
	int rc, status;

	runview_init(&view);
	view.quiet = o.quiet;
	memset(&ropts, 0, sizeof(ropts));
	runview_attach(&view, &ropts);
	ctx->view = &view;
	memset(&bo, 0, sizeof(bo));
	bo.good = o.good;
	bo.bad = o.bad;
	bo.dir = dir;
	bo.run = &ropts;
	bo.step_start = on_start;
	bo.step_done = on_done;
	bo.ctx = ctx;
	rc = bisect_run(cfg, &bo, rec, err);
	runview_finish(&view);
	if (rc < 0) {
		status = cli_fail(err);
		/* What was measured before the error is kept with its bundles. */
		if (rec->nsteps)
			(void)write_record(rec, dir, err);
		return status;
	}
	buf_init(&out, 1 << 26);
	if (write_record(rec, dir, err) < 0 || view_bisect(rec, fmt, &out, err) < 0) {
		buf_release(&out);
		return cli_fail(err);
	}
	fputs(buf_cstr(&out), stdout);
	buf_release(&out);
	if (fflush(stdout) != 0)
		return PLUMB_EXIT_IO;
	if (!o.quiet)
		fprintf(stderr, "plumb: the bundles and bisect.json are in %s\n", dir);
	return cli_bisect_status(rec->outcome);
}

/* The options' own checks; 0, or the usage status. */
static int check_opts(int argc, char **argv, enum view_bisect_format *fmt)
{
	if (argc > 0) {
		fprintf(stderr, "plumb bisect: unexpected argument '%s'\n", argv[0]);
		return PLUMB_EXIT_USAGE;
	}
	if (opt_json_alias("bisect", o.json, &o.format) < 0)
		return PLUMB_EXIT_USAGE;
	if (o.format && view_bisect_format_parse(o.format, fmt) < 0) {
		fprintf(stderr, "plumb bisect: --format takes text, md, html or json\n");
		return PLUMB_EXIT_USAGE;
	}
	if (o.show && (o.good || o.bad || o.config || o.bench || o.metric || o.archive || o.output ||
		       o.workdir || o.wait)) {
		fprintf(stderr, "plumb bisect: --show takes only --format\n");
		return PLUMB_EXIT_USAGE;
	}
	if (!o.show && (!o.good || !o.bad)) {
		fprintf(stderr, "plumb bisect: --good REF and --bad REF are required\n");
		return PLUMB_EXIT_USAGE;
	}
	return 0;
}

static int bisect_exec(int argc, char **argv)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct run_lock lock = { -1, NULL, 0 };
	struct bisect_record rec;
	struct bisect_ctx ctx;
	enum view_bisect_format fmt = VIEW_BISECT_TEXT;
	struct buf dir;
	int status;

	if ((status = check_opts(argc, argv, &fmt)) != 0)
		return status;
	if (o.show)
		return show(fmt);
	plumb_err_clear(&err);
	bisect_record_init(&rec);
	memset(&ctx, 0, sizeof(ctx));
	buf_init(&dir, 1 << 16);
	make_id(rec.id);
	if ((status = load_config(&cfg, rec.id, &err)) != 0)
		goto out_rec;
	if ((o.output ? buf_addstr(&dir, o.output) : buf_printf(&dir, "plumb-bisect-%s", rec.id)) < 0)
		status = buf_err(&err, "bisect folder") < 0 ? cli_fail(&err) : PLUMB_EXIT_INTERNAL;
	else if (mkdir_p(dir.data, &err) < 0)
		status = cli_fail(&err);
	if (status != 0)
		goto out_cfg;
	runner_config_warnings(&cfg, stderr);
	if ((status = cli_machine_lock(&lock, &cfg, o.wait, o.quiet)) != PLUMB_EXIT_OK)
		goto out_cfg;
	if (!o.archive || (status = open_archive(&ctx, &cfg, &err)) == 0)
		status = bisect_and_show(&cfg, &ctx, dir.data, fmt, &rec, &err);
	if (ctx.have_store)
		store_close(&ctx.st);
	free(ctx.store_dir);
	run_lock_release(&lock);
out_cfg:
	config_release(&cfg);
out_rec:
	bisect_record_release(&rec);
	buf_release(&dir);
	return status;
}

const struct plumb_cmd cmd_bisect = {
	.name = "bisect",
	.summary = "find the commit of good..bad that made a benchmark slower, each step a swept comparison",
	.usage = "bisect --good REF --bad REF [-c plumb.conf] [--bench NAME] [--metric M] [--archive] "
		 "[-o DIR] [--format text|md|html|json] [--workdir DIR] [--wait[=DURATION]] [--quiet]\n"
		 "bisect --show DIR [--format text|md|html|json]",
	.description =
		"Find the first commit between --good and --bad (along --bad's first\n"
		"parents) whose verdict against its parent is slower.  Every comparison\n"
		"is a whole `plumb run` of plumb.conf's benchmark: swept over pads, with\n"
		"the control and the noise margin, run.pads = auto's adaptive sweep when\n"
		"undecided, and the build cache, so each commit builds once (the control,\n"
		"never from the cache, once per base commit, reused at the later\n"
		"comparisons with that base).  First the good end against the bad end\n"
		"(it must be slower); then each midpoint against the good end: slower\n"
		"puts the culprit at or before it, placement or identical hot code\n"
		"after it; an undecided midpoint is measured once more against the\n"
		"range's bad end, and if still undecided the bisect stops and names\n"
		"the range it could not split.  The last commit left is\n"
		"compared with its parent to confirm it.  Every comparison's bundle and\n"
		"bisect.json go into the bisect's folder (-o).  Exit 0 when a culprit is\n"
		"found, 1 when not (or the good end is not faster), 3 for bad input\n"
		"(an unknown ref, good not an ancestor of bad), 4 or 5 as plumb run.\n"
		"--show DIR prints the report of a bisect that ran, from its folder.",
	.opts = bisect_opts,
	.exec = bisect_exec,
};
