/*
 * tests/unit/test-jsonpull.c: formats/jsonpull (the chunked JSON
 * tokenizer plumb import reads with): every token kind, numbers at their
 * edges, strings and their UTF-8 rules, the limits, bad input named by
 * path, line and column, input cut anywhere between chunks, and the tree
 * builder with its hook and budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/err.h"
#include "formats/jsonpull.h"
#include "common/banned.h"

/* The text to read, handed out at most step bytes at a time. */
struct text {
	const char *s;
	size_t len, off, step;
};

static int text_read(void *ctx, char *buf, size_t cap, size_t *got, struct plumb_err *err)
{
	struct text *t = ctx;
	size_t n = t->len - t->off;

	(void)err;
	if (n > cap)
		n = cap;
	if (n > t->step)
		n = t->step;
	memcpy(buf, t->s + t->off, n);
	t->off += n;
	*got = n;
	return 0;
}

static struct jsonpull *start(struct text *t, const char *s, size_t step, struct plumb_err *err)
{
	struct jsonpull *p = malloc(sizeof(*p));

	assert_non_null(p);
	t->s = s;
	t->len = strlen(s);
	t->off = 0;
	t->step = step;
	plumb_err_clear(err);
	jsonpull_init(p, text_read, t, 8, 64, 100, "of the test", err);
	return p;
}

static void finish(struct jsonpull *p)
{
	jsonpull_release(p);
	free(p);
}

/* Every token of s, one letter each: { } [ ] k s i r t f n, then '.' at the end;
 * or "!" and the error in err. */
static void tokens(const char *s, size_t step, char *out, size_t cap, struct plumb_err *err)
{
	static const char letter[] = ".{}[]ksirtfn";
	struct text t;
	struct jsonpull *p = start(&t, s, step, err);
	size_t n = 0;

	for (;;) {
		enum jsonpull_tok tok;
		assert_true(n + 2 < cap);
		if (jsonpull_next(p, &tok) < 0) {
			out[n++] = '!';
			break;
		}
		out[n++] = letter[tok];
		if (tok == JSONPULL_EOF)
			break;
	}
	out[n] = '\0';
	finish(p);
}

PLUMB_TEST(jsonpull_every_token_kind_whatever_the_chunks)
{
	static const char doc[] = " {\"a\": [1, -2.5e3, \"x\", true, false, null, {}, []],\n\t\"b\": {\"c\": 0}} \r\n";
	struct plumb_err err;
	char got[64];

	for (size_t step = 1; step <= sizeof(doc); step++) {
		tokens(doc, step, got, sizeof(got), &err);
		assert_string_equal(got, "{k[irstfn{}[]]k{ki}}.");
	}
}

PLUMB_TEST(jsonpull_values_of_tokens)
{
	static const char doc[] = "[\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\", 9223372036854775807, "
				  "-9223372036854775808, 0.5, -0, 1e308, 5e-324, 1E+2]";
	struct plumb_err err;
	enum jsonpull_tok tok;
	struct text t;
	struct jsonpull *p = start(&t, doc, 7, &err);

	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_ARRAY);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_STRING);
	assert_int_equal(p->str_len, 15);
	assert_memory_equal(p->str, "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80", 15);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_INTEGER);
	assert_true(p->integer == INT64_MAX);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_true(p->integer == INT64_MIN);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_REAL);
	assert_true(p->number == 0.5);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_INTEGER);
	assert_true(p->integer == 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_true(p->number == 1e308);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_true(p->number == 5e-324);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_true(p->number == 100);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_ARRAY_END);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_EOF);
	finish(p);
}

/* s is refused with a message that holds want. */
static void refused(const char *s, const char *want)
{
	struct plumb_err err;
	char got[256];

	tokens(s, 3, got, sizeof(got), &err);
	if (got[strlen(got) - 1] != '!')
		fail_msg("accepted: %s", s);
	assert_int_equal(err.code, PLUMB_EINPUT);
	if (!strstr(err.msg, want))
		fail_msg("%s: '%s' does not hold '%s'", s, err.msg, want);
}

PLUMB_TEST(jsonpull_numbers_at_their_edges)
{
	refused("[9223372036854775808]", "[0]: too big integer (line 1, column 2)");
	refused("[-9223372036854775809]", "too big negative integer");
	refused("[1e309]", "real number overflow");
	refused("[-1e309]", "real number overflow");
	refused("[01]", "expected ',' or ']', found '1'");
	refused("[1.]", "a digit must follow '.'");
	refused("[.5]", "expected a value, found '.'");
	refused("[-]", "a digit must follow '-'");
	refused("[1e]", "a digit must follow the exponent");
	refused("[+1]", "expected a value, found '+'");
	refused("[NaN]", "expected a value, found 'N'");
	refused("[Infinity]", "expected a value, found 'I'");
	refused("[0x10]", "expected ',' or ']', found 'x'");
}

PLUMB_TEST(jsonpull_strings_are_utf8_checked)
{
	refused("[\"\\u0000\"]", "\\u0000 in a string");
	refused("[\"\\ud800\"]", "invalid Unicode '\\uD800'");
	refused("[\"\\udc00\"]", "a lone low surrogate");
	refused("[\"\\ud800\\u0041\"]", "invalid Unicode '\\uD800\\u0041'");
	refused("[\"\\x\"]", "invalid escape");
	refused("[\"\\u12g4\"]", "invalid \\u escape");
	refused("[\"a\tb\"]", "control character 0x09 in a string");
	refused("[\"\xc0\x80\"]", "invalid UTF-8");           /* overlong */
	refused("[\"\xed\xa0\x80\"]", "invalid UTF-8");       /* a surrogate */
	refused("[\"\xf4\x90\x80\x80\"]", "invalid UTF-8");   /* past U+10FFFF */
	refused("[\"\xe9\"]", "invalid UTF-8");               /* Latin-1 */
	refused("[\"abc", "a string that does not end");
	refused("[\"" "0123456789012345678901234567890123456789012345678901234567890123456789" "\"]",
		"a string longer than 64 bytes (the limit of the test)");
}

PLUMB_TEST(jsonpull_bad_input_names_path_line_and_column)
{
	refused("{\"a\": {\"b\": [1,\n 2,,\n 3]}}", "a.b[2]: expected a value, found ',' (line 2, column 4)");
	refused("{\"a\": 1,\n  }", "(root): expected a member name (a string), found '}' (line 2, column 3)");
	refused("{\"a\" 1}", "a: expected ':' after a member name, found '1' (line 1, column 6)");
	refused("{1: 2}", "expected a member name (a string) or '}', found '1'");
	refused("[1 2]", "[0]: expected ',' or ']', found '2' (line 1, column 4)");
	refused("{\"a\": [1}", "expected ',' or ']', found '}'");
	refused("[tru]", "invalid token: ']' where 'true' was going");
	refused("{} x", "(root): end of file expected, found 'x' (line 1, column 4)");
	refused("", "expected a value, found the end of the text (line 1, column 1)");
	refused("[1,", "expected a value, found the end of the text");
	refused("[[[[[[[[[1]]]]]]]]]", "nested deeper than 8 levels");
	refused("[" "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
		"0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]",
		"more than 100 JSON values (the limit of the test)");
}

PLUMB_TEST(jsonpull_skip_and_path_patterns)
{
	struct plumb_err err;
	enum jsonpull_tok tok;
	struct text t;
	struct jsonpull *p = start(&t, "{\"r\": [{\"t\": [1, 2]}, {\"t\": [3]}], \"z\": 1}", 5, &err);

	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_KEY);
	assert_true(jsonpull_at(p, "r"));
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_ARRAY);
	assert_true(jsonpull_at(p, "r[*].t"));
	assert_false(jsonpull_at(p, "r[*]"));
	assert_false(jsonpull_at(p, "r.t"));
	assert_int_equal(jsonpull_skip(p, tok), 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_OBJECT_END);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_OBJECT);
	assert_int_equal(jsonpull_skip(p, tok), 0);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(tok, JSONPULL_ARRAY_END);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_string_equal(p->str, "z");
	finish(p);
}

/* The hook: arrays at "a[*]" become the string "packed", "s" is left out. */
static int hook(void *ctx, struct jsonpull *p, enum jsonpull_tok tok, json_t **out)
{
	int rc;

	(void)ctx;
	if (tok == JSONPULL_ARRAY && jsonpull_at(p, "a[*]")) {
		if ((rc = jsonpull_skip(p, tok)) < 0)
			return rc;
		*out = json_string("packed");
		return 1;
	}
	if (jsonpull_at(p, "s")) {
		*out = NULL;
		return (rc = jsonpull_skip(p, tok)) < 0 ? rc : 1;
	}
	return 0;
}

PLUMB_TEST(jsonpull_tree_with_hook_budget_and_duplicates)
{
	struct jsonpull_budget b = { 0, 4096, hook, NULL };
	struct plumb_err err;
	enum jsonpull_tok tok;
	struct text t;
	struct jsonpull *p = start(&t, "{\"a\": [[1, 2], 3, \"x\"], \"s\": {\"q\": 1}, \"n\": null}", 4, &err);
	json_t *v;
	char *dump;

	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_tree(p, tok, &b, &v), 0);
	dump = json_dumps(v, JSON_COMPACT);
	assert_string_equal(dump, "{\"a\":[\"packed\",3,\"x\"],\"n\":null}");
	free(dump);
	json_decref(v);
	assert_true(b.cost > 344);
	finish(p);

	p = start(&t, "{\"a\": 1, \"b\": 2, \"a\": 3}", 64, &err);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_tree(p, tok, &b, &v), PLUMB_EINPUT);
	assert_string_equal(err.msg, "a: duplicate object key (line 1, column 18)");
	finish(p);

	b.cost = 0;
	b.max = 1000;
	p = start(&t, "[{}, {}, {}, {}]", 64, &err);
	assert_int_equal(jsonpull_next(p, &tok), 0);
	assert_int_equal(jsonpull_tree(p, tok, &b, &v), PLUMB_EINPUT);
	assert_string_equal(err.msg, "[2]: more than 1000 bytes of JSON held outside the sample "
			    "arrays (the limit of the test)");
	finish(p);
}
