/*
 * common/lazy-git2.c: the table of git2's functions (common/lazy-git2.h).
 */
#define PLUMB_LAZY_GIT2_IMPL
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static pid_t init_pid;

/* At exit of the process that initialised it: libgit2 frees its caches. */
static void git2_exit(void)
{
	if (getpid() == init_pid)
		PLUMB_GIT2(git_libgit2_shutdown)();
}

int git2_init(struct plumb_err *err)
{
	static int done;
	int r;

	if (done)
		return 0;
	if ((r = git2_load(err)) < 0)
		return r;
	if (PLUMB_GIT2(git_libgit2_init)() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2: cannot initialize");
	init_pid = getpid();
	if (atexit(git2_exit) != 0) {
		PLUMB_GIT2(git_libgit2_shutdown)();
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2: atexit failed");
	}
	done = 1;
	return 0;
}
