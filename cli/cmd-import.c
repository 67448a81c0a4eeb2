/*
 * cli/cmd-import.c: `plumb import FILE... -o OUT.plumb`: hyperfine,
 * pyperf and Google Benchmark results as a bundle (docs/import.md).
 *
 * Every file is read and checked before anything is written; the bundle
 * appears whole or not at all.  Messages and warnings carry names from
 * the files (commands, benchmark names, host names): they are escaped
 * before they reach the terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/import.h"
#include "formats/sign.h"
#include "views/import.h"
#include "common/banned.h"

static struct import_args {
	const char *out;
	const char *base;
	const char *candidate;
	const char *metric;
	const char *key;
	struct strlist labels;
	int json;
} args;

static const struct plumb_opt import_opts[] = {
	OPT_STRING_("output", 'o', "OUT.plumb", "the bundle to write (required)", &args.out),
	OPT_STRING_("base", 0, "NAME", "the benchmark (hyperfine command) that is the base side",
		    &args.base),
	OPT_STRING_("candidate", 0, "NAME", "the benchmark that is the candidate side",
		    &args.candidate),
	OPT_STRING_("metric", 0, "METRIC", "wall (the default: hyperfine's times, pyperf's "
		    "values, Google Benchmark's real_time) or cpu (Google Benchmark's cpu_time)",
		    &args.metric),
	OPT_LIST_("label", 0, "K=V", "record a label with the bundle (repeatable)", &args.labels),
	OPT_STRING_("sign", 0, "KEY", "sign the bundle with this secret key (NAME.key)", &args.key),
	OPT_FLAG_("json", 0, "print the bundle written as JSON (docs/import.md)", &args.json),
	OPT_END_()
};

/* Write what a view appended to f, then forget it. */
static void put(struct buf *b, FILE *f)
{
	if (b->len)
		fwrite(b->data, 1, b->len, f);
	buf_reset(b);
}

/* Make the bundle from the files loaded, signed when a key was given. */
static int make_bundle(struct import_file *files, size_t n, struct import_result *res,
		       struct plumb_err *err)
{
	struct import_opts o;
	struct sign_secret_key sk;
	int rc;

	memset(&o, 0, sizeof(o));
	o.base = args.base;
	o.candidate = args.candidate;
	o.metric = args.metric;
	o.labels = (const char *const *)args.labels.v;
	o.n_labels = args.labels.n;
	if (args.key && (rc = sign_secret_key_load(&sk, args.key, err)) < 0)
		return rc;
	o.sign_key = args.key ? &sk : NULL;
	rc = import_bundle(files, n, args.out, &o, res, err);
	if (args.key)
		sign_secret_key_release(&sk);
	return rc;
}

/* What was made: JSON on standard output, or the text. */
static int print_done(const struct import_file *files, const struct import_result *res,
		      struct buf *text)
{
	const char *tool = import_tool_name(files[0].tool);
	int status = PLUMB_EXIT_OK;

	if (args.json) {
		json_t *j = view_import_done_json(args.out, res, tool, args.key != NULL);
		status = cli_print_json(j, "import JSON");
		json_decref(j);
	} else {
		view_import_done(args.out, res, tool, args.key != NULL, text);
		put(text, stdout);
	}
	return status;
}

static int import_exec(int argc, char **argv)
{
	struct import_file *files;
	struct import_result res;
	struct plumb_err err;
	struct buf text;
	int rc = 0, status = PLUMB_EXIT_OK;
	size_t n = 0;

	if (argc < 1 || !args.out) {
		fprintf(stderr, "plumb import: %s\n", argc < 1 ? "a result FILE is needed" :
			"-o OUT.plumb is needed");
		cmd_print_usage(&cmd_import, "import", stderr);
		return PLUMB_EXIT_USAGE;
	}
	if (argc > IMPORT_MAX_FILES) {
		fprintf(stderr, "plumb import: at most %d files\n", IMPORT_MAX_FILES);
		return PLUMB_EXIT_USAGE;
	}
	buf_init(&text, (size_t)1 << 24);
	memset(&res, 0, sizeof(res));
	plumb_err_clear(&err);
	if (!(files = calloc((size_t)argc, sizeof(*files)))) {
		plumb_err_oom(&err, "import");
		return cli_fail(&err);
	}
	for (; n < (size_t)argc && rc == 0; n++)
		rc = import_load(argv[n], &files[n], &err);
	if (rc < 0)
		n--;
	if (rc == 0) {
		view_import_warnings(files, n, &text);
		put(&text, stderr);
		rc = make_bundle(files, n, &res, &err);
	}
	if (rc == 0) {
		view_import_skipped(&res, &text);
		put(&text, stderr);
		status = print_done(files, &res, &text);
	}
	import_result_release(&res);
	if (rc < 0)
		status = cli_fail(&err);
	for (size_t i = 0; i < n; i++)
		import_file_release(&files[i]);
	free(files);
	buf_release(&text);
	strlist_release(&args.labels);
	return status;
}

const struct plumb_cmd cmd_import = {
	.name = "import",
	.summary = "make a bundle from hyperfine, pyperf or Google Benchmark results",
	.usage = "import FILE [FILE] -o OUT.plumb [--base NAME --candidate NAME] [--metric wall|cpu]\n"
		 "       [--label K=V]... [--sign KEY] [--json]",
	.description =
		"Read hyperfine --export-json, pyperf JSON (plain or gzip) or Google Benchmark\n"
		"--benchmark_out JSON, recognised by content, and write a bundle that verifies,\n"
		"archives, reports and audits like a run's.  Two files are base and candidate,\n"
		"their benchmarks paired by name; one file needs --base NAME --candidate NAME\n"
		"(two hyperfine commands, two benchmarks).  The sources know no pads: each side\n"
		"has one, so a difference is unswept, never slower or faster.  Host facts are\n"
		"the source's (pyperf's metadata, Google Benchmark's context), else unknown.  A\n"
		"file of no known kind, or malformed, exits 3 naming it (and the JSON path, line\n"
		"and column); nothing is written then.  docs/import.md maps every field.",
	.opts = import_opts,
	.exec = import_exec,
};
