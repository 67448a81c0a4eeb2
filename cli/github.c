/*
 * cli/github.c: the step summary and annotations under GitHub Actions;
 * see github.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/github.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/banned.h"

int cli_github_on(void)
{
	const char *v = getenv("GITHUB_ACTIONS");

	return v && strcmp(v, "true") == 0;
}

int cli_github_emit(const struct buf *md, const struct buf *notes, int json)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	struct plumb_err err;
	int status = PLUMB_EXIT_OK;

	plumb_err_clear(&err);
	if (path && *path && md->len) {
		int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0) {
			plumb_err_errno(&err, PLUMB_EIO, errno, path, "open GITHUB_STEP_SUMMARY");
			status = cli_fail(&err);
		} else {
			if (write_all(fd, md->data, md->len, path, &err) < 0 ||
			    write_all(fd, "\n", 1, path, &err) < 0)
				status = cli_fail(&err);
			if (close(fd) < 0 && status == PLUMB_EXIT_OK) {
				plumb_err_errno(&err, PLUMB_EIO, errno, path, "close");
				status = cli_fail(&err);
			}
		}
	}
	if (notes->len) {
		FILE *f = json ? stderr : stdout;
		fwrite(notes->data, 1, notes->len, f);
		fflush(f);
	}
	return status;
}
