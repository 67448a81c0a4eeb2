/*
 * runner/lock.c: the work-folder lock; see lock.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "common/err.h"
#include "common/fileio.h"
#include "runner/lock.h"
#include "common/banned.h"

int run_lock_acquire(struct run_lock *lock, const char *path,
		     struct plumb_err *err)
{
	char host[256] = "unknown", stamp[32] = "unknown", line[400];
	time_t now = time(NULL);
	struct tm tm;
	int fd, n;

	lock->fd = -1;
	lock->path = NULL;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "open lock");
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char held[400];
		ssize_t got;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			int e = errno;
			close(fd);
			return plumb_err_errno(err, PLUMB_EIO, e, path, "lock");
		}
		got = pread(fd, held, sizeof(held) - 1, 0);
		close(fd);
		if (got < 0)
			got = 0;
		held[got] = '\0';
		held[strcspn(held, "\n")] = '\0';
		return plumb_err_set(err, PLUMB_ELOCKED, "%s: another run holds the lock (%s); try again later",
				     path, held[0] ? held : "a run that is just starting");
	}
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	n = snprintf(line, sizeof(line), "pid %ld on host %s, started %s\n",
		     (long)getpid(), host, stamp);
	if (ftruncate(fd, 0) < 0 || n < 0 ||
	    pwrite(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1, 0) < 0) {
		int e = errno;
		close(fd);
		return plumb_err_errno(err, PLUMB_EIO, e, path, "write lock");
	}
	lock->path = strdup(path);
	if (!lock->path) {
		close(fd);
		return plumb_err_oom(err, path);
	}
	lock->fd = fd;
	return 0;
}

void run_lock_release(struct run_lock *lock)
{
	if (lock->fd >= 0) {
		/* Leave no stale holder text behind for the next reader. */
		if (ftruncate(lock->fd, 0) < 0) {
			/* nothing to do: the flock goes away with the descriptor */
		}
		close(lock->fd);
	}
	lock->fd = -1;
	free(lock->path);
	lock->path = NULL;
}
