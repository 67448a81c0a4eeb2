/*
 * reports/units.c: numbers as the reports print them: a unit chosen per
 * value (ns to s, or plain counts to T), four significant digits, ratios
 * and percentages.  Independent of the locale, so golden outputs hold.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/render.h"
#include "common/banned.h"

void units_scale(double v, enum manifest_metric metric, int ascii,
		 struct units_scale *s)
{
	static const struct { double div; const char *suffix; } time_units[] = {
		{ 1e9, " s" }, { 1e6, " ms" }, { 1e3, " \u00b5s" }, { 1, " ns" },
	}, count_units[] = {
		{ 1e12, " T" }, { 1e9, " G" }, { 1e6, " M" }, { 1e3, " k" }, { 1, "" },
	};
	int time = metric == MANIFEST_METRIC_WALL || metric == MANIFEST_METRIC_CPU;
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

/* snprintf with '.' as the decimal point whatever the locale. */
static void fixed(char *out, size_t size, int decimals, double v)
{
	snprintf(out, size, "%.*f", decimals, v);
	for (char *p = out; *p; p++)
		if (*p == ',')
			*p = '.';
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

void units_value(double v, enum manifest_metric metric, int ascii,
		 char out[UNITS_MAX])
{
	struct units_scale s;
	char num[UNITS_MAX];

	if (isnan(v)) {
		snprintf(out, UNITS_MAX, "n/a");
		return;
	}
	units_scale(v, metric, ascii, &s);
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
