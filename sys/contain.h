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
 *     /sys/fs/cgroup/unified works).  Each child is created in it
 *     (contain_cgroup_fd()) or joins it before it executes, so every
 *     descendant is in it whatever it does; at the end
 *     of a run what is left is counted from cgroup.procs and killed through
 *     cgroup.kill.  Needs a writable cgroup (root, or a delegated one).
 *   - subreaper: PR_SET_CHILD_SUBREAPER, so every orphaned descendant is
 *     reparented to plumb; at the end of a run plumb kills its children
 *     other than the one it waits for, round after round, until none is
 *     left.
 * In both, plumb is a subreaper and reaps what it kills.
 *
 * PLUMB_CONTAIN = auto (default) | cgroup | subreaper chooses: auto takes
 * cgroup2 when it can make and join one and falls back to subreaper
 * (recording why); cgroup is an error when it cannot.
 *
 * If plumb is killed outright (SIGKILL), the direct child dies with it
 * (PR_SET_PDEATHSIG); under cgroup2 the rest stays in plumb's cgroup until
 * the next plumb that runs a child in the same parent cgroup kills it and
 * removes the cgroup (contain_init(), for every "plumb.<pid>.<start>"
 * whose process is gone); under subreaper nothing can find the
 * descendants any more (they are reparented to init).
 *
 * Ownership: the container is process-wide state of this module; the
 * strings returned point into it and live until exit.
 */
#ifndef PLUMB_SYS_CONTAIN_H
#define PLUMB_SYS_CONTAIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct plumb_err;

enum contain_method { CONTAIN_NONE = 0, CONTAIN_CGROUP, CONTAIN_SUBREAPER };

/*
 * Set up the container of this process once (later calls return what the
 * first one did), after killing and removing what dead plumbs left.
 * PLUMB_EINPUT for a bad PLUMB_CONTAIN, or cgroup asked and impossible.
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
 * The container's cgroup folder, open, for a child created in it
 * (clone3's CLONE_INTO_CGROUP, Linux 5.7), which then needs no join: no
 * move of a running process, no wait for the kernel's grace period.  -1
 * when the method is not cgroup2.
 */
int contain_cgroup_fd(void);

/* struct clone_args of clone3(2) up to its cgroup member
 * (CLONE_ARGS_SIZE_VER2): glibc has no wrapper nor the type. */
struct contain_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/*
 * The direct child (pid, exited but not yet reaped) is done: kill all that
 * is still running in the container.  Returns how many processes were.
 * *alone (when not NULL) becomes 1 when the container was found holding
 * no live process (cgroup2's "populated 0": an exited child is no longer
 * a member), so nothing is left to kill or wait for; 0 otherwise.
 */
unsigned contain_kill(pid_t child, int *alone);

/*
 * After the direct child (pid) was reaped: kill what is still running
 * (counted in the return), wait (bounded) until the container is empty and
 * reap every zombie that was reparented to plumb.  alone: contain_kill()
 * said the container held no live process after the child's exit; no one
 * was left to start anything since, so only the zombies are reaped.
 */
unsigned contain_settle(pid_t child, int alone);

/*
 * This process's pid, asked of the kernel once per process rather than at
 * every query a measured run makes (glibc no longer caches it); a fork
 * resets it.
 */
pid_t contain_self_pid(void);

/*
 * What plumb does at exit, now: kill what is left in this process's
 * container, reap it, remove the cgroup.  For a worker process that leaves
 * with _exit() (runner/build-jobs.c); nothing once the container is not
 * this process's.
 */
void contain_release(void);

/*
 * Parse the text of /proc/self/mountinfo and /proc/self/cgroup: the folder
 * of plumb's own cgroup in the cgroup2 hierarchy, into out.  0, or -1 with
 * why filled.  For the unit tests and contain_init().
 */
int contain_cgroup_folder(const char *mountinfo, const char *cgroup, char *out,
			  size_t size, char *why, size_t why_size);

#endif
