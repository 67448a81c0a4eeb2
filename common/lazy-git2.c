/*
 * common/lazy-git2.c: the table of git2's functions (common/lazy-git2.h).
 */
#define PLUMB_LAZY_GIT2_IMPL
#include "common/lazy-git2.h"
#include "common/banned.h"

struct plumb_git2_fns plumb_git2;

#define PLUMB_GIT2_NAME(f) #f,
static const char *const names[] = { PLUMB_GIT2_FUNCS(PLUMB_GIT2_NAME) };
_Static_assert(sizeof(plumb_git2) == sizeof(names) / sizeof(names[0]) * sizeof(void (*)(void)),
	       "one function pointer per name");

struct lazy_lib plumb_git2_lib = {
	.name = "libgit2",
	.soname = PLUMB_GIT2_SONAME,
	.path = PLUMB_GIT2_PATH,
	.symbols = names,
	.table = &plumb_git2,
	.n = sizeof(names) / sizeof(names[0]),
};

int git2_load(struct plumb_err *err)
{
	return lazy_load(&plumb_git2_lib, err);
}
