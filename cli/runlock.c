/*
 * cli/runlock.c: the machine-wide lock of `plumb run` and `plumb demo`;
 * see runlock.h.
 */
#include <stdio.h>

#include "cli/cmd.h"
#include "cli/runlock.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "runner/lock.h"
#include "common/banned.h"

static void say(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "plumb: %s\n", line);   /* runner/lock.c escaped the holder */
}

int cli_machine_lock(struct run_lock *lock, const struct plumb_config *cfg, const char *wait,
		     int quiet)
{
	struct lock_wait w = { -1, quiet ? NULL : say, NULL };
	struct plumb_err err;
	struct buf path;
	int status = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	lock->fd = -1;
	lock->path = NULL;
	if (wait && *wait && config_parse_duration("--wait", wait, &w.seconds, &err) < 0) {
		fprintf(stderr, "plumb run: %s\n", err.msg);
		return PLUMB_EXIT_USAGE;
	}
	if (wait && !*wait)
		w.seconds = 0;
	buf_init(&path, 4096);
	if (machine_lock_path(cfg->run.lock, &path, &err) < 0 ||
	    machine_lock_acquire(lock, buf_cstr(&path), &w, &err) < 0)
		status = cli_fail(&err);
	buf_release(&path);
	return status;
}
