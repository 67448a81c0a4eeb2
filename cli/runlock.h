/*
 * cli/runlock.h: the start of `plumb run` and `plumb demo`: they take the
 * machine-wide lock (runner/lock.h) before they build, and hold it to the
 * end: no build of one run loads the CPUs while another run measures; then
 * they prune what earlier runs kept (runner/prune.h, runner/failed.h).
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

/*
 * Under the lock, before the builds: remove the logs of failures older
 * than FAILED_KEEP_DAYS (runner/failed.h), and with age set (--prune[=AGE]:
 * "" for the default 14 days) the kept run folders of cfg's work folder
 * and the logs of failures older than AGE, said on stderr unless quiet.
 * Returns the exit status.
 */
int cli_run_prune(const struct plumb_config *cfg, const char *age, int quiet);

#endif
