/*
 * formats/manifest-sweep.h: run.sweep, the record of the adaptive sweep
 * (run.pads = auto), an optional member of bundle version 1 kept as a JSON
 * object (struct manifest_run.sweep) and checked here, member by member
 * (formats/bundle-v1.md and manifest-fields.md define it):
 *
 *   startPads    integer >= 1: pads per side of the first sweep
 *   maxPads      integer >= startPads: run.maxPads
 *   budgetNs     integer >= 0: run.budget
 *   pads         integer >= startPads, <= maxPads: pads per side at the end
 *   stopped      "decided" | "maxPads" | "budget"
 *   spentNs      integer >= 0: measuring time, first warmup run to last round
 *   extensions   array, one object per extension, in order:
 *     padsBefore, padsAfter   integers, padsBefore < padsAfter
 *     rounds                  integer >= 1: rounds of every variant it added
 *     atNs, ns                integers >= 0: when it started, how long it took
 *     undecided               array of {bench, verdict, why}: why it was made
 *     after                   array of {bench, verdict, undecided (bool), why?}
 *   final        array of {bench, verdict, undecided, why?}: the state at the end
 * padsAfter of one extension is padsBefore of the next; the first starts at
 * startPads and the last ends at pads.
 *
 * Ownership: only reads the object.
 */
#ifndef PLUMB_FORMATS_MANIFEST_SWEEP_H
#define PLUMB_FORMATS_MANIFEST_SWEEP_H

#include <jansson.h>

struct plumb_err;

/* 0, or PLUMB_EINPUT naming the member ("run.sweep.extensions[0].padsAfter: ..."). */
int manifest_sweep_check(const json_t *sweep, struct plumb_err *err);

#endif
