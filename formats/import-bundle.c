/*
 * formats/import-bundle.c: imported entries paired into base and candidate
 * and written as a bundle (docs/import.md, "Sides").
 *
 * What the source did not know stays unknown: every side has one pad
 * (pad 0: the source never shifted the code), no commit, no build; the
 * host facts are the source's, or null.  The verdict comes from the same
 * route as a run's (stats/analysis.h, manifest_record_judgement()), so
 * with one pad a side a difference is `unswept`, never slower or faster,
 * and bundle verification re-judges it like any other.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/utf8.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/fingerprint.h"
#include "formats/import.h"
#include "formats/manifest.h"
#include "formats/manifest-rule.h"
#include "formats/samples.h"
#include "stats/analysis.h"
#include "formats/jsonio.h"
#include "common/banned.h"

/* One benchmark of the bundle: an entry of each side. */
struct pair {
	const struct import_file *bf, *cf;
	const struct import_entry *be, *ce;
	char name[SAMPLES_NAME_MAX + 1];
};

struct pairs {
	struct pair *v;
	size_t n;
};

void import_result_release(struct import_result *r)
{
	for (size_t i = 0; i < r->n_skipped; i++)
		free(r->skipped[i]);
	free(r->skipped);
	memset(r, 0, sizeof(*r));
}

static int add_skipped(struct import_result *r, const char *fmt, const char *a, const char *b)
{
	char **v = realloc(r->skipped, (r->n_skipped + 1) * sizeof(*v));

	if (!v)
		return -1;
	r->skipped = v;
	if (!(v[r->n_skipped] = buf_strdupf(fmt, a, b)))
		return -1;
	r->n_skipped++;
	return 0;
}

/*
 * name as a benchmark name of samples.tsv: a control character or a
 * malformed byte becomes the text \xHH, and the result is cut to fit
 * (at a character's start).
 */
static void bench_name(const char *name, char out[SAMPLES_NAME_MAX + 1])
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = strlen(name), i = 0, len = 0;

	while (i < n) {
		int32_t cp;
		size_t k = utf8_next(s + i, n - i, &cp);
		int ok = cp >= 0 && utf8_ok((const char *)s + i, k, UTF8_NAME);
		size_t need = ok ? k : 4 * k;
		if (len + need > SAMPLES_NAME_MAX)
			break;
		if (ok) {
			memcpy(out + len, s + i, k);
			len += k;
		} else {
			for (size_t j = 0; j < k; j++)
				len += (size_t)snprintf(out + len, 5, "\\x%02x", s[i + j]);
		}
		i += k;
	}
	out[len] = '\0';
	if (len == 0)
		snprintf(out, SAMPLES_NAME_MAX + 1, "(unnamed)");
}

static const struct import_entry *find(const struct import_file *f, const char *name,
				       struct plumb_err *err)
{
	const struct import_entry *e = NULL;

	for (size_t i = 0; i < f->n_entries; i++) {
		if (strcmp(f->entries[i].name, name) != 0)
			continue;
		if (e) {
			plumb_err_set(err, PLUMB_EINPUT, "%s: two benchmarks are named '%.200s': "
				      "plumb cannot tell which is meant", f->path, name);
			return NULL;
		}
		e = &f->entries[i];
	}
	return e;
}

/* The entries' names, for a message: "'a', 'b', 'c'". */
static void names_of(const struct import_file *f, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < f->n_entries && len + 8 < size; i++) {
		char nm[SAMPLES_NAME_MAX + 1];
		int n;
		bench_name(f->entries[i].name, nm);
		n = snprintf(out + len, size - len, "%s'%.60s'", i ? ", " : "", nm);
		if (n < 0 || (size_t)n >= size - len) {
			snprintf(out + len, size - len, ", ...");
			break;
		}
		len += (size_t)n;
	}
}

static int add_pair(struct pairs *p, const struct import_file *bf, const struct import_entry *be,
		    const struct import_file *cf, const struct import_entry *ce, struct plumb_err *err)
{
	struct pair *v = realloc(p->v, (p->n + 1) * sizeof(*v));
	char bn[SAMPLES_NAME_MAX + 1], cn[SAMPLES_NAME_MAX + 1];

	if (!v)
		return plumb_err_oom(err, "import");
	p->v = v;
	v[p->n].bf = bf;
	v[p->n].cf = cf;
	v[p->n].be = be;
	v[p->n].ce = ce;
	bench_name(be->name, bn);
	bench_name(ce->name, cn);
	if (strcmp(be->name, ce->name) == 0)
		snprintf(v[p->n].name, sizeof(v[p->n].name), "%s", bn);
	else
		snprintf(v[p->n].name, sizeof(v[p->n].name), "%.125s vs %.125s", bn, cn);
	utf8_cut(v[p->n].name);
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, v[p->n].name) == 0)
			return plumb_err_set(err, PLUMB_EINPUT, "two benchmarks would both be named "
					     "'%.200s' in the bundle", v[p->n].name);
	p->n++;
	return 0;
}

/* The pairs of the sides rule (docs/import.md, "Sides"). */
static int make_pairs(const struct import_file *files, size_t n, const struct import_opts *o,
		      struct pairs *p, struct import_result *res, struct plumb_err *err)
{
	const struct import_file *bf = &files[0], *cf = &files[n > 1 ? 1 : 0];
	char list[600];

	if (n > 2)
		return plumb_err_set(err, PLUMB_EARG, "%zu files: an import takes one file "
				     "(with --base NAME --candidate NAME) or two (base, then "
				     "candidate)", n);
	if (n == 2 && bf->tool != cf->tool)
		return plumb_err_set(err, PLUMB_EARG, "%s is %s output and %s is %s output: the two "
				     "sides must come from the same tool", bf->path,
				     import_tool_name(bf->tool), cf->path, import_tool_name(cf->tool));
	if (!o->base != !o->candidate)
		return plumb_err_set(err, PLUMB_EARG, "--base and --candidate go together");
	if (o->base) {
		const struct import_entry *be, *ce;
		plumb_err_clear(err);
		be = find(bf, o->base, err);
		if (!be && !err->code) {
			names_of(bf, list, sizeof(list));
			return plumb_err_set(err, PLUMB_EARG, "--base '%.100s': %s has no benchmark of "
					     "that name (it has %s)", o->base, bf->path, list);
		}
		ce = be ? find(cf, o->candidate, err) : NULL;
		if (be && !ce && !err->code) {
			names_of(cf, list, sizeof(list));
			return plumb_err_set(err, PLUMB_EARG, "--candidate '%.100s': %s has no benchmark "
					     "of that name (it has %s)", o->candidate, cf->path, list);
		}
		if (!be || !ce)
			return err->code;
		if (be == ce)
			return plumb_err_set(err, PLUMB_EARG, "--base and --candidate name the same "
					     "benchmark: nothing to compare");
		return add_pair(p, bf, be, cf, ce, err);
	}
	if (n == 1) {
		names_of(bf, list, sizeof(list));
		return plumb_err_set(err, PLUMB_EARG, "one file: say which of its benchmarks are "
				     "compared with --base NAME --candidate NAME (%s has %s); or give "
				     "two files, base then candidate", bf->path, list);
	}
	for (size_t i = 0; i < bf->n_entries; i++) {
		const struct import_entry *ce;
		plumb_err_clear(err);
		if (!find(bf, bf->entries[i].name, err))
			return err->code;
		ce = find(cf, bf->entries[i].name, err);
		if (!ce && err->code)
			return err->code;
		if (!ce) {
			if (add_skipped(res, "'%s' is only in %s", bf->entries[i].name, bf->path) < 0)
				return plumb_err_oom(err, "import");
			continue;
		}
		if (add_pair(p, bf, &bf->entries[i], cf, ce, err) < 0)
			return err->code;
	}
	for (size_t i = 0; i < cf->n_entries; i++) {
		int seen = 0;
		for (size_t k = 0; k < bf->n_entries; k++)
			seen |= strcmp(bf->entries[k].name, cf->entries[i].name) == 0;
		if (!seen && add_skipped(res, "'%s' is only in %s", cf->entries[i].name, cf->path) < 0)
			return plumb_err_oom(err, "import");
	}
	if (p->n == 0 && bf->n_entries == 1 && cf->n_entries == 1) {
		/* One benchmark a side under two names: they are the comparison. */
		for (size_t i = 0; i < res->n_skipped; i++)
			free(res->skipped[i]);
		res->n_skipped = 0;
		return add_pair(p, bf, &bf->entries[0], cf, &cf->entries[0], err);
	}
	if (p->n == 0)
		return plumb_err_set(err, PLUMB_EINPUT, "no benchmark of %s is also in %s: nothing "
				     "to compare (--base NAME --candidate NAME pairs two of other "
				     "names)", bf->path, cf->path);
	return 0;
}

static const struct import_series *series(const struct import_entry *e, enum metric_id m)
{
	for (size_t i = 0; i < e->n_series; i++)
		if (e->series[i].metric == m)
			return &e->series[i];
	return NULL;
}

/* Every row of one side of a pair: to the TSV writer and, for the bench's metric, the analysis. */
static int side_rows(struct samples_writer *sw, struct analysis *a, const struct pair *p,
		     const struct import_entry *e, enum samples_side side, enum metric_id metric,
		     struct plumb_err *err)
{
	for (size_t k = 0; k < e->n_series; k++) {
		const struct import_series *s = &e->series[k];
		const char *mname = metric_name(s->metric);
		uint64_t iter = 0;
		for (size_t i = 0; i < s->n; i++) {
			struct samples_row row;
			int rc;
			if (i > 0 && s->round[i] != s->round[i - 1])
				iter = 0;
			memset(&row, 0, sizeof(row));
			row.bench = p->name;
			row.bench_len = strlen(p->name);
			row.side = side;
			row.pad = 0;
			row.round = s->round[i];
			row.iter = e->samples ? iter++ : SAMPLES_ITER_NONE;
			row.metric = mname;
			row.metric_len = strlen(mname);
			row.value = s->value[i];
			if ((rc = samples_writer_row(sw, &row, err)) < 0)
				return rc;
			if (s->metric == metric &&
			    (rc = analysis_add(a, row.bench, row.bench_len, mname, row.metric_len,
					       (enum analysis_side)side, 0, row.round,
					       e->samples ? row.iter : ANALYSIS_ITER_NONE, row.value,
					       err)) < 0)
				return plumb_err_prefix(err, "benchmark '%s'", p->name);
		}
	}
	return 0;
}

static const struct analysis_result *result_of(const struct analysis *a, const char *bench,
					       const char *metric)
{
	for (size_t i = 0; i < analysis_count(a); i++) {
		const struct analysis_result *r = analysis_get(a, i);
		if (strcmp(r->bench, bench) == 0 && strcmp(r->metric, metric) == 0)
			return r;
	}
	return NULL;
}

static int note(struct manifest_bench *mb, const char *fmt, const char *a, const char *b)
{
	char *text = buf_strdupf(fmt, a, b);
	int rc = text ? manifest_add_note(mb, text) : -1;

	free(text);
	return rc;
}

static json_t *facts_or_unknown(const struct import_file *f)
{
	json_t *h = f->hostfacts ? json_deep_copy(f->hostfacts) : json_object();

	if (!h)
		return NULL;
	if (!f->hostfacts) {
		json_t *cpu = json_object();
		json_object_set_new(h, "hostname", json_null());
		if (cpu) {
			json_object_set_new(cpu, "model", json_null());
			json_object_set_new(cpu, "logical", json_null());
		}
		json_object_set_new(h, "cpu", cpu ? cpu : json_null());
	}
	json_object_set_new(h, "source", json_string(import_tool_name(f->tool)));
	json_object_set_new(h, "recorded", json_string(f->hostfacts ? "by the source" :
							"unknown: the source records no host facts"));
	return h;
}

static json_t *source_of(const struct import_file *files, size_t n, const struct import_opts *o,
			 const struct import_result *res, enum metric_id metric)
{
	json_t *s = json_object(), *fa = json_array(), *sk = json_array();

	if (!s || !fa || !sk) {
		json_decref(s);
		json_decref(fa);
		json_decref(sk);
		return NULL;
	}
	json_object_set_new(s, "tool", json_string(import_tool_name(files[0].tool)));
	json_object_set_new(s, "version", jsonio_str(files[0].tool_version));
	json_object_set_new(s, "importer", json_pack("{s:s,s:s}", "name", "plumb",
						     "version", PACKAGE_VERSION));
	json_object_set_new(s, "pairing", json_string(o->base ? "selected" : "by name"));
	json_object_set_new(s, "base", jsonio_str(o->base));
	json_object_set_new(s, "candidate", jsonio_str(o->candidate));
	json_object_set_new(s, "metric", json_string(metric_name(metric)));
	for (size_t i = 0; i < n; i++) {
		const struct import_file *f = &files[i];
		json_t *fo = json_object(), *w = json_array();
		if (!fo || !w) {
			json_decref(fo);
			json_decref(w);
			continue;
		}
		for (size_t k = 0; k < f->n_warnings; k++)
			json_array_append_new(w, json_string(f->warnings[k]));
		json_object_set_new(fo, "path", json_string(f->path));
		json_object_set_new(fo, "sha256", json_string(f->sha256));
		json_object_set_new(fo, "gzip", json_boolean(f->gzip));
		json_object_set_new(fo, "side", json_string(n == 1 ? "both" : i == 0 ? "base" : "candidate"));
		json_object_set_new(fo, "facts", f->facts ? json_deep_copy(f->facts) : json_null());
		json_object_set_new(fo, "warnings", w);
		json_array_append_new(fa, fo);
	}
	json_object_set_new(s, "files", fa);
	for (size_t i = 0; i < res->n_skipped; i++)
		json_array_append_new(sk, json_string(res->skipped[i]));
	json_object_set_new(s, "skipped", sk);
	return s;
}

/* created: SOURCE_DATE_EPOCH (reproducible imports), else now. */
static int created_time(const struct import_opts *o, char out[MANIFEST_TIME_MAX])
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long t;

	if (o->created) {
		snprintf(out, MANIFEST_TIME_MAX, "%s", o->created);
		return 0;
	}
	if (sde && *sde) {
		errno = 0;
		t = strtoll(sde, &end, 10);
		if (!errno && !*end && t >= 0)
			return manifest_time_format(t, out);
	}
	return manifest_time_format((int64_t)time(NULL), out);
}

static int cmp_label(const void *a, const void *b)
{
	const struct manifest_label *x = a, *y = b;

	return strcmp(x->key, y->key);
}

static int fill_labels(struct manifest *m, const struct import_opts *o, struct plumb_err *err)
{
	struct plumb_config cfg;
	int rc;

	if (o->n_labels == 0)
		return 0;
	if ((rc = config_init(&cfg, err)) < 0)
		return rc;
	for (size_t i = 0; i < o->n_labels && rc == 0; i++)
		rc = config_add_label("--label", o->labels[i], false, &cfg, err);
	if (rc == 0 && !(m->run.labels = calloc(cfg.run.nlabels, sizeof(*m->run.labels))))
		rc = plumb_err_oom(err, "import");
	for (size_t i = 0; rc == 0 && i < cfg.run.nlabels; i++) {
		m->run.labels[i].key = strdup(cfg.run.labels[i].key);
		m->run.labels[i].value = strdup(cfg.run.labels[i].value);
		m->run.n_labels++;
		if (!m->run.labels[i].key || !m->run.labels[i].value)
			rc = plumb_err_oom(err, "import");
	}
	if (rc == 0)
		qsort(m->run.labels, m->run.n_labels, sizeof(*m->run.labels), cmp_label);
	config_release(&cfg);
	return rc;
}

/* The manifest around the benches: tool, repo, host, run, source. */
static int fill_top(struct manifest *m, const struct import_file *files, size_t n,
		    const struct pairs *p, const struct import_opts *o,
		    const struct import_result *res, enum metric_id metric, struct plumb_err *err)
{
	const struct import_file *bf = &files[0], *cf = &files[n - 1];
	char t[MANIFEST_TIME_MAX], fp[FINGERPRINT_HEX];
	int rc;

	if (created_time(o, t) < 0)
		return plumb_err_set(err, PLUMB_EARG, "SOURCE_DATE_EPOCH: not a time plumb can write");
	if (manifest_set_str(&m->tool.name, import_tool_name(bf->tool)) < 0 ||
	    manifest_set_str(&m->tool.version, bf->tool_version ? bf->tool_version : "unknown") < 0 ||
	    manifest_set_str(&m->created, t) < 0 ||
	    manifest_set_str(&m->repo.base.ref, o->base ? o->base : bf->path) < 0 ||
	    manifest_set_str(&m->repo.candidate.ref, o->candidate ? o->candidate : cf->path) < 0 ||
	    !(m->spec = json_object()) ||
	    !(m->host.start = facts_or_unknown(bf)) ||
	    (n == 2 && !(m->host.end = facts_or_unknown(cf))) ||
	    !(m->source = source_of(files, n, o, res, metric)))
		return plumb_err_oom(err, "import");
	/* Like is matched with like only when the source named the CPU. */
	if (json_is_string(json_object_get(json_object_get(m->host.start, "cpu"), "model")) &&
	    fingerprint_of(m->host.start, fp) == 0 && manifest_set_str(&m->host.fingerprint, fp) < 0)
		return plumb_err_oom(err, "import");
	m->build.method = MANIFEST_METHOD_NONE;
	m->build.pad_bytes = 0;
	m->run.seed = 0;
	m->run.rounds = 0;
	for (size_t i = 0; i < p->n; i++)
		for (int s = 0; s < 2; s++) {
			const struct import_entry *e = s ? p->v[i].ce : p->v[i].be;
			for (size_t k = 0; k < e->n_series; k++)
				if ((int64_t)e->series[k].rounds > m->run.rounds)
					m->run.rounds = e->series[k].rounds;
		}
	if ((rc = fill_labels(m, o, err)) < 0)
		return rc;
	return 0;
}

static int fill_bench(struct manifest *m, const struct pair *p, const struct analysis *a,
		      enum metric_id metric, struct plumb_err *err)
{
	const struct analysis_result *ar = result_of(a, p->name, metric_name(metric));
	struct manifest_bench *mb = manifest_add_bench(m, p->name, err);
	struct stats_judgement jd;
	struct stats_rule rule;
	const char *tool = import_tool_name(p->bf->tool);
	int rc;

	if (!mb)
		return PLUMB_EINTERNAL;
	if (!ar)
		return plumb_err_set(err, PLUMB_EINTERNAL, "benchmark '%s': no result", p->name);
	mb->mode = p->be->samples ? MANIFEST_MODE_SAMPLES : MANIFEST_MODE_PROCESS;
	mb->metric = metric;
	if (p->be->samples && manifest_set_str(&mb->warmup, "none") < 0)
		return plumb_err_oom(err, "import");
	if ((rc = manifest_record_side(&mb->base, &ar->side[ANALYSIS_BASE], p->be->samples, err)) < 0 ||
	    (rc = manifest_record_side(&mb->candidate, &ar->side[ANALYSIS_CANDIDATE],
				       p->be->samples, err)) < 0)
		return rc;
	rule = analysis_options(a)->rule;
	if (analysis_judge(ar, &rule, STATS_HOT_UNKNOWN, STATS_WORK_UNKNOWN, &jd) < 0)
		return errno == ENOMEM ? plumb_err_oom(err, "verdict")
				       : plumb_err_set(err, PLUMB_EINTERNAL, "benchmark %s: %s",
						       p->name, jd.why);
	if ((rc = manifest_record_judgement(mb, &jd, err)) < 0)
		return rc;
	if (note(mb, "imported from %s%s: one pad a side (the source never shifted the code), "
		 "so a difference it shows is unswept, never slower or faster", tool, "") < 0)
		return plumb_err_oom(err, "import");
	for (int s = 0; s < 2; s++) {
		const struct import_entry *e = s ? p->ce : p->be;
		const char *side = s ? "candidate" : "base";
		if (e->command && note(mb, "%s command: %s", side, e->command) < 0)
			return plumb_err_oom(err, "import");
		for (size_t k = 0; k < e->n_notes; k++)
			if (note(mb, "%s: %s", side, e->notes[k]) < 0)
				return plumb_err_oom(err, "import");
	}
	return 0;
}

/* A scratch samples.tsv beside out, unlinked on a signal. */
static FILE *scratch_tsv(const char *out, char **path, struct plumb_err *err)
{
	const char *slash = strrchr(out, '/');
	int fd;
	FILE *f;

	*path = slash ? buf_strdupf("%.*s/.%s.spool.%ld.XXXXXX", (int)(slash - out), out,
				    slash + 1, (long)getpid())
		      : buf_strdupf(".%s.spool.%ld.XXXXXX", out, (long)getpid());
	if (!*path) {
		plumb_err_oom(err, "import");
		return NULL;
	}
	fd = mkstemp(*path);
	if (fd < 0) {
		plumb_err_errno(err, PLUMB_EIO, errno, *path, "create");
		free(*path);
		*path = NULL;
		return NULL;
	}
	tempfile_register(*path);
	if (!(f = fdopen(fd, "w"))) {
		plumb_err_errno(err, PLUMB_EIO, errno, *path, "open");
		close(fd);
		unlink(*path);
		tempfile_forget(*path);
		free(*path);
		*path = NULL;
	}
	return f;
}

/* The values and rounds of every series, released; n and rounds stay. */
static void drop_values(struct import_file *files, size_t n)
{
	for (size_t f = 0; f < n; f++)
		for (size_t i = 0; i < files[f].n_entries; i++)
			for (size_t k = 0; k < files[f].entries[i].n_series; k++) {
				struct import_series *s = &files[f].entries[i].series[k];
				free(s->value);
				free(s->round);
				s->value = NULL;
				s->round = NULL;
			}
}

int import_bundle(struct import_file *files, size_t n, const char *out,
		  const struct import_opts *o, struct import_result *res,
		  struct plumb_err *err)
{
	struct pairs p = { NULL, 0 };
	struct analysis_opts aopts;
	struct analysis *a = NULL;
	struct samples_writer sw;
	struct manifest m;
	struct buf json;
	enum metric_id metric = METRIC_WALL;
	char *tsv_path = NULL;
	FILE *tsv = NULL;
	int rc;

	memset(res, 0, sizeof(*res));
	manifest_init(&m);
	buf_init(&json, MANIFEST_MAX_BYTES);
	if (n == 0 || n > IMPORT_MAX_FILES) {
		rc = plumb_err_set(err, PLUMB_EARG, "an import takes 1 to %d files", IMPORT_MAX_FILES);
		goto out;
	}
	if (o->metric && (metric_parse(o->metric, &metric) < 0 ||
			  (metric != METRIC_WALL && metric != METRIC_CPU))) {
		rc = plumb_err_set(err, PLUMB_EARG, "--metric takes wall or cpu, not '%.64s'", o->metric);
		goto out;
	}
	if ((rc = make_pairs(files, n, o, &p, res, err)) < 0)
		goto out;
	for (size_t i = 0; i < p.n; i++)
		if (!series(p.v[i].be, metric) || !series(p.v[i].ce, metric)) {
			rc = plumb_err_set(err, PLUMB_EARG, "--metric %s: %s records no %s time per "
					   "run (benchmark '%s')", metric_name(metric),
					   import_tool_name(files[0].tool), metric_name(metric), p.v[i].name);
			goto out;
		}
	analysis_opts_default(&aopts);
	aopts.warmup.kind = STATS_WARMUP_NONE;
	aopts.deterministic = metric_deterministic_names;
	aopts.judge_later = 1;   /* fill_bench() judges what the bundle records */
	if (!(a = analysis_new(&aopts, err))) {
		rc = err->code;
		goto out;
	}
	if (!(tsv = scratch_tsv(out, &tsv_path, err))) {
		rc = err->code;
		goto out;
	}
	samples_writer_init(&sw, samples_write_stdio, tsv);
	for (size_t i = 0; i < p.n; i++)
		if ((rc = side_rows(&sw, a, &p.v[i], p.v[i].be, SAMPLES_BASE, metric, err)) < 0 ||
		    (rc = side_rows(&sw, a, &p.v[i], p.v[i].ce, SAMPLES_CANDIDATE, metric, err)) < 0)
			goto out;
	if ((rc = samples_writer_finish(&sw, err)) < 0)
		goto out;
	drop_values(files, n);
	if (fflush(tsv) != 0 || ferror(tsv)) {
		rc = plumb_err_errno(err, PLUMB_EIO, errno, tsv_path, "write");
		goto out;
	}
	if ((rc = analysis_finish(a, err)) < 0 ||
	    (rc = fill_top(&m, files, n, &p, o, res, metric, err)) < 0)
		goto out;
	for (size_t i = 0; i < p.n; i++)
		if ((rc = fill_bench(&m, &p.v[i], a, metric, err)) < 0)
			goto out;
	if ((rc = manifest_write(&m, &json, err)) < 0) {
		plumb_err_prefix(err, "%s: manifest.json", out);
		goto out;
	}
	/* The figures are in the manifest: the rounds' analysis is not held
	 * while the bundle is compressed and checked. */
	analysis_free(a);
	a = NULL;
	{
		struct bundle_write_spec spec;
		memset(&spec, 0, sizeof(spec));
		spec.manifest_json = json.data;
		spec.manifest_len = json.len;
		spec.samples_path = tsv_path;
		spec.mtime = -1;
		spec.sign_key = o->sign_key;
		spec.check_name = out;
		rc = bundle_write(out, &spec, res->id, err);
	}
	res->n_benches = p.n;
out:
	if (tsv)
		fclose(tsv);
	if (tsv_path) {
		unlink(tsv_path);
		tempfile_forget(tsv_path);
		free(tsv_path);
	}
	analysis_free(a);
	buf_release(&json);
	manifest_release(&m);
	free(p.v);
	return rc;
}
