/*
 * common/lazy.c: dlopen() of a heavy library on first use, with one clear
 * error when it cannot be loaded (see common/lazy.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lazy.h"
#include "common/banned.h"

typedef void (*fnptr)(void);
_Static_assert(sizeof(fnptr) == sizeof(void *), "dlsym() results are stored as function pointers");

static void *open_lib(struct lazy_lib *lib, char *first, size_t size)
{
	const char *e;
	void *h;

	/*
	 * The soname first, as the dynamic linker would look for a DT_NEEDED
	 * entry (LD_LIBRARY_PATH, the cache); then the file configure found,
	 * for a library outside the default paths.
	 */
	h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (h)
		return h;
	e = dlerror();
	snprintf(first, size, "%s", e ? e : lib->soname);
	if (lib->path && *lib->path && strcmp(lib->path, lib->soname) != 0)
		h = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
	return h;
}

int lazy_load(struct lazy_lib *lib, struct plumb_err *err)
{
	void *h;

	if (lib->state == 1)
		return 0;
	if (lib->state == 0) {
		char first[256];
		h = open_lib(lib, first, sizeof(first));
		if (!h) {
			snprintf(lib->why, sizeof(lib->why),
				 "cannot be loaded (%.200s; plumb was built against %.200s)",
				 first, lib->path && *lib->path ? lib->path : lib->soname);
			lib->state = -1;
		} else {
			for (size_t i = 0; i < lib->n; i++) {
				void *p;
				dlerror();
				p = dlsym(h, lib->symbols[i]);
				if (!p) {
					snprintf(lib->why, sizeof(lib->why),
						 "%.100s has no function %.100s (plumb was built against %.200s)",
						 lib->soname, lib->symbols[i],
						 lib->path && *lib->path ? lib->path : lib->soname);
					lib->state = -1;
					break;
				}
				/* POSIX: a function's address fits in a void *. */
				memcpy((char *)lib->table + i * sizeof(fnptr), &p, sizeof(fnptr));
			}
			if (lib->state == 0) {
				lib->handle = h;
				lib->state = 1;
				return 0;
			}
			dlclose(h);
		}
	}
	return plumb_err_set(err, PLUMB_EINTERNAL, "%s is needed here but %s",
			     lib->name, lib->why);
}

void lazy_need(struct lazy_lib *lib)
{
	struct plumb_err err;

	if (lib->state == 1)
		return;
	plumb_err_clear(&err);
	if (lazy_load(lib, &err) < 0) {
		fprintf(stderr, "plumb: %s\n", err.msg);
		/* 70, EX_SOFTWARE: the installation is broken, not the input. */
		exit(70);
	}
}

int lazy_loaded(const struct lazy_lib *lib)
{
	return lib->state == 1;
}
