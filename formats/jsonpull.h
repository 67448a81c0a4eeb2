/*
 * formats/jsonpull.h: a pull tokenizer of strict JSON (RFC 8259) read in
 * chunks, for documents too large to hold as a tree (plumb import's
 * result files, formats/import.c).
 *
 * The caller gives a read function; jsonpull_next() hands out one token
 * at a time (object and array begin and end, member name, string,
 * number, true, false, null, and the end of the text), checking the
 * grammar as it goes, so a caller only ever sees a well-formed sequence.
 * Limits: containers nested at most max_depth deep (the top level is
 * depth 1), strings (decoded) at most max_string bytes, at most
 * max_values values.  Strings are UTF-8 checked (no overlong form,
 * surrogate or code point past U+10FFFF, escaped or raw; no \u0000, no raw
 * control character).  Integers must fit json_int_t, other numbers a
 * finite double.  Every error is PLUMB_EINPUT "<JSON path>: <what> (line
 * L, column C)", the path as formats/jsonio.h writes it, line and column
 * from 1 at the token.
 *
 * jsonpull_tree() builds the next value as a jansson tree, refusing a
 * repeated member name; a hook may take over any value on the way (read
 * an array into other storage, skip a part), and a budget bounds the
 * memory the tree holds.
 *
 * Ownership: struct jsonpull is caller storage; jsonpull_init() allocates
 * nothing, jsonpull_release() frees the string buffer.  Token text
 * (jsonpull.str) lives until the next call.
 */
#ifndef PLUMB_FORMATS_JSONPULL_H
#define PLUMB_FORMATS_JSONPULL_H

#include <stddef.h>

#include <jansson.h>

#include "formats/jsonio.h"

struct plumb_err;

#define JSONPULL_CHUNK 65536
#define JSONPULL_NUMBER_MAX 256   /* bytes of one number's text */

enum jsonpull_tok {
	JSONPULL_EOF,
	JSONPULL_OBJECT,       /* { */
	JSONPULL_OBJECT_END,   /* } */
	JSONPULL_ARRAY,        /* [ */
	JSONPULL_ARRAY_END,    /* ] */
	JSONPULL_KEY,          /* a member name, in str (its ':' is read) */
	JSONPULL_STRING,       /* in str, str_len bytes, NUL-terminated */
	JSONPULL_INTEGER,      /* in integer (and number) */
	JSONPULL_REAL,         /* in number */
	JSONPULL_TRUE,
	JSONPULL_FALSE,
	JSONPULL_NULL
};

/* Read up to cap bytes into buf: 0 with *got (0 at the end), or a negative
 * code with err set. */
typedef int (*jsonpull_read_fn)(void *ctx, char *buf, size_t cap, size_t *got,
				struct plumb_err *err);

struct jsonpull_frame {
	unsigned char is_array;
	size_t index;          /* array: the current element */
	size_t path_len;       /* the path of the container itself */
};

struct jsonpull {
	jsonpull_read_fn read;
	void *ctx;
	struct plumb_err *err;
	int max_depth;
	size_t max_string, max_values;
	const char *whose;     /* ends the value limit's message: "(the limit <whose>)" */
	/* Input. */
	char in[JSONPULL_CHUNK];
	size_t pos, len;
	int eof;
	int read_failed;       /* the read function's error code, or 0 */
	unsigned long line, col;          /* of the next byte */
	unsigned long tok_line, tok_col;  /* of the last token */
	/* Grammar. */
	struct jsonpull_frame st[JSONIO_DEPTH_CAP];
	int depth;
	int want;
	size_t values;         /* values begun so far */
	struct jsonio_path path;   /* of the value at hand */
	/* The last token's value. */
	char *str;
	size_t str_len, str_cap;
	json_int_t integer;
	double number;
};

/* Set p up to read through read(ctx); nothing is read yet. */
void jsonpull_init(struct jsonpull *p, jsonpull_read_fn read, void *ctx, int max_depth,
		   size_t max_string, size_t max_values, const char *whose,
		   struct plumb_err *err);

void jsonpull_release(struct jsonpull *p);

/* The next token into *tok; after the top-level value only JSONPULL_EOF
 * (trailing white space is fine, anything else an error). */
int jsonpull_next(struct jsonpull *p, enum jsonpull_tok *tok);

/* The next byte that is not white space into *c (-1 at the end), not taken. */
int jsonpull_lookahead(struct jsonpull *p, int *c);

/* Read the rest of the input without looking at it: 0, or the read
 * function's error (a reader that checks its input to the end, a
 * gzip stream's trailer, speaks first). */
int jsonpull_drain(struct jsonpull *p);

/* Read past the rest of the value whose first token was tok. */
int jsonpull_skip(struct jsonpull *p, enum jsonpull_tok tok);

/* PLUMB_EINPUT "<path>: <what> (line L, column C)" at the last token. */
int jsonpull_fail(struct jsonpull *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * What jsonpull_tree() may hold: cost counts an estimate of the tree's
 * bytes (an object 344 and its member names, an array 64, a string 48
 * and its length, anything else 48), refused past max with the message
 * "<path>: more than <max> bytes of JSON held outside the sample arrays
 * (the limit <whose>)".  cost is the caller's to lower when it frees a
 * tree.
 */
struct jsonpull_budget {
	size_t cost, max;
	/*
	 * Called at every value of the tree, its first token read (tok) and
	 * p->path naming it: 0 to build it as usual, 1 when the hook read
	 * the whole value, leaving in *out what stands for it (or NULL: the
	 * member is left out), or a negative code.
	 */
	int (*hook)(void *ctx, struct jsonpull *p, enum jsonpull_tok tok, json_t **out);
	void *ctx;
};

/* The value whose first token was tok as a tree into *out (one reference). */
int jsonpull_tree(struct jsonpull *p, enum jsonpull_tok tok, struct jsonpull_budget *b,
		  json_t **out);

/* Whether p->path matches pattern, in which "[*]" stands for any index. */
int jsonpull_at(const struct jsonpull *p, const char *pattern);

#endif
