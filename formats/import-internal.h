/*
 * formats/import-internal.h: what the three readers of formats/import*.c
 * share: the JSON walk with paths for messages, and the entry builders.
 *
 * Ownership: struct import_walk is caller storage with no heap memory; it
 * borrows the file it fills.
 */
#ifndef PLUMB_FORMATS_IMPORT_INTERNAL_H
#define PLUMB_FORMATS_IMPORT_INTERNAL_H

#include <jansson.h>

#include "formats/import.h"
#include "formats/jsonio.h"
#include "formats/jsonpull.h"

struct import_walk;

/* An element of an array, packed or in a tree. */
enum import_elem_kind {
	IMPORT_ELEM_OTHER,     /* a string, boolean, object or array */
	IMPORT_ELEM_INTEGER,
	IMPORT_ELEM_REAL,
	IMPORT_ELEM_NULL
};

struct import_elem {
	enum import_elem_kind kind;
	double number;         /* an integer's or real's value */
	json_int_t integer;    /* an integer's */
};

union import_number {
	double number;
	json_int_t integer;
};

/* An array of samples read without a tree: a stand-in (an empty array)
 * takes its place in the tree, and import_size()/import_elem() read it. */
struct import_packed {
	json_t *stand_in;      /* one reference; the tree holds another */
	unsigned char *kind;   /* enum import_elem_kind */
	union import_number *v;
	size_t n, cap;
};

/*
 * One tool's reader.  The file is read twice (formats/import.c): first
 * the top-level object but for its big array, then array's elements, one
 * at a time, each as a tree in which the arrays at the paths packed name
 * are packed and the parts at the paths skipped name are left out
 * ("[*]": any index); begin() sees the top level first, end() always
 * runs last with the result so far.
 */
struct import_reader {
	const char *array;
	const char *const *packed;
	const char *const *skipped;
	int (*begin)(struct import_walk *w);
	int (*element)(struct import_walk *w, const json_t *e);   /* w->path: array[i] */
	int (*end)(struct import_walk *w, int rc);
};

struct import_walk {
	const char *name;           /* the file, in messages */
	struct import_file *f;
	struct jsonio_path path;
	size_t values;              /* values added so far (IMPORT_MAX_VALUES) */
	struct plumb_err *err;
	const struct import_reader *reader;
	const json_t *top;          /* the top level but for reader->array */
	struct jsonpull_budget budget;
	struct import_packed *packed;   /* the element's packed arrays */
	size_t n_packed;
	void *state;                /* the reader's own */
};

extern const struct import_reader import_hyperfine, import_pyperf, import_gbench;

/* How many elements array a holds, and element i of it. */
size_t import_size(const struct import_walk *w, const json_t *a);
void import_elem(const struct import_walk *w, const json_t *a, size_t i, struct import_elem *out);

/* PLUMB_EINPUT "<file>: <path>: <what>". */
int import_fail(struct import_walk *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Member key of o as a number / string / array / object: 0 (found), 1 (absent
 * or null and !required), or PLUMB_EINPUT naming the path. */
int import_number(struct import_walk *w, const json_t *o, const char *key, int required,
		  double *out);
int import_string(struct import_walk *w, const json_t *o, const char *key, int required,
		  const char **out);
int import_array(struct import_walk *w, const json_t *o, const char *key, int required,
		 const json_t **out);
int import_object(struct import_walk *w, const json_t *o, const char *key, int required,
		  const json_t **out);

/* A new entry named name (copied), or NULL with err set (also past IMPORT_MAX_ENTRIES). */
struct import_entry *import_entry_add(struct import_walk *w, const char *name);

/* The series of metric in e, added when missing. */
struct import_series *import_series_of(struct import_walk *w, struct import_entry *e,
				       enum metric_id metric);

/* Append value v (finite, >= 0, already in plumb's unit) to round r (from 1). */
int import_value(struct import_walk *w, struct import_series *s, uint32_t r, double v);

/* Append a formatted line to a list of strings (notes, warnings). */
int import_line(struct import_walk *w, char ***v, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* One fact of host.start's shape ("cpu.model": at most one dot) taken from
 * member src of the source's facts when it is of type type, else null. */
struct import_fact {
	const char *path;
	const char *src;
	json_type type;       /* JSON_REAL: any finite number */
	double min;           /* numbers: the least value allowed */
};

/*
 * Check the facts of map that src (an object at w's path, or NULL) holds:
 * each of its type and, a number, finite and at least its min; else
 * PLUMB_EINPUT naming the file and the member's JSON path.  An absent or
 * null member is fine (unknown).
 */
int import_check_facts(struct import_walk *w, const json_t *src, const struct import_fact *map,
		       size_t n);

/* The facts of map from src, in host.start's shape; NULL when memory runs out. */
json_t *import_host_facts(const json_t *src, const struct import_fact *map, size_t n);


#endif
