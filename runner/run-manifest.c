/*
 * runner/run-manifest.c: the record of a measured run: the manifest
 * filled from the build result, the host facts, the configuration and
 * every benchmark's analysis (summaries, verdict, counters, hot code,
 * checksums, steady state, notes).  The verdict and the hot code are
 * judged as the sweep judges them (run-judge.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "common/err.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/digest.h"
#include "formats/import.h"
#include "formats/manifest.h"
#include "formats/manifest-rule.h"
#include "runner/elfsym.h"
#include "runner/host-json.h"
#include "runner/perf.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "stats/analysis.h"
#include "stats/rule.h"
#include "stats/quantile.h"
#include "sys/contain.h"
#include "common/banned.h"

/* ---- the manifest ------------------------------------------------------------ */

static int fill_commit(struct manifest_commit *c, const struct checkout_side *s,
		       struct plumb_err *err)
{
	char t[MANIFEST_TIME_MAX];
	int r;

	if ((r = run_set(&c->ref, s->ref, err)) < 0 ||
	    (r = run_set(&c->commit, s->commit[0] ? s->commit : NULL, err)) < 0 ||
	    (r = run_set(&c->tree, s->tree[0] ? s->tree : NULL, err)) < 0 ||
	    (r = run_set(&c->subject, s->subject, err)) < 0 ||
	    (r = run_set(&c->author, s->author, err)) < 0)
		return r;
	if (s->commit[0] && manifest_time_format(s->time, t) == 0 && (r = run_set(&c->time, t, err)) < 0)
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
		if ((r = run_set(&mv->artifact_path, st->cfg->build.artifact, err)) < 0 ||
		    (r = run_set(&mv->artifact_sha256, v->sha256, err)) < 0)
			return r;
		mv->artifact_size = (int64_t)v->size;
		mv->build_ns = (int64_t)v->build_ns;
		mv->pad_offset = (int64_t)v->pad_bytes;
		mv->cached = v->cached;
		if (v->reused && st->opts->controls) {
			if ((r = run_set(&mv->reused_bisect, st->opts->controls->bisect, err)) < 0)
				return r;
			mv->reused_comparison = v->reused;
		}
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
				char hex[DIGEST_HEX];
				digest_buffer_hex(sym.bytes, sym.nbytes, hex);
				if ((r = run_set(&h->sha256, hex, err)) < 0) {
					elf_image_free(img);
					return r;
				}
			}
		}
		elf_image_free(img);
	}
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
				const struct analysis_pad *pd = &ar->side[s].pads[p];
				const struct analysis_iter *it = pd->iter ? &pd->iter[q] : NULL;
				if (it && it->warm.steady)
					v[k++] = (double)it->warm.start;
			}
	if (k)
		med = stats_median_inplace(v, k);
	free(v);
	return med;
}

static const char *bench_warmup_policy(const struct config_bench *cb, char *buf, size_t size);
static const char *warmup_policy(const struct plumb_config *cfg, char *buf, size_t size);

/* benches[].profile, and the remarks on it: no profile, or named symbols never sampled. */
static int fill_profile(const struct bench_state *b, struct manifest_bench *mb, struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	int r;

	if (b->profile_note)
		return run_manifest_note(mb, b->profile_note, err);
	if (!b->phot[0] && !b->phot[1])
		return 0;
	mb->profile.present = 1;
	mb->profile.coverage = b->cb->hot_coverage;
	for (int s = 0; s < 2; s++) {
		struct manifest_profile_side *ps = s ? &mb->profile.candidate : &mb->profile.base;
		ps->present = 1;
		ps->samples = (int64_t)b->prof[s].n;
		ps->symbols = calloc(b->nhot[s] + 1, sizeof(*ps->symbols));
		if (!ps->symbols)
			return plumb_err_oom(err, "manifest");
		for (size_t k = 0; k < b->nhot[s]; k++) {
			if (!(ps->symbols[k].name = strdup(b->phot[s][k].name)))
				return plumb_err_oom(err, "manifest");
			ps->symbols[k].share = b->phot[s][k].share;
			ps->n_symbols++;
		}
	}
	/* A named hot symbol the profile never saw does not run here. */
	for (size_t k = 0; k < cb->nhot; k++) {
		int seen = 0;
		char text[400];
		for (int s = 0; s < 2; s++)
			for (size_t j = 0; j < b->nall[s]; j++)
				seen |= strcmp(b->phot[s][j].name, cb->hot[k]) == 0;
		if (seen)
			continue;
		snprintf(text, sizeof(text), "bench.%s.hot names '%s', which never appears in the "
			 "profile: not hot (the hot set is judged from the profile)", cb->name, cb->hot[k]);
		if ((r = run_manifest_note(mb, text, err)) < 0)
			return r;
	}
	return 0;
}

static int fill_bench(struct run_state *st, struct bench_state *b, struct manifest *m,
		      struct plumb_err *err)
{
	const struct config_bench *cb = b->cb;
	struct manifest_bench *mb = manifest_add_bench(m, cb->name, err);
	const struct analysis_result *ar;
	const char *metric = metric_name(b->metric);
	int samples = cb->mode == CONFIG_MODE_SAMPLES, r;

	if (!mb)
		return PLUMB_EINTERNAL;
	mb->mode = samples ? MANIFEST_MODE_SAMPLES : MANIFEST_MODE_PROCESS;
	mb->metric = b->metric;
	if (cb->gbench) {
		size_t section = strlen(cb->name) - strlen(cb->gbench) - 1;
		mb->mode = MANIFEST_MODE_GBENCH;
		mb->gbench.present = 1;
		if (!(mb->gbench.section = strndup(cb->name, section)) ||
		    !(mb->gbench.name = strdup(cb->gbench)) ||
		    !(mb->gbench.family = strndup(cb->gbench, import_gbench_family_len(cb->gbench))))
			return plumb_err_oom(err, "manifest");
	}
	if (b->gbench_note && (r = run_manifest_note(mb, b->gbench_note, err)) < 0)
		return r;
	if (samples) {
		/* Recorded per benchmark when it is not run.warmup.policy's. */
		char mine[32], first[32];
		const char *p = bench_warmup_policy(cb, mine, sizeof(mine));
		if (strcmp(p, warmup_policy(st->cfg, first, sizeof(first))) != 0 &&
		    (r = run_set(&mb->warmup, p, err)) < 0)
			return r;
	}
	if (b->left_runs) {
		char note[200];
		snprintf(note, sizeof(note), "%u run%s left processes running (%lu in all); "
			 "plumb killed them as each run ended", b->left_runs,
			 b->left_runs == 1 ? "" : "s", b->left_procs);
		if ((r = run_manifest_note(mb, note, err)) < 0)
			return r;
	}
	if ((r = run_hooks_notes(st, b, mb, err)) < 0)
		return r;
	if (b->failure && b->failure_log && (r = run_set(&mb->failure_log, b->failure_log, err)) < 0)
		return r;
	if (b->failure)
		return run_set(&mb->failure, b->failure, err);
	if ((r = analysis_finish(b->an, err)) < 0) {
		char text[PLUMB_ERR_MAX];
		snprintf(text, sizeof(text), "%s", err->msg);
		plumb_err_clear(err);
		if (!st->cfg->keep_going)
			return plumb_err_set(err, PLUMB_EBENCH, "benchmark %s: %s; nothing was published",
					     cb->name, text);
		st->res->failures++;
		return run_set(&mb->failure, text, err);
	}
	ar = run_find_result(b->an, metric);
	if (!ar)
		return plumb_err_set(err, PLUMB_EINTERNAL, "benchmark %s: no %s values", cb->name, metric);
	if ((r = manifest_record_side(&mb->base, &ar->side[ANALYSIS_BASE], samples, err)) < 0 ||
	    (r = manifest_record_side(&mb->candidate, &ar->side[ANALYSIS_CANDIDATE], samples, err)) < 0 ||
	    (r = manifest_record_side(&mb->control, &ar->side[ANALYSIS_CONTROL], samples, err)) < 0 ||
	    (r = run_valgrind_manifest_bench(st, b, mb, err)) < 0)
		return r;
	/* Counters: the center over pads of each side. */
	if (st->counters && !st->counters_broken) {
		struct manifest_side_stats *sides[3] = { &mb->base, &mb->candidate, &mb->control };
		for (int k = 0; k < METRIC_NCOUNTERS; k++) {
			const char *name = metric_name(metric_of_counter(k));
			const struct analysis_result *cr = run_find_result(b->an, name);
			if (!cr)
				continue;
			for (int s = 0; s < ANALYSIS_SIDES; s++) {
				if (!sides[s]->present || cr->side[s].npads == 0)
					continue;
				sides[s]->counters.value[k] = cr->side[s].summary.center;
				sides[s]->counters.present = 1;
			}
		}
	}
	if ((r = run_bench_hot(&st->build, b, mb, err)) < 0 || (r = fill_profile(b, mb, err)) < 0)
		return r;
	/* Whether the sides did the same work (run-work.c), which the shift
	 * rule reads with the hot code's identity. */
	if ((r = run_set(&mb->work, run_work_name(b->work), err)) < 0 ||
	    (b->work_note && (r = run_manifest_note(mb, b->work_note, err)) < 0))
		return r;
	/* The verdict, with the hot code's identity: stats/rule.h. */
	{
		struct stats_judgement jd;
		if ((r = run_judge(st->cfg, mb, ar, &jd, err)) < 0 ||
		    (r = manifest_record_judgement(mb, &jd, err)) < 0)
			return r;
	}
	/* The checksum oracle. */
	if (cb->checksum != CONFIG_CHECKSUM_OFF && (b->ck[0].value[0] || b->ck[1].value[0])) {
		mb->checksum.present = 1;
		mb->checksum.consistent = 1;
		if ((r = run_set(&mb->checksum.base, b->ck[0].value[0] ? b->ck[0].value : NULL, err)) < 0 ||
		    (r = run_set(&mb->checksum.candidate, b->ck[1].value[0] ? b->ck[1].value : NULL, err)) < 0)
			return r;
		if (strcmp(b->ck[0].value, b->ck[1].value) != 0) {
			char note[400];
			snprintf(note, sizeof(note), "behaviour changed: base printed checksum=%s, candidate checksum=%s",
				 b->ck[0].value[0] ? b->ck[0].value : "(none)",
				 b->ck[1].value[0] ? b->ck[1].value : "(none)");
			if ((r = run_manifest_note(mb, note, err)) < 0)
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
			if ((r = run_manifest_note(mb, note, err)) < 0)
				return r;
		}
	}
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

/* A samples-mode benchmark's warmup policy as the manifest writes it. */
static const char *bench_warmup_policy(const struct config_bench *cb, char *buf, size_t size)
{
	if (cb->warmup == CONFIG_WARMUP_AUTO)
		return "auto";
	if (cb->warmup == CONFIG_WARMUP_NONE)
		return "none";
	snprintf(buf, size, "%llu", (unsigned long long)cb->warmup_count);
	return buf;
}

/* run.warmup.policy: the first samples-mode benchmark's. */
static const char *warmup_policy(const struct plumb_config *cfg, char *buf, size_t size)
{
	for (size_t i = 0; i < cfg->nbenches; i++)
		if (cfg->benches[i].mode == CONFIG_MODE_SAMPLES)
			return bench_warmup_policy(&cfg->benches[i], buf, size);
	return "none";
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

/*
 * The manifest of a measured run: tool, times, the spec, the repository
 * and both commits, the build and its variants, the host facts at start
 * and end, the run's settings and labels, and every benchmark's record.
 */
int run_manifest_record(struct run_state *st, struct manifest *m,
			struct host_facts *start, struct host_facts *end,
			struct plumb_err *err)
{
	const struct plumb_config *cfg = st->cfg;
	char t[MANIFEST_TIME_MAX], policy[32];
	int r;

	if ((r = run_set(&m->tool.name, "plumb", err)) < 0 ||
	    (r = run_set(&m->tool.version, PACKAGE_VERSION, err)) < 0)
		return r;
	if ((r = time_now(t)) < 0 || (r = run_set(&m->created, t, err)) < 0 ||
	    (r = run_set(&m->run.end, t, err)) < 0) {
		if (r == -1)
			r = plumb_err_set(err, PLUMB_EINTERNAL, "the clock is out of range");
		return r;
	}
	if (contain_method_name() &&
	    ((r = run_set(&m->run.containment_method, contain_method_name(), err)) < 0 ||
	     (contain_reason()[0] &&
	      (r = run_set(&m->run.containment_reason, contain_reason(), err)) < 0)))
		return r;
	m->spec = config_to_json(st->given);   /* as given: a gbench section, not its expansion */
	if (!m->spec) {
		r = plumb_err_oom(err, "manifest");
		return r;
	}
	if ((r = run_set(&m->run.project, st->build.project, err)) < 0 ||
	    (r = run_set(&m->repo.url, st->build.repo, err)) < 0 ||
	    (r = fill_commit(&m->repo.base, &st->build.side[RUNNER_BASE], err)) < 0 ||
	    (r = fill_commit(&m->repo.candidate, &st->build.side[RUNNER_CANDIDATE], err)) < 0)
		return r;
	switch (cfg->build.pad) {
	case CONFIG_PAD_LINK: m->build.method = MANIFEST_METHOD_LINK; break;
	case CONFIG_PAD_ENV: m->build.method = MANIFEST_METHOD_ENV; break;
	case CONFIG_PAD_NONE: m->build.method = MANIFEST_METHOD_NONE; break;
	}
	m->build.pad_bytes = cfg->build.pad_bytes;
	if ((r = run_set(&m->build.command, cfg->build.command, err)) < 0 ||
	    (r = run_set(&m->build.pad_offsets, cfg->build.pad_offsets == CONFIG_OFFSETS_SPREAD ?
			 "spread" : "linear", err)) < 0 ||
	    (r = fill_variants(st, m, err)) < 0)
		return r;
	if ((r = host_json(start, &m->host.start, err)) < 0 ||
	    (r = host_json(end, &m->host.end, err)) < 0 ||
	    (r = run_set(&m->host.fingerprint, host_fingerprint(start), err)) < 0)
		return r;
	m->run.seed = (int64_t)cfg->run.seed;
	m->run.rounds = (int64_t)m->run.n_order;
	m->run.warmup_runs = cfg->run.warmup_runs;
	if ((r = run_set(&m->run.warmup_policy, warmup_policy(cfg, policy, sizeof(policy)), err)) < 0)
		return r;
	m->run.counters_available = st->counters && !st->counters_broken;
	if (!m->run.counters_available && (r = run_set(&m->run.counters_reason, st->counters_reason, err)) < 0)
		return r;
	if ((r = fill_labels(cfg, m, err)) < 0 || (r = run_valgrind_manifest_run(st, m, err)) < 0 ||
	    (r = run_provenance(st, m, err)) < 0 || (r = run_artifacts(st, m, err)) < 0)
		return r;
	for (size_t i = 0; i < cfg->nbenches; i++)
		if ((r = fill_bench(st, &st->benches[i], m, err)) < 0)
			return r;
	return run_sweep_record(st, m, err);
}
