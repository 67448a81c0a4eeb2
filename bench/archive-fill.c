/*
 * bench/archive-fill.c: fill an archive's index with N made-up bundles
 * through the same insert code as `plumb archive add` (ingest_insert),
 * for bench/archive.sh.  Not installed, not documented in plumb.1: it
 * writes rows without bundle files, which `plumb archive verify` would
 * rightly report.
 *
 * usage: archive-fill DIR N [--hosts H] [--per-night P] [--part K/W] [--batch B]
 *        archive-fill --time DIR FP  time the queries inside one process
 *
 * DIR may be a postgresql:// URL.  --hosts and --per-night give the shape
 * of a fleet (bench/fleet.sh): bundle i is of night i / (H * P), host
 * (i / P) % H; --part K/W inserts only the bundles of the hosts h with
 * h % W == K (W processes fill one index at once); --batch B commits every
 * B bundles (default 1000).
 *
 * --time runs each query (open included, output rendered to /dev/null) 21
 * times and prints the median wall and CPU milliseconds: the archive's own
 * cost, without the process start-up that the plumb command adds; and the
 * same for the PRAGMA quick_check that every command writing the index
 * runs once as it opens it (archive/store.h).
 *
 * Shape of the data: 100 hosts (N/100 bundles each), every bundle holds
 * benchmark "interp" and two of "b0".."b9", 4 pads per side, labels
 * branch=main|dev and job=nightly, one bundle every 10 minutes (with
 * --per-night: P bundles a night on each host, 10 minutes apart).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "archive/baseline.h"
#include "archive/ingest.h"
#include "archive/query.h"
#include "archive/store.h"
#include "views/archive.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/banned.h"

#define HOSTS 100
#define BATCH 1000

/* The shape: --hosts, --per-night (0: one bundle every 10 minutes, host i % hosts). */
static long hosts = HOSTS, per_night;

static long host_of(long i)
{
	return per_night ? (i / per_night) % hosts : i % hosts;
}

static int64_t time_of(long i)
{
	if (!per_night)
		return 1700000000 + (int64_t)i * 600;
	return 1700000000 + (int64_t)(i / (per_night * hosts)) * 86400 +
	       (int64_t)(i % per_night) * 600 + host_of(i);
}

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
	char fp[48], *id = hex(64), *sha = hex(64);
	const char *bench[3];
	int64_t t = time_of(i);

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
	snprintf(fp, sizeof(fp), "fp%02ld%012llx", host_of(i), 0xc0ffeeull * (unsigned long long)host_of(i));
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

enum op { OP_LIST_B3, OP_LIST_INTERP, OP_BASELINE, OP_TREND_HOST, OP_TREND_DEFAULT,
	  OP_QUICK_CHECK };

/* One query as the command runs it: open, query, render, close. */
static int run_op(const char *dir, enum op op, const char *fp, FILE *sink,
		  struct plumb_err *err)
{
	struct query_filter f;
	struct query_trend q;
	struct query_summaries l;
	struct baseline_detail bl;
	struct store st;
	struct buf text;
	json_t *j = NULL;
	int r;

	/* The reading commands open the index read-only; a writer's open adds
	 * the quick_check timed on its own below. */
	if ((r = store_open(&st, dir, STORE_READONLY, err)) < 0)
		return r;
	memset(&f, 0, sizeof(f));
	memset(&q, 0, sizeof(q));
	buf_init(&text, (size_t)1 << 30);
	switch (op) {
	case OP_LIST_B3:
	case OP_LIST_INTERP:
		f.bench = op == OP_LIST_B3 ? "b3" : "interp";
		f.last = 100;
		if ((r = query_list(&st, &f, &l, err)) == 0) {
			(void)view_list(&text, &l);
			query_summaries_release(&l);
		}
		break;
	case OP_BASELINE:
		if ((r = baseline_show(&st, "nightly", &bl, err)) == 0) {
			(void)view_baseline(&text, &bl);
			baseline_detail_release(&bl);
		}
		break;
	case OP_TREND_HOST:
	case OP_TREND_DEFAULT:
		q.bench = "interp";
		q.host = op == OP_TREND_HOST ? fp : NULL;
		if ((r = query_trend(&st, &q, &j, err)) == 0)
			(void)view_trend(&text, j);
		break;
	case OP_QUICK_CHECK:
		r = store_quick_check(&st, err);
		break;
	}
	if (text.len > 0)
		(void)fwrite(text.data, 1, text.len, sink);
	buf_release(&text);
	json_decref(j);
	store_close(&st);
	return r;
}

static double ms(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int time_queries(const char *dir, const char *fp)
{
	static const char *const names[] = {
		"list --bench b3 --last 100", "list --bench interp --last 100",
		"baseline show nightly", "trend interp --host FP", "trend interp (default host)",
		"PRAGMA quick_check (a writer's first write)",
	};
	struct plumb_err err;
	FILE *sink = fopen("/dev/null", "w");

	if (!sink)
		return 1;
	plumb_err_clear(&err);
	for (int op = OP_LIST_B3; op <= OP_QUICK_CHECK; op++) {
		double wall[21], cpu[21];
		for (int i = 0; i < 21; i++) {
			double w0 = ms(CLOCK_MONOTONIC), c0 = ms(CLOCK_PROCESS_CPUTIME_ID);
			if (run_op(dir, (enum op)op, fp, sink, &err) < 0) {
				fprintf(stderr, "archive-fill: %s\n", err.msg);
				fclose(sink);
				return 1;
			}
			wall[i] = ms(CLOCK_MONOTONIC) - w0;
			cpu[i] = ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
		}
		qsort(wall, 21, sizeof(double), cmp_double);
		qsort(cpu, 21, sizeof(double), cmp_double);
		printf("%-44s wall %6.1f ms  cpu %6.1f ms\n", names[op], wall[10], cpu[10]);
	}
	fclose(sink);
	return 0;
}

int main(int argc, char **argv)
{
	struct plumb_err err;
	struct store st;
	long n, part = 0, parts = 1, batch = BATCH, done = 0;
	char *end;

	if (argc == 4 && strcmp(argv[1], "--time") == 0)
		return time_queries(argv[2], argv[3]);
	if (argc < 3 || (n = strtol(argv[2], &end, 10)) <= 0 || *end)
		goto usage;
	for (int a = 3; a < argc; a++) {
		if (a + 1 >= argc)
			goto usage;
		if (strcmp(argv[a], "--hosts") == 0)
			hosts = strtol(argv[++a], &end, 10);
		else if (strcmp(argv[a], "--per-night") == 0)
			per_night = strtol(argv[++a], &end, 10);
		else if (strcmp(argv[a], "--batch") == 0)
			batch = strtol(argv[++a], &end, 10);
		else if (strcmp(argv[a], "--part") == 0 &&
			 sscanf(argv[++a], "%ld/%ld", &part, &parts) == 2 && parts > 0 &&
			 part >= 0 && part < parts)
			end = argv[a] + strlen(argv[a]);
		else
			goto usage;
		if (*end || hosts <= 0 || per_night < 0 || batch <= 0)
			goto usage;
	}
	plumb_err_clear(&err);
	if (store_open(&st, argv[1], STORE_CREATE, &err) < 0) {
		fprintf(stderr, "archive-fill: %s\n", err.msg);
		return 1;
	}
	/* Each process draws the same ids: it skips, but draws, the others' bundles. */
	for (long i = 0; i < n; i++) {
		struct ingest_record rec;
		int mine = host_of(i) % parts == part;

		if (mine && done % batch == 0 && store_begin(&st, &err) < 0)
			goto fail;
		if (make(&rec, i) < 0) {
			ingest_record_release(&rec);
			plumb_err_oom(&err, "record");
			goto fail;
		}
		if (mine && ingest_insert(&st, &rec, NULL, &err) < 0) {
			ingest_record_release(&rec);
			goto fail;
		}
		ingest_record_release(&rec);
		if (mine && ++done % batch == 0 && store_commit(&st, &err) < 0)
			goto fail;
	}
	if (st.in_txn && store_commit(&st, &err) < 0)
		goto fail;
	store_close(&st);
	return 0;
fail:
	fprintf(stderr, "archive-fill: %s\n", err.msg);
	store_close(&st);
	return 1;
usage:
	fprintf(stderr, "usage: archive-fill DIR N [--hosts H] [--per-night P] [--part K/W] [--batch B]"
		" | archive-fill --time DIR HOST-FP\n");
	return 2;
}
