/*
 * cli/rclone.c: how an archive's rclone store (archive/remote.h) starts
 * rclone: through the runner's process harness (sys/proc.h), like every
 * child of plumb: its own process group, no shell, stdin from /dev/null,
 * plumb's environment (RCLONE_CONFIG and the remote's credentials come
 * from there), a timeout, stdout and stderr captured under caps, reaped
 * before the call returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/remote.h"
#include "cli/rclone.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "sys/proc.h"
#include "common/banned.h"

extern char **environ;

/* One transfer of a bundle, or one listing: generous, but never forever. */
#define RCLONE_TIMEOUT_NS (30ull * 60 * 1000000000ull)
#define RCLONE_OUT_CAP ((size_t)256 << 20)
#define RCLONE_ERR_CAP ((size_t)64 << 10)

/* The last non-empty line of text, escaped, into b. */
static void last_line(const struct buf *text, struct buf *b)
{
	const char *s = text->len ? buf_cstr(text) : "";
	const char *end = s + strlen(s), *start;
	char *line;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	line = strndup(start, (size_t)(end - start));
	if (line)
		(void)esc_text(b, line);
	free(line);
}

static int run_rclone(char *const argv[], struct buf *out, int *status, struct plumb_err *err)
{
	struct proc_spec spec;
	struct proc_result pr;
	char how[128];
	struct buf tail;
	int r;

	*status = -1;
	memset(&pr, 0, sizeof(pr));
	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = environ;
	spec.timeout_ns = RCLONE_TIMEOUT_NS;
	spec.out.kind = PROC_SINK_MEM;
	spec.out.cap = RCLONE_OUT_CAP;
	spec.err.kind = PROC_SINK_MEM;
	spec.err.cap = RCLONE_ERR_CAP;
	if ((r = proc_run(&spec, &pr, err)) < 0)
		return r;
	if (pr.exited)
		*status = pr.status;
	if (pr.exited && pr.status == 0 && !pr.out_truncated) {
		buf_reset(out);
		r = pr.out_mem.len && buf_add(out, pr.out_mem.data, pr.out_mem.len) < 0 ?
		    buf_err(err, "rclone output") : 0;
		proc_result_release(&pr);
		return r;
	}
	proc_describe(&pr, RCLONE_TIMEOUT_NS, how, sizeof(how));
	buf_init(&tail, 4096);
	if (pr.spawn_errno)
		(void)buf_printf(&tail, "%s (is rclone installed? Debian's package is rclone)",
				 pr.spawn_error);
	else if (pr.out_truncated)
		(void)buf_printf(&tail, "its output was over %zu bytes", RCLONE_OUT_CAP);
	else
		last_line(&pr.err_mem, &tail);
	/* argv: rclone --retries=1 SUBCOMMAND ... */
	r = plumb_err_set(err, PLUMB_EIO, "rclone %s: %s%s%s", argv[1] && argv[2] ? argv[2] : "",
			  pr.spawn_errno ? "not started" : how, tail.len ? ": " : "",
			  tail.len ? buf_cstr(&tail) : "");
	buf_release(&tail);
	proc_result_release(&pr);
	return r;
}

void cli_rclone_setup(void)
{
	remote_set_exec(run_rclone);
}
