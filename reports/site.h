/*
 * reports/site.h: `plumb report --archive-index -o DIR/`: a static set of
 * HTML pages over the archive (docs/archive-index.md).  index.html lists
 * each host class with the latest night of each of its benchmarks; a page
 * per class shows its facts, its benchmarks and their change points; a
 * page per benchmark and class shows the series' trend chart and change
 * points (reports/trend.h: the same rendering as `report --trend`).  No
 * script, nothing loaded from anywhere; every string escaped; the same
 * archive gives the same bytes.
 *
 * The folder is written whole into a temporary folder beside DIR, which
 * then takes DIR's place in one rename (an exchange with the old folder
 * when there is one, which is then removed), so a reader sees the old
 * site or the new one, never a mix, and no stale page survives.
 *
 * Ownership: the options only borrow their strings.
 */
#ifndef PLUMB_REPORTS_SITE_H
#define PLUMB_REPORTS_SITE_H

#include <stddef.h>

struct plumb_err;

/* The file that marks a folder as written by site_write() (safe to replace). */
#define SITE_MARKER ".plumb-site"

struct site_opts {
	const char *archive_dir;   /* NULL: the default archive */
	const char *out;           /* the folder to write (a trailing '/' is fine) */
};

struct site_result {
	size_t classes;   /* host classes */
	size_t series;    /* benchmark pages */
	size_t pages;     /* every page, index.html included */
};

/*
 * Write the pages.  An existing DIR is replaced only when it is empty or
 * holds SITE_MARKER (else PLUMB_EINPUT naming it); DIR is untouched on
 * any failure.
 */
int site_write(const struct site_opts *o, struct site_result *res, struct plumb_err *err);

#endif
