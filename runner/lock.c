/*
 * runner/lock.c: the work-folder lock and the machine-wide measuring
 * lock; see lock.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/fileio.h"
#include "common/utf8.h"
#include "runner/lock.h"
#include "common/banned.h"

#define HOLDER_MAX 400
#define POLL_NS (200 * 1000 * 1000)
/* The first line of every lock file plumb makes; the holder line follows. */
#define LOCK_MAGIC "# plumb lock\n"
#define MAGIC_LEN (sizeof(LOCK_MAGIC) - 1)

/* This process's command line, arguments joined by spaces, cut to size. */
static void own_command(char *out, size_t size)
{
	char raw[256];
	ssize_t got = -1;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	snprintf(out, size, "plumb");
	if (fd >= 0) {
		got = read(fd, raw, sizeof(raw) - 1);
		close(fd);
	}
	if (got <= 0)
		return;
	for (ssize_t i = 0; i < got - 1; i++)
		if (raw[i] == '\0')
			raw[i] = ' ';
	raw[got] = '\0';
	if ((size_t)got >= size)
		got = (ssize_t)size - 1;
	memcpy(out, raw, (size_t)got);
	out[got] = '\0';
	utf8_cut(out);
}

/* What the file says about its holder, one line, escaped for a terminal. */
static void read_holder(int fd, char *out, size_t size)
{
	char held[HOLDER_MAX];
	ssize_t got = pread(fd, held, sizeof(held) - 1, MAGIC_LEN);
	struct buf b;

	out[0] = '\0';
	if (got <= 0)
		return;
	held[got] = '\0';
	held[strcspn(held, "\n")] = '\0';
	/* Anyone may write the file of a machine-wide lock: never shown raw. */
	buf_init(&b, size);
	if (esc_text(&b, held) == 0)
		snprintf(out, size, "%s", buf_cstr(&b));
	buf_release(&b);
}

static int write_holder(int fd, const char *path, struct plumb_err *err)
{
	char host[256] = "unknown", stamp[32] = "unknown", cmd[200], line[HOLDER_MAX];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	own_command(cmd, sizeof(cmd));
	n = snprintf(line, sizeof(line), "pid %ld on host %s, started %s, command: %s\n",
		     (long)getpid(), host, stamp, cmd);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(line)) {
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	if (pwrite(fd, line, (size_t)n, MAGIC_LEN) != n || ftruncate(fd, (off_t)(MAGIC_LEN + (size_t)n)) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, path, "write lock");
	return 0;
}

static void say(const struct lock_wait *w, enum runner_event_kind kind, const char *path,
		const char *held)
{
	if (w)
		runner_event_send(w->event, w->ctx, &(const struct runner_event){
			.kind = kind, .subject = path, .text = held });
}

/*
 * Make the lock file at path, born whole with its magic line: written
 * beside it and linked into place, which never replaces a file (another
 * run's, or anyone's).  0 whether made here or found there.
 */
static int create_lock(const char *path, int shared, struct plumb_err *err)
{
	struct atomic_file af;
	int r;

	/* Whoever comes next, of whichever user, can take it (umask aside). */
	if ((r = atomic_file_open(&af, path, shared ? 0666 : 0644, err)) < 0)
		return r;
	if ((r = atomic_file_write(&af, LOCK_MAGIC, MAGIC_LEN, err)) < 0) {
		atomic_file_abort(&af);
		return r;
	}
	r = atomic_file_commit_new(&af, err);
	return r < 0 ? r : 0;
}

/* What a path that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket" :
	       S_ISLNK(mode) ? "a symbolic link" : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" :
	       "not a regular file";
}

/*
 * Open the lock file at path, made by plumb if missing.  A file that is
 * there must be a regular file that starts with plumb's magic line: plumb
 * writes to no other (it never truncates, widens or shows a file it did
 * not make).  An empty regular file is locked as it is, never written
 * (*writable 0).  Opened without blocking, so a FIFO cannot hang the open.
 */
static int open_lock(const char *path, int shared, int *writable, struct plumb_err *err)
{
	const int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
	char head[MAGIC_LEN];
	struct stat st;
	int fd = -1, r;

	for (int tries = 0; tries < 2 && fd < 0; tries++) {
		fd = open(path, O_RDWR | flags);
		*writable = fd >= 0;
		/* A machine-wide lock file another user made: flock works read-only too. */
		if (fd < 0 && shared && errno == EACCES)
			fd = open(path, O_RDONLY | flags);
		if (fd >= 0 || errno != ENOENT || tries > 0)
			break;
		if ((r = create_lock(path, shared, err)) < 0)
			return r;
	}
	if (fd < 0) {
		int e = errno;
		if ((e == ELOOP || e == EISDIR || e == ENXIO) && lstat(path, &st) == 0)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: the lock is %s, not a regular file",
					     path, file_kind(st.st_mode));
		return plumb_err_errno(err, e == ENOENT || e == EACCES || e == ENOTDIR ?
				       PLUMB_EINPUT : PLUMB_EIO, e, path, "open lock");
	}
	if (fstat(fd, &st) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, path, "stat lock");
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: the lock is %s, not a regular file", path,
				     file_kind(st.st_mode));
	}
	/* An empty file is what an older plumb left at the machine-wide lock's
	 * path after every run: flock() on it, writing nothing to it. */
	if (st.st_size == 0) {
		*writable = 0;
		return fd;
	}
	if (pread(fd, head, MAGIC_LEN, 0) != (ssize_t)MAGIC_LEN || memcmp(head, LOCK_MAGIC, MAGIC_LEN) != 0) {
		close(fd);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not a lock file plumb made (its first line is "
				     "not '%.*s'): plumb writes no file it did not make; remove it or "
				     "choose another lock (run.lock, PLUMB_LOCK)", path,
				     (int)MAGIC_LEN - 1, LOCK_MAGIC);
	}
	return fd;
}

static int take(struct run_lock *lock, const char *path, const struct lock_wait *w,
		struct plumb_err *err)
{
	char held[HOLDER_MAX] = "";
	uint64_t until = 0;
	int fd, writable, waited = 0;

	lock->fd = -1;
	lock->path = NULL;
	if ((fd = open_lock(path, w != NULL, &writable, err)) < 0)
		return fd;
	if (w && w->seconds > 0)
		until = clock_now_ns() + (uint64_t)w->seconds * 1000000000u;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec ts = { 0, POLL_NS };
		if (errno == EINTR && !cleanup_signal_pending())
			continue;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;
			close(fd);
			return plumb_err_errno(err, PLUMB_EIO, e, path, "lock");
		}
		read_holder(fd, held, sizeof(held));
		if (!held[0])
			snprintf(held, sizeof(held), "a run that is just starting");
		if (!w || w->seconds < 0 || cleanup_signal_pending() ||
		    (until && clock_now_ns() >= until)) {
			close(fd);
			if (cleanup_signal_pending())
				return plumb_err_set(err, PLUMB_EINTERNAL, "stopped by signal %d",
						     cleanup_signal_pending());
			return plumb_err_set(err, PLUMB_ELOCKED, "%s: another run holds the lock (%s); %s",
					     path, held, waited ? "waited long enough (--wait)" :
					     "try again later, or --wait");
		}
		if (!waited)
			say(w, RUNNER_EV_LOCK_WAIT, path, held);
		waited = 1;
		nanosleep(&ts, NULL);
	}
	/* Released locks are emptied: text left behind is a holder that died. */
	read_holder(fd, held, sizeof(held));
	if (held[0])
		say(w, RUNNER_EV_LOCK_TAKEN, path, held);
	if (writable) {
		int r = write_holder(fd, path, err);
		if (r < 0) {
			close(fd);
			return r;
		}
	}
	lock->path = strdup(path);
	if (!lock->path) {
		close(fd);
		return plumb_err_oom(err, path);
	}
	lock->fd = fd;
	lock->writable = writable;
	return 0;
}

int run_lock_acquire(struct run_lock *lock, const char *path, struct plumb_err *err)
{
	return take(lock, path, NULL, err);
}

int machine_lock_acquire(struct run_lock *lock, const char *path, const struct lock_wait *w,
			 struct plumb_err *err)
{
	static const struct lock_wait none = { -1, NULL, NULL };

	return take(lock, path, w ? w : &none, err);
}

/* A folder this process may create files in. */
static int writable_dir(const char *dir)
{
	struct stat st;

	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && access(dir, W_OK | X_OK) == 0;
}

int machine_lock_path(const char *configured, struct buf *out, struct plumb_err *err)
{
	const char *env = getenv("PLUMB_LOCK");
	const char *root = getenv("PLUMB_SYSROOT");
	const char *rt = getenv("XDG_RUNTIME_DIR");
	static const char *const dirs[] = { "/run/lock", "/var/lock" };
	struct buf dir;
	int r = -1;

	if (!root)
		root = "";
	if (env && *env)
		return buf_addstr(out, env) < 0 ? buf_err(err, "PLUMB_LOCK") : 0;
	if (configured && *configured)
		return buf_addstr(out, configured) < 0 ? buf_err(err, "run.lock") : 0;
	buf_init(&dir, 4096);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && r < 0; i++) {
		buf_reset(&dir);
		if (buf_printf(&dir, "%s%s", root, dirs[i]) == 0 && writable_dir(dir.data))
			r = buf_printf(out, "%s/plumb", dir.data) < 0 ? buf_err(err, "lock") : 0;
	}
	buf_release(&dir);
	if (r >= 0)
		return r;
	if (rt && rt[0] == '/' && writable_dir(rt))
		return buf_printf(out, "%s/plumb.lock", rt) < 0 ? buf_err(err, "lock") : 0;
	return plumb_err_set(err, PLUMB_EINPUT,
			     "no folder for the machine-wide lock: neither /run/lock nor /var/lock is "
			     "writable and XDG_RUNTIME_DIR is not set; set run.lock or PLUMB_LOCK");
}

void run_lock_release(struct run_lock *lock)
{
	if (lock->fd >= 0) {
		/* Leave no stale holder text behind for the next reader. */
		if (lock->writable && ftruncate(lock->fd, (off_t)MAGIC_LEN) < 0) {
			/* nothing to do: the flock goes away with the descriptor */
		}
		close(lock->fd);
	}
	lock->fd = -1;
	lock->writable = 0;
	free(lock->path);
	lock->path = NULL;
}
