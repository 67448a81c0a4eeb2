/*
 * formats/import-gbench.c: Google Benchmark's --benchmark_out JSON
 * (--benchmark_out_format=json, the default; docs/import.md).
 *
 * {"context": {"date", "host_name", "executable", "num_cpus",
 * "mhz_per_cpu", "cpu_scaling_enabled", "caches", "load_avg",
 * "library_build_type", ...}, "benchmarks": [{"name", "run_name",
 * "run_type", "repetitions", "repetition_index", "iterations",
 * "real_time", "cpu_time", "time_unit", "aggregate_name", ...}]}.
 *
 * One entry per run_name (the name without an aggregate's suffix); each
 * "iteration" element is one repetition, so one round, with real_time as
 * the wall metric and cpu_time as the cpu metric (both already per
 * iteration, in time_unit).  Aggregates (mean, median, stddev, cv, BigO,
 * RMS) are left out and counted: plumb computes its own from the
 * repetitions; a benchmark with aggregates only
 * (--benchmark_report_aggregates_only) is left out with a warning.  A
 * repetition with error_occurred (SkipWithError) or skipped
 * (SkipWithMessage, Google Benchmark 1.8) is left out and said, with its
 * message; a benchmark left with no repetition is in f->left with why.
 *
 * `plumb import` and `plumb run` (bench.NAME.mode = gbench, one run's
 * --benchmark_format=json output: runner/run-gbench.c) read through here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/units.h"
#include "formats/import-internal.h"
#include "common/banned.h"

/* ns per time_unit, 0 for a unit Google Benchmark does not write. */
static double unit_ns(const char *u)
{
	if (!u || strcmp(u, "ns") == 0)
		return 1;
	if (strcmp(u, "us") == 0)
		return 1e3;
	if (strcmp(u, "ms") == 0)
		return 1e6;
	if (strcmp(u, "s") == 0)
		return 1e9;
	return 0;
}

/* An argument part of a Google Benchmark name: 8, -3, n:8, threads:2, real_time. */
static int is_arg(const char *s, size_t len)
{
	static const char *const words[] = { "real_time", "process_time", "manual_time" };
	size_t i = s[0] == '-' ? 1 : 0;

	if (memchr(s, ':', len))
		return 1;
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++)
		if (strlen(words[k]) == len && memcmp(words[k], s, len) == 0)
			return 1;
	if (i == len)
		return 0;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

size_t import_gbench_family_len(const char *name)
{
	size_t len = strlen(name);

	for (;;) {
		const char *slash = memrchr(name, '/', len);
		if (!slash || slash == name || !is_arg(slash + 1, len - (size_t)(slash + 1 - name)))
			return len;
		len = (size_t)(slash - name);
	}
}

/* The facts plumb's host.start shape takes from the context (no CPU model in it). */
static const struct import_fact facts_map[] = {
	{ "hostname", "host_name", JSON_STRING, 0 },
	{ "cpu.model", NULL, JSON_STRING, 0 },
	{ "cpu.logical", "num_cpus", JSON_INTEGER, 1 },
	{ "cpu.mhz", "mhz_per_cpu", JSON_REAL, 0 },
};

/* Per entry while reading: what was left out. */
struct gb_count {
	size_t aggregates, errors, skips, reps;
	uint32_t next;          /* the round a repetition without repetition_index takes */
	char message[IMPORT_MESSAGE_MAX + 1];  /* the first error_message or skip_message */
};

/* The first message of a left-out repetition, kept printable: a benchmark's
 * own text, untrusted (control characters become spaces, cut to size). */
static void keep_message(struct gb_count *c, const char *msg)
{
	size_t i;

	if (c->message[0] || !msg)
		return;
	for (i = 0; msg[i] && i < IMPORT_MESSAGE_MAX; i++)
		c->message[i] = (unsigned char)msg[i] < 0x20 || msg[i] == 0x7f ? ' ' : msg[i];
	/* Not in the middle of a UTF-8 sequence. */
	while (i > 0 && msg[i] && ((unsigned char)msg[i] & 0xc0) == 0x80)
		i--;
	c->message[i] = '\0';
}

static int read_context(struct import_walk *w, const json_t *ctx)
{
	const char *build = json_string_value(json_object_get(ctx, "library_build_type"));
	const json_t *scaling = json_object_get(ctx, "cpu_scaling_enabled");
	const char *version = json_string_value(json_object_get(ctx, "library_version"));
	int rc = import_check_facts(w, ctx, facts_map, sizeof(facts_map) / sizeof(facts_map[0]));

	if (rc < 0)
		return rc;
	if (!(w->f->facts = json_deep_copy(ctx)) || !(w->f->hostfacts = import_host_facts(ctx, facts_map, sizeof(facts_map) / sizeof(facts_map[0]))))
		return plumb_err_oom(w->err, "import");
	if (version && !(w->f->tool_version = strdup(version)))
		return plumb_err_oom(w->err, "import");
	if (build && strcmp(build, "debug") == 0)
		rc = import_line(w, &w->f->warnings, &w->f->n_warnings, "%s: the Google Benchmark "
				 "library was a debug build (context.library_build_type): its own "
				 "overhead is in every time", w->name);
	if (rc == 0 && json_is_true(scaling))
		rc = import_line(w, &w->f->warnings, &w->f->n_warnings, "%s: CPU frequency scaling "
				 "was enabled (context.cpu_scaling_enabled): times may be noisy", w->name);
	return rc;
}

static int read_bench(struct import_walk *w, const json_t *b)
{
	struct gb_count **counts = (struct gb_count **)&w->state;
	const char *name, *run_name, *run_type, *unit;
	double real, cpu, rep = 0, k;
	struct import_entry *e = NULL;
	struct import_series *s;
	struct gb_count *c;
	uint32_t round;
	size_t i;
	int rc, has_rep;

	if (!json_is_object(b))
		return import_fail(w, "expected object");
	if ((rc = import_string(w, b, "name", 1, &name)) < 0 ||
	    (rc = import_string(w, b, "run_name", 0, &run_name)) < 0 ||
	    (rc = import_string(w, b, "run_type", 0, &run_type)) < 0 ||
	    (rc = import_string(w, b, "time_unit", 0, &unit)) < 0 ||
	    (rc = import_number(w, b, "repetition_index", 0, &rep)) < 0)
		return rc;
	has_rep = rc == 0;
	if (has_rep && (rep < 0 || rep != floor(rep) || rep >= 999999)) {
		size_t old = jsonio_path_key(&w->path, "repetition_index");
		char v[UNITS_MAX];

		units_as_read(rep, v);
		rc = import_fail(w, "expected a whole number from 0 to 999998, not %s", v);
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	if (!run_name)
		run_name = name;
	for (i = 0; i < w->f->n_entries; i++)
		if (strcmp(w->f->entries[i].name, run_name) == 0)
			e = &w->f->entries[i];
	if (!e) {
		struct gb_count *nc = realloc(*counts, (w->f->n_entries + 1) * sizeof(*nc));
		if (!nc)
			return plumb_err_oom(w->err, "import");
		*counts = nc;
		memset(&nc[w->f->n_entries], 0, sizeof(*nc));
		if (!(e = import_entry_add(w, run_name)))
			return PLUMB_EINPUT;
	}
	c = &(*counts)[e - w->f->entries];
	if (run_type && strcmp(run_type, "aggregate") == 0) {
		c->aggregates++;
		return 0;
	}
	if (json_is_true(json_object_get(b, "error_occurred"))) {
		c->errors++;
		keep_message(c, json_string_value(json_object_get(b, "error_message")));
		return 0;
	}
	if (json_is_true(json_object_get(b, "skipped"))) {
		c->skips++;
		keep_message(c, json_string_value(json_object_get(b, "skip_message")));
		return 0;
	}
	if ((rc = import_number(w, b, "real_time", 1, &real)) < 0 ||
	    (rc = import_number(w, b, "cpu_time", 1, &cpu)) < 0)
		return rc;
	if ((k = unit_ns(unit)) == 0) {
		size_t old = jsonio_path_key(&w->path, "time_unit");
		rc = import_fail(w, "unknown time unit '%.16s' (expected ns, us, ms or s)", unit);
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	round = has_rep ? (uint32_t)rep + 1 : ++c->next;
	if (!(s = import_series_of(w, e, METRIC_WALL)))
		return PLUMB_EINTERNAL;
	if (s->n && s->round[s->n - 1] >= round)
		return import_fail(w, "benchmark '%s': repetition %u comes after repetition %u "
				   "(repeated or out of order)", run_name, round - 1, s->round[s->n - 1] - 1);
	if ((rc = import_value(w, s, round, real * k)) < 0)
		return rc;
	if (!(s = import_series_of(w, e, METRIC_CPU)))
		return PLUMB_EINTERNAL;
	c->reps++;
	return import_value(w, s, round, cpu * k);
}

/* A benchmark with no repetition left: why, as a warning and in f->left. */
static int left_out(struct import_walk *w, const char *name, const struct gb_count *c)
{
	struct import_left *grown;
	char why[IMPORT_MESSAGE_MAX + 96];

	if (c->errors)
		snprintf(why, sizeof(why), "every repetition had error_occurred (error_message: %s)",
			 c->message[0] ? c->message : "none");
	else if (c->skips)
		snprintf(why, sizeof(why), "every repetition was skipped (skip_message: %s)",
			 c->message[0] ? c->message : "none");
	else
		snprintf(why, sizeof(why), "aggregates only (run it without "
			 "--benchmark_report_aggregates_only)");
	grown = realloc(w->f->left, (w->f->n_left + 1) * sizeof(*grown));
	if (!grown)
		return plumb_err_oom(w->err, "import");
	w->f->left = grown;
	grown[w->f->n_left].name = strdup(name);
	grown[w->f->n_left].why = strdup(why);
	w->f->n_left++;
	if (!grown[w->f->n_left - 1].name || !grown[w->f->n_left - 1].why)
		return plumb_err_oom(w->err, "import");
	return import_line(w, &w->f->warnings, &w->f->n_warnings, "%s: benchmark '%s' left out: %s",
			   w->name, name, why);
}

static int begin(struct import_walk *w)
{
	size_t old = jsonio_path_key(&w->path, "context");
	int rc = read_context(w, json_object_get(w->top, "context"));

	jsonio_path_restore(&w->path, old);
	return rc;
}

/* Entries with no repetition left: said, kept in f->left, and dropped;
 * the others' notes. */
static int end(struct import_walk *w, int rc)
{
	struct gb_count *counts = w->state;
	size_t i, kept;

	w->state = NULL;
	if (rc < 0)
		goto out;
	for (i = 0, kept = 0; i < w->f->n_entries; i++) {
		struct import_entry *e = &w->f->entries[i];
		struct gb_count *c = &counts[i];
		if (rc == 0 && c->reps == 0)
			rc = left_out(w, e->name, c);
		if (c->reps == 0) {
			free(e->name);
			for (size_t k = 0; k < e->n_series; k++) {
				free(e->series[k].value);
				free(e->series[k].round);
			}
			continue;
		}
		w->f->entries[kept] = *e;
		counts[kept++] = *c;
	}
	w->f->n_entries = kept;
	for (i = 0; i < w->f->n_entries && rc == 0; i++) {
		struct import_entry *e = &w->f->entries[i];
		struct gb_count *c = &counts[i];
		rc = import_line(w, &e->notes, &e->n_notes, "google-benchmark: %zu repetition%s "
				 "(rounds); %zu aggregate%s left out", c->reps, c->reps == 1 ? "" : "s",
				 c->aggregates, c->aggregates == 1 ? "" : "s");
		if (rc == 0 && c->errors)
			rc = import_line(w, &e->notes, &e->n_notes, "google-benchmark: %zu repetition%s "
					 "with error_occurred left out", c->errors, c->errors == 1 ? "" : "s");
		if (rc == 0 && c->skips)
			rc = import_line(w, &e->notes, &e->n_notes, "google-benchmark: %zu skipped "
					 "repetition%s left out", c->skips, c->skips == 1 ? "" : "s");
	}
out:
	free(counts);
	return rc;
}

const struct import_reader import_gbench = {
	.array = "benchmarks",
	.begin = begin,
	.element = read_bench,
	.end = end,
};
