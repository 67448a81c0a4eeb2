/*
 * common/buf.h: a growable byte buffer with a hard size limit (curl's
 * dynbuf).  Every reader of untrusted input and every text renderer builds
 * its output here, so a size budget is enforced in one place (STYLE 8).
 *
 * Ownership: struct buf is caller-owned storage; buf_init() sets it up,
 * buf_release() frees its data.  buf->data is always NUL-terminated once
 * anything was added (or after buf_cstr()), and is valid until the next
 * call that adds to the buffer or buf_release().
 */
#ifndef PLUMB_COMMON_BUF_H
#define PLUMB_COMMON_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct plumb_err;

struct buf {
	char *data;
	size_t len;   /* bytes used, not counting the terminating NUL */
	size_t cap;   /* bytes allocated */
	size_t max;   /* most bytes len may reach */
};

/* Set up an empty buffer that may grow to max bytes. */
void buf_init(struct buf *b, size_t max);

/* Free the data; the buffer is empty (and usable) again. */
void buf_release(struct buf *b);

/* Forget the contents, keep the allocation. */
void buf_reset(struct buf *b);

/*
 * Append; each returns 0, or -1 when memory runs out or max would be passed
 * (then the buffer is unchanged and errno is ENOMEM or E2BIG).
 */
int buf_add(struct buf *b, const void *data, size_t len);
int buf_addstr(struct buf *b, const char *s);
int buf_addch(struct buf *b, char c);
int buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* The contents as a C string ("" for an empty buffer, never NULL). */
const char *buf_cstr(const struct buf *b);

/* Hand the data over to the caller (free() it); the buffer is empty after. */
char *buf_detach(struct buf *b, size_t *len);

/*
 * A new heap string from a format (free() it), or NULL when memory runs
 * out or it would pass 1 MiB.
 */
char *buf_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Fill err after a failed buf_* call: "<what>: out of memory" or "too large". */
int buf_err(struct plumb_err *err, const char *what);

#endif
