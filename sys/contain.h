/*
 * sys/contain.h: the container every child of plumb runs in, so that
 * whatever it starts (a daemon that calls setsid, a double fork, a
 * grandchild holding its pipes) is counted and killed at the end of its run
 * (DESIGN §3: no child outlives plumb).
 *
 * Two methods, chosen once per plumb process by contain_init():
 *   - cgroup2: a cgroup v2 of plumb's own, "plumb.<pid>.<start>" under the
 *     cgroup plumb runs in (found through /proc/self/mountinfo and
 *     /proc/self/cgroup, so a hybrid layout with cgroup2 at
 *     /sys/fs/cgroup/unified works).  Each child joins it before it
 *     executes (contain_child_join()), so every descendant is in it
 *     whatever it does; at the end of a run what is left is counted from
 *     cgroup.procs and killed through cgroup.kill.  Needs a writable
 *     cgroup (root, or a delegated one).
 *   - subreaper: PR_SET_CHILD_SUBREAPER, so every orphaned descendant is
 *     reparented to plumb; at the end of a run plumb kills its children,
 *     round after round, until none is left.  The portable path: it needs
 *     nothing but Linux 3.4.
 * In both, plumb is a subreaper and reaps what it kills.
 *
 * PLUMB_CONTAIN = auto (default) | cgroup | subreaper chooses: auto takes
 * cgroup2 when it can make and join one, else subreaper, and records why
 * (contain_reason(), in the bundle); cgroup is an error when it cannot;
 * subreaper forces the portable path (the test suite runs it too).
 *
 * When plumb is killed outright (SIGKILL: no handler, no atexit), a
 * watcher takes over: a small process that contain_init() forks, out of
 * plumb's session and container, that waits for plumb's end on a pipe
 * only plumb holds, then kills what plumb could not: the cgroup whole
 * (cgroup.kill), and every process group of a child that was running
 * (contain_track()), then exits.  At a normal exit plumb cleans up itself
 * (contain_release()) and the watcher just ends.  The direct child also
 * dies with plumb at once (PR_SET_PDEATHSIG, set by sys/proc.c).  What the
 * watcher cannot reach under subreaper: a descendant that left its
 * process group (setsid) after plumb died (the kernel hands it to init);
 * under cgroup2 nothing escapes.
 *
 * Ownership: the container is process-wide state of this module, of the
 * process that called contain_init() (a fork of plumb makes its own); the
 * strings returned point into it and live until contain_release().
 */
#ifndef PLUMB_SYS_CONTAIN_H
#define PLUMB_SYS_CONTAIN_H

#include <stddef.h>
#include <sys/types.h>

struct plumb_err;

enum contain_method { CONTAIN_NONE = 0, CONTAIN_CGROUP, CONTAIN_SUBREAPER };

/*
 * Set up the container of this process once (later calls return what the
 * first one did), after killing and removing what dead plumbs left, and
 * start its watcher.  PLUMB_EINPUT for a bad PLUMB_CONTAIN, or cgroup
 * asked and impossible; PLUMB_EINTERNAL when the watcher cannot start.
 */
int contain_init(struct plumb_err *err);

/* The method (CONTAIN_NONE before a successful contain_init()). */
enum contain_method contain_method(void);

/* "cgroup2" or "subreaper" (NULL before contain_init()). */
const char *contain_method_name(void);

/* Why cgroup2 is not used ("" when it is, or when subreaper was asked). */
const char *contain_reason(void);

/*
 * The descriptor a child writes "0" to before it executes, to join the
 * container (cgroup.procs), or -1 when the method needs nothing.
 * contain_child_join() does it; async-signal-safe (for a vfork child);
 * returns 0 or an errno.
 */
int contain_join_fd(void);
int contain_child_join(int fd);

/*
 * A child's process group, for the signal handlers (common/cleanup.h) and
 * for the watcher, which kills it should plumb die: 0, or -1 when the
 * registries are full.  contain_untrack() once the group is gone.
 */
int contain_track(pid_t pgid);
void contain_untrack(pid_t pgid);

/*
 * The direct child was reaped: kill all that is still running in the
 * container, wait (bounded) until it is empty and reap every zombie that
 * was reparented to plumb.  Returns how many processes were running.
 */
unsigned contain_sweep(void);

/*
 * What plumb does at exit, now: kill what is left in this process's
 * container, reap it, remove the cgroup, stop the watcher.  For a worker
 * process that leaves with _exit() (runner/build-jobs.c); nothing once
 * the container is not this process's.
 */
void contain_release(void);

/*
 * How many processes the kernel's out-of-memory killer has killed in the
 * container (cgroup2 memory.events "oom_kill", the container's own when
 * the memory controller is enabled for it, else that of the cgroup plumb
 * runs in): 0 and *count, or -1 when no such counter can be read (the
 * subreaper method, no memory controller on the cgroup2 hierarchy).
 * proc_run() reads it around each child to name an OOM kill as such.
 */
int contain_oom_kills(uint64_t *count);

/* The "oom_kill N" line of a memory.events text: 0 and *count, else -1. */
int contain_parse_oom_kills(const char *text, uint64_t *count);

/*
 * Parse the text of /proc/self/mountinfo and /proc/self/cgroup: the folder
 * of plumb's own cgroup in the cgroup2 hierarchy, into out.  0, or -1 with
 * why filled.  For the unit tests and contain_init().
 */
int contain_cgroup_folder(const char *mountinfo, const char *cgroup, char *out,
			  size_t size, char *why, size_t why_size);

#endif
