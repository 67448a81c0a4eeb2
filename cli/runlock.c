/*
 * cli/runlock.c: the machine-wide lock of `plumb run` and `plumb demo`;
 * see runlock.h.
 */
#include <stdio.h>
#include <time.h>

#include "cli/cmd.h"
#include "cli/runlock.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/units.h"
#include "formats/config.h"
#include "runner/failed.h"
#include "runner/lock.h"
#include "runner/prune.h"
#include "runner/workdir.h"
#include "views/progress.h"
#include "common/banned.h"

int cli_machine_lock(struct run_lock *lock, const struct plumb_config *cfg, const char *wait,
		     int quiet)
{
	struct progress_view pv = { stderr, 0, 0 };
	struct lock_wait w = { -1, quiet ? NULL : view_event_put, &pv };
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

int cli_run_prune(const struct plumb_config *cfg, const char *age, int quiet)
{
	long secs = (long)FAILED_KEEP_DAYS * 86400;
	time_t now = time(NULL);
	struct plumb_err err;
	struct buf wd;
	size_t removed = 0;
	uint64_t bytes = 0;
	int status = PLUMB_EXIT_OK, rc;

	plumb_err_clear(&err);
	if (age && *age && prune_age_parse("--prune", age, &secs, &err) < 0) {
		fprintf(stderr, "plumb run: %s\n", err.msg);
		return PLUMB_EXIT_USAGE;
	}
	if (age && !*age)
		secs = PRUNE_DEFAULT_AGE;
	if (failed_prune(now, secs, &err) < 0)
		return cli_fail(&err);
	if (!age)
		return PLUMB_EXIT_OK;
	buf_init(&wd, 4096);
	rc = workdir_path(cfg->workdir, &wd, &err);
	if (rc == 0)
		rc = prune_runs(buf_cstr(&wd), now, secs, &removed, &bytes, &err);
	if (rc < 0)
		status = cli_fail(&err);
	else if (!quiet) {
		char size[UNITS_MAX];

		units_kib((long long)(bytes / 1024), size);
		fprintf(stderr, "plumb: --prune: removed %zu kept run folder%s (%s) older than %s from %s\n",
			removed, removed == 1 ? "" : "s", size, *age ? age : "14d", buf_cstr(&wd));
	}
	buf_release(&wd);
	return status;
}
