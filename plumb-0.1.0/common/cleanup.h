/*
 * common/cleanup.h: what SIGINT and SIGTERM must undo.
 *
 * DESIGN §3: on SIGINT/SIGTERM plumb removes its temporary files, stops
 * every child process group and exits 128+signo.  Two registries live here
 * because a signal handler can only reach process-wide state: temporary
 * file paths (unlinked from the handler, which is async-signal-safe) and
 * the process groups of running children (sent SIGTERM from the handler).
 *
 * The handler only does what is async-signal-safe; the code that was
 * waiting sees its child die or its call fail with EINTR, checks
 * cleanup_signal_pending(), unwinds normally (removing run folders), and
 * cli/main.c exits 128+signo.  A second signal, or 10 seconds without an
 * exit, kills the groups with SIGKILL and exits at once.
 *
 * Ownership: registered paths are copied; the registries hold at most
 * CLEANUP_SLOTS entries each.
 */
#ifndef PLUMB_COMMON_CLEANUP_H
#define PLUMB_COMMON_CLEANUP_H

#include <sys/types.h>

#define CLEANUP_SLOTS 64

/* Remember a temporary file to unlink on a signal; -1 when full or no memory. */
int tempfile_register(const char *path);
void tempfile_forget(const char *path);

/* Remember a child's process group to signal; -1 when full. */
int child_group_register(pid_t pgid);
void child_group_forget(pid_t pgid);

/* Install the SIGINT/SIGTERM handlers (and ignore SIGPIPE). */
void cleanup_install_handlers(void);

/* The signal that asked plumb to stop, or 0. */
int cleanup_signal_pending(void);

/* Unlink every registered temporary file (async-signal-safe). */
void tempfile_cleanup_signal(void);

#endif
