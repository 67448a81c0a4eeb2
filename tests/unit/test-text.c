/*
 * tests/unit/test-text.c: common/ text primitives (units, escaping, UTF-8, quoting, paths).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/escape.h"
#include "common/path.h"
#include "common/quote.h"
#include "common/table.h"
#include "common/units.h"
#include "common/utf8.h"
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
	char out[UNITS_EXACT_MAX];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(units_exact(cases[i].v, UNITS_EXACT_PLAIN, out) > 0);
		assert_string_equal(out, cases[i].s);
	}
	assert_int_equal(units_exact(NAN, UNITS_EXACT_PLAIN, out), -1);
	assert_string_equal(out, "null");
	assert_int_equal(units_exact(-INFINITY, UNITS_EXACT_PLAIN, out), -1);
}

/* Every output reads back to the same double. */
PLUMB_TEST(numfmt_round_trips)
{
	unsigned long long x = 88172645463325252ull;
	char out[UNITS_EXACT_MAX];

	for (int i = 0; i < 100000; i++) {
		double v;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&v, &x, sizeof(v));
		if (!isfinite(v))
			continue;
		assert_true(units_exact(v, UNITS_EXACT_PLAIN, out) > 0);
		assert_true(strlen(out) < UNITS_EXACT_MAX);
		if (strtod(out, NULL) != v && !(v == 0))
			fail_msg("%.17g printed as %s", v, out);
	}
}

PLUMB_TEST(units_exact_real_form_is_a_json_real)
{
	char out[UNITS_EXACT_MAX];

	assert_int_equal(units_exact(1500.0, UNITS_EXACT_REAL, out), 6);
	assert_string_equal(out, "1500.0");
	units_exact(-0.0, UNITS_EXACT_REAL, out);
	assert_string_equal(out, "-0.0");
	units_exact(1500.0, UNITS_EXACT_PLAIN, out);
	assert_string_equal(out, "1500");
	units_exact(1e300, UNITS_EXACT_REAL, out);
	assert_string_equal(out, "1e+300");
}

PLUMB_TEST(units_sizes_and_frequencies)
{
	char out[UNITS_MAX];

	units_kib(8LL * 1024 * 1024, out);
	assert_string_equal(out, "8.0 GiB");
	units_kib(259 * 1024 + 5, out);
	assert_string_equal(out, "259 MiB");
	units_kib(12, out);
	assert_string_equal(out, "12 kB");
	units_khz(3400000, out);
	assert_string_equal(out, "3.40 GHz");
	units_khz(800000, out);
	assert_string_equal(out, "800 MHz");
	units_value(10.15e6, UNITS_TIME_NS, 0, out);
	assert_string_equal(out, "10.15 ms");
	units_value(1.5e3, UNITS_TIME_NS, 1, out);
	assert_string_equal(out, "1.500 us");
}

/* One rule per policy, whoever asks. */
PLUMB_TEST(utf8_policies_valid_printable_name)
{
	static const struct { const char *s; int valid, printable, name; } cases[] = {
		{ "plain", 1, 1, 1 },
		{ "caf\xc3\xa9", 1, 1, 1 },
		{ "a\tb", 1, 1, 0 },
		{ "a\nb", 1, 0, 0 },
		{ "bel\007", 1, 0, 0 },
		{ "del\177", 1, 0, 0 },
		{ "c1\xc2\x9b", 1, 0, 0 },          /* U+009B CSI */
		{ "\xe2\x80\xae" "rlo", 1, 1, 1 },  /* a bidi override is a character... */
		{ "caf\xc3", 0, 0, 0 },             /* truncated */
		{ "\xc0\xaf", 0, 0, 0 },            /* overlong */
		{ "\xed\xa0\x80", 0, 0, 0 },        /* surrogate */
		{ "\xf4\x90\x80\x80", 0, 0, 0 },    /* past U+10FFFF */
		{ "\xff", 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].s);
		assert_int_equal(utf8_ok(cases[i].s, n, UTF8_VALID), cases[i].valid);
		assert_int_equal(utf8_ok(cases[i].s, n, UTF8_PRINTABLE), cases[i].printable);
		assert_int_equal(utf8_ok(cases[i].s, n, UTF8_NAME), cases[i].name);
	}
	assert_int_equal(utf8_check("a\007", 2, UTF8_NAME), UTF8_CONTROL);
	assert_int_equal(utf8_check("a\xff", 2, UTF8_NAME), UTF8_MALFORMED);
	/* ... that no view shows as it is. */
	assert_false(utf8_displayable(0x202E));
	assert_false(utf8_displayable(0x9B));
	assert_false(utf8_displayable(-1));
	assert_true(utf8_displayable(0xE9));
}

PLUMB_TEST(escape_to_a_stream_pads_by_columns)
{
	char *data = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&data, &len);

	assert_non_null(f);
	assert_int_equal(esc_fputs(f, "\033[31mr\xc3\xa9" "d\007", 10), 0);
	assert_int_equal(esc_fputs(f, NULL, 0), 0);
	assert_int_equal(esc_fputs(f, "\xe2\x80\xae|", 0), 0);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(data, "?[31mr\xc3\xa9" "d? ?|");
	free(data);
}

/* Columns as a terminal draws them: wide characters two, combining marks none. */
PLUMB_TEST(utf8_width_counts_terminal_columns)
{
	assert_int_equal(utf8_width("\xc2\xb5s \xe2\x86\x92 ok"), 7);        /* µs → ok */
	assert_int_equal(utf8_width("\xe5\x9f\xba\xe5\x87\x86"), 4);          /* 基准 */
	assert_int_equal(utf8_width("\xef\xbc\xa1"), 2);                      /* fullwidth A */
	assert_int_equal(utf8_width("\xf0\x9f\x99\x82"), 2);                  /* U+1F642 */
	assert_int_equal(utf8_width("e\xcc\x81"), 1);                         /* e, combining acute */
	/* What the escaper replaces by one '?' counts one: a malformed byte,
	 * a control, a bidi override. */
	assert_int_equal(utf8_width("\x80\033\xe2\x80\xae"), 3);
	assert_int_equal(utf8_width(NULL), 0);
}

/* Columns fit their widest cell in terminal columns; nothing is cut, every cell escaped. */
PLUMB_TEST(table_aligns_by_columns_and_cuts_nothing)
{
	char longcell[301];
	struct table t;
	struct buf b, want;

	memset(longcell, 'a', 300);
	longcell[300] = '\0';
	table_init(&t, 3, "lrl");
	t.indent = 2;
	table_row(&t, "name", "n", "note");
	table_row(&t, "\xe5\x9f\xba\xe5\x87\x86", "12", "wide");
	table_row(&t, "e\xcc\x81", "3", "");         /* an empty last cell is not written */
	table_cell(&t, "\033[31mx");
	table_cellf(&t, "%d", 100000);
	table_cell(&t, longcell);
	table_end_row(&t, NULL);
	buf_init(&b, 4096);
	buf_init(&want, 4096);
	assert_int_equal(table_render(&t, &b), 0);
	assert_int_equal(buf_printf(&want,
		"  name         n  note\n"
		"  \xe5\x9f\xba\xe5\x87\x86        12  wide\n"
		"  e\xcc\x81            3\n"
		"  ?[31mx  100000  %s\n", longcell), 0);
	assert_string_equal(buf_cstr(&b), buf_cstr(&want));
	table_release(&t);
	buf_release(&b);
	buf_release(&want);
}

/* Least widths, a coloured last cell, and a row of the wrong length failing the table. */
PLUMB_TEST(table_least_widths_colour_and_failure)
{
	static const size_t min[] = { 6, 0 };
	struct table t;
	struct buf b;

	table_init(&t, 2, NULL);
	t.min = min;
	table_row(&t, "a", "b");
	table_cell(&t, NULL);
	table_cell(&t, "slower");
	table_end_row(&t, "\033[31m");
	buf_init(&b, 1024);
	assert_int_equal(table_render(&t, &b), 0);
	assert_string_equal(buf_cstr(&b), "a       b\n        \033[31mslower\033[0m\n");
	table_cell(&t, "one cell of two");
	table_end_row(&t, NULL);
	buf_reset(&b);
	assert_int_equal(table_render(&t, &b), -1);
	assert_int_equal(b.len, 0);
	table_release(&t);
	buf_release(&b);
}

PLUMB_TEST(quote_bytes_and_text)
{
	char q[64];

	assert_string_equal(quote(q, sizeof(q), "a\033[2Jb", 6, 80, QUOTE_BYTES), "a\\x1b[2Jb");
	assert_string_equal(quote(q, sizeof(q), "it's\\", 5, 80, QUOTE_BYTES), "it\\x27s\\x5c");
	assert_string_equal(quote(q, sizeof(q), "caf\xc3\xa9", 5, 80, QUOTE_BYTES), "caf\\xc3\\xa9");
	assert_string_equal(quote(q, sizeof(q), "abcdef", 6, 3, QUOTE_BYTES), "abc...");
	assert_string_equal(quote(q, sizeof(q), "caf\xc3\xa9\n\t\\", 8, 80, QUOTE_TEXT),
			    "caf\xc3\xa9\\n\\t\\");
	assert_string_equal(quote(q, sizeof(q), "x\xe2\x80\xae\xc2\x9b\xff", 7, 80, QUOTE_TEXT),
			    "x\\xe2\\x80\\xae\\xc2\\x9b\\xff");
	assert_string_equal(quote(q, 16, "0123456789abcdef", 16, 80, QUOTE_BYTES), "0123456789ab...");
	assert_string_equal(quote(q, sizeof(q), NULL, 3, 80, QUOTE_TEXT), "");
}

PLUMB_TEST(path_dirname_and_join)
{
	static const char *const cases[][2] = {
		{ "a/b", "a" }, { "/b", "/" }, { "b", "." }, { "a/b/c.plumb", "a/b" }, { "./x", "." },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = path_dirname(cases[i][0]);
		assert_non_null(d);
		assert_string_equal(d, cases[i][1]);
		free(d);
	}
	{
		char *a = path_join("dir", "x"), *b = path_join("dir//", "x"), *c = path_join("/", "x");
		assert_string_equal(a, "dir/x");
		assert_string_equal(b, "dir/x");
		assert_string_equal(c, "/x");
		free(a);
		free(b);
		free(c);
	}
}

PLUMB_TEST(escape_lines_keeps_the_newlines_only)
{
	struct buf b;

	buf_init(&b, 1024);
	assert_int_equal(esc_text_lines(&b, "a\033[2J\nb\tc\r\n\n\xe2\x80\xae" "d"), 0);
	assert_string_equal(buf_cstr(&b), "a?[2J\nb?c?\n\n?d");
	buf_release(&b);
}

PLUMB_TEST(units_fixed_short_forms)
{
	char out[UNITS_MAX];

	units_fixed(9999, UNITS_COUNT, out);
	assert_string_equal(out, "9999");
	units_fixed(12345, UNITS_COUNT, out);
	assert_string_equal(out, "12.3 k");
	units_fixed(999, UNITS_TIME_NS, out);
	assert_string_equal(out, "999 ns");
	units_fixed(1.5e6, UNITS_TIME_NS, out);
	assert_string_equal(out, "1.50 ms");
	units_fixed(NAN, UNITS_TIME_NS, out);
	assert_string_equal(out, "-");
}
