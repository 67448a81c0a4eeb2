/*
 * reports/compare.h: the comparison model's builder (reports/compare.c):
 * a bundle's candidate against its own base or a baseline's side, into
 * the struct report of reports/model.h.
 *
 * Ownership: struct report is caller-owned storage; report_compare()
 * fills it and report_release() frees what it allocated.  It borrows the
 * manifests, distributions and names it was built from (struct
 * report_side), which must outlive it.
 */
#ifndef PLUMB_REPORTS_COMPARE_H
#define PLUMB_REPORTS_COMPARE_H

#include "reports/model.h"

struct plumb_err;

/* Instruction counts within this fraction of each other are "the same". */
#define REPORT_SAME_WORK 0.005

/*
 * Build the model: old against new.  kind says which comparison it is
 * (for REPORT_SELF old.m and new.m are the same manifest).  Fails only
 * when memory runs out; anything odd in the input becomes a note.
 */
int report_compare(struct report *r, enum report_kind kind,
		   const struct report_side *old, const struct report_side *new,
		   int force, struct plumb_err *err);

void report_release(struct report *r);

#endif
