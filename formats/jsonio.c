/*
 * formats/jsonio.c: bounded JSON loading with path-named errors, and the
 * deterministic JSON writer; see jsonio.h.
 *
 * Why a pre-scan before jansson: jansson's own nesting limit is a
 * compile-time 2048 and its errors give a line and column, not a path.  One
 * pass over the raw bytes that tracks the container stack (and the key or
 * index inside each container) enforces our depth budget before any
 * allocation, and names the JSON path of any offset jansson complains about.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "common/utf8.h"
#include "formats/jsonio.h"
#include "common/banned.h"

void jsonio_path_init(struct jsonio_path *p)
{
	p->s[0] = '\0';
	p->len = 0;
}

/* Append s (n bytes) to the path; a path that does not fit ends in "...". */
static void path_add(struct jsonio_path *p, const char *s, size_t n)
{
	size_t room = sizeof(p->s) - 1 - p->len;

	if (n > room) {
		memcpy(p->s + p->len, s, room);
		p->len = sizeof(p->s) - 1;
		memcpy(p->s + p->len - 3, "...", 3);
	} else {
		memcpy(p->s + p->len, s, n);
		p->len += n;
	}
	p->s[p->len] = '\0';
}

static int is_ident(const char *key, size_t n)
{
	size_t i;

	if (n == 0 || (key[0] >= '0' && key[0] <= '9'))
		return 0;
	for (i = 0; i < n; i++) {
		char c = key[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* Descend into a key given by n raw bytes (shown printable, cut if long). */
static size_t path_key_n(struct jsonio_path *p, const char *key, size_t n)
{
	size_t old = p->len, cut = n, i;
	int quoted = !is_ident(key, n);
	char c;

	if (cut > JSONIO_PATH_KEY_MAX) {
		cut = JSONIO_PATH_KEY_MAX;
		/* Do not split a UTF-8 sequence. */
		while (cut > 0 && ((unsigned char)key[cut] & 0xC0) == 0x80)
			cut--;
	}
	if (quoted)
		path_add(p, "[\"", 2);
	else if (p->len > 0)
		path_add(p, ".", 1);
	for (i = 0; i < cut; i++) {
		c = key[i];
		if ((unsigned char)c < 0x20 || c == 0x7f)
			c = '?';
		if (quoted && (c == '"' || c == '\\'))
			path_add(p, "\\", 1);
		path_add(p, &c, 1);
	}
	if (cut < n)
		path_add(p, "...", 3);
	if (quoted)
		path_add(p, "\"]", 2);
	return old;
}

size_t jsonio_path_key(struct jsonio_path *p, const char *key)
{
	return path_key_n(p, key, strlen(key));
}

size_t jsonio_path_index(struct jsonio_path *p, size_t i)
{
	char tmp[32];
	size_t old = p->len;
	int n = snprintf(tmp, sizeof(tmp), "[%zu]", i);

	path_add(p, tmp, (size_t)n);
	return old;
}

void jsonio_path_restore(struct jsonio_path *p, size_t len)
{
	if (len < p->len) {
		p->len = len;
		p->s[len] = '\0';
	}
}

const char *jsonio_path_str(const struct jsonio_path *p)
{
	return p->len ? p->s : "(root)";
}

/* One open container seen by the pre-scan. */
struct scan_frame {
	unsigned char is_array;
	unsigned char expect_key;  /* object: the next string is a key */
	unsigned char have_key;    /* object: key_off/key_len name the member */
	size_t index;              /* array: the current element */
	size_t key_off, key_len;   /* object: raw bytes of the key, escapes kept */
};

struct scan {
	struct scan_frame st[JSONIO_DEPTH_CAP];
	int depth;
};

/*
 * Walk text[0, stop) tracking containers.  Returns the offset of the
 * bracket that would open a container deeper than max_depth, or stop when
 * there is none.  The scan never fails: malformed text is left to jansson.
 */
static size_t scan_text(struct scan *sc, const char *t, size_t stop, int max_depth)
{
	size_t i, start;
	struct scan_frame *f;

	sc->depth = 0;
	for (i = 0; i < stop; i++) {
		f = sc->depth ? &sc->st[sc->depth - 1] : NULL;
		switch (t[i]) {
		case '"':
			start = i + 1;
			for (i = start; i < stop && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			if (i >= stop) {
				/* An open string: an unfinished key still names nothing. */
				return stop;
			}
			if (f && !f->is_array && f->expect_key) {
				f->expect_key = 0;
				f->have_key = 1;
				f->key_off = start;
				f->key_len = i - start;
			}
			break;
		case '{':
		case '[':
			if (sc->depth >= max_depth)
				return i;
			f = &sc->st[sc->depth++];
			memset(f, 0, sizeof(*f));
			f->is_array = t[i] == '[';
			f->expect_key = !f->is_array;
			break;
		case '}':
		case ']':
			if (sc->depth > 0)
				sc->depth--;
			break;
		case ',':
			if (f && f->is_array) {
				f->index++;
			} else if (f) {
				f->expect_key = 1;
				f->have_key = 0;
			}
			break;
		default:
			break;
		}
	}
	return stop;
}

/* The path of the position the scan stopped at. */
static void scan_path(const struct scan *sc, const char *t, struct jsonio_path *p)
{
	int k;

	jsonio_path_init(p);
	for (k = 0; k < sc->depth; k++) {
		const struct scan_frame *f = &sc->st[k];
		if (f->is_array)
			jsonio_path_index(p, f->index);
		else if (f->have_key)
			path_key_n(p, t + f->key_off, f->key_len);
	}
}

/* Copy jansson's message, replacing control bytes (it quotes raw input). */
static void clean_text(char *dst, size_t cap, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < cap && src[i]; i++)
		dst[i] = ((unsigned char)src[i] < 0x20 || src[i] == 0x7f) ? '?' : src[i];
	dst[i] = '\0';
}

int jsonio_load(const char *text, size_t len, size_t max_bytes, int max_depth,
		json_t **out, struct plumb_err *err)
{
	struct scan *sc;
	struct jsonio_path path;
	json_error_t jerr;
	char why[sizeof(jerr.text)];
	size_t at;
	json_t *v;

	*out = NULL;
	if (max_depth < 1 || max_depth > JSONIO_DEPTH_CAP)
		return plumb_err_set(err, PLUMB_EINTERNAL,
				     "json depth limit %d out of range", max_depth);
	if (len > max_bytes)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "(root): %zu bytes, more than the limit of %zu bytes",
				     len, max_bytes);
	sc = malloc(sizeof(*sc));
	if (!sc)
		return plumb_err_oom(err, "json scan");
	at = scan_text(sc, text, len, max_depth);
	if (at < len) {
		scan_path(sc, text, &path);
		free(sc);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: nested deeper than %d levels (byte %zu)",
				     jsonio_path_str(&path), max_depth, at);
	}
	v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!v) {
		at = jerr.position > 0 ? (size_t)jerr.position : 0;
		if (at > len)
			at = len;
		scan_text(sc, text, at, max_depth);
		scan_path(sc, text, &path);
		free(sc);
		clean_text(why, sizeof(why), jerr.text);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %s (line %d, column %d)",
				     jsonio_path_str(&path), why, jerr.line, jerr.column);
	}
	free(sc);
	*out = v;
	return 0;
}

static int dump_string(struct buf *out, const char *s, size_t n)
{
	size_t i, run = 0;

	if (buf_addch(out, '"') < 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = NULL;
		int32_t cp = -1;
		size_t len = 1;

		if (c >= 0x80) {
			/* C1 controls, bidi controls, separators: as \uXXXX (utf8.h). */
			len = utf8_next((const unsigned char *)s + i, n - i, &cp);
			if (cp < 0 || utf8_displayable(cp)) {
				i += len - 1;
				continue;
			}
		} else if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
			continue;
		}
		if (buf_add(out, s + run, i - run) < 0)
			return -1;
		run = i + len;
		i += len - 1;
		if (cp < 0) {
			switch (c) {
			case '"': e = "\\\""; break;
			case '\\': e = "\\\\"; break;
			case '\n': e = "\\n"; break;
			case '\t': e = "\\t"; break;
			case '\r': e = "\\r"; break;
			case '\b': e = "\\b"; break;
			case '\f': e = "\\f"; break;
			default: cp = c; break;
			}
		}
		if (e ? buf_addstr(out, e) < 0 : buf_printf(out, "\\u%04x", (unsigned)cp) < 0)
			return -1;
	}
	if (buf_add(out, s + run, n - run) < 0)
		return -1;
	return buf_addch(out, '"');
}

static int is_container(const json_t *v)
{
	return json_is_object(v) || json_is_array(v);
}

static int indent(struct buf *out, int level)
{
	int i;

	for (i = 0; i < level; i++)
		if (buf_add(out, "  ", 2) < 0)
			return -1;
	return 0;
}

/* Returns 0, -1 when out is full (errno set), -2 when nesting is too deep. */
static int dump_value(const json_t *v, struct buf *out, int level)
{
	char num[UNITS_EXACT_MAX];
	size_t i, n;

	if (level >= JSONIO_DEPTH_CAP)
		return -2;
	switch (json_typeof(v)) {
	case JSON_NULL:
		return buf_addstr(out, "null");
	case JSON_TRUE:
		return buf_addstr(out, "true");
	case JSON_FALSE:
		return buf_addstr(out, "false");
	case JSON_INTEGER:
		return buf_printf(out, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	case JSON_REAL:
		/* jansson never holds a non-finite real. */
		if (units_exact(json_real_value(v), UNITS_EXACT_REAL, num) < 0)
			return buf_addstr(out, "null");
		return buf_addstr(out, num);
	case JSON_STRING:
		return dump_string(out, json_string_value(v), json_string_length(v));
	case JSON_ARRAY: {
		int flat = 1, rc;

		n = json_array_size(v);
		if (n == 0)
			return buf_addstr(out, "[]");
		for (i = 0; i < n; i++)
			if (is_container(json_array_get(v, i)))
				flat = 0;
		if (buf_addch(out, '[') < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (flat) {
				if (i > 0 && buf_add(out, ", ", 2) < 0)
					return -1;
			} else if (buf_addstr(out, i > 0 ? ",\n" : "\n") < 0 ||
				   indent(out, level + 1) < 0) {
				return -1;
			}
			rc = dump_value(json_array_get(v, i), out, level + 1);
			if (rc < 0)
				return rc;
		}
		if (!flat && (buf_addch(out, '\n') < 0 || indent(out, level) < 0))
			return -1;
		return buf_addch(out, ']');
	}
	case JSON_OBJECT: {
		const char *key;
		void *it;
		int first = 1, rc;

		if (json_object_size(v) == 0)
			return buf_addstr(out, "{}");
		if (buf_addch(out, '{') < 0)
			return -1;
		/* Iteration follows insertion order (jansson >= 2.8). */
		for (it = json_object_iter((json_t *)v); it;
		     it = json_object_iter_next((json_t *)v, it)) {
			key = json_object_iter_key(it);
			if (buf_addstr(out, first ? "\n" : ",\n") < 0 ||
			    indent(out, level + 1) < 0 ||
			    dump_string(out, key, strlen(key)) < 0 ||
			    buf_add(out, ": ", 2) < 0)
				return -1;
			rc = dump_value(json_object_iter_value(it), out, level + 1);
			if (rc < 0)
				return rc;
			first = 0;
		}
		if (buf_addch(out, '\n') < 0 || indent(out, level) < 0)
			return -1;
		return buf_addch(out, '}');
	}
	}
	return 0;
}

int jsonio_dump(const json_t *v, struct buf *out, struct plumb_err *err)
{
	int rc = dump_value(v, out, 0);

	if (rc == -2)
		return plumb_err_set(err, PLUMB_EINTERNAL,
				     "json: nested deeper than %d levels", JSONIO_DEPTH_CAP);
	if (rc < 0 || buf_addch(out, '\n') < 0)
		return buf_err(err, "json");
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

json_t *jsonio_sorted_copy(const json_t *v)
{
	json_t *copy, *item;
	size_t i, n;

	if (json_is_array(v)) {
		copy = json_array();
		if (!copy)
			return NULL;
		for (i = 0; i < json_array_size(v); i++) {
			item = jsonio_sorted_copy(json_array_get(v, i));
			if (!item || json_array_append_new(copy, item) < 0) {
				json_decref(copy);
				return NULL;
			}
		}
		return copy;
	}
	if (json_is_object(v)) {
		const char **keys;
		const char *key;
		json_t *val;

		n = json_object_size(v);
		keys = calloc(n ? n : 1, sizeof(*keys));
		copy = json_object();
		if (!keys || !copy) {
			free(keys);
			json_decref(copy);
			return NULL;
		}
		i = 0;
		json_object_foreach((json_t *)v, key, val)
			keys[i++] = key;
		qsort(keys, n, sizeof(*keys), cmp_str);
		for (i = 0; i < n; i++) {
			item = jsonio_sorted_copy(json_object_get(v, keys[i]));
			if (!item || json_object_set_new(copy, keys[i], item) < 0) {
				free(keys);
				json_decref(copy);
				return NULL;
			}
		}
		free(keys);
		return copy;
	}
	return json_deep_copy(v);
}

size_t jsonio_values(const char *text, size_t len, size_t stop)
{
	size_t values = 1;
	int in_string = 0;

	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if ((c == '{' || c == '[' || c == ',') && ++values > stop) {
			break;
		}
	}
	return values;
}

const char *jsonio_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "number with a fraction";
	case JSON_TRUE:
	case JSON_FALSE: return "boolean";
	case JSON_NULL: return "null";
	}
	return "unknown";
}

json_t *jsonio_str(const char *s)
{
	json_t *v;

	if (!s)
		return json_null();
	v = json_string(s);
	return v ? v : json_null();
}

json_t *jsonio_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *jsonio_plain(double v)
{
	char t[UNITS_EXACT_MAX];

	if (units_exact(v, UNITS_EXACT_PLAIN, t) < 0)
		return json_null();
	return strpbrk(t, ".eE") ? json_real(v) : json_integer(strtoll(t, NULL, 10));
}

json_t *jsonio_text(const char *t)
{
	json_t *v;

	if (!t)
		return json_null();
	v = json_loads(t, JSON_DECODE_ANY, NULL);
	return v ? v : jsonio_str(t);
}

int jsonio_set(json_t *o, const char *k, json_t *v)
{
	if (!v)
		return -1;
	if (!o) {
		json_decref(v);
		return -1;
	}
	return json_object_set_new(o, k, v) != 0 ? -1 : 0;
}

const char *jsonio_get_str(const json_t *o, const char *k, const char *def)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : def;
}

double jsonio_get_num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}
