/*
 * formats/manifest.c: the manifest model: set-up and release, builders,
 * enum names, RFC 3339 times, and the helpers the files above it share.
 * The semantic rules (manifest_validate) live in manifest-check.c,
 * reading in manifest-read.c, writing in manifest-write.c; see manifest.h
 * for the contract.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#include "formats/manifest.h"
#include "formats/manifest-internal.h"
#include "common/banned.h"

/* Enum name tables: the index is the enum value. */
const char *const manifest_side_names[] = { "base", "candidate", "control", NULL };
const char *const manifest_method_names[] = { "link", "env", "none", NULL };
const char *const manifest_mode_names[] = { "process", "samples", "gbench", NULL };
const char *const manifest_direction_names[] = { "", "slower", "faster", NULL };

static void commit_init(struct manifest_commit *c)
{
	memset(c, 0, sizeof(*c));
	c->dirty = MANIFEST_UNKNOWN;
}

static void commit_release(struct manifest_commit *c)
{
	free(c->ref);
	free(c->commit);
	free(c->tree);
	free(c->subject);
	free(c->author);
	free(c->time);
	commit_init(c);
}

void manifest_side_stats_init(struct manifest_side_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->center = s->min = s->max = NAN;
	s->spread = s->p99 = s->co_p99 = NAN;
	s->range_lo = s->range_hi = NAN;
	s->rounds = -1;
	for (int k = 0; k < METRIC_NCOUNTERS; k++)
		s->counters.value[k] = NAN;
}

static void side_stats_release(struct manifest_side_stats *s)
{
	free(s->pads);
	manifest_side_stats_init(s);
}

void manifest_variant_init(struct manifest_variant *v)
{
	memset(v, 0, sizeof(*v));
	v->artifact_size = -1;
	v->build_ns = -1;
	v->pad_offset = -1;
}

static void variant_release(struct manifest_variant *v)
{
	size_t i;

	free(v->artifact_path);
	free(v->artifact_sha256);
	free(v->reused_bisect);
	for (i = 0; i < v->n_hot; i++) {
		free(v->hot[i].name);
		free(v->hot[i].sha256);
	}
	free(v->hot);
	manifest_variant_init(v);
}

void manifest_bench_init(struct manifest_bench *b)
{
	memset(b, 0, sizeof(*b));
	manifest_side_stats_init(&b->base);
	manifest_side_stats_init(&b->candidate);
	manifest_side_stats_init(&b->control);
	b->ratio = NAN;
	b->noise.relative = NAN;
	b->noise.too_noisy = MANIFEST_UNKNOWN;
	b->rule.version = b->rule.resamples = b->rule.seed = -1;
	b->rule.confidence = b->rule.noise_factor = NAN;
	b->interval.lo = b->interval.hi = NAN;
	b->rule.min_effect = NAN;
	b->shift.estimate = b->shift.lo = b->shift.hi = NAN;
	b->shift.level = b->shift.p = b->shift.p_min = NAN;
	b->noise_basis.figure = b->noise_basis.rounds = b->noise_basis.control = NAN;
	b->noise_basis.margin = b->noise_basis.gap = NAN;
	b->detectable.slower = b->detectable.faster = NAN;
	b->hot.identical = MANIFEST_UNKNOWN;
	b->profile.coverage = NAN;
	b->profile.base.samples = b->profile.candidate.samples = -1;
	b->checksum.consistent = MANIFEST_UNKNOWN;
	b->steady.window = -1;
	b->steady.tolerance = NAN;
	b->steady.unsettled = -1;
	b->steady.start = NAN;
}

static void bench_release(struct manifest_bench *b)
{
	size_t i;

	free(b->name);
	free(b->gbench.section);
	free(b->gbench.name);
	free(b->gbench.family);
	free(b->failure);
	free(b->failure_log);
	free(b->warmup);
	side_stats_release(&b->base);
	side_stats_release(&b->candidate);
	side_stats_release(&b->control);
	for (i = 0; i < b->hot.n_symbols; i++) {
		free(b->hot.symbols[i].name);
		free(b->hot.symbols[i].verdict);
	}
	free(b->hot.symbols);
	free(b->checksum.base);
	free(b->checksum.candidate);
	free(b->rule.name);
	free(b->reason);
	free(b->work);
	for (int s = 0; s < 2; s++) {
		struct manifest_profile_side *ps = s ? &b->profile.candidate : &b->profile.base;
		for (i = 0; i < ps->n_symbols; i++)
			free(ps->symbols[i].name);
		free(ps->symbols);
	}
	for (i = 0; i < b->n_notes; i++)
		free(b->notes[i]);
	free(b->notes);
	json_decref(b->valgrind);
	manifest_bench_init(b);
}

int manifest_add_note(struct manifest_bench *mb, const char *text)
{
	char **nv = realloc(mb->notes, (mb->n_notes + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	mb->notes = nv;
	if (!(nv[mb->n_notes] = strdup(text)))
		return -1;
	mb->n_notes++;
	return 0;
}

void manifest_init(struct manifest *m)
{
	memset(m, 0, sizeof(*m));
	m->version_minor = MANIFEST_VERSION_MINOR;
	commit_init(&m->repo.base);
	commit_init(&m->repo.candidate);
	m->run.warmup_runs = -1;
	m->run.counters_available = MANIFEST_UNKNOWN;
}

void manifest_release(struct manifest *m)
{
	size_t i;

	free(m->tool.name);
	free(m->tool.version);
	free(m->created);
	json_decref(m->spec);
	json_decref(m->provenance);
	json_decref(m->range);
	json_decref(m->source);
	json_decref(m->run.valgrind);
	free(m->repo.url);
	commit_release(&m->repo.base);
	commit_release(&m->repo.candidate);
	free(m->build.command);
	free(m->build.pad_offsets);
	for (i = 0; i < m->build.n_variants; i++)
		variant_release(&m->build.variants[i]);
	free(m->build.variants);
	json_decref(m->host.start);
	json_decref(m->run.sweep);
	json_decref(m->host.end);
	free(m->host.fingerprint);
	free(m->run.start);
	free(m->run.end);
	for (i = 0; i < m->run.n_order; i++)
		free(m->run.order[i].variants);
	free(m->run.order);
	free(m->run.warmup_policy);
	free(m->run.counters_reason);
	free(m->run.containment_method);
	free(m->run.containment_reason);
	free(m->run.project);
	for (i = 0; i < m->run.n_labels; i++) {
		free(m->run.labels[i].key);
		free(m->run.labels[i].value);
	}
	free(m->run.labels);
	free(m->run.conditions);
	for (i = 0; i < m->n_benches; i++)
		bench_release(&m->benches[i]);
	free(m->benches);
	manifest_init(m);
}

void manifest_condition_init(struct manifest_condition *c)
{
	c->at_ns = -1;
	c->load[0] = c->load[1] = c->load[2] = NAN;
	c->cur_khz_min = c->cur_khz_max = -1;
}

int manifest_set_str(char **slot, const char *s)
{
	char *copy = NULL;

	if (s) {
		copy = strdup(s);
		if (!copy)
			return -1;
	}
	free(*slot);
	*slot = copy;
	return 0;
}

struct manifest_variant *manifest_add_variant(struct manifest *m,
					      enum manifest_side side, int64_t pad,
					      struct plumb_err *err)
{
	struct manifest_variant *v;

	v = realloc(m->build.variants, (m->build.n_variants + 1) * sizeof(*v));
	if (!v) {
		plumb_err_oom(err, "manifest variant");
		return NULL;
	}
	m->build.variants = v;
	v += m->build.n_variants++;
	manifest_variant_init(v);
	v->side = side;
	v->pad = pad;
	return v;
}

struct manifest_bench *manifest_add_bench(struct manifest *m, const char *name,
					  struct plumb_err *err)
{
	struct manifest_bench *b;
	char *copy = strdup(name);

	b = copy ? realloc(m->benches, (m->n_benches + 1) * sizeof(*b)) : NULL;
	if (!b) {
		free(copy);
		plumb_err_oom(err, "manifest bench");
		return NULL;
	}
	m->benches = b;
	b += m->n_benches++;
	manifest_bench_init(b);
	b->name = copy;
	return b;
}

const struct manifest_bench *manifest_find_bench(const struct manifest *m,
						 const char *name)
{
	size_t i;

	for (i = 0; i < m->n_benches; i++)
		if (m->benches[i].name && strcmp(m->benches[i].name, name) == 0)
			return &m->benches[i];
	return NULL;
}

const struct manifest_variant *manifest_find_variant(const struct manifest *m,
						     enum manifest_side side,
						     int64_t pad)
{
	size_t i;

	for (i = 0; i < m->build.n_variants; i++)
		if (m->build.variants[i].side == side && m->build.variants[i].pad == pad)
			return &m->build.variants[i];
	return NULL;
}

/* A name from a NULL-terminated table, or "?" when v is out of range. */
static const char *table_name(const char *const *names, int v)
{
	int i;

	for (i = 0; names[i]; i++)
		if (i == v)
			return names[i];
	return "?";
}

const char *manifest_side_name(enum manifest_side s)
{
	return table_name(manifest_side_names, (int)s);
}

const char *manifest_method_name(enum manifest_method m)
{
	return table_name(manifest_method_names, (int)m);
}

const char *manifest_mode_name(enum manifest_mode m)
{
	return table_name(manifest_mode_names, (int)m);
}

const char *manifest_direction_name(enum manifest_direction d)
{
	return d == MANIFEST_DIRECTION_UNSET ? NULL : table_name(manifest_direction_names, (int)d);
}

void manifest_variant_label(const struct manifest_variant *v,
			    char out[MANIFEST_LABEL_MAX])
{
	snprintf(out, MANIFEST_LABEL_MAX, "%s/%lld", manifest_side_name(v->side),
		 (long long)v->pad);
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int manifest_time_format(int64_t unix_seconds, char out[MANIFEST_TIME_MAX])
{
	struct tm tm;
	time_t t = (time_t)unix_seconds;

	out[0] = '\0';
	if ((int64_t)t != unix_seconds || !gmtime_r(&t, &tm) ||
	    tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999)
		return -1;
	if (strftime(out, MANIFEST_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return -1;
	return 0;
}

/* n decimal digits at s as a number, or -1. */
static int digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

int manifest_time_parse(const char *s, int64_t *unix_seconds)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec;
	const char *p;

	if (!s || strlen(s) < 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	d = digits(s + 8, 2);
	h = digits(s + 11, 2);
	mi = digits(s + 14, 2);
	sec = digits(s + 17, 2);
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h < 0 ||
	    h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60)
		return -1;
	if (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return -1;
	p = s + 19;
	if (*p == '.') {
		const char *f = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == f || p - f > 9)
			return -1;
	}
	if (p[0] != 'Z' || p[1] != '\0')
		return -1;
	/* A leap second counts as the next second's start. */
	*unix_seconds = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	return 0;
}

/* ---- validation ---- */

int manifest_fail(struct plumb_err *err, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	plumb_err_setv(err, PLUMB_EINPUT, fmt, ap);
	va_end(ap);
	/* Messages quote input: keep them on one printable line. */
	if (err)
		for (p = err->msg; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				*p = '?';
	return PLUMB_EINPUT;
}


int manifest_is_hex(const char *s, size_t len1, size_t len2)
{
	size_t n;

	if (!s)
		return 0;
	for (n = 0; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n == len1 || n == len2;
}

int manifest_is_warmup_policy(const char *s)
{
	size_t n;

	if (!s)
		return 0;
	if (strcmp(s, "auto") == 0 || strcmp(s, "none") == 0)
		return 1;
	for (n = 0; s[n]; n++)
		if (s[n] < '0' || s[n] > '9')
			return 0;
	return n > 0 && n <= 9;
}

int manifest_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
