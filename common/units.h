/*
 * common/units.h: every number plumb prints, in one family.
 *
 * For people (text, Markdown, HTML, tables): a unit chosen per value (ns
 * to s for times, plain to T for counts), four significant digits, ratios
 * and percentages, sizes and frequencies.  For programs (samples.tsv,
 * JSON): units_exact(), the shortest decimal form that reads back to the
 * same double.  Independent of the locale, so golden outputs hold.
 *
 * One precision per kind of number, wherever it is printed:
 *   a ratio           three decimals ("0.943"; units_ratio);
 *   a percentage      two decimals below 10 %, one above ("3.58%", "12.5%";
 *                     units_percent);
 *   seconds of work   two decimals ("0.80 s", "83.21 s"; units_seconds):
 *                     builds, valgrind runs, estimates in progress lines;
 *   a measured value  four significant digits with its unit (units_value);
 *   a count of events a whole number ("12345678"; units_whole);
 *   a rule's setting  as people write it, up to six significant digits
 *                     ("99%", "0.5%", "99.6667%"; units_level): a
 *                     confidence level, a minimum effect, a limit;
 *   a change          a ratio as a signed percentage ("+11.8%", "−3.05%",
 *                     with the minus sign U+2212; units_change);
 *   a p-value         two significant digits ("0.0022", "0.31"; units_p);
 *   a load average    two decimals ("1.25"; units_load);
 *   a value a message names, as read: every digit it has ("0.1",
 *                     "1e+300", "nan"; units_as_read), the form of
 *                     units_exact() with words for what JSON cannot hold.
 *
 * Ownership: every function writes into a caller's array; nothing here
 * allocates.
 */
#ifndef PLUMB_COMMON_UNITS_H
#define PLUMB_COMMON_UNITS_H

#include <stddef.h>

#define UNITS_MAX 48   /* bytes of one formatted value, NUL included */

/* What a value measures, which decides its units. */
enum units_dim {
	UNITS_COUNT,     /* plain, k, M, G, T */
	UNITS_TIME_NS,   /* nanoseconds: ns, µs (or us), ms, s */
};

/* A unit chosen for a value and used for its neighbours (a range). */
struct units_scale {
	double div;           /* value / div is printed */
	const char *suffix;   /* " ms", " M", "" */
};

/* Pick the unit for v of dimension dim; ascii selects "us" over "µs". */
void units_scale(double v, enum units_dim dim, int ascii, struct units_scale *s);

/* v in scale s with four significant digits, without the suffix ("101.2"). */
void units_number(double v, const struct units_scale *s, char out[UNITS_MAX]);

/* v with its own unit ("101.2 ms"); "n/a" when v is NAN. */
void units_value(double v, enum units_dim dim, int ascii, char out[UNITS_MAX]);

/* "0.943"; "n/a" when NAN. */
void units_ratio(double r, char out[UNITS_MAX]);

/* A fraction as a percentage: "3.58%" (below 10 %), "12.5%"; "n/a" for NAN. */
void units_percent(double f, char out[UNITS_MAX]);

/* A ratio as a signed change: "+11.8%", "−3.05%" (U+2212); "n/a" for NAN. */
void units_change(double ratio, char out[UNITS_MAX]);

/* A setting given as a fraction, as a percentage: "99%", "99.6667%"; "n/a" for NAN. */
void units_level(double f, char out[UNITS_MAX]);

/* A p-value: "0.0022", "0.31", "1"; "n/a" for NAN. */
void units_p(double p, char out[UNITS_MAX]);

/* A load average: "1.25"; "n/a" for NAN. */
void units_load(double l, char out[UNITS_MAX]);

/* A value as read, for a message about it: "0.1", "-3", "nan", "inf", "-inf". */
void units_as_read(double v, char out[UNITS_MAX]);

/*
 * The short form of the end-of-run summary: fixed decimals per unit
 * ("512 ns", "1.50 us", "812.35 ms", "2.500 s"; "9999", "12.3 k",
 * "1.20 M", "1.200 G"), "-" for NAN.
 */
void units_fixed(double v, enum units_dim dim, char out[UNITS_MAX]);

/* Seconds, two decimals: "0.80 s"; "n/a" when NAN. */
void units_seconds(double s, char out[UNITS_MAX]);

/* A count as a whole number, rounded: "12345678"; "n/a" when NAN. */
void units_whole(double v, char out[UNITS_MAX]);

/* A size in kB: "8.0 GiB", "259 MiB", "12 kB". */
void units_kib(long long kb, char out[UNITS_MAX]);

/* A frequency in kHz: "3.40 GHz", "800 MHz". */
void units_khz(long long khz, char out[UNITS_MAX]);

/* How units_exact() writes a value. */
enum units_exact_form {
	/* a whole number below 2^53 as an integer ("42"), -0 as "0" (samples.tsv) */
	UNITS_EXACT_PLAIN,
	/* a JSON real: a whole number keeps a point ("42.0"), -0 is "-0.0" */
	UNITS_EXACT_REAL,
};

#define UNITS_EXACT_MAX 32   /* bytes of units_exact()'s output, NUL included */

/*
 * v in the shortest "%.{15,16,17}g" form that reads back to the same
 * double ("0.1", "1e+300"), with '.' as the decimal point whatever the
 * locale.  Returns the length, or -1 for NaN or an infinity (out is then
 * "null").
 */
int units_exact(double v, enum units_exact_form form, char out[UNITS_EXACT_MAX]);

#endif
