/*
 * views/transfer.h: the lines of `plumb archive push` and `pull`
 * (archive/transfer.h): one progress line per bundle on the way, and the
 * summary from the same JSON model that --json prints.
 *
 * Ownership: everything is borrowed.
 */
#ifndef PLUMB_VIEWS_TRANSFER_H
#define PLUMB_VIEWS_TRANSFER_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "archive/transfer.h"

/* "push: 3/10 ID sent" or "push: 4/10 ID refused: REASON". */
void view_transfer_progress(FILE *out, const char *verb, size_t i, size_t n, const char *id,
			    enum transfer_status status, const char *reason);

/* "push to WHERE: 2 sent, 7 already there, 1 refused" (where escaped). */
void view_transfer(const json_t *model, const char *verb, const char *where, FILE *out);

/* The refused ids, space-separated, on one line after "LEAD" (nothing when none). */
void view_transfer_refused(const json_t *model, const char *lead, FILE *out);

#endif
