/*
 * tests/unit/test-views.c: views/ on structs made by hand: the sentences
 * of the runner's events (views/progress.c), and the tables of the build
 * summary and the cache list through common/table.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "runner/build-types.h"
#include "runner/buildcache.h"
#include "runner/event.h"
#include "views/build-summary.h"
#include "views/cache.h"
#include "views/progress.h"
#include "common/banned.h"

/* The sentence of ev as views/progress.c words it. */
static void assert_says(const struct runner_event *ev, const char *want)
{
	struct buf b;

	buf_init(&b, 1 << 16);
	assert_int_equal(view_event_text(ev, &b), 0);
	assert_string_equal(buf_cstr(&b), want);
	buf_release(&b);
}

#define SAYS(want, ...) assert_says(&(const struct runner_event){ __VA_ARGS__ }, (want))

/* The words the tests and the users grep stay; seconds have two decimals everywhere. */
PLUMB_TEST(progress_events_say_the_sentences_with_units)
{
	static const struct runner_event_item und[] = { { "sort", "ranges overlap" }, { "lex", "few rounds" } };
	struct runner_event_item names[8];

	SAYS("b01: built in 0.80 s", .kind = RUNNER_EV_BUILT, .subject = "b01", .seconds = 0.8);
	SAYS("b01: restored from the build cache (0123456789ab; its build took 12.35 s)",
	     .kind = RUNNER_EV_RESTORED, .subject = "b01", .label = "0123456789abcdef", .seconds = 12.345);
	SAYS("candidate: main is (no commit), with uncommitted changes (4 files)",
	     .kind = RUNNER_EV_CHECKED_OUT, .subject = "candidate", .label = "main", .detail = "",
	     .flag = 1, .n = 4);
	SAYS("building 1 variant, up to 2 at a time (build.jobs = auto: the CPUs)",
	     .kind = RUNNER_EV_BUILD_JOBS, .n = 1, .n2 = 2, .flag = 1);
	SAYS("b02: the build left 1 process running; killed", .kind = RUNNER_EV_BUILD_LEFT,
	     .subject = "b02", .n = 1);
	SAYS("warning: the build cache: full", .kind = RUNNER_EV_WARNING, .subject = "the build cache",
	     .text = "full");
	SAYS("valgrind: sort, base/0 (b00), run 2: 1234568 instructions per sample, 1.50 s "
	     "(valgrind so far 3.00 s)", .kind = RUNNER_EV_VG_RUN, .subject = "sort",
	     .label = "base/0 (b00)", .n = 2, .count = 1234567.6, .flag = 1, .seconds = 1.5,
	     .seconds2 = 3);
	SAYS("sweep: 4 pads per side: sort undecided (ranges overlap), lex undecided (few rounds); "
	     "adding pads 4 to 7 to each side, measured in 5 rounds", .kind = RUNNER_EV_SWEEP_EXTEND,
	     .n = 4, .n2 = 8, .n3 = 5, .items = und, .nitems = 2);
	SAYS("sweep: 8 pads per side: lex undecided (few rounds); stopped: one more extension "
	     "(about 90.00 s) would end past run.budget = 600 s", .kind = RUNNER_EV_SWEEP_BUDGET,
	     .n = 8, .seconds = 90, .seconds2 = 600, .items = und + 1, .nitems = 1);
	for (size_t k = 0; k < 8; k++)
		names[k] = (struct runner_event_item){ "BM_x", NULL };
	SAYS("benchmark gb: 9 Google Benchmark benchmarks (BM_x, BM_x, BM_x, BM_x, BM_x, BM_x, BM_x, "
	     "BM_x, ...)", .kind = RUNNER_EV_GBENCH_LIST, .subject = "gb", .n = 9, .items = names,
	     .nitems = 8);
	SAYS("0123456789ab: benchmark sort: crashed; recorded, going on (--keep-going); log: x.log",
	     .kind = RUNNER_EV_BENCH_FAILED, .commit = "0123456789ab", .subject = "sort",
	     .text = "crashed", .label = "x.log");
}

/* A line is escaped whole; a folder left behind is said without the time, even with --quiet. */
PLUMB_TEST(progress_lines_escape_and_stamp)
{
	const struct runner_event built = { .kind = RUNNER_EV_BUILT, .subject = "b\033[31m", .seconds = 1 };
	const struct runner_event left = { .kind = RUNNER_EV_CANNOT_REMOVE, .subject = "/w/b",
					   .text = "busy" };
	struct buf b;

	buf_init(&b, 1 << 16);
	assert_int_equal(view_event_line(&built, 0, &b), 0);
	assert_string_equal(buf_cstr(&b), "plumb: b?[31m: built in 1.00 s\n");
	buf_reset(&b);
	assert_int_equal(view_event_line(&left, 1, &b), 0);
	assert_string_equal(buf_cstr(&b), "plumb: warning: cannot remove /w/b: busy\n");
	buf_reset(&b);
	assert_int_equal(view_event_line(&built, 1, &b), 0);
	assert_true(b.len == strlen("plumb: 12:00:00 b?[31m: built in 1.00 s\n") ||
		    b.len == strlen("plumb:  b?[31m: built in 1.00 s\n"));
	assert_true(view_event_always(&left));
	assert_false(view_event_always(&built));
	buf_release(&b);
}

PLUMB_TEST(units_seconds_and_whole_counts)
{
	char out[UNITS_MAX];

	units_seconds(0.8, out);
	assert_string_equal(out, "0.80 s");
	units_seconds(1234.567, out);
	assert_string_equal(out, "1234.57 s");
	units_seconds(NAN, out);
	assert_string_equal(out, "n/a");
	units_whole(1234567.5, out);
	assert_string_equal(out, "1234568");
	units_whole(NAN, out);
	assert_string_equal(out, "n/a");
}

/* The variants' table of run --build-only: a long symbol name widens its column, nothing shifts. */
PLUMB_TEST(build_summary_table_fits_a_long_symbol)
{
	static char *symbols[] = { "main", "a_hot_function_named_at_length" };
	uint64_t addr0[] = { 0x401000, 0x401200 }, addr1[] = { 0x402000, 0x402200 };
	struct runner_variant v[2];
	struct plumb_config cfg;
	struct runner_result res;
	struct plumb_err err;
	struct buf b;

	memset(&cfg, 0, sizeof(cfg));
	memset(&res, 0, sizeof(res));
	memset(v, 0, sizeof(v));
	cfg.build.artifact = "prog";
	res.side[0].ref = "v1";
	res.side[1].ref = "main";
	res.symbols = symbols;
	res.nsymbols = 2;
	res.variants = v;
	res.nvariants = 2;
	memcpy(v[0].id, "b00", 4);
	memcpy(v[1].id, "c00", 4);
	v[1].side = RUNNER_CANDIDATE;
	v[0].dir = "/w/b00";
	v[1].dir = "/w/c00";
	v[0].build_ns = 800000000;
	v[1].build_ns = 1250000000;
	v[0].size = v[1].size = 16384;
	memset(v[0].sha256, 'a', 64);
	memset(v[1].sha256, 'c', 64);
	v[0].addr = addr0;
	v[1].addr = addr1;
	plumb_err_clear(&err);
	buf_init(&b, 1 << 16);
	assert_int_equal(runner_summary_text(&cfg, &res, &b, &err), 0);
	assert_non_null(strstr(buf_cstr(&b),
		"variant side      pad  bytes     build       size  sha256                 main a_hot_function_named_at_length  folder\n"
		"b00     base        0      0    0.80 s      16384  aaaaaaaaaaaa       0x401000                       0x401200  /w/b00\n"
		"c00     candidate   0      0    1.25 s      16384  cccccccccccc       0x402000                       0x402200  /w/c00\n"));
	buf_release(&b);
}

/* The cache list: the columns of the fixed layout, a build time through units_seconds(). */
PLUMB_TEST(cache_list_table_keeps_its_columns)
{
	struct buildcache bc = { "/c", 0, 0, 0 };
	struct buildcache_meta m;
	struct buf b;

	memset(&m, 0, sizeof(m));
	memset(m.key, 'f', 64);
	snprintf(m.what, sizeof(m.what), "base pad 0 (b00) of tree 1a2b3c4d5e6f");
	m.bytes = 2048;
	m.build_ns = 1500000000;
	m.whole = 1;
	buf_init(&b, 1 << 16);
	assert_int_equal(cacheview_list_text(&bc, &m, 1, &b), 0);
	assert_non_null(strstr(buf_cstr(&b),
		"key           last used             built                       size     build  what\n"
		"ffffffffffff  "));
	assert_non_null(strstr(buf_cstr(&b), "    1.50 s  base pad 0 (b00) of tree 1a2b3c4d5e6f\n"));
	buf_release(&b);
}
