/*
 * common/git2.h: libgit2, initialised once per process.
 *
 * Include this for <git2.h>: every file that calls libgit2 starts it
 * through git2_init() first, so that its global state is set up once and
 * torn down once, at the exit of the process that set it up (a forked
 * child leaves it to the parent).
 *
 * Ownership: the state lives until the process exits.
 */
#ifndef PLUMB_COMMON_GIT2_H
#define PLUMB_COMMON_GIT2_H

#include <git2.h>

#include "common/err.h"

/*
 * Initialise libgit2, once per process (later calls return at once).  0,
 * or PLUMB_EINTERNAL.
 */
int git2_init(struct plumb_err *err);

#endif
