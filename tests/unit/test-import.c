/*
 * tests/unit/test-import.c: formats/import (plumb import's readers): each
 * tool's document into entries with samples in plumb's units, what each
 * leaves out and says, detection by content, and the errors that name the
 * file and the JSON path.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/err.h"
#include "formats/import.h"
#include "common/banned.h"

static int parse(const char *doc, struct import_file *f, struct plumb_err *err)
{
	memset(f, 0, sizeof(*f));
	plumb_err_clear(err);
	return import_parse("t.json", doc, strlen(doc), f, err);
}

static const struct import_series *series(const struct import_entry *e, enum metric_id m)
{
	for (size_t i = 0; i < e->n_series; i++)
		if (e->series[i].metric == m)
			return &e->series[i];
	return NULL;
}

static int has_line(char **v, size_t n, const char *part)
{
	for (size_t i = 0; i < n; i++)
		if (strstr(v[i], part))
			return 1;
	return 0;
}

PLUMB_TEST(import_hyperfine_times_and_exit_codes)
{
	static const char doc[] =
		"{\"results\": [{\"command\": \"sleep 0.1\", \"mean\": 0.1, \"times\": [0.1, 0.125, 0.5],"
		" \"exit_codes\": [0, 1, null], \"parameters\": {\"n\": \"4\"}},"
		" {\"command\": \"true\", \"times\": [0.001]}]}";
	struct import_file f;
	struct plumb_err err;
	const struct import_series *s;

	assert_int_equal(parse(doc, &f, &err), 0);
	assert_int_equal(f.tool, IMPORT_HYPERFINE);
	assert_string_equal(import_tool_name(f.tool), "hyperfine");
	assert_null(f.tool_version);
	assert_null(f.hostfacts);
	assert_int_equal(f.n_entries, 2);
	assert_string_equal(f.entries[0].name, "sleep 0.1");
	assert_string_equal(f.entries[0].command, "sleep 0.1");
	assert_int_equal(f.entries[0].samples, 0);
	assert_null(series(&f.entries[0], METRIC_CPU));
	s = series(&f.entries[0], METRIC_WALL);
	assert_non_null(s);
	assert_int_equal(s->n, 3);
	assert_true(fabs(s->value[1] - 125e6) < 1e-3);
	assert_int_equal(s->round[0], 1);
	assert_int_equal(s->round[2], 3);
	assert_true(has_line(f.entries[0].notes, f.entries[0].n_notes, "1 of 3 runs exited non-zero (run 2 exited with 1)"));
	assert_true(has_line(f.entries[0].notes, f.entries[0].n_notes, "ended by a signal"));
	assert_true(has_line(f.entries[0].notes, f.entries[0].n_notes, "parameters: n=4"));
	import_file_release(&f);
}

PLUMB_TEST(import_hyperfine_errors_name_the_path)
{
	struct import_file f;
	struct plumb_err err;

	assert_int_equal(parse("{\"results\": [{\"command\": \"a\", \"times\": [1, -2]}]}", &f, &err),
			 PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "t.json: results[0].times[1]: expected a finite number"));
	import_file_release(&f);
	assert_int_equal(parse("{\"results\": [{\"times\": [1]}]}", &f, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "t.json: results[0].command: missing required member");
	import_file_release(&f);
	assert_int_equal(parse("{\"results\": [{\"command\": \"a\", \"times\": [1], "
			       "\"exit_codes\": [0, 0]}]}", &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "results[0].exit_codes: 2 exit codes for 1 times"));
	import_file_release(&f);
}

PLUMB_TEST(import_pyperf_runs_values_warmups_metadata)
{
	static const char doc[] =
		"{\"version\": \"1.0\", \"metadata\": {\"hostname\": \"h1\", \"cpu_model_name\": \"CPU X\","
		" \"cpu_count\": 8, \"platform\": \"Linux-6.1\", \"perf_version\": \"2.6.1\", \"unit\": \"second\"},"
		" \"benchmarks\": ["
		"  {\"metadata\": {\"name\": \"b1\", \"loops\": 4}, \"runs\": ["
		"    {\"metadata\": {}, \"warmups\": [[1, 0.5], [2, 0.25]]},"
		"    {\"warmups\": [[4, 0.003]], \"values\": [0.001, 0.002]},"
		"    {\"warmups\": [[4, 0.003]], \"values\": [0.004, 0.005, 0.006]}]},"
		"  {\"metadata\": {\"name\": \"mem\", \"unit\": \"byte\"}, \"runs\": [{\"values\": [100]}]}]}";
	struct import_file f;
	struct plumb_err err;
	const struct import_series *s;
	const struct import_entry *e;

	assert_int_equal(parse(doc, &f, &err), 0);
	assert_int_equal(f.tool, IMPORT_PYPERF);
	assert_string_equal(f.tool_version, "2.6.1");
	assert_string_equal(json_string_value(json_object_get(f.hostfacts, "hostname")), "h1");
	assert_string_equal(json_string_value(json_object_get(json_object_get(f.hostfacts, "cpu"),
							      "model")), "CPU X");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(f.hostfacts, "cpu"),
							    "logical")), 8);
	assert_int_equal(json_integer_value(json_object_get(f.facts, "loops")), 4);
	assert_int_equal(f.n_entries, 1);
	e = &f.entries[0];
	assert_string_equal(e->name, "b1");
	assert_int_equal(e->samples, 1);
	s = series(e, METRIC_WALL);
	assert_int_equal(s->n, 5);
	assert_int_equal(s->rounds, 2);
	assert_int_equal(s->round[0], 1);
	assert_int_equal(s->round[2], 2);
	assert_true(fabs(s->value[4] - 6e6) < 1e-6);
	assert_true(has_line(e->notes, e->n_notes, "2 runs (worker processes) of up to 3 values each; "
			     "4 warmup values left out"));
	assert_true(has_line(e->notes, e->n_notes, "1 calibration run without values left out"));
	assert_true(has_line(f.warnings, f.n_warnings, "benchmark 'mem' measures in byte"));
	import_file_release(&f);
}

PLUMB_TEST(import_pyperf_single_benchmark_and_bad_version)
{
	struct import_file f;
	struct plumb_err err;

	assert_int_equal(parse("{\"version\": \"1.0\", \"metadata\": {\"name\": \"telco\"}, "
			       "\"benchmarks\": [{\"runs\": [{\"values\": [0.02]}]}]}", &f, &err), 0);
	assert_string_equal(f.entries[0].name, "telco");
	assert_null(f.tool_version);
	import_file_release(&f);
	assert_int_equal(parse("{\"version\": 6, \"benchmarks\": []}", &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "t.json: version: pyperf file format"));
	import_file_release(&f);
	assert_int_equal(parse("{\"version\": \"1.0\", \"benchmarks\": [{\"runs\": [{\"values\": "
			       "[0.1]}]}]}", &f, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "t.json: benchmarks[0].metadata: no benchmark name (metadata.name)");
	import_file_release(&f);
	assert_int_equal(parse("{\"version\": \"1.0\", \"benchmarks\": [{\"metadata\": {\"name\": "
			       "\"x\"}, \"runs\": [{\"values\": [0.1, \"a\"]}]}]}", &f, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "t.json: benchmarks[0].runs[0].values[1]: expected number");
	import_file_release(&f);
}

PLUMB_TEST(import_gbench_repetitions_units_aggregates)
{
	static const char doc[] =
		"{\"context\": {\"host_name\": \"box\", \"num_cpus\": 4, \"mhz_per_cpu\": 2600,"
		" \"library_build_type\": \"debug\", \"caches\": []},"
		" \"benchmarks\": ["
		"  {\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\", \"repetitions\": 2,"
		"   \"repetition_index\": 0, \"real_time\": 2.5, \"cpu_time\": 2.0, \"time_unit\": \"us\"},"
		"  {\"name\": \"BM_a\", \"run_name\": \"BM_a\", \"run_type\": \"iteration\", \"repetitions\": 2,"
		"   \"repetition_index\": 1, \"real_time\": 3, \"cpu_time\": 2.5, \"time_unit\": \"us\"},"
		"  {\"name\": \"BM_a_mean\", \"run_name\": \"BM_a\", \"run_type\": \"aggregate\","
		"   \"aggregate_name\": \"mean\", \"real_time\": 2.75, \"cpu_time\": 2.25, \"time_unit\": \"us\"},"
		"  {\"name\": \"BM_b\", \"run_type\": \"iteration\", \"real_time\": 7, \"cpu_time\": 7,"
		"   \"time_unit\": \"ms\"},"
		"  {\"name\": \"BM_c_mean\", \"run_name\": \"BM_c\", \"run_type\": \"aggregate\","
		"   \"real_time\": 1, \"cpu_time\": 1}]}";
	struct import_file f;
	struct plumb_err err;
	const struct import_series *w, *c;

	assert_int_equal(parse(doc, &f, &err), 0);
	assert_int_equal(f.tool, IMPORT_GBENCH);
	assert_int_equal(f.n_entries, 2);
	assert_string_equal(f.entries[0].name, "BM_a");
	w = series(&f.entries[0], METRIC_WALL);
	c = series(&f.entries[0], METRIC_CPU);
	assert_int_equal(w->n, 2);
	assert_true(fabs(w->value[0] - 2500) < 1e-9);
	assert_true(fabs(c->value[1] - 2500) < 1e-9);
	assert_int_equal(w->round[1], 2);
	assert_true(has_line(f.entries[0].notes, f.entries[0].n_notes, "2 repetitions (rounds); 1 aggregate left out"));
	assert_string_equal(f.entries[1].name, "BM_b");
	assert_true(fabs(series(&f.entries[1], METRIC_WALL)->value[0] - 7e6) < 1e-6);
	assert_true(has_line(f.warnings, f.n_warnings, "debug build"));
	assert_true(has_line(f.warnings, f.n_warnings, "'BM_c' left out: aggregates only"));
	assert_string_equal(json_string_value(json_object_get(f.hostfacts, "hostname")), "box");
	assert_true(json_is_null(json_object_get(json_object_get(f.hostfacts, "cpu"), "model")));
	import_file_release(&f);
}

PLUMB_TEST(import_gbench_bad_unit_and_repeated_repetition)
{
	struct import_file f;
	struct plumb_err err;

	assert_int_equal(parse("{\"context\": {}, \"benchmarks\": [{\"name\": \"x\", \"real_time\": 1,"
			       " \"cpu_time\": 1, \"time_unit\": \"fortnight\"}]}", &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "t.json: benchmarks[0].time_unit: unknown time unit 'fortnight'"));
	import_file_release(&f);
	assert_int_equal(parse("{\"context\": {}, \"benchmarks\": [{\"name\": \"x\", \"real_time\": 1,"
			       " \"cpu_time\": 1, \"repetition_index\": 0}, {\"name\": \"x\", "
			       "\"real_time\": 1, \"cpu_time\": 1, \"repetition_index\": 0}]}", &f, &err),
			 PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "benchmarks[1]: benchmark 'x': repetition 0 comes after repetition 0"));
	import_file_release(&f);
}

PLUMB_TEST(import_gbench_errors_and_skips_left_out_with_their_message)
{
	/* SkipWithError (every version) and SkipWithMessage (1.8: "skipped"):
	 * left out, never a value of 0; the message kept, control characters
	 * blanked and cut to size. */
	static const char doc[] =
		"{\"context\": {}, \"benchmarks\": ["
		"  {\"name\": \"BM_err\", \"run_type\": \"iteration\", \"error_occurred\": true,"
		"   \"error_message\": \"no input\\nfile\", \"real_time\": 0, \"cpu_time\": 0},"
		"  {\"name\": \"BM_skip\", \"run_type\": \"iteration\", \"skipped\": true,"
		"   \"skip_message\": \"needs AVX-512\", \"real_time\": 0, \"cpu_time\": 0},"
		"  {\"name\": \"BM_ok\", \"run_type\": \"iteration\", \"repetition_index\": 0,"
		"   \"real_time\": 4, \"cpu_time\": 4},"
		"  {\"name\": \"BM_ok\", \"run_type\": \"iteration\", \"repetition_index\": 1,"
		"   \"skipped\": true, \"skip_message\": \"x\", \"real_time\": 0, \"cpu_time\": 0}]}";
	char big[1024];
	struct import_file f;
	struct plumb_err err;

	assert_int_equal(parse(doc, &f, &err), 0);
	assert_int_equal(f.n_entries, 1);
	assert_string_equal(f.entries[0].name, "BM_ok");
	assert_int_equal(series(&f.entries[0], METRIC_WALL)->n, 1);
	assert_true(has_line(f.entries[0].notes, f.entries[0].n_notes, "1 skipped repetition left out"));
	assert_int_equal(f.n_left, 2);
	assert_string_equal(f.left[0].name, "BM_err");
	assert_string_equal(f.left[0].why, "every repetition had error_occurred (error_message: no input file)");
	assert_string_equal(f.left[1].name, "BM_skip");
	assert_string_equal(f.left[1].why, "every repetition was skipped (skip_message: needs AVX-512)");
	assert_true(has_line(f.warnings, f.n_warnings, "t.json: benchmark 'BM_err' left out: every "
			     "repetition had error_occurred (error_message: no input file)"));
	import_file_release(&f);

	/* A message of any length is kept to IMPORT_MESSAGE_MAX bytes. */
	memset(big, 'm', sizeof(big));
	snprintf(big, sizeof(big), "{\"context\": {}, \"benchmarks\": [{\"name\": \"x\", "
		 "\"error_occurred\": true, \"error_message\": \"%0500d\", \"real_time\": 0, "
		 "\"cpu_time\": 0}, {\"name\": \"y\", \"real_time\": 1, \"cpu_time\": 1}]}", 7);
	assert_int_equal(parse(big, &f, &err), 0);
	assert_int_equal(f.n_left, 1);
	assert_int_equal(strlen(f.left[0].why), strlen("every repetition had error_occurred "
						     "(error_message: )") + IMPORT_MESSAGE_MAX);
	import_file_release(&f);
}

PLUMB_TEST(import_parse_gbench_reads_one_run_of_a_binary)
{
	static const char err_only[] =
		"{\"context\": {\"library_build_type\": \"release\"}, \"benchmarks\": [{\"name\": "
		"\"BM_f\", \"run_type\": \"iteration\", \"error_occurred\": true, \"error_message\": "
		"\"boom\", \"real_time\": 0, \"cpu_time\": 0}]}";
	struct import_file f;
	struct plumb_err err;

	/* Nothing left but a failure: not an error here, the runner names it. */
	plumb_err_clear(&err);
	assert_int_equal(import_parse_gbench("out", err_only, strlen(err_only), &f, &err), 0);
	assert_int_equal(f.tool, IMPORT_GBENCH);
	assert_int_equal(f.n_entries, 0);
	assert_int_equal(f.n_left, 1);
	assert_string_equal(f.left[0].why, "every repetition had error_occurred (error_message: boom)");
	import_file_release(&f);
	/* Another tool's JSON, or none, is refused naming the output. */
	assert_int_equal(import_parse_gbench("out", "{\"results\": []}", 15, &f, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "out: not Google Benchmark JSON (expected {\"context\": {...}, "
			    "\"benchmarks\": [...]})");
	import_file_release(&f);
	assert_int_equal(import_parse_gbench("out", "BM_x 12 ns\n", 11, &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "out: not a result file"));
	import_file_release(&f);
}

/* A family is the name without the arguments its registration added. */
PLUMB_TEST(import_gbench_family_is_the_name_without_arguments)
{
	static const struct { const char *name, *family; } cases[] = {
		{ "BM_Copy/8", "BM_Copy" }, { "BM_Copy/64", "BM_Copy" },
		{ "BM_Copy/8/512", "BM_Copy" }, { "BM_Neg/-3", "BM_Neg" },
		{ "BM_Named/n:8/m:2", "BM_Named" }, { "BM_Par/threads:2", "BM_Par" },
		{ "BM_Rt/8/real_time", "BM_Rt" }, { "BM_Rep/repeats:3", "BM_Rep" },
		{ "Fixture/Test/2", "Fixture/Test" }, { "Fixture/Test", "Fixture/Test" },
		{ "BM_T<int, 5>", "BM_T<int, 5>" }, { "BM_Capture/my case", "BM_Capture/my case" },
		{ "BM_x/8x", "BM_x/8x" }, { "/8", "/8" }, { "BM_x/-", "BM_x/-" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = import_gbench_family_len(cases[i].name);
		if (len != strlen(cases[i].family) || strncmp(cases[i].name, cases[i].family, len) != 0)
			fail_msg("%s: family '%.*s', want '%s'", cases[i].name, (int)len,
				 cases[i].name, cases[i].family);
	}
}

PLUMB_TEST(import_detects_by_content_and_names_what_it_expected)
{
	struct import_file f;
	struct plumb_err err;

	assert_int_equal(parse("bench\tside\n", &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "t.json: not a result file plumb imports: expected hyperfine"));
	import_file_release(&f);
	assert_int_equal(parse("{\"benchmarks\": []}", &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "not a result file plumb imports"));
	import_file_release(&f);
	assert_int_equal(parse("{\"results\": [\n{\"command\": \"a\",\n \"times\": [1,]}]}", &f, &err),
			 PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "t.json: "));
	assert_non_null(strstr(err.msg, "line 3"));
	import_file_release(&f);
	assert_int_equal(parse("{\"results\": []}", &f, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "t.json: hyperfine file with no benchmark to import");
	import_file_release(&f);
}

PLUMB_TEST(import_budgets_depth_and_values)
{
	struct import_file f;
	struct plumb_err err;
	size_t n = IMPORT_MAX_JSON + 10;
	char *doc = malloc(n * 2 + 64);
	size_t len = 0;

	assert_non_null(doc);
	len += (size_t)snprintf(doc, 64, "{\"results\": [{\"command\": \"a\", \"times\": [");
	for (size_t i = 0; i < n; i++) {
		doc[len++] = '0';
		doc[len++] = ',';
	}
	doc[len - 1] = ']';
	doc[len] = '\0';
	assert_int_equal(parse(doc, &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "t.json: more than 2000000 JSON values"));
	import_file_release(&f);
	len = (size_t)snprintf(doc, 64, "{\"results\": ");
	for (int i = 0; i < 40; i++)
		doc[len++] = '[';
	for (int i = 0; i < 40; i++)
		doc[len++] = ']';
	doc[len++] = '}';
	doc[len] = '\0';
	assert_int_equal(parse(doc, &f, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "nest"));
	import_file_release(&f);
	free(doc);
}
