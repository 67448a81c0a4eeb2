/*
 * runner/build-variant.c: a built variant by name; see build-variant.h.
 *
 * Separate from build.c because every part of the build stage and of the
 * run names variants: this file calls no other file of runner/, so each
 * of them can.
 */
#include <stdio.h>

#include "runner/build-variant.h"
#include "common/banned.h"

/* "base" or "candidate". */
const char *runner_side_name(enum runner_side side)
{
	return side == RUNNER_BASE ? "base" : "candidate";
}

/* "base pad 2 (b02)", or "the control, base pad 0 built again (k00)". */
void build_variant_name(const struct runner_variant *v, char *out, size_t size)
{
	if (v->control)
		snprintf(out, size, "the control, base pad 0 built again (%s)", v->id);
	else
		snprintf(out, size, "%s pad %u (%s)", runner_side_name(v->side), v->pad, v->id);
}

/* The variant of a side's pad K (not the control), or NULL. */
struct runner_variant *build_find_variant(struct runner_result *res, enum runner_side side,
					   unsigned pad)
{
	for (size_t i = 0; i < res->nvariants; i++)
		if (!res->variants[i].control && res->variants[i].side == side &&
		    res->variants[i].pad == pad)
			return &res->variants[i];
	return NULL;
}
