/*
 * common/git2.c: libgit2 initialised once per process; see git2.h.
 */
#include <stdlib.h>
#include <unistd.h>

#include "common/git2.h"
#include "common/banned.h"

static pid_t init_pid;

/* At exit of the process that initialised it: libgit2 frees its caches. */
static void git2_exit(void)
{
	if (getpid() == init_pid)
		git_libgit2_shutdown();
}

int git2_init(struct plumb_err *err)
{
	static int done;

	if (done)
		return 0;
	if (git_libgit2_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2: cannot initialize");
	init_pid = getpid();
	if (atexit(git2_exit) != 0) {
		git_libgit2_shutdown();
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2: atexit failed");
	}
	done = 1;
	return 0;
}
