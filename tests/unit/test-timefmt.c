/*
 * tests/unit/test-timefmt.c: common/timefmt (RFC 3339 out, ISO 8601 in, UTC).
 */
#include <stdint.h>

#include "tests/unit/unit.h"
#include "common/timefmt.h"
#include "common/banned.h"

PLUMB_TEST(timefmt_parse_and_format)
{
	char out[TIMEFMT_LEN];
	int64_t t;

	assert_int_equal(timefmt_parse("1970-01-01", &t), 0);
	assert_int_equal(t, 0);
	assert_int_equal(timefmt_parse("2026-03-01T02:00:00Z", &t), 0);
	assert_int_equal(t, 1772330400);
	timefmt_format(t, out);
	assert_string_equal(out, "2026-03-01T02:00:00Z");
	assert_int_equal(timefmt_parse("2026-03-01T03:00:00+01:00", &t), 0);
	assert_int_equal(t, 1772330400);
	assert_int_equal(timefmt_parse("2026-03-01T02:00:00.123456Z", &t), 0);
	assert_int_equal(t, 1772330400);
	assert_int_equal(timefmt_parse("2026-03-01 02:00", &t), 0);
	assert_int_equal(t, 1772330400);
	assert_int_equal(timefmt_parse("2024-02-29", &t), 0);
	assert_int_equal(timefmt_parse("2023-02-29", &t), -1);
	assert_int_equal(timefmt_parse("2026-13-01", &t), -1);
	assert_int_equal(timefmt_parse("2026-01-01T24:00", &t), -1);
	assert_int_equal(timefmt_parse("2026-01-01x", &t), -1);
	assert_int_equal(timefmt_parse("", &t), -1);
	timefmt_format(-1, out);
	assert_string_equal(out, "1969-12-31T23:59:59Z");
	timefmt_format(951782400, out);   /* 2000-02-29 */
	assert_string_equal(out, "2000-02-29T00:00:00Z");
}
