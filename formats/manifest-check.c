/*
 * formats/manifest-check.c: the semantic rules of a manifest, shared by
 * reading and writing (manifest_validate): times, commits, variants, the
 * run, every bench and side, and the members checked by their own files
 * (manifest-provenance.c, manifest-range.c, manifest-sweep.c).  The model
 * is manifest.c, below all of these.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/units.h"
#include "formats/manifest.h"
#include "formats/manifest-internal.h"
#include "formats/manifest-range.h"
#include "formats/manifest-sweep.h"
#include "common/banned.h"

#define bad manifest_fail

static int check_time(const char *path, const char *s, int required,
		      struct plumb_err *err)
{
	int64_t t;

	if (!s)
		return required ? bad(err, "%s: missing required field", path) : 0;
	if (manifest_time_parse(s, &t) < 0)
		return bad(err, "%s: '%.64s' is not an RFC 3339 UTC time like 2024-05-01T12:00:00Z",
			   path, s);
	return 0;
}

static int check_commit(const char *side, const struct manifest_commit *c,
			int imported, struct plumb_err *err)
{
	char path[64];

	if (!c->ref)
		return bad(err, "repo.%s.ref: missing required field", side);
	if (!c->commit && !imported)
		return bad(err, "repo.%s.commit: missing required field", side);
	if (c->commit && !manifest_is_hex(c->commit, 40, 64))
		return bad(err, "repo.%s.commit: '%.64s' is not a full lower-case hex object id",
			   side, c->commit);
	if (c->tree && !manifest_is_hex(c->tree, 40, 64))
		return bad(err, "repo.%s.tree: '%.64s' is not a full lower-case hex object id",
			   side, c->tree);
	snprintf(path, sizeof(path), "repo.%s.time", side);
	if (check_time(path, c->time, 0, err) < 0)
		return PLUMB_EINPUT;
	if (c->dirty < MANIFEST_UNKNOWN || c->dirty > 1)
		return bad(err, "repo.%s.dirty: not a boolean", side);
	return 0;
}

/* source: an imported bundle's origin; tool and files are required. */
static int check_source(const json_t *s, struct plumb_err *err)
{
	const json_t *files = json_object_get(s, "files");
	size_t i;
	json_t *f;

	if (!json_is_object(s))
		return bad(err, "source: expected object");
	if (!json_is_string(json_object_get(s, "tool")))
		return bad(err, "source.tool: %s", json_object_get(s, "tool") ?
			   "expected string" : "missing required field");
	if (!json_is_array(files))
		return bad(err, "source.files: %s", files ? "expected array" :
			   "missing required field");
	json_array_foreach(files, i, f) {
		const char *sum = json_string_value(json_object_get(f, "sha256"));
		if (!json_is_object(f))
			return bad(err, "source.files[%zu]: expected object", i);
		if (!json_is_string(json_object_get(f, "path")))
			return bad(err, "source.files[%zu].path: expected string", i);
		if (!sum || !manifest_is_hex(sum, 64, 64))
			return bad(err, "source.files[%zu].sha256: expected 64 lower-case hex digits", i);
	}
	return 0;
}

/* Sort key for (side, pad) uniqueness and lookups. */
struct vkey {
	int side;
	int64_t pad;
	size_t index;
};

static int cmp_vkey(const void *a, const void *b)
{
	const struct vkey *x = a, *y = b;

	if (x->side != y->side)
		return x->side < y->side ? -1 : 1;
	if (x->pad != y->pad)
		return x->pad < y->pad ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int check_variants(const struct manifest_build *b, struct plumb_err *err)
{
	struct vkey *keys;
	size_t i, j;
	char label[MANIFEST_LABEL_MAX];

	for (i = 0; i < b->n_variants; i++) {
		const struct manifest_variant *v = &b->variants[i];
		int art = (v->artifact_path != NULL) + (v->artifact_sha256 != NULL) +
			  (v->artifact_size >= 0);

		if ((int)v->side < 0 || v->side > MANIFEST_SIDE_CONTROL)
			return bad(err, "build.variants[%zu].side: not a side", i);
		if (v->pad < 0)
			return bad(err, "build.variants[%zu].pad: must be at least 0", i);
		if (art != 0 && art != 3)
			return bad(err, "build.variants[%zu].artifact: path, size and sha256 go together", i);
		if (v->artifact_sha256 && !manifest_is_hex(v->artifact_sha256, 64, 64))
			return bad(err, "build.variants[%zu].artifact.sha256: not 64 lower-case hex digits", i);
		if (v->build_ns < -1)
			return bad(err, "build.variants[%zu].buildNs: must be at least 0", i);
		if (v->pad_offset < -1)
			return bad(err, "build.variants[%zu].padOffset: must be at least 0", i);
		if (v->pad_offset > 0 && v->pad == 0)
			return bad(err, "build.variants[%zu].padOffset: pad 0 is at offset 0", i);
		if ((v->reused_bisect != NULL) != (v->reused_comparison != 0))
			return bad(err, "build.variants[%zu].reused: bisect and comparison go together", i);
		if (v->reused_bisect && (v->side != MANIFEST_SIDE_CONTROL || v->cached))
			return bad(err, "build.variants[%zu].reused: only the control is reused, and never from the build cache", i);
		if (v->reused_bisect && (!*v->reused_bisect || v->reused_comparison < 1))
			return bad(err, "build.variants[%zu].reused: an empty bisect id or a comparison below 1", i);
		for (j = 0; j < v->n_hot; j++) {
			const struct manifest_hot_symbol *h = &v->hot[j];
			if (!h->name || !*h->name)
				return bad(err, "build.variants[%zu].hot[%zu].name: missing required field", i, j);
			if (h->address < 0)
				return bad(err, "build.variants[%zu].hot[%zu].address: must be at least 0", i, j);
			if (h->size < 0)
				return bad(err, "build.variants[%zu].hot[%zu].size: must be at least 0", i, j);
			if (h->sha256 && !manifest_is_hex(h->sha256, 64, 64))
				return bad(err, "build.variants[%zu].hot[%zu].sha256: not 64 lower-case hex digits", i, j);
		}
	}
	if (b->n_variants < 2)
		return 0;
	keys = malloc(b->n_variants * sizeof(*keys));
	if (!keys)
		return plumb_err_oom(err, "manifest variants");
	for (i = 0; i < b->n_variants; i++) {
		keys[i].side = (int)b->variants[i].side;
		keys[i].pad = b->variants[i].pad;
		keys[i].index = i;
	}
	qsort(keys, b->n_variants, sizeof(*keys), cmp_vkey);
	for (i = 1; i < b->n_variants; i++) {
		if (keys[i].side == keys[i - 1].side && keys[i].pad == keys[i - 1].pad) {
			manifest_variant_label(&b->variants[keys[i].index], label);
			j = keys[i].index;
			i = keys[i - 1].index;
			free(keys);
			return bad(err, "build.variants[%zu]: variant '%s' is listed twice (also build.variants[%zu])",
				   j, label, i);
		}
	}
	free(keys);
	return 0;
}

static int check_run(const struct manifest *m, struct plumb_err *err)
{
	const struct manifest_run *r = &m->run;
	size_t i, j, *stamp;
	const char **keys;

	if (r->seed < 0)
		return bad(err, "run.seed: must be at least 0");
	if (r->rounds < 0)
		return bad(err, "run.rounds: must be at least 0");
	if (check_time("run.start", r->start, 0, err) < 0 ||
	    check_time("run.end", r->end, 0, err) < 0)
		return PLUMB_EINPUT;
	if ((r->warmup_runs >= 0) != (r->warmup_policy != NULL))
		return bad(err, "run.warmup: runs and policy go together");
	if (r->warmup_runs < -1)
		return bad(err, "run.warmup.runs: must be at least 0");
	if (r->warmup_policy && !manifest_is_warmup_policy(r->warmup_policy))
		return bad(err, "run.warmup.policy: '%.64s' is not auto, none or a count",
			   r->warmup_policy);
	if (r->counters_available < MANIFEST_UNKNOWN || r->counters_available > 1)
		return bad(err, "run.counters.available: not a boolean");
	if (r->counters_reason && r->counters_available == MANIFEST_UNKNOWN)
		return bad(err, "run.counters.available: missing required field");
	if (r->containment_reason && !r->containment_method)
		return bad(err, "run.containment.method: missing required field");
	if (r->containment_method && strcmp(r->containment_method, "cgroup2") != 0 &&
	    strcmp(r->containment_method, "subreaper") != 0)
		return bad(err, "run.containment.method: '%.64s' is not cgroup2 or subreaper",
			   r->containment_method);
	if (r->n_order > 0 && (int64_t)r->n_order != r->rounds)
		return bad(err, "run.order: %zu rounds listed, run.rounds is %lld",
			   r->n_order, (long long)r->rounds);
	if (r->n_order > 0) {
		stamp = calloc(m->build.n_variants ? m->build.n_variants : 1, sizeof(*stamp));
		if (!stamp)
			return plumb_err_oom(err, "manifest order");
		for (i = 0; i < r->n_order; i++) {
			for (j = 0; j < r->order[i].n; j++) {
				size_t v = r->order[i].variants[j];
				if (v >= m->build.n_variants) {
					free(stamp);
					return bad(err, "run.order[%zu][%zu]: no such variant in build.variants", i, j);
				}
				if (stamp[v] == i + 1) {
					char label[MANIFEST_LABEL_MAX];
					manifest_variant_label(&m->build.variants[v], label);
					free(stamp);
					return bad(err, "run.order[%zu][%zu]: variant '%s' runs twice in one round",
						   i, j, label);
				}
				stamp[v] = i + 1;
			}
		}
		free(stamp);
	}
	if (r->sweep && manifest_sweep_check(r->sweep, err) < 0)
		return PLUMB_EINPUT;
	if (r->n_conditions > 0 && (int64_t)r->n_conditions != r->rounds)
		return bad(err, "run.conditions: %zu rounds listed, run.rounds is %lld",
			   r->n_conditions, (long long)r->rounds);
	for (i = 0; i < r->n_conditions; i++) {
		const struct manifest_condition *c = &r->conditions[i];
		if (c->at_ns < 0)
			return bad(err, "run.conditions[%zu].atNs: missing required field", i);
		if (isnan(c->load[0]) != isnan(c->load[1]) || isnan(c->load[0]) != isnan(c->load[2]))
			return bad(err, "run.conditions[%zu].load: needs all three load averages", i);
		for (j = 0; j < 3; j++)
			if (!isnan(c->load[j]) && (!isfinite(c->load[j]) || c->load[j] < 0))
				return bad(err, "run.conditions[%zu].load[%zu]: must be a finite number >= 0", i, j);
		if (c->cur_khz_min < -1 || c->cur_khz_max < -1 ||
		    (c->cur_khz_min >= 0 && c->cur_khz_max >= 0 && c->cur_khz_min > c->cur_khz_max))
			return bad(err, "run.conditions[%zu]: curKhzMin must not exceed curKhzMax", i);
	}
	if (r->n_labels == 0)
		return 0;
	keys = malloc(r->n_labels * sizeof(*keys));
	if (!keys)
		return plumb_err_oom(err, "manifest labels");
	for (i = 0; i < r->n_labels; i++) {
		if (!r->labels[i].key || !*r->labels[i].key || !r->labels[i].value) {
			free(keys);
			return bad(err, "run.labels: label %zu has no key or no value", i);
		}
		keys[i] = r->labels[i].key;
	}
	qsort(keys, r->n_labels, sizeof(*keys), manifest_cmp_str);
	for (i = 1; i < r->n_labels; i++) {
		if (strcmp(keys[i], keys[i - 1]) == 0) {
			bad(err, "run.labels: label '%.64s' is given twice", keys[i]);
			free(keys);
			return PLUMB_EINPUT;
		}
	}
	free(keys);
	return 0;
}

static int finite_or_absent(double v)
{
	return isnan(v) || isfinite(v);
}

static int check_side(size_t bi, const char *side, const struct manifest_side_stats *s,
		      struct plumb_err *err)
{
	double lo, hi;
	char a[UNITS_MAX], b[UNITS_MAX];
	size_t i;

	if (s->n_pads == 0 || !s->pads)
		return bad(err, "benches[%zu].sides.%s.pads: needs at least one pad", bi, side);
	lo = hi = s->pads[0];
	for (i = 0; i < s->n_pads; i++) {
		if (!isfinite(s->pads[i]))
			return bad(err, "benches[%zu].sides.%s.pads[%zu]: not a finite number", bi, side, i);
		if (s->pads[i] < lo)
			lo = s->pads[i];
		if (s->pads[i] > hi)
			hi = s->pads[i];
	}
	if (!isfinite(s->center))
		return bad(err, "benches[%zu].sides.%s.center: %s", bi, side,
			   isnan(s->center) ? "missing required field" : "not a finite number");
	if (!isfinite(s->min))
		return bad(err, "benches[%zu].sides.%s.min: %s", bi, side,
			   isnan(s->min) ? "missing required field" : "not a finite number");
	if (!isfinite(s->max))
		return bad(err, "benches[%zu].sides.%s.max: %s", bi, side,
			   isnan(s->max) ? "missing required field" : "not a finite number");
	units_as_read(s->min, a);
	units_as_read(lo, b);
	if (s->min != lo)
		return bad(err, "benches[%zu].sides.%s.min: %s is not the smallest pad median (%s)",
			   bi, side, a, b);
	units_as_read(s->max, a);
	units_as_read(hi, b);
	if (s->max != hi)
		return bad(err, "benches[%zu].sides.%s.max: %s is not the largest pad median (%s)",
			   bi, side, a, b);
	units_as_read(s->center, a);
	if (s->center < s->min || s->center > s->max)
		return bad(err, "benches[%zu].sides.%s.center: %s is outside [min, max]",
			   bi, side, a);
	if (!finite_or_absent(s->spread) || (!isnan(s->spread) && s->spread < 0))
		return bad(err, "benches[%zu].sides.%s.spread: not a finite number >= 0", bi, side);
	if (s->rounds < -1)
		return bad(err, "benches[%zu].sides.%s.rounds: must be at least 0", bi, side);
	if (!finite_or_absent(s->p99))
		return bad(err, "benches[%zu].sides.%s.p99: not a finite number", bi, side);
	if (!finite_or_absent(s->co_p99))
		return bad(err, "benches[%zu].sides.%s.coP99: not a finite number", bi, side);
	for (int k = 0; s->counters.present && k < METRIC_NCOUNTERS; k++)
		if (!finite_or_absent(s->counters.value[k]))
			return bad(err, "benches[%zu].sides.%s.counters: not a finite number", bi, side);
	return 0;
}

static int is_bool(int v)
{
	return v == 0 || v == 1;
}

static int check_bench(size_t i, const struct manifest_bench *b, struct plumb_err *err)
{
	size_t j;

	if (!b->name || !*b->name)
		return bad(err, "benches[%zu].name: missing required field", i);
	if ((int)b->mode < 0 || b->mode > MANIFEST_MODE_GBENCH)
		return bad(err, "benches[%zu].mode: not a mode", i);
	if ((b->mode == MANIFEST_MODE_GBENCH) != (b->gbench.present != 0))
		return bad(err, "benches[%zu].gbench: %s", i, b->gbench.present ?
			   "only in mode gbench" : "missing required field (mode gbench)");
	if (b->gbench.present && (!b->gbench.section || !*b->gbench.section))
		return bad(err, "benches[%zu].gbench.section: missing required field", i);
	if (b->gbench.present && (!b->gbench.name || !*b->gbench.name))
		return bad(err, "benches[%zu].gbench.name: missing required field", i);
	if (b->gbench.present && (!b->gbench.family || !*b->gbench.family))
		return bad(err, "benches[%zu].gbench.family: missing required field", i);
	if ((unsigned)b->metric >= METRIC_COUNT || !metric_table[b->metric].bench)
		return bad(err, "benches[%zu].metric: not a metric", i);
	if (b->warmup && !manifest_is_warmup_policy(b->warmup))
		return bad(err, "benches[%zu].warmup: '%.64s' is not auto, none or a count", i,
			   b->warmup);
	if (!b->failure) {
		if (!b->base.present)
			return bad(err, "benches[%zu].sides.base: missing required field", i);
		if (!b->candidate.present)
			return bad(err, "benches[%zu].sides.candidate: missing required field", i);
		if (b->verdict == VERDICT_UNSET)
			return bad(err, "benches[%zu].verdict: missing required field", i);
	}
	if (b->base.present && check_side(i, "base", &b->base, err) < 0)
		return PLUMB_EINPUT;
	if (b->candidate.present && check_side(i, "candidate", &b->candidate, err) < 0)
		return PLUMB_EINPUT;
	if (b->control.present && check_side(i, "control", &b->control, err) < 0)
		return PLUMB_EINPUT;
	if (!finite_or_absent(b->ratio))
		return bad(err, "benches[%zu].ratio: not a finite number", i);
	if ((int)b->verdict < 0 || b->verdict >= VERDICT_COUNT)
		return bad(err, "benches[%zu].verdict: not a verdict", i);
	if ((int)b->direction < 0 || b->direction > MANIFEST_DIRECTION_FASTER)
		return bad(err, "benches[%zu].direction: not a direction", i);
	if (verdict_directed(b->verdict) && b->direction == MANIFEST_DIRECTION_UNSET)
		return bad(err, "benches[%zu].direction: missing required field (verdict is %s)", i,
			   verdict_name(b->verdict));
	if (!verdict_directed(b->verdict) && b->direction != MANIFEST_DIRECTION_UNSET)
		return bad(err, "benches[%zu].direction: a verdict '%s' has no direction", i,
			   b->verdict == VERDICT_UNSET ? "(none)" : verdict_name(b->verdict));
	if (b->rule.present) {
		if (!b->rule.name)
			return bad(err, "benches[%zu].rule.name: missing required field", i);
		int shift = strcmp(b->rule.name, "shift") == 0;
		if (!((strcmp(b->rule.name, "overlap") == 0 && b->rule.version == 1) ||
		      (strcmp(b->rule.name, "margin") == 0 && b->rule.version == 2) ||
		      (shift && (b->rule.version == 3 || b->rule.version == 4))))
			return bad(err, "benches[%zu].rule: unknown rule (overlap version 1, margin version 2 "
				   "and shift versions 3 and 4 exist)", i);
		if (!(b->rule.confidence >= 0.5 && b->rule.confidence < 1))
			return bad(err, "benches[%zu].rule.confidence: needs a number in [0.5, 1)", i);
		if (shift && !(b->rule.min_effect >= 0 && b->rule.min_effect < 1))
			return bad(err, "benches[%zu].rule.minEffect: needs a number in [0, 1)", i);
		if (!shift && !isnan(b->rule.min_effect))
			return bad(err, "benches[%zu].rule.minEffect: only the shift rule has one", i);
	}
	if (b->shift.present &&
	    !(isfinite(b->shift.estimate) && isfinite(b->shift.lo) && isfinite(b->shift.hi) &&
	      b->shift.lo <= b->shift.estimate && b->shift.estimate <= b->shift.hi &&
	      b->shift.level >= 0 && b->shift.level <= 1 && b->shift.p > 0 && b->shift.p <= 1 &&
	      b->shift.p_min > 0 && b->shift.p_min <= b->shift.p))
		return bad(err, "benches[%zu].shift: needs finite lo <= estimate <= hi, level in [0, 1], "
			   "0 < pMin <= p <= 1", i);
	if (b->work && strcmp(b->work, "same") != 0 && strcmp(b->work, "different") != 0)
		return bad(err, "benches[%zu].work: expected one of same, different", i);
	if (b->rule.present && strcmp(b->rule.name, "shift") != 0) {
		if (!(b->rule.noise_factor >= 0 && b->rule.noise_factor <= 100))
			return bad(err, "benches[%zu].rule.noiseFactor: needs a number in [0, 100]", i);
		if (b->rule.resamples < 100 || b->rule.resamples > 100000)
			return bad(err, "benches[%zu].rule.resamples: needs a whole number in [100, 100000]", i);
		if (b->rule.seed < 0)
			return bad(err, "benches[%zu].rule.seed: missing required field", i);
	}
	if (b->interval.present && !(isfinite(b->interval.lo) && isfinite(b->interval.hi) &&
				     b->interval.lo <= b->interval.hi))
		return bad(err, "benches[%zu].interval: needs finite lo <= hi", i);
	if (b->noise_basis.present &&
	    !(isfinite(b->noise_basis.figure) && isfinite(b->noise_basis.rounds) &&
	      isfinite(b->noise_basis.margin) && finite_or_absent(b->noise_basis.control) &&
	      finite_or_absent(b->noise_basis.gap)))
		return bad(err, "benches[%zu].noiseBasis: needs finite figure, rounds and margin", i);
	if (b->detectable.present && !(isfinite(b->detectable.slower) && isfinite(b->detectable.faster)))
		return bad(err, "benches[%zu].detectable: needs finite slower and faster", i);
	if (b->profile.present) {
		if (!(b->profile.coverage > 0 && b->profile.coverage <= 1))
			return bad(err, "benches[%zu].profile.coverage: needs a number in (0, 1]", i);
		for (int s = 0; s < 2; s++) {
			const struct manifest_profile_side *ps = s ? &b->profile.candidate : &b->profile.base;
			if (!ps->present)
				continue;
			if (ps->samples < 0)
				return bad(err, "benches[%zu].profile.%s.samples: missing required field", i,
					   s ? "candidate" : "base");
			for (size_t k = 0; k < ps->n_symbols; k++)
				if (!ps->symbols[k].name || !(ps->symbols[k].share >= 0 && ps->symbols[k].share <= 1))
					return bad(err, "benches[%zu].profile.%s.symbols[%zu]: needs a name and a share in [0, 1]",
						   i, s ? "candidate" : "base", k);
		}
	}
	if (b->noise.present &&
	    (!isfinite(b->noise.relative) || !is_bool(b->noise.too_noisy)))
		return bad(err, "benches[%zu].noise: needs a finite relative and a tooNoisy boolean", i);
	if (b->hot.present) {
		if (!is_bool(b->hot.identical))
			return bad(err, "benches[%zu].hot.identical: missing required field", i);
		for (j = 0; j < b->hot.n_symbols; j++) {
			if (!b->hot.symbols[j].name || !*b->hot.symbols[j].name)
				return bad(err, "benches[%zu].hot.symbols[%zu].name: missing required field", i, j);
			if (!is_bool(b->hot.symbols[j].identical))
				return bad(err, "benches[%zu].hot.symbols[%zu].identical: missing required field", i, j);
			if (b->hot.symbols[j].verdict) {
				const char *v = b->hot.symbols[j].verdict;
				int same = strcmp(v, "identical") == 0;
				if (!same && strcmp(v, "identical except addresses") != 0 &&
				    strcmp(v, "changed") != 0)
					return bad(err, "benches[%zu].hot.symbols[%zu].verdict: '%.64s' is not identical, identical except addresses or changed",
						   i, j, v);
				if (same != (b->hot.symbols[j].identical == 1))
					return bad(err, "benches[%zu].hot.symbols[%zu].verdict: '%s' contradicts identical",
						   i, j, v);
			}
		}
	}
	if (b->checksum.present && !is_bool(b->checksum.consistent))
		return bad(err, "benches[%zu].checksum.consistent: missing required field", i);
	if (b->steady.present) {
		if (b->steady.window < 0)
			return bad(err, "benches[%zu].steadyState.window: missing required field", i);
		if (!isfinite(b->steady.tolerance) || b->steady.tolerance < 0)
			return bad(err, "benches[%zu].steadyState.tolerance: needs a finite number >= 0", i);
		if (b->steady.unsettled < 0)
			return bad(err, "benches[%zu].steadyState.unsettled: missing required field", i);
		if (!finite_or_absent(b->steady.start))
			return bad(err, "benches[%zu].steadyState.start: not a finite number", i);
	}
	for (j = 0; j < b->n_notes; j++)
		if (!b->notes[j])
			return bad(err, "benches[%zu].notes[%zu]: expected string", i, j);
	return 0;
}

/* Bench names sorted with their index, for the uniqueness check. */
struct nkey {
	const char *name;
	size_t index;
};

static int cmp_nkey(const void *a, const void *b)
{
	const struct nkey *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->index < y->index ? -1 : x->index > y->index);
}

int manifest_validate(const struct manifest *m, struct plumb_err *err)
{
	struct nkey *names;
	size_t i;

	if (!m->tool.name)
		return bad(err, "tool.name: missing required field");
	if (!m->tool.version)
		return bad(err, "tool.version: missing required field");
	if (check_time("created", m->created, 1, err) < 0)
		return PLUMB_EINPUT;
	if (!m->spec)
		return bad(err, "spec: missing required field");
	if (!json_is_object(m->spec))
		return bad(err, "spec: expected object");
	if (m->provenance && manifest_provenance_check(m->provenance, err) < 0)
		return PLUMB_EINPUT;
	if (m->range && manifest_range_read(m->range, NULL, err) < 0)
		return PLUMB_EINPUT;
	if (m->source && check_source(m->source, err) < 0)
		return PLUMB_EINPUT;
	if (check_commit("base", &m->repo.base, m->source != NULL, err) < 0 ||
	    check_commit("candidate", &m->repo.candidate, m->source != NULL, err) < 0)
		return PLUMB_EINPUT;
	if ((int)m->build.method < 0 || m->build.method > MANIFEST_METHOD_NONE)
		return bad(err, "build.method: not a method");
	if (m->build.pad_bytes < 0)
		return bad(err, "build.padBytes: must be at least 0");
	if (check_variants(&m->build, err) < 0)
		return err ? err->code : PLUMB_EINPUT;
	if (!m->host.start)
		return bad(err, "host.start: missing required field");
	if (!json_is_object(m->host.start))
		return bad(err, "host.start: expected object");
	if (m->host.end && !json_is_object(m->host.end))
		return bad(err, "host.end: expected object");
	if (check_run(m, err) < 0)
		return err ? err->code : PLUMB_EINPUT;
	for (i = 0; i < m->n_benches; i++)
		if (check_bench(i, &m->benches[i], err) < 0)
			return PLUMB_EINPUT;
	if (m->n_benches < 2)
		return 0;
	names = malloc(m->n_benches * sizeof(*names));
	if (!names)
		return plumb_err_oom(err, "manifest benches");
	for (i = 0; i < m->n_benches; i++) {
		names[i].name = m->benches[i].name;
		names[i].index = i;
	}
	qsort(names, m->n_benches, sizeof(*names), cmp_nkey);
	for (i = 1; i < m->n_benches; i++) {
		if (strcmp(names[i].name, names[i - 1].name) == 0) {
			bad(err, "benches[%zu].name: benchmark '%.64s' is listed twice (also benches[%zu])",
			    names[i].index, names[i].name, names[i - 1].index);
			free(names);
			return PLUMB_EINPUT;
		}
	}
	free(names);
	return 0;
}
