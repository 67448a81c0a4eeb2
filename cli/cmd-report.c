/*
 * cli/cmd-report.c: `plumb report BUNDLE [--baseline NAME|BUNDLE|ID]
 * [--format F] [-o FILE] [--fail-on slower|any] [--force]` and
 * `plumb report --trend BENCH [--host FP] [--last N] [--format F]`
 * (reports/report.h, reports/trend.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/github.h"
#include "common/buf.h"
#include "common/err.h"
#include "reports/github.h"
#include "reports/report.h"
#include "reports/site.h"
#include "reports/source.h"
#include "reports/trend.h"
#include "reports/words.h"
#include "views/archive.h"
#include "views/range.h"
#include "common/banned.h"

static const char *opt_baseline, *opt_format, *opt_output, *opt_fail_on;
static const char *opt_trend, *opt_host, *opt_dir, *opt_project;
static int opt_force, opt_json, opt_range, opt_index;
static long opt_last;

static const struct plumb_opt report_opts[] = {
	OPT_STRING_("baseline", 0, "NAME|BUNDLE|ID",
		    "compare the candidate with a baseline: an archived name, a bundle file or folder, or an archived bundle id",
		    &opt_baseline),
	OPT_STRING_("format", 0, "FORMAT", "text (default), md, html, json, or csv and bmf (docs/csv.md, docs/bmf.md)", &opt_format),
	OPT_STRING_("output", 'o', "FILE", "write the report to FILE (atomically) instead of standard output",
		    &opt_output),
	OPT_STRING_("fail-on", 0, "WHAT",
		    "exit 1 when a swept verdict is slower (slower), slower or faster (any), slower or noisy "
		    "(noisy), exit 5 on a failed benchmark; with --trend, when the latest nights start a "
		    "change point of the code: up (slower, noisy), up or down (any, change); a change "
		    "of the host (the same commit either side) never",
		    &opt_fail_on),
	OPT_FLAG_("force", 0, "compare even when the hosts are not comparable", &opt_force),
	OPT_FLAG_("json", 0, "print JSON for machines (the same as --format json)", &opt_json),
	OPT_FLAG_("range", 0, "the bundles named are one `plumb run --range` job: show the range report", &opt_range),
	OPT_STRING_("trend", 0, "BENCH", "the archived nightly series of one benchmark instead of a bundle",
		    &opt_trend),
	OPT_STRING_("host", 0, "FP", "with --trend: the host fingerprint or a prefix (default: the one with most results)",
		    &opt_host),
	OPT_STRING_("project", 0, "P", "with --trend: the project (default: the one that has BENCH)",
		    &opt_project),
	OPT_INT_("last", 0, "N", "with --trend: only the latest N points", &opt_last, 1, 100000000),
	OPT_FLAG_("archive-index", 0, "write the archive's pages into the folder -o DIR/ instead of a report "
		  "(docs/archive-index.md)", &opt_index),
	OPT_STRING_("archive-dir", 0, "DIR",
		    "the archive for --trend, --archive-index and archived baselines (default: $PLUMB_ARCHIVE, else $XDG_DATA_HOME/plumb)",
		    &opt_dir),
	OPT_END_()
};

static int usage(const char *msg)
{
	fprintf(stderr, "plumb report: %s\n", msg);
	cmd_print_usage(&cmd_report, "report", stderr);
	return PLUMB_EXIT_USAGE;
}

/* Write what was rendered, then turn what it found into a status. */
static int finish(struct buf *out, const struct report_result *rr, int fail_on)
{
	struct plumb_err werr;

	plumb_err_clear(&werr);
	/* A withheld comparison and a --fail-on verdict still print the report. */
	if (out->len && report_write(out, opt_output, &werr) < 0) {
		buf_release(out);
		return cli_fail(&werr);
	}
	buf_release(out);
	return cli_report_status(rr, fail_on);
}

static int trend_exec(enum report_format format, enum report_fail_on fail_on)
{
	struct trend_opts to = { opt_trend, opt_host, opt_last, opt_dir, format, fail_on, opt_project };
	struct report_result rr;
	struct plumb_err err;
	struct buf out;
	char *owned;
	int rc;

	if ((rc = cli_archive_dir(opt_dir, &to.archive_dir, &owned)) != 0)
		return rc;
	plumb_err_clear(&err);
	buf_init(&out, REPORT_OUTPUT_MAX);
	rc = trend_render(&to, &out, &rr, &err);
	free(owned);
	if (rc < 0) {
		buf_release(&out);
		return cli_fail(&err);
	}
	return finish(&out, &rr, fail_on != REPORT_FAIL_NEVER);
}

/* --archive-index -o DIR/: the archive's pages (reports/site.h). */
static int index_exec(int argc)
{
	struct site_opts so = { opt_dir, opt_output };
	struct site_result res;
	struct plumb_err err;

	if (argc > 0)
		return usage("--archive-index takes no bundle");
	if (opt_trend || opt_baseline || opt_force || opt_fail_on || opt_host || opt_last ||
	    opt_project || opt_json || opt_format)
		return usage("--archive-index takes only -o DIR and --archive-dir");
	if (!opt_output)
		return usage("--archive-index needs -o DIR, the folder to write");
	{
		char *owned;
		int r = cli_archive_dir(opt_dir, &so.archive_dir, &owned);
		if (r != 0)
			return r;
		plumb_err_clear(&err);
		r = site_write(&so, &res, &err);
		free(owned);
		if (r < 0)
			return cli_fail(&err);
	}
	{
		struct buf out;

		buf_init(&out, 1 << 16);
		return cli_print_view(&out, view_site_written(&out, opt_output, &res),
				      "report --archive-index");
	}
}

/* --format, --json and --fail-on into o; 0, or the usage status. */
static int parse_output_opts(struct report_opts *o)
{
	if (opt_format && report_format_parse(opt_format, &o->format) < 0)
		return usage("--format takes text, md, html, json, csv or bmf");
	if (opt_json && opt_format && o->format != REPORT_JSON)
		return usage("--json is --format json; not with another --format");
	if (opt_json)
		o->format = REPORT_JSON;
	if (opt_fail_on && report_fail_on_parse(opt_fail_on, &o->fail_on) < 0 &&
	    (!opt_trend || trend_fail_on_parse(opt_fail_on, &o->fail_on) < 0))
		return usage(opt_trend ? "--fail-on takes slower, any, noisy or change" :
			     strcmp(opt_fail_on, "change") == 0 ? "--fail-on change goes with --trend" :
			     "--fail-on takes slower, any or noisy");
	if (opt_trend && opt_range)
		return usage("--trend shows an archived series; --range the bundles of a range job: one or the other");
	return 0;
}

static int trend_check(int argc, const struct report_opts *o)
{
	if (argc > 0)
		return usage("--trend takes no bundle");
	if (opt_baseline || opt_force)
		return usage("--baseline and --force compare a bundle; --trend takes neither");
	if (o->format == REPORT_CSV || o->format == REPORT_BMF)
		return usage("--format csv and bmf export a bundle's report; --trend takes text, md, html or json");
	return trend_exec(o->format, o->fail_on);
}

/* --range: the bundles of one range job (views/range.h). */
static int range_exec(int argc, char **argv, const struct report_opts *o)
{
	struct report_result rr;
	struct plumb_err err;
	struct buf out;

	if (argc < 1)
		return usage("--range needs the bundles of the job");
	if (opt_baseline || opt_fail_on)
		return usage("--range compares the job's commits; it takes neither --baseline nor --fail-on");
	if (o->format != REPORT_TEXT && o->format != REPORT_MARKDOWN && o->format != REPORT_JSON &&
	    o->format != REPORT_HTML)
		return usage("--range takes --format text, md, html or json");
	plumb_err_clear(&err);
	buf_init(&out, REPORT_OUTPUT_MAX);
	if (range_render_paths((const char *const *)argv, (size_t)argc, opt_dir, o->format, opt_force,
			       &out, &err) < 0) {
		buf_release(&out);
		return cli_fail(&err);
	}
	memset(&rr, 0, sizeof(rr));
	return finish(&out, &rr, 0);
}

/*
 * The report of one bundle (against a baseline), into out, and under
 * GitHub Actions its step summary and annotations into md and notes.
 */
static int render_bundle(const char *path, const struct report_opts *o, struct buf *out,
			 struct buf *md, struct buf *notes, struct report_result *rr,
			 struct plumb_err *err)
{
	struct report_source bundle, baseline;
	struct report_side bs, ls;
	int rc;

	report_source_init(&bundle);
	report_source_init(&baseline);
	/* Only the HTML page draws the per-pad distributions of samples.tsv. */
	bundle.want_dist = baseline.want_dist = o->format == REPORT_HTML || o->format == REPORT_MARKDOWN;
	rc = report_source_find(&bundle, path, opt_dir, 0, err);
	if (rc == 0 && opt_baseline)
		rc = report_source_find(&baseline, opt_baseline, opt_dir, 1, err);
	if (rc == 0) {
		report_source_side(&bundle, MANIFEST_SIDE_CANDIDATE, &bs);
		report_source_side(&baseline, baseline.side, &ls);
		rc = report_render(&bs, opt_baseline ? &ls : NULL, o, out, rr, err);
	}
	if (rc == 0 && cli_github_on())
		rc = report_github_render(&bs, opt_baseline ? &ls : NULL, o->force, o->fail_on, md,
					  notes, err);
	report_source_release(&bundle);
	report_source_release(&baseline);
	return rc;
}

static int report_exec(int argc, char **argv)
{
	struct report_opts o = { REPORT_TEXT, 0, 0, REPORT_FAIL_NEVER };
	struct report_result rr;
	struct plumb_err err;
	struct buf out, md, notes;
	int rc, status, gh;

	if (opt_index)
		return index_exec(argc);
	if ((rc = parse_output_opts(&o)) != 0)
		return rc;
	if (opt_trend)
		return trend_check(argc, &o);
	if (opt_host || opt_last || opt_project)
		return usage("--host, --project and --last go with --trend");
	if (opt_range)
		return range_exec(argc, argv, &o);
	if (argc != 1)
		return usage(argc ? "one bundle at a time" : "a bundle is needed");
	o.force = opt_force;
	o.color = o.format == REPORT_TEXT && !opt_output && cli_color(stdout);

	plumb_err_clear(&err);
	buf_init(&out, REPORT_OUTPUT_MAX);
	buf_init(&md, REPORT_OUTPUT_MAX);
	buf_init(&notes, 1 << 20);
	if (render_bundle(argv[0], &o, &out, &md, &notes, &rr, &err) < 0) {
		buf_release(&out);
		buf_release(&md);
		buf_release(&notes);
		return cli_fail(&err);
	}
	status = finish(&out, &rr, o.fail_on != REPORT_FAIL_NEVER);
	gh = cli_github_emit(&md, &notes, o.format == REPORT_JSON && !opt_output);
	buf_release(&md);
	buf_release(&notes);
	return gh != PLUMB_EXIT_OK && status == PLUMB_EXIT_OK ? gh : status;
}

const struct plumb_cmd cmd_report = {
	.name = "report",
	.summary = "compare a bundle's candidate with its base or a baseline",
	.usage = "report BUNDLE [--baseline NAME|BUNDLE|ID] [--format FORMAT] [-o FILE] [--fail-on slower|any|noisy] [--force] [--json]\n"
		 "report --range BUNDLE... [--format text|md|html|json] [-o FILE] [--force]\n"
		 "report --trend BENCH [--host FP] [--last N] [--format FORMAT] [-o FILE] [--archive-dir DIR] "
		 "[--fail-on slower|any|noisy|change]\n"
		 "report --archive-index -o DIR/ [--archive-dir DIR]",
	.description =
		"Compare the candidate of a bundle (a .plumb file, or a folder holding its\n"
		"manifest.json) with its own base, or with --baseline, with a baseline's\n"
		"recorded side. Per benchmark: centers, ranges and spreads, ratio, verdict,\n"
		"noise, hot-code identity, checksums and counters; and the host facts of\n"
		"both sides. Hosts whose CPU model or core count differ are not comparable:\n"
		"verdicts are withheld and plumb exits 3, unless --force. --fail-on makes a\n"
		"verdict exit 1 for cron, a failed benchmark 5; an error never exits 0 or 1\n"
		"(plumb(1) GATING). --trend shows one benchmark's archived series instead,\n"
		"marking where consecutive ranges stop overlapping and the change points of\n"
		"the series (docs/changes.md), one series per host class when several classes\n"
		"measured it; --fail-on then gates on whether the latest nights start a change\n"
		"point of the code (up for slower and noisy, either way for any and change;\n"
		"a change of the host, the same commit on both nights, never). --archive-index\n"
		"writes the archive's static pages into the folder -o DIR/: an index of the\n"
		"latest night per host class, a page per class and one per benchmark and\n"
		"class, loading nothing (docs/archive-index.md). A folder is\n"
		"checked against its SHA256SUMS when it has one (a mismatch exits 3) and is\n"
		"said to be unverified when it has none. --range takes the bundles of one\n"
		"`plumb run --range` job (in any order) and shows the range report: per\n"
		"commit its center and range over pads, its verdict against A and against\n"
		"the commit measured before it, and its hot code against that commit's.",
	.opts = report_opts,
	.exec = report_exec,
};
