/*
 * common/path.c: folder part and joining of paths; see path.h.
 */
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/path.h"
#include "common/banned.h"

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

char *path_join(const char *a, const char *b)
{
	struct buf p;
	size_t la = strlen(a);

	buf_init(&p, la + strlen(b) + 2);
	while (la > 1 && a[la - 1] == '/')
		la--;
	if (buf_add(&p, a, la) < 0 ||
	    (!(la == 1 && a[0] == '/') && buf_addch(&p, '/') < 0) ||
	    buf_addstr(&p, b) < 0) {
		buf_release(&p);
		return NULL;
	}
	return buf_detach(&p, NULL);
}
