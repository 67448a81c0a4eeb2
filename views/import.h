/*
 * views/import.h: what `plumb import` prints: the sources' warnings and
 * the entries left out (standard error), and the line naming the bundle
 * written (standard output).  Names and paths come from the imported
 * files: every one is escaped here.
 *
 * Ownership: files and the result are borrowed; text is appended to the
 * caller's struct buf.
 */
#ifndef PLUMB_VIEWS_IMPORT_H
#define PLUMB_VIEWS_IMPORT_H

#include <stddef.h>

#include <jansson.h>

struct buf;
struct import_file;
struct import_result;

/* "plumb import: warning: ..." lines, one per warning of every file. */
int view_import_warnings(const struct import_file *files, size_t n, struct buf *out);

/* "plumb import: left out: ..." lines, one per entry without a partner. */
int view_import_skipped(const struct import_result *res, struct buf *out);

/* "OUT: bundle ID, N benchmarks imported from TOOL[ (signed)]". */
/* {"bundle", "id", "benches", "tool", "signed", "leftOut": [...]}; NULL out of memory. */
json_t *view_import_done_json(const char *out_path, const struct import_result *res,
			     const char *tool, int is_signed);

int view_import_done(const char *out_path, const struct import_result *res,
		     const char *tool, int is_signed, struct buf *out);

#endif
