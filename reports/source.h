/*
 * reports/source.h: what a report reads, and where from
 * (reports/source.c): a bundle file, an unpacked bundle folder, a bare
 * manifest.json, an archived bundle id or a baseline name, loaded into
 * the struct report_source of reports/model.h.
 *
 * Ownership: struct report_source is caller-owned storage filled by
 * report_source_load() or report_source_find() and freed by
 * report_source_release(); a struct report_side made of it borrows it.
 */
#ifndef PLUMB_REPORTS_SOURCE_H
#define PLUMB_REPORTS_SOURCE_H

#include "reports/model.h"

struct plumb_err;

void report_source_init(struct report_source *s);
void report_source_release(struct report_source *s);

/*
 * Load what path names: a bundle file (verified completely first), a
 * folder (an unpacked bundle: checked against its SHA256SUMS when it has
 * one, else unverified; its samples.tsv, when present, checked against
 * the manifest as a bundle's are), or a bare manifest.json (unverified).  Errors are PLUMB_EINPUT naming path (and the member,
 * JSON path or TSV line).
 */
int report_source_load(struct report_source *s, const char *path,
		       struct plumb_err *err);

/*
 * Find what a command line names: an existing path (a bundle file, a
 * folder or a manifest.json: report_source_load()), else, in the archive
 * in dir (NULL: the default archive), a baseline name when baseline is
 * set (its recorded side), else an archived bundle id or unique prefix of
 * at least 4 hex digits (its candidate side).  Nothing found is
 * PLUMB_EINPUT naming what.
 */
int report_source_find(struct report_source *s, const char *what,
		       const char *dir, int baseline, struct plumb_err *err);

/* The report_side view of a loaded source (its candidate side unless told). */
void report_source_side(const struct report_source *s, enum manifest_side side,
			struct report_side *out);

/* The report_side of a manifest held elsewhere (verified, no baseline, no
 * distributions): bundle is its id, origin the path it was written to. */
void report_side_of(const struct manifest *m, enum manifest_side side, const char *bundle,
		    const char *origin, struct report_side *out);

#endif
