/*
 * common/lazy-pq.h: libpq, loaded on first use (common/lazy.h).
 *
 * Include this instead of the library's header.  Every function plumb
 * calls is a row of PLUMB_PQ_FUNCS and a redirect below; a call to any
 * other function of libpq does not link.  Only an archive on PostgreSQL
 * (archive/db-pg.c) loads it.
 */
#ifndef PLUMB_COMMON_LAZY_PQ_H
#define PLUMB_COMMON_LAZY_PQ_H

#include <libpq-fe.h>

#include "common/lazy.h"

#define PLUMB_PQ_FUNCS(X) \
	X(PQclear) \
	X(PQcmdTuples) \
	X(PQconnectdb) \
	X(PQerrorMessage) \
	X(PQexec) \
	X(PQexecParams) \
	X(PQfinish) \
	X(PQftype) \
	X(PQgetisnull) \
	X(PQgetvalue) \
	X(PQlibVersion) \
	X(PQnfields) \
	X(PQntuples) \
	X(PQresultErrorField) \
	X(PQresultErrorMessage) \
	X(PQresultStatus) \
	X(PQsetNoticeProcessor) \
	X(PQstatus) \
	X(PQtransactionStatus)

#define PLUMB_PQ_SLOT(f) __typeof__(f) *f;
struct plumb_pq_fns {
	PLUMB_PQ_FUNCS(PLUMB_PQ_SLOT)
};
#undef PLUMB_PQ_SLOT

extern struct plumb_pq_fns plumb_pq;
extern struct lazy_lib plumb_pq_lib;

/* Load libpq now; 0, or PLUMB_EINTERNAL naming the library. */
int pq_load(struct plumb_err *err);

/* A call through the table, loading libpq first when it is not yet. */
#define PLUMB_PQ(f) (*(lazy_need(&plumb_pq_lib), plumb_pq.f))

#ifndef PLUMB_LAZY_PQ_IMPL
#define PQclear PLUMB_PQ(PQclear)
#define PQcmdTuples PLUMB_PQ(PQcmdTuples)
#define PQconnectdb PLUMB_PQ(PQconnectdb)
#define PQerrorMessage PLUMB_PQ(PQerrorMessage)
#define PQexec PLUMB_PQ(PQexec)
#define PQexecParams PLUMB_PQ(PQexecParams)
#define PQfinish PLUMB_PQ(PQfinish)
#define PQftype PLUMB_PQ(PQftype)
#define PQgetisnull PLUMB_PQ(PQgetisnull)
#define PQgetvalue PLUMB_PQ(PQgetvalue)
#define PQlibVersion PLUMB_PQ(PQlibVersion)
#define PQnfields PLUMB_PQ(PQnfields)
#define PQntuples PLUMB_PQ(PQntuples)
#define PQresultErrorField PLUMB_PQ(PQresultErrorField)
#define PQresultErrorMessage PLUMB_PQ(PQresultErrorMessage)
#define PQresultStatus PLUMB_PQ(PQresultStatus)
#define PQsetNoticeProcessor PLUMB_PQ(PQsetNoticeProcessor)
#define PQstatus PLUMB_PQ(PQstatus)
#define PQtransactionStatus PLUMB_PQ(PQtransactionStatus)
#endif

#endif
