/*
 * common/err.h: the one error idiom of plumb, and its exit statuses.
 *
 * Stage functions (runner/, stats/, formats/, archive/, reports/) return 0 on
 * success or a negative PLUMB_E* code, and fill a caller-owned struct
 * plumb_err with that code and a lower-case message naming the subject
 * ("bundle.plumb: member '../x': path escapes bundle").  A struct plumb_err
 * is left untouched on success, so calls can chain.  Only cli/ turns a code
 * into an exit status: the status is always -code (DESIGN §3).
 *
 * Ownership: struct plumb_err is plain storage owned by the caller; the
 * message lives inside it, nothing to free.
 */
#ifndef PLUMB_COMMON_ERR_H
#define PLUMB_COMMON_ERR_H

#include <stdarg.h>

/* Exit statuses, documented in docs/plumb.1 (DESIGN §3). Defined here only. */
enum plumb_exit {
	PLUMB_EXIT_OK = 0,
	PLUMB_EXIT_VERDICT = 1,   /* a verdict the caller asked to fail on */
	PLUMB_EXIT_USAGE = 2,     /* usage error */
	PLUMB_EXIT_INPUT = 3,     /* bad input: config, bundle, archive, signature */
	PLUMB_EXIT_BUILD = 4,     /* a build failed */
	PLUMB_EXIT_BENCH = 5,     /* a benchmark failed */
	PLUMB_EXIT_INTERNAL = 70, /* internal error (EX_SOFTWARE) */
	PLUMB_EXIT_IO = 74,       /* I/O error (EX_IOERR) */
	PLUMB_EXIT_LOCKED = 75    /* another run holds the lock (EX_TEMPFAIL) */
};

/* Error codes returned by stage functions: the negated exit status. */
enum plumb_code {
	PLUMB_OK = 0,
	PLUMB_EVERDICT = -PLUMB_EXIT_VERDICT,
	PLUMB_EUSAGE = -PLUMB_EXIT_USAGE,
	PLUMB_EINPUT = -PLUMB_EXIT_INPUT,
	PLUMB_EBUILD = -PLUMB_EXIT_BUILD,
	PLUMB_EBENCH = -PLUMB_EXIT_BENCH,
	PLUMB_EINTERNAL = -PLUMB_EXIT_INTERNAL,
	PLUMB_EIO = -PLUMB_EXIT_IO,
	PLUMB_ELOCKED = -PLUMB_EXIT_LOCKED
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

/* The exit status for a code (0 for PLUMB_OK, 70 for anything unknown). */
int plumb_exit_status(int code);

#endif
