/*
 * common/err.c: filling struct plumb_err; see err.h for the idiom.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "common/banned.h"

void plumb_err_clear(struct plumb_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int plumb_err_setv(struct plumb_err *err, int code, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return code;
}

int plumb_err_set(struct plumb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	plumb_err_setv(err, code, fmt, ap);
	va_end(ap);
	return code;
}

int plumb_err_errno(struct plumb_err *err, int code, int errnum,
		    const char *subject, const char *what)
{
	char buf[256];
	const char *s;

	if (code == 0) {
		switch (errnum) {
		case ENOSPC: case EIO: case EDQUOT: case EROFS: case EFBIG:
			code = PLUMB_EIO;
			break;
		case ENOMEM:
			code = PLUMB_EINTERNAL;
			break;
		default:
			code = PLUMB_EIO;
			break;
		}
	}
	/* GNU strerror_r may return a static string instead of filling buf. */
#if defined(_GNU_SOURCE) && !defined(__MUSL__)
	s = strerror_r(errnum, buf, sizeof(buf));
#else
	s = strerror_r(errnum, buf, sizeof(buf)) == 0 ? buf : "unknown error";
#endif
	if (what && *what)
		return plumb_err_set(err, code, "%s: %s: %s", subject, what, s);
	return plumb_err_set(err, code, "%s: %s", subject, s);
}

int plumb_err_prefix(struct plumb_err *err, const char *fmt, ...)
{
	char ctx[PLUMB_ERR_MAX / 2];
	char old[PLUMB_ERR_MAX];
	va_list ap;

	if (!err)
		return 0;
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* Truncation keeps the context, which names the subject. */
	if (snprintf(err->msg, sizeof(err->msg), "%s: %s", ctx, old) < 0)
		err->msg[0] = '\0';
	return err->code;
}

int plumb_err_oom(struct plumb_err *err, const char *what)
{
	return plumb_err_set(err, PLUMB_EINTERNAL, "out of memory (%s)", what);
}
