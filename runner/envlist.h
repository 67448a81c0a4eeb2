/*
 * runner/envlist.h: the explicit environment handed to a child process.
 *
 * plumb never lets a child inherit its environment implicitly: builds get
 * plumb's environment with named changes, benchmarks get an allowlist
 * (DESIGN §5.3), and both are built here as "NAME=value" lists.
 *
 * Ownership: struct envlist is caller-owned storage; envlist_init() sets it
 * up empty, envlist_release() frees the strings and the vector.  v is
 * NULL-terminated and valid until the next call that changes the list.
 */
#ifndef PLUMB_RUNNER_ENVLIST_H
#define PLUMB_RUNNER_ENVLIST_H

#include <stddef.h>

struct plumb_err;

struct envlist {
	char **v;    /* "NAME=value" strings, NULL-terminated (never NULL after init) */
	size_t n;
};

/* An empty list; 0 or PLUMB_EINTERNAL when out of memory. */
int envlist_init(struct envlist *e, struct plumb_err *err);
void envlist_release(struct envlist *e);

/* Copy every entry of environ (plumb's own environment) into e. */
int envlist_inherit(struct envlist *e, struct plumb_err *err);

/* Set NAME to value, replacing an earlier entry of that name. */
int envlist_set(struct envlist *e, const char *name, const char *value,
		struct plumb_err *err);

/* Remove NAME when present. */
void envlist_unset(struct envlist *e, const char *name);

/* The value of NAME in e, or NULL. */
const char *envlist_get(const struct envlist *e, const char *name);

#endif
