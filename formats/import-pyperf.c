/*
 * formats/import-pyperf.c: pyperf's JSON, format version "1.0" (pyperf
 * 1.0 and later; docs/import.md).
 *
 * {"version": "1.0", "metadata": {common}, "benchmarks": [{"metadata":
 * {...}, "runs": [{"metadata", "warmups": [[loops, value]...], "values":
 * [value...]}]}]}.  A suite and a single benchmark's file differ only in
 * how many benchmarks they hold (a single one often keeps its name in the
 * common metadata).  A benchmark's metadata is the common metadata
 * overridden by its own.  Each run with values was one worker process:
 * one round, its values the samples of that round (already per loop
 * iteration, in seconds for unit "second").  Warmup values are left out
 * and counted; runs without values (calibration) are left out and counted.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/import-internal.h"
#include "common/banned.h"

/* The facts plumb's host.start shape takes from pyperf's metadata. */
static const struct import_fact facts_map[] = {
	{ "hostname", "hostname", JSON_STRING, 0 },
	{ "cpu.model", "cpu_model_name", JSON_STRING, 0 },
	{ "cpu.logical", "cpu_count", JSON_INTEGER, 1 },
	{ "os.name", "platform", JSON_STRING, 0 },
};
#define N_FACTS (sizeof(facts_map) / sizeof(facts_map[0]))

/* common metadata overridden by the benchmark's own (scalars only). */
static json_t *merged(const json_t *common, const json_t *own)
{
	json_t *m = json_object();
	const char *k;
	json_t *v;

	if (!m)
		return NULL;
	json_object_foreach((json_t *)common, k, v)
		if (!json_is_object(v) && !json_is_array(v))
			json_object_set(m, k, v);
	json_object_foreach((json_t *)own, k, v)
		if (!json_is_object(v) && !json_is_array(v))
			json_object_set(m, k, v);
	return m;
}

static int read_runs(struct import_walk *w, const json_t *runs, struct import_entry *e,
		     struct import_series *s)
{
	size_t i, old = jsonio_path_key(&w->path, "runs"), warm = 0, calib = 0, maxv = 0;
	uint32_t round = 0;
	const json_t *run;
	int rc = 0;

	json_array_foreach(runs, i, run) {
		const json_t *values, *warmups;
		struct import_elem v;
		size_t o2 = jsonio_path_index(&w->path, i), k, nv;
		if (!json_is_object(run))
			rc = import_fail(w, "expected object");
		if (rc == 0 && (rc = import_array(w, run, "values", 0, &values)) >= 0 &&
		    (rc = import_array(w, run, "warmups", 0, &warmups)) >= 0) {
			rc = 0;
			warm += warmups ? import_size(w, warmups) : 0;
			nv = values ? import_size(w, values) : 0;
			if (nv == 0) {
				calib++;
			} else {
				size_t o3 = jsonio_path_key(&w->path, "values");
				round++;
				if (nv > maxv)
					maxv = nv;
				for (k = 0; k < nv; k++) {
					size_t o4 = jsonio_path_index(&w->path, k);
					import_elem(w, values, k, &v);
					rc = v.kind == IMPORT_ELEM_INTEGER || v.kind == IMPORT_ELEM_REAL
						     ? import_value(w, s, round, v.number * 1e9)
						     : import_fail(w, "expected number");
					jsonio_path_restore(&w->path, o4);
					if (rc < 0)
						break;
				}
				jsonio_path_restore(&w->path, o3);
			}
		}
		jsonio_path_restore(&w->path, o2);
		if (rc < 0)
			return rc;
	}
	jsonio_path_restore(&w->path, old);
	if (round == 0)
		return 1;
	rc = import_line(w, &e->notes, &e->n_notes, "pyperf: %u runs (worker processes) of up to "
			 "%zu values each; %zu warmup values left out", round, maxv, warm);
	if (rc == 0 && calib)
		rc = import_line(w, &e->notes, &e->n_notes, "pyperf: %zu calibration run%s without "
				 "values left out", calib, calib == 1 ? "" : "s");
	return rc;
}

/* The top level: its version and common metadata (kept in w->state). */
static int begin(struct import_walk *w)
{
	const json_t *root = w->top, *version = json_object_get(root, "version"), *common = NULL,
		*benches;
	size_t old;
	int rc;

	if (!json_is_string(version) || strcmp(json_string_value(version), "1.0") != 0) {
		old = jsonio_path_key(&w->path, "version");
		rc = import_fail(w, "pyperf file format %s is not supported (pyperf 1.0 and later "
				 "write \"1.0\")", json_is_string(version) ? json_string_value(version) :
				 "of another type");
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	if ((rc = import_object(w, root, "metadata", 0, &common)) < 0 ||
	    (rc = import_array(w, root, "benchmarks", 1, &benches)) < 0)
		return rc;
	old = jsonio_path_key(&w->path, "metadata");
	rc = import_check_facts(w, common, facts_map, N_FACTS);
	jsonio_path_restore(&w->path, old);
	w->state = (void *)common;
	return rc;
}

/* One benchmark of benchmarks[]. */
static int read_bench(struct import_walk *w, const json_t *b)
{
	const json_t *common = w->state, *own = NULL, *runs;
	const char *name, *unit;
	struct import_entry *e;
	struct import_series *s;
	json_t *md;
	int rc = 0;

	if (!json_is_object(b)) {
		rc = import_fail(w, "expected object");
		goto next;
	}
	if ((rc = import_object(w, b, "metadata", 0, &own)) < 0 ||
	    (rc = import_array(w, b, "runs", 1, &runs)) < 0)
		goto next;
	{
		size_t o3 = jsonio_path_key(&w->path, "metadata");
		rc = import_check_facts(w, own, facts_map, N_FACTS);
		jsonio_path_restore(&w->path, o3);
		if (rc < 0)
			goto next;
	}
	if (!(md = merged(common, own))) {
		rc = plumb_err_oom(w->err, "import");
		goto next;
	}
	if (!w->f->facts) {
		w->f->facts = json_incref(md);
		w->f->hostfacts = import_host_facts(md, facts_map, N_FACTS);
		if (json_is_string(json_object_get(md, "perf_version")) &&
		    !(w->f->tool_version = strdup(json_string_value(json_object_get(md, "perf_version")))))
			rc = plumb_err_oom(w->err, "import");
	}
	name = json_string_value(json_object_get(md, "name"));
	unit = json_string_value(json_object_get(md, "unit"));
	if (rc == 0 && !name) {
		size_t o3 = jsonio_path_key(&w->path, "metadata");
		rc = import_fail(w, "no benchmark name (metadata.name)");
		jsonio_path_restore(&w->path, o3);
	}
	if (rc == 0 && unit && strcmp(unit, "second") != 0) {
		rc = import_line(w, &w->f->warnings, &w->f->n_warnings, "%s: benchmark '%s' "
				 "measures in %s, not seconds: left out (plumb judges times)",
				 w->name, name, unit);
		json_decref(md);
		goto next;
	}
	if (rc == 0 && !(e = import_entry_add(w, name)))
		rc = PLUMB_EINPUT;
	if (rc == 0) {
		e->samples = 1;
		if (!(s = import_series_of(w, e, METRIC_WALL)))
			rc = PLUMB_EINTERNAL;
		else if ((rc = read_runs(w, runs, e, s)) == 1)
			rc = import_fail(w, "benchmark '%s' has no run with values", name);
	}
	json_decref(md);
next:
	return rc;
}

static const char *const packed[] = {
	"benchmarks[*].runs[*].values", "benchmarks[*].runs[*].warmups", NULL
};
/* A run's own metadata: never read. */
static const char *const skipped[] = { "benchmarks[*].runs[*].metadata", NULL };

const struct import_reader import_pyperf = {
	.array = "benchmarks",
	.packed = packed,
	.skipped = skipped,
	.begin = begin,
	.element = read_bench,
};
