/*
 * runner/build-variant.h: a built variant by name: a side's name, a
 * variant's name in messages, and the variant of a side's pad, asked by
 * every file of the build stage and of the run (runner/build-types.h has
 * the types).
 *
 * Ownership: names are static strings or written into the caller's
 * buffer; build_find_variant() returns a pointer into res->variants.
 */
#ifndef PLUMB_RUNNER_BUILD_VARIANT_H
#define PLUMB_RUNNER_BUILD_VARIANT_H

#include <stddef.h>

#include "runner/build-types.h"

/* "base" or "candidate". */
const char *runner_side_name(enum runner_side side);

/* "base pad 2 (b02)", or "the control, base pad 0 built again (k00)". */
void build_variant_name(const struct runner_variant *v, char *out, size_t size);

/* The variant of a side's pad K (not the control), or NULL. */
struct runner_variant *build_find_variant(struct runner_result *res, enum runner_side side,
					  unsigned pad);

#endif
