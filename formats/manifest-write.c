/*
 * formats/manifest-write.c: struct manifest to manifest.json text.
 *
 * The manifest is validated, turned into a jansson tree with the members in
 * the fixed order of formats/manifest-fields.md (opaque objects copied with
 * sorted keys), and printed by jsonio_dump(), whose number format and
 * indentation do not depend on the locale or on jansson's settings: the
 * same manifest gives the same bytes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "formats/manifest-internal.h"
#include "common/banned.h"

struct wr {
	struct jsonio_path path;
	struct plumb_err *err;
	int failed;
};

/* Add v (a new reference, NULL when it could not be made) as obj.key. */
static int put(struct wr *w, json_t *obj, const char *key, json_t *v)
{
	if (w->failed)
		goto drop;
	if (!v) {
		plumb_err_oom(w->err, "manifest");
		goto fail;
	}
	if (json_is_array(obj) ? json_array_append_new(obj, v) < 0
			       : json_object_set_new(obj, key, v) < 0) {
		plumb_err_oom(w->err, "manifest");
		goto fail;
	}
	return 0;
drop:
	json_decref(v);
	return -1;
fail:
	w->failed = 1;
	return -1;
}

/* A JSON string for s, or NULL with err naming the path. */
static json_t *str(struct wr *w, const char *key, const char *s)
{
	json_t *v = json_string(s), *raw;
	size_t old;

	if (v || w->failed)
		return v;
	/* jansson refuses invalid UTF-8 and running out of memory alike. */
	raw = json_string_nocheck(s);
	old = key ? jsonio_path_key(&w->path, key) : w->path.len;
	if (raw)
		manifest_fail(w->err, "%s: not valid UTF-8", jsonio_path_str(&w->path));
	else
		plumb_err_oom(w->err, "manifest");
	jsonio_path_restore(&w->path, old);
	json_decref(raw);
	w->failed = 1;
	return NULL;
}

static void put_str(struct wr *w, json_t *obj, const char *key, const char *s)
{
	json_t *v;

	if (!s || w->failed)
		return;
	v = str(w, key, s);
	if (v)
		put(w, obj, key, v);
}

static void put_int(struct wr *w, json_t *obj, const char *key, int64_t v)
{
	if (v >= 0)
		put(w, obj, key, json_integer((json_int_t)v));
}

static void put_num(struct wr *w, json_t *obj, const char *key, double v)
{
	if (!isnan(v))
		put(w, obj, key, json_real(v));
}

static void put_bool(struct wr *w, json_t *obj, const char *key, int v)
{
	if (v != MANIFEST_UNKNOWN)
		put(w, obj, key, json_boolean(v));
}

/* A new object put at obj.key; NULL once writing has failed. */
static json_t *put_obj(struct wr *w, json_t *obj, const char *key)
{
	json_t *o = json_object();

	return put(w, obj, key, o) == 0 ? o : NULL;
}

static json_t *put_arr(struct wr *w, json_t *obj, const char *key)
{
	json_t *a = json_array();

	return put(w, obj, key, a) == 0 ? a : NULL;
}

static void put_sorted(struct wr *w, json_t *obj, const char *key, const json_t *v)
{
	if (v)
		put(w, obj, key, jsonio_sorted_copy(v));
}

/* Enter obj.key (or element i when key is NULL) on the path. */
static size_t enter(struct wr *w, const char *key, size_t i)
{
	return key ? jsonio_path_key(&w->path, key) : jsonio_path_index(&w->path, i);
}

static void write_commit(struct wr *w, json_t *repo, const char *key,
			 const struct manifest_commit *c)
{
	size_t old = enter(w, key, 0);
	json_t *o = put_obj(w, repo, key);

	if (o) {
		put_str(w, o, "ref", c->ref);
		put_str(w, o, "commit", c->commit);
		put_str(w, o, "tree", c->tree);
		put_str(w, o, "subject", c->subject);
		put_str(w, o, "author", c->author);
		put_str(w, o, "time", c->time);
		put_bool(w, o, "dirty", c->dirty);
	}
	jsonio_path_restore(&w->path, old);
}

static void write_variant(struct wr *w, json_t *arr, size_t i,
			  const struct manifest_variant *v)
{
	size_t old = enter(w, NULL, i), old2, j;
	json_t *o = put_obj(w, arr, NULL), *a, *h;

	if (!o)
		goto out;
	put_str(w, o, "side", manifest_side_name(v->side));
	put(w, o, "pad", json_integer((json_int_t)v->pad));
	if (v->artifact_path) {
		old2 = enter(w, "artifact", 0);
		a = put_obj(w, o, "artifact");
		if (a) {
			put_str(w, a, "path", v->artifact_path);
			put_int(w, a, "size", v->artifact_size);
			put_str(w, a, "sha256", v->artifact_sha256);
		}
		jsonio_path_restore(&w->path, old2);
	}
	put_int(w, o, "buildNs", v->build_ns);
	put_int(w, o, "padOffset", v->pad_offset);
	if (v->cached)
		put_bool(w, o, "cached", 1);
	if (v->reused_bisect) {
		old2 = enter(w, "reused", 0);
		a = put_obj(w, o, "reused");
		if (a) {
			put_str(w, a, "bisect", v->reused_bisect);
			put(w, a, "comparison", json_integer((json_int_t)v->reused_comparison));
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (v->n_hot > 0) {
		old2 = enter(w, "hot", 0);
		a = put_arr(w, o, "hot");
		for (j = 0; a && j < v->n_hot; j++) {
			size_t old3 = enter(w, NULL, j);

			h = put_obj(w, a, NULL);
			if (h) {
				put_str(w, h, "name", v->hot[j].name);
				put(w, h, "address", json_integer((json_int_t)v->hot[j].address));
				put(w, h, "size", json_integer((json_int_t)v->hot[j].size));
				put_str(w, h, "sha256", v->hot[j].sha256);
			}
			jsonio_path_restore(&w->path, old3);
		}
		jsonio_path_restore(&w->path, old2);
	}
out:
	jsonio_path_restore(&w->path, old);
}

static void write_build(struct wr *w, json_t *root, const struct manifest_build *b)
{
	size_t old = enter(w, "build", 0), old2, i;
	json_t *o = put_obj(w, root, "build"), *a;

	if (o) {
		put_str(w, o, "method", manifest_method_name(b->method));
		put(w, o, "padBytes", json_integer((json_int_t)b->pad_bytes));
		put_str(w, o, "command", b->command);
		put_str(w, o, "padOffsets", b->pad_offsets);
		old2 = enter(w, "variants", 0);
		a = put_arr(w, o, "variants");
		for (i = 0; a && i < b->n_variants; i++)
			write_variant(w, a, i, &b->variants[i]);
		jsonio_path_restore(&w->path, old2);
	}
	jsonio_path_restore(&w->path, old);
}

static void write_run(struct wr *w, json_t *root, const struct manifest *m)
{
	const struct manifest_run *r = &m->run;
	char label[MANIFEST_LABEL_MAX];
	size_t old = enter(w, "run", 0), old2, i, j;
	json_t *o = put_obj(w, root, "run"), *g, *a, *round, *labels;

	if (!o)
		goto out;
	put(w, o, "seed", json_integer((json_int_t)r->seed));
	put(w, o, "rounds", json_integer((json_int_t)r->rounds));
	put_str(w, o, "start", r->start);
	put_str(w, o, "end", r->end);
	if (r->warmup_policy) {
		old2 = enter(w, "warmup", 0);
		g = put_obj(w, o, "warmup");
		if (g) {
			put_int(w, g, "runs", r->warmup_runs);
			put_str(w, g, "policy", r->warmup_policy);
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (r->counters_available != MANIFEST_UNKNOWN) {
		old2 = enter(w, "counters", 0);
		g = put_obj(w, o, "counters");
		if (g) {
			put_bool(w, g, "available", r->counters_available);
			put_str(w, g, "reason", r->counters_reason);
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (r->valgrind)
		put_sorted(w, o, "valgrind", r->valgrind);
	if (r->containment_method) {
		old2 = enter(w, "containment", 0);
		g = put_obj(w, o, "containment");
		if (g) {
			put_str(w, g, "method", r->containment_method);
			put_str(w, g, "reason", r->containment_reason);
		}
		jsonio_path_restore(&w->path, old2);
	}
	put_str(w, o, "project", r->project);
	if (r->n_labels > 0) {
		old2 = enter(w, "labels", 0);
		labels = json_object();
		if (!labels) {
			plumb_err_oom(w->err, "manifest");
			w->failed = 1;
		}
		for (i = 0; labels && !w->failed && i < r->n_labels; i++) {
			json_t *v = str(w, r->labels[i].key, r->labels[i].value);

			if (v && json_object_set_new(labels, r->labels[i].key, v) < 0) {
				size_t old3 = jsonio_path_key(&w->path, r->labels[i].key);
				manifest_fail(w->err, "%s: key is not valid UTF-8",
					      jsonio_path_str(&w->path));
				jsonio_path_restore(&w->path, old3);
				w->failed = 1;
			}
		}
		put_sorted(w, o, "labels", labels);
		json_decref(labels);
		jsonio_path_restore(&w->path, old2);
	}
	if (r->n_order > 0) {
		/* One string per variant, referenced by every round it ran in:
		 * a run of many short rounds makes no string per round. */
		json_t **vl = calloc(m->build.n_variants + 1, sizeof(*vl));

		if (!vl) {
			plumb_err_oom(w->err, "manifest");
			w->failed = 1;
		}
		a = vl ? put_arr(w, o, "order") : NULL;
		for (i = 0; a && i < r->n_order; i++) {
			round = put_arr(w, a, NULL);
			for (j = 0; round && j < r->order[i].n; j++) {
				size_t v = r->order[i].variants[j];
				if (!vl[v]) {
					manifest_variant_label(&m->build.variants[v], label);
					vl[v] = json_string(label);
				}
				if (put(w, round, NULL, json_incref(vl[v])) < 0)
					break;
			}
		}
		for (i = 0; vl && i < m->build.n_variants; i++)
			json_decref(vl[i]);
		free(vl);
	}
	if (r->n_conditions > 0) {
		old2 = enter(w, "conditions", 0);
		a = put_arr(w, o, "conditions");
		for (i = 0; a && i < r->n_conditions; i++) {
			const struct manifest_condition *c = &r->conditions[i];
			g = put_obj(w, a, NULL);
			if (!g)
				break;
			put_int(w, g, "atNs", c->at_ns);
			if (!isnan(c->load[0])) {
				json_t *l = put_arr(w, g, "load");
				for (j = 0; l && j < 3; j++)
					put(w, l, NULL, json_real(c->load[j]));
			}
			put_int(w, g, "curKhzMin", c->cur_khz_min);
			put_int(w, g, "curKhzMax", c->cur_khz_max);
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (r->sweep)
		put_sorted(w, o, "sweep", r->sweep);
out:
	jsonio_path_restore(&w->path, old);
}

static void write_side(struct wr *w, json_t *sides, const char *key,
		       const struct manifest_side_stats *s)
{
	size_t old, i;
	json_t *o, *a, *c;

	if (!s->present)
		return;
	old = enter(w, key, 0);
	o = put_obj(w, sides, key);
	if (!o)
		goto out;
	a = put_arr(w, o, "pads");
	for (i = 0; a && i < s->n_pads; i++)
		put(w, a, NULL, json_real(s->pads[i]));
	put_num(w, o, "center", s->center);
	put_num(w, o, "min", s->min);
	put_num(w, o, "max", s->max);
	put_num(w, o, "spread", s->spread);
	put_int(w, o, "rounds", s->rounds);
	put_num(w, o, "p99", s->p99);
	put_num(w, o, "coP99", s->co_p99);
	put_num(w, o, "rangeLo", s->range_lo);
	put_num(w, o, "rangeHi", s->range_hi);
	if (s->counters.present) {
		c = put_obj(w, o, "counters");
		if (c) {
			for (int k = 0; k < METRIC_NCOUNTERS; k++)
				put_num(w, c, metric_counter(k)->key, s->counters.value[k]);
		}
	}
out:
	jsonio_path_restore(&w->path, old);
}

static void write_profile_side(struct wr *w, json_t *obj, const char *key,
			       const struct manifest_profile_side *ps)
{
	size_t old;
	json_t *g, *a, *e;

	if (!ps->present)
		return;
	old = enter(w, key, 0);
	g = put_obj(w, obj, key);
	if (g) {
		put_int(w, g, "samples", ps->samples);
		a = put_arr(w, g, "symbols");
		for (size_t j = 0; a && j < ps->n_symbols; j++) {
			size_t old2 = enter(w, NULL, j);
			e = put_obj(w, a, NULL);
			if (e) {
				put_str(w, e, "name", ps->symbols[j].name);
				put_num(w, e, "share", ps->symbols[j].share);
			}
			jsonio_path_restore(&w->path, old2);
		}
	}
	jsonio_path_restore(&w->path, old);
}

/* obj.key = { k1: v1, k2: v2 } */
static void put_pair(struct wr *w, json_t *obj, const char *key, const char *k1, double v1,
		     const char *k2, double v2)
{
	json_t *g = put_obj(w, obj, key);

	if (g) {
		put_num(w, g, k1, v1);
		put_num(w, g, k2, v2);
	}
}

static void write_bench(struct wr *w, json_t *arr, size_t i, const struct manifest_bench *b)
{
	size_t old = enter(w, NULL, i), old2, j;
	json_t *o = put_obj(w, arr, NULL), *g, *a, *e;

	if (!o)
		goto out;
	put_str(w, o, "name", b->name);
	put_str(w, o, "mode", manifest_mode_name(b->mode));
	put_str(w, o, "metric", metric_name(b->metric));
	if (b->gbench.present) {
		old2 = enter(w, "gbench", 0);
		g = put_obj(w, o, "gbench");
		if (g) {
			put_str(w, g, "section", b->gbench.section);
			put_str(w, g, "name", b->gbench.name);
			put_str(w, g, "family", b->gbench.family);
		}
		jsonio_path_restore(&w->path, old2);
	}
	put_str(w, o, "failure", b->failure);
	put_str(w, o, "failureLog", b->failure_log);
	put_str(w, o, "warmup", b->warmup);
	if (b->base.present || b->candidate.present || b->control.present) {
		old2 = enter(w, "sides", 0);
		g = put_obj(w, o, "sides");
		if (g) {
			write_side(w, g, "base", &b->base);
			write_side(w, g, "candidate", &b->candidate);
			write_side(w, g, "control", &b->control);
		}
		jsonio_path_restore(&w->path, old2);
	}
	put_num(w, o, "ratio", b->ratio);
	put_str(w, o, "verdict", verdict_name(b->verdict));
	put_str(w, o, "direction", manifest_direction_name(b->direction));
	if (b->noise.present) {
		g = put_obj(w, o, "noise");
		if (g) {
			put_num(w, g, "relative", b->noise.relative);
			put_bool(w, g, "tooNoisy", b->noise.too_noisy);
		}
	}
	if (b->rule.present) {
		old2 = enter(w, "rule", 0);
		g = put_obj(w, o, "rule");
		if (g) {
			put_str(w, g, "name", b->rule.name);
			put_int(w, g, "version", b->rule.version);
			put_num(w, g, "confidence", b->rule.confidence);
			if (isnan(b->rule.min_effect)) {
				put_num(w, g, "noiseFactor", b->rule.noise_factor);
				put_int(w, g, "resamples", b->rule.resamples);
				put_int(w, g, "seed", b->rule.seed);
			} else {
				put_num(w, g, "minEffect", b->rule.min_effect);
			}
		}
		jsonio_path_restore(&w->path, old2);
	}
	put_str(w, o, "reason", b->reason);
	put_str(w, o, "work", b->work);
	if (b->shift.present) {
		g = put_obj(w, o, "shift");
		if (g) {
			put_num(w, g, "estimate", b->shift.estimate);
			put_num(w, g, "lo", b->shift.lo);
			put_num(w, g, "hi", b->shift.hi);
			put_num(w, g, "level", b->shift.level);
			put_num(w, g, "p", b->shift.p);
			put_num(w, g, "pMin", b->shift.p_min);
		}
	}
	if (b->interval.present)
		put_pair(w, o, "interval", "lo", b->interval.lo, "hi", b->interval.hi);
	if (b->noise_basis.present) {
		g = put_obj(w, o, "noiseBasis");
		if (g) {
			put_num(w, g, "figure", b->noise_basis.figure);
			put_num(w, g, "rounds", b->noise_basis.rounds);
			put_num(w, g, "control", b->noise_basis.control);
			put_num(w, g, "margin", b->noise_basis.margin);
			put_num(w, g, "gap", b->noise_basis.gap);
		}
	}
	if (b->detectable.present)
		put_pair(w, o, "detectable", "slower", b->detectable.slower,
			 "faster", b->detectable.faster);
	if (b->hot.present) {
		old2 = enter(w, "hot", 0);
		g = put_obj(w, o, "hot");
		if (g) {
			put_bool(w, g, "identical", b->hot.identical);
			if (b->hot.n_symbols > 0) {
				size_t old3 = enter(w, "symbols", 0);

				a = put_arr(w, g, "symbols");
				for (j = 0; a && j < b->hot.n_symbols; j++) {
					size_t old4 = enter(w, NULL, j);

					e = put_obj(w, a, NULL);
					if (e) {
						put_str(w, e, "name", b->hot.symbols[j].name);
						put_bool(w, e, "identical", b->hot.symbols[j].identical);
						put_str(w, e, "verdict", b->hot.symbols[j].verdict);
					}
					jsonio_path_restore(&w->path, old4);
				}
				jsonio_path_restore(&w->path, old3);
			}
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (b->profile.present) {
		old2 = enter(w, "profile", 0);
		g = put_obj(w, o, "profile");
		if (g) {
			put_num(w, g, "coverage", b->profile.coverage);
			write_profile_side(w, g, "base", &b->profile.base);
			write_profile_side(w, g, "candidate", &b->profile.candidate);
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (b->checksum.present) {
		old2 = enter(w, "checksum", 0);
		g = put_obj(w, o, "checksum");
		if (g) {
			put_bool(w, g, "consistent", b->checksum.consistent);
			put_str(w, g, "base", b->checksum.base);
			put_str(w, g, "candidate", b->checksum.candidate);
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (b->steady.present) {
		g = put_obj(w, o, "steadyState");
		if (g) {
			put_int(w, g, "window", b->steady.window);
			put_num(w, g, "tolerance", b->steady.tolerance);
			put_int(w, g, "unsettled", b->steady.unsettled);
			put_num(w, g, "start", b->steady.start);
		}
	}
	if (b->n_notes > 0) {
		old2 = enter(w, "notes", 0);
		a = put_arr(w, o, "notes");
		for (j = 0; a && j < b->n_notes; j++) {
			size_t old3 = enter(w, NULL, j);
			json_t *v = str(w, NULL, b->notes[j]);

			if (v)
				put(w, a, NULL, v);
			jsonio_path_restore(&w->path, old3);
		}
		jsonio_path_restore(&w->path, old2);
	}
	if (b->valgrind)
		put_sorted(w, o, "valgrind", b->valgrind);
out:
	jsonio_path_restore(&w->path, old);
}

/*
 * The lowest minor version whose readers understand m: a reader of 1.1
 * still reads every bundle that uses nothing of 1.2 to 1.5.
 */
static int64_t minor_needed(const struct manifest *m)
{
	int64_t need = m->source ? MANIFEST_VERSION_MINOR_SOURCE : 1;

	if (m->run.project)
		need = MANIFEST_VERSION_MINOR_SHIFT;
	for (size_t i = 0; i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		if (b->rule.present && b->rule.name && strcmp(b->rule.name, "shift") == 0 &&
		    b->rule.version >= 4)
			return MANIFEST_VERSION_MINOR;
		if (b->mode == MANIFEST_MODE_GBENCH)
			need = MANIFEST_VERSION_MINOR_GBENCH;
		if (need < MANIFEST_VERSION_MINOR_SHIFT &&
		    (b->shift.present || b->work || b->verdict == VERDICT_UNCHANGED ||
		     (b->rule.present && b->rule.name && strcmp(b->rule.name, "shift") == 0)))
			need = MANIFEST_VERSION_MINOR_SHIFT;
	}
	return need;
}

/* The whole tree, or NULL with err set. */
static json_t *build_tree(struct wr *w, const struct manifest *m)
{
	json_t *root = json_object(), *o, *a;
	size_t old, i;

	if (!root) {
		plumb_err_oom(w->err, "manifest");
		return NULL;
	}
	put_str(w, root, "format", MANIFEST_FORMAT);
	put(w, root, "version", json_integer(MANIFEST_VERSION_MAJOR));
	put(w, root, "minorVersion", json_integer(minor_needed(m)));
	old = enter(w, "tool", 0);
	o = put_obj(w, root, "tool");
	if (o) {
		put_str(w, o, "name", m->tool.name);
		put_str(w, o, "version", m->tool.version);
	}
	jsonio_path_restore(&w->path, old);
	put_str(w, root, "created", m->created);
	put_sorted(w, root, "spec", m->spec);
	old = enter(w, "repo", 0);
	o = put_obj(w, root, "repo");
	if (o) {
		put_str(w, o, "url", m->repo.url);
		write_commit(w, o, "base", &m->repo.base);
		write_commit(w, o, "candidate", &m->repo.candidate);
	}
	jsonio_path_restore(&w->path, old);
	write_build(w, root, &m->build);
	old = enter(w, "host", 0);
	o = put_obj(w, root, "host");
	if (o) {
		put_sorted(w, o, "start", m->host.start);
		put_sorted(w, o, "end", m->host.end);
		put_str(w, o, "fingerprint", m->host.fingerprint);
	}
	jsonio_path_restore(&w->path, old);
	write_run(w, root, m);
	put_sorted(w, root, "provenance", m->provenance);
	put_sorted(w, root, "source", m->source);
	put_sorted(w, root, "range", m->range);
	old = enter(w, "benches", 0);
	a = put_arr(w, root, "benches");
	for (i = 0; a && i < m->n_benches; i++)
		write_bench(w, a, i, &m->benches[i]);
	jsonio_path_restore(&w->path, old);
	if (w->failed) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int manifest_write(const struct manifest *m, struct buf *out,
		   struct plumb_err *err)
{
	struct wr w;
	json_t *root;
	size_t len0 = out->len;
	int rc;

	rc = manifest_validate(m, err);
	if (rc < 0)
		return rc;
	jsonio_path_init(&w.path);
	w.err = err;
	w.failed = 0;
	root = build_tree(&w, m);
	if (!root)
		return err && err->code ? err->code : PLUMB_EINTERNAL;
	rc = jsonio_dump(root, out, err);
	json_decref(root);
	if (rc < 0 && out->data) {
		/* Leave out as it was. */
		out->len = len0;
		out->data[len0] = '\0';
	}
	return rc;
}
