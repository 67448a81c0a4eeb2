/*
 * common/numfmt.c: exact, short decimal forms of doubles; see numfmt.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/numfmt.h"
#include "common/banned.h"

int numfmt_double(double v, char *out, size_t size)
{
	if (size < NUMFMT_MAX)
		return -1;
	if (!isfinite(v)) {
		snprintf(out, size, "null");
		return -1;
	}
	if (v == 0)   /* -0 too, which "%g" would print as "-0" */
		return snprintf(out, size, "0");
	if (fabs(v) < 9007199254740992.0 && v == floor(v))
		return snprintf(out, size, "%lld", (long long)v);
	for (int prec = 15; prec < 17; prec++) {
		int n = snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return n;
	}
	return snprintf(out, size, "%.17g", v);
}
