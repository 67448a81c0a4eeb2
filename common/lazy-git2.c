/*
 * common/lazy-git2.c: the table of git2's functions (common/lazy-git2.h).
 */
#define PLUMB_LAZY_GIT2_IMPL
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/lazy-git2.h"
#include "common/banned.h"

struct plumb_git2_fns plumb_git2;

#define PLUMB_GIT2_NAME(f) #f,
static const char *const names[] = { PLUMB_GIT2_FUNCS(PLUMB_GIT2_NAME) };
_Static_assert(sizeof(plumb_git2) == sizeof(names) / sizeof(names[0]) * sizeof(void (*)(void)),
	       "one function pointer per name");

struct lazy_lib plumb_git2_lib = {
	.name = "libgit2",
	.soname = PLUMB_GIT2_SONAME,
	.path = PLUMB_GIT2_PATH,
	.symbols = names,
	.table = &plumb_git2,
	.n = sizeof(names) / sizeof(names[0]),
};

int git2_load(struct plumb_err *err)
{
	return lazy_load(&plumb_git2_lib, err);
}

/*
 * libgit2 built with mbedTLS (Debian's) parses the whole system CA bundle
 * inside git_libgit2_init(), through mbedtls_x509_crt_parse_file() and
 * _path().  plumb defines both and exports them (configure's
 * PLUMB_EXPORT_LDFLAGS): the dynamic linker binds libgit2's calls to the
 * program's definitions first.  Until git2_want_tls() they only note what
 * was asked and report success with no certificate; from then on they call
 * the library's own, found through libgit2's handle (its dependencies, not
 * the program).  Where the program's symbols are not exported, or libgit2
 * uses another TLS backend, nothing is interposed and libgit2 behaves as
 * it always does.
 */
typedef int (*parse_fn)(void *chain, const char *where);

static int tls_on;
static int tls_deferred;
static char *ca_file, *ca_path;

static int real_parse(const char *name, void *chain, const char *where)
{
	parse_fn f = NULL;
	void *p = plumb_git2_lib.handle ? dlsym(plumb_git2_lib.handle, name) : NULL;

	if (!p)
		return -1;
	memcpy(&f, &p, sizeof(f));
	return f(chain, where);
}

static int defer(char **keep, const char *where)
{
	if (where && !*keep)
		*keep = strdup(where);
	tls_deferred = 1;
	return 0;
}

int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_path(void *chain, const char *path);

int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
	return tls_on ? real_parse("mbedtls_x509_crt_parse_file", chain, path) : defer(&ca_file, path);
}

int mbedtls_x509_crt_parse_path(void *chain, const char *path)
{
	return tls_on ? real_parse("mbedtls_x509_crt_parse_path", chain, path) : defer(&ca_path, path);
}

static pid_t init_pid;

/* At exit of the process that initialised it: libgit2 frees its caches. */
static void git2_exit(void)
{
	if (getpid() == init_pid)
		PLUMB_GIT2(git_libgit2_shutdown)();
}

int git2_init(struct plumb_err *err)
{
	static int done;
	int r;

	if (done)
		return 0;
	if ((r = git2_load(err)) < 0)
		return r;
	if (PLUMB_GIT2(git_libgit2_init)() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2: cannot initialize");
	init_pid = getpid();
	if (atexit(git2_exit) != 0) {
		PLUMB_GIT2(git_libgit2_shutdown)();
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2: atexit failed");
	}
	done = 1;
	return 0;
}

int git2_want_tls(struct plumb_err *err)
{
	int r;

	if ((r = git2_init(err)) < 0)
		return r;
	if (tls_on)
		return 0;
	tls_on = 1;
	if (!tls_deferred)
		return 0;
	if (PLUMB_GIT2(git_libgit2_opts)(GIT_OPT_SET_SSL_CERT_LOCATIONS, ca_file, ca_path) < 0) {
		const git_error *e = PLUMB_GIT2(git_error_last)();
		return plumb_err_set(err, PLUMB_EIO, "libgit2: CA certificates: %s",
				     e && e->message ? e->message : "cannot be read");
	}
	return 0;
}

int git2_tls_deferred(void)
{
	return tls_deferred && !tls_on;
}
