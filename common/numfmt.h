/*
 * common/numfmt.h: one way to print a double, exactly and briefly.
 *
 * Used wherever plumb writes a number that a program may read back
 * (samples.tsv, JSON, reports): a whole number of magnitude below 2^53 is
 * printed as an integer ("42", never "42.0" or "4.2e+01"), anything else
 * in the shortest "%.{15,16,17}g" form that reads back to the same double
 * ("0.1", "1e+300").  The C locale's decimal point is assumed, as
 * everywhere in plumb (it never calls setlocale).
 *
 * Ownership: the caller owns the output buffer.
 */
#ifndef PLUMB_COMMON_NUMFMT_H
#define PLUMB_COMMON_NUMFMT_H

#include <stddef.h>

/* Room for any output of numfmt_double, NUL included. */
#define NUMFMT_MAX 32

/*
 * Format v into out (size >= NUMFMT_MAX); -0 prints as "0".  Returns the
 * length, or -1 for NaN or an infinity (out is then "null").
 */
int numfmt_double(double v, char *out, size_t size);

#endif
