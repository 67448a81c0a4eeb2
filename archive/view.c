/*
 * archive/view.c: text renderings of the archive's JSON models (view.h).
 * Plain, aligned, line-oriented text that reads well in a cron mail;
 * ids are shortened to 12 digits in tables and shown whole elsewhere.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "archive/view.h"
#include "common/banned.h"

/* A string member, or def when missing or not a string. */
static const char *str(const json_t *o, const char *key, const char *def)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : def;
}

/* The first 12 characters of a string member, or "-". */
static const char *short12(const json_t *o, const char *key, char *buf)
{
	snprintf(buf, 13, "%s", str(o, key, "-"));
	return buf;
}

/* A number member as %.6g into buf, or "-". */
static const char *num(const json_t *o, const char *key, char *buf, size_t size)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.6g", json_number_value(v));
	return buf;
}

void view_list(const json_t *list, FILE *out)
{
	size_t i;
	json_t *b;

	if (json_array_size(list) == 0)
		return;
	fprintf(out, "%-12s  %-20s  %-12s  %-12s  %-12s  %7s  %s\n", "ID", "CREATED", "BASE",
		"CANDIDATE", "HOST", "BENCHES", "LABELS");
	json_array_foreach(list, i, b) {
		char id[13], base[13], cand[13], host[13];
		const json_t *labels = json_object_get(b, "labels");
		const char *k;
		json_t *v;
		int first = 1;

		fprintf(out, "%-12s  %-20s  %-12s  %-12s  %-12s  %7lld  ", short12(b, "id", id),
			str(b, "created", "-"),
			short12(json_object_get(b, "base"), "commit", base),
			short12(json_object_get(b, "candidate"), "commit", cand),
			short12(b, "host", host),
			(long long)json_integer_value(json_object_get(b, "benches")));
		json_object_foreach((json_t *)labels, k, v) {
			fprintf(out, "%s%s=%s", first ? "" : ",", k, json_string_value(v) ? json_string_value(v) : "");
			first = 0;
		}
		fputc('\n', out);
	}
}

/* "ref commit (time)" of a side. */
static void ref_line(FILE *out, const char *label, const json_t *side)
{
	fprintf(out, "%-11s %s %s", label, str(side, "ref", "-"), str(side, "commit", "-"));
	if (json_is_string(json_object_get(side, "time")))
		fprintf(out, " (%s)", str(side, "time", ""));
	fputc('\n', out);
}

/* "center [min, max]" of one side of a bench. */
static void side_cell(const json_t *side, char *buf, size_t size)
{
	char c[32], lo[32], hi[32];

	snprintf(buf, size, "%s [%s, %s]", num(side, "center", c, sizeof(c)),
		 num(side, "min", lo, sizeof(lo)), num(side, "max", hi, sizeof(hi)));
}

void view_bundle(const json_t *b, FILE *out)
{
	const json_t *host = json_object_get(b, "host");
	const json_t *labels = json_object_get(b, "labels");
	const json_t *bls = json_object_get(b, "baselines");
	const json_t *benches = json_object_get(b, "benches");
	const char *k;
	json_t *v;
	size_t i;
	int width = 5;

	fprintf(out, "%-11s %s\n", "bundle", str(b, "id", "-"));
	fprintf(out, "%-11s %s (%lld bytes, SHA-256 %s)\n", "file", str(b, "path", "-"),
		(long long)json_integer_value(json_object_get(b, "size")),
		str(b, "file_sha256", "-"));
	fprintf(out, "%-11s %s (added %s)\n", "created", str(b, "created", "-"), str(b, "added", "-"));
	fprintf(out, "%-11s %s (plumb %s)\n", "format", str(b, "format_version", "-"),
		str(b, "plumb_version", "unknown"));
	fprintf(out, "%-11s %s\n", "repo", str(b, "repo", "-"));
	ref_line(out, "base", json_object_get(b, "base"));
	ref_line(out, "candidate", json_object_get(b, "candidate"));
	fprintf(out, "%-11s %s\n", "host", json_is_object(host) ? str(host, "fingerprint", "-") : "-");
	fprintf(out, "%-11s %s\n", "signature", str(b, "signature", "-"));
	if (json_object_size(labels) > 0) {
		fprintf(out, "%-11s", "labels");
		json_object_foreach((json_t *)labels, k, v)
			fprintf(out, " %s=%s", k, json_string_value(v) ? json_string_value(v) : "");
		fputc('\n', out);
	}
	if (json_array_size(bls) > 0) {
		fprintf(out, "%-11s", "baselines");
		json_array_foreach(bls, i, v)
			fprintf(out, " %s (%s)", str(v, "name", "?"), str(v, "side", "?"));
		fputc('\n', out);
	}
	if (json_array_size(benches) == 0)
		return;
	json_array_foreach(benches, i, v) {
		int n = (int)strlen(str(v, "name", "-"));
		if (n > width)
			width = n;
	}
	fprintf(out, "\n%-*s  %-12s  %-34s  %-34s  %8s  %s\n", width, "BENCH", "METRIC",
		"BASE center [min, max]", "CANDIDATE center [min, max]", "RATIO", "VERDICT");
	json_array_foreach(benches, i, v) {
		char base[96], cand[96], ratio[32];
		side_cell(json_object_get(v, "base"), base, sizeof(base));
		side_cell(json_object_get(v, "candidate"), cand, sizeof(cand));
		fprintf(out, "%-*s  %-12s  %-34s  %-34s  %8s  %s\n", width, str(v, "name", "-"),
			str(v, "metric", "-"), base, cand, num(v, "ratio", ratio, sizeof(ratio)),
			str(v, "verdict", "-"));
	}
}

void view_trend(const json_t *t, FILE *out)
{
	const json_t *pts = json_object_get(t, "points");
	json_t *p;
	size_t i;

	fprintf(out, "bench %s, metric %s, host %s: %zu point%s\n", str(t, "bench", "-"),
		str(t, "metric", "-"), str(t, "host", "-"), json_array_size(pts),
		json_array_size(pts) == 1 ? "" : "s");
	if (json_array_size(pts) == 0)
		return;
	fprintf(out, "%-20s  %-12s  %12s  %12s  %12s  %-12s  %s\n", "TIME", "COMMIT", "CENTER",
		"MIN", "MAX", "VERDICT", "BUNDLE");
	json_array_foreach(pts, i, p) {
		char commit[13], id[13], c[32], lo[32], hi[32];
		fprintf(out, "%-20s  %-12s  %12s  %12s  %12s  %-12s  %s\n", str(p, "time", "-"),
			short12(p, "commit", commit), num(p, "center", c, sizeof(c)),
			num(p, "min", lo, sizeof(lo)), num(p, "max", hi, sizeof(hi)),
			str(p, "verdict", "-"), short12(p, "bundle", id));
	}
}

void view_baselines(const json_t *list, FILE *out)
{
	json_t *b;
	size_t i;
	int width = 4;

	if (json_array_size(list) == 0)
		return;
	json_array_foreach(list, i, b) {
		int n = (int)strlen(str(b, "name", ""));
		if (n > width)
			width = n;
	}
	fprintf(out, "%-*s  %-12s  %-9s  %-20s  %-12s  %s\n", width, "NAME", "BUNDLE", "SIDE",
		"SET AT", "COMMIT", "NOTE");
	json_array_foreach(list, i, b) {
		char id[13], commit[13];
		fprintf(out, "%-*s  %-12s  %-9s  %-20s  %-12s  %s\n", width, str(b, "name", "-"),
			short12(b, "bundle", id), str(b, "side", "-"), str(b, "set_at", "-"),
			short12(b, "commit", commit), str(b, "note", ""));
	}
}

void view_baseline(const json_t *b, FILE *out)
{
	fprintf(out, "%-11s %s\n", "baseline", str(b, "name", "-"));
	fprintf(out, "%-11s %s\n", "side", str(b, "side", "-"));
	fprintf(out, "%-11s %s\n", "set at", str(b, "set_at", "-"));
	if (json_is_string(json_object_get(b, "note")))
		fprintf(out, "%-11s %s\n", "note", str(b, "note", ""));
	fputc('\n', out);
	view_bundle(json_object_get(b, "bundle_info"), out);
}
