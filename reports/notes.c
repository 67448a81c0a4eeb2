/*
 * reports/notes.c: a compared benchmark's remarks (notes.h): one line
 * each, appended by the model's builder (compare.c) and by the reading of
 * the simulated counts (simulated.c), and printed by every renderer.
 * Apart from both so that neither depends on the other for it.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "common/buf.h"
#include "common/err.h"
#include "reports/notes.h"
#include "common/banned.h"

int report_add_note(struct report_bench *b, struct plumb_err *err, const char *fmt, ...)
{
	struct buf t;
	char **notes;
	va_list ap;
	int rc;

	notes = realloc(b->notes, (b->n_notes + 1) * sizeof(*notes));
	if (!notes)
		return plumb_err_oom(err, "report notes");
	b->notes = notes;
	buf_init(&t, REPORT_NOTE_MAX);
	va_start(ap, fmt);
	rc = buf_vprintf(&t, fmt, ap);
	va_end(ap);
	if (rc < 0) {
		/* Longer than a note may be (a hostile name): keep what fits. */
		buf_release(&t);
		if (buf_addstr(&t, "(a remark too long to show)") < 0)
			return plumb_err_oom(err, "report notes");
	}
	notes[b->n_notes] = buf_detach(&t, NULL);
	if (!notes[b->n_notes])
		return plumb_err_oom(err, "report notes");
	b->n_notes++;
	return 0;
}
