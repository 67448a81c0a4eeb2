/*
 * common/lazy-capstone.c: the table of capstone's functions (common/lazy-capstone.h).
 */
#define PLUMB_LAZY_CAPSTONE_IMPL
#include "common/lazy-capstone.h"
#include "common/banned.h"

struct plumb_capstone_fns plumb_capstone;

#define PLUMB_CAPSTONE_NAME(f) #f,
static const char *const names[] = { PLUMB_CAPSTONE_FUNCS(PLUMB_CAPSTONE_NAME) };
_Static_assert(sizeof(plumb_capstone) == sizeof(names) / sizeof(names[0]) * sizeof(void (*)(void)),
	       "one function pointer per name");

struct lazy_lib plumb_capstone_lib = {
	.name = "capstone",
	.soname = PLUMB_CAPSTONE_SONAME,
	.path = PLUMB_CAPSTONE_PATH,
	.symbols = names,
	.table = &plumb_capstone,
	.n = sizeof(names) / sizeof(names[0]),
};

int capstone_load(struct plumb_err *err)
{
	return lazy_load(&plumb_capstone_lib, err);
}
