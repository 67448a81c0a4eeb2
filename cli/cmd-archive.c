/*
 * cli/cmd-archive.c: `plumb archive add|list|show|rm|trend|changes|verify|gc` and
 * (cli/cmd-archive-transfer.c) `push|pull`, and
 * `plumb archive baseline set|list|show|rm`: option tables and thin
 * wrappers around archive/ (DESIGN §9).  Every subcommand takes
 * --archive-dir; the folder is found by store_locate().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "archive/baseline.h"
#include "archive/bundles.h"
#include "archive/query.h"
#include "archive/scrub.h"
#include "archive/store.h"
#include "formats/sign.h"
#include "reports/changes.h"
#include "reports/hostclass.h"
#include "reports/trend.h"
#include "views/archive.h"
#include "cli/cmd.h"
#include "common/cleanup.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/banned.h"

#define ARCHIVE_DIR_HELP "the archive folder or postgresql:// URL (default: $PLUMB_ARCHIVE, else $XDG_DATA_HOME/plumb)"

/* Option values; each subcommand runs once per process. */
static const char *opt_dir;
static int opt_json;
static const char *opt_bench, *opt_repo, *opt_commit, *opt_host, *opt_since, *opt_project;
static const char *opt_metric, *opt_side, *opt_note, *opt_subset;
static struct strlist opt_labels;
static long opt_last;

/* Open the archive named by --archive-dir or the environment; 0 or an exit status. */
static int open_archive(struct store *st, int flags)
{
	return cli_archive_open(st, opt_dir, flags);
}

/* The text a view composes (views/archive.h), until print_view_of() writes and releases it. */
static struct buf view_text = { .max = (size_t)1 << 20 };

/* Write view_text (rc: the view's return, what: the command); the exit status. */
static int print_view_of(int rc, const char *what)
{
	return cli_print_view(&view_text, rc, what);
}

static int usage_error(const char *who, const char *what)
{
	fprintf(stderr, "plumb archive %s: %s\n", who, what);
	return PLUMB_EXIT_USAGE;
}

/* ---- add ---- */

static const char *opt_pubkey;

static const struct plumb_opt add_opts[] = {
	OPT_FLAG_("json", 0, "print JSON: {bundles: [{path, id, status, oldKey, newKey}]}", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_STRING_("pubkey", 'p', "KEY.pub", "check each bundle's signature with this public "
		    "key; a copy good with it replaces a stored copy not signed by it", &opt_pubkey),
	OPT_END_()
};

/* --json of a command over many items: {key: list}, printed whatever failed. */
static int print_items(json_t *list, const char *key, int status)
{
	json_t *o;
	int r;

	if (!opt_json) {
		json_decref(list);
		return status;
	}
	o = list ? json_pack("{s:o}", key, list) : NULL;
	r = cli_print_json(o, "archive JSON");
	json_decref(o);
	return status ? status : r;
}

static int add_exec(int argc, char **argv)
{
	struct store st;
	json_t *list;
	int status = 0, r;

	struct sign_public_key pk;
	int have = 0;

	if (argc < 1)
		return usage_error("add", "no bundle named");
	if ((r = cli_load_pubkey(opt_pubkey, &pk, &have)) != 0)
		return r;
	if ((r = open_archive(&st, STORE_CREATE)) != 0)
		return r;
	list = json_array();
	for (int i = 0; i < argc && !cleanup_signal_pending(); i++) {
		struct store_added added;
		struct plumb_err err;

		plumb_err_clear(&err);
		if (store_add_key(&st, argv[i], have ? &pk : NULL, &added, &err) < 0) {
			int s = cli_fail(&err);
			if (!status)
				status = s;
			continue;
		}
		if (opt_json) {
			if (!list || json_array_append_new(list, view_archive_added_json(argv[i], &added)) < 0)
				status = cli_exit_status(PLUMB_EINTERNAL);
			continue;
		}
		int shown = print_view_of(view_archive_added(&view_text, &added), "archive add");

		if (shown && !status)
			status = shown;
	}
	store_close(&st);
	status = print_items(list, "bundles", status);
	return status;
}

static const struct plumb_cmd cmd_archive_add = {
	.name = "add",
	.summary = "verify bundles and add them to the archive",
	.usage = "archive add BUNDLE... [-p KEY.pub] [--json] [--archive-dir DIR]",
	.description =
		"Verify each bundle completely, copy it into the archive's store and index it.\n"
		"A bundle already archived is left as it is, unless this copy is better signed:\n"
		"signed where the stored one is not, or good with -p's key where the stored\n"
		"one is not that key's; then it replaces the stored file (recorded).",
	.opts = add_opts,
	.exec = add_exec,
};

/* ---- list ---- */

static const struct plumb_opt list_opts[] = {
	OPT_STRING_("bench", 0, "NAME", "only bundles with this benchmark", &opt_bench),
	OPT_STRING_("repo", 0, "REPO", "only bundles of this repository (path or URL)", &opt_repo),
	OPT_STRING_("project", 0, "P", "only bundles of this project (run.project)", &opt_project),
	OPT_STRING_("commit", 0, "COMMIT", "only bundles whose base or candidate commit starts so", &opt_commit),
	OPT_STRING_("host", 0, "FP", "only bundles measured on this host fingerprint (or prefix)", &opt_host),
	OPT_LIST_("label", 0, "K=V", "only bundles with this label (K alone: any value); repeatable", &opt_labels),
	OPT_STRING_("since", 0, "DATE", "only bundles created at or after DATE (YYYY-MM-DD[THH:MM:SS(Z|+HH:MM)])", &opt_since),
	OPT_INT_("last", 0, "N", "only the newest N", &opt_last, 1, 100000000),
	OPT_FLAG_("json", 0, "print JSON", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

/*
 * The reading commands share one shape: open the archive read-only, ask
 * archive/ for a result, and have its view make the JSON (--json, in
 * *json) or the text (in view_text, the view's return in *text).
 */
typedef int (*archive_read_fn)(struct store *st, const void *arg, json_t **json, int *text,
			       struct plumb_err *err);

static int read_and_show(archive_read_fn read, const void *arg, const char *what)
{
	struct plumb_err err;
	struct store st;
	json_t *json = NULL;
	int r, text = 0;

	if ((r = open_archive(&st, STORE_READONLY)) != 0)
		return r;
	plumb_err_clear(&err);
	if (read(&st, arg, &json, &text, &err) < 0) {
		buf_release(&view_text);
		r = cli_fail(&err);
	} else if (opt_json) {
		r = cli_print_json(json, "archive JSON");
	} else {
		r = print_view_of(text, what);
	}
	json_decref(json);
	store_close(&st);
	return r;
}

static int read_list(struct store *st, const void *arg, json_t **json, int *text,
		     struct plumb_err *err)
{
	struct query_summaries l;
	int r = query_list(st, arg, &l, err);

	if (r == 0 && opt_json)
		*json = view_list_json(&l);
	else if (r == 0)
		*text = view_list(&view_text, &l);
	query_summaries_release(&l);
	return r;
}

static int read_show(struct store *st, const void *arg, json_t **json, int *text,
		     struct plumb_err *err)
{
	struct query_detail d;
	int r = query_show(st, arg, &d, err);

	if (r == 0 && opt_json)
		*json = view_archived_json(&d);
	else if (r == 0)
		*text = view_archived(&view_text, &d);
	query_detail_release(&d);
	return r;
}

/*
 * The series with its change points (reports/trend.h); without --host and
 * with several classes measuring it, {bench, classes: [one per class]}.
 */
static int read_trend(struct store *st, const void *arg, json_t **json, int *text,
		      struct plumb_err *err)
{
	struct trend_series *s = NULL;
	struct trend_classes c;
	size_t n = 0;
	int r = trend_query_classes(st, arg, &c, err);

	if (r == 0 && !(s = calloc(c.n, sizeof(*s))))
		r = plumb_err_oom(err, "trend");
	for (; r == 0 && n < c.n; n++)
		if ((r = trend_series_find(&c.v[n], &s[n], err)) < 0)
			break;
	if (r == 0 && opt_json)
		*json = view_trend_json(s, n);
	else if (r == 0)
		*text = view_trend(&view_text, s, n);
	for (size_t i = 0; i < n; i++)
		trend_series_release(&s[i]);
	free(s);
	trend_classes_release(&c);
	return r;
}

static int read_baselines(struct store *st, const void *arg, json_t **json, int *text,
			  struct plumb_err *err)
{
	struct baseline_entries l;
	int r = baseline_list(st, &l, err);

	(void)arg;
	if (r == 0 && opt_json)
		*json = view_baselines_json(&l);
	else if (r == 0)
		*text = view_baselines(&view_text, &l);
	baseline_entries_release(&l);
	return r;
}

static int read_baseline(struct store *st, const void *arg, json_t **json, int *text,
			 struct plumb_err *err)
{
	struct baseline_detail d;
	int r = baseline_show(st, arg, &d, err);

	if (r == 0 && opt_json)
		*json = view_baseline_json(&d);
	else if (r == 0)
		*text = view_baseline(&view_text, &d);
	baseline_detail_release(&d);
	return r;
}

static int list_exec(int argc, char **argv)
{
	struct query_filter f;
	int r;

	(void)argv;
	if (argc > 0)
		return usage_error("list", "takes no arguments");
	memset(&f, 0, sizeof(f));
	f.bench = opt_bench;
	f.repo = opt_repo;
	f.project = opt_project;
	f.commit = opt_commit;
	f.host = opt_host;
	f.labels = opt_labels.v;
	f.nlabels = opt_labels.n;
	f.since = opt_since;
	f.last = opt_last;
	r = read_and_show(read_list, &f, "archive list");
	strlist_release(&opt_labels);
	return r;
}

static const struct plumb_cmd cmd_archive_list = {
	.name = "list",
	.summary = "list archived bundles, newest first",
	.usage = "archive list [--bench B] [--repo R] [--commit C] [--host FP] [--label K=V]...\n"
		 "archive list [--project P] [--since DATE] [--last N] [--json] [--archive-dir DIR]",
	.description = "List the bundles matching every filter given, newest first.",
	.opts = list_opts,
	.exec = list_exec,
};

/* ---- show ---- */

static const struct plumb_opt show_opts[] = {
	OPT_FLAG_("json", 0, "print JSON", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int show_exec(int argc, char **argv)
{
	if (argc != 1)
		return usage_error("show", "needs exactly one bundle id");
	return read_and_show(read_show, argv[0], "archive show");
}

static const struct plumb_cmd cmd_archive_show = {
	.name = "show",
	.summary = "show one archived bundle",
	.usage = "archive show ID [--json] [--archive-dir DIR]",
	.description = "Show a bundle's fields, host, labels, baselines and benchmarks.  ID may be\n"
		       "a unique prefix of at least 4 hex digits.",
	.opts = show_opts,
	.exec = show_exec,
};

/* ---- rm ---- */

static const struct plumb_opt rm_opts[] = {
	OPT_FLAG_("json", 0, "print JSON: {bundles: [{id, status}]}", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int rm_exec(int argc, char **argv)
{
	struct store st;
	int status = 0, r;
	json_t *list;

	if (argc < 1)
		return usage_error("rm", "no bundle id named");
	if ((r = open_archive(&st, 0)) != 0)
		return r;
	list = json_array();
	for (int i = 0; i < argc && !cleanup_signal_pending(); i++) {
		char id[STORE_ID_LEN + 1];
		struct plumb_err err;

		plumb_err_clear(&err);
		if (store_remove(&st, argv[i], id, &err) < 0) {
			int s = cli_fail(&err);
			if (!status)
				status = s;
			continue;
		}
		if (!opt_json) {
			int shown = print_view_of(view_archive_removed(&view_text, id), "archive rm");

			if (shown && !status)
				status = shown;
		} else if (!list || json_array_append_new(list, view_archive_removed_json("id", id)) < 0)
			status = cli_exit_status(PLUMB_EINTERNAL);
	}
	store_close(&st);
	return print_items(list, "bundles", status);
}

static const struct plumb_cmd cmd_archive_rm = {
	.name = "rm",
	.summary = "remove bundles from the archive",
	.usage = "archive rm ID... [--json] [--archive-dir DIR]",
	.description = "Remove each bundle's rows, then its file.  A bundle that a baseline names\n"
		       "is kept until the baseline is removed.",
	.opts = rm_opts,
	.exec = rm_exec,
};

/* ---- trend ---- */

static const struct plumb_opt trend_opts[] = {
	OPT_STRING_("metric", 0, "M", "the metric (default: the benchmark's most frequent)", &opt_metric),
	OPT_STRING_("host", 0, "FP", "only this host fingerprint or prefix (default: every host class)", &opt_host),
	OPT_STRING_("project", 0, "P", "the project (default: the one that has BENCH)", &opt_project),
	OPT_INT_("last", 0, "N", "only the latest N points", &opt_last, 1, 100000000),
	OPT_FLAG_("json", 0, "print JSON", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int trend_exec(int argc, char **argv)
{
	struct query_trend q;

	if (argc != 1)
		return usage_error("trend", "needs exactly one benchmark name");
	memset(&q, 0, sizeof(q));
	q.bench = argv[0];
	q.metric = opt_metric;
	q.host = opt_host;
	q.last = opt_last;
	q.project = opt_project;
	return read_and_show(read_trend, &q, "archive trend");
}

static const struct plumb_cmd cmd_archive_trend = {
	.name = "trend",
	.summary = "the series of one benchmark on each host class",
	.usage = "archive trend BENCH [--metric M] [--host FP] [--project P] [--last N] [--json] [--archive-dir DIR]",
	.description = "Print the candidate's center and range of BENCH in every archived bundle\n"
		       "measured on one host class, in candidate commit time order, and the\n"
		       "series' change points (docs/changes.md): on each night's candidate over\n"
		       "its base when every night measured the same base (within-night, so a\n"
		       "drift of the host cancels), else on the candidate's level; a change\n"
		       "with the same commit either side is the host's.  Without --host, one\n"
		       "series per class that measured it, one after the other.",
	.opts = trend_opts,
	.exec = trend_exec,
};

/* ---- changes ---- */

static const struct plumb_opt changes_opts[] = {
	OPT_STRING_("host", 0, "FP", "only this host fingerprint or prefix (default: every host class)", &opt_host),
	OPT_STRING_("project", 0, "P", "only the series of this project (default: every project)", &opt_project),
	OPT_STRING_("since", 0, "DATE", "only change points whose first night after is at or after DATE "
		    "(YYYY-MM-DD[THH:MM:SSZ])", &opt_since),
	OPT_FLAG_("json", 0, "print JSON", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int changes_exec(int argc, char **argv)
{
	struct changes_opts o = { opt_host, opt_since, opt_dir, opt_project };
	struct plumb_err err;
	char *owned;
	json_t *v;
	int r;

	(void)argv;
	if (argc > 0)
		return usage_error("changes", "takes no arguments");
	if ((r = cli_archive_dir(opt_dir, &o.archive_dir, &owned)) != 0)
		return r;
	plumb_err_clear(&err);
	r = changes_of_host(&o, &v, &err);
	free(owned);
	if (r < 0)
		return cli_fail(&err);
	r = opt_json ? cli_print_json(v, "archive JSON")
		     : print_view_of(view_changes(&view_text, v), "archive changes");
	json_decref(v);
	return r;
}

static const struct plumb_cmd cmd_archive_changes = {
	.name = "changes",
	.summary = "every change point of every benchmark on each host class, newest first",
	.usage = "archive changes [--host FP] [--project P] [--since DATE] [--json] [--archive-dir DIR]",
	.description = "Find the change points of every benchmark's series on each host class\n"
		       "(--host: on one) and list them, newest first: the host class (when\n"
		       "there are several; a series never spans two), the benchmark, the\n"
		       "direction and size with its interval, the last night before and the\n"
		       "first night after, the commits between them, the series (within-night\n"
		       "or level) and the cause (commits, or host when both nights measured\n"
		       "the same commit).",
	.opts = changes_opts,
	.exec = changes_exec,
};

/* ---- hosts ---- */

static const struct plumb_opt hosts_opts[] = {
	OPT_FLAG_("json", 0, "print JSON (docs/archive-hosts.md)", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int read_hosts(struct store *st, const void *arg, json_t **json, int *text,
		      struct plumb_err *err)
{
	json_t *v;
	int r = hostclass_list(st, &v, err);

	(void)arg;
	if (r == 0 && opt_json)
		*json = json_incref(v);
	else if (r == 0)
		*text = view_hosts(&view_text, v);
	json_decref(v);
	return r;
}

static int hosts_exec(int argc, char **argv)
{
	(void)argv;
	if (argc > 0)
		return usage_error("hosts", "takes no arguments");
	return read_and_show(read_hosts, NULL, "archive hosts");
}

static const struct plumb_cmd cmd_archive_hosts = {
	.name = "hosts",
	.summary = "the host classes (fingerprints) with their facts and counts",
	.usage = "archive hosts [--json] [--archive-dir DIR]",
	.description = "List every host fingerprint of the archive: a host class, whose results are\n"
		       "compared only with each other.  Per class: CPU model, CPUs, physical\n"
		       "cores, kernel, governor, turbo and SMT as first recorded, the number of\n"
		       "bundles and of benchmarks, and when its first and last bundle were made.",
	.opts = hosts_opts,
	.exec = hosts_exec,
};

/* ---- verify and gc ---- */

static const struct plumb_opt verify_opts[] = {
	OPT_STRING_("subset", 0, "N/T", "check only slice N of T disjoint slices", &opt_subset),
	OPT_FLAG_("json", 0, "print JSON: {ok, bundles, files, problems, lines}", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

/* Parse "n/t" with 1 <= n <= t; -1 when malformed. */
static int parse_subset(const char *s, unsigned *n, unsigned *t)
{
	char *end;
	unsigned long a, b;

	a = strtoul(s, &end, 10);
	if (end == s || *end != '/')
		return -1;
	s = end + 1;
	b = strtoul(s, &end, 10);
	if (end == s || *end || a < 1 || b < 1 || a > b || b > 1000000)
		return -1;
	*n = (unsigned)a;
	*t = (unsigned)b;
	return 0;
}

/* What verify found or gc did, as text (not with --json); the exit status of printing it. */
static int print_report(const struct scrub_report *rep)
{
	if (opt_json)
		return 0;
	return print_view_of(view_scrub_lines(&view_text, rep), "archive scrub report");
}

/* --json of verify and gc: what the text says, as one object. */
static int print_report_json(const struct scrub_report *rep, int status)
{
	json_t *o = view_scrub_json(rep, status == 0 && rep->nproblems == 0);
	int r = cli_print_json(o, "archive JSON");

	json_decref(o);
	return status ? status : r;
}

static int verify_exec(int argc, char **argv)
{
	struct scrub_report rep;
	struct plumb_err err;
	struct store st;
	unsigned n = 1, t = 1;
	int r;

	(void)argv;
	if (argc > 0)
		return usage_error("verify", "takes no arguments");
	if (opt_subset && parse_subset(opt_subset, &n, &t) < 0)
		return usage_error("verify", "--subset takes N/T with 1 <= N <= T, like 3/7");
	if ((r = open_archive(&st, STORE_READONLY)) != 0)
		return r;
	scrub_report_init(&rep);
	plumb_err_clear(&err);
	if (scrub_verify(&st, n, t, &rep, &err) < 0) {
		(void)print_report(&rep);
		r = cli_fail(&err);
	} else if (rep.nproblems > 0) {
		(void)print_report(&rep);
		if (!opt_json)
			(void)print_view_of(view_scrub_verified(&view_text, &rep, n, t), "archive verify");
		plumb_err_set(&err, PLUMB_EINPUT, "%s: %zu problem%s found (slice %u/%u)", st.dir,
			      rep.nproblems, rep.nproblems == 1 ? "" : "s", n, t);
		r = cli_fail(&err);
	} else if (!opt_json) {
		r = print_view_of(view_scrub_verified(&view_text, &rep, n, t), "archive verify");
	}
	if (opt_json)
		r = print_report_json(&rep, r);
	scrub_report_release(&rep);
	store_close(&st);
	return r;
}

static const struct plumb_cmd cmd_archive_verify = {
	.name = "verify",
	.summary = "check every stored bundle and the index",
	.usage = "archive verify [--subset N/T] [--json] [--archive-dir DIR]",
	.description =
		"Re-hash and re-verify stored bundles; report rows without files, files without\n"
		"rows, stray files, size and hash mismatches, and the database's integrity\n"
		"check.  Exits 3 when anything is wrong, naming each problem.",
	.opts = verify_opts,
	.exec = verify_exec,
};

static const struct plumb_opt gc_opts[] = {
	OPT_FLAG_("json", 0, "print JSON: {ok, bundles, files, problems, lines}", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int gc_exec(int argc, char **argv)
{
	struct scrub_report rep;
	struct plumb_err err;
	struct store st;
	int r;

	(void)argv;
	if (argc > 0)
		return usage_error("gc", "takes no arguments");
	if ((r = open_archive(&st, 0)) != 0)
		return r;
	scrub_report_init(&rep);
	plumb_err_clear(&err);
	r = scrub_gc(&st, &rep, &err);
	(void)print_report(&rep);
	if (r < 0) {
		r = cli_fail(&err);
	} else if (rep.nproblems > 0) {
		plumb_err_set(&err, PLUMB_EINPUT, "%s: %zu problem%s left that gc does not repair",
			      st.dir, rep.nproblems, rep.nproblems == 1 ? "" : "s");
		r = cli_fail(&err);
	} else if (!opt_json) {
		r = print_view_of(view_scrub_gc(&view_text, &rep), "archive gc");
	}
	if (opt_json)
		r = print_report_json(&rep, r);
	scrub_report_release(&rep);
	store_close(&st);
	return r;
}

static const struct plumb_cmd cmd_archive_gc = {
	.name = "gc",
	.summary = "remove leftovers, adopt files without rows",
	.usage = "archive gc [--json] [--archive-dir DIR]",
	.description =
		"Remove leftover temporary files, index stored bundles that have no rows, and\n"
		"move anything else found among the bundles to <archive>/lost/.  Deletes no\n"
		"bundle; rows without files are listed (exit 3) for 'plumb archive rm'.",
	.opts = gc_opts,
	.exec = gc_exec,
};

/* ---- reindex ---- */

static int reindex_exec(int argc, char **argv)
{
	struct plumb_err err;
	size_t nb = 0, nbl = 0;
	char *dir = NULL;
	int r, s = 0;

	(void)argv;
	if (argc > 0)
		return usage_error("reindex", "takes no arguments");
	plumb_err_clear(&err);
	if ((r = store_locate(opt_dir, &dir, &err)) == 0)
		r = baseline_reindex(dir, &nb, &nbl, &err);
	if (r == 0 || nb > 0)
		s = print_view_of(view_reindexed(&view_text, nb, nbl), "archive reindex");
	free(dir);
	return r < 0 ? cli_fail(&err) : s;
}

static const struct plumb_cmd cmd_archive_reindex = {
	.name = "reindex",
	.summary = "rebuild archive.db from the bundle files and baselines.tsv",
	.usage = "archive reindex [--archive-dir DIR]",
	.description =
		"Move archive.db aside (archive.db.damaged), index every stored bundle that\n"
		"verifies again, and set every baseline of baselines.tsv again: the way back\n"
		"from a damaged or lost index.",
	.opts = gc_opts,
	.exec = reindex_exec,
};

/* ---- baseline set|list|show|rm ---- */

static const struct plumb_opt baseline_set_opts[] = {
	OPT_FLAG_("json", 0, "print JSON: {name, bundle, side, previous}", &opt_json),
	OPT_STRING_("side", 0, "SIDE", "candidate (default) or base", &opt_side),
	OPT_STRING_("note", 0, "TEXT", "a note kept with the baseline", &opt_note),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int baseline_set_exec(int argc, char **argv)
{
	struct baseline_change c;
	struct plumb_err err;
	struct store st;
	int r;

	if (argc != 2)
		return usage_error("baseline set", "needs NAME and BUNDLE");
	if ((r = open_archive(&st, STORE_CREATE)) != 0)
		return r;
	plumb_err_clear(&err);
	if (baseline_set(&st, argv[0], argv[1], opt_side, opt_note, &c, &err) < 0) {
		r = cli_fail(&err);
	} else if (opt_json) {
		json_t *o = view_baseline_set_json(argv[0], &c);

		r = cli_print_json(o, "archive JSON");
		json_decref(o);
	} else {
		r = print_view_of(view_baseline_set(&view_text, argv[0], &c), "archive baseline set");
	}
	store_close(&st);
	return r;
}

static const struct plumb_cmd cmd_archive_baseline_set = {
	.name = "set",
	.summary = "point a baseline name at a bundle",
	.usage = "archive baseline set NAME BUNDLE [--side candidate|base] [--note TEXT] [--json] [--archive-dir DIR]",
	.description = "BUNDLE is an archived id (or unique prefix), or a bundle file, which is\n"
		       "added first.  Setting an existing NAME moves it.",
	.opts = baseline_set_opts,
	.exec = baseline_set_exec,
};

static const struct plumb_opt baseline_list_opts[] = {
	OPT_FLAG_("json", 0, "print JSON", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int baseline_list_exec(int argc, char **argv)
{
	(void)argv;
	if (argc > 0)
		return usage_error("baseline list", "takes no arguments");
	return read_and_show(read_baselines, NULL, "archive baseline list");
}

static const struct plumb_cmd cmd_archive_baseline_list = {
	.name = "list",
	.summary = "list the baselines",
	.usage = "archive baseline list [--json] [--archive-dir DIR]",
	.opts = baseline_list_opts,
	.exec = baseline_list_exec,
};

static const struct plumb_opt baseline_show_opts[] = {
	OPT_FLAG_("json", 0, "print JSON", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int baseline_show_exec(int argc, char **argv)
{
	if (argc != 1)
		return usage_error("baseline show", "needs exactly one NAME");
	return read_and_show(read_baseline, argv[0], "archive baseline show");
}

static const struct plumb_cmd cmd_archive_baseline_show = {
	.name = "show",
	.summary = "show a baseline and its bundle",
	.usage = "archive baseline show NAME [--json] [--archive-dir DIR]",
	.opts = baseline_show_opts,
	.exec = baseline_show_exec,
};

static const struct plumb_opt baseline_rm_opts[] = {
	OPT_FLAG_("json", 0, "print JSON: {name, status}", &opt_json),
	OPT_STRING_("archive-dir", 0, "DIR", ARCHIVE_DIR_HELP, &opt_dir),
	OPT_END_()
};

static int baseline_rm_exec(int argc, char **argv)
{
	struct plumb_err err;
	struct store st;
	int r;

	if (argc != 1)
		return usage_error("baseline rm", "needs exactly one NAME");
	if ((r = open_archive(&st, 0)) != 0)
		return r;
	plumb_err_clear(&err);
	if (baseline_rm(&st, argv[0], &err) < 0) {
		r = cli_fail(&err);
	} else if (opt_json) {
		json_t *o = view_archive_removed_json("name", argv[0]);

		r = cli_print_json(o, "archive JSON");
		json_decref(o);
	} else {
		r = print_view_of(view_archive_removed(&view_text, argv[0]), "archive baseline rm");
	}
	store_close(&st);
	return r;
}

static const struct plumb_cmd cmd_archive_baseline_rm = {
	.name = "rm",
	.summary = "remove a baseline (not its bundle)",
	.usage = "archive baseline rm NAME [--json] [--archive-dir DIR]",
	.opts = baseline_rm_opts,
	.exec = baseline_rm_exec,
};

static const struct plumb_cmd *const baseline_subs[] = {
	&cmd_archive_baseline_set,
	&cmd_archive_baseline_list,
	&cmd_archive_baseline_show,
	&cmd_archive_baseline_rm,
	NULL
};

static const struct plumb_cmd cmd_archive_baseline = {
	.name = "baseline",
	.summary = "named baselines: set, list, show, rm",
	.usage = "archive baseline set NAME BUNDLE [--side candidate|base] [--note TEXT]\n"
		 "archive baseline list | show NAME | rm NAME",
	.description = "A baseline names one side of an archived bundle (\"release-1.2\",\n"
		       "\"nightly\") for reports to compare against.",
	.subs = baseline_subs,
};

static const struct plumb_cmd *const archive_subs[] = {
	&cmd_archive_add,
	&cmd_archive_list,
	&cmd_archive_show,
	&cmd_archive_rm,
	&cmd_archive_baseline,
	&cmd_archive_trend,
	&cmd_archive_changes,
	&cmd_archive_hosts,
	&cmd_archive_verify,
	&cmd_archive_gc,
	&cmd_archive_reindex,
	&cmd_archive_push,
	&cmd_archive_pull,
	NULL
};

const struct plumb_cmd cmd_archive = {
	.name = "archive",
	.summary = "the results archive: add, list, show, rm, baseline, trend, changes, hosts, verify, gc, reindex, push, pull",
	.usage = "archive add|list|show|rm|trend|changes|hosts|verify|gc|reindex|push|pull [ARGS] [--archive-dir DIR]\n"
		 "archive baseline set|list|show|rm [ARGS] [--archive-dir DIR]",
	.description =
		"An SQLite index and a store of bundle files, in --archive-dir, else\n"
		"$PLUMB_ARCHIVE, else $XDG_DATA_HOME/plumb (~/.local/share/plumb).\n"
		"--archive-dir or $PLUMB_ARCHIVE may be a postgresql:// URL instead: an\n"
		"index on PostgreSQL shared by many hosts, the files in $PLUMB_ARCHIVE_STORE.",
	.subs = archive_subs,
};
