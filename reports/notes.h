/*
 * reports/notes.h: a compared benchmark's remarks (reports/notes.c).
 *
 * Ownership: the notes belong to the benchmark's model (struct
 * report_bench.notes); report_release() (reports/compare.h) frees them.
 */
#ifndef PLUMB_REPORTS_NOTES_H
#define PLUMB_REPORTS_NOTES_H

#include "reports/model.h"

struct plumb_err;

/* The longest remark, in bytes: a longer one is replaced by a short line. */
#define REPORT_NOTE_MAX 4096

/* Append a remark to b's notes (a printf format); 0 or PLUMB_EINTERNAL. */
int report_add_note(struct report_bench *b, struct plumb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
