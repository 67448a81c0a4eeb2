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
 * This file is the stage in order (output, counters, host facts, builds,
 * benchmarks, record, bundle); the rounds are in run-rounds.c, the
 * checksum oracle in run-checksum.c, the manifest record in
 * run-manifest.c, the capacity estimate in run-capacity.c, and the small
 * steps every part takes (events, labels, values, failures) in
 * run-common.c, below them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/path.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "runner/build.h"
#include "runner/host.h"
#include "runner/perf.h"
#include "runner/run.h"
#include "runner/run-internal.h"
#include "common/banned.h"

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

/* ---- the stage ----------------------------------------------------------------- */

/* The bundle's folder must exist and be writable; an existing file is replaced. */
static int check_output(const char *path, int given, struct plumb_err *err)
{
	char *dir = path_dirname(path);
	struct stat st;
	int rc = 0;

	if (!dir)
		return plumb_err_oom(err, path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = plumb_err_set(err, PLUMB_EARG, "%s%s: is a folder, not a bundle file",
				   given ? "-o: " : "", path);
	else if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		rc = plumb_err_set(err, PLUMB_EARG, "%s%s: no folder %s to write the bundle in",
				   given ? "-o: " : "", path, dir);
	else if (access(dir, W_OK | X_OK) < 0)
		rc = plumb_err_errno(err, PLUMB_EIO, errno, dir, "cannot write the bundle there");
	free(dir);
	return rc;
}

static int write_bundle(struct run_state *st, const struct manifest *m, const char *output,
			struct plumb_err *err)
{
	struct bundle_write_spec spec;
	struct bundle_log *logs = NULL;
	char **names = NULL;
	size_t nlogs = 0, nart = 0, nv = st->build.nvariants, max = nv * (2 + st->cfg->nbenches) + 1;
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
			char fid[CONFIG_BENCH_FILE_ID_MAX + 1];
			config_bench_file_id(st->cfg->benches[bi].name, fid);
			names[nlogs] = buf_strdupf("logs/bench-%s-%s.log", fid, st->build.variants[i].id);
			if (!names[nlogs]) {
				r = plumb_err_oom(err, "bundle");
				goto out;
			}
			logs[nlogs].name = names[nlogs];
			logs[nlogs].path = lg->path;
			nlogs++;
		}
	if (run_hooks_log(st)) {
		logs[nlogs].name = "logs/run-hooks.log";
		logs[nlogs].path = run_hooks_log(st);
		nlogs++;
	}
	if ((r = manifest_write(m, &json, err)) < 0) {
		plumb_err_prefix(err, "%s: manifest.json", output);
		goto out;
	}
	nart = run_artifact_logs(st, m, logs + nlogs);
	memset(&spec, 0, sizeof(spec));
	spec.manifest_json = json.data;
	spec.manifest_len = json.len;
	spec.samples_path = st->tsv_path;
	spec.logs = logs;
	spec.n_logs = nlogs + nart;
	spec.mtime = -1;
	/* The report printed after the run is rendered from this parse. */
	spec.parsed = &st->res->written;
	r = bundle_write(output, &spec, st->res->id, err);
out:
	for (size_t i = 0; i < nlogs; i++)
		free(names[i]);
	free(names);
	free(logs);
	buf_release(&json);
	return r;
}

int run_begin(struct run_state *st, const struct plumb_config *cfg,
	      const struct runner_run_opts *opts, struct runner_run_result *res,
	      struct host_facts *start, struct buf *out, struct plumb_err *err)
{
	struct runner_opts bopts;
	struct manifest *m = &res->manifest;
	char t[MANIFEST_TIME_MAX];
	uint64_t t0 = clock_now_ns();
	int r;

	memset(res, 0, sizeof(*res));
	manifest_init(m);
	manifest_init(&res->written);
	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->given = cfg;
	st->opts = opts;
	st->res = res;
	st->build.lock.fd = -1;
	if (sodium_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libsodium: cannot initialize");
	if (!getcwd(st->cwd, sizeof(st->cwd)))
		return plumb_err_errno(err, PLUMB_EIO, errno, ".", "getcwd");
	if ((r = run_check_capacity(cfg, err)) < 0)
		return r;
	/* A command that never names the artifact runs the same program for
	 * every variant: nothing it measures could tell the sides apart.  It
	 * names it as {artifact}, or reaches it through $PLUMB_ARTIFACT. */
	for (size_t i = 0; i < cfg->nbenches; i++)
		if (!strstr(cfg->benches[i].command, "{artifact}") &&
		    !strstr(cfg->benches[i].command, "PLUMB_ARTIFACT"))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: bench.%s.command: uses neither {artifact} nor "
					     "$PLUMB_ARTIFACT, so every variant would run the same program; "
					     "write {artifact} where the built program goes",
					     cfg->file ? cfg->file : "plumb.conf", cfg->benches[i].name);
	/* Where the bundle goes, known (and writable) before anything runs. */
	if (!opts->output)
		r = runner_default_output(cfg->run.base, cfg->run.candidate, (int64_t)time(NULL), out);
	else
		r = buf_addstr(out, opts->output);
	if (r < 0)
		return buf_err(err, "bundle name");
	if ((r = check_output(out->data, opts->output != NULL, err)) < 0)
		return r;

	/* The counters, once: needed now if a metric depends on them. */
	st->counters = perf_probe(perf_hw_events, PERF_NCOUNTERS, host_perf_paranoid(),
				  st->counters_reason, sizeof(st->counters_reason));
	if ((r = run_valgrind_plan(st, err)) < 0)
		return r;

	/* Host facts before the first build. */
	if (manifest_time_format((int64_t)time(NULL), t) == 0 && (r = run_set(&m->run.start, t, err)) < 0)
		return r;
	if ((r = host_facts_collect(start, err)) < 0)
		return r;

	/* The builds. */
	memset(&bopts, 0, sizeof(bopts));
	bopts.event = opts->event;
	bopts.event_ctx = opts->ctx;
	bopts.controls = opts->controls;
	res->build_times.setup_ns = clock_now_ns() - t0;
	r = runner_build(cfg, &bopts, &st->build, err);
	res->build_ns = clock_now_ns() - t0;
	if (r < 0) {
		if (st->build.log_tail) {
			res->stderr_tail = st->build.log_tail;
			st->build.log_tail = NULL;
		}
		return r;
	}

	for (int side = 0; side < 2; side++)
		if (!st->build.side[side].commit[0])
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: %s of a repository without a commit: a bundle records a commit id; commit once first",
					     side == RUNNER_BASE ? "run.base" : "run.candidate",
					     st->build.side[side].ref);

	/* The benchmarks: a Google Benchmark binary's, listed now that it is built. */
	if ((r = run_labels(st, err)) < 0 || (r = run_gbench_expand(st, err)) < 0)
		return r;
	cfg = st->cfg;
	st->benches = calloc(cfg->nbenches, sizeof(*st->benches));
	if (!st->benches)
		return plumb_err_oom(err, "run");
	for (size_t i = 0; i < cfg->nbenches; i++)
		if ((r = run_bench_setup(st, &st->benches[i], &cfg->benches[i], err)) < 0)
			return r;
	if ((r = run_gbench_missing(st, err)) < 0)
		return r;
	st->tsv_path = buf_strdupf("%s/samples.tsv", st->build.run_dir);
	if (!st->tsv_path)
		return plumb_err_oom(err, "run");
	st->tsv = fopen(st->tsv_path, "we");
	if (!st->tsv)
		return plumb_err_errno(err, PLUMB_EIO, errno, st->tsv_path, "create");
	samples_writer_init(&st->writer, run_tsv_write, st);
	return 0;
}

int run_end(struct run_state *st, struct host_facts *start, struct host_facts *end,
	    struct buf *out, struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	struct manifest *m = &st->res->manifest;
	int r;

	if ((r = samples_writer_finish(&st->writer, err)) < 0)
		return r;
	if (fclose(st->tsv) != 0) {
		st->tsv = NULL;
		return plumb_err_errno(err, PLUMB_EIO, errno, st->tsv_path, "write");
	}
	st->tsv = NULL;

	/* Host facts after the last round. */
	if ((r = host_facts_collect(end, err)) < 0)
		return r;

	/* The record. */
	if ((r = run_manifest_record(st, m, start, end, err)) < 0)
		return r;

	/* The bundle. */
	if ((r = write_bundle(st, m, out->data, err)) < 0)
		return r;
	st->res->have_written = 1;
	st->res->bundle = buf_detach(out, NULL);
	if (cfg->keep)
		RUN_TELL(st, .kind = RUNNER_EV_RUN_KEPT, .subject = st->build.run_dir);
	return 0;
}

/* The build time in parts, over every variant built so far (the sweep's too). */
static void build_times_fill(struct runner_build_times *t, const struct runner_result *b)
{
	t->checkout_ns = b->checkout_ns;
	t->fresh_ns = t->control_ns = t->restore_ns = 0;
	t->fresh = t->controls = t->restored = 0;
	for (size_t i = 0; i < b->nvariants; i++) {
		const struct runner_variant *v = &b->variants[i];
		uint64_t ns = v->prepare_ns + v->build_ns;
		if (!v->built)
			continue;
		if (v->control && !v->reused) {
			t->control_ns += ns;
			t->controls++;
		} else if (v->cached || v->reused) {
			t->restore_ns += ns;
			t->restored++;
		} else {
			t->fresh_ns += ns;
			t->fresh++;
		}
	}
}

void run_state_release(struct run_state *st)
{
	const struct plumb_config *cfg = st->cfg;

	if (st->res && st->build.run_dir)
		build_times_fill(&st->res->build_times, &st->build);
	if (st->tsv)
		fclose(st->tsv);
	st->tsv = NULL;
	free(st->tsv_path);
	st->tsv_path = NULL;
	run_sweep_release(st);
	run_hooks_release(st, NULL);
	if (st->benches)
		for (size_t i = 0; i < cfg->nbenches; i++)
			run_bench_release(&st->benches[i], st->build.nvariants);
	free(st->benches);
	st->benches = NULL;
	for (size_t i = 0; i < st->nlabels; i++)
		free(st->labels[i]);
	free(st->labels);
	st->labels = NULL;
	st->nlabels = 0;
	run_valgrind_plan_free(st);
	runner_result_release(&st->build);
	run_gbench_release(st);
}

int run_measure_rest(struct run_state *st, int r, struct plumb_err *err)
{
	if (r == 0 && st->cfg->run.pads_auto)
		r = run_sweep(st, &st->res->manifest, err);
	if (r == 0)
		r = run_valgrind_all(st, err);   /* every variant, the sweep's too */
	if (r == 0)
		r = run_work_prove(st, err);     /* may count pad 0 of each side */
	return run_hooks_finish(st, r, err);  /* the cleanups, after the last run */
}

int runner_run(const struct plumb_config *cfg, const struct runner_run_opts *opts,
	       struct runner_run_result *res, struct plumb_err *err)
{
	struct run_state st;
	struct host_facts start, end;
	struct buf out;
	uint64_t t1;
	int r;

	host_facts_init(&start);
	host_facts_init(&end);
	buf_init(&out, PATH_MAX);
	r = run_begin(&st, cfg, opts, res, &start, &out, err);
	if (r == 0) {
		t1 = clock_now_ns();
		r = run_measure_all(&st, &res->manifest, err);
		r = run_measure_rest(&st, r, err);
		res->measure_ns = clock_now_ns() - t1;
	}
	if (r == 0)
		r = run_end(&st, &start, &end, &out, err);
	run_state_release(&st);
	host_facts_release(&start);
	host_facts_release(&end);
	buf_release(&out);
	return r;
}

void runner_run_result_release(struct runner_run_result *res)
{
	manifest_release(&res->manifest);
	manifest_release(&res->written);
	free(res->bundle);
	free(res->stderr_tail);
	memset(res, 0, sizeof(*res));
}
