/*
 * runner/perf.h: hardware counters of a benchmark process through
 * perf_event_open(2) (DESIGN §5.5): cycles, instructions and branch misses
 * of the child, in user space, from its execve to its exit (children it
 * starts included).
 *
 * A run either has real counts or none: when the kernel does not offer
 * the counters (no PMU in a VM: ENOENT; perf_event_paranoid too high:
 * EACCES), perf_probe() says so once, with the reason, and the run records
 * "unavailable" instead of a number.  Counting is attached while the child
 * waits at the harness's gate (sys/proc.h on_start) with enable_on_exec,
 * so plumb's own fork and set-up are not counted.
 *
 * Counters the kernel multiplexed (ran less than the whole time) are
 * scaled by time_enabled / time_running, as perf stat does, and counted in
 * perf_counts.scaled; a counter that never ran has no value.
 *
 * Ownership: struct perf_set is caller-owned storage: perf_set_init() sets
 * it up, perf_attach() opens descriptors in it, perf_set_close() closes
 * them.  The event table is static.
 */
#ifndef PLUMB_RUNNER_PERF_H
#define PLUMB_RUNNER_PERF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/metric.h"

struct plumb_err;

/* The counters are the COUNTER rows of common/metric.h, numbered by k. */
#define PERF_COUNTER_CLOCK(id, k)
#define PERF_COUNTER_RUSAGE(id, k)
#define PERF_COUNTER_COUNTER(id, k) PERF_##id = k,
#define PERF_COUNTER_VALGRIND(id, k)
#define PERF_COUNTER_ROW_(id, name, unit, dim, src, k, ...) PERF_COUNTER_##src(id, k)
enum perf_counter { METRIC_TABLE(PERF_COUNTER_ROW_) };
#define PERF_NCOUNTERS METRIC_NCOUNTERS

/* One event to count: perf_event_attr type and config. */
struct perf_event_desc {
	const char *name;    /* "cycles", "instructions", "branch-misses" */
	uint32_t type;       /* PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, ... */
	uint64_t config;
};

/* The events of enum perf_counter (the COUNTER rows of the metric table), in that order. */
extern const struct perf_event_desc perf_hw_events[PERF_NCOUNTERS];

struct perf_set {
	const struct perf_event_desc *events;  /* n events */
	size_t n;
	int fd[PERF_NCOUNTERS];                /* -1: not open */
};

struct perf_counts {
	int have[PERF_NCOUNTERS];       /* 1: value[i] is a real count */
	double value[PERF_NCOUNTERS];
	int scaled;                     /* counters that were multiplexed */
};

/*
 * Can this process count events[0..n) of a child?  Opens each on plumb
 * itself and closes it again.  Returns 1 (available), or 0 with reason
 * filled: "perf_event_open(cycles): No such file or directory (no
 * hardware counters: a VM without a virtual PMU?; perf_event_paranoid is 2)";
 * paranoid is the level the caller read (host_perf_paranoid(): under
 * PLUMB_SYSROOT, as the host facts are), HOST_NA when unknown (the
 * reason then names none).
 */
int perf_probe(const struct perf_event_desc *events, size_t n, long long paranoid,
	       char *reason, size_t size);

/*
 * Open ev on plumb itself and close it again: 0 when it can be counted,
 * else the errno of perf_event_open (ENOENT, EACCES, ...).  The one probe
 * behind perf_probe() and the host fact perf.cycles.
 */
int perf_probe_errno(const struct perf_event_desc *ev);

/* Set up ps for events[0..n) (n <= PERF_NCOUNTERS), nothing open. */
void perf_set_init(struct perf_set *ps, const struct perf_event_desc *events,
		   size_t n);

/*
 * Open every counter on pid (a child that has not executed yet), enabled
 * on its execve.  On failure nothing stays open and err names the event
 * and errno (PLUMB_EBENCH).
 */
int perf_attach(struct perf_set *ps, pid_t pid, struct plumb_err *err);

/* Read the counts after the child has exited; closes nothing. */
void perf_read(const struct perf_set *ps, struct perf_counts *out);

/* Close whatever is open (harmless when nothing is). */
void perf_set_close(struct perf_set *ps);

#endif
