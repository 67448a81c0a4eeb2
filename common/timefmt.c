/*
 * common/timefmt.c: RFC 3339 output and ISO 8601 input in UTC, without
 * the C library's time zone machinery (timegm is not standard C and
 * gmtime is banned), so results never depend on TZ.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/timefmt.h"
#include "common/banned.h"

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
	/* Howard Hinnant's algorithm: shifts the year to start in March. */
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static int is_leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Read exactly n decimal digits at *p; -1 when they are not there. */
static int digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		char c = (*p)[i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	*p += n;
	*out = v;
	return 0;
}

int timefmt_parse(const char *s, int64_t *out)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	const char *p = s;
	int y, mo, d, h = 0, mi = 0, sec = 0, off = 0;

	if (digits(&p, 4, &y) < 0 || *p++ != '-' || digits(&p, 2, &mo) < 0 ||
	    *p++ != '-' || digits(&p, 2, &d) < 0)
		return -1;
	if (mo < 1 || mo > 12 || d < 1 ||
	    d > mdays[mo - 1] + (mo == 2 && is_leap(y)))
		return -1;
	if (*p == 'T' || *p == 't' || *p == ' ') {
		p++;
		if (digits(&p, 2, &h) < 0 || *p++ != ':' || digits(&p, 2, &mi) < 0)
			return -1;
		if (*p == ':') {
			p++;
			if (digits(&p, 2, &sec) < 0)
				return -1;
			if (*p == '.' || *p == ',') {
				p++;
				if (*p < '0' || *p > '9')
					return -1;
				while (*p >= '0' && *p <= '9')
					p++;
			}
		}
		if (h > 23 || mi > 59 || sec > 60)
			return -1;
		if (*p == 'Z' || *p == 'z') {
			p++;
		} else if (*p == '+' || *p == '-') {
			int sign = *p++ == '-' ? -1 : 1, oh, om;
			if (digits(&p, 2, &oh) < 0)
				return -1;
			if (*p == ':')
				p++;
			if (digits(&p, 2, &om) < 0 || oh > 23 || om > 59)
				return -1;
			off = sign * (oh * 3600 + om * 60);
		}
	}
	if (*p)
		return -1;
	*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - off;
	return 0;
}

void timefmt_format(int64_t t, char *out)
{
	int64_t days = t / 86400, rem = t % 86400, y;
	int m, d;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	civil_from_days(days, &y, &m, &d);
	if (y < 0 || y > 9999) {
		snprintf(out, TIMEFMT_LEN, "%s", y < 0 ? "0000-01-01T00:00:00Z" : "9999-12-31T23:59:59Z");
		return;
	}
	snprintf(out, TIMEFMT_LEN, "%04d-%02d-%02dT%02d:%02d:%02dZ", (int)y, m, d,
		 (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
}
