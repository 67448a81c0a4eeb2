/*
 * formats/jsonpull.c: the pull tokenizer of strict JSON and the tree
 * builder on top of it; see jsonpull.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "common/utf8.h"
#include "formats/jsonpull.h"
#include "common/banned.h"

/* What the grammar allows next. */
enum {
	WANT_VALUE,            /* a value (the top level, after ':' or an array's ',') */
	WANT_VALUE_OR_END,     /* just after '[' */
	WANT_KEY,              /* after an object's ',' */
	WANT_KEY_OR_END,       /* just after '{' */
	WANT_COMMA_OR_END,     /* after a member or an element */
	WANT_EOF               /* after the top-level value */
};

void jsonpull_init(struct jsonpull *p, jsonpull_read_fn read, void *ctx, int max_depth,
		   size_t max_string, size_t max_values, const char *whose,
		   struct plumb_err *err)
{
	memset(p, 0, sizeof(*p));
	p->read = read;
	p->ctx = ctx;
	p->err = err;
	p->max_depth = max_depth < 1 ? 1 : max_depth > JSONIO_DEPTH_CAP ? JSONIO_DEPTH_CAP : max_depth;
	p->max_string = max_string;
	p->max_values = max_values;
	p->whose = whose ? whose : "";
	p->pos = p->len = 0;
	p->eof = 0;
	p->line = p->col = 1;
	p->tok_line = p->tok_col = 1;
	p->depth = 0;
	p->want = WANT_VALUE;
	p->values = 0;
	jsonio_path_init(&p->path);
	p->str = NULL;
	p->str_len = p->str_cap = 0;
}

void jsonpull_release(struct jsonpull *p)
{
	free(p->str);
	p->str = NULL;
	p->str_len = p->str_cap = 0;
}

int jsonpull_fail(struct jsonpull *p, const char *fmt, ...)
{
	char what[PLUMB_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return plumb_err_set(p->err, PLUMB_EINPUT, "%s: %s (line %lu, column %lu)",
			     jsonio_path_str(&p->path), what, p->tok_line, p->tok_col);
}

/* The next byte (0 to 255) without taking it, -1 at the end, or -1000 on a read
 * error (its code in read_failed). */
static int peek(struct jsonpull *p)
{
	if (p->pos == p->len) {
		size_t got = 0;
		int rc;
		if (p->eof)
			return -1;
		if ((rc = p->read(p->ctx, p->in, sizeof(p->in), &got, p->err)) < 0) {
			p->read_failed = rc;
			return -1000;
		}
		p->pos = 0;
		p->len = got;
		if (got == 0) {
			p->eof = 1;
			return -1;
		}
	}
	return (unsigned char)p->in[p->pos];
}

static void take(struct jsonpull *p)
{
	if (p->in[p->pos++] == '\n') {
		p->line++;
		p->col = 1;
	} else {
		p->col++;
	}
}

/* A byte for a message: 'x', or 0xNN, or "the end of the text". */
static const char *shown(int c, char out[16])
{
	if (c < 0)
		return "the end of the text";
	if (c > 0x20 && c < 0x7f)
		snprintf(out, 16, "'%c'", c);
	else
		snprintf(out, 16, "byte 0x%02x", (unsigned)c);
	return out;
}

static int str_add(struct jsonpull *p, const char *s, size_t n)
{
	if (p->str_len + n > p->max_string)
		return jsonpull_fail(p, "a string longer than %zu bytes (the limit %s)",
				     p->max_string, p->whose);
	if (p->str_len + n + 1 > p->str_cap) {
		size_t cap = p->str_cap ? p->str_cap : 64;
		char *v;
		while (cap < p->str_len + n + 1)
			cap *= 2;
		if (!(v = realloc(p->str, cap)))
			return plumb_err_oom(p->err, "json");
		p->str = v;
		p->str_cap = cap;
	}
	memcpy(p->str + p->str_len, s, n);
	p->str_len += n;
	p->str[p->str_len] = '\0';
	return 0;
}

/* Four hex digits of a \u escape. */
static int hex4(struct jsonpull *p, unsigned *out)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek(p);
		if (c < -1)
			return p->read_failed;
		if (c >= '0' && c <= '9')
			v = v * 16 + (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (unsigned)(c - 'A' + 10);
		else
			return jsonpull_fail(p, "invalid \\u escape in a string");
		take(p);
	}
	*out = v;
	return 0;
}

/* An escape's code point as UTF-8. */
static int add_code_point(struct jsonpull *p, unsigned cp)
{
	char u[4];
	size_t n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		n = 3;
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		n = 4;
	}
	return str_add(p, u, n);
}

static int escape(struct jsonpull *p)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at;
	unsigned cp, lo;
	int c = peek(p), rc;

	if (c < -1)
		return p->read_failed;
	if (c >= 0 && c != 'u' && (at = strchr(from, c)) && c != 0) {
		take(p);
		return str_add(p, &to[at - from], 1);
	}
	if (c != 'u')
		return jsonpull_fail(p, "invalid escape in a string");
	take(p);
	if ((rc = hex4(p, &cp)) < 0)
		return rc;
	if (cp == 0)
		return jsonpull_fail(p, "\\u0000 in a string (not allowed)");
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return jsonpull_fail(p, "invalid Unicode '\\u%04X' (a lone low surrogate)", cp);
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (peek(p) != '\\')
			return jsonpull_fail(p, "invalid Unicode '\\u%04X' (a high surrogate alone)", cp);
		take(p);
		if (peek(p) != 'u')
			return jsonpull_fail(p, "invalid Unicode '\\u%04X' (a high surrogate alone)", cp);
		take(p);
		if ((rc = hex4(p, &lo)) < 0)
			return rc;
		if (lo < 0xDC00 || lo > 0xDFFF)
			return jsonpull_fail(p, "invalid Unicode '\\u%04X\\u%04X'", cp, lo);
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	return add_code_point(p, cp);
}

/* A string after its opening '"' into str. */
static int string(struct jsonpull *p)
{
	int rc;

	p->str_len = 0;
	if ((rc = str_add(p, "", 0)) < 0)
		return rc;
	for (;;) {
		size_t start = p->pos, n;
		int c;
		/* A run of plain bytes at once. */
		while (p->pos < p->len) {
			unsigned char b = (unsigned char)p->in[p->pos];
			if (b == '"' || b == '\\' || b < 0x20)
				break;
			p->pos++;
			p->col++;
		}
		n = p->pos - start;
		if (n && (rc = str_add(p, p->in + start, n)) < 0)
			return rc;
		c = peek(p);
		if (c < -1)
			return p->read_failed;
		if (c == -1)
			return jsonpull_fail(p, "a string that does not end (premature end of input)");
		if (c == '"') {
			take(p);
			break;
		}
		if (c == '\\') {
			take(p);
			if ((rc = escape(p)) < 0)
				return rc;
			continue;
		}
		if (c < 0x20) {
			p->tok_line = p->line;
			p->tok_col = p->col;
			return jsonpull_fail(p, "control character 0x%02x in a string", (unsigned)c);
		}
	}
	if (utf8_check(p->str, p->str_len, UTF8_VALID) != UTF8_OK)
		return jsonpull_fail(p, "invalid UTF-8 in a string");
	return 0;
}

/* A number's text (RFC 8259's grammar) into integer or number. */
static int number(struct jsonpull *p, enum jsonpull_tok *tok)
{
	char text[JSONPULL_NUMBER_MAX + 1];
	size_t n = 0;
	int c, is_real = 0, digits;
	char *end;

#define NUM_TAKE() do { \
		if (n == JSONPULL_NUMBER_MAX) \
			return jsonpull_fail(p, "a number longer than %d bytes", JSONPULL_NUMBER_MAX); \
		text[n++] = (char)c; take(p); \
		if ((c = peek(p)) < -1) \
			return p->read_failed; \
	} while (0)
	c = peek(p);
	if (c == '-')
		NUM_TAKE();
	if (c == '0') {
		NUM_TAKE();
	} else if (c >= '1' && c <= '9') {
		while (c >= '0' && c <= '9')
			NUM_TAKE();
	} else {
		return jsonpull_fail(p, "invalid number: a digit must follow '-'");
	}
	if (c == '.') {
		is_real = 1;
		NUM_TAKE();
		for (digits = 0; c >= '0' && c <= '9'; digits++)
			NUM_TAKE();
		if (!digits)
			return jsonpull_fail(p, "invalid number: a digit must follow '.'");
	}
	if (c == 'e' || c == 'E') {
		is_real = 1;
		NUM_TAKE();
		if (c == '+' || c == '-')
			NUM_TAKE();
		for (digits = 0; c >= '0' && c <= '9'; digits++)
			NUM_TAKE();
		if (!digits)
			return jsonpull_fail(p, "invalid number: a digit must follow the exponent");
	}
#undef NUM_TAKE
	if (c < -1)
		return p->read_failed;
	text[n] = '\0';
	errno = 0;
	if (!is_real) {
		long long v = strtoll(text, &end, 10);
		if (errno == ERANGE)
			return jsonpull_fail(p, "too big %sinteger", text[0] == '-' ? "negative " : "");
		p->integer = (json_int_t)v;
		p->number = (double)v;
		*tok = JSONPULL_INTEGER;
		return 0;
	}
	p->number = strtod(text, &end);
	if (!isfinite(p->number))
		return jsonpull_fail(p, "real number overflow");
	*tok = JSONPULL_REAL;
	return 0;
}

static int literal(struct jsonpull *p, const char *word, enum jsonpull_tok t, enum jsonpull_tok *tok)
{
	char b[16];

	for (size_t i = 0; word[i]; i++) {
		int c = peek(p);
		if (c < -1)
			return p->read_failed;
		if (c != word[i])
			return jsonpull_fail(p, "invalid token: %s where '%s' was going", shown(c, b), word);
		take(p);
	}
	*tok = t;
	return 0;
}

/* After a value: what may follow. */
static void after_value(struct jsonpull *p)
{
	p->want = p->depth ? WANT_COMMA_OR_END : WANT_EOF;
}

static int begin(struct jsonpull *p, int is_array)
{
	struct jsonpull_frame *f;

	if (p->depth >= p->max_depth)
		return jsonpull_fail(p, "nested deeper than %d levels", p->max_depth);
	f = &p->st[p->depth++];
	f->is_array = (unsigned char)is_array;
	f->index = 0;
	f->path_len = p->path.len;
	p->want = is_array ? WANT_VALUE_OR_END : WANT_KEY_OR_END;
	return 0;
}

static void end(struct jsonpull *p)
{
	jsonio_path_restore(&p->path, p->st[--p->depth].path_len);
	after_value(p);
}

static int value(struct jsonpull *p, int c, enum jsonpull_tok *tok)
{
	char b[16];
	int rc;

	if (c >= 0 && ++p->values > p->max_values)
		return plumb_err_set(p->err, PLUMB_EINPUT, "more than %zu JSON values (the limit %s)",
				     p->max_values, p->whose);
	switch (c) {
	case '{':
		take(p);
		*tok = JSONPULL_OBJECT;
		return begin(p, 0);
	case '[':
		take(p);
		*tok = JSONPULL_ARRAY;
		return begin(p, 1);
	case '"':
		take(p);
		if ((rc = string(p)) < 0)
			return rc;
		*tok = JSONPULL_STRING;
		break;
	case 't':
		rc = literal(p, "true", JSONPULL_TRUE, tok);
		break;
	case 'f':
		rc = literal(p, "false", JSONPULL_FALSE, tok);
		break;
	case 'n':
		rc = literal(p, "null", JSONPULL_NULL, tok);
		break;
	default:
		if (c == '-' || (c >= '0' && c <= '9')) {
			rc = number(p, tok);
			break;
		}
		return jsonpull_fail(p, "expected a value, found %s", shown(c, b));
	}
	if (rc == 0)
		after_value(p);
	return rc;
}

int jsonpull_next(struct jsonpull *p, enum jsonpull_tok *tok)
{
	struct jsonpull_frame *f;
	char b[16];
	int c, rc;

again:
	while ((c = peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		take(p);
	if (c < -1)
		return p->read_failed;
	p->tok_line = p->line;
	p->tok_col = p->col;
	f = p->depth ? &p->st[p->depth - 1] : NULL;
	switch (p->want) {
	case WANT_EOF:
		if (c != -1)
			return jsonpull_fail(p, "end of file expected, found %s", shown(c, b));
		*tok = JSONPULL_EOF;
		return 0;
	case WANT_COMMA_OR_END:
		if (c == ',') {
			take(p);
			if (f->is_array) {
				jsonio_path_restore(&p->path, f->path_len);
				jsonio_path_index(&p->path, ++f->index);
				p->want = WANT_VALUE;
			} else {
				jsonio_path_restore(&p->path, f->path_len);
				p->want = WANT_KEY;
			}
			goto again;
		}
		if (c == (f->is_array ? ']' : '}')) {
			take(p);
			end(p);
			*tok = f->is_array ? JSONPULL_ARRAY_END : JSONPULL_OBJECT_END;
			return 0;
		}
		return jsonpull_fail(p, "expected ',' or '%c', found %s", f->is_array ? ']' : '}',
				     shown(c, b));
	case WANT_KEY_OR_END:
	case WANT_KEY:
		if (c == '}' && p->want == WANT_KEY_OR_END) {
			take(p);
			end(p);
			*tok = JSONPULL_OBJECT_END;
			return 0;
		}
		if (c != '"')
			return jsonpull_fail(p, "expected a member name (a string)%s, found %s",
					     p->want == WANT_KEY_OR_END ? " or '}'" : "", shown(c, b));
		take(p);
		if ((rc = string(p)) < 0)
			return rc;
		jsonio_path_restore(&p->path, f->path_len);
		jsonio_path_key(&p->path, p->str);
		while ((c = peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r')
			take(p);
		if (c < -1)
			return p->read_failed;
		if (c != ':') {
			p->tok_line = p->line;
			p->tok_col = p->col;
			return jsonpull_fail(p, "expected ':' after a member name, found %s", shown(c, b));
		}
		take(p);
		p->want = WANT_VALUE;
		*tok = JSONPULL_KEY;
		return 0;
	case WANT_VALUE_OR_END:
		if (c == ']') {
			take(p);
			end(p);
			*tok = JSONPULL_ARRAY_END;
			return 0;
		}
		/* The first element. */
		jsonio_path_index(&p->path, 0);
		/* fall through */
	default:
		return value(p, c, tok);
	}
}

int jsonpull_lookahead(struct jsonpull *p, int *c)
{
	while ((*c = peek(p)) == ' ' || *c == '\t' || *c == '\n' || *c == '\r')
		take(p);
	return *c < -1 ? p->read_failed : 0;
}

int jsonpull_drain(struct jsonpull *p)
{
	p->pos = p->len;
	while (peek(p) >= 0)
		p->pos = p->len;
	return p->read_failed;
}

int jsonpull_skip(struct jsonpull *p, enum jsonpull_tok tok)
{
	int depth = p->depth, rc;

	if (tok != JSONPULL_OBJECT && tok != JSONPULL_ARRAY)
		return 0;
	/* The container just opened is at depth; read until it closes. */
	while (p->depth >= depth)
		if ((rc = jsonpull_next(p, &tok)) < 0)
			return rc;
	return 0;
}

int jsonpull_at(const struct jsonpull *p, const char *pattern)
{
	const char *s = p->path.s;

	while (*pattern) {
		if (strncmp(pattern, "[*]", 3) == 0) {
			if (*s++ != '[')
				return 0;
			if (*s < '0' || *s > '9')
				return 0;
			while (*s >= '0' && *s <= '9')
				s++;
			if (*s++ != ']')
				return 0;
			pattern += 3;
			continue;
		}
		if (*s++ != *pattern++)
			return 0;
	}
	return *s == '\0';
}

static int spend(struct jsonpull *p, struct jsonpull_budget *b, size_t cost)
{
	b->cost += cost;
	if (b->cost > b->max)
		return plumb_err_set(p->err, PLUMB_EINPUT, "%s: more than %zu bytes of JSON held "
				     "outside the sample arrays (the limit %s)",
				     jsonio_path_str(&p->path), b->max, p->whose);
	return 0;
}

static int tree(struct jsonpull *p, enum jsonpull_tok tok, struct jsonpull_budget *b,
		json_t **out);

static int tree_object(struct jsonpull *p, struct jsonpull_budget *b, json_t *o)
{
	enum jsonpull_tok tok;
	json_t *v;
	char *key;
	int rc;

	for (;;) {
		if ((rc = jsonpull_next(p, &tok)) < 0)
			return rc;
		if (tok == JSONPULL_OBJECT_END)
			return 0;
		if (json_object_get(o, p->str))
			return jsonpull_fail(p, "duplicate object key");
		if ((rc = spend(p, b, p->str_len + 16)) < 0)
			return rc;
		if (!(key = strdup(p->str)))
			return plumb_err_oom(p->err, "json");
		if ((rc = jsonpull_next(p, &tok)) < 0 || (rc = tree(p, tok, b, &v)) < 0) {
			free(key);
			return rc;
		}
		if (v && json_object_set_new(o, key, v) < 0) {
			free(key);
			return plumb_err_oom(p->err, "json");
		}
		free(key);
	}
}

static int tree(struct jsonpull *p, enum jsonpull_tok tok, struct jsonpull_budget *b,
		json_t **out)
{
	json_t *v = NULL;
	int rc;

	*out = NULL;
	if (b->hook && (rc = b->hook(b->ctx, p, tok, out)) != 0)
		return rc < 0 ? rc : 0;
	if ((rc = spend(p, b, tok == JSONPULL_OBJECT ? 344 : tok == JSONPULL_ARRAY ? 64 :
			tok == JSONPULL_STRING ? 48 + p->str_len : 48)) < 0)
		return rc;
	switch (tok) {
	case JSONPULL_OBJECT:
		if (!(v = json_object()))
			break;
		if ((rc = tree_object(p, b, v)) < 0) {
			json_decref(v);
			return rc;
		}
		break;
	case JSONPULL_ARRAY:
		if (!(v = json_array()))
			break;
		for (;;) {
			json_t *e;
			if ((rc = jsonpull_next(p, &tok)) < 0 ||
			    (tok != JSONPULL_ARRAY_END && (rc = tree(p, tok, b, &e)) < 0)) {
				json_decref(v);
				return rc;
			}
			if (tok == JSONPULL_ARRAY_END)
				break;
			if (e && json_array_append_new(v, e) < 0) {
				json_decref(v);
				return plumb_err_oom(p->err, "json");
			}
		}
		break;
	case JSONPULL_STRING:
		v = json_stringn_nocheck(p->str, p->str_len);
		break;
	case JSONPULL_INTEGER:
		v = json_integer(p->integer);
		break;
	case JSONPULL_REAL:
		v = json_real(p->number);
		break;
	case JSONPULL_TRUE:
		v = json_true();
		break;
	case JSONPULL_FALSE:
		v = json_false();
		break;
	case JSONPULL_NULL:
		v = json_null();
		break;
	default:
		return plumb_err_set(p->err, PLUMB_EINTERNAL, "json: a value expected");
	}
	if (!v)
		return plumb_err_oom(p->err, "json");
	*out = v;
	return 0;
}

int jsonpull_tree(struct jsonpull *p, enum jsonpull_tok tok, struct jsonpull_budget *b,
		  json_t **out)
{
	return tree(p, tok, b, out);
}
