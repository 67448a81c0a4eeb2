/*
 * tests/unit/test-common.c: common/ (errors, buffers, atomic files).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>

#include "tests/unit/unit.h"
#include "cli/exit.h"
#include "common/buf.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/banned.h"

PLUMB_TEST(err_set_and_exit_status)
{
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(err.code, 0);
	assert_int_equal(plumb_err_set(&err, PLUMB_EINPUT, "%s: bad", "x.conf"), PLUMB_EINPUT);
	assert_string_equal(err.msg, "x.conf: bad");
	assert_int_equal(cli_exit_status(err.code), 3);
	assert_int_equal(cli_exit_status(PLUMB_ELOCKED), 75);
	assert_int_equal(cli_exit_status(PLUMB_EIO), 74);
	assert_int_equal(cli_exit_status(-12345), 70);
	plumb_err_prefix(&err, "line %d", 4);
	assert_string_equal(err.msg, "line 4: x.conf: bad");
	assert_int_equal(err.code, PLUMB_EINPUT);
}

PLUMB_TEST(err_errno_names_subject)
{
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(plumb_err_errno(&err, 0, ENOSPC, "/a/b", "write"), PLUMB_EIO);
	assert_non_null(strstr(err.msg, "/a/b: write: "));
	assert_non_null(strstr(err.msg, "No space left"));
}

PLUMB_TEST(buf_grows_and_respects_max)
{
	struct buf b;

	buf_init(&b, 10);
	assert_string_equal(buf_cstr(&b), "");
	assert_int_equal(buf_addstr(&b, "hello"), 0);
	assert_int_equal(buf_printf(&b, "%d", 1234), 0);
	assert_string_equal(buf_cstr(&b), "hello1234");
	assert_int_equal(buf_addstr(&b, "xy"), -1);
	assert_int_equal(errno, E2BIG);
	assert_string_equal(buf_cstr(&b), "hello1234");
	assert_int_equal(buf_addch(&b, '!'), 0);
	assert_int_equal(b.len, 10);
	buf_release(&b);
	assert_null(b.data);
}

PLUMB_TEST(buf_strdupf_formats_a_new_string)
{
	char *s = buf_strdupf("%s/%02u", "v/b", 7u);
	char *big;

	assert_non_null(s);
	assert_string_equal(s, "v/b/07");
	free(s);
	s = buf_strdupf("%s", "");
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
	/* Past 1 MiB: NULL, nothing leaked. */
	big = malloc((1 << 20) + 2);
	assert_non_null(big);
	memset(big, 'x', (1 << 20) + 1);
	big[(1 << 20) + 1] = '\0';
	assert_null(buf_strdupf("%s", big));
	free(big);
}

PLUMB_TEST(clock_is_monotonic_in_ns_and_ms)
{
	uint64_t a = clock_now_ns(), b;
	long long ms = clock_now_ms();
	struct timespec pause = { 0, 2000000 };

	nanosleep(&pause, NULL);
	b = clock_now_ns();
	assert_true(b >= a + 2000000);
	assert_true(clock_now_ms() >= ms + 2);
	assert_true(ms >= (long long)(a / 1000000));
}

/* Count the entries of dir that start with prefix. */
static int count_prefix(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

PLUMB_TEST(atomic_file_commit_and_abort)
{
	char dir[] = "/tmp/plumb-unit-XXXXXX";
	char path[256];
	struct atomic_file af;
	struct plumb_err err;
	struct buf b;
	struct stat st;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	plumb_err_clear(&err);

	/* Abort leaves nothing at all. */
	assert_int_equal(atomic_file_open(&af, path, 0644, &err), 0);
	assert_int_equal(atomic_file_write(&af, "abc", 3, &err), 0);
	/* O_TMPFILE where the file system has it: no name at all meanwhile. */
	assert_int_equal(count_prefix(dir, ".out.txt.tmp."), af.unnamed ? 0 : 1);
	atomic_file_abort(&af);
	assert_int_equal(count_prefix(dir, ".out.txt.tmp."), 0);
	assert_int_not_equal(stat(path, &st), 0);

	/* Commit publishes the whole file with the asked mode. */
	assert_int_equal(atomic_file_open(&af, path, 0640, &err), 0);
	assert_int_equal(atomic_file_write(&af, "hello\n", 6, &err), 0);
	assert_int_equal(atomic_file_commit(&af, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(count_prefix(dir, ".out.txt.tmp."), 0);

	buf_init(&b, 100);
	assert_int_equal(file_read(path, 100, &b, &err), 0);
	assert_string_equal(buf_cstr(&b), "hello\n");
	buf_reset(&b);
	assert_int_equal(file_read(path, 3, &b, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "larger than 3 bytes"));
	buf_release(&b);

	unlink(path);
	rmdir(dir);
}

/* commit_new makes a file that is not there and leaves one that is, byte for byte. */
PLUMB_TEST(atomic_file_commit_new_never_replaces)
{
	char dir[] = "/tmp/plumb-unit-XXXXXX";
	char path[256];
	struct atomic_file af;
	struct plumb_err err;
	struct buf b;
	struct stat st;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/new.lock", dir);
	plumb_err_clear(&err);
	assert_int_equal(atomic_file_open(&af, path, 0666, &err), 0);
	assert_int_equal(atomic_file_write(&af, "first\n", 6, &err), 0);
	assert_int_equal(atomic_file_commit_new(&af, &err), 1);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666);

	assert_int_equal(atomic_file_open(&af, path, 0644, &err), 0);
	assert_int_equal(atomic_file_write(&af, "second\n", 7, &err), 0);
	assert_int_equal(atomic_file_commit_new(&af, &err), 0);
	buf_init(&b, 100);
	assert_int_equal(file_read(path, 100, &b, &err), 0);
	assert_string_equal(buf_cstr(&b), "first\n");
	buf_release(&b);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666);
	assert_int_equal(count_prefix(dir, ".new.lock.tmp."), 0);

	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

/* A pid that is no process now: a child that has been reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	return pid;
}

static void touch(const char *dir, const char *fmt, long pid)
{
	char name[128], path[400];
	int fd;

	snprintf(name, sizeof(name), fmt, pid);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
}

/*
 * Replacing a file leaves no temporary name; what a dead writer left
 * (its pid in the name) goes at the next open in the folder, what a live
 * one or a foreign name holds stays.
 */
PLUMB_TEST(atomic_file_replace_and_sweep)
{
	char dir[] = "/tmp/plumb-unit-XXXXXX";
	char path[256];
	struct atomic_file af;
	struct plumb_err err;
	struct buf b;
	long dead = (long)dead_pid();
	char *label = NULL;
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.txt", dir);
	plumb_err_clear(&err);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(atomic_file_open(&af, path, 0644, &err), 0);
		assert_int_equal(atomic_file_write(&af, i ? "two" : "one", 3, &err), 0);
		assert_int_equal(atomic_file_commit(&af, &err), 0);
	}
	buf_init(&b, 100);
	assert_int_equal(file_read(path, 100, &b, &err), 0);
	assert_string_equal(buf_cstr(&b), "two");
	buf_release(&b);
	assert_int_equal(count_prefix(dir, "."), 2);   /* "." and ".." */

	touch(dir, ".out.txt.tmp.%ld.AbCdEf", dead);
	touch(dir, ".x.plumb.spool.%ld.AbCdEf", dead);
	touch(dir, ".out.txt.tmp.%ld.XyZ123", (long)getppid());   /* alive */
	touch(dir, ".out.txt.tmp.AbC123", 0);                     /* no pid */
	assert_int_equal(count_prefix(dir, ".out.txt.tmp."), 3);
	fd = tempfile_open_unnamed(path, "spool", &label, &err);
	assert_true(fd >= 0);
	assert_non_null(label);
	assert_non_null(strstr(label, dir));
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
	free(label);
	assert_int_equal(count_prefix(dir, ".x.plumb.spool."), 0);
	assert_int_equal(count_prefix(dir, ".out.txt.tmp."), 2);
	assert_int_equal(tempfile_sweep(dir), 0);
	{
		DIR *d = opendir(dir);
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	assert_int_equal(rmdir(dir), 0);
}

PLUMB_TEST(atomic_file_missing_folder_is_io_error)
{
	struct atomic_file af;
	struct plumb_err err;

	plumb_err_clear(&err);
	assert_int_equal(atomic_file_open(&af, "/nonexistent-plumb/x/out", 0644, &err), PLUMB_EIO);
	assert_non_null(strstr(err.msg, "/nonexistent-plumb/x/"));
}

/*
 * The child-group registry: a forgotten group frees its slot wherever it
 * lies (child_group_forget() looks only at slots ever used), and a group
 * registered twice is forgotten from both.  The groups are numbers no
 * process has; none is signalled.
 */
PLUMB_TEST(cleanup_child_groups_forget_any_slot)
{
	const pid_t base = 0x3ff00000;

	for (int i = 0; i < CLEANUP_SLOTS; i++)
		assert_int_equal(child_group_register(base + i), 0);
	assert_int_equal(child_group_register(base + CLEANUP_SLOTS), -1);
	child_group_forget(base + CLEANUP_SLOTS - 1);
	assert_int_equal(child_group_register(base + CLEANUP_SLOTS), 0);
	assert_int_equal(child_group_register(base + CLEANUP_SLOTS), -1);
	for (int i = 0; i <= CLEANUP_SLOTS; i++)
		child_group_forget(base + i);

	/* Emptied, the registry holds CLEANUP_SLOTS again. */
	assert_int_equal(child_group_register(base), 0);
	assert_int_equal(child_group_register(base), 0);
	child_group_forget(base);
	for (int i = 0; i < CLEANUP_SLOTS; i++)
		assert_int_equal(child_group_register(base + i), 0);
	assert_int_equal(child_group_register(base + CLEANUP_SLOTS), -1);
	for (int i = 0; i < CLEANUP_SLOTS; i++)
		child_group_forget(base + i);
}
