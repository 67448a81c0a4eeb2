/*
 * tests/integration/archive-nights.c: an archive of made-up nightly runs
 * for the change point tests and bench/changes.sh, written through the
 * one insert path of `plumb archive add` (ingest_insert) into a real
 * SQLite index.  Rows only, no bundle files (`archive verify` would say
 * so): the nights are synthetic by design, with known steps.
 *
 * usage: archive-nights DIR NIGHTS BENCHES [-p PLACEMENT] [-s SEED]
 *                       [-k PADS] [-r REPEAT] [-H FINGERPRINT] [-c CPU]
 *                       [-i FIRST] [-n NAME] [-d DRIFT] [-B] [-f FROM]
 *                       [STEP]...
 *
 * Night i (0-based) is one bundle on one host, a day apart, candidate
 * commit c0ffee000000 + i/REPEAT in hex (REPEAT nights of each commit), holding
 * benchmarks b0..b<BENCHES-1>, each with PADS (4) pad medians spread
 * uniformly over PLACEMENT (0.05: 5%) around the night's level, times the
 * host's speed that night: a night-to-night drift of 0.4%, and with -d a
 * wander over DRIFT percent (1 + DRIFT/100 * (1 - cos(2 pi i / 28)) / 2,
 * four weeks from trough to trough).  A STEP "BENCH@NIGHT:PERCENT"
 * multiplies that benchmark's level by 1 + PERCENT/100 from that night
 * on (a change of the code); "host@NIGHT:PERCENT" multiplies every level
 * of both sides (a change of the host: a kernel, a neighbour's load).
 *
 * The base side is what a nightly job against one base measures: the
 * same commit (b000...) every night, so the same binaries at the same
 * pads (pad medians placed once per benchmark), times the host's speed
 * that night and 0.2% of round noise.  -B gives each night another base
 * commit (a job whose base moves).  -f FROM writes only the nights from
 * FROM on, the same as a whole run writes them: a night at a time, as
 * cron meets them.
 * The host class is 5ca1ab1e0000c0de with CPU "Example CPU @ 3.00GHz"
 * unless -H and -c say otherwise; bundle ids count from FIRST (1), so two
 * calls with different FIRST fill one archive with two classes; -n names
 * benchmark b0 NAME (a hostile name for the page tests).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "archive/ingest.h"
#include "archive/store.h"
#include "common/err.h"
#include "common/banned.h"

static unsigned long long rng_state;

static double unit_rand(void)   /* [0, 1) */
{
	unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0;
}

struct step {
	long bench, night;   /* bench -1: the host (both sides of every benchmark) */
	double factor;
};

/* The host class and names of every night (-H, -c, -i, -n). */
static const char *host_fp = "5ca1ab1e0000c0de", *host_cpu = "Example CPU @ 3.00GHz", *name0;
static unsigned long first_id = 1;
static double drift;     /* -d, a fraction */
static int moving_base;  /* -B */

/* The host's speed on night i beyond its night-to-night drift: -d and the host steps. */
static double host_speed(long i, const struct step *steps, size_t nsteps)
{
	double f = 1 + drift * (1 - cos(2 * 3.14159265358979323846 * (double)i / 28)) / 2;

	for (size_t s = 0; s < nsteps; s++)
		if (steps[s].bench < 0 && i >= steps[s].night)
			f *= steps[s].factor;
	return f;
}

/*
 * A side's k pads: level * speed * u_j, where u_j is draw(placement) per
 * pad (the candidate: placement drawn anew each night), or place[j] times
 * 0.2% of round noise (the base: the same binaries every night).  The
 * candidate's draws are the night's drift and then one per pad, as they
 * always were, so the same seed makes the same candidates.
 */
static int side(struct ingest_side *s, double level, double speed, double placement,
		const double *place, size_t k, double *night_out)
{
	double night = 1 + 0.004 * (unit_rand() - 0.5), sum = 0;

	if (night_out)
		*night_out = night;
	else
		night = 1;
	s->npads = k;
	if (!(s->pads = malloc(k * sizeof(double))))
		return -1;
	s->min = 1e300;
	s->max = -1e300;
	for (size_t i = 0; i < k; i++) {
		double u = unit_rand() - 0.5;
		s->pads[i] = level * speed * night * (place ? place[i] * (1 + 0.002 * u) : 1 + placement * u);
		sum += s->pads[i];
		if (s->pads[i] < s->min)
			s->min = s->pads[i];
		if (s->pads[i] > s->max)
			s->max = s->pads[i];
	}
	s->center = sum / (double)k;
	s->spread = (s->max - s->min) / s->center;
	return 0;
}

/* The host facts of the class, as `plumb host --json` names them (docs/host-facts.md). */
static char *facts(void)
{
	json_t *o = json_pack("{s:s, s:{s:s, s:i, s:i, s:b}, s:{s:s}, s:{s:s, s:b}}",
			      "fingerprint", host_fp, "cpu", "model", host_cpu, "logical", 8,
			      "physical_cores", 4, "smt", 1, "kernel", "release", "6.1.0-18-amd64",
			      "cpufreq", "governor", "performance", "turbo", 0);
	char *t = o ? json_dumps(o, JSON_SORT_KEYS | JSON_COMPACT) : NULL;

	json_decref(o);
	return t;
}

/*
 * Base pad j of benchmark b: placed once (its own stream of draws, so the
 * candidates' draws are what they were before the base was placed).
 */
static void base_placement(long b, double placement, double *place, size_t k)
{
	unsigned long long saved = rng_state;

	rng_state = 0x5eedba5eull + (unsigned long long)b * 7919;
	for (size_t j = 0; j < k; j++)
		place[j] = 1 + placement * (unit_rand() - 0.5);
	rng_state = saved;
}

static int make(struct ingest_record *rec, long i, long benches, long repeat, size_t k,
		double placement, const struct step *steps, size_t nsteps)
{
	int64_t t = 1767225600 + (int64_t)i * 86400;   /* 2026-01-01 */
	char hex[41], bhex[41];

	ingest_record_init(rec);
	snprintf(rec->id, sizeof(rec->id), "%064lx", (unsigned long)i + first_id);
	snprintf(rec->file_sha256, sizeof(rec->file_sha256), "%064lx", (unsigned long)i + first_id);
	rec->size = 10000;
	rec->created = t;
	snprintf(hex, sizeof(hex), "%06lxc0ffee%028d", (unsigned long)(i / repeat) & 0xfffffful, 0);
	rec->plumb_version = strdup("0.1.0");
	rec->format_version = strdup("1.0");
	rec->repo = strdup("/srv/src/demo");
	rec->base.ref = strdup("v1.0");
	snprintf(bhex, sizeof(bhex), "b%039lx", moving_base ? (unsigned long)i : 0ul);
	rec->base.commit = strdup(bhex);
	rec->base.time = 1767225600 - 86400;
	rec->base.has_time = 1;
	rec->cand.ref = strdup("main");
	rec->cand.commit = strdup(hex);
	/* Nights of one commit share its time (the index orders them by row). */
	rec->cand.time = 1767225600 + (int64_t)(i / repeat) * repeat * 86400 - 3600;
	rec->cand.has_time = 1;
	rec->host_fingerprint = strdup(host_fp);
	rec->host_facts = facts();
	if (!rec->plumb_version || !rec->format_version || !rec->repo || !rec->base.ref ||
	    !rec->base.commit || !rec->cand.ref || !rec->cand.commit || !rec->host_fingerprint ||
	    !rec->host_facts || ingest_add_label(rec, "job", "nightly") < 0)
		return -1;
	for (long b = 0; b < benches; b++) {
		struct ingest_bench *x = ingest_add_bench(rec);
		struct ingest_side base;
		char name[32];
		double level = 1e6 * (double)(b + 1), speed = host_speed(i, steps, nsteps), night;
		double *place = malloc(k * sizeof(*place));
		if (!x || !place) {
			free(place);
			return -1;
		}
		base_placement(b, placement, place, k);
		for (size_t s = 0; s < nsteps; s++)
			if (steps[s].bench == b && i >= steps[s].night)
				level *= steps[s].factor;
		snprintf(name, sizeof(name), "b%ld", b);
		x->name = strdup(b == 0 && name0 ? name0 : name);
		x->mode = strdup("process");
		x->metric = strdup("wall");
		x->verdict = strdup("placement");
		/*
		 * The draws in their old order: the base's, then the candidate's
		 * (its night's drift is the host's, which the base shares).
		 */
		memset(&base, 0, sizeof(base));
		if (!x->name || !x->mode || !x->metric || !x->verdict ||
		    side(&base, 1e6 * (double)(b + 1), speed, placement, place, k, NULL) < 0 ||
		    side(&x->cand, level, speed, placement, NULL, k, &night) < 0) {
			free(place);
			free(base.pads);
			return -1;
		}
		free(place);
		x->base = base;
		for (size_t j = 0; j < k; j++)
			x->base.pads[j] *= night;
		x->base.min *= night;
		x->base.max *= night;
		x->base.center *= night;
		x->ratio = x->cand.center / x->base.center;
		x->noise = 0.005;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct step steps[16];
	size_t nsteps = 0, k = 4;
	double placement = 0.05;
	long nights, benches, repeat = 1, from = 0;
	struct plumb_err err;
	struct store st;
	int a = 4;

	if (argc < 4) {
		fprintf(stderr, "usage: archive-nights DIR NIGHTS BENCHES [-p PLACEMENT] [-s SEED] "
			"[-k PADS] [-r REPEAT] [-H FP] [-c CPU] [-i FIRST] [-n NAME] [-d DRIFT] [-B] "
			"[-f FROM] [BENCH@NIGHT:PERCENT | host@NIGHT:PERCENT]...\n");
		return 2;
	}
	nights = strtol(argv[2], NULL, 10);
	benches = strtol(argv[3], NULL, 10);
	rng_state = 1;
	for (; a < argc; a++) {
		long b, n;
		double pct;
		if (strcmp(argv[a], "-p") == 0 && a + 1 < argc)
			placement = strtod(argv[++a], NULL);
		else if (strcmp(argv[a], "-s") == 0 && a + 1 < argc)
			rng_state = strtoull(argv[++a], NULL, 10);
		else if (strcmp(argv[a], "-k") == 0 && a + 1 < argc)
			k = strtoul(argv[++a], NULL, 10);
		else if (strcmp(argv[a], "-r") == 0 && a + 1 < argc)
			repeat = strtol(argv[++a], NULL, 10);
		else if (strcmp(argv[a], "-H") == 0 && a + 1 < argc)
			host_fp = argv[++a];
		else if (strcmp(argv[a], "-c") == 0 && a + 1 < argc)
			host_cpu = argv[++a];
		else if (strcmp(argv[a], "-i") == 0 && a + 1 < argc)
			first_id = strtoul(argv[++a], NULL, 10);
		else if (strcmp(argv[a], "-n") == 0 && a + 1 < argc)
			name0 = argv[++a];
		else if (strcmp(argv[a], "-d") == 0 && a + 1 < argc)
			drift = strtod(argv[++a], NULL) / 100;
		else if (strcmp(argv[a], "-B") == 0)
			moving_base = 1;
		else if (strcmp(argv[a], "-f") == 0 && a + 1 < argc)
			from = strtol(argv[++a], NULL, 10);
		else if (nsteps < 16 && sscanf(argv[a], "b%ld@%ld:%lf", &b, &n, &pct) == 3 && b >= 0)
			steps[nsteps++] = (struct step){ b, n, 1 + pct / 100 };
		else if (nsteps < 16 && sscanf(argv[a], "host@%ld:%lf", &n, &pct) == 2)
			steps[nsteps++] = (struct step){ -1, n, 1 + pct / 100 };
		else {
			fprintf(stderr, "archive-nights: cannot read '%s'\n", argv[a]);
			return 2;
		}
	}
	if (nights < 1 || benches < 1 || k < 1 || repeat < 1 || from < 0 || from >= nights) {
		fprintf(stderr, "archive-nights: NIGHTS, BENCHES, PADS and REPEAT must be positive, "
			"FROM below NIGHTS\n");
		return 2;
	}
	plumb_err_clear(&err);
	if (store_open(&st, argv[1], STORE_CREATE, &err) < 0) {
		fprintf(stderr, "archive-nights: %s\n", err.msg);
		return 1;
	}
	for (long i = 0; i < nights; i += 1000) {
		if (store_begin(&st, &err) < 0)
			goto fail;
		for (long j = i; j < nights && j < i + 1000; j++) {
			struct ingest_record rec;
			int64_t rid;
			int r = make(&rec, j, benches, repeat, k, placement, steps, nsteps);
			/* Nights before FROM are made (the same draws) but not written. */
			if (r == 0 && j >= from)
				r = ingest_insert(&st, &rec, &rid, &err);
			else
				plumb_err_oom(&err, "archive-nights");
			ingest_record_release(&rec);
			if (r < 0)
				goto fail;
		}
		if (store_commit(&st, &err) < 0)
			goto fail;
	}
	store_close(&st);
	return 0;
fail:
	fprintf(stderr, "archive-nights: %s\n", err.msg);
	store_close(&st);
	return 1;
}
