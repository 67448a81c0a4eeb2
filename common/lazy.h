/*
 * common/lazy.h: the heavy libraries (libgit2, libarchive, capstone) are
 * loaded when a command first needs them, not at start-up.
 *
 * Linking them costs every process 1-2 ms each (37 shared objects and their
 * relocations), which the light commands (--version, help, archive queries,
 * analyze) never use.  Each library has one module, common/lazy-<lib>.h,
 * that includes the library's own header, keeps a table of pointers to the
 * functions plumb calls, and redirects those names to the table; the
 * dlopen() of the file that pkg-config found at configure time happens on
 * the first call (or through <lib>_load() where a stage can still report an
 * error).  plumb itself does not link them: a call to a function missing
 * from a table is a link error, not a crash.
 *
 * Adding a function: one X(name) row in PLUMB_<LIB>_FUNCS and one
 * "#define name PLUMB_<LIB>(name)" line in common/lazy-<lib>.h.
 *
 * Ownership: a struct lazy_lib is static storage of its module; a loaded
 * library stays loaded until the process ends.
 */
#ifndef PLUMB_COMMON_LAZY_H
#define PLUMB_COMMON_LAZY_H

#include <stddef.h>

#include "common/err.h"

struct lazy_lib {
	const char *name;            /* "libgit2", in messages */
	const char *soname;          /* "libgit2.so.1.5", tried first */
	const char *path;            /* the file pkg-config found, tried second */
	const char *const *symbols;  /* n function names ... */
	void *table;                 /* ... and the struct of n function pointers they fill */
	size_t n;
	void *handle;
	int state;                   /* 0 not tried, 1 loaded, -1 failed */
	char why[512];               /* the failure, kept for later calls */
};

/*
 * Load lib and resolve every symbol, once per process.  Returns 0, or
 * PLUMB_EINTERNAL with a message naming the library and what is missing
 * (a later call returns the same error without trying again).
 */
int lazy_load(struct lazy_lib *lib, struct plumb_err *err);

/* lazy_load() for a call that cannot return an error: exits 70 on failure. */
void lazy_need(struct lazy_lib *lib);

/* Whether lib is loaded (tests, --version). */
int lazy_loaded(const struct lazy_lib *lib);

#endif
