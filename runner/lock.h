/*
 * runner/lock.h: one run at a time per work folder (and per cached clone),
 * and one measuring run at a time per machine.
 *
 * The lock is flock() on a file that also says who holds it ("pid 4242 on
 * host build1, started 2026-11-30T02:00:00Z"), so a second run, typically a
 * cron job that came early, exits 75 with a message naming the holder.  A
 * run killed with SIGKILL loses its flock with its last descriptor, so a
 * stale file never blocks anyone; the text it leaves is only overwritten.
 * Two runs building in one work folder would also measure each other, which
 * is why one lock covers the whole folder.
 *
 * A lock file is plumb's own: made whole with its first line "# plumb
 * lock" (written beside it and linked into place, which never replaces a
 * file), or found starting with that line.  Any other path is refused with
 * PLUMB_EINPUT naming it, before anything is written, truncated, widened
 * or shown: a file that does not start with the line (a lock path may come
 * from run.lock or PLUMB_LOCK), a folder, a FIFO, a socket, a device, a
 * symbolic link.
 *
 * The machine-wide lock (machine_lock_*) is the same kind of file in a
 * folder every user shares (/run/lock/plumb, else /var/lock/plumb, else
 * $XDG_RUNTIME_DIR/plumb.lock; run.lock or PLUMB_LOCK instead), so that no
 * two runs build or measure at once whatever their work folders.  Its file
 * is mode 0666 and anyone may write it: what it says is escaped before it
 * is shown.  It may be waited for; a file that still names a holder when
 * the flock is free was left by a run that died, and is taken over.
 *
 * Ownership: struct run_lock is caller-owned storage; run_lock_acquire()
 * fills it, run_lock_release() closes the descriptor and frees the path.
 */
#ifndef PLUMB_RUNNER_LOCK_H
#define PLUMB_RUNNER_LOCK_H

#include "runner/event.h"

struct plumb_err;

struct buf;

struct run_lock {
	int fd;       /* -1 when not held */
	char *path;
	int writable; /* the holder line was written (and is emptied on release) */
};

/* How to take the machine-wide lock. */
struct lock_wait {
	long seconds;    /* -1: do not wait; 0: wait as long as it takes; else at most */
	/* Told RUNNER_EV_LOCK_WAIT once, and RUNNER_EV_LOCK_TAKEN (runner/event.h), or NULL. */
	runner_event_fn *event;
	void *ctx;
};

/* Take the lock at path without waiting; PLUMB_ELOCKED names the holder. */
int run_lock_acquire(struct run_lock *lock, const char *path,
		     struct plumb_err *err);

/*
 * The path of the machine-wide lock: $PLUMB_LOCK, else configured
 * (run.lock), else the first writable of /run/lock and /var/lock (under
 * $PLUMB_SYSROOT) with /plumb, else $XDG_RUNTIME_DIR/plumb.lock; appended
 * to out.  None of them: PLUMB_EINPUT saying what to set.
 */
int machine_lock_path(const char *configured, struct buf *out, struct plumb_err *err);

/*
 * Take the machine-wide lock at path as w says (NULL: do not wait).
 * Held past the wait: PLUMB_ELOCKED naming the holder (pid, host, start
 * time, command).  A signal while waiting: PLUMB_EINTERNAL.
 */
int machine_lock_acquire(struct run_lock *lock, const char *path, const struct lock_wait *w,
			 struct plumb_err *err);

/* Release (harmless when not held). */
void run_lock_release(struct run_lock *lock);

#endif
