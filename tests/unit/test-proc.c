/*
 * tests/unit/test-proc.c: the process harness (sys/proc.c, sys/contain.c)
 * and command lines (runner/cmdline.c), with real child processes.  Every
 * test passes under either containment (PLUMB_CONTAIN=subreaper runs the
 * portable one: tests/integration/t1043 does).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "sys/contain.h"
#include "sys/proc.h"
#include "common/banned.h"

static char *const test_env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C", NULL };

/* A spec of argv in test_env with stdout and stderr in memory. */
static void spec_mem(struct proc_spec *spec, char *const *argv)
{
	proc_spec_init(spec);
	spec->argv = argv;
	spec->env = test_env;
	spec->out.kind = PROC_SINK_MEM;
	spec->err.kind = PROC_SINK_MEM;
}

/* Run argv with stdout and stderr in memory. */
static int run_mem(char *const *argv, uint64_t timeout_ns, struct proc_result *res,
		   struct plumb_err *err)
{
	struct proc_spec spec;

	spec_mem(&spec, argv);
	spec.timeout_ns = timeout_ns;
	spec.grace_ns = 300000000ull;
	return proc_run(&spec, res, err);
}

/* Wait up to a second for pid to disappear (init reaps orphans). */
static int gone(pid_t pid)
{
	for (int i = 0; i < 100; i++) {
		char path[64];
		struct buf b;
		struct plumb_err e;
		int zombie = 0;
		if (kill(pid, 0) < 0 && errno == ESRCH)
			return 1;
		/* A zombie waiting for init counts as gone. */
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		buf_init(&b, 4096);
		plumb_err_clear(&e);
		if (file_read(path, 4096, &b, &e) == 0) {
			const char *rp = strrchr(buf_cstr(&b), ')');
			zombie = rp && rp[1] == ' ' && rp[2] == 'Z';
		}
		buf_release(&b);
		if (zombie)
			return 1;
		usleep(10000);
	}
	return 0;
}

PLUMB_TEST(proc_captures_stdout_and_status)
{
	char *argv[] = { "sh", "-c", "echo hello; echo oops >&2; exit 3", NULL };
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 3);
	assert_string_equal(buf_cstr(&res.out_mem), "hello\n");
	assert_string_equal(buf_cstr(&res.err_mem), "oops\n");
	assert_int_equal(res.out_bytes, 6);
	assert_true(res.wall_ns > 0);
	assert_false(res.timed_out);
	proc_result_release(&res);
}

PLUMB_TEST(proc_reports_signal_death)
{
	char *argv[] = { "sh", "-c", "kill -SEGV $$", NULL };
	struct proc_result res;
	struct plumb_err err;
	char what[128];

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);
	assert_int_equal(res.exited, 0);
	assert_int_equal(res.signo, SIGSEGV);
	proc_describe(&res, 0, what, sizeof(what));
	assert_non_null(strstr(what, "killed by signal 11"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_child_sees_only_fds_0_1_2)
{
	char *argv[] = { "ls", "-l", "/proc/self/fd", NULL };
	struct proc_result res;
	struct plumb_err err;
	int leak = open("/etc/passwd", O_RDONLY);   /* inheritable on purpose */
	char *line, *save = NULL;
	int seen[3] = { 0, 0, 0 };

	assert_true(leak >= 0);
	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);
	close(leak);
	assert_int_equal(res.status, 0);
	for (line = strtok_r(res.out_mem.data, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *arrow = strstr(line, " -> ");
		int fd;
		if (!arrow)
			continue;   /* "total 0" */
		const char *p = arrow;
		while (p > line && p[-1] != ' ')
			p--;
		fd = (int)strtol(p, NULL, 10);
		if (fd <= 2) {
			seen[fd] = 1;
			continue;
		}
		/* The only other descriptor is ls's own handle on the folder it lists. */
		if (!strstr(arrow, "/proc/") || !strstr(arrow, "/fd"))
			fail_msg("descriptor leaked into the child: %s", line);
	}
	assert_true(seen[0] && seen[1] && seen[2]);
	assert_null(strstr(buf_cstr(&res.err_mem), "passwd"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_stdin_is_dev_null_and_env_is_explicit)
{
	char *argv_cat[] = { "cat", NULL };
	char *argv_env[] = { "env", NULL };
	char *const env[] = { "PATH=/usr/bin:/bin", "ONLY=this", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv_cat, 5000000000ull, &res, &err), 0);
	assert_int_equal(res.status, 0);
	assert_false(res.timed_out);
	assert_int_equal(res.out_mem.len, 0);
	proc_result_release(&res);

	proc_spec_init(&spec);
	spec.argv = argv_env;
	spec.env = env;
	spec.out.kind = PROC_SINK_MEM;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_string_equal(buf_cstr(&res.out_mem), "PATH=/usr/bin:/bin\nONLY=this\n");
	proc_result_release(&res);
}

PLUMB_TEST(proc_runs_in_the_given_folder)
{
	char *argv[] = { "pwd", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = test_env;
	spec.cwd = "/";
	spec.out.kind = PROC_SINK_MEM;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_string_equal(buf_cstr(&res.out_mem), "/\n");
	proc_result_release(&res);

	spec.cwd = "/no/such/folder";
	spec.err.kind = PROC_SINK_MEM;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.status, 127);
	assert_int_equal(res.spawn_errno, ENOENT);
	assert_non_null(strstr(buf_cstr(&res.err_mem), "cannot enter its working folder"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_missing_program_is_status_127)
{
	char *argv[] = { "plumb-no-such-program", NULL };
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 127);
	assert_int_equal(res.spawn_errno, ENOENT);
	assert_non_null(strstr(buf_cstr(&res.err_mem), "plumb-no-such-program: cannot execute it"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_timeout_terms_the_group)
{
	char *argv[] = { "sleep", "30", NULL };
	struct proc_result res;
	struct plumb_err err;
	char what[128];

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 200000000ull, &res, &err), 0);
	assert_true(res.timed_out);
	assert_false(res.killed);
	assert_int_equal(res.signo, SIGTERM);
	assert_true(res.wall_ns >= 200000000ull);
	assert_true(res.wall_ns < 3000000000ull);
	proc_describe(&res, 200000000ull, what, sizeof(what));
	assert_non_null(strstr(what, "timed out after 0.20 s"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_timeout_kills_after_grace)
{
	/* The shell and its sleep ignore SIGTERM: only SIGKILL ends them. */
	char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30; echo survived", NULL };
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 200000000ull, &res, &err), 0);
	assert_true(res.timed_out);
	assert_true(res.killed);
	assert_int_equal(res.signo, SIGKILL);
	assert_true(res.wall_ns >= 500000000ull);
	assert_null(strstr(buf_cstr(&res.out_mem), "survived"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_timeout_kills_grandchildren)
{
	char *argv[] = { "sh", "-c", "sleep 30 & echo $!; sleep 30; wait", NULL };
	struct proc_result res;
	struct plumb_err err;
	long gc;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 300000000ull, &res, &err), 0);
	assert_true(res.timed_out);
	gc = strtol(buf_cstr(&res.out_mem), NULL, 10);
	assert_true(gc > 1);
	assert_true(gone((pid_t)gc));
	proc_result_release(&res);
}

PLUMB_TEST(proc_leftover_background_process_is_killed)
{
	/* The leader exits at once and leaves a sleeper holding no pipe. */
	char *argv[] = { "sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!", NULL };
	struct proc_result res;
	struct plumb_err err;
	long gc;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);
	assert_int_equal(res.status, 0);
	gc = strtol(buf_cstr(&res.out_mem), NULL, 10);
	assert_true(gc > 1);
	assert_true(gone((pid_t)gc));
	proc_result_release(&res);
}

/*
 * Once the container had to kill a leftover (cgroup.kill), the children
 * after it still run, in the same container.
 */
PLUMB_TEST(proc_children_run_after_a_leftover_was_killed)
{
	char *argv_left[] = { "sh", "-c", "sleep 30 >/dev/null 2>&1 & echo $!", NULL };
	char *argv_echo[] = { "echo", "still", "here", NULL };
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv_left, 0, &res, &err), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.left_behind, 1);
	proc_result_release(&res);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(run_mem(argv_echo, 0, &res, &err), 0);
		assert_int_equal(res.exited, 1);
		assert_int_equal(res.status, 0);
		assert_string_equal(buf_cstr(&res.out_mem), "still here\n");
		proc_result_release(&res);
	}
}

/*
 * What a child writes is its own: a run after one that wrote much, or
 * little, or nothing, captures only what it writes itself.
 */
PLUMB_TEST(proc_each_run_captures_only_its_own_output)
{
	char *big[] = { "sh", "-c", "yes abcdefg | head -c 300000 >&2; echo done", NULL };
	char *one[] = { "sh", "-c", "printf x >&2", NULL };
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(run_mem(big, 0, &res, &err), 0);
		assert_int_equal(res.status, 0);
		assert_int_equal(res.err_bytes, 300000);
		assert_string_equal(buf_cstr(&res.out_mem), "done\n");
		proc_result_release(&res);
		assert_int_equal(run_mem(one, 0, &res, &err), 0);
		assert_int_equal(res.err_bytes, 1);
		assert_string_equal(buf_cstr(&res.err_mem), "x");
		assert_string_equal(buf_cstr(&res.out_mem), "");
		proc_result_release(&res);
	}
}

/*
 * A grandchild that leaves the group (setsid) holding the stderr pipe and
 * writing to it without end: when the child exits it is killed, the pipe
 * is drained (the read ends are non-blocking, and plumb polls again while
 * the pipe is held) within the cap, and proc_run() returns long before
 * the grandchild would have stopped.
 */
PLUMB_TEST(proc_escaped_grandchild_holding_the_pipe_is_drained_and_killed)
{
	char *argv[] = { "sh", "-c",
			 "setsid sh -c 'echo $$; exec yes late >&2' & sleep 0.2; echo early >&2",
			 NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	struct timespec t0, t1;
	double took;
	long gc;

	plumb_err_clear(&err);
	spec_mem(&spec, argv);
	spec.err.cap = 8192;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_int_equal(res.status, 0);
	assert_true(took < 10.0);
	assert_true(res.left_behind >= 1);
	gc = strtol(buf_cstr(&res.out_mem), NULL, 10);
	assert_true(gc > 1);
	assert_true(gone((pid_t)gc));
	/* The grandchild's flood went through the cap, and stopped. */
	assert_true(res.err_truncated);
	assert_true(res.err_bytes > 8192);
	assert_non_null(strstr(buf_cstr(&res.err_mem), "late\n"));
	assert_non_null(strstr(buf_cstr(&res.err_mem), "bytes of output dropped here"));
	proc_result_release(&res);
}

/* plumb's open descriptors now (its /proc/self/fd, less the listing's own). */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;
}

/*
 * A child that fails before it executes reports its stage and errno, and
 * neither that nor a run that went well leaves a descriptor open in plumb.
 */
PLUMB_TEST(proc_failed_start_reports_stage_and_errno_and_leaves_no_fd)
{
	char *argv_pwd[] = { "pwd", NULL };
	char *argv_noexec[] = { "/etc/passwd", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	int before;

	plumb_err_clear(&err);
	spec_mem(&spec, argv_pwd);
	assert_int_equal(proc_run(&spec, &res, &err), 0);   /* the container is set up */
	proc_result_release(&res);
	before = open_fds();

	spec.cwd = "/etc/passwd";   /* not a folder */
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.exited, 1);
	assert_int_equal(res.status, 127);
	assert_int_equal(res.spawn_errno, ENOTDIR);
	assert_non_null(strstr(res.spawn_error, "pwd: cannot enter its working folder: "));
	assert_non_null(strstr(buf_cstr(&res.err_mem), "cannot enter its working folder"));
	proc_result_release(&res);

	spec.cwd = NULL;
	spec.argv = argv_noexec;   /* a file without execute permission */
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.status, 127);
	assert_int_equal(res.spawn_errno, EACCES);
	assert_non_null(strstr(res.spawn_error, "/etc/passwd: cannot execute it: "));
	proc_result_release(&res);

	/* A successful run after a failed one reports nothing stale. */
	spec.argv = argv_pwd;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.status, 0);
	assert_int_equal(res.spawn_errno, 0);
	assert_string_equal(res.spawn_error, "");
	proc_result_release(&res);
	assert_int_equal(open_fds(), before);
}

PLUMB_TEST(proc_cap_keeps_head_and_tail_with_marker)
{
	char *argv[] = { "seq", "1", "20000", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	const char *s, *m;
	uint64_t total = 0;

	for (int i = 1; i <= 20000; i++)
		total += (uint64_t)snprintf(NULL, 0, "%d\n", i);
	plumb_err_clear(&err);
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = test_env;
	spec.out.kind = PROC_SINK_MEM;
	spec.out.cap = 1000;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.out_bytes, total);
	assert_true(res.out_truncated);
	s = buf_cstr(&res.out_mem);
	assert_true(strncmp(s, "1\n2\n3\n4\n", 8) == 0);
	assert_true(res.out_mem.len > 11);
	assert_string_equal(s + res.out_mem.len - 12, "19999\n20000\n");
	m = strstr(s, "[plumb: ");
	assert_non_null(m);
	assert_int_equal(strtoull(m + 8, NULL, 10), total - 1000);
	assert_non_null(strstr(m, "bytes of output dropped here"));
	/* head + marker line + tail */
	assert_true(res.out_mem.len < 1000 + 200);
	proc_result_release(&res);
}

/* Run `sh -c script` with stdout and stderr in memory, each capped at cap. */
static void run_capped(const char *script, size_t cap, struct proc_result *res)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct proc_spec spec;
	struct plumb_err err;

	plumb_err_clear(&err);
	spec_mem(&spec, argv);
	spec.out.cap = cap;
	spec.err.cap = cap;
	assert_int_equal(proc_run(&spec, res, &err), 0);
}

/*
 * A capture's ring is reused by the next run's: what a run keeps is its
 * own output only, the same as in a first run, whatever filled the ring
 * before (more, less, or nothing).
 */
PLUMB_TEST(proc_cap_ring_reused_keeps_only_this_runs_output)
{
	static const char *const scripts[] = {
		"printf '%0200d' 0 >&2; printf '%0150d' 7",
		"printf abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ >&2",
		"printf 'short' >&2; printf 'x'",
		"i=0; while [ $i -lt 30 ]; do printf 'line %d\\n' $i >&2; i=$((i+1)); done",
		"true",
	};
	enum { N = sizeof(scripts) / sizeof(scripts[0]) };
	struct buf first_err[N], first_out[N];
	struct proc_result res;

	for (int i = 0; i < N; i++) {
		/* A run of another cap in between: the ring is not of this size. */
		run_capped("printf '%0300d' 1 >&2", 50, &res);
		proc_result_release(&res);
		run_capped(scripts[i], 64, &res);
		first_err[i] = res.err_mem;
		first_out[i] = res.out_mem;
	}
	assert_non_null(strstr(buf_cstr(&first_err[0]), "bytes of output dropped here"));
	assert_string_equal(buf_cstr(&first_err[1]),
			    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ");
	for (int k = 0; k < 3; k++)
		for (int i = N - 1; i >= 0; i--) {
			int j = (i * 3 + k) % N;
			run_capped(scripts[j], 64, &res);
			assert_int_equal(res.err_mem.len, first_err[j].len);
			assert_memory_equal(res.err_mem.data, first_err[j].data, res.err_mem.len);
			assert_int_equal(res.out_mem.len, first_out[j].len);
			assert_memory_equal(res.out_mem.data, first_out[j].data, res.out_mem.len);
			proc_result_release(&res);
		}
	for (int i = 0; i < N; i++) {
		buf_release(&first_err[i]);
		buf_release(&first_out[i]);
	}
}

PLUMB_TEST(proc_file_log_merges_stderr_and_marks_truncation)
{
	char path[] = "/tmp/plumb-proc-log.XXXXXX";
	char *argv[] = { "sh", "-c", "echo first; echo second >&2; seq 1 5000; echo last >&2", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	struct buf b;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	plumb_err_clear(&err);
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = test_env;
	spec.out.kind = PROC_SINK_FILE;
	spec.out.path = path;
	spec.out.cap = 4096;
	spec.err.kind = PROC_SINK_STDOUT;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_true(res.out_truncated);
	buf_init(&b, 1 << 20);
	assert_int_equal(file_read(path, 1 << 20, &b, &err), 0);
	assert_true(strncmp(buf_cstr(&b), "first\nsecond\n1\n", 15) == 0);
	assert_non_null(strstr(buf_cstr(&b), "bytes of output dropped here"));
	assert_string_equal(buf_cstr(&b) + b.len - 15, "4999\n5000\nlast\n");
	buf_release(&b);
	proc_result_release(&res);
	unlink(path);
}

struct collect {
	struct buf b;
	int fail_after;
	pid_t started;
};

static int collect_data(void *ctx, const char *data, size_t len, struct plumb_err *err)
{
	struct collect *c = ctx;

	if (c->fail_after && c->b.len + len > (size_t)c->fail_after)
		return plumb_err_set(err, PLUMB_EBENCH, "samples: too many");
	buf_add(&c->b, data, len);
	return 0;
}

static int note_start(void *ctx, pid_t pid, struct plumb_err *err)
{
	struct collect *c = ctx;

	(void)err;
	c->started = pid;
	return 0;
}

PLUMB_TEST(proc_extra_fd_and_start_gate)
{
	char *argv[] = { "sh", "-c", "echo 42 >&3; echo checksum=ab >&3; ls /proc/self/fd/3 >/dev/null", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	struct collect c;

	memset(&c, 0, sizeof(c));
	buf_init(&c.b, 1 << 16);
	plumb_err_clear(&err);
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = test_env;
	spec.extra_fd = 3;
	spec.extra.kind = PROC_SINK_CALLBACK;
	spec.extra.on_data = collect_data;
	spec.extra.ctx = &c;
	spec.on_start = note_start;
	spec.start_ctx = &c;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.status, 0);
	assert_true(c.started > 0);
	assert_string_equal(buf_cstr(&c.b), "42\nchecksum=ab\n");
	assert_int_equal(res.extra_bytes, 15);
	proc_result_release(&res);
	buf_release(&c.b);
}

static int slow_start(void *ctx, pid_t pid, struct plumb_err *err)
{
	(void)ctx;
	(void)pid;
	(void)err;
	usleep(300000);
	return 0;
}

/*
 * What plumb does before the child executes is not timed: a child held at
 * the gate for 0.3 s while plumb attaches (on_start) measures as what it
 * runs, and a gated child that cannot start says why, as an ungated one.
 */
PLUMB_TEST(proc_gated_child_is_timed_from_its_execve)
{
	char *argv[] = { "/bin/true", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	spec_mem(&spec, argv);
	spec.on_start = slow_start;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.status, 0);
	if (res.wall_ns >= 300000000ull)
		fail_msg("the gate's 0.3 s was timed: %.3f s", res.wall_ns / 1e9);
	proc_result_release(&res);

	spec.cwd = "/no/such/folder";
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_int_equal(res.status, 127);
	assert_int_equal(res.spawn_errno, ENOENT);
	assert_non_null(strstr(buf_cstr(&res.err_mem), "cannot enter its working folder"));
	proc_result_release(&res);
}

PLUMB_TEST(proc_callback_error_stops_the_child)
{
	char *argv[] = { "sh", "-c", "while :; do echo 1 >&3; done", NULL };
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	struct collect c;

	memset(&c, 0, sizeof(c));
	buf_init(&c.b, 1 << 16);
	c.fail_after = 1000;
	plumb_err_clear(&err);
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = test_env;
	spec.timeout_ns = 10000000000ull;
	spec.extra_fd = 3;
	spec.extra.kind = PROC_SINK_CALLBACK;
	spec.extra.on_data = collect_data;
	spec.extra.ctx = &c;
	assert_int_equal(proc_run(&spec, &res, &err), PLUMB_EBENCH);
	assert_string_equal(err.msg, "samples: too many");
	assert_false(res.timed_out);
	assert_int_equal(res.signo, SIGKILL);
	proc_result_release(&res);
	buf_release(&c.b);
}

PLUMB_TEST(proc_rusage_is_recorded)
{
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", NULL };
	struct proc_result res;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);
	assert_true(res.user_ns + res.sys_ns > 0);
	assert_true(res.maxrss_kb > 0);
	assert_true(res.wall_ns >= res.user_ns / 2);
	proc_result_release(&res);
}

/*
 * plumb sleeps twice per child, as a posix_spawn + waitpid loop does: until
 * the child has executed (the vfork), and until it exits (the pidfd).  Its
 * pipes' end-of-file at the exit must not wake it a third time: a woken
 * plumb competes with its child for the CPU.  Counted as plumb's voluntary
 * context switches over 200 runs of /bin/true with both streams captured
 * (a busier machine can only merge wake-ups).
 */
PLUMB_TEST(proc_wakes_the_parent_twice_per_child)
{
	char *argv[] = { "/bin/true", NULL };
	struct proc_result res;
	struct plumb_err err;
	struct rusage r0, r1;
	const int runs = 200;
	long per100;

	plumb_err_clear(&err);
	assert_int_equal(run_mem(argv, 0, &res, &err), 0);   /* set-up done once */
	proc_result_release(&res);
	assert_int_equal(getrusage(RUSAGE_SELF, &r0), 0);
	for (int i = 0; i < runs; i++) {
		assert_int_equal(run_mem(argv, 0, &res, &err), 0);
		assert_int_equal(res.status, 0);
		proc_result_release(&res);
	}
	assert_int_equal(getrusage(RUSAGE_SELF, &r1), 0);
	per100 = (r1.ru_nvcsw - r0.ru_nvcsw) * 100 / runs;
	if (per100 > 250)
		fprintf(stderr, "%ld.%02ld wake-ups per child\n", per100 / 100, per100 % 100);
	assert_true(per100 <= 250);
}

/*
 * plumb waits for its own child: another child's exit during the run does
 * not end it, a timeout still stops it, and many short children each end
 * once.
 */
PLUMB_TEST(proc_waits_for_its_own_child)
{
	char *slow[] = { "sleep", "0.3", NULL };
	char *never[] = { "sleep", "30", NULL };
	char *quick[] = { "/bin/true", NULL };
	struct proc_result res;
	struct plumb_err err;
	pid_t other;

	plumb_err_clear(&err);
	other = fork();
	assert_true(other >= 0);
	if (other == 0) {
		usleep(50000);
		_exit(0);
	}
	assert_int_equal(run_mem(slow, 5000000000ull, &res, &err), 0);
	assert_true(res.exited);
	assert_int_equal(res.status, 0);
	if (res.wall_ns < 300000000ull)
		fail_msg("ended after %.3f s, at the other child's exit", res.wall_ns / 1e9);
	proc_result_release(&res);
	/* The other child, reaped by now by the run's sweep or here. */
	while (waitpid(other, NULL, 0) < 0 && errno == EINTR)
		;
	assert_int_equal(run_mem(never, 200000000ull, &res, &err), 0);
	assert_true(res.timed_out);
	assert_true(res.wall_ns >= 200000000ull && res.wall_ns < 3000000000ull);
	proc_result_release(&res);
	for (int i = 0; i < 50; i++) {
		assert_int_equal(run_mem(quick, 5000000000ull, &res, &err), 0);
		assert_true(res.exited && res.status == 0);
		assert_true(res.wall_ns < 1000000000ull);
		proc_result_release(&res);
	}
}

PLUMB_TEST(cmdline_words_and_placeholders)
{
	const struct cmdline_var vars[] = {
		{ "pad", "2" }, { "pad_object", "/r/p/02/plumb_pad.o" },
		{ "pad_ldflags", "LDFLAGS=/r/p/02/plumb_pad.o -Wl,-O1" }, { "empty", "" },
	};
	struct cmdline cl;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(cmdline_expand(&cl, "make -j2 {pad_ldflags} {empty} PAD={pad}", vars, 4,
					"build.command", &err), 0);
	assert_false(cl.shell);
	assert_string_equal(cl.argv[0], "make");
	assert_string_equal(cl.argv[1], "-j2");
	assert_string_equal(cl.argv[2], "LDFLAGS=/r/p/02/plumb_pad.o -Wl,-O1");
	assert_string_equal(cl.argv[3], "PAD=2");
	assert_null(cl.argv[4]);
	assert_string_equal(cl.text, "make -j2 'LDFLAGS=/r/p/02/plumb_pad.o -Wl,-O1' PAD=2");
	cmdline_release(&cl);

	assert_int_equal(cmdline_expand(&cl, "make {pad_ldflags} && cp a b", vars, 4,
					"build.command", &err), 0);
	assert_true(cl.shell);
	assert_string_equal(cl.argv[0], "/bin/sh");
	assert_string_equal(cl.argv[1], "-c");
	assert_string_equal(cl.argv[2], "make 'LDFLAGS=/r/p/02/plumb_pad.o -Wl,-O1' && cp a b");
	cmdline_release(&cl);

	assert_int_equal(cmdline_expand(&cl, "awk '{print}' {pad_object}", vars, 4, "k", &err), 0);
	assert_true(cl.shell);
	assert_string_equal(cl.argv[2], "awk '{print}' /r/p/02/plumb_pad.o");
	cmdline_release(&cl);

	/* Inside single and double quotes the value keeps its blanks, once. */
	assert_int_equal(cmdline_expand(&cl, "make LDFLAGS='{pad_ldflags}' X=\"{pad_ldflags}\"",
					vars, 4, "k", &err), 0);
	assert_true(cl.shell);
	assert_string_equal(cl.argv[2], "make LDFLAGS='LDFLAGS=/r/p/02/plumb_pad.o -Wl,-O1' "
			    "X=\"LDFLAGS=/r/p/02/plumb_pad.o -Wl,-O1\"");
	cmdline_release(&cl);

	assert_int_equal(cmdline_expand(&cl, "  ", vars, 4, "bench.x.command", &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "bench.x.command: the command is empty"));
}

/* cmdline_append(): one more last argument, a word of argv or quoted at the end of the shell's text. */
PLUMB_TEST(cmdline_append_adds_a_last_argument)
{
	const struct cmdline_var vars[] = { { "artifact", "/r/b00/bench" } };
	struct cmdline cl;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(cmdline_expand(&cl, "{artifact} --x", vars, 1, "k", &err), 0);
	assert_int_equal(cmdline_append(&cl, "--benchmark_filter=^BM_a/8$", "k", &err), 0);
	assert_false(cl.shell);
	assert_string_equal(cl.argv[2], "--benchmark_filter=^BM_a/8$");
	assert_null(cl.argv[3]);
	assert_string_equal(cl.text, "/r/b00/bench --x '--benchmark_filter=^BM_a/8$'");
	cmdline_release(&cl);

	assert_int_equal(cmdline_expand(&cl, "cd /tmp && {artifact}", vars, 1, "k", &err), 0);
	assert_int_equal(cmdline_append(&cl, "it's", "k", &err), 0);
	assert_true(cl.shell);
	assert_string_equal(cl.argv[2], "cd /tmp && /r/b00/bench 'it'\\''s'");
	assert_string_equal(cl.text, cl.argv[2]);
	assert_null(cl.argv[3]);
	cmdline_release(&cl);
}

PLUMB_TEST(cmdline_quoting_reaches_the_program_intact)
{
	/* A value with quotes and a dollar, in each quoting context, through sh. */
	const struct cmdline_var vars[] = { { "v", "a 'b' \"c\" $d `e` \\f" } };
	const char *forms[] = { "printf '%s|' {v} '{v}' \"{v}\"" };
	struct cmdline cl;
	struct plumb_err err;
	struct proc_spec spec;
	struct proc_result res;

	plumb_err_clear(&err);
	assert_int_equal(cmdline_expand(&cl, forms[0], vars, 1, "k", &err), 0);
	assert_true(cl.shell);
	proc_spec_init(&spec);
	spec.argv = cl.argv;
	spec.env = test_env;
	spec.out.kind = PROC_SINK_MEM;
	assert_int_equal(proc_run(&spec, &res, &err), 0);
	assert_string_equal(buf_cstr(&res.out_mem),
			    "a 'b' \"c\" $d `e` \\f|a 'b' \"c\" $d `e` \\f|a 'b' \"c\" $d `e` \\f|");
	proc_result_release(&res);
	cmdline_release(&cl);
}

PLUMB_TEST(cmdline_shell_detection)
{
	assert_false(cmdline_needs_shell("make -j2 bench"));
	assert_false(cmdline_needs_shell("./bench/interp 30000 LDFLAGS=x"));
	assert_true(cmdline_needs_shell("CC=clang make"));
	assert_true(cmdline_needs_shell("make && ./x"));
	assert_true(cmdline_needs_shell("make > log"));
	assert_true(cmdline_needs_shell("echo $HOME"));
	assert_true(cmdline_needs_shell("cd sub"));
	assert_true(cmdline_needs_shell("exec ./x"));
	assert_true(cmdline_needs_shell("run \"a b\""));
	assert_true(cmdline_needs_shell("ls *.c"));
}

PLUMB_TEST(envlist_set_replace_unset)
{
	struct envlist e;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(envlist_init(&e, &err), 0);
	assert_int_equal(envlist_set(&e, "A", "1", &err), 0);
	assert_int_equal(envlist_set(&e, "B", "2", &err), 0);
	assert_int_equal(envlist_set(&e, "A", "3", &err), 0);
	assert_int_equal(e.n, 2);
	assert_string_equal(envlist_get(&e, "A"), "3");
	/* Longer, shorter, as long (written in place), empty, and a name that
	 * is a prefix of another. */
	assert_int_equal(envlist_set(&e, "A", "/x/b01/spin", &err), 0);
	assert_int_equal(envlist_set(&e, "A", "/x/c02/spin", &err), 0);
	assert_string_equal(e.v[0], "A=/x/c02/spin");
	assert_int_equal(envlist_set(&e, "A", "/x/b1", &err), 0);
	assert_string_equal(envlist_get(&e, "A"), "/x/b1");
	assert_int_equal(envlist_set(&e, "A", "", &err), 0);
	assert_string_equal(e.v[0], "A=");
	assert_int_equal(envlist_set(&e, "AB", "9", &err), 0);
	assert_int_equal(envlist_set(&e, "A", "3", &err), 0);
	assert_int_equal(envlist_set(&e, "AB", "8", &err), 0);
	assert_int_equal(e.n, 3);
	assert_string_equal(e.v[0], "A=3");
	assert_string_equal(e.v[1], "B=2");
	assert_string_equal(e.v[2], "AB=8");
	assert_null(e.v[3]);
	envlist_unset(&e, "AB");
	envlist_unset(&e, "A");
	assert_null(envlist_get(&e, "A"));
	assert_string_equal(e.v[0], "B=2");
	assert_null(e.v[1]);
	assert_int_equal(envlist_inherit(&e, &err), 0);
	assert_true(e.n >= 1);
	envlist_release(&e);
}

/* The cgroup2 folder of plumb: a hybrid layout, a mount of a subtree, none. */
PLUMB_TEST(contain_cgroup_folder_from_mountinfo)
{
	static const char hybrid[] =
		"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		"41 31 0:38 / /sys/fs/cgroup/un\\040ified rw,relatime - cgroup2 cgroup2 rw\n";
	static const char sub[] =
		"50 1 0:40 /user.slice /mnt/cg rw - cgroup2 cgroup2 rw\n";
	static const char v1only[] =
		"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n";
	char out[256], why[256];

	assert_int_equal(contain_cgroup_folder(hybrid, "4:memory:/x\n0::/\n", out, sizeof(out),
					       why, sizeof(why)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/un ified");
	assert_int_equal(contain_cgroup_folder(hybrid, "0::/a/b.scope\n", out, sizeof(out),
					       why, sizeof(why)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/un ified/a/b.scope");
	assert_int_equal(contain_cgroup_folder(sub, "0::/user.slice/u.scope\n", out, sizeof(out),
					       why, sizeof(why)), 0);
	assert_string_equal(out, "/mnt/cg/u.scope");
	/* Outside the mounted subtree, no cgroup2 at all, no v2 line. */
	assert_int_equal(contain_cgroup_folder(sub, "0::/system.slice\n", out, sizeof(out),
					       why, sizeof(why)), -1);
	assert_int_equal(contain_cgroup_folder(v1only, "0::/\n", out, sizeof(out),
					       why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no cgroup2 file system"));
	assert_int_equal(contain_cgroup_folder(hybrid, "1:cpu:/\n", out, sizeof(out),
					       why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/proc/self/cgroup"));
}

/* The oom_kill counter of a cgroup2 memory.events text. */
PLUMB_TEST(contain_parse_oom_kills_of_memory_events)
{
	uint64_t n = 99;

	assert_int_equal(contain_parse_oom_kills("low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\n"
						 "oom_group_kill 0\n", &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(contain_parse_oom_kills("oom_kill 18446744073709551615", &n), 0);
	assert_true(n == UINT64_MAX);
	/* oom_group_kill is another counter; none, or no number: unknown. */
	assert_int_equal(contain_parse_oom_kills("oom_group_kill 4\n", &n), -1);
	assert_int_equal(contain_parse_oom_kills("", &n), -1);
	assert_int_equal(contain_parse_oom_kills("oom_kill x\n", &n), -1);
}

/* A kill the OOM killer counted is named so, whoever was killed. */
PLUMB_TEST(proc_describe_names_out_of_memory_kills)
{
	struct proc_result res;
	char what[256];

	memset(&res, 0, sizeof(res));
	res.signo = SIGKILL;
	proc_describe(&res, 0, what, sizeof(what));
	assert_non_null(strstr(what, "killed by signal 9"));
	assert_null(strstr(what, "out of memory"));
	res.oom_kills = 1;
	proc_describe(&res, 0, what, sizeof(what));
	assert_true(strncmp(what, "killed by SIGKILL: out of memory?", 33) == 0);
	/* A shell whose child the OOM killer took exits 137. */
	res.exited = 1;
	res.status = 137;
	proc_describe(&res, 0, what, sizeof(what));
	assert_true(strncmp(what, "exit status 137 (out of memory?", 31) == 0);
	res.oom_kills = 0;
	proc_describe(&res, 0, what, sizeof(what));
	assert_string_equal(what, "exit status 137");
}
