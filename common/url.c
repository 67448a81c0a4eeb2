/*
 * common/url.c: database URLs; see url.h.
 */
#include <string.h>

#include "common/buf.h"
#include "common/url.h"
#include "common/banned.h"

int url_is_postgres(const char *s)
{
	return s && (strncmp(s, "postgresql://", 13) == 0 || strncmp(s, "postgres://", 11) == 0);
}

char *url_redact(const char *url)
{
	const char *scheme_end = strstr(url, "://");
	const char *auth = scheme_end ? scheme_end + 3 : url;
	const char *at = auth + strcspn(auth, "/?#@");
	struct buf b;
	int bad = 0;

	buf_init(&b, 1 << 16);
	if (*at == '@') {
		/* user:password@host: the password goes. */
		const char *colon = memchr(auth, ':', (size_t)(at - auth));
		bad |= buf_add(&b, url, (size_t)((colon ? colon : at) - url)) < 0;
		if (colon)
			bad |= buf_addstr(&b, ":***") < 0;
		url = at;
	}
	/* password=... among the parameters (?a=b&password=c). */
	const char *q = strchr(url, '?');
	bad |= buf_add(&b, url, q ? (size_t)(q - url) : strlen(url)) < 0;
	while (q && *q) {
		const char *e = q + 1 + strcspn(q + 1, "&");
		bad |= buf_add(&b, q, 1) < 0;
		if (strncmp(q + 1, "password=", 9) == 0)
			bad |= buf_addstr(&b, "password=***") < 0;
		else
			bad |= buf_add(&b, q + 1, (size_t)(e - q - 1)) < 0;
		q = *e ? e : NULL;
	}
	if (bad) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}
