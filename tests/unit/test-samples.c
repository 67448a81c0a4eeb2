/*
 * tests/unit/test-samples.c: formats/samples (the samples.tsv reader and
 * writer): round trips, pieces of any size, exact numbers, and one test
 * per class of bad input with its message.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/samples.h"
#include "common/banned.h"

#define H SAMPLES_HEADER "\n"

/* Collects rows as text "bench|side|pad|round|iter|metric|value|line". */
struct collect {
	struct buf out;
	int fail_at;   /* make the callback fail at this row (1-based), 0: never */
	int seen;
};

static int collect_row(void *ctx, const struct samples_row *row, struct plumb_err *err)
{
	struct collect *c = ctx;
	char v[40];

	c->seen++;
	if (c->fail_at && c->seen == c->fail_at)
		return plumb_err_set(err, PLUMB_EINPUT, "column 'iter': rejected by caller");
	assert_int_equal(strlen(row->bench), row->bench_len);
	assert_int_equal(strlen(row->metric), row->metric_len);
	assert_true(samples_format_value(row->value, v, sizeof(v)) > 0);
	if (row->iter == SAMPLES_ITER_NONE)
		buf_printf(&c->out, "%s|%s|%u|%u|-|%s|%s|%llu\n", row->bench,
			   samples_side_name(row->side), row->pad, row->round, row->metric, v,
			   (unsigned long long)row->line);
	else
		buf_printf(&c->out, "%s|%s|%u|%u|%llu|%s|%s|%llu\n", row->bench,
			   samples_side_name(row->side), row->pad, row->round,
			   (unsigned long long)row->iter, row->metric, v,
			   (unsigned long long)row->line);
	return 0;
}

/* Read text in pieces of `step` bytes (0: at once); returns the code. */
static int read_text(const char *text, size_t step, const struct samples_limits *lim,
		     struct collect *c, struct plumb_err *err)
{
	struct samples_reader r;
	size_t len = strlen(text), off = 0;
	int rc;

	plumb_err_clear(err);
	buf_init(&c->out, 1 << 20);
	c->seen = 0;
	rc = samples_reader_init(&r, "s.tsv", lim, err);
	assert_int_equal(rc, 0);
	if (step == 0)
		step = len ? len : 1;
	while (rc == 0 && off < len) {
		size_t n = len - off < step ? len - off : step;
		rc = samples_reader_feed(&r, text + off, n, collect_row, c, err);
		off += n;
	}
	if (rc == 0)
		rc = samples_reader_finish(&r, collect_row, c, err);
	samples_reader_release(&r);
	return rc;
}

/* Expect text to fail with exactly msg; nothing after the bad line is delivered. */
static void expect_bad(const char *text, const struct samples_limits *lim, const char *msg)
{
	struct collect c = { .fail_at = 0 };
	struct plumb_err err;
	int rc = read_text(text, 0, lim, &c, &err);

	if (rc != PLUMB_EINPUT || strcmp(err.msg, msg) != 0)
		fail_msg("input %s\nexpected rc -3 '%s'\n     got rc %d '%s'", text, msg, rc, err.msg);
	buf_release(&c.out);
}

static const char good[] =
	H
	"interp\tbase\t0\t1\t-\twall\t0.734125\n"
	"interp\tcandidate\t3\t10\t-\twall\t42\n"
	"alloc\tcontrol\t0\t2\t0\tns\t1e+300\n"
	"alloc\tcontrol\t0\t2\t1\tns\t0.000001234\n"
	"n\xc3\xa9\tbase\t65535\t999999999\t999999999999999\tcycles\t9007199254740993";

static const char good_rows[] =
	"interp|base|0|1|-|wall|0.734125|2\n"
	"interp|candidate|3|10|-|wall|42|3\n"
	"alloc|control|0|2|0|ns|1e+300|4\n"
	"alloc|control|0|2|1|ns|1.234e-06|5\n"
	"n\xc3\xa9|base|65535|999999999|999999999999999|cycles|9007199254740992|6\n";

PLUMB_TEST(samples_reads_rows_in_pieces_of_any_size)
{
	static const size_t steps[] = { 0, 1, 2, 3, 7, 64 };
	struct plumb_err err;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct collect c = { .fail_at = 0 };
		assert_int_equal(read_text(good, steps[i], NULL, &c, &err), 0);
		assert_string_equal(buf_cstr(&c.out), good_rows);
		buf_release(&c.out);
	}
}

PLUMB_TEST(samples_header_only_is_valid_and_empty_is_not)
{
	struct collect c = { .fail_at = 0 };
	struct plumb_err err;

	assert_int_equal(read_text(H, 0, NULL, &c, &err), 0);
	assert_int_equal(c.seen, 0);
	buf_release(&c.out);
	assert_int_equal(read_text(SAMPLES_HEADER, 1, NULL, &c, &err), 0);
	buf_release(&c.out);
	expect_bad("", NULL, "s.tsv: empty input (no header row)");
}

PLUMB_TEST(samples_format_value_exact_and_shortest)
{
	static const struct { double v; const char *s; } cases[] = {
		{ 0.0, "0" }, { -0.0, "0" }, { 42.0, "42" }, { 0.1, "0.1" },
		{ 0.734125, "0.734125" }, { 1.5e-7, "1.5e-07" }, { 1e300, "1e+300" },
		{ 9007199254740991.0, "9007199254740991" },
		{ 9007199254740992.0, "9007199254740992" },
		{ 56595.0, "56595" }, { 1.003, "1.003" }, { 2.5, "2.5" },
		{ 1.0 / 3.0, "0.3333333333333333" },
	};
	char out[40];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(samples_format_value(cases[i].v, out, sizeof(out)) > 0);
		assert_string_equal(out, cases[i].s);
	}
	assert_int_equal(samples_format_value(-1.0, out, sizeof(out)), -1);
	assert_int_equal(samples_format_value(NAN, out, sizeof(out)), -1);
	assert_int_equal(samples_format_value(INFINITY, out, sizeof(out)), -1);
}

/* The hand-written parser agrees with strtod on every accepted form. */
PLUMB_TEST(samples_value_parser_matches_strtod)
{
	static const char *const digits_cases[] = {
		"0", "00", "7", "0.5", "123456789012345678", "1234567890123456789",
		"12345678901234567890", "0.1", "0.3", "2.675", "1.0000000000000002",
		"9007199254740993", "9007199254740992.5", "4.35", "0.0000000000000000000001",
		"123.456e7", "1E-5", "5e+0", "1e-400", "0.12345678901234567890123",
		"179769313486231570000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000000000"
		"000000000000000000000000000000000000000000000000000000000000000000000000"
		"0000000000000000000000000000000000000000000000000000000000000000",
	};
	unsigned long long x = 12345;
	char text[200], line[300];

	for (size_t i = 0; i < sizeof(digits_cases) / sizeof(digits_cases[0]) + 5000; i++) {
		struct samples_reader r;
		struct plumb_err err;
		struct collect c = { .fail_at = 0 };
		double want;
		char want_s[40];

		if (i < sizeof(digits_cases) / sizeof(digits_cases[0])) {
			snprintf(text, sizeof(text), "%s", digits_cases[i]);
		} else {
			/* Random decimals with up to 20 digits and 0..22 fraction digits. */
			unsigned nd, nf;
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			nd = 1 + (unsigned)((x >> 33) % 20);
			nf = (unsigned)((x >> 13) % 23);
			size_t o = 0;
			for (unsigned k = 0; k < nd; k++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				text[o++] = (char)('0' + (x >> 60) % 10);
				if (k + 1 == nd - nf && nf && k + 1 < nd)
					text[o++] = '.';
			}
			text[o] = '\0';
		}
		want = strtod(text, NULL);
		snprintf(line, sizeof(line), "%s" "b\tbase\t0\t0\t-\tm\t%s\n", H, text);
		plumb_err_clear(&err);
		buf_init(&c.out, 4096);
		assert_int_equal(samples_reader_init(&r, "x", NULL, &err), 0);
		if (!isfinite(want)) {
			assert_int_equal(samples_reader_feed(&r, line, strlen(line), collect_row, &c, &err),
					 PLUMB_EINPUT);
		} else {
			assert_int_equal(samples_reader_feed(&r, line, strlen(line), collect_row, &c, &err), 0);
			samples_format_value(want, want_s, sizeof(want_s));
			/* The row text is "b|base|0|0|-|m|<value>|2". */
			const char *o = buf_cstr(&c.out);
			const char *v = o;
			for (int k = 0; k < 6; k++)
				v = strchr(v, '|') + 1;
			size_t vl = (size_t)(strchr(v, '|') - v);
			if (strlen(want_s) != vl || memcmp(v, want_s, vl) != 0)
				fail_msg("'%s': parsed %.*s, strtod %s", text, (int)vl, v, want_s);
		}
		samples_reader_release(&r);
		buf_release(&c.out);
	}
}

PLUMB_TEST(samples_bad_header)
{
	expect_bad("interp\tbase\t0\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 1: column 1: expected header 'bench', found 'interp' "
		   "(the first line must be the header row)");
	expect_bad("bench\tside\tpads\tround\titer\tmetric\tvalue\n", NULL,
		   "s.tsv: line 1: column 3: expected header 'pad', found 'pads'");
	expect_bad("bench\tside\tpad\tround\titer\tmetric\n", NULL,
		   "s.tsv: line 1: column 7: header 'value' missing (the header row is bench, "
		   "side, pad, round, iter, metric, value separated by tabs)");
	expect_bad("bench\tside\tpad\tround\titer\tmetric\tvalue\textra\n", NULL,
		   "s.tsv: line 1: column 8: unexpected header column 'extra'");
	expect_bad("bench side pad round iter metric value\n", NULL,
		   "s.tsv: line 1: column 1: expected header 'bench', found 'bench side pad round "
		   "iter metric value' (the first line must be the header row)");
	expect_bad("bench side pad round iter metric value and more\n", NULL,
		   "s.tsv: line 1: column 1: expected header 'bench', found 'bench side pad round "
		   "iter metric value a...' (the first line must be the header row)");
	expect_bad("bench\tside\tpad\tround\titer\tmetric\tvalue\r\n", NULL,
		   "s.tsv: line 1: column 7: expected header 'value', found 'value\\x0d'");
}

PLUMB_TEST(samples_bad_column_count)
{
	expect_bad(H "b\tbase\t0\t1\t-\twall\t1\n" "b\tbase\t0\t2\t-\twall\n", NULL,
		   "s.tsv: line 3: column 'value': missing (the row has 6 of 7 tab-separated columns)");
	expect_bad(H "b\tbase\t0\n", NULL,
		   "s.tsv: line 2: column 'round': missing (the row has 3 of 7 tab-separated columns)");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t1\t9\n", NULL,
		   "s.tsv: line 2: column 8: unexpected (a row has 7 tab-separated columns)");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t1\n\nb\tbase\t0\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 3: column 'bench': empty line");
	expect_bad(H "b base 0 1 - wall 1\n", NULL,
		   "s.tsv: line 2: column 'side': missing (the row has 1 of 7 tab-separated columns)");
}

PLUMB_TEST(samples_bad_fields)
{
	expect_bad(H "b\tbse\t0\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'side': unknown side 'bse' (expected base, candidate or control)");
	expect_bad(H "b\tbase\tx\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'pad': not a whole number 'x'");
	expect_bad(H "b\tbase\t65536\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'pad': out of range '65536' (0 to 65535)");
	expect_bad(H "b\tbase\t-1\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'pad': not a whole number '-1'");
	expect_bad(H "b\tbase\t0\t+1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'round': not a whole number '+1'");
	expect_bad(H "b\tbase\t0\t1\t--\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'iter': not '-' or a whole number '--'");
	expect_bad(H "b\tbase\t0\t1\t99999999999999999999999\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'iter': out of range '99999999999999999999999' "
		   "(0 to 999999999999999)");
	expect_bad(H "\tbase\t0\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'bench': name '' empty");
	expect_bad(H "a\x01" "b\tbase\t0\t1\t-\twall\t1\n", NULL,
		   "s.tsv: line 2: column 'bench': name 'a\\x01b' contains a control character");
	expect_bad(H "b\tbase\t0\t1\t-\twa\xffll\t1\n", NULL,
		   "s.tsv: line 2: column 'metric': name 'wa\\xffll' is not valid UTF-8");
	expect_bad(H "b\tbase\t0\t1\t-\t\xc3\t1\n", NULL,
		   "s.tsv: line 2: column 'metric': name '\\xc3' is not valid UTF-8");
	expect_bad(H "b\tbase\t0\t1\t-\t\xed\xa0\x80\t1\n", NULL,
		   "s.tsv: line 2: column 'metric': name '\\xed\\xa0\\x80' is not valid UTF-8");
	expect_bad(H "b\tbase\t0\t1\t-\t"
		   "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm\t1\n", NULL,
		   "s.tsv: line 2: column 'metric': name 'mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm...' "
		   "too long (at most 64 bytes)");
}

PLUMB_TEST(samples_bad_values)
{
	expect_bad(H "b\tbase\t0\t1\t-\twall\tfast\n", NULL,
		   "s.tsv: line 2: column 'value': not a number 'fast'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t\n", NULL,
		   "s.tsv: line 2: column 'value': empty ''");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t-0.5\n", NULL,
		   "s.tsv: line 2: column 'value': negative value '-0.5'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\tNaN\n", NULL,
		   "s.tsv: line 2: column 'value': not a finite number 'NaN'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t-inf\n", NULL,
		   "s.tsv: line 2: column 'value': not a finite number '-inf'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\tInfinity\n", NULL,
		   "s.tsv: line 2: column 'value': not a finite number 'Infinity'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t1e999\n", NULL,
		   "s.tsv: line 2: column 'value': not a finite number (out of range) '1e999'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t0x10\n", NULL,
		   "s.tsv: line 2: column 'value': not a number '0x10'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t 1\n", NULL,
		   "s.tsv: line 2: column 'value': not a number ' 1'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t1.\n", NULL,
		   "s.tsv: line 2: column 'value': not a number '1.'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t.5\n", NULL,
		   "s.tsv: line 2: column 'value': not a number '.5'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t+1\n", NULL,
		   "s.tsv: line 2: column 'value': not a number '+1'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t1e\n", NULL,
		   "s.tsv: line 2: column 'value': not a number '1e'");
	expect_bad(H "b\tbase\t0\t1\t-\twall\t42\r\n", NULL,
		   "s.tsv: line 2: column 'value': not a number '42\\x0d'");
}

PLUMB_TEST(samples_limits_line_and_rows)
{
	struct samples_limits lim = { .max_line = 40, .max_rows = 2 };
	char text[400];

	/* 41 bytes on line 3: the limit counts bytes without the newline. */
	snprintf(text, sizeof(text), "%s", "bench\tside\tpad\tround\titer\tmetric\tvalue\n"
		 "b\tbase\t0\t1\t-\twall\t1\n"
		 "bbbbbbbbbbbbbbbbbbbbbbb\tbase\t0\t1\t-\twall\t1\n");
	expect_bad(text, &lim, "s.tsv: line 3: column 41: line longer than 40 bytes (the limit)");
	/* Exactly 40 bytes is fine. */
	{
		struct collect c = { .fail_at = 0 };
		struct plumb_err err;
		assert_int_equal(read_text("bench\tside\tpad\tround\titer\tmetric\tvalue\n"
					   "bbbbbbbbbbbbbbbbbbbbbb\tbase\t0\t1\t-\twall\t1\n",
					   3, &lim, &c, &err), 0);
		assert_int_equal(c.seen, 1);
		buf_release(&c.out);
	}
	/* An over-long last line without a newline, fed in pieces. */
	{
		struct collect c = { .fail_at = 0 };
		struct plumb_err err;
		assert_int_equal(read_text("bench\tside\tpad\tround\titer\tmetric\tvalue\n"
					   "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
					   5, &lim, &c, &err), PLUMB_EINPUT);
		assert_string_equal(err.msg, "s.tsv: line 2: column 41: line longer than 40 bytes (the limit)");
		buf_release(&c.out);
	}
	expect_bad(H "b\tbase\t0\t1\t-\tw\t1\nb\tbase\t0\t2\t-\tw\t1\nb\tbase\t0\t3\t-\tw\t1\n",
		   &lim, "s.tsv: line 4: more than 2 rows (the limit)");
}

PLUMB_TEST(samples_callback_error_is_prefixed_and_stops)
{
	struct collect c = { .fail_at = 2 };
	struct plumb_err err;
	const char *text = H "b\tbase\t0\t1\t0\tw\t1\nb\tbase\t0\t1\t1\tw\t1\nb\tbase\t0\t1\t2\tw\t1\n";

	assert_int_equal(read_text(text, 0, NULL, &c, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "s.tsv: line 3: column 'iter': rejected by caller");
	assert_int_equal(c.seen, 2);
	buf_release(&c.out);
}

static int buf_write(void *ctx, const void *data, size_t len, struct plumb_err *err)
{
	if (buf_add(ctx, data, len) < 0)
		return buf_err(err, "samples");
	return 0;
}

PLUMB_TEST(samples_writer_round_trip)
{
	struct samples_writer w;
	struct plumb_err err;
	struct buf out;
	struct collect c = { .fail_at = 0 };
	struct samples_row row = {
		.bench = "interp", .bench_len = 6, .side = SAMPLES_CANDIDATE, .pad = 3,
		.round = 7, .iter = SAMPLES_ITER_NONE, .metric = "wall", .metric_len = 4,
	};
	const double values[] = { 0.734125, 42, 1e300, 1.234e-6, 0.1 + 0.2 };

	plumb_err_clear(&err);
	buf_init(&out, 1 << 20);
	samples_writer_init(&w, buf_write, &out);
	assert_int_equal(samples_writer_finish(&w, &err), 0);
	assert_string_equal(buf_cstr(&out), H);

	buf_reset(&out);
	samples_writer_init(&w, buf_write, &out);
	/* Enough rows to pass the internal buffer several times. */
	for (unsigned i = 0; i < 2000; i++) {
		row.iter = i % 5 == 0 ? SAMPLES_ITER_NONE : i;
		row.side = (enum samples_side)(i % 3);
		row.value = values[i % 5];
		assert_int_equal(samples_writer_row(&w, &row, &err), 0);
	}
	assert_int_equal(samples_writer_finish(&w, &err), 0);
	assert_int_equal(read_text(buf_cstr(&out), 0, NULL, &c, &err), 0);
	assert_int_equal(c.seen, 2000);
	assert_non_null(strstr(buf_cstr(&out), H "interp\tbase\t3\t7\t-\twall\t0.734125\n"
			       "interp\tcandidate\t3\t7\t1\twall\t42\n"
			       "interp\tcontrol\t3\t7\t2\twall\t1e+300\n"
			       "interp\tbase\t3\t7\t3\twall\t1.234e-06\n"
			       "interp\tcandidate\t3\t7\t4\twall\t0.30000000000000004\n"));
	buf_release(&c.out);

	/* Rows the reader would reject are refused, naming the column. */
	row.value = -1;
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "column 'value'"));
	row.value = 1;
	row.bench = "a\tb";
	row.bench_len = 3;
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "samples.tsv: row 2001: column 'bench': name 'a\\x09b' "
			    "contains a control character");
	buf_release(&out);
}

/*
 * Every row's names are judged by their bytes: a name changed in place at
 * the same address, and a bad name after many good ones, are refused.
 */
PLUMB_TEST(samples_writer_names_checked_by_content)
{
	struct samples_writer w;
	struct plumb_err err;
	struct buf out;
	char bench[8] = "b", metric[16] = "wall";
	struct samples_row row = {
		.bench = bench, .bench_len = 1, .side = SAMPLES_BASE, .pad = 0,
		.round = 1, .iter = SAMPLES_ITER_NONE, .metric = metric, .metric_len = 4,
		.value = 1,
	};

	plumb_err_clear(&err);
	buf_init(&out, 1 << 20);
	samples_writer_init(&w, buf_write, &out);
	assert_int_equal(samples_writer_row(&w, &row, &err), 0);
	assert_int_equal(samples_writer_row(&w, &row, &err), 0);

	/* The same address and length, other bytes. */
	metric[2] = '\x01';
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "samples.tsv: row 3: column 'metric': name 'wa\\x01l' "
			    "contains a control character");
	metric[2] = 'l';
	bench[0] = '\t';
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "samples.tsv: row 3: column 'bench': name '\\x09' "
			    "contains a control character");
	bench[0] = '\xff';
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "samples.tsv: row 3: column 'bench': name '\\xff' "
			    "is not valid UTF-8");
	bench[0] = 'b';
	row.bench_len = 0;
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "samples.tsv: row 3: column 'bench': name '' empty");
	row.bench_len = 1;

	/* Many valid metric names, then bad ones. */
	for (int i = 0; i < 24; i++) {
		snprintf(metric, sizeof(metric), "m%d", i);
		row.metric_len = strlen(metric);
		assert_int_equal(samples_writer_row(&w, &row, &err), 0);
	}
	for (int i = 0; i < 24; i++) {
		snprintf(metric, sizeof(metric), "m%d", i);
		metric[0] = '\x7f';
		row.metric_len = strlen(metric);
		assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
		assert_non_null(strstr(err.msg, "column 'metric': name '\\x7f"));
		assert_non_null(strstr(err.msg, "contains a control character"));
	}
	metric[0] = 'm';
	row.metric_len = 0;
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "samples.tsv: row 27: column 'metric': name '' empty");
	row.metric_len = SAMPLES_METRIC_MAX + 1;
	row.metric = "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm";
	assert_int_equal(samples_writer_row(&w, &row, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "column 'metric': name 'mmmm"));
	assert_non_null(strstr(err.msg, "too long"));
	assert_int_equal(samples_writer_finish(&w, &err), 0);
	assert_int_equal(w.rows, 26);
	buf_release(&out);
}

PLUMB_TEST(samples_read_path_file_and_missing)
{
	char path[] = "/tmp/plumb-samples-XXXXXX";
	int fd = mkstemp(path);
	struct collect c = { .fail_at = 0 };
	struct plumb_err err;
	uint64_t rows = 0;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, good, strlen(good)), (ssize_t)strlen(good));
	close(fd);
	plumb_err_clear(&err);
	buf_init(&c.out, 1 << 20);
	assert_int_equal(samples_read_path(path, NULL, collect_row, &c, &rows, &err), 0);
	assert_int_equal(rows, 5);
	assert_string_equal(buf_cstr(&c.out), good_rows);
	buf_release(&c.out);
	unlink(path);
	assert_int_equal(samples_read_path(path, NULL, collect_row, &c, &rows, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, path));
	assert_int_equal(samples_read_path("/tmp", NULL, collect_row, &c, &rows, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "/tmp: is a folder, not a file");
}
