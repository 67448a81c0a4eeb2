/*
 * views/host.h: what `plumb host` prints, from the facts and findings of
 * runner/host-types.h and runner/host-check.h: an aligned table, the
 * readiness findings, or one JSON object (keys in docs/host-facts.md)
 * written by the one JSON writer (formats/jsonio.h), reals exact.
 *
 * Ownership: the facts and findings are borrowed; text is appended to the
 * caller's struct buf.
 */
#ifndef PLUMB_VIEWS_HOST_H
#define PLUMB_VIEWS_HOST_H

struct buf;
struct host_check;
struct host_facts;
struct plumb_err;

/* The facts as an aligned two-column table. */
int view_host_facts(const struct host_facts *hf, struct buf *out, struct plumb_err *err);

/* The findings, one "warning:"/"note:" line and a "fix:" line each, then the counts. */
int view_host_check(const struct host_check *hc, struct buf *out, struct plumb_err *err);

/* The facts and, when hc is not NULL, the findings: as text, or one JSON object. */
int view_host(const struct host_facts *hf, const struct host_check *hc, int json,
	      struct buf *out, struct plumb_err *err);

#endif
