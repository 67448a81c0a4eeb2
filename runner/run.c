/*
 * runner/run.c: runner_run(), `plumb run` from plumb.conf to a bundle; see
 * run.h for the schedule and the failure rules.
 *
 * Every value measured goes two ways at once: a row of samples.tsv, written
 * as it comes into the run folder, and a row of the benchmark's analysis
 * (stats/analysis.h), which applies the benchmark's warmup policy per round
 * and reduces rounds to pads to sides to a verdict.  The manifest is built
 * from the build result, the host facts and those analyses, and the bundle
 * is written only once everything succeeded.
 *
 * Isolation (DESIGN §5.3): every benchmark process gets the same explicit
 * environment (the run.env names with plumb's values, plus PLUMB_SAMPLES_FD
 * in samples mode: the same variables with the same sizes in every
 * variant), the same working folder (the one plumb was started in), and an
 * argument vector whose only variant-dependent part, the artifact path, has
 * the same length in every variant.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "runner/build.h"
#include "runner/contain.h"
#include "runner/cmdline.h"
#include "runner/elfsym.h"
#include "runner/envlist.h"
#include "runner/host.h"
#include "runner/measure.h"
#include "runner/perf.h"
#include "runner/run.h"
#include "runner/schedule.h"
#include "stats/analysis.h"
#include "stats/quantile.h"
#include "common/banned.h"

#define SAMPLES_FD 3
#define TAIL_LINES 10
#define BENCH_LOG_BUDGET ((uint64_t)1 << 20)   /* bytes of stderr kept per bench and variant */

static const char *const metric_wall = "wall";


/* ---- per-benchmark state --------------------------------------------------- */

/* The checksum oracle of one side (base with its control, or candidate). */
struct side_ck {
	char value[MEASURE_CHECKSUM_MAX + 1];   /* "" until a run printed one */
	size_t from;                            /* the variant that printed it */
	int none;                               /* a run printed none ... */
	size_t none_from;                       /* ... this variant's */
	int any;                                /* some run was checked */
};

struct bench_log {
	char *path;           /* <run>/log/bench-<name>-<id>.log */
	uint64_t bytes;       /* written so far */
	int used;             /* the file exists */
	int full;             /* the budget was reached (marker written) */
};

struct bench_state {
	const struct config_bench *cb;
	struct cmdline *cl;          /* per variant: the expanded command */
	struct envlist env;
	struct analysis *an;
	struct bench_log *logs;      /* per variant */
	struct side_ck ck[2];        /* RUNNER_BASE, RUNNER_CANDIDATE */
	char *failure;               /* set once it failed (keep-going) */
	unsigned left_runs;          /* runs that left processes running */
	unsigned long left_procs;    /* how many processes, all runs */
};

struct run_state {
	const struct plumb_config *cfg;
	const struct runner_run_opts *opts;
	struct runner_run_result *res;
	struct runner_result build;
	struct bench_state *benches;
	char **labels;               /* per variant: "base/0" ... */
	char cwd[PATH_MAX];
	FILE *tsv;
	char *tsv_path;
	struct samples_writer writer;
	uint64_t tsv_bytes;          /* written to samples.tsv so far */
	int counters;                /* hardware counters are being read */
	char counters_reason[PLUMB_ERR_MAX + 64];
	int counters_broken;         /* they worked, then stopped working */
	uint64_t t0;                 /* start of the first benchmark run */
	uint64_t done, total;
	double load1;
	const char *last_bench, *last_variant;   /* of the last run, for progress */
};

static enum samples_side tsv_side(const struct runner_variant *v)
{
	return v->control ? SAMPLES_CONTROL : v->side == RUNNER_BASE ? SAMPLES_BASE
								     : SAMPLES_CANDIDATE;
}

/* samples.tsv's writer output: counted, so that the run stops before it
 * makes a member larger than a bundle may hold. */
static int tsv_write(void *ctx, const void *data, size_t len, struct plumb_err *err)
{
	struct run_state *st = ctx;

	st->tsv_bytes += len;
	if (st->tsv_bytes > BUNDLE_MAX_MEMBER)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "samples.tsv: more than %llu bytes, more than a bundle member may hold; "
				     "lower run.rounds or the benchmarks' iterations",
				     (unsigned long long)BUNDLE_MAX_MEMBER);
	return samples_write_stdio(st->tsv, data, len, err);
}

/* One value: a row of samples.tsv and a row of the benchmark's analysis. */
static int record(struct run_state *st, struct bench_state *b, const struct runner_variant *v,
		  unsigned round, uint64_t iter, const char *metric, double value,
		  struct plumb_err *err)
{
	struct samples_row row;
	int r;

	memset(&row, 0, sizeof(row));
	row.bench = b->cb->name;
	row.bench_len = strlen(b->cb->name);
	row.side = tsv_side(v);
	row.pad = v->pad;
	row.round = round;
	row.iter = iter;
	row.metric = metric;
	row.metric_len = strlen(metric);
	row.value = value;
	if (st->writer.rows >= SAMPLES_DEFAULT_MAX_ROWS)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "samples.tsv: more than %llu rows, more than a bundle may hold; "
				     "lower run.rounds or the benchmarks' iterations",
				     (unsigned long long)SAMPLES_DEFAULT_MAX_ROWS);
	if ((r = samples_writer_row(&st->writer, &row, err)) < 0)
		return r;
	return analysis_add(b->an, row.bench, row.bench_len, metric, row.metric_len,
			    (enum analysis_side)row.side, v->pad, round,
			    iter == SAMPLES_ITER_NONE ? ANALYSIS_ITER_NONE : iter, value, err);
}

/* "base/2 (b02)" */
static void variant_label(const struct run_state *st, size_t vi, char *out, size_t size)
{
	snprintf(out, size, "%s (%s)", st->labels[vi], st->build.variants[vi].id);
}

/* Append the run's stderr to the bench log of its variant, within the budget. */
static int log_run(struct run_state *st, struct bench_state *b, size_t vi, const char *when,
		   const struct measure_result *m, struct plumb_err *err)
{
	struct bench_log *lg = &b->logs[vi];
	const struct buf *e = &m->proc.err_mem;
	struct buf head;
	char what[PLUMB_ERR_MAX];
	FILE *f;
	int r = 0;

	if (lg->full || (e->len == 0 && !m->failed))
		return 0;
	f = fopen(lg->path, "ae");
	if (!f)
		return plumb_err_errno(err, PLUMB_EIO, errno, lg->path, "open");
	lg->used = 1;
	buf_init(&head, 4096);
	if (m->failed)
		snprintf(what, sizeof(what), "%s", m->why);
	else
		snprintf(what, sizeof(what), "exit status 0");
	if (buf_printf(&head, "plumb: %s, %s (%s): %s, %.3f ms\n", b->cb->name, st->labels[vi],
		       when, what, (double)m->proc.wall_ns / 1e6) < 0) {
		r = buf_err(err, lg->path);
	} else if (lg->bytes + head.len + e->len > BENCH_LOG_BUDGET) {
		fprintf(f, "plumb: further standard error of this variant is not kept (budget %llu bytes)\n",
			(unsigned long long)BENCH_LOG_BUDGET);
		lg->full = 1;
	} else {
		fwrite(head.data, 1, head.len, f);
		if (e->len) {
			fwrite(e->data, 1, e->len, f);
			if (e->data[e->len - 1] != '\n')
				fputc('\n', f);
		}
		lg->bytes += head.len + e->len + 1;
	}
	buf_release(&head);
	if (fclose(f) != 0 && r == 0)
		r = plumb_err_errno(err, PLUMB_EIO, errno, lg->path, "write");
	return r;
}

/*
 * A failed run: without --keep-going, the error (and the stderr tail in the
 * result); with it, the benchmark's failure text.
 */
static int bench_fail(struct run_state *st, struct bench_state *b, size_t vi,
		      const char *when, const char *why, const struct measure_result *m,
		      struct plumb_err *err)
{
	char label[96];
	char *text;

	variant_label(st, vi, label, sizeof(label));
	text = buf_strdupf("%s failed in %s: %s", label, when, why);
	if (!text)
		return plumb_err_oom(err, "failure");
	if (m) {
		struct buf tail;
		buf_init(&tail, 1 << 16);
		if (measure_stderr_tail(m, TAIL_LINES, "  | ", &tail) == 0 && tail.len) {
			free(st->res->stderr_tail);
			st->res->stderr_tail = buf_detach(&tail, NULL);
		}
		buf_release(&tail);
	}
	if (!st->cfg->keep_going) {
		plumb_err_set(err, PLUMB_EBENCH, "benchmark %s: %s; nothing was published",
			      b->cb->name, text);
		free(text);
		return PLUMB_EBENCH;
	}
	b->failure = text;
	st->res->failures++;
	if (st->opts->log) {
		char *line = buf_strdupf("benchmark %s: %s; recorded, going on (--keep-going)",
				     b->cb->name, text);
		if (line)
			st->opts->log(st->opts->ctx, line);
		free(line);
	}
	return 0;
}

/* The checksum oracle after one run; a non-empty *why on a mismatch. */
static void check_checksum(struct run_state *st, struct bench_state *b, size_t vi,
			   const struct measure_result *m, char *why, size_t size)
{
	const struct runner_variant *v = &st->build.variants[vi];
	struct side_ck *ck = &b->ck[v->side];
	char a[96], o[96];

	why[0] = '\0';
	if (b->cb->checksum == CONFIG_CHECKSUM_OFF)
		return;
	if (m->checksum_conflict) {
		snprintf(why, size, "printed two different checksums in one run: %s and %s",
			 m->checksum, m->other_checksum);
		return;
	}
	if (!m->checksum[0] && b->cb->checksum == CONFIG_CHECKSUM_REQUIRED) {
		snprintf(why, size, "printed no checksum= line (bench.%s.checksum = required)",
			 b->cb->name);
		return;
	}
	variant_label(st, vi, a, sizeof(a));
	if (!m->checksum[0]) {
		if (ck->value[0]) {
			variant_label(st, ck->from, o, sizeof(o));
			snprintf(why, size, "checksum mismatch within %s: %s printed none, %s printed %s",
				 runner_side_name(v->side), a, o, ck->value);
			return;
		}
		if (!ck->none) {
			ck->none = 1;
			ck->none_from = vi;
		}
		ck->any = 1;
		return;
	}
	if (ck->none) {
		variant_label(st, ck->none_from, o, sizeof(o));
		snprintf(why, size, "checksum mismatch within %s: %s printed %s, %s printed none",
			 runner_side_name(v->side), a, m->checksum, o);
		return;
	}
	if (ck->value[0] && strcmp(ck->value, m->checksum) != 0) {
		variant_label(st, ck->from, o, sizeof(o));
		snprintf(why, size, "checksum mismatch within %s: %s printed %s, %s printed %s",
			 runner_side_name(v->side), o, ck->value, a, m->checksum);
		return;
	}
	if (!ck->value[0]) {
		snprintf(ck->value, sizeof(ck->value), "%s", m->checksum);
		ck->from = vi;
	}
	ck->any = 1;
}

/* The rows of one measured run. */
static int record_run(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		      const struct measure_result *m, struct plumb_err *err)
{
	const struct runner_variant *v = &st->build.variants[vi];
	const char *names[PERF_NCOUNTERS] = { "cycles", "instructions", "branch-misses" };
	int samples = b->cb->mode == CONFIG_MODE_SAMPLES;
	double per = 1.0;
	int r;

	if (samples) {
		for (size_t i = 0; i < m->nsamples; i++)
			if ((r = record(st, b, v, round, i, metric_wall, m->samples[i], err)) < 0)
				return r;
		per = m->nsamples ? 1.0 / (double)m->nsamples : 0;
	} else {
		double value = (double)m->proc.wall_ns;
		if ((r = record(st, b, v, round, SAMPLES_ITER_NONE, metric_wall, value, err)) < 0)
			return r;
	}
	if ((r = record(st, b, v, round, SAMPLES_ITER_NONE, "cpu",
			(double)(m->proc.user_ns + m->proc.sys_ns), err)) < 0 ||
	    (r = record(st, b, v, round, SAMPLES_ITER_NONE, "user", (double)m->proc.user_ns, err)) < 0 ||
	    (r = record(st, b, v, round, SAMPLES_ITER_NONE, "sys", (double)m->proc.sys_ns, err)) < 0 ||
	    (r = record(st, b, v, round, SAMPLES_ITER_NONE, "maxrss",
			(double)m->proc.maxrss_kb * 1024.0, err)) < 0)
		return r;
	if (st->counters && !st->counters_broken && per > 0)
		for (int i = 0; i < PERF_NCOUNTERS; i++)
			if (m->counts.have[i] &&
			    (r = record(st, b, v, round, SAMPLES_ITER_NONE, names[i],
					m->counts.value[i] * per, err)) < 0)
				return r;
	return 0;
}

/* Run bench b on variant vi once; round 0 is a warmup run (pass `pass`). */
static int run_one(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		   unsigned pass, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const struct config_bench *cb = b->cb;
	struct measure_spec spec;
	struct measure_result m;
	char when[64], why[PLUMB_ERR_MAX];
	int r;

	if (round == 0)
		snprintf(when, sizeof(when), "warmup run %u", pass);
	else
		snprintf(when, sizeof(when), "round %u", round);
	memset(&spec, 0, sizeof(spec));
	spec.argv = b->cl[vi].argv;
	spec.env = b->env.v;
	spec.cwd = st->cwd;
	spec.timeout_ns = (uint64_t)cb->timeout * 1000000000ull;
	spec.samples_fd = cb->mode == CONFIG_MODE_SAMPLES ? SAMPLES_FD : -1;
	spec.max_samples = cb->max_samples;
	spec.checksum = cb->checksum != CONFIG_CHECKSUM_OFF;
	spec.cpus = cfg->run.cpus;
	spec.ncpus = cfg->run.ncpus;
	spec.no_aslr = !cfg->run.aslr;
	if (st->counters && !st->counters_broken) {
		spec.events = perf_hw_events;
		spec.nevents = PERF_NCOUNTERS;
	}
	r = measure_run(&spec, &m, err);
	st->res->runs++;
	if (r < 0) {
		plumb_err_prefix(err, "benchmark %s, %s, %s", cb->name, st->labels[vi], when);
		goto out;
	}
	if ((r = log_run(st, b, vi, when, &m, err)) < 0)
		goto out;
	if (m.proc.left_behind) {
		/* Said once per benchmark here, counted in the bundle's notes. */
		if (!b->left_runs++ && st->opts->log) {
			char *line = buf_strdupf("benchmark %s: %s, %s, left %u process%s running; "
						 "killed (so is every run's leftover)", cb->name,
						 st->labels[vi], when, m.proc.left_behind,
						 m.proc.left_behind == 1 ? "" : "es");
			if (line)
				st->opts->log(st->opts->ctx, line);
			free(line);
		}
		b->left_procs += m.proc.left_behind;
	}
	if (m.failed) {
		r = bench_fail(st, b, vi, when, m.why, &m, err);
		goto out;
	}
	if (cb->mode == CONFIG_MODE_SAMPLES && m.nsamples == 0) {
		r = bench_fail(st, b, vi, when, "wrote no samples to PLUMB_SAMPLES_FD (samples mode)", &m, err);
		goto out;
	}
	if (spec.nevents && m.counters_error[0]) {
		/* The probe said yes, this run said no: no counts from here on. */
		st->counters_broken = 1;
		snprintf(st->counters_reason, sizeof(st->counters_reason),
			 "counting stopped during the run: %s", m.counters_error);
		if (cb->metric == CONFIG_METRIC_CYCLES || cb->metric == CONFIG_METRIC_INSTRUCTIONS) {
			r = bench_fail(st, b, vi, when, st->counters_reason, NULL, err);
			goto out;
		}
	}
	check_checksum(st, b, vi, &m, why, sizeof(why));
	if (why[0]) {
		r = bench_fail(st, b, vi, when, why, NULL, err);
		goto out;
	}
	if (round > 0) {
		if (cb->metric == CONFIG_METRIC_CYCLES || cb->metric == CONFIG_METRIC_INSTRUCTIONS) {
			int k = cb->metric == CONFIG_METRIC_CYCLES ? PERF_CYCLES : PERF_INSTRUCTIONS;
			/* The value itself is one of record_run()'s counter rows. */
			if (!m.counts.have[k]) {
				r = bench_fail(st, b, vi, when, "the counter did not run (no value)", NULL, err);
				goto out;
			}
		}
		if ((r = record_run(st, b, vi, round, &m, err)) < 0)
			goto out;
	}
	r = 0;
out:
	measure_result_release(&m);
	if (r == 0 && cleanup_signal_pending())
		r = plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d", cleanup_signal_pending());
	return r;
}

/*
 * After a run (b and vi set: counted) or at the end of a round or warmup
 * pass (b NULL: round_done, the last run's names repeated).
 */
static void progress(struct run_state *st, int warmup, unsigned round, unsigned rounds,
		     const struct bench_state *b, size_t vi)
{
	struct runner_progress p;

	if (b) {
		st->done++;
		st->last_bench = b->cb->name;
		st->last_variant = st->labels[vi];
	}
	if (!st->opts->progress || !st->last_bench)
		return;
	memset(&p, 0, sizeof(p));
	p.warmup = warmup;
	p.round = round;
	p.rounds = rounds;
	p.bench = st->last_bench;
	p.variant = st->last_variant;
	p.round_done = b == NULL;
	p.done = st->done;
	p.total = st->total;
	p.elapsed_ns = clock_now_ns() - st->t0;
	p.load1 = st->load1;
	st->opts->progress(st->opts->ctx, &p);
}

/* Benchmarks still running. */
static size_t live_benches(const struct run_state *st)
{
	size_t n = 0;

	for (size_t i = 0; i < st->cfg->nbenches; i++)
		n += st->benches[i].failure == NULL;
	return n;
}

/* A failed benchmark drops its remaining runs from the plan. */
static void replan(struct run_state *st, unsigned rounds_left, unsigned passes_left)
{
	size_t nv = st->build.nvariants;
	uint64_t left = (uint64_t)(rounds_left + passes_left) * nv * live_benches(st);

	st->total = st->done + left;
}

/* ---- set-up ------------------------------------------------------------------ */

/* The benchmarks' environment: run.env from plumb's own, plus the samples fd. */
static int bench_env(const struct plumb_config *cfg, const struct config_bench *cb,
		     struct envlist *env, struct plumb_err *err)
{
	int r;

	if ((r = envlist_init(env, err)) < 0)
		return r;
	for (size_t i = 0; i < cfg->run.nenv; i++) {
		const char *v = getenv(cfg->run.env[i]);
		if (v && (r = envlist_set(env, cfg->run.env[i], v, err)) < 0)
			return r;
	}
	if (cb->mode == CONFIG_MODE_SAMPLES) {
		char fd[16];
		snprintf(fd, sizeof(fd), "%d", SAMPLES_FD);
		if ((r = envlist_set(env, "PLUMB_SAMPLES_FD", fd, err)) < 0)
			return r;
	}
	return 0;
}

static void opts_for(const struct config_bench *cb, struct analysis_opts *o)
{
	analysis_opts_default(o);
	switch (cb->warmup) {
	case CONFIG_WARMUP_AUTO:
		o->warmup.kind = STATS_WARMUP_AUTO;
		break;
	case CONFIG_WARMUP_COUNT:
		o->warmup.kind = STATS_WARMUP_FIXED;
		o->warmup.discard = (size_t)cb->warmup_count;
		break;
	case CONFIG_WARMUP_NONE:
		o->warmup.kind = STATS_WARMUP_NONE;
		break;
	}
}

static int bench_setup(struct run_state *st, struct bench_state *b,
		       const struct config_bench *cb, struct plumb_err *err)
{
	size_t nv = st->build.nvariants;
	struct analysis_opts ao;
	int r;

	b->cb = cb;
	b->cl = calloc(nv, sizeof(*b->cl));
	b->logs = calloc(nv, sizeof(*b->logs));
	if (!b->cl || !b->logs)
		return plumb_err_oom(err, "benchmarks");
	for (size_t i = 0; i < nv; i++) {
		const struct runner_variant *v = &st->build.variants[i];
		const struct cmdline_var vars[] = { { "artifact", v->artifact } };
		char key[128];
		snprintf(key, sizeof(key), "bench.%s.command", cb->name);
		if ((r = cmdline_expand(&b->cl[i], cb->command, vars, 1, key, err)) < 0)
			return r;
		b->logs[i].path = buf_strdupf("%s/log/bench-%s-%s.log", st->build.run_dir, cb->name, v->id);
		if (!b->logs[i].path)
			return plumb_err_oom(err, "benchmarks");
	}
	if ((r = bench_env(st->cfg, cb, &b->env, err)) < 0)
		return r;
	opts_for(cb, &ao);
	b->an = analysis_new(&ao, err);
	return b->an ? 0 : PLUMB_EINTERNAL;
}

static void bench_release(struct bench_state *b, size_t nv)
{
	if (b->cl)
		for (size_t i = 0; i < nv; i++)
			cmdline_release(&b->cl[i]);
	free(b->cl);
	if (b->logs)
		for (size_t i = 0; i < nv; i++)
			free(b->logs[i].path);
	free(b->logs);
	envlist_release(&b->env);
	if (b->an)
		analysis_free(b->an);
	free(b->failure);
}

static void build_log(void *ctx, const char *line)
{
	const struct runner_run_opts *o = ctx;

	if (o->log)
		o->log(o->ctx, line);
}

int runner_default_output(const char *base, const char *candidate, int64_t unix_time,
			  struct buf *out)
{
	const char *refs[2] = { base, candidate };
	char stamp[32] = "19700101T000000Z";
	time_t t = (time_t)unix_time;
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (buf_addstr(out, "plumb-") < 0)
		return -1;
	for (int s = 0; s < 2; s++) {
		for (const char *p = refs[s]; *p; p++) {
			char c = *p;
			int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				 (c >= '0' && c <= '9') || c == '.' || c == '_';
			if (buf_addch(out, ok ? c : '_') < 0)
				return -1;
		}
		if (buf_addch(out, '-') < 0)
			return -1;
	}
	return buf_printf(out, "%s.plumb", stamp);
}

/* ---- the manifest ------------------------------------------------------------ */

static int set(char **slot, const char *s, struct plumb_err *err)
{
	if (manifest_set_str(slot, s) < 0)
		return plumb_err_oom(err, "manifest");
	return 0;
}

static int fill_commit(struct manifest_commit *c, const struct checkout_side *s,
		       struct plumb_err *err)
{
	char t[MANIFEST_TIME_MAX];
	int r;

	if ((r = set(&c->ref, s->ref, err)) < 0 ||
	    (r = set(&c->commit, s->commit[0] ? s->commit : NULL, err)) < 0 ||
	    (r = set(&c->tree, s->tree[0] ? s->tree : NULL, err)) < 0 ||
	    (r = set(&c->subject, s->subject, err)) < 0 ||
	    (r = set(&c->author, s->author, err)) < 0)
		return r;
	if (s->commit[0] && manifest_time_format(s->time, t) == 0 && (r = set(&c->time, t, err)) < 0)
		return r;
	c->dirty = s->dirty ? 1 : 0;
	return 0;
}

/* The variants with their artifacts and the checked symbols' bytes. */
static int fill_variants(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	const struct runner_result *b = &st->build;
	int r;

	for (size_t i = 0; i < b->nvariants; i++) {
		const struct runner_variant *v = &b->variants[i];
		struct manifest_variant *mv;
		struct elf_image *img = NULL;
		mv = manifest_add_variant(m, v->control ? MANIFEST_SIDE_CONTROL :
					  v->side == RUNNER_BASE ? MANIFEST_SIDE_BASE :
					  MANIFEST_SIDE_CANDIDATE, v->pad, err);
		if (!mv)
			return PLUMB_EINTERNAL;
		if ((r = set(&mv->artifact_path, st->cfg->build.artifact, err)) < 0 ||
		    (r = set(&mv->artifact_sha256, v->sha256, err)) < 0)
			return r;
		mv->artifact_size = (int64_t)v->size;
		mv->build_ns = (int64_t)v->build_ns;
		if (!v->elf || !v->addr)
			continue;
		if ((r = elf_image_open(v->elf, &img, err)) < 0)
			return r;
		mv->hot = calloc(b->nsymbols, sizeof(*mv->hot));
		if (!mv->hot) {
			elf_image_free(img);
			return plumb_err_oom(err, "manifest");
		}
		for (size_t k = 0; k < b->nsymbols; k++) {
			struct manifest_hot_symbol *h = &mv->hot[mv->n_hot];
			struct elf_symbol sym;
			if (elf_image_symbol(img, b->symbols[k], &sym, err) != 1)
				continue;
			h->name = strdup(b->symbols[k]);
			if (!h->name) {
				elf_image_free(img);
				return plumb_err_oom(err, "manifest");
			}
			mv->n_hot++;
			h->address = (int64_t)sym.addr;
			h->size = (int64_t)sym.size;
			if (sym.bytes) {
				unsigned char d[crypto_hash_sha256_BYTES];
				char hex[2 * crypto_hash_sha256_BYTES + 1];
				crypto_hash_sha256(d, sym.bytes, (unsigned long long)sym.nbytes);
				sodium_bin2hex(hex, sizeof(hex), d, sizeof(d));
				if ((r = set(&h->sha256, hex, err)) < 0) {
					elf_image_free(img);
					return r;
				}
			}
		}
		elf_image_free(img);
	}
	return 0;
}

static enum manifest_verdict verdict_of(enum stats_verdict v)
{
	switch (v) {
	case STATS_VERDICT_SLOWER: return MANIFEST_VERDICT_SLOWER;
	case STATS_VERDICT_FASTER: return MANIFEST_VERDICT_FASTER;
	case STATS_VERDICT_UNSWEPT: return MANIFEST_VERDICT_UNSWEPT;
	case STATS_VERDICT_INSUFFICIENT: return MANIFEST_VERDICT_INSUFFICIENT;
	default: return MANIFEST_VERDICT_PLACEMENT;
	}
}

static const struct analysis_result *find_result(const struct analysis *a, const char *metric)
{
	for (size_t i = 0; i < analysis_count(a); i++) {
		const struct analysis_result *r = analysis_get(a, i);
		if (strcmp(r->metric, metric) == 0)
			return r;
	}
	return NULL;
}

static int fill_side(struct manifest_side_stats *s, const struct analysis_side_result *as,
		     int samples, struct plumb_err *err)
{
	double *scratch;

	if (as->npads == 0)
		return 0;
	s->present = 1;
	s->pads = calloc(as->npads, sizeof(*s->pads));
	scratch = calloc(as->npads, sizeof(*scratch));
	if (!s->pads || !scratch) {
		free(scratch);
		return plumb_err_oom(err, "manifest");
	}
	s->n_pads = as->npads;
	for (size_t k = 0; k < as->npads; k++)
		s->pads[k] = as->pads[k].median;
	s->center = as->summary.center;
	s->min = as->summary.min;
	s->max = as->summary.max;
	if (as->summary.has_spread)
		s->spread = as->summary.spread;
	s->rounds = (int64_t)as->summary.min_rounds;
	if (samples) {
		for (size_t k = 0; k < as->npads; k++)
			scratch[k] = as->pads[k].p99;
		s->p99 = stats_median_inplace(scratch, as->npads);
		for (size_t k = 0; k < as->npads; k++)
			scratch[k] = as->pads[k].co_p99;
		s->co_p99 = stats_median_inplace(scratch, as->npads);
	}
	free(scratch);
	return 0;
}

/* The median index of the first kept sample over the settled rounds. */
static double steady_start(const struct analysis_result *ar)
{
	size_t n = 0, k = 0;
	double *v, med = NAN;

	for (int s = 0; s < ANALYSIS_SIDES; s++)
		for (size_t p = 0; p < ar->side[s].npads; p++)
			n += ar->side[s].pads[p].nrounds;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return NAN;
	for (int s = 0; s < ANALYSIS_SIDES; s++)
		for (size_t p = 0; p < ar->side[s].npads; p++)
			for (size_t q = 0; q < ar->side[s].pads[p].nrounds; q++) {
				const struct analysis_iter *it = ar->side[s].pads[p].rounds[q].iter;
				if (it && it->warm.steady)
					v[k++] = (double)it->warm.start;
			}
	if (k)
		med = stats_median_inplace(v, k);
	free(v);
	return med;
}

static int add_note(struct manifest_bench *mb, const char *text, struct plumb_err *err)
{
	char **nv = realloc(mb->notes, (mb->n_notes + 1) * sizeof(*nv));

	if (!nv)
		return plumb_err_oom(err, "manifest");
	mb->notes = nv;
	if (!(nv[mb->n_notes] = strdup(text)))
		return plumb_err_oom(err, "manifest");
	mb->n_notes++;
	return 0;
}

static int fill_bench(struct run_state *st, struct bench_state *b, struct manifest *m,
		      struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	const struct runner_result *br = &st->build;
	struct manifest_bench *mb = manifest_add_bench(m, cb->name, err);
	const struct analysis_result *ar;
	const char *metric = config_metric_name(cb->metric);
	int samples = cb->mode == CONFIG_MODE_SAMPLES, r;

	if (!mb)
		return PLUMB_EINTERNAL;
	mb->mode = samples ? MANIFEST_MODE_SAMPLES : MANIFEST_MODE_PROCESS;
	mb->metric = (enum manifest_metric)cb->metric;
	if (b->left_runs) {
		char note[200];
		snprintf(note, sizeof(note), "%u run%s left processes running (%lu in all); "
			 "plumb killed them as each run ended", b->left_runs,
			 b->left_runs == 1 ? "" : "s", b->left_procs);
		if ((r = add_note(mb, note, err)) < 0)
			return r;
	}
	if (b->failure)
		return set(&mb->failure, b->failure, err);
	if ((r = analysis_finish(b->an, err)) < 0) {
		char text[PLUMB_ERR_MAX];
		snprintf(text, sizeof(text), "%s", err->msg);
		plumb_err_clear(err);
		if (!st->cfg->keep_going)
			return plumb_err_set(err, PLUMB_EBENCH, "benchmark %s: %s; nothing was published",
					     cb->name, text);
		st->res->failures++;
		return set(&mb->failure, text, err);
	}
	ar = find_result(b->an, metric);
	if (!ar)
		return plumb_err_set(err, PLUMB_EINTERNAL, "benchmark %s: no %s values", cb->name, metric);
	if ((r = fill_side(&mb->base, &ar->side[ANALYSIS_BASE], samples, err)) < 0 ||
	    (r = fill_side(&mb->candidate, &ar->side[ANALYSIS_CANDIDATE], samples, err)) < 0 ||
	    (r = fill_side(&mb->control, &ar->side[ANALYSIS_CONTROL], samples, err)) < 0)
		return r;
	if (ar->verdict.has_ratio)
		mb->ratio = ar->verdict.ratio;
	mb->verdict = verdict_of(ar->verdict.verdict);
	if (mb->verdict == MANIFEST_VERDICT_UNSWEPT)
		mb->direction = ar->verdict.direction == STATS_DIR_SLOWER ? MANIFEST_DIRECTION_SLOWER
									  : MANIFEST_DIRECTION_FASTER;
	if (ar->noise.has) {
		mb->noise.present = 1;
		mb->noise.relative = ar->noise.noise;
		mb->noise.too_noisy = ar->noise.noisy ? 1 : 0;
	}
	/* Counters: the center over pads of each side. */
	if (st->counters && !st->counters_broken) {
		static const char *const names[PERF_NCOUNTERS] = { "cycles", "instructions", "branch-misses" };
		struct manifest_side_stats *sides[3] = { &mb->base, &mb->candidate, &mb->control };
		for (int i = 0; i < PERF_NCOUNTERS; i++) {
			const struct analysis_result *cr = find_result(b->an, names[i]);
			if (!cr)
				continue;
			for (int s = 0; s < ANALYSIS_SIDES; s++) {
				double *slot;
				if (!sides[s]->present || cr->side[s].npads == 0)
					continue;
				slot = i == PERF_CYCLES ? &sides[s]->counters.cycles :
				       i == PERF_INSTRUCTIONS ? &sides[s]->counters.instructions :
				       &sides[s]->counters.branch_misses;
				*slot = cr->side[s].summary.center;
				sides[s]->counters.present = 1;
			}
		}
	}
	/* Hot code of this benchmark's symbols. */
	if (cb->nhot && br->nhot) {
		mb->hot.present = 1;
		mb->hot.identical = 1;
		mb->hot.symbols = calloc(cb->nhot, sizeof(*mb->hot.symbols));
		if (!mb->hot.symbols)
			return plumb_err_oom(err, "manifest");
		for (size_t k = 0; k < cb->nhot; k++)
			for (size_t h = 0; h < br->nhot; h++) {
				struct manifest_hot_cmp *hc;
				if (strcmp(br->hot[h].symbol, cb->hot[k]) != 0)
					continue;
				hc = &mb->hot.symbols[mb->hot.n_symbols++];
				if (!(hc->name = strdup(cb->hot[k])))
					return plumb_err_oom(err, "manifest");
				hc->identical = br->hot[h].cmp.verdict == HOTCODE_IDENTICAL;
				if ((r = set(&hc->verdict, hotcode_verdict_name(br->hot[h].cmp.verdict), err)) < 0)
					return r;
				if (!hc->identical)
					mb->hot.identical = 0;
			}
		if (mb->hot.n_symbols == 0)
			mb->hot.present = 0;
	}
	/* The checksum oracle. */
	if (cb->checksum != CONFIG_CHECKSUM_OFF && (b->ck[0].value[0] || b->ck[1].value[0])) {
		mb->checksum.present = 1;
		mb->checksum.consistent = 1;
		if ((r = set(&mb->checksum.base, b->ck[0].value[0] ? b->ck[0].value : NULL, err)) < 0 ||
		    (r = set(&mb->checksum.candidate, b->ck[1].value[0] ? b->ck[1].value : NULL, err)) < 0)
			return r;
		if (strcmp(b->ck[0].value, b->ck[1].value) != 0) {
			char note[400];
			snprintf(note, sizeof(note), "behaviour changed: base printed checksum=%s, candidate checksum=%s",
				 b->ck[0].value[0] ? b->ck[0].value : "(none)",
				 b->ck[1].value[0] ? b->ck[1].value : "(none)");
			if ((r = add_note(mb, note, err)) < 0)
				return r;
		}
	}
	/* The steady-state detector (samples mode, warmup auto). */
	if (samples && cb->warmup == CONFIG_WARMUP_AUTO) {
		const struct analysis_opts *o = analysis_options(b->an);
		mb->steady.present = 1;
		mb->steady.window = (int64_t)o->warmup.window;
		mb->steady.tolerance = o->warmup.tolerance;
		mb->steady.unsettled = (int64_t)ar->unsteady_rounds;
		mb->steady.start = steady_start(ar);
		if (ar->unsteady_rounds) {
			char note[200];
			snprintf(note, sizeof(note), "%zu round%s never reached a steady state (kept whole, flagged)",
				 ar->unsteady_rounds, ar->unsteady_rounds == 1 ? "" : "s");
			if ((r = add_note(mb, note, err)) < 0)
				return r;
		}
	}
	if (mb->noise.present && mb->noise.too_noisy &&
	    (r = add_note(mb, "the control differs from base pad 0 by more than half the base spread: the host is too noisy for this benchmark", err)) < 0)
		return r;
	return 0;
}

static int fill_labels(const struct plumb_config *cfg, struct manifest *m, struct plumb_err *err)
{
	if (cfg->run.nlabels == 0)
		return 0;
	m->run.labels = calloc(cfg->run.nlabels, sizeof(*m->run.labels));
	if (!m->run.labels)
		return plumb_err_oom(err, "manifest");
	for (size_t i = 0; i < cfg->run.nlabels; i++) {
		m->run.labels[i].key = strdup(cfg->run.labels[i].key);
		m->run.labels[i].value = strdup(cfg->run.labels[i].value);
		m->run.n_labels++;
		if (!m->run.labels[i].key || !m->run.labels[i].value)
			return plumb_err_oom(err, "manifest");
	}
	return 0;
}

static const char *warmup_policy(const struct plumb_config *cfg, char *buf, size_t size)
{
	for (size_t i = 0; i < cfg->nbenches; i++) {
		const struct config_bench *cb = &cfg->benches[i];
		if (cb->mode != CONFIG_MODE_SAMPLES)
			continue;
		if (cb->warmup == CONFIG_WARMUP_AUTO)
			return "auto";
		if (cb->warmup == CONFIG_WARMUP_NONE)
			return "none";
		snprintf(buf, size, "%llu", (unsigned long long)cb->warmup_count);
		return buf;
	}
	return "none";
}

/* ---- the stage ----------------------------------------------------------------- */

/*
 * The manifest grows with every round (run.order, run.conditions) and
 * with every variant and hot symbol; a bundle holds a manifest of at most
 * BUNDLE_MAX_MANIFEST bytes and BUNDLE_MAX_JSON_VALUES values.  Checked
 * before anything is built, with generous per-item sizes, so that a long
 * run cannot end in a bundle that cannot be written.
 */
/* The bundle's folder must exist and be writable; an existing file is replaced. */
static int check_output(const char *path, int given, struct plumb_err *err)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct stat st;

	if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	else
		snprintf(dir, sizeof(dir), ".");
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EUSAGE, "%s%s: is a folder, not a bundle file",
				     given ? "-o: " : "", path);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EUSAGE, "%s%s: no folder %s to write the bundle in",
				     given ? "-o: " : "", path, dir);
	if (access(dir, W_OK | X_OK) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "cannot write the bundle there");
	return 0;
}

static int check_capacity(const struct plumb_config *cfg, struct plumb_err *err)
{
	uint64_t nv = 2 * (uint64_t)cfg->run.pads + (cfg->run.control ? 1 : 0);
	uint64_t nsym = 0, bytes, values, per_bytes, per_values, most;

	for (size_t i = 0; i < cfg->nbenches; i++)
		nsym += cfg->benches[i].nhot;
	if (nsym == 0)
		nsym = 1;   /* main, for the shift check */
	bytes = 64 * 1024 + cfg->nbenches * (8 * 1024 + nsym * 160) + nv * (600 + nsym * 260);
	values = 2000 + cfg->nbenches * (120 + nsym * 6) + nv * (20 + nsym * 6);
	per_bytes = 24 + nv * 24 + 160;
	per_values = nv + 12;
	if (bytes >= BUNDLE_MAX_MANIFEST || values >= BUNDLE_MAX_JSON_VALUES)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "run.pads: %llu variants with %llu hot symbols make a manifest larger than a bundle may hold",
				     (unsigned long long)nv, (unsigned long long)nsym);
	most = (BUNDLE_MAX_MANIFEST - bytes) / per_bytes;
	if ((BUNDLE_MAX_JSON_VALUES - values) / per_values < most)
		most = (BUNDLE_MAX_JSON_VALUES - values) / per_values;
	if (cfg->run.rounds > most)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "run.rounds: %u rounds of %llu variants make a manifest larger than a bundle may hold "
				     "(%llu bytes, %u JSON values); at most %llu rounds fit",
				     cfg->run.rounds, (unsigned long long)nv,
				     (unsigned long long)BUNDLE_MAX_MANIFEST, BUNDLE_MAX_JSON_VALUES,
				     (unsigned long long)most);
	return 0;
}

static int host_json(struct host_facts *hf, json_t **out, struct plumb_err *err)
{
	*out = host_facts_to_json(hf);
	if (!*out)
		return plumb_err_oom(err, "host facts");
	return 0;
}

static int time_now(char out[MANIFEST_TIME_MAX])
{
	return manifest_time_format((int64_t)time(NULL), out);
}

/* Warmup runs and rounds. */
static int measure_all(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	size_t nv = st->build.nvariants, nb = cfg->nbenches;
	struct schedule sched;
	size_t *perm = NULL;
	int r = 0;

	perm = calloc(nv, sizeof(*perm));
	m->run.order = calloc(cfg->run.rounds, sizeof(*m->run.order));
	m->run.conditions = calloc(cfg->run.rounds, sizeof(*m->run.conditions));
	if (!perm || !m->run.order || !m->run.conditions) {
		free(perm);
		return plumb_err_oom(err, "schedule");
	}
	st->total = (uint64_t)(cfg->run.warmup_runs + cfg->run.rounds) * nv * nb;
	st->t0 = clock_now_ns();
	st->load1 = -1;

	for (unsigned w = 1; w <= cfg->run.warmup_runs && r == 0; w++) {
		for (size_t vi = 0; vi < nv && r == 0; vi++)
			for (size_t bi = 0; bi < nb && r == 0; bi++) {
				struct bench_state *b = &st->benches[bi];
				if (b->failure)
					continue;
				r = run_one(st, b, vi, 0, w, err);
				if (r == 0 && b->failure)
					replan(st, cfg->run.rounds, cfg->run.warmup_runs - w);
				if (r == 0)
					progress(st, 1, w, cfg->run.warmup_runs, b, vi);
			}
		if (r == 0)
			progress(st, 1, w, cfg->run.warmup_runs, NULL, 0);
	}

	schedule_init(&sched, cfg->run.seed, nv);
	for (unsigned round = 1; round <= cfg->run.rounds && r == 0; round++) {
		struct manifest_round *ord = &m->run.order[round - 1];
		struct manifest_condition *c = &m->run.conditions[round - 1];
		struct host_round hr;

		schedule_next(&sched, perm);
		ord->variants = calloc(nv, sizeof(*ord->variants));
		if (!ord->variants) {
			r = plumb_err_oom(err, "schedule");
			break;
		}
		for (size_t k = 0; k < nv; k++)
			ord->variants[k] = perm[k];
		ord->n = nv;
		m->run.n_order = round;
		manifest_condition_init(c);
		m->run.n_conditions = round;
		host_round_sample(&hr);
		c->at_ns = (int64_t)(clock_now_ns() - st->t0);
		if (hr.has_load) {
			c->load[0] = hr.load[0];
			c->load[1] = hr.load[1];
			c->load[2] = hr.load[2];
			st->load1 = hr.load[0];
		}
		if (hr.cur_min_khz != HOST_NA)
			c->cur_khz_min = hr.cur_min_khz;
		if (hr.cur_max_khz != HOST_NA)
			c->cur_khz_max = hr.cur_max_khz;

		for (size_t k = 0; k < nv && r == 0; k++)
			for (size_t bi = 0; bi < nb && r == 0; bi++) {
				struct bench_state *b = &st->benches[bi];
				if (b->failure)
					continue;
				r = run_one(st, b, perm[k], round, 0, err);
				if (r == 0 && b->failure)
					replan(st, cfg->run.rounds - round, 0);
				if (r == 0)
					progress(st, 0, round, cfg->run.rounds, b, perm[k]);
			}
		if (r == 0)
			progress(st, 0, round, cfg->run.rounds, NULL, 0);
	}
	free(perm);
	return r;
}

static int write_bundle(struct run_state *st, const struct manifest *m, const char *output,
			struct plumb_err *err)
{
	struct bundle_write_spec spec;
	struct bundle_log *logs = NULL;
	char **names = NULL;
	size_t nlogs = 0, nv = st->build.nvariants, max = nv * (1 + st->cfg->nbenches);
	struct buf json;
	int r;

	buf_init(&json, MANIFEST_MAX_BYTES);
	logs = calloc(max, sizeof(*logs));
	names = calloc(max, sizeof(*names));
	if (!logs || !names) {
		r = plumb_err_oom(err, "bundle");
		goto out;
	}
	for (size_t i = 0; i < nv; i++) {
		const struct runner_variant *v = &st->build.variants[i];
		if (access(v->log, R_OK) != 0)
			continue;
		names[nlogs] = buf_strdupf("logs/build-%s.log", v->id);
		if (!names[nlogs]) {
			r = plumb_err_oom(err, "bundle");
			goto out;
		}
		logs[nlogs].name = names[nlogs];
		logs[nlogs].path = v->log;
		nlogs++;
	}
	for (size_t bi = 0; bi < st->cfg->nbenches; bi++)
		for (size_t i = 0; i < nv; i++) {
			const struct bench_log *lg = &st->benches[bi].logs[i];
			if (!lg->used)
				continue;
			names[nlogs] = buf_strdupf("logs/bench-%s-%s.log", st->cfg->benches[bi].name,
					       st->build.variants[i].id);
			if (!names[nlogs]) {
				r = plumb_err_oom(err, "bundle");
				goto out;
			}
			logs[nlogs].name = names[nlogs];
			logs[nlogs].path = lg->path;
			nlogs++;
		}
	if ((r = manifest_write(m, &json, err)) < 0)
		goto out;
	memset(&spec, 0, sizeof(spec));
	spec.manifest_json = json.data;
	spec.manifest_len = json.len;
	spec.samples_path = st->tsv_path;
	spec.logs = logs;
	spec.n_logs = nlogs;
	spec.mtime = -1;
	r = bundle_write(output, &spec, st->res->id, err);
out:
	for (size_t i = 0; i < nlogs; i++)
		free(names[i]);
	free(names);
	free(logs);
	buf_release(&json);
	return r;
}

int runner_run(const struct plumb_config *cfg, const struct runner_run_opts *opts,
	       struct runner_run_result *res, struct plumb_err *err)
{
	struct run_state st;
	struct runner_opts bopts;
	struct host_facts start, end;
	struct manifest *m = &res->manifest;
	char t[MANIFEST_TIME_MAX], policy[32];
	struct buf out;
	uint64_t t0 = clock_now_ns(), t1;
	int r;

	memset(res, 0, sizeof(*res));
	manifest_init(m);
	memset(&st, 0, sizeof(st));
	st.cfg = cfg;
	st.opts = opts;
	st.res = res;
	st.build.lock.fd = -1;
	host_facts_init(&start);
	host_facts_init(&end);
	buf_init(&out, PATH_MAX);
	if (sodium_init() < 0) {
		r = plumb_err_set(err, PLUMB_EINTERNAL, "libsodium: cannot initialize");
		goto out;
	}
	if (!getcwd(st.cwd, sizeof(st.cwd))) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, ".", "getcwd");
		goto out;
	}
	if ((r = check_capacity(cfg, err)) < 0)
		goto out;
	/* Where the bundle goes, known (and writable) before anything runs. */
	if (!opts->output)
		r = runner_default_output(cfg->run.base, cfg->run.candidate, (int64_t)time(NULL), &out);
	else
		r = buf_addstr(&out, opts->output);
	if (r < 0) {
		r = buf_err(err, "bundle name");
		goto out;
	}
	if ((r = check_output(out.data, opts->output != NULL, err)) < 0)
		goto out;

	/* The counters, once: needed now if a metric depends on them. */
	st.counters = perf_probe(perf_hw_events, PERF_NCOUNTERS, st.counters_reason,
				 sizeof(st.counters_reason));
	for (size_t i = 0; i < cfg->nbenches; i++) {
		const struct config_bench *cb = &cfg->benches[i];
		if (!st.counters && (cb->metric == CONFIG_METRIC_CYCLES ||
				     cb->metric == CONFIG_METRIC_INSTRUCTIONS)) {
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "bench.%s.metric: '%s' needs hardware counters, and this host has none: %s",
					  cb->name, config_metric_name(cb->metric), st.counters_reason);
			goto out;
		}
	}

	/* Host facts before the first build. */
	if (manifest_time_format((int64_t)time(NULL), t) == 0 && (r = set(&m->run.start, t, err)) < 0)
		goto out;
	if ((r = host_facts_collect(&start, err)) < 0)
		goto out;

	/* The builds. */
	memset(&bopts, 0, sizeof(bopts));
	bopts.progress = build_log;
	bopts.progress_ctx = (void *)opts;
	r = runner_build(cfg, &bopts, &st.build, err);
	res->build_ns = clock_now_ns() - t0;
	if (r < 0) {
		if (st.build.log_tail) {
			res->stderr_tail = st.build.log_tail;
			st.build.log_tail = NULL;
		}
		goto out;
	}

	for (int side = 0; side < 2; side++)
		if (!st.build.side[side].commit[0]) {
			r = plumb_err_set(err, PLUMB_EINPUT,
					  "%s: %s of a repository without a commit: a bundle records a commit id; commit once first",
					  side == RUNNER_BASE ? "run.base" : "run.candidate",
					  st.build.side[side].ref);
			goto out;
		}

	/* The benchmarks. */
	st.labels = calloc(st.build.nvariants, sizeof(*st.labels));
	st.benches = calloc(cfg->nbenches, sizeof(*st.benches));
	if (!st.labels || !st.benches) {
		r = plumb_err_oom(err, "run");
		goto out;
	}
	for (size_t i = 0; i < st.build.nvariants; i++) {
		const struct runner_variant *v = &st.build.variants[i];
		st.labels[i] = buf_strdupf("%s/%u", v->control ? "control" : runner_side_name(v->side), v->pad);
		if (!st.labels[i]) {
			r = plumb_err_oom(err, "run");
			goto out;
		}
	}
	for (size_t i = 0; i < cfg->nbenches; i++)
		if ((r = bench_setup(&st, &st.benches[i], &cfg->benches[i], err)) < 0)
			goto out;
	st.tsv_path = buf_strdupf("%s/samples.tsv", st.build.run_dir);
	if (!st.tsv_path) {
		r = plumb_err_oom(err, "run");
		goto out;
	}
	st.tsv = fopen(st.tsv_path, "we");
	if (!st.tsv) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, st.tsv_path, "create");
		goto out;
	}
	samples_writer_init(&st.writer, tsv_write, &st);

	t1 = clock_now_ns();
	r = measure_all(&st, m, err);
	res->measure_ns = clock_now_ns() - t1;
	if (r < 0)
		goto out;
	if ((r = samples_writer_finish(&st.writer, err)) < 0)
		goto out;
	if (fclose(st.tsv) != 0) {
		st.tsv = NULL;
		r = plumb_err_errno(err, PLUMB_EIO, errno, st.tsv_path, "write");
		goto out;
	}
	st.tsv = NULL;

	/* Host facts after the last round. */
	if ((r = host_facts_collect(&end, err)) < 0)
		goto out;

	/* The record. */
	if ((r = set(&m->tool.name, "plumb", err)) < 0 ||
	    (r = set(&m->tool.version, PACKAGE_VERSION, err)) < 0)
		goto out;
	if ((r = time_now(t)) < 0 || (r = set(&m->created, t, err)) < 0 ||
	    (r = set(&m->run.end, t, err)) < 0) {
		if (r == -1)
			r = plumb_err_set(err, PLUMB_EINTERNAL, "the clock is out of range");
		goto out;
	}
	if (contain_method_name() &&
	    ((r = set(&m->run.containment_method, contain_method_name(), err)) < 0 ||
	     (contain_reason()[0] && (r = set(&m->run.containment_reason, contain_reason(), err)) < 0)))
		goto out;
	m->spec = config_to_json(cfg);
	if (!m->spec) {
		r = plumb_err_oom(err, "manifest");
		goto out;
	}
	if ((r = set(&m->repo.url, st.build.repo, err)) < 0 ||
	    (r = fill_commit(&m->repo.base, &st.build.side[RUNNER_BASE], err)) < 0 ||
	    (r = fill_commit(&m->repo.candidate, &st.build.side[RUNNER_CANDIDATE], err)) < 0)
		goto out;
	m->build.method = (enum manifest_method)cfg->build.pad;
	m->build.pad_bytes = cfg->build.pad_bytes;
	if ((r = set(&m->build.command, cfg->build.command, err)) < 0 ||
	    (r = fill_variants(&st, m, err)) < 0)
		goto out;
	if ((r = host_json(&start, &m->host.start, err)) < 0 ||
	    (r = host_json(&end, &m->host.end, err)) < 0 ||
	    (r = set(&m->host.fingerprint, host_fingerprint(&start), err)) < 0)
		goto out;
	m->run.seed = (int64_t)cfg->run.seed;
	m->run.rounds = cfg->run.rounds;
	m->run.warmup_runs = cfg->run.warmup_runs;
	if ((r = set(&m->run.warmup_policy, warmup_policy(cfg, policy, sizeof(policy)), err)) < 0)
		goto out;
	m->run.counters_available = st.counters && !st.counters_broken;
	if (!m->run.counters_available && (r = set(&m->run.counters_reason, st.counters_reason, err)) < 0)
		goto out;
	if ((r = fill_labels(cfg, m, err)) < 0)
		goto out;
	for (size_t i = 0; i < cfg->nbenches; i++)
		if ((r = fill_bench(&st, &st.benches[i], m, err)) < 0)
			goto out;

	/* The bundle. */
	if ((r = write_bundle(&st, m, out.data, err)) < 0)
		goto out;
	res->bundle = buf_detach(&out, NULL);
	if (cfg->keep && opts->log) {
		char *line = buf_strdupf("the run folder is kept: %s", st.build.run_dir);
		if (line)
			opts->log(opts->ctx, line);
		free(line);
	}
	r = 0;
out:
	if (st.tsv)
		fclose(st.tsv);
	free(st.tsv_path);
	if (st.benches)
		for (size_t i = 0; i < cfg->nbenches; i++)
			bench_release(&st.benches[i], st.build.nvariants);
	free(st.benches);
	if (st.labels)
		for (size_t i = 0; i < st.build.nvariants; i++)
			free(st.labels[i]);
	free(st.labels);
	runner_result_release(&st.build);
	host_facts_release(&start);
	host_facts_release(&end);
	buf_release(&out);
	return r;
}

void runner_run_result_release(struct runner_run_result *res)
{
	manifest_release(&res->manifest);
	free(res->bundle);
	free(res->stderr_tail);
	memset(res, 0, sizeof(*res));
}
