/*
 * tests/unit/test-run.c: the pieces of `plumb run` and `plumb demo` that
 * need no run: bundle names, the demo's candidate edit, the round
 * conditions and hot-code verdicts in the manifest, the per-round host
 * sample, and the end-of-run summary.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/manifest.h"
#include "runner/demo.h"
#include "runner/host.h"
#include "views/run-results.h"
#include "runner/run.h"
#include "common/banned.h"

PLUMB_TEST(run_default_output_name)
{
	struct buf b;

	buf_init(&b, 4096);
	assert_int_equal(runner_default_output("v1.2.0", "HEAD~1", 1764513300, &b), 0);
	assert_string_equal(buf_cstr(&b), "plumb-v1.2.0-HEAD_1-20251130T143500Z.plumb");
	buf_reset(&b);
	assert_int_equal(runner_default_output("feature/x y", "WORKTREE", 0, &b), 0);
	assert_string_equal(buf_cstr(&b), "plumb-feature_x_y-WORKTREE-19700101T000000Z.plumb");
	buf_release(&b);
}

PLUMB_TEST(demo_candidate_changes_only_main)
{
	struct buf path, base, cand;
	struct plumb_err err;
	const char *run_start, *run_end;

	buf_init(&path, 4096);
	buf_init(&base, 1 << 20);
	buf_init(&cand, 1 << 20);
	plumb_err_clear(&err);
	assert_true(buf_printf(&path, "%s/examples/interp/interp.c", unit_srcdir()) == 0);
	assert_int_equal(file_read(path.data, 1 << 20, &base, &err), 0);
	assert_int_equal(demo_candidate_source(base.data, &cand), 0);
	assert_non_null(strstr(cand.data, "static int usage(const char *bad)"));
	assert_non_null(strstr(cand.data, "return usage(argc == 2 ? argv[1] : NULL);"));
	/* run() is the same text in both. */
	run_start = strstr(base.data, "__attribute__((noinline)) uint64_t run(");
	run_end = strstr(base.data, "#define I(");
	assert_non_null(run_start);
	assert_non_null(run_end);
	assert_non_null(strstr(cand.data, "__attribute__((noinline)) uint64_t run("));
	{
		size_t n = (size_t)(run_end - run_start);
		const char *c = strstr(cand.data, "__attribute__((noinline)) uint64_t run(");
		assert_memory_equal(run_start, c, n);
	}
	/* A source without the usage lines is refused, not half edited. */
	buf_reset(&cand);
	assert_int_equal(demo_candidate_source("int main(void) { return 0; }\n", &cand), -1);
	buf_release(&path);
	buf_release(&base);
	buf_release(&cand);
}

/* A minimal valid manifest with two variants and rounds rounds. */
static void small_manifest(struct manifest *m, size_t rounds)
{
	struct plumb_err err;
	struct manifest_variant *v;
	struct manifest_bench *b;

	plumb_err_clear(&err);
	manifest_init(m);
	assert_int_equal(manifest_set_str(&m->tool.name, "plumb"), 0);
	assert_int_equal(manifest_set_str(&m->tool.version, "0.1.0"), 0);
	assert_int_equal(manifest_set_str(&m->created, "2026-11-30T12:00:00Z"), 0);
	m->spec = json_object();
	assert_int_equal(manifest_set_str(&m->repo.base.ref, "v1"), 0);
	assert_int_equal(manifest_set_str(&m->repo.base.commit, "0123456789abcdef0123456789abcdef01234567"), 0);
	assert_int_equal(manifest_set_str(&m->repo.candidate.ref, "main"), 0);
	assert_int_equal(manifest_set_str(&m->repo.candidate.commit, "89abcdef0123456789abcdef0123456789abcdef"), 0);
	m->build.method = MANIFEST_METHOD_LINK;
	m->build.pad_bytes = 16;
	v = manifest_add_variant(m, MANIFEST_SIDE_BASE, 0, &err);
	assert_non_null(v);
	v = manifest_add_variant(m, MANIFEST_SIDE_CANDIDATE, 0, &err);
	assert_non_null(v);
	m->host.start = json_object();
	m->run.seed = 1;
	m->run.rounds = (int64_t)rounds;
	m->run.conditions = calloc(rounds, sizeof(*m->run.conditions));
	assert_non_null(m->run.conditions);
	m->run.n_conditions = rounds;
	for (size_t r = 0; r < rounds; r++) {
		manifest_condition_init(&m->run.conditions[r]);
		m->run.conditions[r].at_ns = (int64_t)(r * 1000);
	}
	b = manifest_add_bench(m, "b", &err);
	assert_non_null(b);
	b->mode = MANIFEST_MODE_PROCESS;
	b->metric = METRIC_WALL;
	b->failure = strdup("base/0 (b00) failed in round 1: exit status 3");
}

PLUMB_TEST(manifest_conditions_and_hot_verdicts_round_trip)
{
	struct manifest m, back;
	struct manifest_bench *b;
	struct plumb_err err;
	struct buf one, two;

	small_manifest(&m, 2);
	m.run.conditions[0].load[0] = 1.5;
	m.run.conditions[0].load[1] = 2.25;
	m.run.conditions[0].load[2] = 3;
	m.run.conditions[1].cur_khz_min = 800000;
	m.run.conditions[1].cur_khz_max = 3400000;
	b = &m.benches[0];
	b->hot.present = 1;
	b->hot.identical = 0;
	b->hot.symbols = calloc(2, sizeof(*b->hot.symbols));
	assert_non_null(b->hot.symbols);
	b->hot.n_symbols = 2;
	b->hot.symbols[0].name = strdup("run");
	b->hot.symbols[0].identical = 0;
	b->hot.symbols[0].verdict = strdup("identical except addresses");
	b->hot.symbols[1].name = strdup("step");
	b->hot.symbols[1].identical = 1;
	b->hot.symbols[1].verdict = strdup("identical");

	plumb_err_clear(&err);
	buf_init(&one, 1 << 20);
	buf_init(&two, 1 << 20);
	assert_int_equal(manifest_write(&m, &one, &err), 0);
	assert_non_null(strstr(one.data, "\"conditions\": [\n"));
	assert_non_null(strstr(one.data, "\"curKhzMax\": 3400000"));
	assert_non_null(strstr(one.data, "\"verdict\": \"identical except addresses\""));
	assert_int_equal(manifest_parse(&back, one.data, one.len, &err), 0);
	assert_int_equal(back.run.n_conditions, 2);
	assert_true(back.run.conditions[0].load[1] == 2.25);
	assert_true(isnan(back.run.conditions[1].load[0]));
	assert_int_equal(back.run.conditions[1].at_ns, 1000);
	assert_int_equal(back.run.conditions[0].cur_khz_min, -1);
	assert_string_equal(back.benches[0].hot.symbols[0].verdict, "identical except addresses");
	assert_int_equal(manifest_write(&back, &two, &err), 0);
	assert_string_equal(one.data, two.data);
	manifest_release(&back);
	manifest_release(&m);
	buf_release(&one);
	buf_release(&two);
}

PLUMB_TEST(manifest_conditions_and_verdicts_are_checked)
{
	struct manifest m;
	struct plumb_err err;
	struct buf out;
	struct manifest_bench *b;

	buf_init(&out, 1 << 20);
	plumb_err_clear(&err);
	small_manifest(&m, 2);
	m.run.n_conditions = 1;   /* one entry for two rounds */
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "run.conditions: 1 rounds listed, run.rounds is 2"));
	m.run.n_conditions = 2;
	m.run.conditions[1].load[0] = 1;   /* one load average of three */
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "run.conditions[1].load"));
	m.run.conditions[1].load[0] = NAN;
	m.run.conditions[0].cur_khz_min = 5;
	m.run.conditions[0].cur_khz_max = 4;
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "curKhzMin must not exceed curKhzMax"));
	m.run.conditions[0].cur_khz_min = -1;
	b = &m.benches[0];
	b->hot.present = 1;
	b->hot.identical = 1;
	b->hot.symbols = calloc(1, sizeof(*b->hot.symbols));
	assert_non_null(b->hot.symbols);
	b->hot.n_symbols = 1;
	b->hot.symbols[0].name = strdup("run");
	b->hot.symbols[0].identical = 1;
	b->hot.symbols[0].verdict = strdup("changed");
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "'changed' contradicts identical"));
	free(b->hot.symbols[0].verdict);
	b->hot.symbols[0].verdict = strdup("the same");
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "is not identical, identical except addresses or changed"));
	manifest_release(&m);
	buf_release(&out);
}

PLUMB_TEST(manifest_reader_names_bad_conditions)
{
	static const char *const bad[][2] = {
		{ "[{\"load\": [1, 2, 3]}]", "run.conditions[0].atNs: missing required field" },
		{ "[{\"atNs\": 1, \"load\": [1, 2]}]", "run.conditions[0].load: expected 3 load averages" },
		{ "[{\"atNs\": 1, \"load\": [1, \"x\", 3]}]", "run.conditions[0].load[1]: expected number" },
		{ "{}", "run.conditions: expected array" },
	};
	struct manifest m;
	struct plumb_err err;
	struct buf good, text;
	const char *at;

	small_manifest(&m, 1);
	buf_init(&good, 1 << 20);
	plumb_err_clear(&err);
	assert_int_equal(manifest_write(&m, &good, &err), 0);
	manifest_release(&m);
	at = strstr(good.data, "\"conditions\": [");
	assert_non_null(at);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *end = strchr(at, ']');
		buf_init(&text, 1 << 20);
		assert_int_equal(buf_add(&text, good.data, (size_t)(at - good.data)), 0);
		assert_int_equal(buf_printf(&text, "\"conditions\": %s", bad[i][0]), 0);
		assert_int_equal(buf_addstr(&text, end + 1), 0);
		assert_int_equal(manifest_parse(&m, text.data, text.len, &err), PLUMB_EINPUT);
		if (!strstr(err.msg, bad[i][1]))
			fail_msg("case %zu: got '%s'", i, err.msg);
		manifest_release(&m);
		buf_release(&text);
	}
	buf_release(&good);
}

PLUMB_TEST(host_round_sample_reads_the_sysroot)
{
	struct host_round hr;
	char root[4096];

	snprintf(root, sizeof(root), "%s/tests/fixtures/hosts/amd-epp", unit_srcdir());
	assert_int_equal(setenv("PLUMB_SYSROOT", root, 1), 0);
	host_round_sample(&hr);
	assert_true(hr.has_load);
	assert_true(hr.load[0] == 7.5 && hr.load[1] == 6.2 && hr.load[2] == 5.8);
	assert_true(hr.cur_min_khz == 400000);
	assert_true(hr.cur_max_khz == 5172000);
	/* No cpufreq: frequencies unknown, the load still read. */
	snprintf(root, sizeof(root), "%s/tests/fixtures/hosts/vm-nocpufreq", unit_srcdir());
	assert_int_equal(setenv("PLUMB_SYSROOT", root, 1), 0);
	host_round_sample(&hr);
	assert_true(hr.has_load);
	assert_true(hr.cur_min_khz == HOST_NA && hr.cur_max_khz == HOST_NA);
	/* A root that is not there: everything unknown, no failure. */
	assert_int_equal(setenv("PLUMB_SYSROOT", "/nonexistent/root", 1), 0);
	host_round_sample(&hr);
	assert_false(hr.has_load);
	assert_int_equal(unsetenv("PLUMB_SYSROOT"), 0);
}

/* put TEXT in ROOT/proc/loadavg, in place (the sampler keeps the file open) */
static void put_loadavg(const char *root, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/loadavg", root);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/*
 * The kernel recomputes the load averages every 5 seconds: rounds within
 * a quarter of a second of a reading reuse it (no read between two
 * measured runs for the same number), a later round reads again.
 */
PLUMB_TEST(host_round_sample_rereads_the_load_at_most_every_quarter_second)
{
	struct host_round hr;
	struct timespec wait = { 0, 300000000 };
	char root[64], proc[96];

	snprintf(root, sizeof(root), "/tmp/plumb-unit-load-XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(proc, sizeof(proc), "%s/proc", root);
	assert_int_equal(mkdir(proc, 0700), 0);
	put_loadavg(root, "1.50 2.00 3.00 1/100 4242\n");
	assert_int_equal(setenv("PLUMB_SYSROOT", root, 1), 0);
	host_round_sample(&hr);
	assert_true(hr.has_load && hr.load[0] == 1.5 && hr.load[2] == 3.0);
	put_loadavg(root, "7.25 6.00 5.00 1/100 4243\n");
	host_round_sample(&hr);
	assert_true(hr.has_load && hr.load[0] == 1.5 && hr.load[1] == 2.0);
	assert_int_equal(nanosleep(&wait, NULL), 0);
	host_round_sample(&hr);
	assert_true(hr.has_load && hr.load[0] == 7.25 && hr.load[2] == 5.0);
	/* An unreadable load is not remembered as the last good one. */
	put_loadavg(root, "garbage\n");
	assert_int_equal(nanosleep(&wait, NULL), 0);
	host_round_sample(&hr);
	assert_false(hr.has_load);
	put_loadavg(root, "0.50 0.25 0.10 1/100 4244\n");
	host_round_sample(&hr);
	assert_true(hr.has_load && hr.load[0] == 0.5);
	assert_int_equal(unsetenv("PLUMB_SYSROOT"), 0);
	host_round_sample(&hr);   /* the sampler leaves the temporary root */
	snprintf(proc, sizeof(proc), "%s/proc/loadavg", root);
	assert_int_equal(unlink(proc), 0);
	snprintf(proc, sizeof(proc), "%s/proc", root);
	assert_int_equal(rmdir(proc), 0);
	assert_int_equal(rmdir(root), 0);
}

PLUMB_TEST(results_values_for_people)
{
	char s[32];

	results_format_value(512, 1, s, sizeof(s));
	assert_string_equal(s, "512 ns");
	results_format_value(1500, 1, s, sizeof(s));
	assert_string_equal(s, "1.50 us");
	results_format_value(812345678, 1, s, sizeof(s));
	assert_string_equal(s, "812.35 ms");
	results_format_value(2.5e9, 1, s, sizeof(s));
	assert_string_equal(s, "2.500 s");
	results_format_value(1.2e9, 0, s, sizeof(s));
	assert_string_equal(s, "1.200 G");
	results_format_value(NAN, 0, s, sizeof(s));
	assert_string_equal(s, "-");
}

PLUMB_TEST(results_text_and_json)
{
	struct runner_run_result res;
	struct manifest_bench *b;
	struct plumb_err err;
	struct buf out;
	json_t *j;
	static double pads[2] = { 100e6, 110e6 };
	static double cpads[2] = { 104e6, 111e6 };

	memset(&res, 0, sizeof(res));
	small_manifest(&res.manifest, 1);
	b = &res.manifest.benches[0];
	free(b->failure);
	b->failure = NULL;
	b->base.present = 1;
	b->base.pads = malloc(sizeof(pads));
	memcpy(b->base.pads, pads, sizeof(pads));
	b->base.n_pads = 2;
	b->base.center = 105e6;
	b->base.min = 100e6;
	b->base.max = 110e6;
	b->base.spread = 10.0 / 105;
	b->candidate.present = 1;
	b->candidate.pads = malloc(sizeof(cpads));
	memcpy(b->candidate.pads, cpads, sizeof(cpads));
	b->candidate.n_pads = 2;
	b->candidate.center = 107.5e6;
	b->candidate.min = 104e6;
	b->candidate.max = 111e6;
	b->ratio = 107.5 / 105;
	b->verdict = VERDICT_PLACEMENT;
	b->checksum.present = 1;
	b->checksum.consistent = 1;
	b->checksum.base = strdup("aa");
	b->checksum.candidate = strdup("bb");
	res.manifest.run.counters_available = 0;
	res.manifest.run.counters_reason = strdup("perf_event_open(cycles): No such file or directory");
	res.bundle = strdup("x.plumb");
	snprintf(res.id, sizeof(res.id), "%064d", 7);

	buf_init(&out, 1 << 20);
	plumb_err_clear(&err);
	assert_int_equal(runner_results_text(&res, &out, &err), 0);
	assert_non_null(strstr(out.data, "b (process mode, wall): placement: a difference that cannot be told from where the code sits: "));
	assert_non_null(strstr(out.data, "  base       105.00 ms  (range 100.00 ms .. 110.00 ms over 2 pads, spread 9.52%)\n"));
	assert_non_null(strstr(out.data, "  ratio      1.024 (candidate center / base center)\n"));
	assert_non_null(strstr(out.data, "  checksum   base aa, candidate bb: behaviour changed\n"));
	assert_non_null(strstr(out.data, "counters: unavailable: perf_event_open(cycles)"));
	assert_non_null(strstr(out.data, "bundle: x.plumb\n"));

	j = runner_results_json(&res, 0);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "bundle")), "x.plumb");
	{
		json_t *bj = json_array_get(json_object_get(j, "benches"), 0);
		json_t *ck = json_object_get(bj, "checksum");
		assert_string_equal(json_string_value(json_object_get(bj, "verdict")), "placement");
		assert_true(json_is_true(json_object_get(ck, "behaviourChanged")));
		assert_true(json_is_null(json_object_get(json_object_get(bj, "sides"), "control")));
		assert_int_equal(json_array_size(json_object_get(json_object_get(
			json_object_get(bj, "sides"), "base"), "pads")), 2);
	}
	json_decref(j);
	buf_release(&out);
	runner_run_result_release(&res);
}
