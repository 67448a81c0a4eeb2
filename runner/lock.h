/*
 * runner/lock.h: one run at a time per work folder (and per cached clone).
 *
 * The lock is flock() on a file that also says who holds it ("pid 4242 on
 * host build1, started 2026-11-30T02:00:00Z"), so a second run, typically a
 * cron job that came early, exits 75 with a message naming the holder.  A
 * run killed with SIGKILL loses its flock with its last descriptor, so a
 * stale file never blocks anyone; the text it leaves is only overwritten.
 * Two runs building in one work folder would also measure each other, which
 * is why one lock covers the whole folder.
 *
 * Ownership: struct run_lock is caller-owned storage; run_lock_acquire()
 * fills it, run_lock_release() closes the descriptor and frees the path.
 */
#ifndef PLUMB_RUNNER_LOCK_H
#define PLUMB_RUNNER_LOCK_H

struct plumb_err;

struct run_lock {
	int fd;       /* -1 when not held */
	char *path;
};

/* Take the lock at path without waiting; PLUMB_ELOCKED names the holder. */
int run_lock_acquire(struct run_lock *lock, const char *path,
		     struct plumb_err *err);

/* Release (harmless when not held). */
void run_lock_release(struct run_lock *lock);

#endif
