/*
 * runner/perf.c: perf_event_open counters on a child process; see perf.h.
 *
 * Each counter is its own event (no group): a group cannot be read with
 * inherit set on kernels before 5.13, and inherit is what makes a
 * benchmark run through `sh -c` count the program, not only the shell.
 * exclude_kernel keeps the counters usable at perf_event_paranoid 2, the
 * usual default, where counting one's own children in user space is
 * allowed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/err.h"
#include "runner/host-types.h"
#include "runner/perf.h"
#include "common/banned.h"

/* Names, perf types and configs come from the metric table's COUNTER rows. */
#define EVENT_CLOCK(k, name, type, config)
#define EVENT_RUSAGE(k, name, type, config)
#define EVENT_COUNTER(k, name, type, config) [k] = { name, type, config },
#define EVENT_VALGRIND(k, name, type, config)
#define EVENT_ROW_(id, name, unit, dim, src, k, type, config, ...) EVENT_##src(k, name, type, config)
const struct perf_event_desc perf_hw_events[PERF_NCOUNTERS] = { METRIC_TABLE(EVENT_ROW_) };

static int open_event(const struct perf_event_desc *ev, pid_t pid, int on_exec)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = ev->type;
	attr.config = ev->config;
	attr.disabled = 1;
	attr.enable_on_exec = on_exec ? 1 : 0;
	attr.inherit = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return (int)fd;
}

/* "perf_event_paranoid is 2", or "" when unknown (HOST_NA). */
static void paranoid_text(long long v, char *out, size_t size)
{
	out[0] = '\0';
	if (v != HOST_NA)
		snprintf(out, size, "perf_event_paranoid is %lld", v);
}

int perf_probe_errno(const struct perf_event_desc *ev)
{
	int fd = open_event(ev, 0, 0);

	if (fd < 0)
		return errno ? errno : EINVAL;
	close(fd);
	return 0;
}

int perf_probe(const struct perf_event_desc *events, size_t n, long long paranoid,
	       char *reason, size_t size)
{
	for (size_t i = 0; i < n; i++) {
		int e = perf_probe_errno(&events[i]);
		char par[64];
		const char *why;
		if (e == 0)
			continue;
		paranoid_text(paranoid, par, sizeof(par));
		switch (e) {
		case ENOENT:
		case EOPNOTSUPP:
		case ENODEV:
			why = "the kernel offers no such counter here: no hardware PMU, as in most VMs";
			break;
		case EACCES:
		case EPERM:
			why = "not permitted";
			break;
		case ENOSYS:
			why = "perf_event_open is not available in this kernel";
			break;
		default:
			why = NULL;
			break;
		}
		snprintf(reason, size, "perf_event_open(%s): %s%s%s%s%s%s", events[i].name,
			 strerror(e), why ? " (" : "", why ? why : "", why ? ")" : "",
			 par[0] ? "; " : "", par);
		return 0;
	}
	return 1;
}

void perf_set_init(struct perf_set *ps, const struct perf_event_desc *events,
		   size_t n)
{
	ps->events = events;
	ps->n = n > PERF_NCOUNTERS ? PERF_NCOUNTERS : n;
	for (size_t i = 0; i < PERF_NCOUNTERS; i++)
		ps->fd[i] = -1;
}

void perf_set_close(struct perf_set *ps)
{
	for (size_t i = 0; i < PERF_NCOUNTERS; i++) {
		if (ps->fd[i] >= 0)
			close(ps->fd[i]);
		ps->fd[i] = -1;
	}
}

int perf_attach(struct perf_set *ps, pid_t pid, struct plumb_err *err)
{
	for (size_t i = 0; i < ps->n; i++) {
		ps->fd[i] = open_event(&ps->events[i], pid, 1);
		if (ps->fd[i] < 0) {
			int e = errno;
			perf_set_close(ps);
			return plumb_err_set(err, PLUMB_EBENCH, "perf_event_open(%s) on pid %ld: %s",
					     ps->events[i].name, (long)pid, strerror(e));
		}
	}
	return 0;
}

void perf_read(const struct perf_set *ps, struct perf_counts *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < ps->n; i++) {
		uint64_t v[3];   /* value, time_enabled, time_running */
		ssize_t got;
		if (ps->fd[i] < 0)
			continue;
		do
			got = read(ps->fd[i], v, sizeof(v));
		while (got < 0 && errno == EINTR);
		if (got != (ssize_t)sizeof(v) || v[2] == 0)
			continue;   /* never ran: no value, not zero */
		out->have[i] = 1;
		if (v[2] < v[1]) {
			out->value[i] = (double)v[0] * ((double)v[1] / (double)v[2]);
			out->scaled++;
		} else {
			out->value[i] = (double)v[0];
		}
	}
}
