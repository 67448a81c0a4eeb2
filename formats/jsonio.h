/*
 * formats/jsonio.h: bounded JSON reading and deterministic JSON writing on
 * top of jansson, with errors that name a JSON path.
 *
 * Separate from the manifest model because every stage that reads JSON from
 * outside (manifests, host facts, imported results) needs the same budgets
 * (size, nesting depth, duplicate keys) and every stage that writes JSON
 * for machines (bundles, --json output, reports) needs the same
 * byte-for-byte stable output.
 *
 * Paths are written like `benches[2].sides.base.pads[1]`; the top level is
 * `(root)`.  A key that is not an identifier is shown quoted in brackets
 * (`host.start["cpu.model"]`), a long key is cut to JSONIO_PATH_KEY_MAX
 * bytes and ends in "...".
 *
 * Ownership: struct jsonio_path is caller-owned storage with no heap
 * memory; jsonio_load() gives the caller one reference to *out, dropped
 * with json_decref(); jsonio_dump() appends to the caller's buffer.
 */
#ifndef PLUMB_FORMATS_JSONIO_H
#define PLUMB_FORMATS_JSONIO_H

#include <stddef.h>
#include <jansson.h>

struct buf;
struct plumb_err;

#define JSONIO_PATH_MAX 512      /* bytes of a path kept for messages */
#define JSONIO_PATH_KEY_MAX 48   /* bytes of one key kept in a path */
#define JSONIO_DEPTH_CAP 256     /* largest max_depth jsonio_load accepts */

struct jsonio_path {
	char s[JSONIO_PATH_MAX];
	size_t len;
};

/* Set p to the top level. */
void jsonio_path_init(struct jsonio_path *p);

/*
 * Descend into member key or element i; each returns the previous length,
 * which jsonio_path_restore() takes to climb back.
 */
size_t jsonio_path_key(struct jsonio_path *p, const char *key);
size_t jsonio_path_index(struct jsonio_path *p, size_t i);
void jsonio_path_restore(struct jsonio_path *p, size_t len);

/* The path as text: "(root)" at the top level. Valid while p is unchanged. */
const char *jsonio_path_str(const struct jsonio_path *p);

/*
 * Parse len bytes of untrusted JSON into *out.  Fails with PLUMB_EINPUT and
 * a message that starts with the JSON path when the text is longer than
 * max_bytes, nests containers deeper than max_depth (the top-level value is
 * depth 1; max_depth <= JSONIO_DEPTH_CAP), repeats a key in one object, is
 * not valid JSON (jansson's reason, line and column follow the path), or
 * holds a \u0000 escape.  The top level may be any value.  Nothing is
 * allocated on failure.
 */
int jsonio_load(const char *text, size_t len, size_t max_bytes, int max_depth,
		json_t **out, struct plumb_err *err);

/*
 * Append v as indented JSON (two spaces) with a final newline: object
 * members in their order in v (use jsonio_sorted_copy() for sorted keys),
 * arrays of scalars on one line, integers as integers, reals in the
 * shortest form that reads back to the same double (always with a '.' or
 * an exponent, so a real stays a real), strings with '"', '\\', control
 * characters (C0, DEL, C1), bidirectional controls and line separators
 * escaped (\uXXXX: a terminal showing the JSON is not repainted; the value
 * is the same).  Independent of the locale.  Fails with PLUMB_EINTERNAL
 * when v nests deeper than JSONIO_DEPTH_CAP, or with the buf_err() message
 * when out is full.
 */
int jsonio_dump(const json_t *v, struct buf *out, struct plumb_err *err);

/*
 * How many JSON values text holds, counted without parsing ('{', '[' and
 * ',' outside strings, plus one), up to stop + 1: a budget checked before
 * jansson builds a tree whose memory follows that count, not the bytes.
 */
size_t jsonio_values(const char *text, size_t len, size_t stop);

/* A deep copy of v whose objects have their keys in byte order (NULL: OOM). */
json_t *jsonio_sorted_copy(const json_t *v);

/*
 * The small builders and getters every JSON model uses, here once.  The
 * builders return a new value, or NULL when memory ran out (json_null()
 * never fails).
 */

/* s as a JSON string; null when s is NULL or is not UTF-8 text. */
json_t *jsonio_str(const char *s);

/* v as a JSON real; null when it is NAN or infinite (unknown). */
json_t *jsonio_real(double v);

/*
 * v as the JSON number units_exact()'s plain form writes (an integer when
 * it has neither '.' nor an exponent, else a real), so a number read from
 * such text is written back as it was; null when it is NAN or infinite.
 */
json_t *jsonio_plain(double v);

/* JSON text parsed (any value); the text as a string when it does not parse; null for NULL. */
json_t *jsonio_text(const char *t);

/* Set member k of o to v, taking v either way; 0, or -1 when v or o is NULL or the set failed. */
int jsonio_set(json_t *o, const char *k, json_t *v);

/* Member k of o when it is a string, else def. */
const char *jsonio_get_str(const json_t *o, const char *k, const char *def);

/* Member k of o when it is a number, else NAN. */
double jsonio_get_num(const json_t *o, const char *k);

/* What v is, for "expected X, found Y": "object", "integer", "boolean"... */
const char *jsonio_type_name(const json_t *v);

#endif
