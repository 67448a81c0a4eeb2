/*
 * common/err.h: the one error idiom of plumb.
 *
 * Stage functions (runner/, stats/, formats/, archive/, reports/) return 0 on
 * success or a negative PLUMB_E* code, and fill a caller-owned struct
 * plumb_err with that code and a lower-case message naming the subject
 * ("bundle.plumb: member '../x': path escapes bundle").  A struct plumb_err
 * is left untouched on success, so calls can chain.  A code says what went
 * wrong, nothing more: only cli/ turns a code into an exit status, through
 * the one table of cli/exit.h (DESIGN §3).  What a stage found that is not
 * an error (verdicts withheld, --fail-on matched) is a field of its result.
 *
 * Ownership: struct plumb_err is plain storage owned by the caller; the
 * message lives inside it, nothing to free.
 */
#ifndef PLUMB_COMMON_ERR_H
#define PLUMB_COMMON_ERR_H

#include <stdarg.h>

/* Error codes returned by stage functions: what went wrong. */
enum plumb_code {
	PLUMB_OK = 0,
	PLUMB_EINPUT = -1,     /* bad input: config, bundle, archive, signature, samples */
	PLUMB_EBUILD = -2,     /* a build failed */
	PLUMB_EBENCH = -3,     /* a benchmark failed */
	PLUMB_EARG = -4,       /* an argument cannot be used as given (a bad -o path, an
				  unknown side): the caller's request, not its input */
	PLUMB_EINTERNAL = -5,  /* a bug, or memory ran out */
	PLUMB_EIO = -6,        /* reading or writing failed (disk full, EIO) */
	PLUMB_ELOCKED = -7     /* another run holds the lock */
};

#define PLUMB_ERR_MAX 1024

struct plumb_err {
	int code;                 /* a PLUMB_E* code, 0 when unset */
	char msg[PLUMB_ERR_MAX];  /* lower case, names the subject, no newline */
};

/* Reset err to "no error". */
void plumb_err_clear(struct plumb_err *err);

/* Set code and message; returns code so "return plumb_err_set(...)" works. */
int plumb_err_set(struct plumb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int plumb_err_setv(struct plumb_err *err, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * Set code and "<subject>: <what>: <strerror(errnum)>"; returns code.
 * Picks PLUMB_EIO for ENOSPC/EIO/EDQUOT/EROFS when code is 0.
 */
int plumb_err_errno(struct plumb_err *err, int code, int errnum,
		    const char *subject, const char *what);

/* Prepend "<context>: " to the message, keeping the code; returns the code. */
int plumb_err_prefix(struct plumb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Out of memory: sets PLUMB_EINTERNAL "out of memory (<what>)". */
int plumb_err_oom(struct plumb_err *err, const char *what);

#endif
