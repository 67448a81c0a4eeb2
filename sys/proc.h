/*
 * sys/proc.h: the process harness: run one child under plumb's rules.
 *
 * Every build, pad assembly, benchmark, compiler probe and rclone transfer
 * is started here (DESIGN §3, §5.3): an argument vector executed (a shell
 * only when runner/cmdline.c decided the line needs one), in its own
 * process group registered with common/cleanup.h so SIGINT/SIGTERM reach
 * it, stdin from /dev/null, no open file descriptor but 0, 1, 2 and one
 * optional extra pipe (the samples fd of benchmarks), the caller's
 * explicit environment and working directory, a timeout (SIGTERM to the
 * group, SIGKILL after a grace period), stdout and stderr captured under a
 * size cap (the first and the last bytes are kept, a marker says how much
 * was dropped between), wall time on CLOCK_MONOTONIC from the child's
 * execve to its exit, and rusage from wait4.  When the child exits,
 * whatever it left running, in its group or not, is killed (the child
 * runs in plumb's container, sys/contain.h; left_behind counts them), and
 * all are reaped before proc_run() returns: no child outlives the call.
 * Should plumb itself be killed with SIGKILL (no handler runs), the kernel
 * kills the child too (PR_SET_PDEATHSIG), and the container's watcher the
 * rest (sys/contain.h).
 *
 * A child that cannot be started (program not found, folder missing) is
 * reported as exit status 127 with spawn_error set and the reason written
 * to its stderr capture, exactly like a shell would; proc_run() itself
 * fails only when plumb could not do its part (pipes, fork, log files,
 * a callback's error) or when plumb was asked to stop by a signal.
 *
 * Ownership: struct proc_spec and everything it points to belong to the
 * caller and must stay valid during proc_run().  struct proc_result is
 * caller-owned storage filled by proc_run(); proc_result_release() frees
 * its captured buffers.
 */
#ifndef PLUMB_SYS_PROC_H
#define PLUMB_SYS_PROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/buf.h"

struct plumb_err;

/* Default cap of a captured stream, and the default SIGTERM→SIGKILL grace. */
#define PROC_CAP_DEFAULT ((size_t)1 << 20)
#define PROC_GRACE_DEFAULT_NS (5ull * 1000000000ull)

enum proc_sink_kind {
	PROC_SINK_NULL = 0,   /* /dev/null */
	PROC_SINK_FILE,       /* a log file (created or truncated), capped */
	PROC_SINK_MEM,        /* a buffer in the result, capped */
	PROC_SINK_STDOUT,     /* stderr only: the same pipe as stdout (one log) */
	PROC_SINK_CALLBACK    /* every byte to on_data, uncapped */
};

struct proc_sink {
	enum proc_sink_kind kind;
	const char *path;     /* FILE */
	size_t cap;           /* FILE, MEM: bytes kept (0: PROC_CAP_DEFAULT) */
	int append;           /* FILE: append to what is there instead of truncating */
	/* CALLBACK: return 0, or a negative PLUMB_E* code after filling err,
	 * which stops the child (group killed) and becomes proc_run's result. */
	int (*on_data)(void *ctx, const char *data, size_t len, struct plumb_err *err);
	void *ctx;
};

struct proc_spec {
	char *const *argv;    /* argv[0] is looked up in the child's PATH */
	char *const *env;     /* the child's whole environment; NULL: empty */
	const char *cwd;      /* working directory; NULL: plumb's */
	uint64_t timeout_ns;  /* 0: no timeout */
	uint64_t grace_ns;    /* SIGTERM to SIGKILL; 0: PROC_GRACE_DEFAULT_NS */
	struct proc_sink out; /* the child's stdout */
	struct proc_sink err; /* the child's stderr */
	int extra_fd;         /* > 2: the write end of a pipe at this fd number */
	struct proc_sink extra;
	int pin;              /* nonzero: pin the child to CPU `cpu` */
	int cpu;
	const int *cpus;      /* ncpus > 0: pin the child to these CPUs (run.cpu) */
	size_t ncpus;
	int no_aslr;          /* nonzero: personality(ADDR_NO_RANDOMIZE) */
	/* Called in plumb once the child exists and before it executes
	 * (perf counters attach here: the child waits at a gate meanwhile);
	 * a negative return stops the child. */
	int (*on_start)(void *ctx, pid_t pid, struct plumb_err *err);
	void *start_ctx;
};

struct proc_result {
	int exited;            /* 1: exited (status); 0: killed by signo */
	int status;
	int signo;
	int timed_out;         /* the timeout fired (the group got SIGTERM) */
	int killed;            /* the group needed SIGKILL */
	int spawn_errno;       /* nonzero when the child could not be started */
	char spawn_error[256]; /* why, "" otherwise */
	uint64_t wall_ns;      /* the child's execve to its exit, CLOCK_MONOTONIC */
	uint64_t user_ns, sys_ns;
	long maxrss_kb;
	uint64_t out_bytes, err_bytes, extra_bytes;  /* what the child wrote */
	int out_truncated, err_truncated;            /* the cap dropped bytes */
	unsigned left_behind;  /* processes still running when the child ended,
				* killed then (sys/contain.h) */
	unsigned oom_kills;    /* processes the out-of-memory killer killed in the
				* container during the run (contain_oom_kills();
				* 0 also when that cannot be known) */
	struct buf out_mem, err_mem;                 /* MEM sinks */
};

/* Run spec to completion; see the header comment for what fails. */
int proc_run(const struct proc_spec *spec, struct proc_result *res,
	     struct plumb_err *err);

void proc_result_release(struct proc_result *res);

/*
 * "exit status 2", "killed by signal 11 (Segmentation fault)", "timed out
 * after 3.0 s" ...; a SIGKILL while the out-of-memory killer counted a
 * kill is "killed by SIGKILL: out of memory? (...)", and any other end
 * with such a kill says so after it (exit status 137 of a shell whose
 * child it killed).
 */
void proc_describe(const struct proc_result *res, uint64_t timeout_ns,
		   char *out, size_t size);

/*
 * Append to out the last nlines lines of the log at path (reading at most
 * its last 16 KiB), each prefixed with indent; 0, or -1 when unreadable.
 */
int proc_log_tail(const char *path, unsigned nlines, const char *indent,
		  struct buf *out);

/* A spec with no sinks, no timeout, no pinning. */
void proc_spec_init(struct proc_spec *spec);

#endif
