/*
 * runner/run-common.c: the small steps every part of `plumb run` takes:
 * tell the caller of an event, name a variant and find a side's pad 0,
 * give a benchmark its environment, keep a run's standard error in the
 * benchmark's log, record one value (a row of samples.tsv and a row of
 * the benchmark's analysis) and find a metric's result, fail a
 * benchmark, and write a string or a note into the manifest.
 *
 * The bottom of the run's files: it calls no other runner/run*.c file, so
 * the parts (rounds, checksum, hooks, gbench, valgrind, the same work, the
 * sweep, the record) call down to it, never back up to one another or to
 * run.c.  Declared in run-internal.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "formats/manifest.h"
#include "formats/samples.h"
#include "runner/envlist.h"
#include "runner/failed.h"
#include "runner/measure.h"
#include "runner/run-internal.h"
#include "runner/run-types.h"
#include "stats/analysis.h"
#include "common/banned.h"

/* ---- events and names -------------------------------------------------------- */

void run_tell(const struct run_state *st, const struct runner_event *ev)
{
	runner_event_send(st->opts->event, st->opts->ctx, ev);
}

/* "base/2 (b02)" */
void run_variant_label(const struct run_state *st, size_t vi, char *out, size_t size)
{
	snprintf(out, size, "%s (%s)", st->labels[vi], st->build.variants[vi].id);
}

/* The index of side's pad 0 (not the control) among the variants. */
size_t run_pad0(const struct runner_result *build, enum runner_side side)
{
	size_t vi = 0;

	while (vi + 1 < build->nvariants &&
	       !(build->variants[vi].side == side && build->variants[vi].pad == 0 &&
		 !build->variants[vi].control))
		vi++;
	return vi;
}

/* ---- a benchmark's environment and log --------------------------------------- */

int run_bench_env(const struct plumb_config *cfg, const struct config_bench *cb,
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
	if (cb && cb->mode == CONFIG_MODE_SAMPLES) {
		char fd[16];
		snprintf(fd, sizeof(fd), "%d", SAMPLES_FD);
		if ((r = envlist_set(env, "PLUMB_SAMPLES_FD", fd, err)) < 0)
			return r;
	}
	return 0;
}

int run_bench_log(struct run_state *st, struct bench_state *b, size_t vi, const char *when,
		  const struct measure_result *m, struct plumb_err *err)
{
	struct bench_log *lg = &b->logs[vi];
	const struct buf *e = &m->proc.err_mem;
	struct buf head;
	char what[PLUMB_ERR_MAX], took[UNITS_MAX];
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
	units_value((double)m->proc.wall_ns, UNITS_TIME_NS, 1, took);
	if (buf_printf(&head, "plumb: %s, %s (%s): %s, %s\n", b->cb->name, st->labels[vi],
		       when, what, took) < 0) {
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

/* ---- values ------------------------------------------------------------------ */

static enum samples_side tsv_side(const struct runner_variant *v)
{
	return v->control ? SAMPLES_CONTROL : v->side == RUNNER_BASE ? SAMPLES_BASE
								     : SAMPLES_CANDIDATE;
}

/* A samples.tsv side is the analysis side of the same number. */
_Static_assert((int)SAMPLES_BASE == (int)ANALYSIS_BASE &&
	       (int)SAMPLES_CANDIDATE == (int)ANALYSIS_CANDIDATE &&
	       (int)SAMPLES_CONTROL == (int)ANALYSIS_CONTROL,
	       "enum samples_side and enum analysis_side number the sides alike");

int run_record(struct run_state *st, struct bench_state *b, const struct runner_variant *v,
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

const struct analysis_result *run_find_result(const struct analysis *a, const char *metric)
{
	for (size_t i = 0; i < analysis_count(a); i++) {
		const struct analysis_result *r = analysis_get(a, i);
		if (strcmp(r->metric, metric) == 0)
			return r;
	}
	return NULL;
}

/* ---- a failed run ------------------------------------------------------------ */

/*
 * A failed run: without --keep-going, the error (and the stderr tail in the
 * result); with it, the benchmark's failure text.
 */
int run_bench_fail(struct run_state *st, struct bench_state *b, size_t vi,
		   const char *when, const char *why, const struct measure_result *m,
		   struct plumb_err *err)
{
	char label[96];
	char *text, *quote = NULL, *kept = NULL;

	run_variant_label(st, vi, label, sizeof(label));
	text = buf_strdupf("%s failed in %s: %s", label, when, why);
	if (!text)
		return plumb_err_oom(err, "failure");
	/* The variant's whole log kept, this run's standard error quoted. */
	failed_evidence(st->build.run_dir, b->logs[vi].path, m ? m->proc.err_mem.data : NULL,
			m ? m->proc.err_mem.len : 0, "its standard error", &quote, &kept);
	if (quote) {
		free(st->res->stderr_tail);
		st->res->stderr_tail = quote;
	}
	if (!st->cfg->keep_going) {
		plumb_err_set(err, PLUMB_EBENCH, "benchmark %s: %s; nothing was published%s%s",
			      b->cb->name, text, kept ? "; log: " : "", kept ? kept : "");
		free(text);
		free(kept);
		return PLUMB_EBENCH;
	}
	b->failure = text;
	if (b->logs[vi].used) {
		char fid[CONFIG_BENCH_FILE_ID_MAX + 1];
		config_bench_file_id(b->cb->name, fid);
		b->failure_log = buf_strdupf("logs/bench-%s-%s.log", fid, st->build.variants[vi].id);
	}
	st->res->failures++;
	RUN_TELL(st, .kind = RUNNER_EV_BENCH_FAILED, .subject = b->cb->name, .text = text,
		 .label = kept);
	free(kept);
	return 0;
}

/* ---- the manifest ------------------------------------------------------------ */

int run_set(char **slot, const char *s, struct plumb_err *err)
{
	if (manifest_set_str(slot, s) < 0)
		return plumb_err_oom(err, "manifest");
	return 0;
}

int run_manifest_note(struct manifest_bench *mb, const char *text, struct plumb_err *err)
{
	return manifest_add_note(mb, text) < 0 ? plumb_err_oom(err, "manifest") : 0;
}

const char *run_work_name(enum stats_work w)
{
	return w == STATS_WORK_SAME ? "same" : w == STATS_WORK_DIFFERENT ? "different" : NULL;
}
