/*
 * runner/profile.h: where a benchmark spends its time, by software-clock
 * sampling (hot = auto, DESIGN §6).
 *
 * profile_attach() opens a PERF_COUNT_SW_CPU_CLOCK sampling event on the
 * child waiting at the harness's gate (sys/proc.h on_start), user
 * space only, enabled on exec and inherited by the processes it starts
 * (so the program a `sh -c` command starts is profiled, not only the
 * shell), one sample per PROFILE_PERIOD_NS of CPU time, recording the
 * instruction pointer, the pid and the executable mappings.  The kernel
 * refuses to map the buffer of an inherited event that follows a task on
 * every CPU, so there is one event, and one buffer, per CPU
 * (perf_event_open(pid, cpu)); profile_collect() reads them all.  No hardware PMU is needed, as on most VMs.
 * profile_collect() reads the ring buffer once the child has exited and
 * keeps, for the samples that fell in the artifact's mappings, the file
 * offset of each; profile_resolve() turns those into symbols of the
 * artifact (libelf: local symbols and GCC clones .constprop.N, .isra.N,
 * .cold included), sorted by share, and the smallest set of them that
 * covers the asked fraction of the in-artifact samples.
 *
 * Ownership: struct profile is caller-owned storage (profile_init(),
 * profile_close()); struct profile_hot arrays from profile_resolve() are
 * freed with profile_hot_free().
 */
#ifndef PLUMB_RUNNER_PROFILE_H
#define PLUMB_RUNNER_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct plumb_err;

#define PROFILE_PERIOD_NS 100000u          /* one sample per 100 us of CPU */
#define PROFILE_RING_PAGES 256u            /* data pages of the ring buffer */
#define PROFILE_COVERAGE 0.95              /* default share the hot set covers */
#define PROFILE_MAX_SYMBOLS 64u            /* most symbols a hot set keeps */

struct profile {
	int *fd;                  /* per CPU, -1 where none opened; NULL: not attached */
	void **ring;              /* per CPU, the event's mapped buffer, or NULL */
	size_t ncpu;
	size_t ring_size;
	uint64_t *off;            /* file offsets of in-artifact samples */
	size_t n, cap;
	uint64_t total;           /* every sample, anywhere */
	uint64_t lost;            /* samples the kernel dropped */
};

void profile_init(struct profile *p);

/* Attach to pid (stopped at the gate); PLUMB_EBENCH with errno's words on failure. */
int profile_attach(struct profile *p, pid_t pid, struct plumb_err *err);

/*
 * After the child exited: read the buffer, keep the samples inside the
 * mappings of artifact (an absolute path; compared with the mapped file's
 * name), and detach.  0, or PLUMB_EINTERNAL when memory runs out.
 */
int profile_collect(struct profile *p, const char *artifact, struct plumb_err *err);

void profile_close(struct profile *p);

struct profile_hot {
	char *name;               /* symbol name, or "(unknown)" outside every symbol */
	uint64_t samples;
	double share;             /* of the in-artifact samples */
};

/*
 * Resolve p's samples to the artifact's symbols: every symbol seen, by
 * share (largest first, then by name), in *all (n_all), and how many of
 * the first ones cover coverage of the samples in *n_hot (at most
 * PROFILE_MAX_SYMBOLS).  A profile with no in-artifact sample gives none.
 */
int profile_resolve(const struct profile *p, const char *artifact, double coverage,
		    struct profile_hot **all, size_t *n_all, size_t *n_hot,
		    struct plumb_err *err);

void profile_hot_free(struct profile_hot *h, size_t n);

#endif
