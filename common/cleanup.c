/*
 * common/cleanup.c: temporary-file and child-group registries, and the
 * signal handlers that use them; see cleanup.h for the protocol.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/banned.h"

static char *temp_paths[CLEANUP_SLOTS];
static volatile sig_atomic_t temp_used[CLEANUP_SLOTS];
static volatile pid_t child_groups[CLEANUP_SLOTS];
/* Slots at and past this index have never held a group: a child's exit
 * looks at the few that have, not all CLEANUP_SLOTS. */
static int child_groups_used;
static volatile sig_atomic_t pending_signal;

int tempfile_register(const char *path)
{
	for (int i = 0; i < CLEANUP_SLOTS; i++) {
		if (temp_used[i])
			continue;
		char *copy = strdup(path);
		if (!copy)
			return -1;
		free(temp_paths[i]);
		temp_paths[i] = copy;
		temp_used[i] = 1;
		return 0;
	}
	return -1;
}

void tempfile_forget(const char *path)
{
	for (int i = 0; i < CLEANUP_SLOTS; i++) {
		if (temp_used[i] && strcmp(temp_paths[i], path) == 0) {
			temp_used[i] = 0;
			free(temp_paths[i]);
			temp_paths[i] = NULL;
			return;
		}
	}
}

void tempfile_cleanup_signal(void)
{
	for (int i = 0; i < CLEANUP_SLOTS; i++)
		if (temp_used[i] && temp_paths[i])
			unlink(temp_paths[i]);
}

int child_group_register(pid_t pgid)
{
	for (int i = 0; i < CLEANUP_SLOTS; i++) {
		if (child_groups[i] == 0) {
			child_groups[i] = pgid;
			if (i >= child_groups_used)
				child_groups_used = i + 1;
			return 0;
		}
	}
	return -1;
}

void child_group_forget(pid_t pgid)
{
	for (int i = 0; i < child_groups_used; i++)
		if (child_groups[i] == pgid)
			child_groups[i] = 0;
}

static void signal_groups(int sig)
{
	for (int i = 0; i < CLEANUP_SLOTS; i++)
		if (child_groups[i] > 0)
			kill(-child_groups[i], sig);
}

/* Last resort: the program did not unwind in time, or a second signal came. */
static void hard_exit(int signo)
{
	signal_groups(SIGKILL);
	tempfile_cleanup_signal();
	_exit(128 + signo);
}

static void on_alarm(int sig)
{
	(void)sig;
	hard_exit(pending_signal ? pending_signal : SIGTERM);
}

static void on_stop_signal(int signo)
{
	if (pending_signal)
		hard_exit(pending_signal);
	pending_signal = signo;
	signal_groups(SIGTERM);
	tempfile_cleanup_signal();
	alarm(10);
}

void cleanup_install_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

int cleanup_signal_pending(void)
{
	return pending_signal;
}
