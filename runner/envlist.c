/*
 * runner/envlist.c: building explicit child environments; see envlist.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "runner/envlist.h"
#include "common/banned.h"

extern char **environ;

int envlist_init(struct envlist *e, struct plumb_err *err)
{
	e->n = 0;
	e->v = calloc(1, sizeof(*e->v));
	if (!e->v)
		return plumb_err_oom(err, "environment");
	return 0;
}

void envlist_release(struct envlist *e)
{
	if (e->v)
		for (size_t i = 0; i < e->n; i++)
			free(e->v[i]);
	free(e->v);
	e->v = NULL;
	e->n = 0;
}

static int find(const struct envlist *e, const char *name, size_t len)
{
	for (size_t i = 0; i < e->n; i++)
		if (strncmp(e->v[i], name, len) == 0 && e->v[i][len] == '=')
			return (int)i;
	return -1;
}

/* Add or replace the entry "name=value" given as one string (taken over). */
static int put(struct envlist *e, char *entry, size_t namelen,
	       struct plumb_err *err)
{
	int i = find(e, entry, namelen);
	char **nv;

	if (i >= 0) {
		free(e->v[i]);
		e->v[i] = entry;
		return 0;
	}
	nv = realloc(e->v, (e->n + 2) * sizeof(*nv));
	if (!nv) {
		free(entry);
		return plumb_err_oom(err, "environment");
	}
	nv[e->n++] = entry;
	nv[e->n] = NULL;
	e->v = nv;
	return 0;
}

int envlist_inherit(struct envlist *e, struct plumb_err *err)
{
	for (char **p = environ; p && *p; p++) {
		const char *eq = strchr(*p, '=');
		char *copy;
		int r;
		if (!eq || eq == *p)
			continue;
		copy = strdup(*p);
		if (!copy)
			return plumb_err_oom(err, "environment");
		r = put(e, copy, (size_t)(eq - *p), err);
		if (r < 0)
			return r;
	}
	return 0;
}

int envlist_set(struct envlist *e, const char *name, const char *value,
		struct plumb_err *err)
{
	size_t nl = strlen(name), vl = strlen(value);
	int i = find(e, name, nl);
	char *entry;

	/* A value of the old one's length is written over it: the runner sets
	 * PLUMB_ARTIFACT before every run, to paths of one length. */
	if (i >= 0 && strlen(e->v[i] + nl + 1) == vl) {
		memcpy(e->v[i] + nl + 1, value, vl);
		return 0;
	}
	entry = malloc(nl + vl + 2);
	if (!entry)
		return plumb_err_oom(err, "environment");
	memcpy(entry, name, nl);
	entry[nl] = '=';
	memcpy(entry + nl + 1, value, vl + 1);
	return put(e, entry, nl, err);
}

void envlist_unset(struct envlist *e, const char *name)
{
	int i = find(e, name, strlen(name));

	if (i < 0)
		return;
	free(e->v[i]);
	memmove(&e->v[i], &e->v[i + 1], (e->n - (size_t)i) * sizeof(*e->v));
	e->n--;
}

const char *envlist_get(const struct envlist *e, const char *name)
{
	size_t len = strlen(name);
	int i = find(e, name, len);

	return i < 0 ? NULL : e->v[i] + len + 1;
}
