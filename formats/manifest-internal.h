/*
 * formats/manifest-internal.h: what manifest.c shares with the files
 * above it (manifest-check.c, -read.c, -write.c, -range.c, -sweep.c,
 * -provenance.c), and nothing else includes.
 *
 * Ownership: as in manifest.h; the name tables are static and constant.
 */
#ifndef PLUMB_FORMATS_MANIFEST_INTERNAL_H
#define PLUMB_FORMATS_MANIFEST_INTERNAL_H

#include <stddef.h>

#include "formats/manifest.h"

/* Names as written in JSON, indexed by enum value, NULL-terminated. */
extern const char *const manifest_side_names[];
extern const char *const manifest_method_names[];
extern const char *const manifest_mode_names[];
extern const char *const manifest_direction_names[]; /* [0] is UNSET: "" */

/* Set up one element with every optional field absent. */
void manifest_side_stats_init(struct manifest_side_stats *s);
void manifest_variant_init(struct manifest_variant *v);
void manifest_bench_init(struct manifest_bench *b);

/* The documented members of provenance have their types (manifest-provenance.c). */
int manifest_provenance_check(const json_t *p, struct plumb_err *err);

/* s is lower-case hex of length len1 or len2. */
int manifest_is_hex(const char *s, size_t len1, size_t len2);

/* s is "auto", "none" or a decimal count. */
int manifest_is_warmup_policy(const char *s);

/*
 * Set err to PLUMB_EINPUT with the formatted message, control characters
 * replaced by '?'; returns PLUMB_EINPUT.
 */
struct plumb_err;
int manifest_fail(struct plumb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* qsort comparison of two const char * elements. */
int manifest_cmp_str(const void *a, const void *b);

#endif
