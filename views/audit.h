/*
 * views/audit.h: what `plumb audit` prints (reports/audit.h): one report
 * in four parts (integrity, consistency, provenance, re-analysis under
 * today's rule), each with a pass/fail line, as text, Markdown, HTML or
 * JSON.  All four formats render one document built from the audit and
 * its manifest, so they cannot disagree; every string of the bundle is
 * escaped for its format.
 *
 * Nothing of today (date, host) is printed: the same bundle audits to the
 * same bytes on any machine and any day (tests/fixtures/audit/).
 *
 * Ownership: the audit is borrowed; text is appended to the caller's buf.
 */
#ifndef PLUMB_VIEWS_AUDIT_H
#define PLUMB_VIEWS_AUDIT_H

struct audit;
struct buf;
struct plumb_err;

enum view_audit_format { VIEW_AUDIT_TEXT, VIEW_AUDIT_MD, VIEW_AUDIT_HTML, VIEW_AUDIT_JSON };

/* "text", "md", "html", "json": 0, or -1 for another name. */
int view_audit_format_parse(const char *s, enum view_audit_format *out);

/* Version of the JSON layout (docs/audit-json.md). */
#define VIEW_AUDIT_JSON_VERSION 1

int view_audit(const struct audit *a, enum view_audit_format f, struct buf *out,
	       struct plumb_err *err);

#endif
