/*
 * runner/host-probe.c: facts learnt by trying: perf_event_open on a cycles
 * counter, and the first line of `$CC --version` from a child process
 * with a timeout.  Only used for the live machine (the cycles probe) or
 * always (the compiler, which a fake PLUMB_SYSROOT tree cannot describe).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "runner/host-parse.h"
#include "runner/host-probe.h"
#include "common/banned.h"

extern char **environ;

#define CC_MAX_ARGS 32
#define CC_OUTPUT_MAX 4096

const char *host_probe_perf_cycles(void)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, (unsigned long)0);
	if (fd >= 0) {
		close((int)fd);
		return "available";
	}
	if (errno == EACCES || errno == EPERM)
		return "not permitted";
	/* ENOENT, ENODEV, EOPNOTSUPP, ENOSYS, EINVAL: no PMU to count with. */
	return "not supported";
}

/* Split cc on blanks into argv (pointing into copy), adding "--version". */
static int split_command(char *copy, char **argv)
{
	int argc = 0;
	char *save = NULL;

	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (argc == CC_MAX_ARGS - 2)
			return -1;
		argv[argc++] = w;
	}
	if (argc == 0)
		return -1;
	argv[argc++] = "--version";
	argv[argc] = NULL;
	return argc;
}

/* Reap pid, retrying on EINTR; returns the wait status or -1. */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int host_probe_compiler(const char *cc, char **version, char **why)
{
	char *argv[CC_MAX_ARGS];
	char out[CC_OUTPUT_MAX + 1];
	size_t len = 0;
	char *copy;
	int pipefd[2];
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t sa;
	pid_t pid;
	int rc, status, timed_out = 0;
	long long deadline;

	*version = NULL;
	*why = NULL;
	copy = strdup(cc && *cc ? cc : "cc");
	if (!copy)
		return -2;
	if (split_command(copy, argv) < 0) {
		free(copy);
		return 1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		free(copy);
		return 1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_init(&sa);
	posix_spawnattr_setpgroup(&sa, 0);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETPGROUP);
	rc = posix_spawnp(&pid, argv[0], &fa, &sa, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&sa);
	close(pipefd[1]);
	free(copy);
	if (rc != 0) {
		close(pipefd[0]);
		return 1;  /* no such compiler: the fact is unknown */
	}
	child_group_register(pid);

	deadline = clock_now_ms() + HOST_CC_TIMEOUT_MS;
	for (;;) {
		struct pollfd p = { pipefd[0], POLLIN, 0 };
		long long left = deadline - clock_now_ms();
		char chunk[1024];
		ssize_t n;

		if (left <= 0 || cleanup_signal_pending()) {
			timed_out = 1;
			break;
		}
		rc = poll(&p, 1, (int)left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			continue;
		n = read(pipefd[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len < CC_OUTPUT_MAX) {
			size_t take = (size_t)n < CC_OUTPUT_MAX - len ? (size_t)n : CC_OUTPUT_MAX - len;
			memcpy(out + len, chunk, take);
			len += take;
		}
	}
	close(pipefd[0]);
	if (timed_out)
		kill(-pid, SIGKILL);
	status = reap(pid);
	child_group_forget(pid);
	if (timed_out) {
		*why = strdup("timed out");
		return *why ? 1 : -2;
	}
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (status >= 0 && WIFSIGNALED(status)) {
			*why = strdup("killed by a signal");
			return *why ? 1 : -2;
		}
		return 1;
	}
	out[len] = '\0';
	{
		char *nl = strchr(out, '\n');
		if (nl)
			*nl = '\0';
	}
	rc = host_parse_line(out, version);
	if (rc == -2)
		return -2;
	return rc == 0 ? 0 : 1;
}
