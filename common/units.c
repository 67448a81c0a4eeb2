/*
 * common/units.c: numbers as plumb prints them; see units.h.
 */
#include <locale.h>
#include <math.h>
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

void units_change(double ratio, char out[UNITS_MAX])
{
	char p[UNITS_MAX];

	if (isnan(ratio) || isinf(ratio)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	units_percent(fabs(ratio - 1), p);
	snprintf(out, UNITS_MAX, "%s%.40s", ratio < 1 ? "\u2212" : "+", p);
}

void units_level(double f, char out[UNITS_MAX])
{
	size_t n;

	if (isnan(f) || isinf(f)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	snprintf(out, UNITS_MAX - 1, "%g", f * 100);
	c_point(out);
	n = strlen(out);
	out[n] = '%';
	out[n + 1] = '\0';
}

void units_p(double p, char out[UNITS_MAX])
{
	if (isnan(p) || isinf(p)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	snprintf(out, UNITS_MAX, "%.2g", p);
	c_point(out);
}

void units_load(double l, char out[UNITS_MAX])
{
	if (isnan(l) || isinf(l)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	fixed(out, UNITS_MAX, 2, l);
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

void units_seconds(double s, char out[UNITS_MAX])
{
	if (isnan(s) || isinf(s)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	fixed(out, UNITS_MAX - 2, 2, s);
	snprintf(out + strlen(out), UNITS_MAX - strlen(out), " s");
}

void units_whole(double v, char out[UNITS_MAX])
{
	if (isnan(v) || isinf(v))
		snprintf(out, UNITS_MAX, "n/a");
	else
		fixed(out, UNITS_MAX, 0, v);
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

/*
 * The shortest "%.15g" to "%.17g" of v that reads back as v (read back in
 * the locale it was printed in, then given a '.').
 */
static int shortest_g(double v, char out[UNITS_EXACT_MAX])
{
	int n = -1;

	for (int prec = 15; prec <= 17; prec++) {
		n = snprintf(out, UNITS_EXACT_MAX, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			break;
	}
	c_point(out);
	return n;
}

void units_as_read(double v, char out[UNITS_MAX])
{
	if (isnan(v))
		snprintf(out, UNITS_MAX, "nan");
	else if (isinf(v))
		snprintf(out, UNITS_MAX, "%sinf", v < 0 ? "-" : "");
	else
		units_exact(v, UNITS_EXACT_PLAIN, out);
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
		if (fabs(v) < 9007199254740992.0 && v == floor(v))
			return snprintf(out, UNITS_EXACT_MAX, "%lld", (long long)v);
	}
	n = shortest_g(v, out);
	if (form == UNITS_EXACT_REAL && !strpbrk(out, ".eE") && n + 3 <= UNITS_EXACT_MAX) {
		memcpy(out + n, ".0", 3);
		n += 2;
	}
	return n;
}
