/*
 * archive/db-pg.c: the PostgreSQL back end of db.h, through libpq.
 *
 * A statement is its SQL rewritten for PostgreSQL (dialect.h) and the
 * values bound to it as text with their types (int8, float8, text; a
 * db_bind_null() or unbound parameter untyped, for the server to infer), sent with PQexecParams() at the first db_step(); the rows of
 * the result are then stepped through on the client.  The archive's
 * queries return few rows (lists are LIMITed), so nothing is gained by a
 * cursor.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "archive/db-impl.h"
#include "archive/dialect-sql.h"
#include "common/banned.h"

#define CONN(db) ((PGconn *)(db)->pg)
#define RES(s) ((PGresult *)(s)->res)

static void set_msg(struct db *db, const char *m)
{
	char *c = strdup(m ? m : "unknown error");
	size_t n;

	free(db->msg);
	db->msg = c;
	/* libpq ends its messages with a newline (sometimes two lines: ERROR, DETAIL). */
	if (c) {
		for (char *p = c; *p; p++)
			if (*p == '\n' && p[1])
				*p = ' ';
		n = strlen(c);
		while (n && (c[n - 1] == '\n' || c[n - 1] == ' '))
			c[--n] = '\0';
	}
}

/* SQLSTATE classes to SQLite's codes of the same meaning (db.h). */
static int map_state(const char *st)
{
	if (!st || strlen(st) != 5)
		return DB_IOERR;    /* no SQLSTATE: the connection broke */
	if (!strcmp(st, "55P03") || !strcmp(st, "40001") || !strcmp(st, "40P01") ||
	    !strcmp(st, "57014"))
		return DB_BUSY;     /* lock timeout, serialization failure, deadlock, canceled */
	if (!strcmp(st, "53100"))
		return DB_FULL;
	if (!strcmp(st, "53200"))
		return DB_NOMEM;
	if (!strcmp(st, "25006"))
		return DB_READONLY;
	if (!strncmp(st, "23", 2))
		return DB_CONSTRAINT;
	if (!strncmp(st, "08", 2) || !strncmp(st, "57", 2) || !strncmp(st, "53", 2) ||
	    !strncmp(st, "58", 2))
		return DB_IOERR;
	if (!strcmp(st, "XX001") || !strcmp(st, "XX002"))
		return DB_CORRUPT;
	return DB_ERROR;
}

/* The code of a failed result, its message kept on db. */
static int result_error(struct db *db, PGresult *res)
{
	int rc;

	if (!res) {
		set_msg(db, PQerrorMessage(CONN(db)));
		return DB_IOERR;
	}
	rc = map_state(PQresultErrorField(res, PG_DIAG_SQLSTATE));
	set_msg(db, PQresultErrorMessage(res));
	return rc;
}

/* Notices ("relation already exists, skipping") are not plumb's output. */
static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int db_open_postgres(struct db **out, const char *url, int busy_ms)
{
	struct db *db;
	char set[160];
	int rc;

	*out = NULL;
	if (!(db = calloc(1, sizeof(*db))))
		return DB_NOMEM;
	*out = db;
	db->backend = DB_POSTGRES;
	db->pg = PQconnectdb(url);
	if (!db->pg)
		return DB_NOMEM;
	if (PQstatus(CONN(db)) != CONNECTION_OK) {
		set_msg(db, PQerrorMessage(CONN(db)));
		return DB_CANTOPEN;
	}
	PQsetNoticeProcessor(CONN(db), quiet, NULL);
	/*
	 * A writer waits for another one's lock as long as SQLite's busy
	 * timeout would; UTF-8 both ways; no notices.
	 */
	snprintf(set, sizeof(set), "SET lock_timeout = %d; SET client_encoding = 'UTF8'; "
		 "SET client_min_messages = warning", busy_ms);
	rc = dbpg_exec(db, set);
	return rc;
}

void dbpg_close(struct db *db)
{
	if (db->pg)
		PQfinish(CONN(db));
	db->pg = NULL;
}

int dbpg_in_txn(const struct db *db)
{
	return db->pg && PQtransactionStatus(CONN(db)) != PQTRANS_IDLE;
}

int dbpg_exec(struct db *db, const char *sql)
{
	PGresult *res;
	ExecStatusType st;
	int rc = DB_OK;

	/* PostgreSQL answers COMMIT of a failed transaction with a rollback. */
	if (strcmp(sql, "COMMIT") == 0 && PQtransactionStatus(CONN(db)) == PQTRANS_INERROR) {
		PQclear(PQexec(CONN(db), "ROLLBACK"));
		set_msg(db, "the transaction was rolled back after an earlier error");
		return DB_ERROR;
	}
	res = PQexec(CONN(db), sql);
	st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		db->changes = strtoll(PQcmdTuples(res), NULL, 10);
	} else {
		rc = result_error(db, res);
	}
	PQclear(res);
	return rc;
}

int dbpg_prepare(struct db *db, const char *sql, struct db_stmt **out)
{
	struct db_stmt *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s || !(s->sql = dialect_pg_sql(sql, &s->nparams))) {
		free(s);
		set_msg(db, "out of memory");
		return DB_NOMEM;
	}
	s->db = db;
	if (s->nparams > 0) {
		s->vals = calloc((size_t)s->nparams, sizeof(*s->vals));
		s->types = calloc((size_t)s->nparams, sizeof(*s->types));
		if (!s->vals || !s->types) {
			free(s->vals);
			free(s->types);
			free(s->sql);
			free(s);
			set_msg(db, "out of memory");
			return DB_NOMEM;
		}
	}
	*out = s;
	return DB_OK;
}

void dbpg_bind(struct db_stmt *s, int i, unsigned type, const char *text)
{
	char *c = NULL;

	if (i < 1 || i > s->nparams)
		return;
	if (text && !(c = strdup(text)))
		s->oom = 1;
	free(s->vals[i - 1]);
	s->vals[i - 1] = c;
	s->types[i - 1] = type;
}

void dbpg_reset(struct db_stmt *s)
{
	PQclear(RES(s));
	s->res = NULL;
	s->started = 0;
	s->row = s->nrows = 0;
}

void dbpg_clear_bindings(struct db_stmt *s)
{
	for (int i = 0; i < s->nparams; i++) {
		free(s->vals[i]);
		s->vals[i] = NULL;
		s->types[i] = 0;
	}
}

void dbpg_finalize(struct db_stmt *s)
{
	dbpg_reset(s);
	dbpg_clear_bindings(s);
	free(s->vals);
	free(s->types);
	free(s->sql);
}

int dbpg_step(struct db_stmt *s)
{
	struct db *db = s->db;

	if (!s->started) {
		PGresult *res;
		ExecStatusType st;
		Oid *types = NULL;

		if (s->oom) {
			set_msg(db, "out of memory");
			return DB_NOMEM;
		}
		if (s->nparams > 0) {
			types = calloc((size_t)s->nparams, sizeof(*types));
			if (!types) {
				set_msg(db, "out of memory");
				return DB_NOMEM;
			}
			for (int i = 0; i < s->nparams; i++)
				types[i] = s->types[i];
		}
		res = PQexecParams(CONN(db), s->sql, s->nparams, types,
				   (const char *const *)s->vals, NULL, NULL, 0);
		free(types);
		s->started = 1;
		st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			int rc = result_error(db, res);
			PQclear(res);
			return rc;
		}
		db->changes = strtoll(PQcmdTuples(res), NULL, 10);
		s->res = res;
		s->nrows = st == PGRES_TUPLES_OK ? PQntuples(res) : 0;
		s->row = -1;
	}
	if (!s->res || s->row + 1 >= s->nrows) {
		s->row = s->nrows;
		return DB_DONE;
	}
	s->row++;
	return DB_ROW;
}

/* Whether the current row has column i. */
static int have(struct db_stmt *s, int i)
{
	return s->res && s->row >= 0 && s->row < s->nrows && i >= 0 && i < PQnfields(RES(s));
}

enum db_type dbpg_column_type(struct db_stmt *s, int i)
{
	if (!have(s, i) || PQgetisnull(RES(s), s->row, i))
		return DB_NULL;
	switch (PQftype(RES(s), i)) {
	case 16: /* bool */
	case 20: /* int8 */
	case 21: /* int2 */
	case 23: /* int4 */
	case 26: /* oid */
		return DB_INTEGER;
	case 700:  /* float4 */
	case 701:  /* float8 */
	case 1700: /* numeric */
		return DB_FLOAT;
	default:
		return DB_TEXT;
	}
}

const char *dbpg_column_text(struct db_stmt *s, int i)
{
	if (!have(s, i) || PQgetisnull(RES(s), s->row, i))
		return NULL;
	return PQgetvalue(RES(s), s->row, i);
}
