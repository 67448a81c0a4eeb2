/*
 * tests/unit/test-lazy.c: common/lazy (a library loaded on first use, and
 * the errors when it cannot be).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/err.h"
#include "common/lazy.h"
#include "common/banned.h"

struct one_fn {
	double (*cos)(double);
};

static const char *const cos_name[] = { "cos" };
static const char *const missing_name[] = { "plumb_no_such_function" };

PLUMB_TEST(lazy_load_resolves_once)
{
	struct one_fn t = { NULL };
	struct lazy_lib lib = {
		.name = "libm", .soname = "libm.so.6", .path = "",
		.symbols = cos_name, .table = &t, .n = 1,
	};
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_false(lazy_loaded(&lib));
	assert_int_equal(lazy_load(&lib, &err), 0);
	assert_true(lazy_loaded(&lib));
	assert_non_null(t.cos);
	assert_true(t.cos(0.0) == 1.0);
	/* A second load is a no-op that keeps the table. */
	assert_int_equal(lazy_load(&lib, &err), 0);
	assert_int_equal(err.code, 0);
}

PLUMB_TEST(lazy_load_missing_library_names_it)
{
	struct one_fn t = { NULL };
	struct lazy_lib lib = {
		.name = "libplumbnothing", .soname = "libplumbnothing.so.9",
		.path = "/nonexistent/libplumbnothing.so.9",
		.symbols = cos_name, .table = &t, .n = 1,
	};
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(lazy_load(&lib, &err), PLUMB_EINTERNAL);
	assert_non_null(strstr(err.msg, "libplumbnothing is needed here but cannot be loaded"));
	assert_non_null(strstr(err.msg, "libplumbnothing.so.9"));
	assert_non_null(strstr(err.msg, "built against /nonexistent/libplumbnothing.so.9"));
	assert_false(lazy_loaded(&lib));
	/* The failure is kept: the same message, no second attempt. */
	plumb_err_clear(&err);
	assert_int_equal(lazy_load(&lib, &err), PLUMB_EINTERNAL);
	assert_non_null(strstr(err.msg, "cannot be loaded"));
}

PLUMB_TEST(lazy_load_missing_function_names_it)
{
	struct one_fn t = { NULL };
	struct lazy_lib lib = {
		.name = "libm", .soname = "libm.so.6", .path = "",
		.symbols = missing_name, .table = &t, .n = 1,
	};
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(lazy_load(&lib, &err), PLUMB_EINTERNAL);
	assert_non_null(strstr(err.msg, "libm is needed here but libm.so.6 has no function plumb_no_such_function"));
	assert_false(lazy_loaded(&lib));
}

PLUMB_TEST(lazy_need_exits_70_with_the_message)
{
	struct one_fn t = { NULL };
	struct lazy_lib lib = {
		.name = "libplumbnothing", .soname = "libplumbnothing.so.9", .path = "",
		.symbols = cos_name, .table = &t, .n = 1,
	};
	int fds[2], status;
	char msg[1024];
	ssize_t n;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		lazy_need(&lib);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], msg, sizeof(msg) - 1);
	close(fds[0]);
	assert_true(n > 0);
	msg[n] = '\0';
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 70);
	assert_non_null(strstr(msg, "plumb: libplumbnothing is needed here but cannot be loaded"));
}
