/*
 * common/lazy-pq.c: the table of libpq's functions (common/lazy-pq.h).
 */
#define PLUMB_LAZY_PQ_IMPL
#include "common/lazy-pq.h"
#include "common/banned.h"

struct plumb_pq_fns plumb_pq;

#define PLUMB_PQ_NAME(f) #f,
static const char *const names[] = { PLUMB_PQ_FUNCS(PLUMB_PQ_NAME) };
_Static_assert(sizeof(plumb_pq) == sizeof(names) / sizeof(names[0]) * sizeof(void (*)(void)),
	       "one function pointer per name");

struct lazy_lib plumb_pq_lib = {
	.name = "libpq",
	.soname = PLUMB_PQ_SONAME,
	.path = PLUMB_PQ_PATH,
	.symbols = names,
	.table = &plumb_pq,
	.n = sizeof(names) / sizeof(names[0]),
};

int pq_load(struct plumb_err *err)
{
	return lazy_load(&plumb_pq_lib, err);
}
