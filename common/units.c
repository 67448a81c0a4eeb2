/*
 * common/units.c: numbers as plumb prints them; see units.h.
 */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "common/banned.h"

void units_scale(double v, enum units_dim dim, int ascii, struct units_scale *s)
{
	static const struct { double div; const char *suffix; } time_units[] = {
		{ 1e9, " s" }, { 1e6, " ms" }, { 1e3, " \u00b5s" }, { 1, " ns" },
	}, count_units[] = {
		{ 1e12, " T" }, { 1e9, " G" }, { 1e6, " M" }, { 1e3, " k" }, { 1, "" },
	};
	int time = dim == UNITS_TIME_NS;
	double a = fabs(v);
	size_t i, n;

	n = time ? sizeof(time_units) / sizeof(time_units[0])
		 : sizeof(count_units) / sizeof(count_units[0]);
	for (i = 0; i + 1 < n; i++) {
		double div = time ? time_units[i].div : count_units[i].div;
		/* 999.96 would print as "1000": move up a unit before that. */
		if (a >= div * 0.99995)
			break;
	}
	s->div = time ? time_units[i].div : count_units[i].div;
	s->suffix = time ? time_units[i].suffix : count_units[i].suffix;
	if (time && ascii && s->div == 1e3)
		s->suffix = " us";
}

/* Make '.' the decimal point whatever the locale printed. */
static void c_point(char *out)
{
	const char *dp = localeconv()->decimal_point;
	char c = dp && dp[0] && !dp[1] && dp[0] != '.' ? dp[0] : ',';

	for (char *p = out; *p; p++)
		if (*p == c)
			*p = '.';
}

/* snprintf with '.' as the decimal point whatever the locale. */
static void fixed(char *out, size_t size, int decimals, double v)
{
	snprintf(out, size, "%.*f", decimals, v);
	c_point(out);
}

void units_number(double v, const struct units_scale *s, char out[UNITS_MAX])
{
	double x, a;
	int decimals;

	if (isnan(v)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	x = v / s->div;
	a = fabs(x);
	/* Four significant digits; whole counts need no fraction. */
	if (s->div == 1 && x == floor(x) && a < 1e15)
		decimals = 0;
	else if (a >= 999.95)
		decimals = 0;
	else if (a >= 99.995)
		decimals = 1;
	else if (a >= 9.9995)
		decimals = 2;
	else
		decimals = 3;
	fixed(out, UNITS_MAX, decimals, x);
	if (strcmp(out, "-0") == 0 || strcmp(out, "-0.0") == 0 ||
	    strcmp(out, "-0.00") == 0 || strcmp(out, "-0.000") == 0)
		memmove(out, out + 1, strlen(out));
}

void units_value(double v, enum units_dim dim, int ascii, char out[UNITS_MAX])
{
	struct units_scale s;
	char num[UNITS_MAX];

	if (isnan(v)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	units_scale(v, dim, ascii, &s);
	units_number(v, &s, num);
	snprintf(out, UNITS_MAX, "%s%s", num, s.suffix);
}

void units_ratio(double r, char out[UNITS_MAX])
{
	if (isnan(r) || isinf(r))
		snprintf(out, UNITS_MAX, "n/a");
	else
		fixed(out, UNITS_MAX, 3, r);
}

void units_percent(double f, char out[UNITS_MAX])
{
	double p = f * 100;
	size_t n;

	if (isnan(f) || isinf(f)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	fixed(out, UNITS_MAX - 1, fabs(p) < 9.995 ? 2 : 1, p);
	n = strlen(out);
	out[n] = '%';
	out[n + 1] = '\0';
}

void units_fixed(double v, enum units_dim dim, char out[UNITS_MAX])
{
	static const struct fixed_row { double below, div; int decimals; const char *suffix; } time_rows[] = {
		{ 1e3, 1, 0, " ns" }, { 1e6, 1e3, 2, " us" }, { 1e9, 1e6, 2, " ms" }, { 0, 1e9, 3, " s" },
	}, count_rows[] = {
		{ 1e4, 1, 0, "" }, { 1e6, 1e3, 1, " k" }, { 1e9, 1e6, 2, " M" }, { 0, 1e9, 3, " G" },
	};
	const struct fixed_row *row = dim == UNITS_TIME_NS ? time_rows : count_rows;
	size_t i = 0;

	if (isnan(v)) {
		snprintf(out, UNITS_MAX, "-");
		return;
	}
	while (i < 3 && !(v < row[i].below))
		i++;
	fixed(out, UNITS_MAX, row[i].decimals, v / row[i].div);
	snprintf(out + strlen(out), UNITS_MAX - strlen(out), "%s", row[i].suffix);
}

void units_kib(long long kb, char out[UNITS_MAX])
{
	if (kb >= 1024LL * 1024) {
		fixed(out, UNITS_MAX, 1, (double)kb / (1024.0 * 1024.0));
		snprintf(out + strlen(out), UNITS_MAX - strlen(out), " GiB");
	} else if (kb >= 1024) {
		snprintf(out, UNITS_MAX, "%lld MiB", kb / 1024);
	} else {
		snprintf(out, UNITS_MAX, "%lld kB", kb);
	}
}

void units_khz(long long khz, char out[UNITS_MAX])
{
	if (khz < 1000000) {
		snprintf(out, UNITS_MAX, "%lld MHz", khz / 1000);
	} else {
		fixed(out, UNITS_MAX, 2, (double)khz / 1e6);
		snprintf(out + strlen(out), UNITS_MAX - strlen(out), " GHz");
	}
}

char *units_put_u64(char *p, uint64_t v)
{
	/* Two digits per division, written in place from the end: a run's
	 * values have 6 to 10 digits. */
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	size_t n = 1;
	char *end, *t;

	while (n < 20 && v >= pow10[n])
		n++;
	end = t = p + n;
	while (v > UINT32_MAX) {
		const char *d = pairs + 2 * (v % 100);
		v /= 100;
		*--t = d[1];
		*--t = d[0];
	}
	/* The rest in 32 bits, whose divisions by 100 are cheaper. */
	uint32_t u = (uint32_t)v;
	while (u >= 100) {
		const char *d = pairs + 2 * (u % 100);
		u /= 100;
		*--t = d[1];
		*--t = d[0];
	}
	v = u;
	if (v >= 10) {
		*--t = pairs[2 * v + 1];
		*--t = pairs[2 * v];
	} else {
		*--t = (char)('0' + v);
	}
	return end;
}

char *units_put_i64(char *p, int64_t v)
{
	if (v < 0)
		*p++ = '-';
	return units_put_u64(p, v < 0 ? -(uint64_t)v : (uint64_t)v);
}

/*
 * v as "%.15g" prints it when v is the double nearest a decimal of at most
 * three places below 10^12 (a load average, most reals a manifest holds),
 * put together by hand; 0 for any other v (shortest_g() prints it).
 * Why it is the same: k / 10^d == v, computed exactly and rounded once,
 * says v is the double nearest x = k / 10^d, so |v - x| <= 2^-53 |x|.  x
 * has at most 15 significant digits and its last is no finer than
 * "%.15g"'s (|x| < 10^12, d <= 3), whose neighbouring 15-digit numbers are
 * more than 10^-15 |x| apart: rounding v to 15 digits gives x, printed in
 * fixed notation (its exponent is between -3 and 11) without the trailing
 * zeros, and x reads back as v, so shortest_g() would stop at 15 with it.
 */
static int short_decimal(double v, char out[UNITS_EXACT_MAX])
{
	static const double scale[] = { 10, 100, 1000 };
	double a = fabs(v);
	char *p = out;

	if (a == 0 || !(a < 1e12))
		return 0;
	for (int d = 1; d <= 3; d++) {
		double k = nearbyint(a * scale[d - 1]);
		uint64_t ki, ip, fp, div = (uint64_t)scale[d - 1];
		char frac[3];
		int nf = d;

		if (k / scale[d - 1] != a)
			continue;
		ki = (uint64_t)k;
		ip = ki / div;
		fp = ki % div;
		if (v < 0)
			*p++ = '-';
		p = units_put_u64(p, ip);
		for (int i = d - 1; i >= 0; i--, fp /= 10)
			frac[i] = (char)('0' + fp % 10);
		while (nf > 0 && frac[nf - 1] == '0')
			nf--;
		if (nf > 0) {
			*p++ = '.';
			memcpy(p, frac, (size_t)nf);
			p += nf;
		}
		*p = '\0';
		return (int)(p - out);
	}
	return 0;
}

/* The shortest "%.15g" to "%.17g" of v that reads back as v. */
static int shortest_g(double v, char out[UNITS_EXACT_MAX])
{
	int n = -1;

	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(out, UNITS_EXACT_MAX, "%.*g", prec, v);
		c_point(out);
		if (strtod(out, NULL) == v)
			break;
	}
	return n;
}

int units_exact(double v, enum units_exact_form form, char out[UNITS_EXACT_MAX])
{
	int n = -1;

	if (!isfinite(v)) {
		snprintf(out, UNITS_EXACT_MAX, "null");
		return -1;
	}
	if (form == UNITS_EXACT_PLAIN) {
		if (v == 0)   /* -0 too, which "%g" would print as "-0" */
			return snprintf(out, UNITS_EXACT_MAX, "0");
		if (fabs(v) < 9007199254740992.0 && v == floor(v)) {
			/* "%lld" by hand: every sample row of a run goes through here. */
			char *p = units_put_i64(out, (int64_t)v);
			*p = '\0';
			return (int)(p - out);
		}
	}
	if ((n = short_decimal(v, out)) == 0)
		n = shortest_g(v, out);
	if (form == UNITS_EXACT_REAL && !strpbrk(out, ".eE") && n + 3 <= UNITS_EXACT_MAX) {
		memcpy(out + n, ".0", 3);
		n += 2;
	}
	return n;
}
