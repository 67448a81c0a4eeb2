/*
 * tests/unit/test-archive.c: archive/ below the bundle reader: schema and
 * migrations, the insert path, queries, baselines, removal, slices.
 * Records are made up here; tests/integration/t3*.sh use real bundles.
 */
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <sqlite3.h>

#include "tests/unit/unit.h"
#include "archive/baseline.h"
#include "archive/bundles.h"
#include "archive/dialect.h"
#include "archive/ingest.h"
#include "archive/query.h"
#include "archive/schema.h"
#include "archive/scrub.h"
#include "archive/store.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/url.h"
#include "common/fileio.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "reports/trend.h"
#include "views/archive.h"
#include "common/banned.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh archive in a new temporary folder (dir: 64 bytes). */
static void open_fresh(struct store *st, char *dir)
{
	struct plumb_err err;

	snprintf(dir, 64, "/tmp/plumb-unit-archive-XXXXXX");
	assert_non_null(mkdtemp(dir));
	plumb_err_clear(&err);
	if (store_open(st, dir, STORE_CREATE, &err) != 0)
		fail_msg("store_open: %s", err.msg);
}

/* A 64-digit id made from a seed: "<seed as 8 hex>" then a fixed tail. */
static void make_id(char *id, unsigned seed, char tail)
{
	snprintf(id, STORE_ID_LEN + 1, "%08x", seed);
	memset(id + 8, tail, STORE_ID_LEN - 8);
	id[STORE_ID_LEN] = '\0';
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);
	assert_non_null(p);
	return p;
}

/* A made-up record: one bench per name, candidate center = center. */
static void make_record(struct ingest_record *rec, unsigned seed, const char *host,
			int64_t when, const char *const *benches, double center)
{
	ingest_record_init(rec);
	make_id(rec->id, seed, 'a');
	make_id(rec->file_sha256, seed, 'b');
	rec->size = 1000 + seed;
	rec->created = when;
	rec->plumb_version = xstrdup("0.1.0");
	rec->format_version = xstrdup("1");
	rec->repo = xstrdup("/src/proj");
	rec->base.ref = xstrdup("v1.0");
	rec->base.commit = xstrdup("1111111111111111111111111111111111111111");
	rec->base.time = when - 1000;
	rec->base.has_time = 1;
	rec->cand.ref = xstrdup("main");
	char commit[41];
	snprintf(commit, sizeof(commit), "%08x%032d", seed, 0);
	rec->cand.commit = xstrdup(commit);
	rec->cand.time = when - 10;
	rec->cand.has_time = 1;
	if (host) {
		rec->host_fingerprint = xstrdup(host);
		rec->host_facts = xstrdup("{\"cpu\":\"test\"}");
	}
	for (; benches && *benches; benches++) {
		struct ingest_bench *b = ingest_add_bench(rec);
		assert_non_null(b);
		b->name = xstrdup(*benches);
		b->mode = xstrdup("process");
		b->metric = xstrdup("wall");
		b->verdict = xstrdup("placement");
		b->base.center = 100;
		b->base.min = 95;
		b->base.max = 105;
		b->base.spread = 0.1;
		b->cand.center = center;
		b->cand.min = center - 5;
		b->cand.max = center + 5;
		b->cand.spread = 10 / center;
		b->cand.pads = calloc(2, sizeof(double));
		assert_non_null(b->cand.pads);
		b->cand.pads[0] = center - 5;
		b->cand.pads[1] = center + 5;
		b->cand.npads = 2;
		b->ratio = center / 100;
	}
}

static void insert(struct store *st, struct ingest_record *rec)
{
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(store_begin(st, &err), 0);
	if (ingest_insert(st, rec, NULL, &err) != 0)
		fail_msg("ingest_insert: %s", err.msg);
	assert_int_equal(store_commit(st, &err), 0);
	ingest_record_release(rec);
}

static int64_t int_query(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

PLUMB_TEST(archive_fresh_schema_and_pragmas)
{
	struct store st;
	char dir[64];
	sqlite3_stmt *s;

	open_fresh(&st, dir);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "PRAGMA application_id"), SCHEMA_APPLICATION_ID);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "PRAGMA foreign_keys"), 1);
	assert_int_equal(sqlite3_prepare_v2(db_sqlite_handle(st.db), "PRAGMA journal_mode", -1, &s, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
	sqlite3_finalize(s);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "SELECT count(*) FROM sqlite_schema WHERE name = 'benches_trend'"), 1);
	store_close(&st);
	rm_tree(dir);
}

PLUMB_TEST(archive_migrates_from_schema_1)
{
	static const char *const benches[] = { "interp", "parse", NULL };
	char dir[64], path[128];
	struct plumb_err err;
	struct store st;
	struct db *db;
	int from = -1;

	snprintf(dir, sizeof(dir), "/tmp/plumb-unit-archive-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/archive.db", dir);
	assert_int_equal(db_open_sqlite(&db, path, DB_OPEN_CREATE, 1000), DB_OK);
	plumb_err_clear(&err);
	/* Version 1 only, with a bundle and its benches as version 1 wrote them. */
	const char *v1[] = { schema_step(0) };
	assert_int_equal(schema_apply(db, path, v1, 1, &from, &err), 0);
	assert_int_equal(from, 0);
	assert_int_equal(int_query(db_sqlite_handle(db), "PRAGMA user_version"), 1);
	assert_int_equal(db_exec(db,
		"INSERT INTO hosts VALUES (7, 'fp-one', '{}');"
		"INSERT INTO bundles (rid, id, file_sha256, size, created, added, format_version,"
		" cand_time, signature, host) VALUES (3, printf('%064d', 5), printf('%064d', 6),"
		" 10, 1000, 1001, '1', 900, 'none', 7);"
		"INSERT INTO benches (bundle, name, metric, cand_center) VALUES (3, 'interp', 'wall', 1.5);"),
		DB_OK);
	db_close(db);
	(void)benches;

	/* Opening it migrates: the copies of host and time are filled in. */
	assert_int_equal(store_open(&st, dir, 0, &err), 0);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "SELECT host FROM benches WHERE bundle = 3"), 7);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "SELECT at FROM benches WHERE bundle = 3"), 900);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "SELECT count(*) FROM bundles"), 1);
	store_close(&st);
	rm_tree(dir);
}

PLUMB_TEST(archive_refuses_newer_schema)
{
	char dir[64];
	struct plumb_err err;
	struct store st;

	open_fresh(&st, dir);
	assert_int_equal(db_exec(st.db, "PRAGMA user_version = 99"), DB_OK);
	store_close(&st);
	plumb_err_clear(&err);
	assert_int_equal(store_open(&st, dir, 0, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "archive schema 99 is newer than this plumb understands"));
	rm_tree(dir);
}

PLUMB_TEST(archive_failed_migration_changes_nothing)
{
	char dir[64], path[128];
	struct plumb_err err;
	struct db *db;
	const char *steps[] = { schema_step(0), "CREATE TABLE extra (a); THIS IS NOT SQL;" };

	snprintf(dir, sizeof(dir), "/tmp/plumb-unit-archive-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/archive.db", dir);
	assert_int_equal(db_open_sqlite(&db, path, DB_OPEN_CREATE, 1000), DB_OK);
	plumb_err_clear(&err);
	assert_int_not_equal(schema_apply(db, path, steps, 2, NULL, &err), 0);
	assert_non_null(strstr(err.msg, "migration to schema 2 failed"));
	/* All or nothing: not even step 1 stayed. */
	assert_int_equal(int_query(db_sqlite_handle(db), "PRAGMA user_version"), 0);
	assert_int_equal(int_query(db_sqlite_handle(db), "SELECT count(*) FROM sqlite_schema"), 0);
	/* From version 1, the failing step 2 leaves version 1 as it was. */
	assert_int_equal(schema_apply(db, path, steps, 1, NULL, &err), 0);
	assert_int_not_equal(schema_apply(db, path, steps, 2, NULL, &err), 0);
	assert_int_equal(int_query(db_sqlite_handle(db), "PRAGMA user_version"), 1);
	assert_int_equal(int_query(db_sqlite_handle(db), "SELECT count(*) FROM sqlite_schema WHERE name = 'extra'"), 0);
	db_close(db);
	rm_tree(dir);
}

PLUMB_TEST(archive_refuses_foreign_database)
{
	char dir[64], path[128];
	struct plumb_err err;
	struct store st;
	sqlite3 *db;

	snprintf(dir, sizeof(dir), "/tmp/plumb-unit-archive-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/archive.db", dir);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (a)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	plumb_err_clear(&err);
	assert_int_equal(store_open(&st, dir, 0, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "not a plumb archive"));
	/* A missing archive is named, not created, without STORE_CREATE. */
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(store_open(&st, path, 0, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "no archive here"));
	assert_int_not_equal(access(path, F_OK), 0);
	rm_tree(dir);
}

PLUMB_TEST(archive_locate_precedence)
{
	struct plumb_err err;
	char *dir;

	plumb_err_clear(&err);
	setenv("PLUMB_ARCHIVE", "/env/archive", 1);
	setenv("XDG_DATA_HOME", "/xdg", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(store_locate("/opt/a", &dir, &err), 0);
	assert_string_equal(dir, "/opt/a");
	free(dir);
	assert_int_equal(store_locate(NULL, &dir, &err), 0);
	assert_string_equal(dir, "/env/archive");
	free(dir);
	unsetenv("PLUMB_ARCHIVE");
	assert_int_equal(store_locate(NULL, &dir, &err), 0);
	assert_string_equal(dir, "/xdg/plumb");
	free(dir);
	setenv("XDG_DATA_HOME", "relative", 1);   /* ignored, as the XDG spec says */
	assert_int_equal(store_locate(NULL, &dir, &err), 0);
	assert_string_equal(dir, "/home/u/.local/share/plumb");
	free(dir);
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(store_locate(NULL, &dir, &err), 0);
	assert_string_equal(dir, "/home/u/.local/share/plumb");
	free(dir);
}

PLUMB_TEST(archive_insert_list_show)
{
	static const char *const ab[] = { "alpha", "beta", NULL };
	static const char *const b[] = { "beta", NULL };
	struct ingest_record rec;
	struct query_filter f;
	struct plumb_err err;
	struct store st;
	struct query_summaries l;
	struct query_detail d;
	char dir[64], id[STORE_ID_LEN + 1];
	int64_t rid;

	open_fresh(&st, dir);
	plumb_err_clear(&err);
	make_record(&rec, 0x11110000, "fp-a", 1000, ab, 100);
	assert_int_equal(ingest_add_label(&rec, "branch", "main"), 0);
	insert(&st, &rec);
	make_record(&rec, 0x11118000, "fp-a", 2000, b, 110);
	assert_int_equal(ingest_add_label(&rec, "branch", "dev"), 0);
	insert(&st, &rec);
	make_record(&rec, 0x22220000, "fp-b", 3000, ab, 120);
	insert(&st, &rec);
	make_record(&rec, 0x33330000, NULL, 4000, NULL, 0);
	insert(&st, &rec);

	/* Inserting the same id again is refused by the schema. */
	make_record(&rec, 0x22220000, "fp-b", 3000, ab, 120);
	assert_int_equal(store_begin(&st, &err), 0);
	assert_int_equal(ingest_insert(&st, &rec, NULL, &err), PLUMB_EINPUT);
	store_rollback(&st);
	ingest_record_release(&rec);

	memset(&f, 0, sizeof(f));
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 4);
	/* Newest first. */
	assert_int_equal(strncmp(l.v[0].id, "33330000", 8), 0);
	query_summaries_release(&l);

	f.bench = "alpha";
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 2);
	query_summaries_release(&l);
	f.last = 1;
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(strncmp(l.v[0].id, "22220000", 8), 0);
	query_summaries_release(&l);

	memset(&f, 0, sizeof(f));
	f.host = "fp-a";
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 2);
	query_summaries_release(&l);
	f.host = "fp-";
	assert_int_equal(query_list(&st, &f, &l, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "ambiguous"));

	memset(&f, 0, sizeof(f));
	const char *lab[] = { "branch=dev" };
	f.labels = lab;
	f.nlabels = 1;
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 1);
	query_summaries_release(&l);
	const char *lab2[] = { "branch" };
	f.labels = lab2;
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 2);
	query_summaries_release(&l);

	memset(&f, 0, sizeof(f));
	f.since = "1970-01-01T00:33:20Z";   /* 2000 */
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 3);
	query_summaries_release(&l);
	f.since = "yesterday";
	assert_int_equal(query_list(&st, &f, &l, &err), PLUMB_EARG);
	/* The UTC offsets plumb(1) accepts: the same instant, 2000 s. */
	f.since = "1970-01-01T01:33:20+01:00";
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 3);
	query_summaries_release(&l);
	f.since = "1969-12-31T19:03:20-05:30";
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 3);
	query_summaries_release(&l);
	f.since = "1970-01-01T00:33:20.5+00:00";
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 3);
	query_summaries_release(&l);
	f.since = "1970-01-01T00:33:20+25:00";
	assert_int_equal(query_list(&st, &f, &l, &err), PLUMB_EARG);
	f.since = "1970-01-01T00:33:20+0100";
	assert_int_equal(query_list(&st, &f, &l, &err), PLUMB_EARG);

	memset(&f, 0, sizeof(f));
	f.commit = "11118";
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 1);
	query_summaries_release(&l);
	f.commit = "11111111";   /* every base commit */
	assert_int_equal(query_list(&st, &f, &l, &err), 0);
	assert_int_equal(l.n, 4);
	query_summaries_release(&l);
	f.commit = "xyz1";
	assert_int_equal(query_list(&st, &f, &l, &err), PLUMB_EARG);

	/* Prefixes: unique, ambiguous, unknown, malformed. */
	assert_int_equal(store_resolve(&st, "2222", id, &rid, &err), 0);
	assert_int_equal(strncmp(id, "22220000", 8), 0);
	assert_int_equal(store_resolve(&st, "1111", id, &rid, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "ambiguous"));
	assert_non_null(strstr(err.msg, "11110000"));
	assert_non_null(strstr(err.msg, "11118000"));
	assert_int_equal(store_resolve(&st, "9999", id, &rid, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "no bundle 9999"));
	assert_int_equal(store_resolve(&st, "12", id, &rid, &err), PLUMB_EINPUT);

	assert_int_equal(query_show(&st, "1111", &d, &err), PLUMB_EINPUT);
	assert_int_equal(query_show(&st, "11110", &d, &err), 0);
	assert_string_equal(d.host, "fp-a");
	assert_int_equal(d.nlabels, 1);
	assert_string_equal(d.labels[0].key, "branch");
	assert_string_equal(d.labels[0].value, "main");
	assert_int_equal(d.nbenches, 2);
	assert_true(d.benches[0].candidate.center == 100.0);
	assert_non_null(d.benches[0].candidate.pads);
	assert_null(d.benches[0].base.pads);
	assert_true(d.benches[0].base.center == 100.0);
	assert_string_equal(d.created, "1970-01-01T00:16:40Z");
	/* --json says what the struct holds, pads parsed, unknowns null. */
	json_t *j = view_archived_json(&d);
	json_t *cand = json_object_get(json_array_get(json_object_get(j, "benches"), 0), "candidate");
	assert_int_equal(json_array_size(json_object_get(cand, "pads")), 2);
	assert_true(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(j, "benches"), 0), "base"), "pads")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "labels"), "branch")), "main");
	json_decref(j);
	query_detail_release(&d);
	store_close(&st);
	rm_tree(dir);
}

PLUMB_TEST(archive_trend_orders_and_picks_host)
{
	static const char *const x[] = { "x", NULL };
	struct query_trend_result t;
	struct ingest_record rec;
	struct query_trend q;
	struct plumb_err err;
	struct store st;
	char dir[64];

	open_fresh(&st, dir);
	plumb_err_clear(&err);
	/* fp-main has 5 results inserted out of time order; fp-rare has 2. */
	static const int times[] = { 500, 100, 400, 200, 300 };
	for (unsigned i = 0; i < 5; i++) {
		make_record(&rec, 0x100 + i, "fp-main", times[i], x, times[i]);
		insert(&st, &rec);
	}
	for (unsigned i = 0; i < 2; i++) {
		make_record(&rec, 0x200 + i, "fp-rare", 1000 + i, x, 7);
		insert(&st, &rec);
	}
	memset(&q, 0, sizeof(q));
	q.bench = "x";
	assert_int_equal(query_trend(&st, &q, &t, &err), 0);
	assert_string_equal(t.bench, "x");
	assert_string_equal(t.host, "fp-main");
	assert_string_equal(t.metric, "wall");
	assert_null(t.project);
	assert_int_equal(t.n, 5);
	for (size_t i = 0; i < 5; i++) {
		const struct query_trend_point *p = &t.points[i];
		assert_true(p->center == 100.0 * (double)(i + 1));
		assert_true(p->min == p->center - 5 && p->max == p->center + 5);
		assert_true(p->ratio == p->center / 100);
		assert_string_equal(p->verdict, "placement");
		assert_string_equal(p->ref, "main");
		assert_non_null(p->bundle);
		assert_non_null(p->time);
		assert_non_null(p->created);
		assert_int_equal(p->npads, 2);
		assert_true(p->pads[0] == p->center - 5 && p->pads[1] == p->center + 5);
		assert_string_equal(p->base_commit, "1111111111111111111111111111111111111111");
		assert_null(p->base_pads);
		assert_true(isnan(p->base_center) || p->base_center == 100);
	}
	query_trend_release(&t);
	assert_null(t.points);

	q.last = 2;
	assert_int_equal(query_trend(&st, &q, &t, &err), 0);
	assert_int_equal(t.n, 2);
	assert_true(t.points[0].center == 400.0);
	assert_true(t.points[1].center == 500.0);
	query_trend_release(&t);

	q.last = 0;
	q.host = "fp-r";
	assert_int_equal(query_trend(&st, &q, &t, &err), 0);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.host, "fp-rare");
	query_trend_release(&t);

	q.host = NULL;
	q.metric = "cycles";
	assert_int_equal(query_trend(&st, &q, &t, &err), PLUMB_EINPUT);
	assert_null(t.points);
	q.metric = NULL;
	q.bench = "nope";
	assert_int_equal(query_trend(&st, &q, &t, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "nope"));
	store_close(&st);
	rm_tree(dir);
}

/*
 * The pad medians of a trend read back as the index stores them: a whole
 * number stays an integer in `archive trend --json`, an unknown one is
 * null there and NAN in the struct; no pads recorded is null.
 */
PLUMB_TEST(archive_trend_pads_read_back_as_stored)
{
	static const char *const x[] = { "x", NULL };
	struct query_trend_result t;
	struct trend_series ts;
	struct ingest_record rec;
	struct query_trend q;
	struct plumb_err err;
	struct store st;
	struct buf out;
	char dir[64];
	json_t *j;

	open_fresh(&st, dir);
	plumb_err_clear(&err);
	make_record(&rec, 0x300, "fp", 100, x, 100);
	rec.benches[0].cand.pads[0] = 94;
	rec.benches[0].cand.pads[1] = NAN;
	insert(&st, &rec);
	memset(&q, 0, sizeof(q));
	q.bench = "x";
	assert_int_equal(query_trend(&st, &q, &t, &err), 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.points[0].npads, 2);
	assert_true(t.points[0].pads[0] == 94 && isnan(t.points[0].pads[1]));
	assert_int_equal(trend_series_find(&t, &ts, &err), 0);
	j = view_trend_json(&ts, 1);
	assert_non_null(j);
	buf_init(&out, 1 << 16);
	assert_int_equal(jsonio_dump(j, &out, &err), 0);
	assert_non_null(strstr(buf_cstr(&out), "\"pads\": [94, null],"));
	assert_non_null(strstr(buf_cstr(&out), "\"base_pads\": null,"));
	assert_non_null(strstr(buf_cstr(&out), "\"center\": 100.0,"));
	json_decref(j);
	trend_series_release(&ts);
	query_trend_release(&t);
	buf_release(&out);
	store_close(&st);
	rm_tree(dir);
}

PLUMB_TEST(archive_baselines_and_remove)
{
	static const char *const x[] = { "x", NULL };
	struct ingest_record rec;
	struct plumb_err err;
	struct store st;
	char dir[64], id[STORE_ID_LEN + 1], side[10], path[256];
	struct baseline_change c;
	struct baseline_entries l;
	struct baseline_detail d;

	open_fresh(&st, dir);
	plumb_err_clear(&err);
	make_record(&rec, 0xabc00000, "fp", 100, x, 5);
	insert(&st, &rec);
	make_record(&rec, 0xdef00000, "fp", 200, x, 6);
	insert(&st, &rec);

	assert_int_equal(baseline_set(&st, "release-1.2", "abc0", NULL, "first", &c, &err), 0);
	assert_string_equal(c.previous, "");
	assert_int_equal(strncmp(c.bundle, "abc00000", 8), 0);
	assert_string_equal(c.side, "candidate");
	assert_int_equal(baseline_get(&st, "release-1.2", id, side, &err), 0);
	assert_int_equal(strncmp(id, "abc00000", 8), 0);
	assert_string_equal(side, "candidate");
	/* Setting again moves it and says where from. */
	assert_int_equal(baseline_set(&st, "release-1.2", "def0", "base", NULL, &c, &err), 0);
	assert_int_equal(strncmp(c.previous, "abc00000", 8), 0);
	assert_int_equal(baseline_get(&st, "release-1.2", id, side, &err), 0);
	assert_string_equal(side, "base");
	assert_int_equal(baseline_set(&st, "bad name", "def0", NULL, NULL, NULL, &err), PLUMB_EARG);
	assert_int_equal(baseline_set(&st, "x", "def0", "middle", NULL, NULL, &err), PLUMB_EARG);
	assert_int_equal(baseline_set(&st, "x", "0000", NULL, NULL, NULL, &err), PLUMB_EINPUT);

	assert_int_equal(baseline_list(&st, &l, &err), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0].name, "release-1.2");
	assert_string_equal(l.v[0].side, "base");
	assert_null(l.v[0].note);
	baseline_entries_release(&l);
	assert_int_equal(baseline_show(&st, "release-1.2", &d, &err), 0);
	assert_int_equal(strncmp(d.bundle.id, "def00000", 8), 0);
	assert_int_equal(strncmp(d.entry.bundle, "def00000", 8), 0);
	baseline_detail_release(&d);

	/* A baseline's bundle stays until the baseline goes. */
	assert_int_equal(store_remove(&st, "def0", id, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "release-1.2"));
	assert_int_equal(baseline_rm(&st, "release-1.2", &err), 0);
	assert_int_equal(baseline_rm(&st, "release-1.2", &err), PLUMB_EINPUT);
	assert_int_equal(baseline_show(&st, "release-1.2", &d, &err), PLUMB_EINPUT);

	/* Remove deletes rows (benches and labels with them) and the file. */
	char *p = store_bundle_path(&st, "def00000" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
	snprintf(path, sizeof(path), "%s", p);
	free(p);
	char sub[128];
	snprintf(sub, sizeof(sub), "%s/bundles/de", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(store_remove(&st, "def0", id, &err), 0);
	assert_int_equal(strncmp(id, "def00000", 8), 0);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(int_query(db_sqlite_handle(st.db), "SELECT count(*) FROM benches"), 1);
	assert_int_equal(store_remove(&st, "def0", id, &err), PLUMB_EINPUT);
	store_close(&st);
	rm_tree(dir);
}

PLUMB_TEST(archive_subset_slices_partition)
{
	const char *names[] = {
		"ab/abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789.plumb",
		"00/00000000aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.plumb",
		"ff/ffffffffbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.plumb",
		"stray.txt", "ab/.x.plumb.tmp.123456", "zz",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (unsigned t = 1; t <= 7; t++) {
			unsigned s = scrub_slice_of(names[i], t);
			assert_true(s < t);
			/* Stable: the same name always lands in the same slice. */
			assert_int_equal(s, scrub_slice_of(names[i], t));
		}
	}
	/* Bundle files go by their id's first 8 hex digits. */
	assert_int_equal(scrub_slice_of(names[0], 7), 0xabcdef01u % 7);
	assert_int_equal(scrub_slice_of(names[2], 10), 0xffffffffu % 10);
}

PLUMB_TEST(archive_record_from_manifest)
{
	struct ingest_record rec;
	struct manifest m;
	struct plumb_err err;
	struct buf text;
	char path[1024];

	snprintf(path, sizeof(path), "%s/tests/fixtures/manifest/valid.json", unit_srcdir());
	buf_init(&text, 1 << 20);
	plumb_err_clear(&err);
	if (file_read(path, 1 << 20, &text, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(manifest_parse(&m, text.data, text.len, &err), 0);
	buf_release(&text);
	ingest_record_init(&rec);
	assert_int_equal(ingest_from_manifest(&m, &rec, &err), 0);
	manifest_release(&m);

	assert_int_equal(rec.created, 1714566896);   /* 2024-05-01T12:34:56Z */
	assert_string_equal(rec.plumb_version, "0.1.0");
	assert_string_equal(rec.format_version, "1.1");
	assert_string_equal(rec.repo, "/srv/src/interp");
	assert_string_equal(rec.base.ref, "v1.2.0");
	assert_string_equal(rec.cand.commit, "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d");
	assert_true(rec.cand.has_time);
	assert_string_equal(rec.host_fingerprint, "c0ffee0123456789");
	assert_non_null(rec.host_facts);
	assert_int_equal(rec.nlabels, 2);
	assert_int_equal(rec.nbenches, 3);
	assert_string_equal(rec.benches[0].name, "interp");
	assert_string_equal(rec.benches[0].verdict, "faster");
	assert_true(rec.benches[0].cand.center == 95500000.0);
	assert_int_equal(rec.benches[0].cand.npads, 3);
	assert_true(fabs(rec.benches[0].noise - 0.0049382716049382715) < 1e-15);
	assert_string_equal(rec.benches[1].mode, "samples");
	/* A failed benchmark keeps its name and says so. */
	assert_string_equal(rec.benches[2].name, "startup");
	assert_string_equal(rec.benches[2].verdict, "failed");
	assert_true(isnan(rec.benches[2].cand.center));
	ingest_record_release(&rec);
}

PLUMB_TEST(archive_record_fingerprint_from_start_facts)
{
	static const char text[] =
		"{\"format\":\"plumb-bundle\",\"version\":1,\"minorVersion\":0,"
		"\"tool\":{\"name\":\"other\",\"version\":\"2.0\"},"
		"\"created\":\"2024-05-01T12:34:56Z\",\"spec\":{},"
		"\"repo\":{\"base\":{\"ref\":\"a\",\"commit\":\"3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6d7e8f901\"},"
		"\"candidate\":{\"ref\":\"b\",\"commit\":\"9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d\"}},"
		"\"build\":{\"method\":\"none\",\"padBytes\":0,\"variants\":[]},"
		"\"host\":{\"start\":{\"fingerprint\":\"0123456789abcdef\",\"governor\":\"powersave\"}},"
		"\"run\":{\"seed\":1,\"rounds\":3},\"benches\":[]}";
	struct ingest_record rec;
	struct manifest m;
	struct plumb_err err;

	plumb_err_clear(&err);
	if (manifest_parse(&m, text, sizeof(text) - 1, &err) != 0)
		fail_msg("%s", err.msg);
	ingest_record_init(&rec);
	assert_int_equal(ingest_from_manifest(&m, &rec, &err), 0);
	manifest_release(&m);
	assert_string_equal(rec.host_fingerprint, "0123456789abcdef");
	assert_non_null(strstr(rec.host_facts, "powersave"));
	/* Not plumb: the tool's name is kept with its version; no commit times. */
	assert_string_equal(rec.plumb_version, "other 2.0");
	assert_false(rec.cand.has_time);
	assert_null(rec.repo);
	assert_int_equal(rec.nbenches, 0);
	ingest_record_release(&rec);
}

PLUMB_TEST(archive_dialect_rewrites_statements_for_postgresql)
{
	int n = -1;
	char *q = dialect_pg_sql("SELECT a FROM t WHERE b = ?1 AND c IS ?2 AND d IS NOT ?3"
				 " AND e = '?4 IS ?5' AND f IS NULL LIMIT ?", &n);

	assert_non_null(q);
	assert_string_equal(q, "SELECT a FROM t WHERE b = $1 AND c IS NOT DISTINCT FROM $2"
			    " AND d IS DISTINCT FROM $3 AND e = '?4 IS ?5' AND f IS NULL LIMIT $1");
	assert_int_equal(n, 3);
	free(q);
	q = dialect_pg_sql("INSERT INTO x VALUES (?, ?, 'it''s ?')", &n);
	assert_string_equal(q, "INSERT INTO x VALUES ($1, $2, 'it''s ?')");
	assert_int_equal(n, 2);
	free(q);
}

PLUMB_TEST(archive_dialect_rewrites_schema_for_postgresql)
{
	char *q = dialect_pg_schema(schema_step(0));

	assert_non_null(q);
	assert_non_null(strstr(q, "CREATE TABLE plumb_schema"));
	assert_non_null(strstr(q, "INSERT INTO plumb_schema VALUES (1886154082, 0)"));
	assert_non_null(strstr(q, "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"));
	assert_non_null(strstr(q, "base_center DOUBLE PRECISION"));
	assert_non_null(strstr(q, "fingerprint TEXT COLLATE \"C\" NOT NULL UNIQUE"));
	assert_null(strstr(q, "PRAGMA"));
	assert_null(strstr(q, "WITHOUT ROWID"));
	assert_null(strstr(q, "REAL"));
	assert_null(strstr(q, "INTEGER"));
	free(q);
	/* Every step rewrites (no PRAGMA or SQLite-only word left). */
	for (int i = 1; schema_step(i); i++) {
		q = dialect_pg_schema(schema_step(i));
		assert_non_null(q);
		assert_null(strstr(q, "INTEGER"));
		free(q);
	}
}

PLUMB_TEST(archive_url_password_is_redacted)
{
	static const char *const cases[][2] = {
		{ "postgresql://bench:s3cret@db.example/plumb", "postgresql://bench:***@db.example/plumb" },
		{ "postgres://bench@db/plumb?sslmode=require&password=x&a=b",
		  "postgres://bench@db/plumb?sslmode=require&password=***&a=b" },
		{ "postgresql:///plumb?host=/tmp/s", "postgresql:///plumb?host=/tmp/s" },
		{ "postgresql://u:p@h:5432/d?password=q", "postgresql://u:***@h:5432/d?password=***" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *r = url_redact(cases[i][0]);
		assert_non_null(r);
		assert_string_equal(r, cases[i][1]);
		free(r);
	}
	assert_true(url_is_postgres("postgresql://x/y"));
	assert_true(url_is_postgres("postgres://x/y"));
	assert_false(url_is_postgres("/srv/archive"));
	assert_false(url_is_postgres("postgresql:x"));
}
