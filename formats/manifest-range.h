/*
 * formats/manifest-range.h: the optional manifest member `range`: where a
 * bundle written by `plumb run --range A..B` stands in its job
 * (formats/bundle-v1.md §"range").  The manifest keeps the member as an
 * opaque object (struct manifest.range); this is its one checker and
 * reader, used by manifest validation and by the range report.
 *
 * Ownership: struct manifest_range borrows the strings of the json_t it
 * was read from; it lives as long as that object.
 */
#ifndef PLUMB_FORMATS_MANIFEST_RANGE_H
#define PLUMB_FORMATS_MANIFEST_RANGE_H

#include <stdint.h>
#include <jansson.h>

struct plumb_err;

#define MANIFEST_RANGE_ID_MAX 64    /* bytes of range.id */
#define MANIFEST_RANGE_SPEC_MAX 512 /* bytes of range.spec */

struct manifest_range {
	const char *id;      /* .id, required: the job's id, [0-9a-z] (the range= label) */
	const char *spec;    /* .spec, required: the range as written ("v1.0..main") */
	int64_t step;        /* .step, required: --step, >= 1 */
	int64_t index;       /* .index, required: 0-based place among the measured commits */
	int64_t count;       /* .count, required: commits measured in the job, > index */
	int64_t total;       /* .total, required: commits in the range before --step, >= count */
	const char *parent;  /* .parent, required: the commit measured before this one (index 0: A) */
	const json_t *hot;   /* .hot, optional array: hot code against the parent's (index >= 1) */
};

/* Check r (the member's value) and fill out (may be NULL); errors name range.<key>. */
int manifest_range_read(const json_t *r, struct manifest_range *out, struct plumb_err *err);

/*
 * range.hot's entry for bench: its symbols, this commit's candidate pad 0
 * against the parent's, as a benches[].hot (out->symbols allocated, freed
 * by the caller; names borrowed).  0 and out->present == 0 when there is
 * none; PLUMB_EINTERNAL when memory runs out.
 */
struct manifest_hot;
int manifest_range_hot(const struct manifest_range *r, const char *bench, struct manifest_hot *out,
		       struct plumb_err *err);

/* The member's value for these fields (a new reference), or NULL when memory runs out. */
json_t *manifest_range_new(const struct manifest_range *r);

#endif
