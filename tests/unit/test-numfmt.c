/*
 * tests/unit/test-numfmt.c: common/numfmt (exact, short doubles).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/numfmt.h"
#include "common/banned.h"

PLUMB_TEST(numfmt_integers_exact_others_shortest)
{
	static const struct { double v; const char *s; } cases[] = {
		{ 0.0, "0" }, { -0.0, "0" }, { 42.0, "42" }, { -7.0, "-7" },
		{ 1e15, "1000000000000000" }, { 9007199254740991.0, "9007199254740991" },
		{ 9007199254740992.0, "9007199254740992" }, { 1e300, "1e+300" },
		{ 0.1, "0.1" }, { 0.1 + 0.2, "0.30000000000000004" }, { 1.5e-7, "1.5e-07" },
		{ 0.9775, "0.9775" }, { 1.0 / 3.0, "0.3333333333333333" },
		{ 2.0 / 3.0, "0.6666666666666666" }, { 1e22, "1e+22" },
	};
	char out[NUMFMT_MAX];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(numfmt_double(cases[i].v, out, sizeof(out)) > 0);
		assert_string_equal(out, cases[i].s);
	}
	assert_int_equal(numfmt_double(NAN, out, sizeof(out)), -1);
	assert_string_equal(out, "null");
	assert_int_equal(numfmt_double(-INFINITY, out, sizeof(out)), -1);
}

/* Every output reads back to the same double. */
PLUMB_TEST(numfmt_round_trips)
{
	unsigned long long x = 88172645463325252ull;
	char out[NUMFMT_MAX];

	for (int i = 0; i < 100000; i++) {
		double v;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		if (!isfinite(v))
			continue;
		assert_true(numfmt_double(v, out, sizeof(out)) > 0);
		assert_true(strlen(out) < NUMFMT_MAX);
		if (strtod(out, NULL) != v && !(v == 0))
			fail_msg("%.17g printed as %s", v, out);
	}
}
