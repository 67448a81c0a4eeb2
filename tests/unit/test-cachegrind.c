/*
 * tests/unit/test-cachegrind.c: reading Valgrind's output files
 * (runner/cachegrind.h): cachegrind's and callgrind's layouts, the
 * artifact's processes only, the cost formula, broken files.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/err.h"
#include "runner/cachegrind.h"
#include "common/banned.h"

static const char cg_file[] =
	"desc: I1 cache:         32768 B, 64 B, 8-way associative\n"
	"desc: D1 cache:         32768 B, 64 B, 8-way associative\n"
	"desc: LL cache:         8388608 B, 64 B, 16-way associative\n"
	"cmd: /w/b00/interp 1000\n"
	"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw \n"
	"fl=interp.c\n"
	"fn=run\n"
	"12 100 1 1 30 2 1 10 1 1\n"
	"summary: 1000 10 5 300 20 4 100 6 2\n";

/* The same counts in callgrind's order. */
static const char cl_file[] =
	"# callgrind format\n"
	"version: 1\n"
	"cmd: /w/b00/interp\n"
	"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
	"summary: 1000 300 100 10 20 6 5 4 2\n"
	"totals: 1000 300 100 10 20 6 5 4 2\n";

PLUMB_TEST(cachegrind_reads_both_layouts_alike)
{
	struct cachegrind_counts a, b;
	struct plumb_err err;
	int matched;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	plumb_err_clear(&err);
	assert_int_equal(cachegrind_parse(cg_file, strlen(cg_file), "/w/b00/interp", "f", &a,
					  &matched, &err), 0);
	assert_int_equal(matched, 1);
	assert_int_equal(cachegrind_parse(cl_file, strlen(cl_file), "/w/b00/interp", "f", &b,
					  &matched, &err), 0);
	assert_int_equal(matched, 1);
	assert_true(a.ir == 1000 && a.dr == 300 && a.dw == 100);
	assert_true(a.i1mr == 10 && a.d1mr == 20 && a.d1mw == 6);
	assert_true(a.ilmr == 5 && a.dlmr == 4 && a.dlmw == 2);
	assert_memory_equal(&a, &b, sizeof(a));
}

PLUMB_TEST(cachegrind_values_and_cost_formula)
{
	struct cachegrind_counts c;
	struct plumb_err err;
	int matched;

	memset(&c, 0, sizeof(c));
	plumb_err_clear(&err);
	assert_int_equal(cachegrind_parse(cg_file, strlen(cg_file), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_true(cachegrind_value(METRIC_VG_INSTRUCTIONS, &c) == 1000);
	assert_true(cachegrind_value(METRIC_VG_I1_MISSES, &c) == 10);
	assert_true(cachegrind_value(METRIC_VG_D1_MISSES, &c) == 26);
	assert_true(cachegrind_value(METRIC_VG_LL_MISSES, &c) == 11);
	/* accesses 1400, L1 misses 36, LL misses 11: 1364 + 5 * 25 + 35 * 11 */
	assert_true(cachegrind_value(METRIC_CACHESIM, &c) == 1364 + 125 + 385);
	assert_true(isnan(cachegrind_value(METRIC_WALL, &c)));
}

PLUMB_TEST(cachegrind_counts_only_the_artifact)
{
	static const char shell[] =
		"cmd: /bin/sh -c /w/b00/interp 1000 | head\n"
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"summary: 5 5 5 5 5 5 5 5 5\n";
	static const char longer[] =
		"cmd: /w/b00/interp2 1000\n"
		"events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw\n"
		"summary: 5 5 5 5 5 5 5 5 5\n";
	struct cachegrind_counts c;
	struct plumb_err err;
	int matched;

	memset(&c, 0, sizeof(c));
	plumb_err_clear(&err);
	assert_int_equal(cachegrind_parse(shell, strlen(shell), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_int_equal(matched, 0);
	assert_int_equal(cachegrind_parse(longer, strlen(longer), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_int_equal(matched, 0);
	assert_true(c.ir == 0 && c.procs == 0);
	/* Two runs of the artifact add up. */
	assert_int_equal(cachegrind_parse(cg_file, strlen(cg_file), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_int_equal(cachegrind_parse(cg_file, strlen(cg_file), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_true(c.ir == 2000);
	assert_int_equal(c.procs, 2);
}

PLUMB_TEST(cachegrind_callgrind_leaves_out_trailing_zeros)
{
	static const char some[] =
		"cmd: /w/b00/interp\n"
		"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
		"summary: 4400 600 1800 1 0 0 1\n";
	static const char none[] =
		"cmd: /w/b00/interp\n"
		"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
		"summary: 0\n";
	struct cachegrind_counts c;
	struct plumb_err err;
	int matched;

	memset(&c, 0, sizeof(c));
	plumb_err_clear(&err);
	assert_int_equal(cachegrind_parse(some, strlen(some), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_true(c.ir == 4400 && c.dr == 600 && c.dw == 1800 && c.i1mr == 1 && c.ilmr == 1);
	assert_true(c.d1mr == 0 && c.dlmr == 0 && c.dlmw == 0);
	memset(&c, 0, sizeof(c));
	assert_int_equal(cachegrind_parse(none, strlen(none), "/w/b00/interp", "f", &c,
					  &matched, &err), 0);
	assert_int_equal(matched, 1);
	assert_true(c.ir == 0);
}

PLUMB_TEST(cachegrind_refuses_broken_files)
{
	static const char *const bad[] = {
		"events: Ir\nsummary: 1\n",                                    /* no cmd: */
		"cmd: /a\nsummary: 1 2\n",                                     /* no events: */
		"cmd: /a\nevents: Ir Dr\nsummary: 1 2 3\n",                    /* more values than events */
		"cmd: /a\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: \n",  /* none */
		"cmd: /a\nevents: Ir Dr Dw\nsummary: 1 2 3\n",                 /* no cache events */
		"cmd: /a\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 1 2 3 4 5 6 7 8 -9\n",
		"cmd: /a\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: 1 2 3 4 5 6 7 8 99999999999999999999999\n",
	};
	struct cachegrind_counts c;
	struct plumb_err err;
	int matched;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&c, 0, sizeof(c));
		plumb_err_clear(&err);
		assert_int_equal(cachegrind_parse(bad[i], strlen(bad[i]), "/a", "vg.1", &c, &matched,
						  &err), PLUMB_EBENCH);
		assert_non_null(strstr(err.msg, "vg.1"));
		assert_true(c.ir == 0);
	}
}

PLUMB_TEST(cachegrind_find_names_the_package)
{
	struct cachegrind_tool t;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(cachegrind_find("/nonexistent:/also/not", "bench.x", &t, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "bench.x"));
	assert_non_null(strstr(err.msg, "Debian package valgrind"));
}
