/*
 * tests/unit/test-reports.c: reports/ (escaping, number formatting, host
 * comparability, the comparison model, distributions, the render stage).
 *
 * The whole reports are checked as golden files by t2010-report-golden.sh;
 * these tests pin the rules underneath, one at a time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "reports/compare.h"
#include "reports/distribution.h"
#include "reports/gate.h"
#include "reports/github.h"
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "reports/report.h"
#include "reports/source.h"
#include "reports/trend.h"
#include "common/banned.h"

static const char *escaped(int (*fn)(struct buf *, const char *), const char *s)
{
	static char out[1024];
	struct buf b;

	buf_init(&b, sizeof(out) - 1);
	assert_int_equal(fn(&b, s), 0);
	snprintf(out, sizeof(out), "%s", buf_cstr(&b));
	buf_release(&b);
	return out;
}

PLUMB_TEST(reports_escape_text_removes_what_repaints_a_terminal)
{
	assert_string_equal(escaped(esc_text, "plain µs → ok"), "plain µs → ok");
	assert_string_equal(escaped(esc_text, "\033[31mred\033[0m"), "?[31mred?[0m");
	/* C1 control (U+009B is a one-character CSI), bidi override, isolate. */
	assert_string_equal(escaped(esc_text, "a\xc2\x9b" "b\xe2\x80\xae" "c\xe2\x81\xa6" "d"),
			    "a?b?c?d");
	/* Malformed UTF-8: a lone continuation byte, an overlong form, a cut sequence. */
	assert_string_equal(escaped(esc_text, "x\x80y\xc0\xafz\xe2\x82"), "x?y??z??");
	assert_string_equal(escaped(esc_text, "tab\there\nnl"), "tab?here?nl");
}

PLUMB_TEST(reports_escape_markdown_and_html)
{
	assert_string_equal(escaped(esc_md, "a|b`c*d_e[f]<g>&$"),
			    "a\\|b\\`c\\*d\\_e\\[f\\]\\<g\\>\\&\\$");
	assert_string_equal(escaped(esc_md, "v1.2.0 (rc-1), 3%"), "v1.2.0 (rc-1), 3%");
	assert_string_equal(escaped(esc_html, "<a href=\"x\">'&'</a>"),
			    "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
	assert_string_equal(escaped(esc_html, "\033]8;;http://x\033\\"), "?]8;;http://x?\\");
}

PLUMB_TEST(reports_escape_csv_quotes_one_field)
{
	/* RFC 4180: a field in quotes, a quote inside doubled; commas and
	 * separators stay inside the quotes. */
	assert_string_equal(escaped(esc_csv, "aaa"), "\"aaa\"");
	assert_string_equal(escaped(esc_csv, "b\"bb"), "\"b\"\"bb\"");
	assert_string_equal(escaped(esc_csv, "a,b;c"), "\"a,b;c\"");
	assert_string_equal(escaped(esc_csv, NULL), "\"\"");
	/* Line breaks and terminal controls never reach the file. */
	assert_string_equal(escaped(esc_csv, "x\r\ny\033[2J"), "\"x??y?[2J\"");
	/* A spreadsheet formula stays text. */
	assert_string_equal(escaped(esc_csv, "=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
	assert_string_equal(escaped(esc_csv, "@SUM(A1)"), "\"'@SUM(A1)\"");
	assert_string_equal(escaped(esc_csv, "-O2"), "\"'-O2\"");
	assert_string_equal(escaped(esc_csv, "a=b"), "\"a=b\"");
}

PLUMB_TEST(reports_escape_utf8_cut_drops_a_partial_sequence)
{
	char a[] = "ab\xe2\x86", b[] = "ab\xe2\x86\x92", c[] = "x\xc3";

	utf8_cut(a);
	utf8_cut(b);
	utf8_cut(c);
	assert_string_equal(a, "ab");
	assert_string_equal(b, "ab\xe2\x86\x92");
	assert_string_equal(c, "x");
}

PLUMB_TEST(reports_units_pick_a_unit_and_four_digits)
{
	char s[UNITS_MAX];

	units_value(101250000, metric_dim(METRIC_WALL), 0, s);
	assert_string_equal(s, "101.2 ms");
	units_value(999.96e3, metric_dim(METRIC_WALL), 0, s);
	assert_string_equal(s, "1.000 ms");
	units_value(1520.5, metric_dim(METRIC_CPU), 0, s);
	assert_string_equal(s, "1.520 \u00b5s");
	units_value(1520.5, metric_dim(METRIC_CPU), 1, s);
	assert_string_equal(s, "1.520 us");
	units_value(12, metric_dim(METRIC_WALL), 0, s);
	assert_string_equal(s, "12 ns");
	units_value(2.35e9, metric_dim(METRIC_WALL), 0, s);
	assert_string_equal(s, "2.350 s");
	units_value(1.4587e9, metric_dim(METRIC_INSTRUCTIONS), 0, s);
	assert_string_equal(s, "1.459 G");
	units_value(42, metric_dim(METRIC_CYCLES), 0, s);
	assert_string_equal(s, "42");
	units_value(NAN, metric_dim(METRIC_WALL), 0, s);
	assert_string_equal(s, "n/a");
	units_percent(0.0358, s);
	assert_string_equal(s, "3.58%");
	units_percent(0.315, s);
	assert_string_equal(s, "31.5%");
	units_ratio(0.9432, s);
	assert_string_equal(s, "0.943");
	units_ratio(INFINITY, s);
	assert_string_equal(s, "n/a");
	units_change(1.118, s);
	assert_string_equal(s, "+11.8%");
	units_change(1 - 0.0305, s);
	assert_string_equal(s, "\u22123.05%");
	units_change(NAN, s);
	assert_string_equal(s, "n/a");
	units_level(0.99, s);
	assert_string_equal(s, "99%");
	units_level(1 - 0.01 / 3, s);
	assert_string_equal(s, "99.6667%");
	units_level(0.005, s);
	assert_string_equal(s, "0.5%");
	units_p(0.0021645, s);
	assert_string_equal(s, "0.0022");
	units_p(0.3125, s);
	assert_string_equal(s, "0.31");
	units_p(NAN, s);
	assert_string_equal(s, "n/a");
	units_as_read(0.1, s);
	assert_string_equal(s, "0.1");
	units_as_read(-3, s);
	assert_string_equal(s, "-3");
	units_as_read(-INFINITY, s);
	assert_string_equal(s, "-inf");
	units_as_read(NAN, s);
	assert_string_equal(s, "nan");
	units_load(1.254, s);
	assert_string_equal(s, "1.25");
	units_load(12, s);
	assert_string_equal(s, "12.00");
}

static json_t *facts(const char *model, int logical, const char *kernel,
		     const char *governor, int turbo)
{
	json_t *o = json_pack("{s:{s:s,s:i,s:i,s:b},s:{s:s},s:{s:s,s:b}}",
			      "cpu", "model", model, "logical", logical,
			      "physical_cores", logical / 2, "smt", 1,
			      "kernel", "release", kernel,
			      "cpufreq", "governor", governor, "turbo", turbo);
	assert_non_null(o);
	return o;
}

PLUMB_TEST(reports_hostdiff_blocks_on_cpu_and_cores_warns_on_the_rest)
{
	json_t *a = facts("Xeon", 8, "6.1", "performance", 0);
	json_t *b = facts("EPYC", 16, "6.2", "performance", 0);
	struct hostdiff d;
	struct plumb_err err;

	plumb_err_clear(&err);
	hostdiff_init(&d);
	assert_int_equal(hostdiff_compare(&d, a, b, HOSTDIFF_BASELINE, &err), 0);
	assert_false(d.comparable);
	assert_int_equal(d.n_items, 4);
	assert_string_equal(d.items[0].key, "cpu.model");
	assert_int_equal(d.items[0].level, HOSTDIFF_BLOCKER);
	assert_string_equal(d.items[0].old, "Xeon");
	assert_string_equal(d.items[0].new, "EPYC");
	assert_string_equal(d.items[1].key, "cpu.logical");
	assert_string_equal(d.items[2].key, "cpu.physical_cores");
	assert_string_equal(d.items[3].key, "kernel.release");
	assert_int_equal(d.items[3].level, HOSTDIFF_WARNING);
	hostdiff_release(&d);
	json_decref(a);
	json_decref(b);
}

PLUMB_TEST(reports_hostdiff_unknown_on_one_side_only_warns)
{
	json_t *a = facts("Xeon", 8, "6.1", "performance", 0);
	json_t *b = facts("Xeon", 8, "6.1", "performance", 0);
	struct hostdiff d;
	struct plumb_err err;

	plumb_err_clear(&err);
	json_object_set_new(json_object_get(b, "cpu"), "model", json_null());
	json_object_del(json_object_get(b, "cpu"), "logical");
	hostdiff_init(&d);
	assert_int_equal(hostdiff_compare(&d, a, b, HOSTDIFF_JOB, &err), 0);
	assert_true(d.comparable);
	assert_int_equal(d.n_items, 2);
	assert_int_equal(d.items[0].level, HOSTDIFF_WARNING);
	assert_string_equal(d.items[0].new, "unknown");
	/* Equal hosts, or no end facts at all: nothing to say. */
	hostdiff_release(&d);
	assert_int_equal(hostdiff_compare(&d, a, a, HOSTDIFF_JOB, &err), 0);
	assert_int_equal(hostdiff_compare(&d, a, NULL, HOSTDIFF_JOB, &err), 0);
	assert_int_equal(d.n_items, 0);
	hostdiff_release(&d);
	json_decref(a);
	json_decref(b);
}

PLUMB_TEST(reports_hostdiff_states_governor_and_turbo_once)
{
	json_t *a = facts("Xeon", 8, "6.1", "powersave", 1);
	json_t *p = facts("Xeon", 8, "6.1", "performance", 0);
	struct hostdiff d;
	struct plumb_err err;

	plumb_err_clear(&err);
	hostdiff_init(&d);
	assert_int_equal(hostdiff_state(&d, p, NULL, &err), 0);
	assert_int_equal(d.n_statements, 0);
	assert_int_equal(hostdiff_state(&d, a, NULL, &err), 0);
	assert_int_equal(hostdiff_state(&d, a, NULL, &err), 0);
	assert_int_equal(d.n_statements, 2);
	assert_non_null(strstr(d.statements[0], "governor is powersave, not performance"));
	assert_non_null(strstr(d.statements[1], "turbo is on"));
	assert_int_equal(hostdiff_state(&d, a, "baseline host", &err), 0);
	assert_int_equal(d.n_statements, 4);
	assert_int_equal(strncmp(d.statements[2], "baseline host: governor", 23), 0);
	hostdiff_release(&d);
	json_decref(a);
	json_decref(p);
}

PLUMB_TEST(reports_hostdiff_table_merges_both_sides)
{
	json_t *a = json_pack("{s:{s:s},s:i,s:[f,f]}", "cpu", "model", "X", "aslr", 2,
			      "loadavg", 0.3, 0.1);
	json_t *b = json_pack("{s:{s:s,s:n},s:i}", "cpu", "model", "X", "microcode", "aslr", 0);
	struct hostdiff d;
	struct plumb_err err;

	plumb_err_clear(&err);
	hostdiff_init(&d);
	assert_int_equal(hostdiff_table(&d, a, b, "start", "end", &err), 0);
	assert_int_equal(d.n_rows, 4);
	assert_string_equal(d.rows[0].key, "aslr");
	assert_true(d.rows[0].differs);
	assert_string_equal(d.rows[1].key, "cpu.microcode");
	assert_null(d.rows[1].old);
	assert_string_equal(d.rows[1].new, "unknown");
	assert_string_equal(d.rows[2].key, "cpu.model");
	assert_false(d.rows[2].differs);
	assert_string_equal(d.rows[3].key, "loadavg");
	assert_string_equal(d.rows[3].old, "[0.3,0.1]");
	assert_null(d.rows[3].new);
	hostdiff_release(&d);
	json_decref(a);
	json_decref(b);
}

/* Load tests/fixtures/reports/inputs/<name>. */
static void load(struct report_source *s, const char *name)
{
	char path[4096];
	struct plumb_err err;

	plumb_err_clear(&err);
	snprintf(path, sizeof(path), "%s/tests/fixtures/reports/inputs/%s", unit_srcdir(), name);
	report_source_init(s);
	if (report_source_load(s, path, &err) < 0)
		fail_msg("%s", err.msg);
}

static void set_pads(struct manifest_side_stats *s, double a, double b, int rounds)
{
	s->pads[0] = a;
	for (size_t i = 1; i < s->n_pads; i++)
		s->pads[i] = b;
	s->min = fmin(a, b);
	s->max = fmax(a, b);
	s->center = s->n_pads > 2 ? b : (a + b) / 2;
	s->rounds = rounds;
}

PLUMB_TEST(reports_compare_against_a_baseline_uses_the_overlap_rule)
{
	struct report_source bl, bu;
	struct report_side o, n;
	struct report r;
	struct plumb_err err;
	struct manifest_side_stats *bs, *cs;

	plumb_err_clear(&err);
	load(&bl, "slower");
	load(&bu, "slower");
	bs = &bl.m.benches[0].candidate;
	cs = &bu.m.benches[0].candidate;
	report_source_side(&bl, MANIFEST_SIDE_CANDIDATE, &o);
	report_source_side(&bu, MANIFEST_SIDE_CANDIDATE, &n);

	/* Touching ranges overlap: placement. */
	set_pads(bs, 10, 20, 5);
	set_pads(cs, 20, 30, 5);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_PLACEMENT);
	report_release(&r);
	/* Wholly above: slower; below: faster. */
	set_pads(cs, 21, 30, 5);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_SLOWER);
	assert_int_equal(report_failing(&r, REPORT_FAIL_SLOWER, NULL), 1);
	assert_int_equal(report_failing(&r, REPORT_FAIL_NEVER, NULL), 0);
	report_release(&r);
	set_pads(cs, 1, 9, 5);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_FASTER);
	assert_int_equal(report_failing(&r, REPORT_FAIL_SLOWER, NULL), 0);
	assert_int_equal(report_failing(&r, REPORT_FAIL_ANY, NULL), 1);
	assert_true(fabs(r.benches[0].ratio - 9.0 / 20.0) < 1e-12);
	report_release(&r);
	/* Two rounds on a pad: insufficient, whatever the ranges. */
	set_pads(cs, 21, 30, 2);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_INSUFFICIENT);
	assert_int_equal(report_failing(&r, REPORT_FAIL_ANY, NULL), 0);
	report_release(&r);
	/* One pad: a non-overlap is unswept with its direction, never slower. */
	cs->n_pads = 1;
	set_pads(cs, 31, 31, 5);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_UNSWEPT);
	assert_int_equal(r.benches[0].direction, MANIFEST_DIRECTION_SLOWER);
	assert_int_equal(report_failing(&r, REPORT_FAIL_ANY, NULL), 0);
	report_release(&r);
	report_source_release(&bl);
	report_source_release(&bu);
}

/* A bundle judged by the margin rule is compared with a baseline under it:
 * the larger recorded noise is the margin; apart by less is noisy, which
 * no --fail-on fails on. */
PLUMB_TEST(reports_compare_against_a_baseline_uses_the_bundles_rule)
{
	struct report_source bl, bu;
	struct report_side o, n;
	struct report r;
	struct plumb_err err;
	struct manifest_bench *mb;

	plumb_err_clear(&err);
	load(&bl, "slower");
	load(&bu, "slower");
	mb = &bu.m.benches[0];
	report_source_side(&bl, MANIFEST_SIDE_CANDIDATE, &o);
	report_source_side(&bu, MANIFEST_SIDE_CANDIDATE, &n);
	mb->rule.present = 1;
	assert_int_equal(manifest_set_str(&mb->rule.name, "margin"), 0);
	mb->rule.version = 2;
	mb->rule.confidence = 0.95;
	mb->rule.noise_factor = 1;
	mb->rule.resamples = 500;
	mb->rule.seed = 1;
	mb->noise_basis.present = 1;
	mb->noise_basis.figure = mb->noise_basis.margin = 0.10;
	mb->noise_basis.rounds = 0.01;
	set_pads(&bl.m.benches[0].candidate, 10, 20, 5);
	/* 21 against 20: 5% apart, within a 10% noise: noisy, slower-pointing. */
	set_pads(&mb->candidate, 21, 30, 5);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_NOISY);
	assert_int_equal(r.benches[0].direction, MANIFEST_DIRECTION_SLOWER);
	assert_int_equal(r.benches[0].rule.kind, STATS_RULE_MARGIN);
	assert_int_equal(report_failing(&r, REPORT_FAIL_ANY, NULL), 0);
	assert_int_equal(r.counts.verdict[VERDICT_NOISY], 1);
	assert_false(isnan(r.benches[0].ratio_lo));
	assert_false(isnan(r.benches[0].detect_slower));
	report_release(&r);
	/* 25 against 20: 25% apart, beyond the noise: slower. */
	set_pads(&mb->candidate, 25, 30, 5);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.benches[0].verdict, VERDICT_SLOWER);
	assert_int_equal(report_failing(&r, REPORT_FAIL_SLOWER, NULL), 1);
	report_release(&r);
	report_source_release(&bl);
	report_source_release(&bu);
}

PLUMB_TEST(reports_hostdiff_states_the_load_of_the_rounds)
{
	json_t *f = facts("Xeon", 2, "6.1", "performance", 0);
	struct manifest_condition c[3];
	struct manifest_run run;
	struct hostdiff d;
	struct plumb_err err;

	plumb_err_clear(&err);
	memset(&run, 0, sizeof(run));
	for (int i = 0; i < 3; i++) {
		manifest_condition_init(&c[i]);
		c[i].load[0] = 0.5 + i;
	}
	c[1].load[0] = NAN;   /* a round without a reading */
	run.conditions = c;
	run.n_conditions = 3;
	hostdiff_init(&d);
	assert_int_equal(hostdiff_load(&d, &run, f, NULL, &err), 0);
	assert_int_equal(d.n_statements, 1);
	/* Above the CPU count: say what waiting costs and the metric that leaves it out. */
	assert_string_equal(d.statements[0], "load during the rounds 0.50 to 2.50 on 2 CPUs: more "
			    "work than CPUs, the wall-clock timings include waiting for one "
			    "(metric = cpu leaves it out)");
	c[2].load[0] = 1.25;
	assert_int_equal(hostdiff_load(&d, &run, f, "baseline", &err), 0);
	assert_string_equal(d.statements[1], "baseline: load during the rounds 0.50 to 1.25 on 2 CPUs");
	run.n_conditions = 0;
	assert_int_equal(hostdiff_load(&d, &run, f, NULL, &err), 0);
	assert_int_equal(d.n_statements, 2);
	hostdiff_release(&d);
	json_decref(f);
}

PLUMB_TEST(reports_compare_names_benchmarks_on_one_side_only)
{
	struct report_source bl, bu;
	struct report_side o, n;
	struct report r;
	struct plumb_err err;

	plumb_err_clear(&err);
	load(&bl, "bl-baseline");
	load(&bu, "bl-bundle");
	report_source_side(&bl, MANIFEST_SIDE_CANDIDATE, &o);
	report_source_side(&bu, MANIFEST_SIDE_CANDIDATE, &n);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_int_equal(r.n_benches, 5);
	assert_string_equal(r.benches[2].name, "fresh");
	assert_string_equal(r.benches[2].missing, "not in the baseline");
	assert_non_null(r.benches[3].failure);
	assert_string_equal(r.benches[4].name, "retired");
	assert_string_equal(r.benches[4].missing, "not in this bundle");
	assert_int_equal(r.counts.missing, 2);
	assert_int_equal(r.counts.failed, 1);
	/* The baseline's own side is what it names. */
	report_release(&r);
	report_source_side(&bl, MANIFEST_SIDE_BASE, &o);
	assert_int_equal(report_compare(&r, REPORT_BASELINE, &o, &n, 0, &err), 0);
	assert_true(r.benches[0].old == &bl.m.benches[0].base);
	assert_true(r.old_commit == &bl.m.repo.base);
	report_release(&r);
	report_source_release(&bl);
	report_source_release(&bu);
}

PLUMB_TEST(reports_render_withholds_and_fails_on_verdicts)
{
	struct report_source bl, bu, sl;
	struct report_side o, n, s;
	struct report_opts opts = { REPORT_TEXT, 0, 0, REPORT_FAIL_SLOWER };
	struct report_result res;
	struct plumb_err err;
	struct buf out;

	load(&bl, "nc-baseline");
	load(&bu, "nc-bundle");
	load(&sl, "slower");
	report_source_side(&bl, MANIFEST_SIDE_CANDIDATE, &o);
	report_source_side(&bu, MANIFEST_SIDE_CANDIDATE, &n);
	report_source_side(&sl, MANIFEST_SIDE_CANDIDATE, &s);

	/* Not comparable: the whole report, verdicts withheld (a result, not an error). */
	plumb_err_clear(&err);
	buf_init(&out, 1 << 20);
	assert_int_equal(report_render(&n, &o, &opts, &out, &res, &err), 0);
	assert_true(res.withheld);
	assert_int_equal(res.failon_matched, 0);
	assert_non_null(strstr(res.message, "hosts not comparable: CPU model differs"));
	assert_non_null(strstr(buf_cstr(&out), "withheld"));
	buf_reset(&out);
	/* Forced: compared; the verdict the caller asked to fail on. */
	opts.force = 1;
	plumb_err_clear(&err);
	assert_int_equal(report_render(&n, &o, &opts, &out, &res, &err), 0);
	assert_false(res.withheld);
	assert_int_equal(res.failon_matched, 1);
	assert_string_equal(res.message, "1 benchmark slower (--fail-on slower): sort1m");
	buf_reset(&out);
	/* Its own base: slower and placement; --fail-on any names the one. */
	opts.fail_on = REPORT_FAIL_ANY;
	plumb_err_clear(&err);
	assert_int_equal(report_render(&s, NULL, &opts, &out, &res, &err), 0);
	assert_int_equal(res.failon_matched, 1);
	assert_string_equal(res.message, "1 benchmark slower or faster (--fail-on any): sort1m");
	buf_reset(&out);
	opts.fail_on = REPORT_FAIL_NEVER;
	assert_int_equal(report_render(&s, NULL, &opts, &out, &res, &err), 0);
	assert_int_equal(res.failon_matched, 0);
	assert_string_equal(res.message, "");
	buf_release(&out);

	/* A full output buffer is an error, not a short report. */
	for (enum report_format f = REPORT_TEXT; f <= REPORT_JSON; f++) {
		opts.format = f;
		buf_init(&out, 200);
		plumb_err_clear(&err);
		assert_int_equal(report_render(&s, NULL, &opts, &out, &res, &err), PLUMB_EINPUT);
		assert_non_null(strstr(err.msg, "too large"));
		buf_release(&out);
	}
	report_source_release(&bl);
	report_source_release(&bu);
	report_source_release(&sl);
}

PLUMB_TEST(reports_distribution_keeps_memory_bounded_and_skips_warmup)
{
	struct report_source s;
	struct report_dist *d = report_dist_new();
	const struct report_dist_side *side;
	struct plumb_err err;
	uint64_t total = 5 * (uint64_t)REPORT_DIST_KEEP + 7;

	plumb_err_clear(&err);
	load(&s, "placement");
	assert_non_null(d);
	/* parse: steady state from iteration 38; warmup rows are slow. */
	for (uint64_t i = 0; i < total; i++) {
		uint64_t iter = i % 1000;
		double v = iter < 38 ? 1e9 : 1000.0 + (double)(i % 101);
		assert_int_equal(report_dist_add(d, "parse", MANIFEST_SIDE_BASE, 2,
						 (uint32_t)(i / 1000), iter, "wall", v, &err), 0);
	}
	/* Other metrics and unknown benchmarks are left out; a process-mode
	 * row is its round's value. */
	assert_int_equal(report_dist_add(d, "parse", MANIFEST_SIDE_BASE, 2, 0, 500, "cycles", 5,
					 &err), 0);
	assert_int_equal(report_dist_add(d, "interp", MANIFEST_SIDE_BASE, 0, 1, UINT64_MAX,
					 "wall", 5, &err), 0);
	assert_int_equal(report_dist_add(d, "interp", MANIFEST_SIDE_BASE, 0, 3, UINT64_MAX,
					 "wall", 7, &err), 0);
	assert_int_equal(report_dist_add(d, "nope", MANIFEST_SIDE_BASE, 0, 0, 1, "wall", 5, &err), 0);
	assert_int_equal(report_dist_finish(d, &s.m, &err), 0);
	side = report_dist_find(d, "parse", MANIFEST_SIDE_BASE);
	assert_non_null(side);
	assert_int_equal(side->n_pads, 1);
	assert_int_equal(side->pads[0].pad, 2);
	assert_true(side->pads[0].min >= 1000.0);
	assert_true(side->pads[0].max <= 1100.0);
	assert_true(side->pads[0].p25 <= side->pads[0].p50);
	assert_true(side->pads[0].p50 <= side->pads[0].p75);
	assert_true(fabs(side->pads[0].p50 - 1050.0) < 3);
	assert_null(report_dist_find(d, "parse", MANIFEST_SIDE_CANDIDATE));
	/* A round per thousand rows, each its median (warmup left out). */
	assert_int_equal((int)side->pads[0].n_rounds, (int)(total / 1000) + 1);
	assert_true(fabs(side->pads[0].rounds[0] - 1050.0) < 3);
	assert_true(side->pads[0].rounds[1] >= 1000.0 && side->pads[0].rounds[1] <= 1100.0);
	side = report_dist_find(d, "interp", MANIFEST_SIDE_BASE);
	assert_non_null(side);
	assert_int_equal((int)side->pads[0].n_rounds, 4);
	assert_true(isnan(side->pads[0].rounds[0]) && isnan(side->pads[0].rounds[2]));
	assert_true(side->pads[0].rounds[1] == 5 && side->pads[0].rounds[3] == 7);
	assert_true(side->pads[0].p50 == 6);
	report_dist_free(d);
	report_source_release(&s);
}

/* Point i of a trend: commit c, center and range; every other number unknown. */
static void trend_point(struct query_trend_point *p, char *c, double center, double min, double max)
{
	memset(p, 0, sizeof(*p));
	p->commit = c;
	p->center = center, p->min = min, p->max = max;
	p->spread = p->ratio = p->base_center = p->noise = NAN;
}

PLUMB_TEST(reports_trend_marks_ranges_that_stop_overlapping)
{
	static char a[] = "aaaa", b[] = "bbbb", c[] = "cccc", d[] = "dddd", e[] = "eeee";
	struct query_trend_point pts[5];
	struct query_trend_result t = { .bench = "interp", .metric = "wall", .host = "abcd",
					.points = pts, .n = 5 };
	struct plumb_err err;
	struct buf out;
	json_t *j;

	trend_point(&pts[0], a, 10.0, 9.0, 11.0);
	trend_point(&pts[1], b, 10.5, 10.0, 11.0);
	trend_point(&pts[2], c, NAN, NAN, NAN);
	trend_point(&pts[3], d, 12.0, 11.5, 12.5);
	trend_point(&pts[4], e, 10.0, 9.5, 10.5);
	plumb_err_clear(&err);
	buf_init(&out, 1 << 20);
	assert_int_equal(trend_render_model(&t, REPORT_JSON, &out, &err), 0);
	j = json_loads(buf_cstr(&out), 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "shifts")), 2);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "points"), 1),
						 "shift")));
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(j, "points"), 3), "shift")), "up");
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(j, "points"), 4), "shift")), "down");
	json_decref(j);
	buf_release(&out);
}

/*
 * --fail-on with --trend gates on the latest nights starting a change point
 * (trend_gate()): up for slower and noisy, either way for any and change; a
 * shift of the latest night alone gates nothing, nor does an older change,
 * nor a change of the host.
 */
PLUMB_TEST(reports_trend_gate_is_a_latest_change)
{
	static const enum report_fail_on all[] = { REPORT_FAIL_SLOWER, REPORT_FAIL_NOISY,
						   REPORT_FAIL_ANY, REPORT_FAIL_CHANGE };
	struct trend_point p[6];
	char why[PLUMB_ERR_MAX];

	memset(p, 0, sizeof(p));
	for (size_t i = 0; i < 6; i++)
		p[i].commit = "bbbbccccddddeeee", p[i].min = 9, p[i].max = 11, p[i].center = 10;
	p[5].min = 12, p[5].max = 13, p[5].shift = 1;
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(trend_gate(p, 6, all[f], why, sizeof(why)), 0);
	p[5].shift = -1;
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(trend_gate(p, 6, all[f], why, sizeof(why)), 0);
	p[5].shift = 0;
	p[4].change = 1;
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(trend_gate(p, 6, all[f], why, sizeof(why)), 1);
	assert_non_null(strstr(why, "start a change point up: 2 of the last 3 nights are after it, "
				    "the first at commit bbbbccccdddd (--fail-on change)"));
	assert_int_equal(trend_gate(p, 6, REPORT_FAIL_NEVER, why, sizeof(why)), 0);
	p[4].change = -1;
	assert_int_equal(trend_gate(p, 6, REPORT_FAIL_SLOWER, why, sizeof(why)), 0);
	assert_int_equal(trend_gate(p, 6, REPORT_FAIL_NOISY, why, sizeof(why)), 0);
	assert_int_equal(trend_gate(p, 6, REPORT_FAIL_ANY, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "change point down"));
	assert_int_equal(trend_gate(p, 6, REPORT_FAIL_CHANGE, why, sizeof(why)), 1);
	/* A change of the host (the same commit either side) gates nothing, either way. */
	p[4].change_host = 1;
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(trend_gate(p, 6, all[f], why, sizeof(why)), 0);
	p[4].change = 1;
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(trend_gate(p, 6, all[f], why, sizeof(why)), 0);
	p[4].change_host = 0;
	p[4].change = 0;
	p[2].change = 1;        /* the first night after it is the 4th latest */
	for (size_t f = 0; f < 4; f++)
		assert_int_equal(trend_gate(p, 6, all[f], why, sizeof(why)), 0);
}

/* The HTML trend's range column holds the range, as text and Markdown do. */
PLUMB_TEST(reports_trend_html_range_column_is_the_range)
{
	static char id[] = "0123456789abcdef";
	struct query_trend_point pt;
	struct query_trend_result t = { .bench = "interp", .metric = "wall", .points = &pt, .n = 1 };
	struct plumb_err err;
	struct buf out;
	const char *row;

	trend_point(&pt, id, 61.9e6, 60.0e6, 63.5e6);
	plumb_err_clear(&err);
	buf_init(&out, 1 << 20);
	assert_int_equal(trend_render_model(&t, REPORT_HTML, &out, &err), 0);
	/* The row's commit: 12 digits shown, the whole id on hover. */
	row = strstr(buf_cstr(&out), "<span class=\"id\" title=\"0123456789abcdef\">0123456789ab</span>");
	assert_non_null(row);
	row = strstr(buf_cstr(&out), "<tr><td class=\"num\"></td>");
	assert_non_null(row);
	assert_non_null(strstr(row, "<td class=\"num\">60.00\u201363.50 ms</td>"));
	assert_null(strstr(strstr(row, "0123456789ab</span>") + 1, ">0123456789ab<"));
	buf_release(&out);
}

/* A commit id on a page: 12 characters shown, the whole on hover, both escaped. */
PLUMB_TEST(reports_html_commit_short_with_title)
{
	struct buf out;

	buf_init(&out, 1 << 12);
	assert_int_equal(html_commit(&out, "4be1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9"), 0);
	assert_string_equal(buf_cstr(&out), "<span class=\"id\" title=\"4be1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9\">"
			    "4be1c2d3e4f5</span>");
	buf_reset(&out);
	assert_int_equal(html_commit(&out, "\"><script>x</script>"), 0);
	assert_string_equal(buf_cstr(&out), "<span class=\"id\" title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\">"
			    "&quot;&gt;&lt;script&gt;x&lt;</span>");
	buf_reset(&out);
	/* Never half a character: 11 bytes and a 2-byte one cut to 11. */
	assert_int_equal(html_commit(&out, "abcdefghijk\xc3\xa9z"), 0);
	assert_non_null(strstr(buf_cstr(&out), "\">abcdefghijk</span>"));
	buf_reset(&out);
	assert_int_equal(html_commit(&out, NULL), 0);
	assert_string_equal(buf_cstr(&out), "?");
	buf_release(&out);
}

/* GitHub workflow commands: slower and failed are ::error, noisy ::warning, all escaped. */
PLUMB_TEST(reports_github_annotations_escaped)
{
	struct report_bench b[3];
	struct report r;
	struct plumb_err err;
	struct buf out;

	memset(b, 0, sizeof(b));
	memset(&r, 0, sizeof(r));
	r.benches = b;
	r.n_benches = 3;
	r.old_role = "base";
	r.new.origin = "night:1.plumb";
	b[0].name = "n:1,2%";
	b[0].verdict = VERDICT_NOISY;
	b[0].ratio = 1.01;
	b[0].ratio_lo = b[0].ratio_hi = NAN;
	b[1].name = "s\r\nx";
	b[1].verdict = VERDICT_SLOWER;
	b[1].ratio = 1.5;
	b[1].ratio_lo = 1.4;
	b[1].ratio_hi = 1.6;
	b[2].name = "f";
	b[2].failure = "exit status 3";
	plumb_err_clear(&err);
	buf_init(&out, 1 << 16);
	assert_int_equal(report_github(&r, &out, &err), 0);
	assert_string_equal(buf_cstr(&out),
		"::warning title=plumb%3A n%3A1%2C2%25 noisy::n:1,2%25 is too noisy to tell: +1.00%25 wall "
		"(ratio 1.010 of the base's), within the noise; bundle night:1.plumb\n"
		"::error title=plumb%3A s??x slower::s??x is slower: +50.0%25 wall, interval +40.0%25 to "
		"+60.0%25 (ratio 1.500 of the base's); bundle night:1.plumb\n"
		"::error title=plumb%3A f failed::f failed: exit status 3; bundle night:1.plumb\n");
	/* A bundle known by its id alone (run --archive without -o). */
	r.new.origin = NULL;
	r.new.bundle = "0123abcd";
	r.n_benches = 1;
	b[0] = b[2];
	buf_reset(&out);
	assert_int_equal(report_github(&r, &out, &err), 0);
	assert_string_equal(buf_cstr(&out),
		"::error title=plumb%3A f failed::f failed: exit status 3; bundle 0123abcd in the archive\n");
	buf_reset(&out);
	assert_int_equal(report_github_escape(&out, "50%\r\n:,", 0), 0);
	assert_string_equal(buf_cstr(&out), "50%25??:,");
	buf_release(&out);
}

/* phrase_explain() of a benchmark made by hand: the sentence from its numbers. */
static const char *explained(const struct report_bench *b, int kind)
{
	static char out[2048];
	struct report r;
	struct buf t;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.old_role = "base";
	r.new_role = "candidate";
	buf_init(&t, sizeof(out) - 1);
	assert_int_equal(phrase_explain(&r, b, &t), 0);
	snprintf(out, sizeof(out), "%s", buf_cstr(&t));
	buf_release(&t);
	return out;
}

static void side_of(struct manifest_side_stats *s, double *pads, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->present = 1;
	s->pads = pads;
	s->n_pads = n;
	s->min = s->max = pads[0];
	for (size_t i = 1; i < n; i++) {
		s->min = fmin(s->min, pads[i]);
		s->max = fmax(s->max, pads[i]);
	}
	s->center = pads[n / 2];
	s->spread = (s->max - s->min) / s->center;
	s->rounds = 5;
	s->range_lo = s->range_hi = s->p99 = s->co_p99 = NAN;
}

static void bench_of(struct report_bench *b, struct manifest_side_stats *o,
		     struct manifest_side_stats *n, enum verdict v)
{
	memset(b, 0, sizeof(*b));
	b->name = "x";
	b->metric = METRIC_WALL;
	b->old = o;
	b->new = n;
	b->verdict = v;
	b->ratio = n->center / o->center;
	b->ratio_lo = b->ratio_hi = b->detect_slower = b->detect_faster = NAN;
	b->noise = b->noise_rounds = b->noise_control = b->margin = b->gap = NAN;
	b->hot_identical = -1;
}

PLUMB_TEST(reports_phrase_explains_every_verdict_from_its_numbers)
{
	double po[] = { 166.8e6, 168.0e6, 170.1e6 }, pn[] = { 107.8e6, 110.0e6, 114.4e6 };
	double one[] = { 100e6 };
	struct manifest_side_stats o, n, n1;
	struct report_bench b;
	struct buf t;

	side_of(&o, po, 3);
	side_of(&n, pn, 3);
	bench_of(&b, &o, &n, VERDICT_FASTER);
	b.gap = 0.344;
	b.margin = 0.028;
	assert_string_equal(explained(&b, REPORT_SELF),
			    "The candidate's range 107.8–114.4 ms lies wholly below the base's "
			    "166.8–170.1 ms, apart by 34.4%, more than the 2.80% noise margin: "
			    "34.5% faster.");
	/* The rule's ranges (margin: the pads' intervals) when recorded. */
	n.range_lo = 105.0e6;
	n.range_hi = 116.0e6;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "range 105.0–116.0 ms (pad medians with "
			       "their intervals over rounds) lies"));
	n.range_lo = n.range_hi = NAN;

	b.verdict = VERDICT_NOISY;
	b.direction = MANIFEST_DIRECTION_FASTER;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "lies below the base's 166.8–170.1 ms, "
			       "apart by 34.4%, no more than the 2.80% noise margin: the host is too noisy"));
	b.verdict = VERDICT_PLACEMENT;
	b.hot_identical = 1;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "do not overlap, but the hot code is identical"));
	b.hot_identical = -1;
	b.new = &o;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "overlap: moving the code"));
	side_of(&n1, one, 1);
	b.new = &n1;
	b.verdict = VERDICT_UNSWEPT;
	b.direction = MANIFEST_DIRECTION_FASTER;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "with 3 pads on the base and 1 on the candidate"));
	n1.rounds = 2;
	b.verdict = VERDICT_INSUFFICIENT;
	assert_string_equal(explained(&b, REPORT_SELF),
			    "A pad has only 2 valid rounds, fewer than the 3 a verdict needs.");
	b.withheld = 1;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "not comparable"));
	b.failure = "killed";
	assert_string_equal(explained(&b, REPORT_SELF), "The candidate failed, so there is nothing to compare.");

	/* The change, its interval and the detectable change, as percentages. */
	bench_of(&b, &o, &n, VERDICT_FASTER);
	b.ratio = 0.9;
	b.ratio_lo = 0.88;
	b.ratio_hi = 1.02;
	b.detect_slower = 0.028;
	b.detect_faster = 0.0272;
	buf_init(&t, 1024);
	assert_int_equal(phrase_change(&b, &t), 0);
	assert_string_equal(buf_cstr(&t), "10.0% faster");
	buf_reset(&t);
	assert_int_equal(phrase_change_signed(&b, &t), 0);
	assert_string_equal(buf_cstr(&t), "−10.0%");
	buf_reset(&t);
	assert_int_equal(phrase_interval(&b, &t), 0);
	assert_string_equal(buf_cstr(&t), "−12.0% to +2.00%");
	buf_reset(&t);
	assert_int_equal(phrase_detectable(&b, &t), 0);
	assert_string_equal(buf_cstr(&t), "+2.80% or −2.72%");
	buf_reset(&t);
	b.ratio_lo = NAN;
	b.detect_slower = NAN;
	assert_int_equal(phrase_interval(&b, &t), 0);
	assert_int_equal(phrase_detectable(&b, &t), 0);
	assert_int_equal((int)t.len, 0);
	buf_release(&t);
}

/* A shift-rule benchmark made by hand: 8 pads a side, 99%, minimum effect 1%. */
static void shift_bench(struct report_bench *b, struct manifest_side_stats *o,
			struct manifest_side_stats *n, enum verdict v, double est, double lo,
			double hi)
{
	bench_of(b, o, n, v);
	stats_rule_default(&b->rule);
	b->has_shift = 1;
	b->shift = est;
	b->shift_lo = lo;
	b->shift_hi = hi;
	b->shift_level = 0.993;
	b->p = 0.00016;
	b->p_min = 0.00016;
	b->p_holm = NAN;
	b->ratio_lo = 1 + lo;
	b->ratio_hi = 1 + hi;
}

PLUMB_TEST(reports_phrase_leads_with_the_shift_and_explains_it)
{
	double po[8] = { 80e6, 81e6, 82e6, 83e6, 80.5e6, 81.5e6, 82.5e6, 83.5e6 };
	double pn[8] = { 90e6, 91e6, 92e6, 93e6, 90.5e6, 91.5e6, 92.5e6, 93.5e6 };
	struct manifest_side_stats o, n;
	struct report_bench b;

	side_of(&o, po, 8);
	side_of(&n, pn, 8);
	shift_bench(&b, &o, &n, VERDICT_SLOWER, 0.141, 0.102, 0.180);
	assert_string_equal(explained(&b, REPORT_SELF),
			    "+14.1% slower, 99% interval +10.2% to +18.0%, 8 pads a side: the "
			    "interval lies wholly above the +1% minimum effect (p = 0.00016).");
	/* Identical hot code without the same work shown: a remark, the timing decides. */
	b.hot_identical = 1;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "(p = 0.00016). The hot code is "
			       "identical, but the run did not show the same work, so the timing decides."));
	/* Different work counted: the report says so, not that none was shown. */
	b.work = STATS_WORK_DIFFERENT;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "(p = 0.00016). The hot code is "
			       "identical, but the run showed different work, so the timing decides."));
	b.work = STATS_WORK_UNKNOWN;
	b.hot_identical = -1;

	shift_bench(&b, &o, &n, VERDICT_UNCHANGED, 0.0021, -0.0062, 0.0080);
	assert_string_equal(explained(&b, REPORT_SELF),
			    "+0.21%, 99% interval −0.62% to +0.80%, 8 pads a side: no change larger "
			    "than ±1%, 99% (the interval lies wholly inside the minimum effect).");

	/* Placement states what these pads could have detected. */
	shift_bench(&b, &o, &n, VERDICT_PLACEMENT, 0.031, -0.005, 0.068);
	b.detect_slower = 0.084;
	b.detect_faster = 0.102;
	assert_string_equal(explained(&b, REPORT_SELF),
			    "+3.10%, 99% interval −0.50% to +6.80%, 8 pads a side: the interval "
			    "reaches across the +1% edge of the minimum effect, so the difference "
			    "cannot be told from placement; it could have detected +8.40% slower or "
			    "−10.2% faster with these pads.");
	b.shift_lo = -0.02;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "across both edges of the minimum "
			       "effect, ±1%"));
	/* Placement because identity decided, with the same work shown. */
	b.hot_identical = 1;
	b.hot_decided = 1;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "8 pads a side, but the hot code is "
			       "identical and the run showed the same work: the difference is where "
			       "the code sits"));

	/* Unswept: the pads cannot reach 99%, and how many would. */
	o.n_pads = n.n_pads = 4;
	shift_bench(&b, &o, &n, VERDICT_UNSWEPT, 0.0974, 0.0824, 0.115);
	snprintf(b.why, sizeof(b.why), "4+4 pads can reach 97%% at most, not 99%%");
	assert_string_equal(explained(&b, REPORT_SELF),
			    "+9.74% at 4 pads a side, but 4+4 pads can reach 97% at most, not 99%: "
			    "no change can be called at 99%; run with more pads (5 a side can reach it).");
	/* Unequal sides are named. */
	n.n_pads = 6;
	assert_non_null(strstr(explained(&b, REPORT_SELF), "at 4 pads on the base, 6 on the candidate"));
}

PLUMB_TEST(reports_gate_adjusts_by_holm_and_says_so)
{
	struct report_source g, sl;
	struct report_side s;
	struct report_opts opts = { REPORT_TEXT, 0, 0, REPORT_FAIL_SLOWER };
	struct report_result res;
	struct report r;
	struct plumb_err err;
	struct buf out;
	double p[4];

	load(&g, "shift-gate");
	load(&sl, "slower");
	report_source_side(&g, MANIFEST_SIDE_CANDIDATE, &s);
	plumb_err_clear(&err);
	/* Three slower at 6+6 pads (p 2/924, 4/924, 8/924), one unchanged: Holm over 4. */
	assert_int_equal(report_compare(&r, REPORT_SELF, &s, &s, 0, &err), 0);
	assert_int_equal(r.holm_n, 4);
	for (int i = 0; i < 4; i++)
		p[i] = r.benches[i].p;
	assert_true(fabs(p[0] - 2.0 / 924) < 1e-12 && fabs(p[1] - 4.0 / 924) < 1e-12 &&
		    fabs(p[2] - 8.0 / 924) < 1e-12);
	assert_true(fabs(r.benches[0].p_holm - 4 * p[0]) < 1e-12);   /* 0.0087 <= 1% */
	assert_true(fabs(r.benches[1].p_holm - 3 * p[1]) < 1e-12);   /* 0.013 > 1% */
	assert_true(fabs(r.benches[2].p_holm - 2 * p[2]) < 1e-12);   /* 0.017 > 1% */
	assert_true(r.benches[3].p_holm >= r.benches[2].p_holm);
	for (int i = 0; i < 3; i++)
		assert_int_equal(r.benches[i].verdict, VERDICT_SLOWER);
	assert_true(report_bench_fails(&r.benches[0], REPORT_FAIL_SLOWER));
	assert_false(report_bench_fails(&r.benches[1], REPORT_FAIL_SLOWER));
	assert_true(report_bench_held(&r.benches[1], REPORT_FAIL_SLOWER));
	assert_true(report_bench_held(&r.benches[2], REPORT_FAIL_ANY));
	assert_false(report_bench_held(&r.benches[3], REPORT_FAIL_SLOWER));
	report_release(&r);

	buf_init(&out, 1 << 20);
	assert_int_equal(report_render(&s, NULL, &opts, &out, &res, &err), 0);
	assert_int_equal(res.failon_matched, 1);
	assert_string_equal(res.message, "1 benchmark slower (--fail-on slower, Holm over 4 "
			    "benchmarks): json");
	assert_non_null(strstr(buf_cstr(&out), "\n--fail-on slower: Holm over 4 benchmarks at 1%: "
			       "1 fails the gate; held back by the adjustment: regex (adjusted p "
			       "0.013), utf8 (adjusted p 0.017)\n"));
	/* No gate asked for: nothing said about one. */
	buf_reset(&out);
	opts.fail_on = REPORT_FAIL_NEVER;
	assert_int_equal(report_render(&s, NULL, &opts, &out, &res, &err), 0);
	assert_null(strstr(buf_cstr(&out), "Holm"));
	/* A bundle judged by the overlap rule has no p: it gates as before, unadjusted. */
	buf_reset(&out);
	opts.fail_on = REPORT_FAIL_SLOWER;
	report_source_side(&sl, MANIFEST_SIDE_CANDIDATE, &s);
	assert_int_equal(report_render(&s, NULL, &opts, &out, &res, &err), 0);
	assert_string_equal(res.message, "1 benchmark slower (--fail-on slower): sort1m");
	assert_null(strstr(buf_cstr(&out), "Holm"));
	buf_release(&out);
	report_source_release(&g);
	report_source_release(&sl);
}

PLUMB_TEST(reports_glossary_says_every_verdict_in_the_table_words)
{
	size_t n, found = 0;
	const struct phrase_term *t = phrase_glossary(&n);

	for (int v = VERDICT_UNSET + 1; v < VERDICT_COUNT; v++)
		for (size_t i = 0; i < n; i++)
			if (strcmp(t[i].term, verdict_table[v].name) == 0) {
				assert_true(t[i].text == verdict_table[v].words ||
					    strcmp(t[i].text, verdict_table[v].words) == 0);
				found++;
			}
	assert_int_equal(found, VERDICT_COUNT - 1);
}

/* The width of the first <rect class="range old" ...> of an SVG. */
static double range_width(const char *svg)
{
	const char *p = strstr(svg, "<rect class=\"range old\"");
	const char *w = p ? strstr(p, "width=\"") : NULL;

	return w ? strtod(w + 7, NULL) : -1;
}

PLUMB_TEST(reports_chart_axis_spans_at_least_the_noise_and_says_where_it_starts)
{
	double po[] = { 100.000000e6, 100.000003e6, 100.000005e6 };
	double pn[] = { 100.000001e6, 100.000002e6, 100.000004e6 };
	struct manifest_side_stats o, n;
	struct report_bench b;
	struct report r;
	struct buf t;

	side_of(&o, po, 3);
	side_of(&n, pn, 3);
	bench_of(&b, &o, &n, VERDICT_PLACEMENT);
	memset(&r, 0, sizeof(r));
	r.kind = REPORT_SELF;
	r.old_role = "base";
	r.new_role = "candidate";
	buf_init(&t, 1 << 20);
	/* Without a noise figure a 5 ns range fills the plot ... */
	assert_int_equal(svg_bench(&t, &r, &b, 0), 0);
	assert_true(range_width(buf_cstr(&t)) > 200);
	assert_non_null(strstr(buf_cstr(&t), "not zero</text>"));
	buf_reset(&t);
	/* ... with the run's 2.8% noise it is a sliver of an axis that shows the noise. */
	b.noise = 0.028;
	assert_int_equal(svg_bench(&t, &r, &b, 0), 0);
	assert_true(range_width(buf_cstr(&t)) < 5);
	assert_non_null(strstr(buf_cstr(&t), "axis starts at "));
	buf_reset(&t);
	/* An axis that reaches zero says nothing of the kind. */
	b.noise = 3;
	assert_int_equal(svg_bench(&t, &r, &b, 0), 0);
	assert_null(strstr(buf_cstr(&t), "not zero"));
	buf_release(&t);
}

PLUMB_TEST(reports_params_split_the_recorded_combination)
{
	struct phrase_params pp;

	assert_int_equal(phrase_params_split("size=1M;level=9", &pp), 0);
	assert_int_equal((int)pp.n, 2);
	assert_string_equal(pp.key[0], "size");
	assert_string_equal(pp.value[0], "1M");
	assert_string_equal(pp.key[1], "level");
	assert_string_equal(pp.value[1], "9");
	assert_int_equal(phrase_params_split("size", &pp), -1);
	assert_int_equal(phrase_params_split("", &pp), -1);
	assert_int_equal(phrase_params_split("a=1;=2", &pp), -1);
}
