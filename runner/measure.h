/*
 * runner/measure.h: one measured run of a benchmark command (DESIGN §5.5).
 *
 * The command runs under the process harness (sys/proc.h: own process
 * group, stdin /dev/null, fds 0-2 and the samples fd only, the explicit
 * environment, a timeout, CPU pinning and ASLR as configured).  What a run
 * yields:
 *   - wall time on CLOCK_MONOTONIC, user and system time and max RSS from
 *     wait4, the exit status or signal;
 *   - cycles, instructions and branch misses when counters were asked for
 *     (runner/perf.h), else nothing;
 *   - samples mode: the durations the benchmark wrote to the samples fd,
 *     one decimal number of nanoseconds per line (digits, an optional
 *     ".digits" fraction; blank lines are skipped), at most max_samples of
 *     them, lines of at most MEASURE_LINE_MAX bytes;
 *   - a checksum: a line "checksum=<hex>" (1 to MEASURE_CHECKSUM_MAX hex
 *     digits, kept in lower case; blanks around it allowed) on the samples
 *     fd or on stdout.  Two different checksums in one run are a conflict.
 *   - or, when asked (out_cap), standard output itself, for the caller to
 *     read (a Google Benchmark binary's JSON, runner/run-gbench.c);
 *     more than out_cap bytes of it is a failure.
 *   - standard error, capped (its first and last bytes kept).
 *
 * A benchmark that misbehaves (non-zero exit, signal, timeout, a
 * malformed samples line, too many samples) is not an error of
 * measure_run(): it returns 0 with failed set and why saying what
 * happened.  It fails only when plumb could not do its part, or when plumb
 * was asked to stop by a signal.
 *
 * Ownership: struct measure_spec borrows everything it points to.  struct
 * measure_result is caller-owned storage filled by measure_run() and freed
 * by measure_result_release().
 */
#ifndef PLUMB_RUNNER_MEASURE_H
#define PLUMB_RUNNER_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "runner/perf.h"
#include "runner/profile.h"
#include "sys/proc.h"

struct buf;
struct plumb_err;

#define MEASURE_LINE_MAX 160          /* bytes of one samples-fd line */
#define MEASURE_CHECKSUM_MAX 128      /* hex digits of a checksum */
#define MEASURE_STDERR_CAP ((size_t)64 << 10)

struct measure_spec {
	char *const *argv;
	char *const *env;
	const char *cwd;
	uint64_t timeout_ns;
	int samples_fd;           /* > 2: samples mode, the pipe's fd number */
	uint64_t max_samples;     /* samples mode: most samples of one run */
	int checksum;             /* nonzero: look for checksum= lines */
	const int *cpus;          /* pin to these CPUs (ncpus 0: no pinning) */
	size_t ncpus;
	int no_aslr;              /* personality(ADDR_NO_RANDOMIZE) */
	const struct perf_event_desc *events;   /* nevents 0: no counters */
	size_t nevents;
	size_t stderr_cap;        /* 0: MEASURE_STDERR_CAP */
	size_t out_cap;           /* > 0: stdout kept in proc.out_mem (at most this many
	                             bytes) instead of scanned for checksum= lines */
	struct profile *profile;  /* non-NULL: sample the run (runner/profile.h); the
	                             caller collects and closes it afterwards */
};

struct measure_result {
	struct proc_result proc;  /* status, times, rusage; stderr in proc.err_mem */
	int failed;               /* the benchmark failed: why says how */
	double *samples;          /* samples mode: in the order written */
	size_t nsamples;
	int checksum_conflict;    /* two different checksums in one run */
	struct perf_counts counts;
	/* The texts last: measure_run() zeroes the fields above and only
	 * empties these (some 3 KB, most of a run's start otherwise). */
	char why[PLUMB_ERR_MAX];
	char checksum[MEASURE_CHECKSUM_MAX + 1];   /* "" when none was printed */
	char other_checksum[MEASURE_CHECKSUM_MAX + 1];  /* the second one */
	char counters_error[PLUMB_ERR_MAX];  /* counters asked for but not attached: why */
};

/* Run spec once; see the header comment for what is a failure. */
int measure_run(const struct measure_spec *spec, struct measure_result *res,
		struct plumb_err *err);

void measure_result_release(struct measure_result *res);

/*
 * Append the last nlines lines of the run's standard error to out, each
 * prefixed with indent; nothing when it was empty.  Returns 0 or -1 (buf).
 */
int measure_stderr_tail(const struct measure_result *res, unsigned nlines,
			const char *indent, struct buf *out);

/*
 * Parse one samples-fd line (without its newline): 1 and *value for a
 * duration, 2 and hex (lower case, NUL-terminated) for a checksum, 0 for a
 * blank line, -1 when malformed.
 */
int measure_parse_line(const char *line, size_t len, double *value,
		       char hex[MEASURE_CHECKSUM_MAX + 1]);

#endif
