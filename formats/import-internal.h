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

struct import_walk {
	const char *name;           /* the file, in messages */
	struct import_file *f;
	struct jsonio_path path;
	size_t values;              /* values added so far (IMPORT_MAX_VALUES) */
	struct plumb_err *err;
};

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

/* The readers: root is the parsed top-level object. */
int import_read_hyperfine(struct import_walk *w, const json_t *root);
int import_read_pyperf(struct import_walk *w, const json_t *root);
int import_read_gbench(struct import_walk *w, const json_t *root);

#endif
