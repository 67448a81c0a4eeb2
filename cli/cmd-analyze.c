/*
 * cli/cmd-analyze.c: `plumb analyze FILE.tsv [--json] [--warmup POLICY]`:
 * verdicts for samples from any source, in the samples.tsv layout.
 *
 * The whole input is read and judged before anything is printed, so bad
 * input leaves standard output empty (exit 3, the message on stderr).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/metric.h"
#include "formats/samples.h"
#include "stats/analysis.h"
#include "views/analyze.h"
#include "common/banned.h"

#define ANALYZE_OUTPUT_MAX ((size_t)1 << 30)

/* The options, as parsed (one command per process). */
static struct analyze_cfg {
	int json;
	const char *format;
	const char *warmup;
	const char *rule;
} cfg;

static const struct plumb_opt analyze_opts[] = {
	OPT_FLAG_("json", 0, "print JSON (keys in docs/analyze-json.md)", &cfg.json),
	OPT_STRING_("format", 0, "FORMAT", "text (default), json (as --json) or csv (one row per "
		    "benchmark, metric, side and pad: docs/csv.md)", &cfg.format),
	OPT_STRING_("warmup", 0, "POLICY", "per-iteration data: auto, none or N samples "
		    "dropped per round", &cfg.warmup),
	OPT_STRING_("rule", 0, "RULE", "the verdict rule: shift (the default, version 4), "
		    "margin (version 2) or overlap (the seeds' rule, version 1)", &cfg.rule),
	OPT_END_()
};

/* samples.tsv row -> analysis row. */
static int analyze_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	return analysis_add(ctx, row->bench, row->bench_len, row->metric, row->metric_len,
			    (enum analysis_side)row->side, row->pad, row->round,
			    row->iter == SAMPLES_ITER_NONE ? ANALYSIS_ITER_NONE : row->iter,
			    row->value, err);
}

/* --format, --json, --warmup and --rule into opts; 0, or the usage status. */
static int parse_opts(struct analysis_opts *opts)
{
	if (cfg.format && strcmp(cfg.format, "text") != 0 && strcmp(cfg.format, "json") != 0 &&
	    strcmp(cfg.format, "csv") != 0) {
		fprintf(stderr, "plumb analyze: --format takes text, json or csv, not '%s'\n", cfg.format);
		return PLUMB_EXIT_USAGE;
	}
	if (cfg.format && cfg.json && strcmp(cfg.format, "json") != 0) {
		fprintf(stderr, "plumb analyze: --json and --format %s disagree\n", cfg.format);
		return PLUMB_EXIT_USAGE;
	}
	if (cfg.format && strcmp(cfg.format, "json") == 0)
		cfg.json = 1;
	analysis_opts_default(opts);
	if (cfg.warmup && stats_warmup_parse(cfg.warmup, &opts->warmup) < 0) {
		fprintf(stderr, "plumb analyze: --warmup takes auto, none or a whole number, "
			"not '%s'\n", cfg.warmup);
		return PLUMB_EXIT_USAGE;
	}
	if (cfg.rule && stats_rule_select(cfg.rule, 0, &opts->rule) < 0) {
		fprintf(stderr, "plumb analyze: --rule takes shift, margin or overlap, not '%s'\n", cfg.rule);
		return PLUMB_EXIT_USAGE;
	}
	opts->deterministic = metric_deterministic_names;
	return 0;
}

static int analyze_exec(int argc, char **argv)
{
	struct analysis_opts opts;
	struct analysis *a;
	struct plumb_err err;
	struct buf out;
	const char *path, *name;
	int rc;

	if (argc != 1) {
		fprintf(stderr, "plumb analyze: %s\n", argc ? "one FILE.tsv only" :
			"a FILE.tsv (or - for standard input) is needed");
		cmd_print_usage(&cmd_analyze, "analyze", stderr);
		return PLUMB_EXIT_USAGE;
	}
	if ((rc = parse_opts(&opts)) != 0)
		return rc;
	path = argv[0];
	name = strcmp(path, "-") == 0 ? "standard input" : path;
	plumb_err_clear(&err);
	if (!(a = analysis_new(&opts, &err)))
		return cli_fail(&err);
	buf_init(&out, ANALYZE_OUTPUT_MAX);
	rc = samples_read_path(path, NULL, analyze_row, a, NULL, &err);
	if (rc == 0 && (rc = analysis_finish(a, &err)) < 0)
		plumb_err_prefix(&err, "%s", name);
	if (rc == 0)
		rc = cfg.json ? analysis_render_json(a, name, &out, &err)
		     : cfg.format && strcmp(cfg.format, "csv") == 0 ? analysis_render_csv(a, &out, &err)
		     : analysis_render_text(a, name, &out, &err);
	/* A failed write is main()'s to report (or to keep quiet about, when
	 * the reader left). */
	if (rc == 0 && out.len)
		(void)fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
	analysis_free(a);
	return rc < 0 ? cli_fail(&err) : PLUMB_EXIT_OK;
}

const struct plumb_cmd cmd_analyze = {
	.name = "analyze",
	.summary = "verdicts for samples from any source (samples.tsv layout)",
	.usage = "analyze FILE.tsv [--json] [--format text|json|csv] [--warmup POLICY] [--rule shift|margin|overlap]",
	.description =
		"Read a table in the samples.tsv layout (a header row, then bench, side,\n"
		"pad, round, iter, metric, value separated by tabs; - reads standard\n"
		"input) and print per benchmark and metric: the per-pad medians, each\n"
		"side's center, range and spread, the rule, the ratio with its interval,\n"
		"the noise, the verdict with its reason and the smallest detectable change;\n"
		"for per-iteration samples also the steady start, p99 and\n"
		"coordinated-omission corrected p99 of every round.  Bad input exits 3\n"
		"naming the line and column, and prints nothing on standard output.",
	.opts = analyze_opts,
	.exec = analyze_exec,
};
