/*
 * cli/runlock.h: `plumb run` and `plumb demo` take the machine-wide lock
 * (runner/lock.h) before they build, and hold it to the end: no build of
 * one run loads the CPUs while another run measures.
 *
 * Ownership: struct run_lock is the caller's; run_lock_release() frees it.
 */
#ifndef PLUMB_CLI_RUNLOCK_H
#define PLUMB_CLI_RUNLOCK_H

struct plumb_config;
struct run_lock;

/*
 * Take it: wait NULL does not wait, "" waits as long as it takes, else a
 * duration (plumb.conf's spelling) waits at most that long; the waiting
 * and a take-over are said on stderr unless quiet.  Returns the exit
 * status: 0, 2 for a bad duration, 75 when held, 3 or 74 when it cannot
 * be opened.
 */
int cli_machine_lock(struct run_lock *lock, const struct plumb_config *cfg, const char *wait,
		     int quiet);

#endif
