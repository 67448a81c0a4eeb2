/*
 * bench/archive-fill.c: fill an archive's index with N made-up bundles
 * through the same insert code as `plumb archive add` (ingest_insert),
 * for bench/archive.sh.  Not installed, not documented in plumb.1: it
 * writes rows without bundle files, which `plumb archive verify` would
 * rightly report.
 *
 * usage: archive-fill DIR N
 *
 * Shape of the data: 100 hosts (N/100 bundles each), every bundle holds
 * benchmark "interp" and two of "b0".."b9", 4 pads per side, labels
 * branch=main|dev and job=nightly, one bundle every 10 minutes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/ingest.h"
#include "archive/store.h"
#include "common/err.h"
#include "common/banned.h"

#define HOSTS 100
#define BATCH 1000

static unsigned long long rng_state = 88172645463325252ull;

static unsigned long long rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static char *hex(size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		s[i] = "0123456789abcdef"[rng() & 15];
	s[n] = '\0';
	return s;
}

static void fill_side(struct ingest_side *s, double center)
{
	s->npads = 4;
	s->pads = malloc(4 * sizeof(double));
	if (!s->pads)
		return;
	for (int i = 0; i < 4; i++)
		s->pads[i] = center * (0.97 + 0.02 * i + (double)(rng() % 1000) / 1e5);
	s->min = s->pads[0];
	s->max = s->pads[3];
	s->center = (s->pads[1] + s->pads[2]) / 2;
	s->spread = (s->max - s->min) / s->center;
}

static int make(struct ingest_record *rec, long i)
{
	static const char *const names[] = { "b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9" };
	char fp[32], *id = hex(64), *sha = hex(64);
	const char *bench[3];
	int64_t t = 1700000000 + (int64_t)i * 600;

	if (!id || !sha)
		return -1;
	ingest_record_init(rec);
	memcpy(rec->id, id, 65);
	memcpy(rec->file_sha256, sha, 65);
	free(id);
	free(sha);
	rec->size = 20000 + (int64_t)(rng() % 5000);
	rec->created = t;
	rec->plumb_version = strdup("0.1.0");
	rec->format_version = strdup("1.0");
	rec->repo = strdup("/srv/src/interp");
	rec->base.ref = strdup("v1.2.0");
	rec->base.commit = hex(40);
	rec->base.time = t - 86400 * 30;
	rec->base.has_time = 1;
	rec->cand.ref = strdup("main");
	rec->cand.commit = hex(40);
	rec->cand.time = t - 3600;
	rec->cand.has_time = 1;
	snprintf(fp, sizeof(fp), "fp%02ld%012llx", i % HOSTS, 0xc0ffeeull * (unsigned long long)(i % HOSTS));
	rec->host_fingerprint = strdup(fp);
	rec->host_facts = strdup("{\"cpu\":{\"model\":\"Example CPU @ 3.0GHz\",\"cores\":8},\"governor\":\"performance\",\"turbo\":false,\"kernel\":\"6.1.0\"}");
	if (!rec->plumb_version || !rec->format_version || !rec->repo || !rec->base.ref ||
	    !rec->base.commit || !rec->cand.ref || !rec->cand.commit || !rec->host_fingerprint ||
	    !rec->host_facts)
		return -1;
	if (ingest_add_label(rec, "branch", i % 2 ? "dev" : "main") < 0 ||
	    ingest_add_label(rec, "job", "nightly") < 0)
		return -1;
	bench[0] = "interp";
	bench[1] = names[i % 10];
	bench[2] = names[(i + 3) % 10];
	for (int k = 0; k < 3; k++) {
		struct ingest_bench *b = ingest_add_bench(rec);
		double c = 1e6 * (k + 1);
		if (!b)
			return -1;
		b->name = strdup(bench[k]);
		b->mode = strdup("process");
		b->metric = strdup("wall");
		b->verdict = strdup("placement");
		if (!b->name || !b->mode || !b->metric || !b->verdict)
			return -1;
		fill_side(&b->base, c);
		fill_side(&b->cand, c * 1.01);
		if (!b->base.pads || !b->cand.pads)
			return -1;
		b->ratio = b->cand.center / b->base.center;
		b->noise = 0.005;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct plumb_err err;
	struct store st;
	long n;
	char *end;

	if (argc != 3 || (n = strtol(argv[2], &end, 10)) <= 0 || *end) {
		fprintf(stderr, "usage: archive-fill DIR N\n");
		return 2;
	}
	plumb_err_clear(&err);
	if (store_open(&st, argv[1], STORE_CREATE, &err) < 0) {
		fprintf(stderr, "archive-fill: %s\n", err.msg);
		return 1;
	}
	for (long i = 0; i < n; i += BATCH) {
		if (store_begin(&st, &err) < 0)
			goto fail;
		for (long j = i; j < n && j < i + BATCH; j++) {
			struct ingest_record rec;
			if (make(&rec, j) < 0) {
				ingest_record_release(&rec);
				plumb_err_oom(&err, "record");
				goto fail;
			}
			if (ingest_insert(&st, &rec, NULL, &err) < 0) {
				ingest_record_release(&rec);
				goto fail;
			}
			ingest_record_release(&rec);
		}
		if (store_commit(&st, &err) < 0)
			goto fail;
	}
	store_close(&st);
	return 0;
fail:
	fprintf(stderr, "archive-fill: %s\n", err.msg);
	store_close(&st);
	return 1;
}
