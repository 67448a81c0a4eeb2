/*
 * common/timefmt.h: timestamps as plumb writes and reads them: RFC 3339
 * in UTC ("2026-03-01T02:00:00Z") for output, and the ISO 8601 forms a
 * user or a manifest gives ("2026-03-01", "2026-03-01T02:00",
 * "2026-03-01T03:00:00+01:00", fractions of a second ignored) for input.
 * Never the local time zone, so output does not depend on TZ.
 *
 * Ownership: nothing is allocated; output goes to caller storage.
 */
#ifndef PLUMB_COMMON_TIMEFMT_H
#define PLUMB_COMMON_TIMEFMT_H

#include <stdint.h>

#define TIMEFMT_LEN 21   /* "YYYY-MM-DDTHH:MM:SSZ" and its NUL */

/*
 * Parse s into seconds since the epoch.  A date alone is midnight UTC; a
 * time without an offset is UTC.  Returns 0, or -1 when s is not such a
 * timestamp (a field out of range, trailing text).
 */
int timefmt_parse(const char *s, int64_t *out);

/* Format t as "YYYY-MM-DDTHH:MM:SSZ" into out (TIMEFMT_LEN bytes). */
void timefmt_format(int64_t t, char *out);

#endif
