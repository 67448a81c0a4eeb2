/*
 * sys/contain.c: the container of plumb's children (a cgroup v2 of its
 * own, else a subreaper's sweep) and its watcher; see contain.h for the
 * guarantees.
 *
 * Separate from proc.c because it is process-wide state (one cgroup and
 * one watcher per plumb process, made once, removed at exit) where proc.c
 * is one child's life, and because what dead plumbs left is cleaned here
 * before the first child of a new one starts.
 *
 * Why a cgroup rather than the process group proc.c already makes: a
 * daemon calls setsid() and leaves both the group and the session; a
 * cgroup cannot be left without privileges plumb's children do not use,
 * and cgroup.kill kills it whole, new forks included.  Why plumb is a
 * subreaper in both methods: what it kills becomes its zombie to reap,
 * not init's, and without a cgroup it is the only way to find the
 * descendants at all.  Why a watcher process rather than
 * PR_SET_PDEATHSIG alone: that signal reaches only the direct child, and
 * a grandchild (`sh -c 'sleep 300 & wait'`) would run on.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "sys/contain.h"
#include "common/banned.h"

#define CG_PREFIX "plumb."
#define KILL_ROUNDS_NS (5ull * 1000000000ull)   /* bound of a subreaper's kill loop */
#define SETTLE_NS (2ull * 1000000000ull)        /* bound of waiting for an empty cgroup */
#define MAX_KIDS 4096
#define WATCH_SLOTS 64                          /* process groups the watcher kills */

/* The process groups of the running children, in memory shared with the
 * watcher (the one thing it must learn after it was forked). */
struct watch_list {
	volatile pid_t group[WATCH_SLOTS];
};

static struct {
	int done;                  /* contain_init() ran in this process */
	int rc;                    /* and returned this */
	struct plumb_err err;      /* with this message */
	pid_t owner;               /* getpid() of that process */
	enum contain_method method;
	char reason[PLUMB_ERR_MAX];
	char dir[PATH_MAX];        /* cgroup2: plumb's own cgroup folder */
	int procs_fd;              /* cgroup2: its cgroup.procs, for the children */
	int events_fd;             /* cgroup2: its cgroup.events */
	pid_t watcher;             /* the watcher's pid, 0 when none */
	int watch_fd;              /* the write end of its pipe: held by plumb alone */
	struct watch_list *watch;  /* shared with the watcher; NULL when none */
	int oom_fd;                /* cgroup2: a memory.events (contain_oom_kills()) */
	int oom_tried;             /* ... looked for once */
} C = { .procs_fd = -1, .events_fd = -1, .watch_fd = -1, .oom_fd = -1 };

/* ---- small readers ------------------------------------------------------- */

/* Read a whole small file (a /proc or cgroup file) into buf; -1 with errno. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -1;
	while (got + 1 < size) {
		ssize_t n = read(fd, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
}

/* The start time (clock ticks since boot, /proc/PID/stat field 22), or 0. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], text[1024], *p;
	unsigned long long v = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_small(path, text, sizeof(text)) <= 0)
		return 0;
	/* The name may hold anything, ")" too: fields start after the last ")". */
	p = strrchr(text, ')');
	if (!p)
		return 0;
	/* p + 1 is " S PPID ...": the blank before field 3; on to field 22's. */
	p++;
	for (int field = 3; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return 0;
	while (*p == ' ')
		p++;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (unsigned long long)(*p++ - '0');
	return v;
}

/* The pids of a cgroup.procs or children text into v (at most max); how many there are. */
static size_t parse_pids(const char *text, pid_t *v, size_t max)
{
	size_t n = 0;

	while (*text) {
		long x = 0;
		int any = 0;
		while (*text >= '0' && *text <= '9') {
			x = x * 10 + (*text++ - '0');
			any = 1;
		}
		if (any) {
			if (v && n < max)
				v[n] = (pid_t)x;
			n++;
		}
		while (*text && (*text < '0' || *text > '9'))
			text++;
	}
	return n;
}

/* Reap every zombie child there is now. */
static void reap_zombies(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* ---- cgroup2 ----------------------------------------------------------- */

/* Undo mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

int contain_cgroup_folder(const char *mountinfo, const char *cgroup, char *out,
			  size_t size, char *why, size_t why_size)
{
	const char *line, *own = NULL;
	size_t own_len = 0;

	for (line = cgroup; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (len >= 3 && memcmp(line, "0::", 3) == 0) {
			own = line + 3;
			own_len = len - 3;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (!own || own_len == 0 || own[0] != '/') {
		snprintf(why, why_size, "/proc/self/cgroup names no cgroup v2 of plumb's");
		return -1;
	}
	for (line = mountinfo; line && *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char copy[4096], *f[6], *sep, *save = NULL, *fstype;
		int nf = 0;

		if (len >= sizeof(copy)) {
			line = nl ? nl + 1 : NULL;
			continue;
		}
		memcpy(copy, line, len);
		copy[len] = '\0';
		line = nl ? nl + 1 : NULL;
		sep = strstr(copy, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		fstype = sep + 3;
		fstype[strcspn(fstype, " ")] = '\0';
		if (strcmp(fstype, "cgroup2") != 0)
			continue;
		for (char *tok = strtok_r(copy, " ", &save); tok && nf < 6; tok = strtok_r(NULL, " ", &save))
			f[nf++] = tok;
		if (nf < 5)
			continue;
		unescape(f[3]);
		unescape(f[4]);
		{
			/* f[3]: the folder of the hierarchy mounted at f[4]. */
			size_t rl = strlen(f[3]);
			char ownp[PATH_MAX];
			const char *rel;
			int n;
			if (own_len >= sizeof(ownp))
				continue;
			memcpy(ownp, own, own_len);
			ownp[own_len] = '\0';
			if (strcmp(f[3], "/") == 0)
				rel = ownp;
			else if (strncmp(ownp, f[3], rl) == 0 && (ownp[rl] == '/' || ownp[rl] == '\0'))
				rel = ownp + rl;
			else
				continue;
			if (strcmp(rel, "/") == 0)
				rel = "";
			n = snprintf(out, size, "%s%s", f[4], rel);
			if (n < 0 || (size_t)n >= size)
				continue;
			return 0;
		}
	}
	snprintf(why, why_size, "no cgroup2 file system is mounted where plumb's cgroup is");
	return -1;
}

/* Open dir's file name; -1 with errno. */
static int open_in(const char *dir, const char *name, int flags)
{
	char path[PATH_MAX + 32];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(path, flags | O_CLOEXEC);
}

/* How many processes the cgroup folder dir holds. */
static size_t cgroup_count(const char *dir)
{
	static char text[65536];
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (read_small(path, text, sizeof(text)) < 0)
		return 0;
	return parse_pids(text, NULL, 0);
}

/* Nonzero when cgroup.events says populated 1 (events_fd, or dir's own). */
static int cgroup_populated(const char *dir, int events_fd)
{
	char text[256];
	ssize_t n;
	int fd = events_fd >= 0 ? events_fd : open_in(dir, "cgroup.events", O_RDONLY);

	if (fd < 0)
		return 0;
	n = pread(fd, text, sizeof(text) - 1, 0);
	if (fd != events_fd)
		close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	return strstr(text, "populated 1") != NULL;
}

/* Kill everything in the cgroup at dir (cgroup.kill, Linux 5.14). */
static void cgroup_kill(const char *dir)
{
	int fd = open_in(dir, "cgroup.kill", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, "1", 1) < 0) {
		/* The folder went away meanwhile: nothing to kill. */
	}
	close(fd);
}

/* Wait until the cgroup is empty (poll on cgroup.events), at most bound ns. */
static void cgroup_wait_empty(const char *dir, int events_fd, uint64_t bound)
{
	uint64_t until = clock_now_ns() + bound;
	int fd = events_fd >= 0 ? events_fd : open_in(dir, "cgroup.events", O_RDONLY);

	while (fd >= 0 && cgroup_populated(dir, fd)) {
		uint64_t now = clock_now_ns();
		/* cgroup.events signals a change as POLLPRI. */
		struct pollfd p = { fd, POLLPRI, 0 };
		int ms = (int)((until - now) / 1000000) + 1;
		if (now >= until)
			break;
		if (poll(&p, 1, ms > 10 ? 10 : ms) < 0 && errno != EINTR)
			break;
	}
	if (fd >= 0 && fd != events_fd)
		close(fd);
}

/* Kill what the cgroup at dir holds, wait until it is empty, remove it. */
static void cgroup_remove(const char *dir, int events_fd)
{
	cgroup_kill(dir);
	cgroup_wait_empty(dir, events_fd, SETTLE_NS);
	rmdir(dir);
}

/*
 * What plumbs killed outright and whose watcher could not clean up (it was
 * killed too) left under parent: every "plumb.<pid>.<start>" whose process
 * is gone (or is another process now) is killed and removed.
 */
static void sweep_stale(const char *parent, const char *mine)
{
	DIR *d = opendir(parent);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX];
		long pid;
		unsigned long long st;
		char *end;

		if (strncmp(e->d_name, CG_PREFIX, sizeof(CG_PREFIX) - 1) != 0 ||
		    strcmp(e->d_name, mine) == 0)
			continue;
		errno = 0;
		pid = strtol(e->d_name + sizeof(CG_PREFIX) - 1, &end, 10);
		if (errno || pid <= 0 || *end != '.')
			continue;
		st = strtoull(end + 1, &end, 10);
		if (*end != '\0')
			continue;
		if (start_time((pid_t)pid) == st)
			continue;   /* that plumb still runs */
		if (snprintf(path, sizeof(path), "%s/%s", parent, e->d_name) >= (int)sizeof(path))
			continue;
		cgroup_remove(path, -1);
	}
	closedir(d);
	reap_zombies();
}

/* Close what the cgroup method holds open. */
static void cgroup_close(void)
{
	if (C.procs_fd >= 0)
		close(C.procs_fd);
	if (C.events_fd >= 0)
		close(C.events_fd);
	if (C.oom_fd >= 0)
		close(C.oom_fd);
	C.procs_fd = C.events_fd = C.oom_fd = -1;
	C.oom_tried = 0;
}

/* Make plumb's cgroup and try a child in it; 0, or -1 with why filled. */
static int try_cgroup(char *why, size_t why_size)
{
	struct buf mi, cg;
	struct plumb_err ferr;
	char parent[PATH_MAX], name[96];
	int r, status = 0, kill_fd;
	pid_t pid;

	buf_init(&mi, 4 << 20);
	buf_init(&cg, 1 << 16);
	plumb_err_clear(&ferr);
	if (file_read("/proc/self/mountinfo", 4 << 20, &mi, &ferr) < 0 ||
	    file_read("/proc/self/cgroup", 1 << 16, &cg, &ferr) < 0) {
		snprintf(why, why_size, "%s", ferr.msg);
		buf_release(&mi);
		buf_release(&cg);
		return -1;
	}
	r = contain_cgroup_folder(buf_cstr(&mi), buf_cstr(&cg), parent, sizeof(parent),
				  why, why_size);
	buf_release(&mi);
	buf_release(&cg);
	if (r < 0)
		return -1;
	snprintf(name, sizeof(name), CG_PREFIX "%ld.%llu", (long)getpid(), start_time(getpid()));
	sweep_stale(parent, name);
	if (snprintf(C.dir, sizeof(C.dir), "%s/%s", parent, name) >= (int)sizeof(C.dir)) {
		snprintf(why, why_size, "%.900s: path too long", parent);
		C.dir[0] = '\0';
		return -1;
	}
	if (mkdir(C.dir, 0755) < 0 && errno != EEXIST) {
		snprintf(why, why_size, "%.900s: mkdir: %s", C.dir, strerror(errno));
		C.dir[0] = '\0';
		return -1;
	}
	C.procs_fd = open_in(C.dir, "cgroup.procs", O_WRONLY);
	C.events_fd = open_in(C.dir, "cgroup.events", O_RDONLY);
	if (C.procs_fd < 0 || C.events_fd < 0) {
		snprintf(why, why_size, "%.900s/cgroup.%s: open: %s", C.dir,
			 C.procs_fd < 0 ? "procs" : "events", strerror(errno));
		goto fail;
	}
	/* Everything left is killed through cgroup.kill (Linux 5.14). */
	kill_fd = open_in(C.dir, "cgroup.kill", O_WRONLY);
	if (kill_fd < 0) {
		snprintf(why, why_size, "%.900s/cgroup.kill: open: %s (Linux 5.14 or later)",
			 C.dir, strerror(errno));
		goto fail;
	}
	close(kill_fd);
	/* Joining can still be refused (a delegation that does not reach
	 * plumb's own cgroup): try it with a child that only joins. */
	pid = fork();
	if (pid == 0)
		_exit(contain_child_join(C.procs_fd) ? 1 : 0);
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR) {
				pid = -1;
				break;
			}
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, why_size, "%.900s/cgroup.procs: a child cannot join it", C.dir);
		goto fail;
	}
	return 0;
fail:
	cgroup_close();
	rmdir(C.dir);
	C.dir[0] = '\0';
	return -1;
}

/* ---- subreaper ------------------------------------------------------------ */

/*
 * plumb's children now, from /proc/self/task/TID/children of every thread
 * (CONFIG_PROC_CHILDREN, checked by contain_init()); -1 when unreadable.
 */
static ssize_t list_children(pid_t *v, size_t max)
{
	static char text[65536];
	char path[320];
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t n = 0;
	int have = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children", e->d_name);
		if (read_small(path, text, sizeof(text)) < 0)
			continue;
		have = 1;
		n += parse_pids(text, n < max ? v + n : NULL, n < max ? max - n : 0);
	}
	closedir(d);
	if (!have)
		return -1;
	return (ssize_t)(n < max ? n : max);
}

/* Kill plumb's children but the watcher, round after round, until none is
 * left; how many there were. */
static unsigned subreaper_kill(void)
{
	static pid_t seen[MAX_KIDS];
	pid_t kids[MAX_KIDS];
	size_t nseen = 0;
	uint64_t until = clock_now_ns() + KILL_ROUNDS_NS;

	for (;;) {
		ssize_t n = list_children(kids, MAX_KIDS);
		int others = 0;
		for (ssize_t i = 0; i < n; i++) {
			size_t j;
			if (kids[i] == C.watcher)
				continue;
			if (waitpid(kids[i], NULL, WNOHANG) == kids[i])
				continue;   /* a zombie, reaped now */
			others = 1;
			kill(kids[i], SIGKILL);
			for (j = 0; j < nseen && seen[j] != kids[i]; j++)
				;
			if (j == nseen && nseen < MAX_KIDS)
				seen[nseen++] = kids[i];
		}
		if (!others || clock_now_ns() >= until)
			break;
		{
			/* Their children come to plumb as they die. */
			struct timespec ts = { 0, 200000 };
			nanosleep(&ts, NULL);
		}
	}
	return (unsigned)nseen;
}

/* ---- the watcher ------------------------------------------------------- */

/* Kill every process group of a running child. */
static void kill_tracked(void)
{
	for (int i = 0; C.watch && i < WATCH_SLOTS; i++)
		if (C.watch->group[i] > 0)
			kill(-C.watch->group[i], SIGKILL);
}

/*
 * The watcher's life: out of plumb's session (a signal to plumb's group
 * or terminal does not reach it), holding nothing of plumb's but the
 * pipe's read end and /dev/null, it waits for the end of the pipe, which
 * comes when plumb's process ends however it ends, then kills what plumb
 * left (nothing after a normal exit) and exits.
 */
static void __attribute__((noreturn)) watch(int rd)
{
	sigset_t none;
	char c;
	int fd, nul;

	setsid();
	prctl(PR_SET_NAME, "plumb-watcher");
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (chdir("/") < 0) {
		/* Only so as not to keep plumb's folder busy. */
	}
	fd = fcntl(rd, F_DUPFD, 3);
	nul = open("/dev/null", O_RDWR);
	if (fd < 0 || nul < 0)
		_exit(1);
	dup2(nul, 0);
	dup2(nul, 1);
	dup2(nul, 2);
	if (fd != 3 && dup2(fd, 3) < 0)
		_exit(1);
	closefrom(4);
	while (read(3, &c, 1) < 0 && errno == EINTR)
		;
	kill_tracked();
	if (C.method == CONTAIN_CGROUP && C.dir[0])
		cgroup_remove(C.dir, -1);
	_exit(0);
}

/* Map the shared list and fork the watcher; 0, or a negative code. */
static int start_watcher(struct plumb_err *err)
{
	int p[2];
	pid_t pid;
	void *m = mmap(NULL, sizeof(struct watch_list), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return plumb_err_errno(err, PLUMB_EINTERNAL, errno, "the watcher's list", "mmap");
	C.watch = m;
	if (pipe2(p, O_CLOEXEC) < 0)
		return plumb_err_errno(err, PLUMB_EINTERNAL, errno, "the watcher's pipe", "create");
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return plumb_err_errno(err, PLUMB_EINTERNAL, e, "the watcher", "fork");
	}
	if (pid == 0) {
		close(p[1]);
		watch(p[0]);
	}
	close(p[0]);
	C.watcher = pid;
	C.watch_fd = p[1];
	return 0;
}

/* End the watcher (it sees the pipe's end, has nothing left to do) and reap it. */
static void stop_watcher(void)
{
	if (C.watch_fd >= 0)
		close(C.watch_fd);
	C.watch_fd = -1;
	if (C.watcher > 0)
		while (waitpid(C.watcher, NULL, 0) < 0 && errno == EINTR)
			;
	C.watcher = 0;
	if (C.watch)
		munmap((void *)C.watch, sizeof(struct watch_list));
	C.watch = NULL;
}

/* ---- the interface ------------------------------------------------------- */

void contain_release(void)
{
	if (!C.done || C.owner != getpid())
		return;
	if (C.rc == 0 && C.method == CONTAIN_CGROUP && C.dir[0])
		cgroup_remove(C.dir, C.events_fd);
	else if (C.rc == 0 && C.method == CONTAIN_SUBREAPER)
		subreaper_kill();
	stop_watcher();
	reap_zombies();
	cgroup_close();
	C.dir[0] = '\0';
	C.done = 0;
}

static void contain_exit(void)
{
	contain_release();
}

/*
 * A fork of plumb (a build worker) inherited its parent's container: the
 * descriptors are closed and the list unmapped, the cgroup and the watcher
 * left to their owner.
 */
static void forget_inherited(void)
{
	cgroup_close();
	if (C.watch_fd >= 0)
		close(C.watch_fd);
	if (C.watch)
		munmap((void *)C.watch, sizeof(struct watch_list));
	C.watch_fd = -1;
	C.watch = NULL;
	C.watcher = 0;
}

int contain_init(struct plumb_err *err)
{
	const char *want;
	char why[PLUMB_ERR_MAX];
	pid_t kids[1];
	static int registered;

	if (C.done && C.owner == getpid()) {
		if (C.rc < 0 && err)
			*err = C.err;
		return C.rc;
	}
	if (C.done)
		forget_inherited();
	want = getenv("PLUMB_CONTAIN");
	memset(&C, 0, sizeof(C));
	C.procs_fd = C.events_fd = C.watch_fd = -1;
	C.done = 1;
	C.owner = getpid();
	plumb_err_clear(&C.err);
	if (want && *want && strcmp(want, "auto") != 0 && strcmp(want, "cgroup") != 0 &&
	    strcmp(want, "subreaper") != 0) {
		C.rc = plumb_err_set(&C.err, PLUMB_EINPUT, "PLUMB_CONTAIN: '%.40s' is not "
				     "auto, cgroup or subreaper", want);
		goto out;
	}
	/* An inherited SIG_IGN would have the kernel reap every child itself,
	 * and wait4 would find no child (and no rusage). */
	signal(SIGCHLD, SIG_DFL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		C.rc = plumb_err_errno(&C.err, PLUMB_EINTERNAL, errno, "PR_SET_CHILD_SUBREAPER",
				       "prctl");
		goto out;
	}
	why[0] = '\0';
	if (want && strcmp(want, "subreaper") == 0) {
		C.method = CONTAIN_SUBREAPER;
	} else if (try_cgroup(why, sizeof(why)) == 0) {
		C.method = CONTAIN_CGROUP;
	} else if (want && strcmp(want, "cgroup") == 0) {
		C.rc = plumb_err_set(&C.err, PLUMB_EINPUT, "PLUMB_CONTAIN=cgroup: no cgroup v2 "
				     "for plumb's children: %s", why);
		goto out;
	} else {
		C.method = CONTAIN_SUBREAPER;
		snprintf(C.reason, sizeof(C.reason), "%s", why);
	}
	/* The subreaper finds its children in /proc (CONFIG_PROC_CHILDREN). */
	if (C.method == CONTAIN_SUBREAPER && list_children(kids, 1) < 0) {
		C.rc = plumb_err_set(&C.err, PLUMB_EINTERNAL, "no container for plumb's children: "
				     "/proc/self/task/%ld/children cannot be read (a kernel "
				     "without CONFIG_PROC_CHILDREN?)%s%s", (long)getpid(),
				     why[0] ? "; no cgroup2: " : "", why);
		goto out;
	}
	if ((C.rc = start_watcher(&C.err)) < 0) {
		if (C.method == CONTAIN_CGROUP)
			cgroup_remove(C.dir, C.events_fd);
		cgroup_close();
		goto out;
	}
	if (!registered && atexit(contain_exit) == 0)
		registered = 1;
out:
	if (C.rc < 0 && err)
		*err = C.err;
	return C.rc;
}

enum contain_method contain_method(void)
{
	return C.done && C.owner == getpid() && C.rc == 0 ? C.method : CONTAIN_NONE;
}

const char *contain_method_name(void)
{
	switch (contain_method()) {
	case CONTAIN_CGROUP: return "cgroup2";
	case CONTAIN_SUBREAPER: return "subreaper";
	default: return NULL;
	}
}

const char *contain_reason(void)
{
	return C.reason;
}

int contain_join_fd(void)
{
	return contain_method() == CONTAIN_CGROUP ? C.procs_fd : -1;
}

int contain_child_join(int fd)
{
	if (fd < 0)
		return 0;
	/* "0" is the writer itself; lseek is meaningless on cgroup.procs. */
	return write(fd, "0", 1) == 1 ? 0 : errno;
}

int contain_track(pid_t pgid)
{
	int i;

	if (child_group_register(pgid) < 0)
		return -1;
	if (!C.watch || contain_method() == CONTAIN_NONE)
		return 0;
	for (i = 0; i < WATCH_SLOTS && C.watch->group[i] != 0; i++)
		;
	if (i == WATCH_SLOTS) {
		child_group_forget(pgid);
		return -1;
	}
	C.watch->group[i] = pgid;
	return 0;
}

void contain_untrack(pid_t pgid)
{
	child_group_forget(pgid);
	if (!C.watch || contain_method() == CONTAIN_NONE)
		return;
	for (int i = 0; i < WATCH_SLOTS; i++)
		if (C.watch->group[i] == pgid)
			C.watch->group[i] = 0;
}

unsigned contain_sweep(void)
{
	unsigned n = 0;

	switch (contain_method()) {
	case CONTAIN_CGROUP:
		/* Most children leave nothing: one read of cgroup.events says
		 * so (the exited child itself is no member any more). */
		if (cgroup_populated(C.dir, C.events_fd)) {
			n = (unsigned)cgroup_count(C.dir);
			cgroup_kill(C.dir);
			cgroup_wait_empty(C.dir, C.events_fd, SETTLE_NS);
		}
		break;
	case CONTAIN_SUBREAPER:
		n = subreaper_kill();
		break;
	default:
		break;
	}
	reap_zombies();
	return n;
}

/* ---- out-of-memory kills ------------------------------------------------- */

int contain_parse_oom_kills(const char *text, uint64_t *count)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *end;
		unsigned long long v;

		if (strncmp(p, "oom_kill ", 9) != 0)
			continue;
		if (p[9] < '0' || p[9] > '9')
			return -1;
		errno = 0;
		v = strtoull(p + 9, &end, 10);
		if (errno || (*end && *end != '\n'))
			return -1;
		*count = v;
		return 0;
	}
	return -1;
}

int contain_oom_kills(uint64_t *count)
{
	char text[1024];
	ssize_t n;

	if (contain_method() != CONTAIN_CGROUP || !C.dir[0])
		return -1;
	if (!C.oom_tried) {
		/* The container's own counter when the memory controller is enabled
		 * for it, else the one of the cgroup plumb runs in (which holds it). */
		char parent[PATH_MAX];
		char *slash;

		C.oom_tried = 1;
		C.oom_fd = open_in(C.dir, "memory.events", O_RDONLY);
		snprintf(parent, sizeof(parent), "%s", C.dir);
		if (C.oom_fd < 0 && (slash = strrchr(parent, '/')) != NULL) {
			*slash = '\0';
			C.oom_fd = open_in(parent, "memory.events", O_RDONLY);
		}
	}
	if (C.oom_fd < 0)
		return -1;
	n = pread(C.oom_fd, text, sizeof(text) - 1, 0);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	return contain_parse_oom_kills(text, count);
}
