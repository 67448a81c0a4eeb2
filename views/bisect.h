/*
 * views/bisect.h: what `plumb bisect` prints: the report document of
 * reports/bisect.h as text, Markdown, HTML (the path as a picture: the
 * commits on an axis, each comparison's range and its two commits) or
 * JSON (docs/bisect-json.md).  Every string from the repository is escaped
 * for its format.  The progress lines of a running bisect are here too.
 *
 * Ownership: the record is borrowed; text is appended to the caller's buf.
 */
#ifndef PLUMB_VIEWS_BISECT_H
#define PLUMB_VIEWS_BISECT_H

#include <stddef.h>

#include "formats/bisect.h"

struct buf;
struct plumb_err;

enum view_bisect_format { VIEW_BISECT_TEXT, VIEW_BISECT_MD, VIEW_BISECT_HTML, VIEW_BISECT_JSON };

/* "text", "md", "html", "json": 0, or -1 for another name. */
int view_bisect_format_parse(const char *s, enum view_bisect_format *out);

int view_bisect(const struct bisect_record *rec, enum view_bisect_format f, struct buf *out,
		struct plumb_err *err);

/* The same from the report document (reports/bisect.h: built, or read back
 * and checked by bisect_report_load()). */
#include <jansson.h>
int view_bisect_doc(const json_t *doc, enum view_bisect_format f, struct buf *out, struct plumb_err *err);

/* One progress line, escaped for a terminal: "comparison 3 (step): 1a2b.. against 3c4d.., 64 commits left". */
int view_bisect_step_start(const struct bisect_record *rec, enum bisect_kind kind, size_t base,
			   size_t candidate, struct buf *out);
/* One line after a comparison: "comparison 3: slower (ratio 1.102), 4 built, 5 cached". */
int view_bisect_step_done(const struct bisect_record *rec, const struct bisect_step *s,
			  struct buf *out);

#endif
