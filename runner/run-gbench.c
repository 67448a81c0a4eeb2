/*
 * runner/run-gbench.c: Google Benchmark binaries swept like any benchmark
 * (bench.NAME.mode = gbench, docs/gbench.md).
 *
 * After the builds, the binary of each such section lists its benchmarks
 * (--benchmark_list_tests=true, with bench.NAME.filter) on base pad 0 and
 * on candidate pad 0, and the run goes on with a configuration in which
 * the section is replaced by one benchmark per name listed, NAME/<name>,
 * in the binary's order (a name one side alone lists goes beside its
 * family).  Everything else (rounds, sweep, hooks, logs, profile,
 * failures, verdicts, the record) treats them as ordinary benchmarks.
 *
 * Each run of one of them runs the section's command with
 * --benchmark_format=json --benchmark_repetitions=1 and a filter that
 * matches its name alone appended, and its values are read from the JSON
 * on standard output by the reader `plumb import` uses (formats/import.h):
 * real_time as wall and cpu_time as cpu, ns per iteration.  One process
 * per benchmark, variant and round, rather than one per variant and round
 * running them all or --benchmark_repetitions=N of one variant back to
 * back: the rounds interleave every variant of every benchmark exactly as
 * in process mode, so a drift of the machine (heat, frequency, another
 * job) falls on base and candidate alike; no benchmark runs in a process
 * another benchmark has warmed, fragmented or crashed; and a failure,
 * timeout, log or profile belongs to one benchmark.  The price is one
 * process start per run, outside the time the binary measures.
 *
 * Ownership: struct run_gbench (run-internal.h) owns the expanded bench
 * array, and in it the names and Google Benchmark names of the expanded
 * benchmarks (those with gbench set); every other pointer of the copied
 * configuration and benches is borrowed from the given configuration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/utf8.h"
#include "formats/config.h"
#include "formats/import.h"
#include "formats/samples.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/failed.h"
#include "runner/measure.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "stats/quantile.h"
#include "common/banned.h"

/* What the reader calls a run's output in its messages ("<this>: <what>"). */
#define OUTPUT_NAME "its standard output"
/* Bytes of one argument plumb appends (a filter: a name or bench.NAME.filter). */
#define ARG_MAX_BYTES 8192
/* Bytes of a bundle member's name component: logs/bench-<file id>-b00.log. */
#define LOG_COMPONENT_MAX 255

/* One name a side's binary listed, and which sides did. */
struct gname {
	char *name;
	int listed[2];       /* RUNNER_BASE, RUNNER_CANDIDATE */
};

struct glist {
	struct gname *v;
	size_t n;
};

static void glist_release(struct glist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Insert a copy of name at position at (at <= n), listed by side. */
static int glist_insert(struct glist *l, size_t at, const char *name, size_t len, int side,
			struct plumb_err *err)
{
	struct gname *grown = realloc(l->v, (l->n + 1) * sizeof(*grown));

	if (!grown)
		return plumb_err_oom(err, "gbench");
	l->v = grown;
	memmove(&grown[at + 1], &grown[at], (l->n - at) * sizeof(*grown));
	memset(&grown[at], 0, sizeof(*grown));
	if (!(grown[at].name = strndup(name, len))) {
		memmove(&grown[at], &grown[at + 1], (l->n - at) * sizeof(*grown));
		return plumb_err_oom(err, "gbench");
	}
	grown[at].listed[side] = 1;
	l->n++;
	return 0;
}

/* The same family (the name without its arguments). */
static int same_family(const char *a, const char *b)
{
	size_t la = import_gbench_family_len(a);

	return la == import_gbench_family_len(b) && memcmp(a, b, la) == 0;
}

/* Add the names of one side's listing (text, one per line) to l. */
static int merge(struct glist *l, const char *text, size_t len, int side, const char *who,
		 size_t name_max, struct plumb_err *err)
{
	const char *p = text, *end = text + len;
	int r;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t at = l->n, k;
		int found = 0;

		if (n && p[n - 1] == '\r')
			n--;
		if (n == 0) {
			p = nl ? nl + 1 : end;
			continue;
		}
		if (n > name_max || utf8_check(p, n, UTF8_NAME) != UTF8_OK)
			return plumb_err_set(err, PLUMB_EBENCH, "%s listed '%.*s%s', which is no benchmark "
					     "name plumb can keep (1 to %zu bytes of UTF-8 without control "
					     "characters)", who, (int)(n > 60 ? 60 : n), p, n > 60 ? "..." : "",
					     name_max);
		for (k = 0; k < l->n && !found; k++)
			if (strlen(l->v[k].name) == n && memcmp(l->v[k].name, p, n) == 0) {
				if (l->v[k].listed[side])
					return plumb_err_set(err, PLUMB_EBENCH, "%s listed '%.*s' twice",
							     who, (int)n, p);
				l->v[k].listed[side] = 1;
				found = 1;
			}
		if (!found) {
			char *name = strndup(p, n);
			if (!name)
				return plumb_err_oom(err, "gbench");
			/* Beside the last of its family, when another side listed it. */
			for (k = l->n; k > 0; k--)
				if (same_family(l->v[k - 1].name, name)) {
					at = k;
					break;
				}
			free(name);
			if (l->n >= CONFIG_BENCHES_MAX)
				return plumb_err_set(err, PLUMB_EINPUT, "%s lists more than %d benchmarks "
						     "(plumb's limit); choose some with its filter", who,
						     CONFIG_BENCHES_MAX);
			if ((r = glist_insert(l, at, p, n, side, err)) < 0)
				return r;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* Run cb's binary of variant vi with its command and the words args. */
static int run_binary(struct run_state *st, const struct config_bench *cb, size_t vi,
		      const char *const *args, size_t nargs, struct measure_result *m,
		      struct plumb_err *err)
{
	const struct runner_variant *v = &st->build.variants[vi];
	const struct cmdline_var vars[] = { { "artifact", v->artifact } };
	struct measure_spec spec;
	struct cmdline cl;
	struct envlist env;
	char key[CONFIG_BENCH_FULL_NAME_MAX + 32];
	int r;

	snprintf(key, sizeof(key), "bench.%s.command", cb->name);
	memset(&env, 0, sizeof(env));
	if ((r = cmdline_expand(&cl, cb->command, vars, 1, key, err)) < 0)
		return r;
	for (size_t i = 0; i < nargs && r == 0; i++)
		r = cmdline_append(&cl, args[i], key, err);
	if (r == 0)
		r = run_bench_env(st->cfg, cb, &env, err);
	if (r == 0)
		r = envlist_set(&env, "PLUMB_ARTIFACT", v->artifact, err);
	if (r == 0) {
		memset(&spec, 0, sizeof(spec));
		spec.argv = cl.argv;
		spec.env = env.v;
		spec.cwd = st->cwd;
		spec.timeout_ns = (uint64_t)cb->timeout * 1000000000ull;
		spec.samples_fd = -1;
		spec.cpus = st->cfg->run.cpus;
		spec.ncpus = st->cfg->run.ncpus;
		spec.no_aslr = !st->cfg->run.aslr;
		spec.out_cap = RUN_GBENCH_OUT_MAX;
		r = measure_run(&spec, m, err);
	}
	envlist_release(&env);
	cmdline_release(&cl);
	return r;
}

/* The names the binary of variant vi lists for section cb, merged into l as side's. */
static int list_side(struct run_state *st, const struct config_bench *cb, size_t vi, int side,
		     struct glist *l, struct plumb_err *err)
{
	const char *args[2] = { "--benchmark_list_tests=true", NULL };
	struct measure_result m;
	char label[96], who[CONFIG_BENCH_FULL_NAME_MAX + 160];
	struct buf filter;
	size_t name_max = CONFIG_BENCH_FULL_NAME_MAX - strlen(cb->name) - 1, listed = 0;
	int r;

	run_variant_label(st, vi, label, sizeof(label));
	snprintf(who, sizeof(who), "benchmark %s: the Google Benchmark binary of %s", cb->name, label);
	buf_init(&filter, ARG_MAX_BYTES);
	if (cb->filter && buf_printf(&filter, "--benchmark_filter=%s", cb->filter) < 0) {
		buf_release(&filter);
		return buf_err(err, "bench.NAME.filter");
	}
	args[1] = cb->filter ? buf_cstr(&filter) : NULL;
	r = run_binary(st, cb, vi, args, cb->filter ? 2 : 1, &m, err);
	buf_release(&filter);
	if (r < 0) {
		plumb_err_prefix(err, "%s, --benchmark_list_tests", who);
		return r;
	}
	if (m.failed) {
		struct buf q;
		buf_init(&q, 1 << 16);
		if (failed_quote(m.proc.err_mem.data, m.proc.err_mem.len, "its standard error",
				 "  | ", &q) == 0 && q.len) {
			free(st->res->stderr_tail);
			st->res->stderr_tail = buf_detach(&q, NULL);
		}
		buf_release(&q);
		r = plumb_err_set(err, PLUMB_EBENCH, "%s could not list its benchmarks "
				  "(--benchmark_list_tests=true): %s; nothing was published", who, m.why);
	} else {
		r = merge(l, m.proc.out_mem.data ? m.proc.out_mem.data : "", m.proc.out_mem.len, side,
			  who, name_max, err);
	}
	measure_result_release(&m);
	for (size_t k = 0; r == 0 && k < l->n; k++)
		listed += l->v[k].listed[side];
	if (r == 0 && listed == 0 && cb->filter)
		r = plumb_err_set(err, PLUMB_EBENCH, "%s lists no benchmark with "
				  "--benchmark_filter=%s: does bench.%s.filter match none of its "
				  "benchmarks?; nothing was published", who, cb->filter, cb->name);
	else if (r == 0 && listed == 0)
		r = plumb_err_set(err, PLUMB_EBENCH, "%s lists no benchmark (--benchmark_list_tests=true "
				  "printed nothing on standard output); nothing was published", who);
	return r;
}

/* Grow the expanded array by one copy of cb: cb itself (gname NULL), or
 * NAME/gname running Google Benchmark benchmark gname, missing on a side. */
static int add_bench(struct run_gbench *gb, const struct config_bench *cb,
		     const char *gname, const char *missing, struct plumb_err *err)
{
	struct config_bench *grown = realloc(gb->cfg.benches, (gb->cfg.nbenches + 1) * sizeof(*grown));
	char **mgrown;
	struct config_bench *b;

	if (!grown)
		return plumb_err_oom(err, "gbench");
	gb->cfg.benches = grown;
	mgrown = realloc(gb->missing, (gb->cfg.nbenches + 1) * sizeof(*mgrown));
	if (!mgrown)
		return plumb_err_oom(err, "gbench");
	gb->missing = mgrown;
	b = &grown[gb->cfg.nbenches];
	*b = *cb;
	b->name = NULL;
	b->gbench = NULL;
	mgrown[gb->cfg.nbenches] = NULL;
	gb->cfg.nbenches++;
	if (!gname) {
		b->name = cb->name;   /* borrowed, like everything else of a copy */
		return 0;
	}
	/* gbench first: run_gbench_release() frees the name of a bench that has it. */
	if (!(b->gbench = strdup(gname)) || !(b->name = buf_strdupf("%s/%s", cb->name, gname)) ||
	    (missing && !(mgrown[gb->cfg.nbenches - 1] = strdup(missing))))
		return plumb_err_oom(err, "gbench");
	return 0;
}

/* The length of an expanded benchmark's section name (NAME of NAME/gbench). */
static int section_len(const struct config_bench *b)
{
	return (int)(strlen(b->name) - strlen(b->gbench) - 1);
}

/* Expanded names that would share a log member, or make one too long for a bundle. */
static int check_file_ids(const struct plumb_config *cfg, struct plumb_err *err)
{
	char a[CONFIG_BENCH_FILE_ID_MAX + 1], b[CONFIG_BENCH_FILE_ID_MAX + 1];

	for (size_t i = 0; i < cfg->nbenches; i++) {
		if (!cfg->benches[i].gbench)
			continue;
		config_bench_file_id(cfg->benches[i].name, a);
		if (strlen("bench--b00.log") + strlen(a) > LOG_COMPONENT_MAX)
			return plumb_err_set(err, PLUMB_EINPUT, "benchmark %s: a name too long for the "
					     "bundle's log names (%zu bytes as a file name, %d at most); "
					     "leave it out with bench.%.*s.filter", cfg->benches[i].name,
					     strlen(a), LOG_COMPONENT_MAX - (int)strlen("bench--b00.log"),
					     section_len(&cfg->benches[i]), cfg->benches[i].name);
		for (size_t j = 0; j < i; j++) {
			config_bench_file_id(cfg->benches[j].name, b);
			if (strcmp(a, b) == 0)
				return plumb_err_set(err, PLUMB_EINPUT, "benchmarks %s and %s would share "
						     "the log name bench-%s-*.log (characters outside "
						     "A-Z a-z 0-9 . _ - become _); leave one out with "
						     "bench.%.*s.filter", cfg->benches[j].name,
						     cfg->benches[i].name, a, section_len(&cfg->benches[i]),
						     cfg->benches[i].name);
		}
	}
	return 0;
}

/* The plan of each expanded benchmark: its section's (the notes move, once). */
static int replan(struct run_state *st, const size_t *from, struct plumb_err *err)
{
	struct bench_plan *plan = calloc(st->gb.cfg.nbenches ? st->gb.cfg.nbenches : 1, sizeof(*plan));

	if (!plan)
		return plumb_err_oom(err, "plan");
	for (size_t i = 0; i < st->gb.cfg.nbenches; i++) {
		plan[i] = st->plan[from[i]];
		if (st->gb.cfg.benches[i].gbench)
			plan[i].note = NULL;   /* a gbench section's plan has none */
	}
	for (size_t j = 0; j < st->given->nbenches; j++)
		if (st->given->benches[j].mode == CONFIG_MODE_GBENCH)
			free(st->plan[j].note);
	free(st->plan);
	st->plan = plan;
	return 0;
}

int run_gbench_expand(struct run_state *st, struct plumb_err *err)
{
	const struct plumb_config *given = st->given;
	struct run_gbench *gb = &st->gb;
	size_t vi[2] = { run_pad0(&st->build, RUNNER_BASE),
			 run_pad0(&st->build, RUNNER_CANDIDATE) };
	size_t *from = NULL;
	int r = 0, any = 0;

	for (size_t j = 0; j < given->nbenches; j++)
		any |= given->benches[j].mode == CONFIG_MODE_GBENCH;
	if (!any)
		return 0;
	gb->cfg = *given;   /* released by run_gbench_release(), whatever happens */
	gb->cfg.benches = NULL;
	gb->cfg.nbenches = 0;
	for (size_t j = 0; j < given->nbenches && r == 0; j++) {
		const struct config_bench *cb = &given->benches[j];
		size_t first = gb->cfg.nbenches, *grown = NULL;
		struct glist l = { NULL, 0 };

		if (cb->mode != CONFIG_MODE_GBENCH)
			r = add_bench(gb, cb, NULL, NULL, err);
		for (int s = 0; s < 2 && r == 0 && cb->mode == CONFIG_MODE_GBENCH; s++)
			r = list_side(st, cb, vi[s], s, &l, err);
		for (size_t k = 0; k < l.n && r == 0; k++) {
			char missing[200], label[96];
			int only = !l.v[k].listed[RUNNER_BASE] ? RUNNER_BASE :
				   !l.v[k].listed[RUNNER_CANDIDATE] ? RUNNER_CANDIDATE : -1;
			if (only >= 0) {
				run_variant_label(st, vi[only], label, sizeof(label));
				snprintf(missing, sizeof(missing), "only in the %s's binary: %s does not "
					 "list it, so there is nothing to compare it with",
					 only == RUNNER_BASE ? "candidate" : "base", label);
			}
			r = add_bench(gb, cb, l.v[k].name, only >= 0 ? missing : NULL, err);
		}
		if (r == 0 && cb->mode == CONFIG_MODE_GBENCH) {
			struct runner_event_item names[8];
			size_t k;
			for (k = 0; k < l.n && k < 8; k++)
				names[k] = (struct runner_event_item){ l.v[k].name, NULL };
			RUN_TELL(st, .kind = RUNNER_EV_GBENCH_LIST, .subject = cb->name, .n = l.n,
				 .items = names, .nitems = k);
		}
		glist_release(&l);
		if (r == 0 && gb->cfg.nbenches > CONFIG_BENCHES_MAX)
			r = plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d benchmarks with those of "
					  "the Google Benchmark binaries; choose some with bench.NAME.filter",
					  given->file ? given->file : "plumb.conf", CONFIG_BENCHES_MAX);
		if (r == 0 && !(grown = realloc(from, (gb->cfg.nbenches + 1) * sizeof(*from))))
			r = plumb_err_oom(err, "gbench");
		if (r < 0)
			break;
		from = grown;
		for (size_t i = first; i < gb->cfg.nbenches; i++)
			from[i] = j;   /* section j's benchmarks */
	}
	if (r == 0)
		r = check_file_ids(&gb->cfg, err);
	if (r == 0)
		r = run_check_capacity(&gb->cfg, err);
	if (r == 0)
		r = replan(st, from, err);
	free(from);
	if (r == 0)
		st->cfg = &gb->cfg;   /* with its plan: run_state_release() pairs them */
	/* Without --keep-going a benchmark one side lacks stops the run here. */
	for (size_t i = 0; r == 0 && !given->keep_going && i < gb->cfg.nbenches; i++)
		if (gb->missing[i])
			r = plumb_err_set(err, PLUMB_EBENCH, "benchmark %s: %s; leave it out with "
					  "bench.%.*s.filter, or record it and go on with --keep-going; "
					  "nothing was published", gb->cfg.benches[i].name, gb->missing[i],
					  section_len(&gb->cfg.benches[i]), gb->cfg.benches[i].name);
	return r;
}

int run_gbench_missing(struct run_state *st, struct plumb_err *err)
{
	for (size_t i = 0; st->gb.missing && i < st->cfg->nbenches; i++) {
		struct bench_state *b = &st->benches[i];
		if (!st->gb.missing[i])
			continue;
		if (!(b->failure = strdup(st->gb.missing[i])))
			return plumb_err_oom(err, "gbench");
		st->res->failures++;
		RUN_TELL(st, .kind = RUNNER_EV_BENCH_FAILED, .subject = b->cb->name,
			 .text = b->failure);
	}
	return 0;
}

int run_gbench_args(const struct config_bench *cb, struct cmdline *cl, const char *key,
		    struct plumb_err *err)
{
	struct buf filter;
	int r;

	if (!cb->gbench)
		return 0;
	/* The name alone: anchored, its metacharacters escaped (the set both
	 * POSIX extended and ECMAScript expressions read as escapes). */
	buf_init(&filter, ARG_MAX_BYTES);
	r = buf_addstr(&filter, "--benchmark_filter=^");
	for (const char *p = cb->gbench; r == 0 && *p; p++)
		r = (strchr("\\.[()*+?{|^$", *p) ? buf_addch(&filter, '\\') : 0) < 0 ? -1 :
		    buf_addch(&filter, *p);
	if (r == 0)
		r = buf_addch(&filter, '$');
	if (r < 0) {
		buf_release(&filter);
		return buf_err(err, key);
	}
	if ((r = cmdline_append(cl, "--benchmark_format=json", key, err)) == 0 &&
	    (r = cmdline_append(cl, "--benchmark_repetitions=1", key, err)) == 0)
		r = cmdline_append(cl, buf_cstr(&filter), key, err);
	buf_release(&filter);
	return r;
}

/* The median of a series' values (sorted in place). */
static double median_of(struct import_series *s)
{
	return stats_median_inplace(s->value, s->n);
}

static struct import_series *series_of(struct import_entry *e, enum metric_id metric)
{
	for (size_t i = 0; i < e->n_series; i++)
		if (e->series[i].metric == metric && e->series[i].n)
			return &e->series[i];
	return NULL;
}

/* What the binary said besides the values (a debug library, scaling), once per benchmark. */
static int keep_note(struct bench_state *b, const struct import_file *f, const struct import_entry *e,
		     struct plumb_err *err)
{
	struct buf note;
	const struct import_series *w = NULL;
	int r = 0;

	for (size_t i = 0; i < e->n_series; i++)
		if (e->series[i].metric == METRIC_WALL)
			w = &e->series[i];
	if (b->gbench_note || (!f->n_warnings && (!w || w->n < 2)))
		return 0;
	buf_init(&note, 1 << 16);
	for (size_t i = 0; i < f->n_warnings && r == 0; i++) {
		const char *text = f->warnings[i];
		if (strncmp(text, OUTPUT_NAME ": ", strlen(OUTPUT_NAME ": ")) == 0)
			text += strlen(OUTPUT_NAME ": ");
		r = buf_printf(&note, "%s%s", i ? "; " : "", text);
	}
	if (r == 0 && w && w->n >= 2)
		r = buf_printf(&note, "%s%s sets its own repetitions (%zu a run): each round's value "
			       "is their median", note.len ? "; " : "", b->cb->gbench, w->n);
	if (r == 0 && !(b->gbench_note = buf_detach(&note, NULL)))
		r = -1;
	buf_release(&note);
	return r < 0 ? plumb_err_oom(err, "gbench") : 0;
}

int run_gbench_take(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		    const struct measure_result *m, char *why, size_t size, struct plumb_err *err)
{
	const char *out = m->proc.out_mem.data ? m->proc.out_mem.data : "";
	size_t len = m->proc.out_mem.len, i = 0;
	struct import_series *wall, *cpu;
	struct import_entry *e = NULL;
	struct import_file f;
	struct plumb_err perr;
	double w, c;
	int r;

	why[0] = '\0';
	while (i < len && strchr(" \t\r\n", out[i]))
		i++;
	if (i == len || out[i] != '{') {
		snprintf(why, size, "printed no Google Benchmark JSON on standard output (plumb "
			 "appends --benchmark_format=json to the command: does it end with the "
			 "binary's arguments?)");
		return 0;
	}
	plumb_err_clear(&perr);
	r = import_parse_gbench(OUTPUT_NAME, out, len, &f, &perr);
	if (r < 0 && r != PLUMB_EINPUT) {
		import_file_release(&f);
		*err = perr;
		return r;
	}
	if (r < 0) {
		snprintf(why, size, "printed no Google Benchmark JSON: %s", perr.msg);
		import_file_release(&f);
		return 0;
	}
	for (size_t k = 0; k < f.n_entries && !e; k++)
		if (strcmp(f.entries[k].name, b->cb->gbench) == 0)
			e = &f.entries[k];
	wall = e ? series_of(e, METRIC_WALL) : NULL;
	cpu = e ? series_of(e, METRIC_CPU) : NULL;
	if (!e || !wall || !cpu) {
		const char *left = NULL;
		for (size_t k = 0; k < f.n_left && !left; k++)
			if (strcmp(f.left[k].name, b->cb->gbench) == 0)
				left = f.left[k].why;
		if (left)
			snprintf(why, size, "Google Benchmark: %s", left);
		else
			snprintf(why, size, "its Google Benchmark output holds no benchmark '%s'",
				 b->cb->gbench);
		import_file_release(&f);
		return 0;
	}
	r = keep_note(b, &f, e, err);
	w = median_of(wall);
	c = median_of(cpu);
	import_file_release(&f);
	if (r < 0 || round == 0)
		return r;
	if ((r = run_record(st, b, &st->build.variants[vi], round, SAMPLES_ITER_NONE,
			    metric_name(METRIC_WALL), w, err)) < 0)
		return r;
	return run_record(st, b, &st->build.variants[vi], round, SAMPLES_ITER_NONE,
			  metric_name(METRIC_CPU), c, err);
}

void run_gbench_release(struct run_state *st)
{
	struct run_gbench *gb = &st->gb;

	for (size_t i = 0; i < gb->cfg.nbenches; i++) {
		if (gb->cfg.benches[i].gbench) {
			free(gb->cfg.benches[i].name);
			free(gb->cfg.benches[i].gbench);
		}
		if (gb->missing)
			free(gb->missing[i]);
	}
	free(gb->cfg.benches);
	free(gb->missing);
	memset(gb, 0, sizeof(*gb));
	st->cfg = st->given;
}
