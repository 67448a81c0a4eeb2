/*
 * runner/run-hooks.c: the commands plumb runs around the measured ones,
 * as hyperfine's --prepare/--setup/--cleanup and asv's setup/teardown:
 *
 *   run.setup              once per job, before the first benchmark run
 *   bench.NAME.setup       once per variant, before its first run of NAME
 *   bench.NAME.prepare     before every run of NAME (warmup runs included)
 *   bench.NAME.cleanup     once per started variant, after the job's last run
 *   run.cleanup            once per job, after the last run
 *
 * Each runs like the benchmark (the same environment, folder and
 * containment, through runner/measure.h, with the benchmark's timeout) but
 * is never timed: its measure result is only read for how it ended, its
 * standard error is logged, and its wall time is summed for the notes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/measure.h"
#include "runner/run-internal.h"
#include "common/banned.h"

/* Run one hook command; *m holds how it ended (release it). */
static int hook_run(const char *cmd, const char *key, const char *artifact,
		    char *const *env, const char *cwd, long timeout,
		    struct measure_result *m, struct plumb_err *err)
{
	const struct cmdline_var vars[] = { { "artifact", artifact ? artifact : "" } };
	struct measure_spec spec;
	struct cmdline cl;
	int r;

	memset(m, 0, sizeof(*m));
	memset(&cl, 0, sizeof(cl));
	if ((r = cmdline_expand(&cl, cmd, vars, 1, key, err)) < 0)
		return r;
	memset(&spec, 0, sizeof(spec));
	spec.argv = cl.argv;
	spec.env = env;
	spec.cwd = cwd;
	spec.timeout_ns = (uint64_t)timeout * 1000000000ull;
	spec.samples_fd = -1;
	r = measure_run(&spec, m, err);
	cmdline_release(&cl);
	if (r < 0)
		plumb_err_prefix(err, "%s", key);
	return r;
}

/* Append a run hook's standard error to <run>/log/run-hooks.log. */
static int run_log(struct run_state *st, const char *key, const struct measure_result *m,
		   struct plumb_err *err)
{
	const struct buf *e = &m->proc.err_mem;
	char took[UNITS_MAX];
	FILE *f;

	if (!st->hooks.log && !(st->hooks.log = buf_strdupf("%s/log/run-hooks.log",
							      st->build.run_dir)))
		return plumb_err_oom(err, "run hooks");
	if (!(f = fopen(st->hooks.log, "ae")))
		return plumb_err_errno(err, PLUMB_EIO, errno, st->hooks.log, "open");
	st->hooks.log_used = 1;
	units_value((double)m->proc.wall_ns, UNITS_TIME_NS, 1, took);
	fprintf(f, "plumb: %s: %s, %s\n", key, m->failed ? m->why : "exit status 0", took);
	if (e->len && e->len <= BENCH_LOG_BUDGET) {
		fwrite(e->data, 1, e->len, f);
		if (e->data[e->len - 1] != '\n')
			fputc('\n', f);
	}
	if (fclose(f) != 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, st->hooks.log, "write");
	return 0;
}

/* run.setup or run.cleanup; a failure is the job's (PLUMB_EBENCH). */
static int job_hook(struct run_state *st, const char *cmd, const char *key, uint64_t *ns,
		    struct plumb_err *err)
{
	struct envlist env;
	struct measure_result m;
	int r;

	memset(&env, 0, sizeof(env));
	memset(&m, 0, sizeof(m));
	if ((r = run_bench_env(st->cfg, NULL, &env, err)) == 0 &&
	    (r = hook_run(cmd, key, NULL, env.v, st->cwd, CONFIG_TIMEOUT_MAX, &m, err)) == 0) {
		*ns += m.proc.wall_ns;
		r = run_log(st, key, &m, err);
		if (r == 0 && m.failed)
			r = plumb_err_set(err, PLUMB_EBENCH, "%s failed: %s; nothing was published",
					  key, m.why);
	}
	measure_result_release(&m);
	envlist_release(&env);
	return r;
}

/* Bench b's hook cmd on variant vi; a failure fails the benchmark. */
static int bench_hook(struct run_state *st, struct bench_state *b, size_t vi, const char *cmd,
		      const char *what, const char *when, uint64_t *ns, struct plumb_err *err)
{
	struct measure_result m;
	char key[CONFIG_BENCH_FULL_NAME_MAX + 32], why[PLUMB_ERR_MAX], at[128];
	int r;

	snprintf(key, sizeof(key), "bench.%s.%s", b->cb->name, what);
	r = hook_run(cmd, key, st->build.variants[vi].artifact, b->env.v, st->cwd, b->cb->timeout,
		     &m, err);
	if (r < 0) {
		measure_result_release(&m);
		return r;
	}
	*ns += m.proc.wall_ns;
	snprintf(at, sizeof(at), "%s%s%s", what, when ? " before " : "", when ? when : "");
	r = run_bench_log(st, b, vi, at, &m, err);
	if (r == 0 && m.failed && !b->failure) {
		snprintf(why, sizeof(why), "%s failed: %.900s", what, m.why);
		r = run_bench_fail(st, b, vi, at, why, &m, err);
	}
	measure_result_release(&m);
	return r;
}

/* b->hooks.started holds the variants there are now (the sweep adds some). */
static int grow(struct bench_state *b, size_t nv, struct plumb_err *err)
{
	unsigned char *s;

	if (b->hooks.nv >= nv)
		return 0;
	if (!(s = realloc(b->hooks.started, nv)))
		return plumb_err_oom(err, "hooks");
	memset(s + b->hooks.nv, 0, nv - b->hooks.nv);
	b->hooks.started = s;
	b->hooks.nv = nv;
	return 0;
}

int run_hooks_before(struct run_state *st, struct bench_state *b, size_t vi,
		     const char *when, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const struct config_bench *cb = b->cb;
	int r;

	if (!st->hooks.started) {
		st->hooks.started = 1;
		if (cfg->run.setup &&
		    (r = job_hook(st, cfg->run.setup, "run.setup", &st->hooks.setup_ns, err)) < 0)
			return r;
		st->hooks.setup_done = 1;
	}
	if (!st->hooks.setup_done)
		return plumb_err_set(err, PLUMB_EBENCH, "run.setup did not succeed");
	if ((r = grow(b, st->build.nvariants, err)) < 0)
		return r;
	if (!b->hooks.started[vi]) {
		b->hooks.started[vi] = 1;
		if (cb->setup) {
			b->hooks.setup_runs++;
			if ((r = bench_hook(st, b, vi, cb->setup, "setup", NULL, &b->hooks.setup_ns,
					    err)) < 0 || b->failure)
				return r;
		}
	}
	if (cb->prepare) {
		b->hooks.prepare_runs++;
		return bench_hook(st, b, vi, cb->prepare, "prepare", when, &b->hooks.prepare_ns, err);
	}
	return 0;
}

int run_hooks_finish(struct run_state *st, int rc, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	struct plumb_err scratch;
	struct plumb_err *e = rc < 0 ? &scratch : err;
	int r = 0;

	/* Stopped by a signal: leave at once, as everything else does. */
	if (cleanup_signal_pending() || !st->hooks.started)
		return rc;
	plumb_err_clear(&scratch);
	for (size_t bi = 0; st->benches && bi < cfg->nbenches; bi++) {
		struct bench_state *b = &st->benches[bi];

		if (!b->cb || !b->cb->cleanup)
			continue;
		for (size_t vi = 0; vi < b->hooks.nv; vi++) {
			int rr;
			if (!b->hooks.started[vi])
				continue;
			b->hooks.cleanup_runs++;
			rr = bench_hook(st, b, vi, b->cb->cleanup, "cleanup", NULL, &b->hooks.cleanup_ns, e);
			if (rr < 0 && r == 0) {
				r = rr;
				e = &scratch;   /* the first error stays in err */
			}
		}
	}
	/* run.setup was tried: whatever it left is cleaned up, even after it failed. */
	if (cfg->run.cleanup) {
		int rr = job_hook(st, cfg->run.cleanup, "run.cleanup", &st->hooks.cleanup_ns, e);
		if (rr < 0 && r == 0)
			r = rr;
	}
	return rc < 0 ? rc : r;
}

int run_hooks_notes(struct run_state *st, struct bench_state *b, struct manifest_bench *mb,
		    struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	const struct bench_hooks *h = &b->hooks;
	char note[400], s[UNITS_MAX];
	int r;

	if (b->cb->prepare) {
		units_seconds((double)h->prepare_ns / 1e9, s);
		snprintf(note, sizeof(note), "prepare ran before each of its %llu runs, untimed "
			 "(%s in all, not in any measured time)", (unsigned long long)h->prepare_runs, s);
		if ((r = run_manifest_note(mb, note, err)) < 0)
			return r;
	}
	if (b->cb->setup || b->cb->cleanup) {
		units_seconds((double)(h->setup_ns + h->cleanup_ns) / 1e9, s);
		snprintf(note, sizeof(note), "setup ran %u time%s, cleanup %u (once per variant; "
			 "%s in all, untimed)", h->setup_runs, h->setup_runs == 1 ? "" : "s",
			 h->cleanup_runs, s);
		if ((r = run_manifest_note(mb, note, err)) < 0)
			return r;
	}
	if ((cfg->run.setup || cfg->run.cleanup) && b == &st->benches[0]) {
		units_seconds((double)(st->hooks.setup_ns + st->hooks.cleanup_ns) / 1e9, s);
		snprintf(note, sizeof(note), "run.setup and run.cleanup ran once for the job "
			 "(%s, untimed; logs/run-hooks.log)", s);
		if ((r = run_manifest_note(mb, note, err)) < 0)
			return r;
	}
	return 0;
}

const char *run_hooks_log(const struct run_state *st)
{
	return st->hooks.log_used ? st->hooks.log : NULL;
}

void run_hooks_release(struct run_state *st, struct bench_state *b)
{
	if (b) {
		free(b->hooks.started);
		memset(&b->hooks, 0, sizeof(b->hooks));
	}
	if (st) {
		free(st->hooks.log);
		memset(&st->hooks, 0, sizeof(st->hooks));
	}
}
