/*
 * reports/bisect.h: the report of a `plumb bisect` (formats/bisect.h) as
 * one JSON document, the model every view renders (views/bisect.c) and the
 * layout of its JSON output and of the bisect folder's bisect.json
 * (docs/bisect-json.md): the commits, every comparison with its range,
 * verdict and sides, and the result with its one-line summary.
 *
 * Strings that came from the repository (subjects, authors) are kept as
 * they are: every view escapes them for its format.
 *
 * Ownership: bisect_report_doc() returns a new reference (NULL when memory
 * runs out); the record is borrowed.
 */
#ifndef PLUMB_REPORTS_BISECT_H
#define PLUMB_REPORTS_BISECT_H

#include <jansson.h>

#include "formats/bisect.h"

#define BISECT_REPORT_VERSION 1

json_t *bisect_report_doc(const struct bisect_record *rec);

/* Limits of a bisect.json read back (docs/bisect-json.md). */
#define BISECT_REPORT_MAX_BYTES ((size_t)64 << 20)
#define BISECT_REPORT_MAX_COMMITS 100001
#define BISECT_REPORT_MAX_STEPS 4096

struct plumb_err;

/*
 * Read a bisect folder's bisect.json (`plumb bisect --show DIR`) as
 * hostile input: within the limits above, format "plumb-bisect", version
 * BISECT_REPORT_VERSION, and every member the views read of its type,
 * commit indexes within commits[].  *doc is a new reference; on failure
 * PLUMB_EINPUT naming the file and the JSON path.
 */
int bisect_report_load(const char *path, json_t **doc, struct plumb_err *err);

#endif
