/*
 * common/buf.c: bounded growable buffers; see buf.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/banned.h"

void buf_init(struct buf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

void buf_release(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

/* Make room for len more bytes plus the terminating NUL. */
static int buf_grow(struct buf *b, size_t len)
{
	size_t need, cap;
	char *p;

	if (len > b->max || b->len > b->max - len) {
		errno = E2BIG;
		return -1;
	}
	need = b->len + len + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need) {
		if (cap > ((size_t)-1) / 2) {
			cap = need;
			break;
		}
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

int buf_add(struct buf *b, const void *data, size_t len)
{
	if (buf_grow(b, len) < 0)
		return -1;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

int buf_addstr(struct buf *b, const char *s)
{
	return buf_add(b, s, strlen(s));
}

int buf_addch(struct buf *b, char c)
{
	return buf_add(b, &c, 1);
}

int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0) {
		errno = EINVAL;
		return -1;
	}
	if (buf_grow(b, (size_t)n) < 0)
		return -1;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = buf_vprintf(b, fmt, ap);
	va_end(ap);
	return r;
}

const char *buf_cstr(const struct buf *b)
{
	return b->data ? b->data : "";
}

char *buf_detach(struct buf *b, size_t *len)
{
	char *p = b->data;

	if (!p) {
		p = malloc(1);
		if (p)
			p[0] = '\0';
	}
	if (len)
		*len = b->len;
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return p;
}

char *buf_strdupf(const char *fmt, ...)
{
	struct buf b;
	va_list ap;
	int r;

	buf_init(&b, 1 << 20);
	va_start(ap, fmt);
	r = buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (r < 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

int buf_err(struct plumb_err *err, const char *what)
{
	if (errno == E2BIG)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: too large", what);
	return plumb_err_oom(err, what);
}
