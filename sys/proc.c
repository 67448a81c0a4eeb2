/*
 * sys/proc.c: starting, watching, capping and reaping one child process;
 * see proc.h for the rules every child runs under.
 *
 * clone/fork + execve rather than posix_spawn: the child must wait at a
 * gate until plumb has attached what needs the pid (perf counters), and it
 * must pin itself, switch ASLR off and mark every inherited descriptor
 * close-on-exec, none of which posix_spawn can express portably.  Without a
 * gate the child is cloned as posix_spawn would (see spawn_child()).  plumb
 * is single-threaded, so the child may run ordinary code before exec; it
 * allocates nothing there and writes only to its own stack and the plan.
 *
 * The end of the child is watched through SIGCHLD read from a signalfd
 * where the process blocks SIGCHLD (proc_sigchld_setup(): the CLI does),
 * else through a pidfd, so the wall time ends when the child exits, not
 * when the next poll timeout happens to fire; a kernel with neither
 * (before 5.3) falls back to polling every 5 ms.
 *
 * Per measured run plumb makes only the system calls the measurement
 * needs (9 on the cloned path; tests/integration/t1043 counts them): the
 * signal mask around the clone, the clone, one poll woken by the exit,
 * the signal's read, wait4, the check that no child is left, the drain of
 * the (kept) pipe and its size.  What each saved call was is said where it
 * would have been.
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
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "sys/contain.h"
#include "sys/proc.h"
#include "common/banned.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

/* After the child exits, how long its pipes may stay open (an escaped
 * grandchild holding them), and the SIGKILL grace once plumb must stop. */
#define DRAIN_NS (2ull * 1000000000ull)
#define STOP_GRACE_NS (2ull * 1000000000ull)
#define FALLBACK_POLL_MS 5

/*
 * AddressSanitizer's interceptors (signal, sigprocmask, sigaltstack...)
 * keep per-thread state in memory a CLONE_VM child would share with plumb
 * and report its own stack as overflowed: in a sanitizer build every
 * child is forked.  Such a build is for finding bugs, not for measuring.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PROC_NO_SHARED_CLONE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROC_NO_SHARED_CLONE 1
#endif
#endif
#ifndef PROC_NO_SHARED_CLONE
#define PROC_NO_SHARED_CLONE 0
#endif
#define CHILD_STACK (256 * 1024)   /* the cloned child's stack until execve */

/*
 * What the child reports when it fails before or at execve: a stage and an
 * errno.  A cloned child shares plumb's memory until it executes, so it
 * writes them there (as posix_spawn does) and plumb reads them once the
 * clone returns, with no pipe to make, close and read per run; a forked
 * child writes them into a close-on-exec pipe that plumb reads after the
 * child ended.
 */
enum child_stage { STAGE_DUP = 1, STAGE_CHDIR, STAGE_CPU, STAGE_ASLR, STAGE_EXEC, STAGE_CONTAIN };
struct child_report {
	int stage;            /* 0: nothing to report (executed) */
	int errnum;
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

/*
 * The ring of the last capture closed, kept for the next one of its size:
 * every measured run captures its standard error, and the malloc() and
 * free() of its ring were a good part of plumb's work between two runs.
 * Per thread, like the child stack.  Its bytes are never read: a ring
 * holds ring_len bytes of its own capture.
 */
static _Thread_local char *spare_ring;
static _Thread_local size_t spare_ring_size;

static char *ring_take(size_t size)
{
	char *r;

	if (spare_ring && spare_ring_size == size) {
		r = spare_ring;
		spare_ring = NULL;
		return r;
	}
	return malloc(size);
}

/* Keep ring (size bytes) as the spare, the one kept before freed. */
static void ring_keep(char *ring, size_t size)
{
	if (!ring)
		return;
	free(spare_ring);
	spare_ring = ring;
	spare_ring_size = size;
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
	c->ring = ring_take(c->ring_cap ? c->ring_cap : 1);
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
	if (c->fd < 0) {
		int e = errno;
		ring_keep(c->ring, c->ring_cap ? c->ring_cap : 1);
		c->ring = NULL;
		return plumb_err_errno(err, PLUMB_EIO, e, sink->path, "create log");
	}
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
	ring_keep(c->ring, c->ring_cap ? c->ring_cap : 1);
	c->ring = NULL;
	if (c->fd >= 0 && close(c->fd) < 0 && !c->write_errno)
		c->write_errno = errno;
	c->fd = -1;
	return c->write_errno;
}

/* ---- the child side ------------------------------------------------------ */

struct child_plan {
	pid_t parent;
	const char *path;
	char *const *argv;
	char *const *env;
	const char *cwd;
	int src[4], dst[4];   /* stdin, stdout, stderr, extra: pipe ends to install */
	int gate_rd;          /* -1: no gate */
	int gate_wr;          /* plumb's end, closed in the child before waiting */
	int report_wr;        /* forked child: the report pipe; -1 with report_mem */
	struct child_report *report_mem;   /* cloned child: the report, in plumb's memory */
	int blocking[3];      /* pipe write ends to make blocking again (-1: none) */
	int join_fd;          /* >= 0: join the container (sys/contain.h) first */
	int *started;         /* shared clone: set as the child starts, in plumb's memory */
	uint64_t *join_ns;    /* shared clone only: how long the join took, in plumb's memory */
	int pin, cpu, no_aslr;
	const int *cpus;
	size_t ncpus;
};

static void child_fail(const struct child_plan *p, int stage, int e)
{
	if (p->report_mem) {
		p->report_mem->stage = stage;
		p->report_mem->errnum = e;
	} else {
		struct child_report msg = { stage, e };
		ssize_t r = write(p->report_wr, &msg, sizeof(msg));
		(void)r;
	}
	_exit(127);
}

/* Everything from fd 3 up becomes close-on-exec (then only 0-2 + extra remain). */
static void child_mark_cloexec(void)
{
	struct rlimit rl;
	long max = 65536;

	if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)max)
		max = (long)rl.rlim_cur;
	for (long fd = 3; fd < max; fd++)
		fcntl((int)fd, F_SETFD, FD_CLOEXEC);
}

static void child_run(struct child_plan *p)
{
	sigset_t none;
	int high = 10, tmp[4];
	char c;

	setpgid(0, 0);
	/* Should plumb itself be killed outright (SIGKILL, no handler runs), the
	 * child goes with it instead of running on unseen. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != p->parent)
		_exit(127);
	/* Into plumb's container before anything else, so every process this
	 * child starts is in it too, whatever it does to leave the group. */
	{
		uint64_t t0 = clock_now_ns();
		int e = contain_child_join(p->join_fd);
		if (e)
			child_fail(p, STAGE_CONTAIN, e);
		/* Moving a process into a cgroup waits for the kernel (an RCU
		 * grace period: milliseconds, varying); that wait is plumb's,
		 * not the benchmark's, and is taken out of the wall time. */
		if (p->join_ns && p->join_fd >= 0)
			*p->join_ns = clock_now_ns() - t0;
	}
	/* plumb ignores SIGPIPE and handles SIGINT/SIGTERM; the child must not. */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	/* Move every source above every target first, so no dup2 clobbers one. */
	if (p->dst[3] >= high)
		high = p->dst[3] + 1;
	if (!p->report_mem && (p->report_wr = fcntl(p->report_wr, F_DUPFD_CLOEXEC, high)) < 0)
		_exit(127);
	/* plumb's read ends are non-blocking and so, by pipe2(), were these;
	 * the status flags belong to the write end's open file, which no one
	 * but the child (and its descendants) writes to: blocking, as any
	 * program expects of its stdout and stderr. */
	for (int i = 0; i < 3; i++)
		if (p->blocking[i] >= 0 && fcntl(p->blocking[i], F_SETFL, 0) < 0)
			child_fail(p, STAGE_DUP, errno);
	if (p->gate_rd >= 0 && (p->gate_rd = fcntl(p->gate_rd, F_DUPFD_CLOEXEC, high)) < 0)
		child_fail(p, STAGE_DUP, errno);
	for (int i = 0; i < 4; i++) {
		tmp[i] = -1;
		if (p->src[i] >= 0 && (tmp[i] = fcntl(p->src[i], F_DUPFD_CLOEXEC, high)) < 0)
			child_fail(p, STAGE_DUP, errno);
	}
	child_mark_cloexec();
	for (int i = 0; i < 4; i++)
		if (tmp[i] >= 0 && dup2(tmp[i], p->dst[i]) < 0)
			child_fail(p, STAGE_DUP, errno);
	if (p->cwd && chdir(p->cwd) < 0)
		child_fail(p, STAGE_CHDIR, errno);
	if (p->pin || p->ncpus) {
		cpu_set_t set;
		CPU_ZERO(&set);
		if (p->pin)
			CPU_SET(p->cpu, &set);
		for (size_t i = 0; i < p->ncpus; i++)
			if (p->cpus[i] >= 0 && p->cpus[i] < CPU_SETSIZE)
				CPU_SET(p->cpus[i], &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			child_fail(p, STAGE_CPU, errno);
	}
	if (p->no_aslr) {
		int pers = personality(0xffffffff);
		if (pers < 0 || personality((unsigned long)pers | ADDR_NO_RANDOMIZE) < 0)
			child_fail(p, STAGE_ASLR, errno);
	}
	if (p->gate_rd >= 0) {
		close(p->gate_wr);
		while (read(p->gate_rd, &c, 1) < 0 && errno == EINTR)
			;
	}
	execve(p->path, p->argv, p->env);
	child_fail(p, STAGE_EXEC, errno);
}

static int child_entry(void *arg)
{
	/* A copy on the child's own stack: plumb's plan stays as it was. */
	struct child_plan plan = *(const struct child_plan *)arg;

	if (plan.started)
		*plan.started = 1;
	child_run(&plan);   /* never returns */
	return 127;
}

/*
 * clone3 (Linux 5.3) with CLONE_INTO_CGROUP (5.7): the child is created
 * in plumb's container instead of moving itself there before it executes.
 * That move (a write to cgroup.procs) waits for an RCU grace period, which
 * the measured wall time leaves out but the job pays: milliseconds per run.
 * glibc has no clone3 wrapper, and a child sharing plumb's memory on a
 * stack of its own cannot return from the system call into a C function:
 * a few instructions per architecture switch to fn on the new stack.  Only
 * x86_64 has them here; elsewhere, in a sanitizer build (forked) and where
 * the kernel or a seccomp filter refuses clone3 (ENOSYS in many
 * containers), the child joins as before.
 */
#if defined(__x86_64__) && !PROC_NO_SHARED_CLONE
#define PROC_CLONE3 1
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* The new pid, or -errno.  The child runs fn(arg) on a->stack and exits. */
static long clone3_vm(struct contain_clone_args *a, int (*fn)(void *), void *arg)
{
	long ret;

	/* The kernel starts the child at the instruction after syscall, with
	 * rsp at the top of its stack (16-byte aligned: call leaves it as
	 * the ABI wants at fn's entry) and every other register plumb's. */
	__asm__ volatile(
		"syscall\n\t"
		"test %%rax, %%rax\n\t"
		"jnz 1f\n\t"
		/* fn and arg out of any register before rbp is cleared (the
		 * compiler may have put either in it). */
		"mov %[arg], %%rdi\n\t"
		"mov %[fn], %%rax\n\t"
		"xor %%ebp, %%ebp\n\t"
		"call *%%rax\n\t"
		"mov %%eax, %%edi\n\t"
		"mov $60, %%eax\n\t"   /* SYS_exit */
		"syscall\n\t"
		"1:\n\t"
		: "=a"(ret)
		: "0"((long)SYS_clone3), "D"(a), "S"(sizeof(*a)), [fn] "r"(fn), [arg] "r"(arg)
		: "rcx", "r11", "memory");
	return ret;
}
#else
#define PROC_CLONE3 0
#endif

/*
 * A child's exit told by SIGCHLD: where plumb's process blocks SIGCHLD
 * (proc_sigchld_setup(), before any thread is made, so that every thread
 * inherits the mask), the signal is never delivered, only left pending,
 * and one signalfd read per exit says a child has exited.  A pidfd per
 * child says it too, but is a file the kernel makes at the clone and
 * tears down at its close: about 4 us of plumb's time per run, against 1
 * or 2 for the signal (measured with perf stat on a loop of each).  The
 * signal does not say which child: plumb reaps its own with WNOHANG and
 * waits on when it was another (a leftover handed to plumb, a build job).
 */
void proc_sigchld_setup(void)
{
	sigset_t chld;

	/* An inherited SIG_IGN would have the kernel reap every child itself. */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
}

/* The signalfd of SIGCHLD, made at the first use; -1 where it cannot be. */
static int sigchld_fd(void)
{
	static int fd = -1, failed;
	sigset_t chld;

	if (fd < 0 && !failed) {
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
		failed = fd < 0;
	}
	return fd;
}

/* Whether the exit of a child started with this signal mask comes through sigchld_fd(). */
static int by_signal(const sigset_t *mask)
{
	return sigismember(mask, SIGCHLD) == 1 && sigchld_fd() >= 0;
}

/*
 * Start the child.  Without a gate it is cloned the way posix_spawn does
 * (CLONE_VM | CLONE_VFORK, on a stack of its own, every signal blocked
 * around the clone): it borrows plumb's memory until it executes, so
 * nothing of plumb's address space is copied at the start nor torn down
 * in its execve, and neither cost lands in the measured wall and system
 * time (a plain fork made /bin/true look several milliseconds slower).
 * A child that must wait at the gate while plumb attaches counters cannot
 * borrow plumb's memory (plumb runs meanwhile): it is forked.
 */
static pid_t spawn_child(struct child_plan *plan, int gated, int *pidfd, int *signalled)
{
	/*
	 * One stack for every child a thread clones, mapped at the first and
	 * kept: that thread is suspended (CLONE_VFORK) until the child has
	 * executed or exited, so no two children ever use it at once, and a
	 * map and an unmap per measured run would be two syscalls and a TLB
	 * flush in the harness's path for nothing.
	 */
	static _Thread_local char *stack;
	/* CLONE_PIDFD (Linux 5.2) hands plumb the pidfd with the clone,
	 * saving a pidfd_open per run; a kernel or a seccomp filter that
	 * refuses it is asked once and then left alone.  An older kernel
	 * ignores the unknown flag: the pidfd stays -1 and proc.c falls back
	 * to pidfd_open. */
	static int no_clone_pidfd;
#if PROC_CLONE3
	static int no_clone3;
#endif
	sigset_t all, old;
	pid_t pid;
	int e;

	*pidfd = -1;

	if (gated || PROC_NO_SHARED_CLONE) {
		sigprocmask(SIG_BLOCK, NULL, &old);
		*signalled = by_signal(&old);
		pid = fork();
		if (pid == 0)
			child_run(plan);   /* never returns */
		return pid;
	}
	if (!stack) {
		void *m = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (m == MAP_FAILED)
			return -1;
		stack = m;
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	/* With the exit told by SIGCHLD the clone makes no pidfd. */
	*signalled = by_signal(&old);
	pid = -1;
#if PROC_CLONE3
	if (!no_clone3 && plan->join_fd >= 0 && contain_cgroup_fd() >= 0) {
		struct contain_clone_args a;
		int join_fd = plan->join_fd;
		int started = 0;
		long r;
		memset(&a, 0, sizeof(a));
		a.flags = CLONE_VM | CLONE_VFORK | CLONE_INTO_CGROUP | (*signalled ? 0 : CLONE_PIDFD);
		a.pidfd = *signalled ? 0 : (uint64_t)(uintptr_t)pidfd;
		a.exit_signal = SIGCHLD;
		a.stack = (uint64_t)(uintptr_t)stack;
		a.stack_size = CHILD_STACK;
		a.cgroup = (uint64_t)contain_cgroup_fd();
		plan->join_fd = -1;   /* born in the container */
		plan->started = &started;
		r = clone3_vm(&a, child_entry, plan);
		plan->started = NULL;
		if (r >= 0 && !started) {
			/*
			 * plumb resumed (CLONE_VFORK) although the child never
			 * ran: the kernel killed it at birth.  Linux 6.x does
			 * so to every child born into a cgroup that
			 * cgroup.kill emptied once (it compares the kill count
			 * of plumb's own cgroup with the target's): reap it and
			 * join the old way from now on.
			 */
			while (waitpid((pid_t)r, NULL, 0) < 0 && errno == EINTR)
				;
			if (*pidfd >= 0)
				close(*pidfd);
			r = -EAGAIN;
		}
		if (r >= 0) {
			pid = (pid_t)r;
		} else {
			/* Refused (ENOSYS, E2BIG before 5.7, EPERM from a
			 * filter...): the clone below, and never again. */
			no_clone3 = 1;
			plan->join_fd = join_fd;
			*pidfd = -1;
		}
	}
#endif
	if (pid < 0 && !no_clone_pidfd && !*signalled) {
		pid = clone(child_entry, stack + CHILD_STACK,
			    CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, plan, pidfd);
		if (pid < 0)
			*pidfd = -1;
	}
	if (pid < 0) {
		pid = clone(child_entry, stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, plan);
		if (pid >= 0 && !*signalled)
			no_clone_pidfd = 1;
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
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

/*
 * Pipes kept for the next child.  A pipe whose child has exited with its
 * container empty (no process left that could hold the write end but
 * plumb), read until it is empty, is as good as a new one: a measured run
 * then makes no pipe2() and no closes, and reads no end-of-file (about 5
 * us per run, a pipe's creation and teardown).  Per thread, like the
 * child stack; a forked plumb does not use its parent's (owner).  A pipe
 * whose size a child changed (F_SETPIPE_SZ) is not kept: the next child
 * must find what the first one found.
 */
#define SPARE_PIPES 3

struct spare_pipe {
	int rd, wr;
	int size;      /* F_GETPIPE_SZ when made */
};

static _Thread_local struct spare_pipe spare[SPARE_PIPES] = {
	{ -1, -1, 0 }, { -1, -1, 0 }, { -1, -1, 0 }
};
static _Thread_local pid_t spare_owner;

static void spare_check_owner(void)
{
	pid_t self = contain_self_pid();

	if (spare_owner == self)
		return;
	/* Inherited by a fork: the parent's, not to be shared. */
	for (int i = 0; i < SPARE_PIPES; i++) {
		close_fd(&spare[i].rd);
		close_fd(&spare[i].wr);
	}
	spare_owner = self;
}

/* A pipe for a child's stream, kept or new: 0, or -1 with errno. */
static int pipe_take(int p[2], int *size)
{
	spare_check_owner();
	for (int i = 0; i < SPARE_PIPES; i++)
		if (spare[i].rd >= 0) {
			p[0] = spare[i].rd;
			p[1] = spare[i].wr;
			*size = spare[i].size;
			spare[i].rd = spare[i].wr = -1;
			return 0;
		}
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	*size = fcntl(p[0], F_GETPIPE_SZ);
	return 0;
}

/* Keep a drained pipe for the next child (its ends are -1 after), or close it. */
static void pipe_keep(int *rd, int *wr, int size)
{
	spare_check_owner();
	if (size > 0 && fcntl(*rd, F_GETPIPE_SZ) == size)
		for (int i = 0; i < SPARE_PIPES; i++)
			if (spare[i].rd < 0) {
				spare[i].rd = *rd;
				spare[i].wr = *wr;
				spare[i].size = size;
				*rd = *wr = -1;
				return;
			}
	close_fd(rd);
	close_fd(wr);
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	/* A pidfd is always close-on-exec (pidfd_open(2)). */
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Nonzero once the child has exited (it stays a zombie: WNOWAIT). */
static int child_exited(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return errno == ECHILD;
	return si.si_pid == pid;
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

/*
 * The child's report (stage, errno) when it could not execute, after it
 * ended: read from the pipe fd of a forked child, or (fd -1) what a cloned
 * child left in msg.
 */
static void read_report(int fd, struct child_report *msg, const struct proc_spec *spec,
			struct proc_result *res, int abort_code, struct capture *cap,
			struct plumb_err *cb_err)
{
	size_t got = 0;

	while (fd >= 0 && got < sizeof(*msg)) {
		ssize_t n = read(fd, (char *)msg + got, sizeof(*msg) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (fd >= 0 && got != sizeof(*msg))
		msg->stage = 0;
	if (msg->stage && !abort_code) {
		char line[512];
		int n;
		res->spawn_errno = msg->errnum;
		snprintf(res->spawn_error, sizeof(res->spawn_error), "%s: %s: %s",
			 spec->argv[0], stage_what(msg->stage), strerror(msg->errnum));
		n = snprintf(line, sizeof(line), "plumb: %s\n", res->spawn_error);
		if (n > 0) {
			struct capture *c = spec->err.kind == PROC_SINK_STDOUT ? &cap[0] : &cap[1];
			capture_add(c, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1, cb_err);
		}
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
	int rd[3];                       /* plumb's read ends */
	int wr[3];                       /* the child's write ends */
	int pipe_size[3];                /* each pipe's size when made (pipe_take()) */
	int drained[3];                  /* read empty with no writer left: kept (pipe_keep()) */
	int report[2], gate[2];
	struct child_report report_mem; /* a cloned child's report */
	int alone;                       /* the container held no one else at the exit */
	int reaped;                      /* the child was reaped at its exit (status, ru) */
	int childless;                   /* and then plumb had no child at all (ECHILD) */
	int status;
	struct rusage ru;
	int pidfd;
	int signalled;                   /* the exit comes as SIGCHLD (sigchld_fd()), no pidfd */
	int abort_code;                  /* a callback or plumb stopped the child */
	int stopping;                    /* plumb was asked to stop by a signal */
	uint64_t start, deadline, end;
	char *path;                      /* the resolved program */
	pid_t pid;
	/* Last: run_state_init() zeroes the fields above and only clears
	 * this one (1 KB of message, per run). */
	struct plumb_err cb_err;         /* the message behind abort_code */
};

_Static_assert(sizeof(struct run_state) - offsetof(struct run_state, cb_err) -
	       sizeof(struct plumb_err) < _Alignof(struct run_state),
	       "struct run_state ends with cb_err");

/*
 * The /dev/null every child's stdin (and each stream not captured) comes
 * from: opened once per process and kept, not opened and closed per run.
 * Close-on-exec, so no child inherits it but as its 0, 1 or 2.  plumb
 * starts children from one thread; a forked plumb inherits it as is.
 */
static int devnull_fd(struct plumb_err *err)
{
	static int fd = -1;

	if (fd < 0 && (fd = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, "/dev/null", "open");
	return fd;
}

static void run_state_init(struct run_state *st)
{
	memset(st, 0, offsetof(struct run_state, cb_err));
	for (int i = 0; i < 3; i++) {
		st->cap[i].fd = -1;
		st->rd[i] = -1;
		st->wr[i] = -1;
	}
	st->report[0] = st->report[1] = -1;
	st->gate[0] = st->gate[1] = -1;
	st->pidfd = -1;
	plumb_err_clear(&st->cb_err);
}

/*
 * Open the sinks and the pipes, start the child, register its group, run
 * on_start and open the gate.  0 with the child started (st->pid), or a
 * negative code when plumb could not do its part; no child exists then.
 */
static int run_setup(const struct proc_spec *spec, struct proc_result *res,
		     struct run_state *st, struct plumb_err *err)
{
	struct child_plan plan;
	/* Forked (a gate, or a sanitizer build) rather than cloned. */
	int forked = spec->on_start != NULL || PROC_NO_SHARED_CLONE;
	int devnull, r;

	if ((r = capture_open(&st->cap[0], &spec->out, "stdout", &res->out_mem, err)) < 0)
		return r;
	if (spec->err.kind != PROC_SINK_STDOUT &&
	    (r = capture_open(&st->cap[1], &spec->err, "stderr", &res->err_mem, err)) < 0)
		return r;
	if (spec->extra_fd > 2 &&
	    (r = capture_open(&st->cap[2], &spec->extra, "extra fd", NULL, err)) < 0)
		return r;

	if ((devnull = devnull_fd(err)) < 0)
		return devnull;
	/* Read ends non-blocking: once the child has exited and no one else
	 * holds a pipe, its rest and its end-of-file are read at once, with no
	 * poll() first; the child makes its write ends blocking again. */
	for (int i = 0; i < 3; i++) {
		const struct proc_sink *s = i == 0 ? &spec->out : i == 1 ? &spec->err : &spec->extra;
		int p[2];
		if (i == 2 && spec->extra_fd <= 2)
			continue;
		if (s->kind == PROC_SINK_NULL || s->kind == PROC_SINK_STDOUT)
			continue;
		if (pipe_take(p, &st->pipe_size[i]) < 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, "pipe", "create");
		st->rd[i] = p[0];
		st->wr[i] = p[1];
	}
	if ((forked && pipe2(st->report, O_CLOEXEC) < 0) ||
	    (spec->on_start && pipe2(st->gate, O_CLOEXEC) < 0))
		return plumb_err_errno(err, PLUMB_EIO, errno, "pipe", "create");
	st->path = resolve_program(spec->argv[0], spec->env);
	if (!st->path)
		return plumb_err_oom(err, "program path");

	memset(&plan, 0, sizeof(plan));
	plan.parent = contain_self_pid();
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
	plan.src[3] = st->wr[2];
	plan.dst[3] = spec->extra_fd > 2 ? spec->extra_fd : -1;
	if (plan.dst[3] < 0)
		plan.src[3] = -1;
	plan.gate_rd = st->gate[0];
	plan.gate_wr = st->gate[1];
	plan.report_wr = st->report[1];
	plan.report_mem = forked ? NULL : &st->report_mem;
	for (int i = 0; i < 3; i++)
		plan.blocking[i] = st->wr[i];
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

	/* A shared clone writes the join's time here before plumb resumes
	 * (CLONE_VFORK); a forked child joins before the gate, off the clock. */
	uint64_t join_ns = 0;
	plan.join_ns = forked ? NULL : &join_ns;
	st->start = clock_now_ns();
	st->pid = spawn_child(&plan, spec->on_start != NULL, &st->pidfd, &st->signalled);
	if (st->pid < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, spec->argv[0], "fork");
	st->start += join_ns;

	/* The child makes its own group first; a forked one may not have run
	 * yet, whereas a cloned one has executed (or failed) before plumb goes
	 * on (CLONE_VFORK), so only the fork needs plumb's call. */
	if (forked)
		setpgid(st->pid, st->pid);
	if (child_group_register(st->pid) < 0) {
		kill(-st->pid, SIGKILL);
		kill(st->pid, SIGKILL);
		st->abort_code = plumb_err_set(&st->cb_err, PLUMB_EINTERNAL,
					       "too many child process groups");
	}
	/* plumb keeps its copy of the pipes' write ends until the child has
	 * exited (run_loop()): the child's exit then wakes plumb once, through
	 * the pidfd, not first at its pipes' end-of-file (exit closes the
	 * files before it notifies the parent) and again at the exit. */
	close_fd(&st->report[1]);
	close_fd(&st->gate[0]);
	if (st->pidfd < 0 && !st->signalled)
		st->pidfd = open_pidfd(st->pid);

	if (!st->abort_code && spec->on_start) {
		int sr = spec->on_start(spec->start_ctx, st->pid, &st->cb_err);
		if (sr < 0) {
			st->abort_code = sr;
			kill(-st->pid, SIGKILL);
			kill(st->pid, SIGKILL);
		}
	}
	/* With a gate the clock starts as the child is let go; without one it
	 * started before fork, since the child may already have executed. */
	if (st->gate[1] >= 0)
		st->start = clock_now_ns();
	close_fd(&st->gate[1]);   /* the child may execute now */
	if (spec->timeout_ns)
		st->deadline = st->start + spec->timeout_ns;
	return 0;
}

/*
 * One read of plumb's end of stream i into its capture: 1 when bytes came
 * (or a transient error), 0 at the end (the end is closed), -1 when the
 * pipe is empty but still held open (EAGAIN: the read ends are
 * non-blocking).  A callback's error stops the child.
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

/* wait4 for the child with flags, into st; what wait4 returned. */
static pid_t wait_child(struct run_state *st, int flags)
{
	pid_t r;

	while ((r = wait4(st->pid, &st->status, flags, &st->ru)) < 0 && errno == EINTR)
		;
	if (r == st->pid) {
		st->reaped = 1;
		child_group_forget(st->pid);
	}
	return r;
}

/*
 * Reap the child if it has exited (SIGCHLD came, maybe for another): 1
 * when it is gone, reaped into st (or not there to reap: ECHILD), 0 while
 * it runs.
 */
static int reap_if_exited(struct run_state *st)
{
	pid_t r = wait_child(st, WNOHANG);

	return r == st->pid || (r < 0 && errno == ECHILD);
}

/* Reap the exited child into st (once): 1, or 0 when wait4 failed. */
static int reap_child(struct run_state *st)
{
	return st->reaped || wait_child(st, 0) == st->pid;
}

/*
 * Watch the started child until it has exited and its pipes are drained
 * (or the drain time is over): captures its output, enforces the timeout
 * and the grace, reacts to a stop signal.  0, or a negative code when
 * poll() failed (the child is killed then).
 */
static int run_loop(const struct proc_spec *spec, struct proc_result *res,
		    struct run_state *st, struct plumb_err *err)
{
	uint64_t kill_at = 0, drain_until = 0;
	int exited = 0;
	pid_t pid = st->pid;
	int *rd = st->rd;

	for (;;) {
		struct pollfd pfd[4];
		int which[4], np = 0, timeout_ms = -1;
		uint64_t now = clock_now_ns(), next = 0;

		if (cleanup_signal_pending() && !st->stopping && !exited) {
			/* The handler sent SIGTERM to the group; make sure, and bound it. */
			st->stopping = 1;
			kill(-pid, SIGTERM);
			kill_at = now + STOP_GRACE_NS;
		} else if (cleanup_signal_pending() && !st->stopping) {
			st->stopping = 1;
		}
		if (!exited && st->deadline && now >= st->deadline && !res->timed_out && !st->stopping) {
			res->timed_out = 1;
			kill(-pid, SIGTERM);
			kill_at = now + (spec->grace_ns ? spec->grace_ns : PROC_GRACE_DEFAULT_NS);
		}
		if (!exited && kill_at && now >= kill_at && !res->killed) {
			res->killed = 1;
			kill(-pid, SIGKILL);
		}
		if (!exited && st->pidfd < 0 && !st->signalled && child_exited(pid)) {
			exited = 1;
			st->end = now;
		}
		if (exited) {
			int held = 0;
			if (!drain_until) {
				/*
				 * Whatever the child left running goes now, in its
				 * group or out of it (sys/contain.h), before the
				 * drain: a daemon holding the pipes would keep them
				 * open.  The child is reaped at once, and plumb asks
				 * whether it has any child left.  plumb is the
				 * subreaper of every descendant (sys/contain.c): an
				 * orphan comes to plumb, a zombie too, so none at all
				 * (ECHILD) means nothing the child started still runs,
				 * and that answer costs no read of the container
				 * (cgroup.events: a few microseconds a run).  Anything
				 * else asks the container, which kills what is left;
				 * the group id of the reaped child stays with its
				 * members while any is alive (and the kernel hands
				 * pids out in turn), so the kill below reaches them.
				 */
				if (contain_method() != CONTAIN_NONE && reap_child(st) &&
				    waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
					st->alone = st->childless = 1;
				else
					res->left_behind += contain_kill(pid, &st->alone);
				if (!st->alone)
					kill(-pid, SIGKILL);
				/* The pipes end once no one else holds them.  With the
				 * container empty plumb holds the only write ends: a
				 * pipe read empty is then wholly read, and kept. */
				if (!st->alone)
					for (int i = 0; i < 3; i++)
						close_fd(&st->wr[i]);
				drain_until = now + DRAIN_NS;
			}
			/* What is left in the pipes and their end, read without a
			 * poll() first; poll only for a pipe still held open. */
			for (int i = 0; i < 3; i++)
				if (rd[i] >= 0 && !st->drained[i] && read_stream(st, res, i) < 0) {
					if (st->wr[i] >= 0)
						st->drained[i] = 1;
					else
						held = 1;
				}
			if (((rd[0] < 0 || st->drained[0]) && (rd[1] < 0 || st->drained[1]) &&
			     (rd[2] < 0 || st->drained[2])) || now >= drain_until)
				break;
			if (!held)
				continue;   /* bytes came: read on */
		}

		if (!exited && st->deadline && !res->timed_out)
			next = st->deadline;
		if (!exited && kill_at && !res->killed && (!next || kill_at < next))
			next = kill_at;
		if (exited && (!next || drain_until < next))
			next = drain_until;
		if (next)
			timeout_ms = next > now ? (int)((next - now + 999999) / 1000000) : 0;
		if (st->pidfd < 0 && !st->signalled && !exited &&
		    (timeout_ms < 0 || timeout_ms > FALLBACK_POLL_MS))
			timeout_ms = FALLBACK_POLL_MS;

		for (int i = 0; i < 3; i++) {
			if (rd[i] < 0 || st->drained[i])
				continue;
			pfd[np].fd = rd[i];
			pfd[np].events = POLLIN;
			which[np++] = i;
		}
		if ((st->pidfd >= 0 || st->signalled) && !exited) {
			pfd[np].fd = st->pidfd >= 0 ? st->pidfd : sigchld_fd();
			pfd[np].events = POLLIN;
			which[np++] = 3;
		}
		if (poll(pfd, (nfds_t)np, timeout_ms) < 0) {
			int r;
			if (errno == EINTR)
				continue;
			r = plumb_err_errno(err, PLUMB_EINTERNAL, errno, spec->argv[0], "poll");
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			st->end = clock_now_ns();
			return r;
		}
		if (exited)
			continue;   /* the pass above reads what woke plumb */
		for (int k = 0; k < np; k++) {
			int i = which[k];
			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (i == 3) {
				/* The clock first.  A SIGCHLD is then read, so that
				 * the next one wakes plumb again (one read takes it:
				 * it is not queued twice), and the kernel says whether
				 * it was this child's exit; a pidfd is only this one's. */
				uint64_t at = clock_now_ns();
				if (st->signalled) {
					struct signalfd_siginfo si;
					ssize_t got = read(pfd[k].fd, &si, sizeof(si));
					(void)got;   /* a signal or none: the wait4 tells */
					if (!reap_if_exited(st))
						continue;
				}
				exited = 1;
				st->end = at;
				continue;
			}
			read_stream(st, res, i);
		}
	}
	return 0;
}

/*
 * Reap the child: its exec report, wait4 (rusage), the group's slot, the
 * wall time and the exit status into res.  Always run once the child was
 * started, whatever the loop returned.
 */
static void run_reap(const struct proc_spec *spec, struct proc_result *res,
		     struct run_state *st)
{
	struct rusage ru;
	int status = 0;

	/* Whether execve failed, read only now: waiting for it before the loop
	 * would wake plumb once more per run, at the child's execve, and a
	 * woken plumb competes with its child for the CPU it is timed on. */
	read_report(st->report[0], &st->report_mem, spec, res, st->abort_code, st->cap,
		    &st->cb_err);
	close_fd(&st->report[0]);
	for (int i = 0; i < 3; i++)
		if (!st->drained[i])
			close_fd(&st->rd[i]);
	if (reap_child(st)) {
		status = st->status;
		ru = st->ru;
	} else {
		memset(&ru, 0, sizeof(ru));
		child_group_forget(st->pid);
	}
	close_fd(&st->pidfd);
	/* What started after the count above (or ran on after an aborted loop)
	 * is killed too, and every zombie handed to plumb is reaped; with no
	 * child left at the exit there is neither. */
	if (!st->childless)
		res->left_behind += contain_settle(st->pid, st->alone);
	if (!st->end)
		st->end = clock_now_ns();
	res->wall_ns = st->end > st->start ? st->end - st->start : 0;
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
		if (st->drained[i] && st->rd[i] >= 0 && st->wr[i] >= 0)
			pipe_keep(&st->rd[i], &st->wr[i], st->pipe_size[i]);
		close_fd(&st->rd[i]);
		close_fd(&st->wr[i]);
	}
	close_fd(&st->report[0]);
	close_fd(&st->report[1]);
	close_fd(&st->gate[0]);
	close_fd(&st->gate[1]);
	free(st->path);
	st->path = NULL;
	return r;
}

int proc_run(const struct proc_spec *spec, struct proc_result *res,
	     struct plumb_err *err)
{
	struct run_state st;
	int r;

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
	run_state_init(&st);
	r = run_setup(spec, res, &st, err);
	if (r == 0) {
		r = run_loop(spec, res, &st, err);
		run_reap(spec, res, &st);
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
	if (res->spawn_errno)
		snprintf(out, size, "%s", res->spawn_error);
	else if (res->timed_out)
		snprintf(out, size, "timed out after %.1f s%s", (double)timeout_ns / 1e9,
			 res->killed ? " (killed after the grace period)" : "");
	else if (res->exited)
		snprintf(out, size, "exit status %d", res->status);
	else
		snprintf(out, size, "killed by signal %d (%s)", res->signo,
			 strsignal(res->signo));
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
