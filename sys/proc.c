/*
 * sys/proc.c: starting, watching, capping and reaping one child process;
 * see proc.h for the rules every child runs under.
 *
 * One way to start a child: vfork() and execve(); fork() instead when the
 * caller attaches something to the child before it executes (on_start:
 * perf counters, a profile), while the child waits at a gate (a pipe plumb
 * closes).  The child runs the same code either way (child_run()).  Not
 * posix_spawn: glibc 2.36 can neither put its child in a cgroup nor pin
 * it, switch ASLR off or set its parent-death signal.  Not fork() for
 * every child: a forked child's execve tears down its copy of plumb's
 * address space inside the measured time (0.2 ms for plumb's 10 MB, more
 * than half the spread of a 2 ms benchmark), a vforked one only hands
 * plumb's back.  Every signal is blocked around the vfork, and the child
 * resets plumb's handlers before it unblocks them, so that no handler of
 * plumb's runs on the memory the child borrows.
 *
 * The clock: the child reads CLOCK_MONOTONIC just before its execve,
 * after everything plumb set up for it (the cgroup join, which waits for
 * the kernel for up to milliseconds, the gate), and writes it with its
 * report into a close-on-exec pipe, which also carries the stage and errno
 * of a child that could not execute.  The end is when plumb learns of the
 * exit, from the child's pidfd (Linux 5.3), the one way plumb waits for a
 * child.  plumb keeps the pipes' write ends until then, so the exit wakes
 * it once, not first at the pipes' end-of-file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/units.h"
#include "sys/contain.h"
#include "sys/proc.h"
#include "common/banned.h"

/* After the child exits, how long its pipes may stay open (a process
 * outside the container holding them), and the SIGKILL grace once plumb
 * must stop. */
#define DRAIN_NS (2ull * 1000000000ull)
#define STOP_GRACE_NS (2ull * 1000000000ull)

/*
 * What the child writes to its report pipe: {0, 0, the clock} just before
 * its execve, and a stage and an errno when it fails (then it exits 127).
 */
enum child_stage { STAGE_DUP = 1, STAGE_CHDIR, STAGE_CPU, STAGE_ASLR, STAGE_EXEC, STAGE_CONTAIN };
struct child_report {
	int stage;            /* 0: about to execute */
	int errnum;
	uint64_t start_ns;    /* stage 0: CLOCK_MONOTONIC before the execve */
};

void proc_spec_init(struct proc_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
}

/* ---- capture: a capped stream, first half and last half kept ---------- */

struct capture {
	enum proc_sink_kind kind;
	const struct proc_sink *sink;
	const char *name;      /* for messages */
	int fd;                /* FILE: the log */
	struct buf *mem;       /* MEM */
	size_t head_cap, head_len;
	char *ring;            /* the last bytes, circular */
	size_t ring_cap, ring_start, ring_len;
	uint64_t total, dropped;
	int write_errno;
};

static void capture_emit(struct capture *c, const char *data, size_t len)
{
	if (c->kind == PROC_SINK_MEM) {
		/* mem->max leaves room for the marker, so this cannot fail on size. */
		if (buf_add(c->mem, data, len) < 0 && !c->write_errno)
			c->write_errno = ENOMEM;
		return;
	}
	while (len > 0 && !c->write_errno) {
		ssize_t n = write(c->fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			c->write_errno = errno;
			return;
		}
		data += n;
		len -= (size_t)n;
	}
}

static int capture_open(struct capture *c, const struct proc_sink *sink,
			const char *name, struct buf *mem, struct plumb_err *err)
{
	size_t cap;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->kind = sink->kind;
	c->sink = sink;
	c->name = name;
	if (c->kind != PROC_SINK_FILE && c->kind != PROC_SINK_MEM)
		return 0;
	cap = sink->cap ? sink->cap : PROC_CAP_DEFAULT;
	c->head_cap = cap / 2;
	c->ring_cap = cap - c->head_cap;
	c->ring = malloc(c->ring_cap ? c->ring_cap : 1);
	if (!c->ring)
		return plumb_err_oom(err, name);
	if (c->kind == PROC_SINK_MEM) {
		buf_init(mem, cap + 256);
		c->mem = mem;
		return 0;
	}
	c->name = sink->path;
	c->fd = open(sink->path, O_WRONLY | O_CREAT | O_CLOEXEC |
		     (sink->append ? O_APPEND : O_TRUNC), 0644);
	if (c->fd < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, sink->path, "create log");
	return 0;
}

static int capture_add(struct capture *c, const char *data, size_t len,
		       struct plumb_err *err)
{
	size_t take;

	c->total += len;
	switch (c->kind) {
	case PROC_SINK_CALLBACK:
		return c->sink->on_data(c->sink->ctx, data, len, err);
	case PROC_SINK_FILE:
	case PROC_SINK_MEM:
		break;
	default:
		return 0;
	}
	take = c->head_cap - c->head_len;
	if (take > len)
		take = len;
	if (take) {
		capture_emit(c, data, take);
		c->head_len += take;
		data += take;
		len -= take;
	}
	if (len >= c->ring_cap) {
		/* Everything in the ring and the front of data fall out. */
		c->dropped += c->ring_len + (len - c->ring_cap);
		data += len - c->ring_cap;
		len = c->ring_cap;
		c->ring_start = 0;
		c->ring_len = 0;
	}
	while (len > 0) {
		size_t end = (c->ring_start + c->ring_len) % c->ring_cap;
		size_t room = c->ring_cap - end;
		size_t n = len < room ? len : room;
		size_t over;
		memcpy(c->ring + end, data, n);
		c->ring_len += n;
		if (c->ring_len > c->ring_cap) {
			over = c->ring_len - c->ring_cap;
			c->dropped += over;
			c->ring_start = (c->ring_start + over) % c->ring_cap;
			c->ring_len = c->ring_cap;
		}
		data += n;
		len -= n;
	}
	return 0;
}

/* Write the marker and the kept tail; close the log.  Returns errno or 0. */
static int capture_finish(struct capture *c)
{
	if (c->kind == PROC_SINK_FILE || c->kind == PROC_SINK_MEM) {
		if (c->dropped) {
			char marker[200];
			int n = snprintf(marker, sizeof(marker),
					 "\n[plumb: %llu bytes of output dropped here; kept the first %zu and the last %zu bytes]\n",
					 (unsigned long long)c->dropped, c->head_cap, c->ring_cap);
			if (n > 0)
				capture_emit(c, marker, (size_t)n < sizeof(marker) ? (size_t)n : sizeof(marker) - 1);
		}
		if (c->ring_len) {
			size_t first = c->ring_cap - c->ring_start;
			if (first > c->ring_len)
				first = c->ring_len;
			capture_emit(c, c->ring + c->ring_start, first);
			capture_emit(c, c->ring, c->ring_len - first);
		}
	}
	free(c->ring);
	c->ring = NULL;
	if (c->fd >= 0 && close(c->fd) < 0 && !c->write_errno)
		c->write_errno = errno;
	c->fd = -1;
	return c->write_errno;
}

/* ---- the child side ------------------------------------------------------ */

/* Everything the child needs, made by plumb before the fork: the child
 * only reads it (a vforked child borrows plumb's memory). */
struct child_plan {
	pid_t parent;
	const char *path;
	char *const *argv;
	char *const *env;
	const char *cwd;
	int src[4], dst[4];   /* stdin, stdout, stderr, extra: the ends to install */
	int report;           /* the report pipe's write end */
	int gate, gate_wr;    /* the gate's ends (-1: no gate) */
	int join_fd;          /* >= 0: join the container (sys/contain.h) */
	int pin, cpu, no_aslr;
	const int *cpus;
	size_t ncpus;
};

static void __attribute__((noreturn)) child_fail(int report, int stage, int e)
{
	struct child_report msg = { stage, e, 0 };

	if (write(report, &msg, sizeof(msg)) < 0) {
		/* plumb then finds no report: the child ended without one. */
	}
	_exit(127);
}

/*
 * Between the fork and the execve: async-signal-safe calls only, nothing
 * allocated, no variable of plumb's written.
 */
static void __attribute__((noreturn, noinline)) child_run(const struct child_plan *p)
{
	struct child_report ready = { 0, 0, 0 };
	sigset_t none;
	int high = 10, tmp[4], report, gate = -1, e;
	char c;

	setpgid(0, 0);
	/* Should plumb itself be killed outright (SIGKILL, no handler runs), the
	 * child goes with it instead of running on unseen. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != p->parent)
		_exit(127);
	/* Every end the child keeps moves above every target first, so that no
	 * dup2 below clobbers one. */
	if (p->dst[3] >= high)
		high = p->dst[3] + 1;
	if ((report = fcntl(p->report, F_DUPFD_CLOEXEC, high)) < 0)
		_exit(127);
	/* Into plumb's container before it executes, so that every process it
	 * starts is in it too, whatever it does to leave its group. */
	if ((e = contain_child_join(p->join_fd)) != 0)
		child_fail(report, STAGE_CONTAIN, e);
	if (p->gate >= 0) {
		close(p->gate_wr);   /* plumb's end: the gate opens when plumb closes it */
		if ((gate = fcntl(p->gate, F_DUPFD_CLOEXEC, high)) < 0)
			child_fail(report, STAGE_DUP, errno);
	}
	for (int i = 0; i < 4; i++) {
		tmp[i] = -1;
		if (p->src[i] >= 0 && (tmp[i] = fcntl(p->src[i], F_DUPFD_CLOEXEC, high)) < 0)
			child_fail(report, STAGE_DUP, errno);
	}
	/* Nothing from 3 up survives the execve but what dup2 installs (Linux 5.11). */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		child_fail(report, STAGE_DUP, errno);
	for (int i = 0; i < 4; i++)
		if (tmp[i] >= 0 && dup2(tmp[i], p->dst[i]) < 0)
			child_fail(report, STAGE_DUP, errno);
	/* plumb ignores SIGPIPE and handles SIGINT/SIGTERM; the child must not. */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	if (p->cwd && chdir(p->cwd) < 0)
		child_fail(report, STAGE_CHDIR, errno);
	if (p->pin || p->ncpus) {
		cpu_set_t set;
		CPU_ZERO(&set);
		if (p->pin)
			CPU_SET(p->cpu, &set);
		for (size_t i = 0; i < p->ncpus; i++)
			if (p->cpus[i] >= 0 && p->cpus[i] < CPU_SETSIZE)
				CPU_SET(p->cpus[i], &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			child_fail(report, STAGE_CPU, errno);
	}
	if (p->no_aslr) {
		int pers = personality(0xffffffff);
		if (pers < 0 || personality((unsigned long)pers | ADDR_NO_RANDOMIZE) < 0)
			child_fail(report, STAGE_ASLR, errno);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (gate >= 0)
		while (read(gate, &c, 1) < 0 && errno == EINTR)
			;
	ready.start_ns = clock_now_ns();
	if (write(report, &ready, sizeof(ready)) < 0)
		child_fail(report, STAGE_DUP, errno);
	execve(p->path, p->argv, p->env);
	child_fail(report, STAGE_EXEC, errno);
}

/*
 * Start the child of plan: vforked, or forked when gated.  The child's
 * pid, or -1 with errno.  A function of its own, as vfork wants: the
 * child never returns from it, so plumb's frames above stay as they were.
 */
static pid_t __attribute__((noinline)) spawn(const struct child_plan *plan, int gated)
{
	pid_t pid;

	if (gated)
		pid = fork();
	else
		pid = vfork();
	if (pid == 0)
		child_run(plan);
	return pid;
}

/* ---- the parent side ----------------------------------------------------- */

/* The program to execute: argv0 itself when it has a slash, else the first
 * executable match along PATH from env (as the child would see it). */
static char *resolve_program(const char *argv0, char *const *env)
{
	const char *path = "/usr/local/bin:/usr/bin:/bin";
	const char *p;

	if (strchr(argv0, '/'))
		return strdup(argv0);
	for (char *const *e = env; e && *e; e++)
		if (strncmp(*e, "PATH=", 5) == 0)
			path = *e + 5;
	for (p = path; ; ) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char cand[PATH_MAX];
		int n;
		if (len == 0)
			n = snprintf(cand, sizeof(cand), "%s", argv0);
		else
			n = snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, p, argv0);
		if (n > 0 && (size_t)n < sizeof(cand) && access(cand, X_OK) == 0) {
			struct stat st;
			if (stat(cand, &st) == 0 && S_ISREG(st.st_mode))
				return strdup(cand);
		}
		if (!colon)
			break;
		p = colon + 1;
	}
	return strdup(argv0);   /* execve reports ENOENT */
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static const char *stage_what(int stage)
{
	switch (stage) {
	case STAGE_CHDIR: return "cannot enter its working folder";
	case STAGE_CPU: return "cannot pin it to the CPU";
	case STAGE_ASLR: return "cannot switch address randomization off";
	case STAGE_DUP: return "cannot set up its file descriptors";
	case STAGE_CONTAIN: return "cannot join plumb's cgroup";
	default: return "cannot execute it";
	}
}

void proc_result_release(struct proc_result *res)
{
	buf_release(&res->out_mem);
	buf_release(&res->err_mem);
}

/*
 * What one proc_run() holds from setup to release: the captures, the
 * pipe ends on both sides, the child and its clock.  File-local; every
 * descriptor is -1 when not open, so run_release() may close them all.
 */
struct run_state {
	struct capture cap[3];           /* stdout, stderr, extra */
	int rd[3];                       /* plumb's read ends (non-blocking) */
	int wr[3];                       /* the child's write ends */
	int report;                      /* the report pipe's read end */
	int gate;                        /* the gate's write end, until it opens */
	int pidfd;
	int abort_code;                  /* a callback or plumb stopped the child */
	int stopping;                    /* plumb was asked to stop by a signal */
	uint64_t spawned, deadline, end;
	char *path;                      /* the resolved program */
	pid_t pid;                       /* 0: not started */
	struct plumb_err cb_err;         /* the message behind abort_code */
};

static void run_state_init(struct run_state *st)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < 3; i++) {
		st->cap[i].fd = -1;
		st->rd[i] = -1;
		st->wr[i] = -1;
	}
	st->report = st->gate = st->pidfd = -1;
	plumb_err_clear(&st->cb_err);
}

/* Stop the started child now: its group killed, the error kept for proc_run(). */
static void run_abort(struct run_state *st, int code)
{
	st->abort_code = code;
	kill(-st->pid, SIGKILL);
	kill(st->pid, SIGKILL);
}

/*
 * Open the sinks and the pipes, start the child, register its group, run
 * on_start and open the gate.  0 with the child started (st->pid; a
 * failure after that is st->abort_code, the child killed), or a negative
 * code when plumb could not do its part; no child exists then.
 */
static int run_setup(const struct proc_spec *spec, struct proc_result *res,
		     struct run_state *st, struct plumb_err *err)
{
	struct child_plan plan;
	int report[2] = { -1, -1 }, gate[2] = { -1, -1 };
	int devnull = -1, gated = spec->on_start != NULL, e, r;
	sigset_t all, old;

	if ((r = capture_open(&st->cap[0], &spec->out, "stdout", &res->out_mem, err)) < 0)
		return r;
	if (spec->err.kind != PROC_SINK_STDOUT &&
	    (r = capture_open(&st->cap[1], &spec->err, "stderr", &res->err_mem, err)) < 0)
		return r;
	if (spec->extra_fd > 2 &&
	    (r = capture_open(&st->cap[2], &spec->extra, "extra fd", NULL, err)) < 0)
		return r;
	/* Read ends non-blocking: once the child has exited, what is left in
	 * a pipe is read until it is empty without a poll() first. */
	for (int i = 0; i < 3; i++) {
		const struct proc_sink *s = i == 0 ? &spec->out : i == 1 ? &spec->err : &spec->extra;
		int p[2];
		if (i == 2 && spec->extra_fd <= 2)
			continue;
		if (s->kind == PROC_SINK_NULL || s->kind == PROC_SINK_STDOUT)
			continue;
		if (pipe2(p, O_CLOEXEC) < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, "pipe", "create");
		st->rd[i] = p[0];
		st->wr[i] = p[1];
		if (fcntl(p[0], F_SETFL, O_NONBLOCK) < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, "pipe", "fcntl");
	}
	st->path = resolve_program(spec->argv[0], spec->env);
	if (!st->path)
		return plumb_err_oom(err, "program path");
	if (pipe2(report, O_CLOEXEC | O_NONBLOCK) < 0 || (gated && pipe2(gate, O_CLOEXEC) < 0)) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, "pipe", "create");
		goto out;
	}
	if ((devnull = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
		r = plumb_err_errno(err, PLUMB_EIO, errno, "/dev/null", "open");
		goto out;
	}

	memset(&plan, 0, sizeof(plan));
	plan.parent = getpid();
	plan.path = st->path;
	plan.argv = spec->argv;
	plan.env = spec->env;
	plan.cwd = spec->cwd;
	plan.src[0] = devnull;
	plan.dst[0] = 0;
	plan.src[1] = st->wr[0] >= 0 ? st->wr[0] : devnull;
	plan.dst[1] = 1;
	plan.src[2] = spec->err.kind == PROC_SINK_STDOUT ? plan.src[1] :
		      st->wr[1] >= 0 ? st->wr[1] : devnull;
	plan.dst[2] = 2;
	plan.src[3] = spec->extra_fd > 2 ? st->wr[2] : -1;
	plan.dst[3] = spec->extra_fd > 2 ? spec->extra_fd : -1;
	plan.report = report[1];
	plan.gate = gate[0];
	plan.gate_wr = gate[1];
	plan.join_fd = contain_join_fd();
	plan.pin = spec->pin;
	plan.cpu = spec->cpu;
	plan.cpus = spec->cpus;
	plan.ncpus = spec->ncpus;
	plan.no_aslr = spec->no_aslr;
	{
		static char *const empty_env[] = { NULL };
		if (!plan.env)
			plan.env = empty_env;
	}

	/* No handler of plumb's may run in the child (see the top). */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	st->spawned = clock_now_ns();
	st->pid = spawn(&plan, gated);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (st->pid < 0) {
		st->pid = 0;
		r = plumb_err_errno(err, PLUMB_EIO, e, spec->argv[0], gated ? "fork" : "vfork");
		goto out;
	}
	r = 0;
	st->report = report[0];
	report[0] = -1;
	st->gate = gate[1];
	gate[1] = -1;
	/* The group exists before plumb may signal it, whichever of the two
	 * runs first (a vforked child has made it already: EACCES). */
	setpgid(st->pid, st->pid);
	if (contain_track(st->pid) < 0) {
		run_abort(st, plumb_err_set(&st->cb_err, PLUMB_EINTERNAL,
					    "too many child process groups"));
		goto out;
	}
	if ((st->pidfd = pidfd_open(st->pid, 0)) < 0) {
		run_abort(st, plumb_err_errno(&st->cb_err, PLUMB_EINTERNAL, errno,
					      "pidfd_open", "watch a child (Linux 5.3 or later)"));
		goto out;
	}
	if (gated && (e = spec->on_start(spec->start_ctx, st->pid, &st->cb_err)) < 0) {
		run_abort(st, e);
		goto out;
	}
	close_fd(&st->gate);   /* the child may execute now */
	/* The timeout counts from now: a vforked child has executed (or
	 * failed), a gated one is let go; what it did before is not its time. */
	if (spec->timeout_ns)
		st->deadline = clock_now_ns() + spec->timeout_ns;
out:
	close_fd(&st->gate);
	close_fd(&report[0]);
	close_fd(&report[1]);
	close_fd(&gate[0]);
	close_fd(&gate[1]);
	close_fd(&devnull);
	return r;
}

/*
 * One read of plumb's end of stream i into its capture: 1 when bytes came
 * (or a transient error), 0 at the end (the end is closed), -1 when the
 * pipe is empty but still held open (EAGAIN).  A callback's error stops
 * the child.
 */
static int read_stream(struct run_state *st, struct proc_result *res, int i)
{
	char chunk[65536];
	ssize_t n = read(st->rd[i], chunk, sizeof(chunk));
	int cr;

	if (n < 0 && errno == EAGAIN)
		return -1;
	if (n < 0 && errno == EINTR)
		return 1;
	if (n <= 0) {
		close_fd(&st->rd[i]);
		return 0;
	}
	if (st->abort_code)
		return 1;   /* the child is being killed; drain only */
	cr = capture_add(&st->cap[i], chunk, (size_t)n, &st->cb_err);
	if (cr < 0) {
		st->abort_code = cr;
		kill(-st->pid, SIGKILL);
		res->killed = 1;
	}
	return 1;
}

/*
 * Watch the started child until it exits: capture its output, enforce the
 * timeout and the grace, react to a stop signal.  0, or a negative code
 * when poll() failed (the child is killed then).
 */
static int run_loop(const struct proc_spec *spec, struct proc_result *res,
		    struct run_state *st, struct plumb_err *err)
{
	uint64_t kill_at = 0;
	pid_t pid = st->pid;

	for (;;) {
		struct pollfd pfd[4];
		int which[4], np = 0, timeout_ms = -1;
		uint64_t now = clock_now_ns(), next = 0;

		if (cleanup_signal_pending() && !st->stopping) {
			/* The handler sent SIGTERM to the group; make sure, and bound it. */
			st->stopping = 1;
			kill(-pid, SIGTERM);
			kill_at = now + STOP_GRACE_NS;
		}
		if (st->deadline && now >= st->deadline && !res->timed_out && !st->stopping) {
			res->timed_out = 1;
			kill(-pid, SIGTERM);
			kill_at = now + (spec->grace_ns ? spec->grace_ns : PROC_GRACE_DEFAULT_NS);
		}
		if (kill_at && now >= kill_at && !res->killed) {
			res->killed = 1;
			kill(-pid, SIGKILL);
		}
		if (st->deadline && !res->timed_out)
			next = st->deadline;
		if (kill_at && !res->killed && (!next || kill_at < next))
			next = kill_at;
		if (next)
			timeout_ms = next > now ? (int)((next - now + 999999) / 1000000) : 0;

		for (int i = 0; i < 3; i++) {
			if (st->rd[i] < 0)
				continue;
			pfd[np].fd = st->rd[i];
			pfd[np].events = POLLIN;
			which[np++] = i;
		}
		pfd[np].fd = st->pidfd;
		pfd[np].events = POLLIN;
		which[np++] = 3;
		if (poll(pfd, (nfds_t)np, timeout_ms) < 0) {
			int r;
			if (errno == EINTR)
				continue;
			r = plumb_err_errno(err, PLUMB_EINTERNAL, errno, spec->argv[0], "poll");
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			return r;
		}
		now = clock_now_ns();
		for (int k = 0; k < np; k++) {
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (which[k] == 3) {
				st->end = now;
				return 0;
			}
			read_stream(st, res, which[k]);
		}
	}
}

/*
 * Once no one is left to write: plumb's write ends closed, what the pipes
 * hold read to their end; a pipe still held open (by a process outside
 * the container) is waited for at most DRAIN_NS.
 */
static void run_drain(struct proc_result *res, struct run_state *st)
{
	uint64_t until = clock_now_ns() + DRAIN_NS;

	for (int i = 0; i < 3; i++)
		close_fd(&st->wr[i]);
	for (;;) {
		struct pollfd pfd[3];
		int np = 0;
		uint64_t now;

		for (int i = 0; i < 3; i++) {
			while (st->rd[i] >= 0 && read_stream(st, res, i) > 0)
				;
			if (st->rd[i] >= 0) {
				pfd[np].fd = st->rd[i];
				pfd[np].events = POLLIN;
				np++;
			}
		}
		now = clock_now_ns();
		if (np == 0 || now >= until)
			return;
		if (poll(pfd, (nfds_t)np, (int)((until - now) / 1000000) + 1) < 0 && errno != EINTR)
			return;
	}
}

/*
 * The child's report, read after it ended: when it executed (the clock),
 * or the stage and errno at which it could not, then said in its stderr
 * capture as a shell would.
 */
static void run_report(const struct proc_spec *spec, struct proc_result *res,
		       struct run_state *st, uint64_t *start)
{
	struct child_report msg[2];
	size_t got = 0;

	*start = st->spawned;
	while (got < sizeof(msg)) {
		ssize_t n = read(st->report, (char *)msg + got, sizeof(msg) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	for (size_t k = 0; k < got / sizeof(msg[0]); k++) {
		char line[512];
		int n;
		if (msg[k].stage == 0) {
			*start = msg[k].start_ns;
			continue;
		}
		if (st->abort_code)
			continue;
		res->spawn_errno = msg[k].errnum;
		snprintf(res->spawn_error, sizeof(res->spawn_error), "%s: %s: %s",
			 spec->argv[0], stage_what(msg[k].stage), strerror(msg[k].errnum));
		n = snprintf(line, sizeof(line), "plumb: %s\n", res->spawn_error);
		if (n > 0) {
			struct capture *c = spec->err.kind == PROC_SINK_STDOUT ? &st->cap[0] : &st->cap[1];
			capture_add(c, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1,
				    &st->cb_err);
		}
	}
}

/*
 * After the child's exit (or its kill): reap it (rusage), kill and count
 * what it left in the container, drain the pipes, read its report, fill
 * res.  Always run once the child was started, whatever the loop returned.
 */
static void run_finish(const struct proc_spec *spec, struct proc_result *res,
		       struct run_state *st)
{
	struct rusage ru;
	int status = 0;
	uint64_t start;

	memset(&ru, 0, sizeof(ru));
	while (wait4(st->pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	if (!st->end)
		st->end = clock_now_ns();
	res->left_behind = contain_sweep();
	contain_untrack(st->pid);
	run_drain(res, st);
	run_report(spec, res, st, &start);
	res->wall_ns = st->end > start ? st->end - start : 0;
	res->user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000ull;
	res->sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000ull;
	res->maxrss_kb = ru.ru_maxrss;
	if (WIFEXITED(status)) {
		res->exited = 1;
		res->status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		res->signo = WTERMSIG(status);
	}
}

/*
 * Finish the captures (marker and tail), fill the byte counts, close
 * whatever is still open.  Returns r, or the capture's write error when r
 * was 0.
 */
static int run_release(const struct proc_spec *spec, struct proc_result *res,
		       struct run_state *st, int r, struct plumb_err *err)
{
	for (int i = 0; i < 3; i++) {
		int e = capture_finish(&st->cap[i]);
		if (e && r == 0)
			r = plumb_err_errno(err, PLUMB_EIO, e, st->cap[i].name, "write");
	}
	res->out_bytes = st->cap[0].total;
	res->err_bytes = spec->err.kind == PROC_SINK_STDOUT ? 0 : st->cap[1].total;
	res->extra_bytes = st->cap[2].total;
	res->out_truncated = st->cap[0].dropped > 0;
	res->err_truncated = st->cap[1].dropped > 0;
	for (int i = 0; i < 3; i++) {
		close_fd(&st->rd[i]);
		close_fd(&st->wr[i]);
	}
	close_fd(&st->report);
	close_fd(&st->gate);
	close_fd(&st->pidfd);
	free(st->path);
	st->path = NULL;
	return r;
}

int proc_run(const struct proc_spec *spec, struct proc_result *res,
	     struct plumb_err *err)
{
	struct run_state st;
	uint64_t oom_before = 0, oom_after = 0;
	int r, oom_known;

	memset(res, 0, sizeof(*res));
	buf_init(&res->out_mem, 0);
	buf_init(&res->err_mem, 0);
	if (!spec->argv || !spec->argv[0])
		return plumb_err_set(err, PLUMB_EINTERNAL, "proc_run: no command");
	if (spec->err.kind == PROC_SINK_STDOUT && spec->out.kind == PROC_SINK_NULL)
		return plumb_err_set(err, PLUMB_EINTERNAL, "proc_run: stderr merged into a null stdout");
	if (spec->out.kind == PROC_SINK_STDOUT || spec->extra.kind == PROC_SINK_STDOUT ||
	    spec->extra.kind == PROC_SINK_MEM)
		return plumb_err_set(err, PLUMB_EINTERNAL, "proc_run: unsupported sink");
	if (cleanup_signal_pending())
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: not started: stopped by signal %d",
				     spec->argv[0], cleanup_signal_pending());

	if ((r = contain_init(err)) < 0)
		return r;
	oom_known = contain_oom_kills(&oom_before) == 0;
	run_state_init(&st);
	r = run_setup(spec, res, &st, err);
	if (r == 0 && st.pid > 0) {
		if (!st.abort_code)
			r = run_loop(spec, res, &st, err);
		run_finish(spec, res, &st);
		if (oom_known && contain_oom_kills(&oom_after) == 0 && oom_after > oom_before)
			res->oom_kills = (unsigned)(oom_after - oom_before);
		if (r == 0 && st.stopping)
			r = plumb_err_set(err, PLUMB_EINTERNAL, "%s: stopped by signal %d",
					  spec->argv[0], cleanup_signal_pending());
		else if (r == 0 && st.abort_code) {
			*err = st.cb_err;
			r = st.abort_code;
		}
	}
	return run_release(spec, res, &st, r, err);
}

void proc_describe(const struct proc_result *res, uint64_t timeout_ns,
		   char *out, size_t size)
{
	char after[UNITS_MAX];

	units_seconds((double)timeout_ns / 1e9, after);
	if (res->spawn_errno)
		snprintf(out, size, "%s", res->spawn_error);
	else if (res->timed_out)
		snprintf(out, size, "timed out after %s%s", after,
			 res->killed ? " (killed after the grace period)" : "");
	else if (res->oom_kills && !res->exited && res->signo == SIGKILL)
		snprintf(out, size, "killed by SIGKILL: out of memory? (the kernel's OOM killer "
			 "killed %u process%s of the run)", res->oom_kills,
			 res->oom_kills == 1 ? "" : "es");
	else if (res->exited)
		snprintf(out, size, "exit status %d%s", res->status, res->oom_kills ?
			 " (out of memory? the kernel's OOM killer killed a process of the run)" : "");
	else
		snprintf(out, size, "killed by signal %d (%s)%s", res->signo,
			 strsignal(res->signo), res->oom_kills ?
			 " (out of memory? the kernel's OOM killer killed a process of the run)" : "");
}

int proc_log_tail(const char *path, unsigned nlines, const char *indent,
		  struct buf *out)
{
	char tail[16384 + 1];
	ssize_t n;
	off_t size;
	char *start, *end;
	unsigned seen = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	size = lseek(fd, 0, SEEK_END);
	if (size < 0) {
		close(fd);
		return -1;
	}
	n = pread(fd, tail, sizeof(tail) - 1,
		  size > (off_t)sizeof(tail) - 1 ? size - (off_t)sizeof(tail) + 1 : 0);
	close(fd);
	if (n < 0)
		return -1;
	tail[n] = '\0';
	end = tail + n;
	while (end > tail && end[-1] == '\n')
		end--;
	*end = '\0';
	/* Walk back over nlines line breaks. */
	for (start = end; start > tail; start--)
		if (start[-1] == '\n' && ++seen == nlines)
			break;
	while (*start) {
		char *nl = strchr(start, '\n');
		size_t len = nl ? (size_t)(nl - start) : strlen(start);
		if (buf_printf(out, "%s%.*s\n", indent, (int)len, start) < 0)
			return -1;
		start += len + (nl ? 1 : 0);
	}
	return 0;
}
