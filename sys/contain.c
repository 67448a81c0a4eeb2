/*
 * sys/contain.c: the container of plumb's children (cgroup v2 of its
 * own, else a subreaper's sweep); see contain.h for the guarantees.
 *
 * Separate from proc.c because it is process-wide state (one cgroup per
 * plumb process, made once, removed at exit) where proc.c is one child's
 * life, and because what dead plumbs left is cleaned here before the
 * first child of a new one starts.
 *
 * Why a cgroup rather than the process group proc.c already makes: a
 * daemon calls setsid() and leaves both the group and the session; a
 * cgroup cannot be left without privileges plumb's children do not use,
 * and cgroup.kill kills it whole, new forks included.  Why plumb is a
 * subreaper in both methods: what it kills becomes its zombie to reap,
 * not init's, and without a cgroup it is the only way to find the
 * descendants at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "sys/contain.h"
#include "common/banned.h"

#define CG_PREFIX "plumb."
#define KILL_ROUNDS_NS (5ull * 1000000000ull)   /* bound of a kill loop */
#define SETTLE_NS (2ull * 1000000000ull)        /* bound of waiting for empty */
#define MAX_KIDS 4096

static struct {
	int done;                  /* contain_init() ran in this process */
	int rc;                    /* and returned this */
	struct plumb_err err;      /* with this message */
	pid_t owner;               /* getpid() of that process */
	enum contain_method method;
	char reason[PLUMB_ERR_MAX];
	char dir[PATH_MAX];        /* cgroup2: plumb's own cgroup folder */
	int procs_fd;              /* cgroup2: its cgroup.procs, for the children */
	int dir_fd;                /* cgroup2: the folder, for clone3's CLONE_INTO_CGROUP */
	int events_fd;             /* cgroup2: its cgroup.events */
} C = { .procs_fd = -1, .events_fd = -1, .dir_fd = -1 };

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

/* The pids of a cgroup.procs text into v (at most max); how many there are. */
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

/* The pids in the cgroup folder dir (count returned, at most max kept). */
static size_t cgroup_pids(const char *dir, pid_t *v, size_t max)
{
	char path[PATH_MAX + 32];
	static char text[65536];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	if (read_small(path, text, sizeof(text)) < 0)
		return 0;
	return parse_pids(text, v, max);
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

/*
 * Kill everything in the cgroup at dir: cgroup.kill (Linux 5.14), else
 * SIGKILL to each pid it lists, round after round.  Returns how many
 * processes it held at the start.
 */
static unsigned cgroup_kill(const char *dir)
{
	pid_t v[256];
	size_t n = cgroup_pids(dir, v, 256);
	unsigned first = (unsigned)n;
	uint64_t until = clock_now_ns() + KILL_ROUNDS_NS;
	int fd;

	if (n == 0)
		return 0;
	fd = open_in(dir, "cgroup.kill", O_WRONLY);
	if (fd >= 0) {
		ssize_t w = write(fd, "1", 1);
		close(fd);
		if (w == 1)
			return first;
	}
	while (n > 0 && clock_now_ns() < until) {
		struct timespec ts = { 0, 1000000 };
		for (size_t i = 0; i < n && i < 256; i++)
			kill(v[i], SIGKILL);
		nanosleep(&ts, NULL);
		n = cgroup_pids(dir, v, 256);
	}
	return first;
}

/*
 * Wait until the cgroup is empty (poll on cgroup.events), at most bound ns;
 * nonzero when it was empty from the first look (one read).
 */
static int cgroup_wait_empty(const char *dir, int events_fd, uint64_t bound)
{
	uint64_t until = clock_now_ns() + bound;
	int first = 1;

	while (cgroup_populated(dir, events_fd)) {
		uint64_t now = clock_now_ns();
		first = 0;
		if (now >= until)
			return 0;
		if (events_fd >= 0) {
			/* cgroup.events signals a change as POLLPRI. */
			struct pollfd p = { events_fd, POLLPRI, 0 };
			int ms = (int)((until - now) / 1000000) + 1;
			if (poll(&p, 1, ms > 10 ? 10 : ms) < 0 && errno != EINTR)
				return 0;
		} else {
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
		}
	}
	return first;
}

/* Reap every zombie child there is now; only once plumb's own child is reaped. */
static void reap_zombies(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/*
 * What plumbs killed outright left under parent: every "plumb.<pid>.<start>"
 * whose process is gone (or is another process now) is killed and removed.
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
		cgroup_kill(path);
		cgroup_wait_empty(path, -1, SETTLE_NS);
		rmdir(path);
	}
	closedir(d);
	reap_zombies();
}

/*
 * The probe child created in the cgroup (dir_fd) by clone3's
 * CLONE_INTO_CGROUP, as the benchmarks' children will be (sys/proc.c):
 * the kernel checks the same permissions as for a join, without the move
 * of a running process, whose wait for an RCU grace period (10 to 20 ms
 * here) every containment paid once, every build worker's included.  A
 * fork-like clone3 (no shared memory), so the child may return from the
 * system call in C; it only exits.  Its pid once reaped (status set), -1
 * when it cannot be reaped, 0 when this probe gives no answer (clone3
 * refused for any reason: ENOSYS, E2BIG before Linux 5.7, a seccomp
 * filter, a permission; or the child killed at birth): probe by a join.
 */
static pid_t probe_born_in(int dir_fd, int *status)
{
#ifdef SYS_clone3
	struct contain_clone_args a;
	long r;

	if (dir_fd < 0)
		return 0;
	memset(&a, 0, sizeof(a));
	a.flags = CLONE_INTO_CGROUP;
	a.exit_signal = SIGCHLD;
	a.cgroup = (uint64_t)dir_fd;
	r = syscall(SYS_clone3, &a, sizeof(a));
	if (r == 0)
		_exit(0);
	if (r < 0)
		return 0;
	while (waitpid((pid_t)r, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	/* Killed at birth (see spawn_child() in proc.c): not an answer. */
	return WIFEXITED(*status) ? (pid_t)r : 0;
#else
	(void)dir_fd;
	(void)status;
	return 0;
#endif
}

static int try_cgroup(char *why, size_t why_size)
{
	struct buf mi, cg;
	struct plumb_err ferr;
	char parent[PATH_MAX], name[96];
	int r, status = 0;
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
	C.dir_fd = open(C.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	C.events_fd = open_in(C.dir, "cgroup.events", O_RDONLY);
	if (C.procs_fd < 0) {
		snprintf(why, why_size, "%.900s/cgroup.procs: open: %s", C.dir, strerror(errno));
		goto fail;
	}
	/* Joining can still be refused (a delegation that does not reach
	 * plumb's own cgroup): try it with a child that only joins. */
	pid = probe_born_in(C.dir_fd, &status);
	if (pid == 0) {
		pid = fork();
		if (pid == 0)
			_exit(contain_child_join(C.procs_fd) ? 1 : 0);
		if (pid > 0 && waitpid(pid, &status, 0) != pid)
			pid = -1;
	}
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, why_size, "%.900s/cgroup.procs: a child cannot join it", C.dir);
		goto fail;
	}
	return 0;
fail:
	if (C.procs_fd >= 0)
		close(C.procs_fd);
	if (C.events_fd >= 0)
		close(C.events_fd);
	if (C.dir_fd >= 0)
		close(C.dir_fd);
	C.procs_fd = C.events_fd = C.dir_fd = -1;
	rmdir(C.dir);
	C.dir[0] = '\0';
	return -1;
}

/* ---- subreaper ------------------------------------------------------------ */

/*
 * plumb's children now: /proc/self/task/TID/children of every thread, or
 * (a kernel without CONFIG_PROC_CHILDREN) a scan of /proc for the ppid.
 */
static size_t list_children(pid_t *v, size_t max)
{
	char path[320];
	static char text[65536];
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	size_t n = 0;
	int have = 0;
	pid_t me = getpid();

	if (d) {
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
	}
	if (have)
		return n < max ? n : max;
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL && n < max) {
		char stat[1024], *p;
		long ppid;
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (read_small(path, stat, sizeof(stat)) <= 0 || !(p = strrchr(stat, ')')))
			continue;
		/* ") S PPID ..." */
		if (sscanf(p + 1, " %*c %ld", &ppid) == 1 && ppid == (long)me)
			v[n++] = (pid_t)strtol(e->d_name, NULL, 10);
	}
	closedir(d);
	return n;
}

/* Kill plumb's children but child, round after round, until none is left. */
static unsigned subreaper_kill(pid_t child)
{
	static pid_t seen[MAX_KIDS];
	pid_t kids[MAX_KIDS];
	size_t nseen = 0;
	uint64_t until = clock_now_ns() + KILL_ROUNDS_NS;

	for (;;) {
		size_t n = list_children(kids, MAX_KIDS);
		int others = 0;
		for (size_t i = 0; i < n; i++) {
			size_t j;
			if (kids[i] == child)
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

/* ---- the interface ------------------------------------------------------- */

/* The cache of contain_self_pid(); reset in a forked child. */
static pid_t self_pid;

static void self_forget(void)
{
	self_pid = 0;
}

pid_t contain_self_pid(void)
{
	static int registered;

	if (!registered && pthread_atfork(NULL, NULL, self_forget) == 0)
		registered = 1;
	if (!self_pid || !registered)
		self_pid = getpid();
	return self_pid;
}

void contain_release(void)
{
	if (!C.done || C.owner != contain_self_pid())
		return;
	if (C.method == CONTAIN_CGROUP && C.dir[0]) {
		cgroup_kill(C.dir);
		cgroup_wait_empty(C.dir, C.events_fd, SETTLE_NS);
		rmdir(C.dir);
	} else if (C.method == CONTAIN_SUBREAPER) {
		subreaper_kill(0);
	}
	reap_zombies();
	if (C.method == CONTAIN_CGROUP) {
		if (C.procs_fd >= 0)
			close(C.procs_fd);
		if (C.events_fd >= 0)
			close(C.events_fd);
		if (C.dir_fd >= 0)
			close(C.dir_fd);
		C.procs_fd = C.events_fd = C.dir_fd = -1;
		C.dir[0] = '\0';
	}
}

static void contain_exit(void)
{
	contain_release();
}

int contain_init(struct plumb_err *err)
{
	const char *want;
	char why[PLUMB_ERR_MAX];
	static int registered;

	if (C.done && C.owner == contain_self_pid()) {
		if (C.rc < 0 && err)
			*err = C.err;
		return C.rc;
	}
	/* Read once per process, here: proc_run() calls this for every run. */
	want = getenv("PLUMB_CONTAIN");
	memset(&C, 0, sizeof(C));
	C.procs_fd = C.events_fd = C.dir_fd = -1;
	C.done = 1;
	C.owner = contain_self_pid();
	plumb_err_clear(&C.err);
	if (want && *want && strcmp(want, "auto") != 0 && strcmp(want, "cgroup") != 0 &&
	    strcmp(want, "subreaper") != 0) {
		C.rc = plumb_err_set(&C.err, PLUMB_EINPUT, "PLUMB_CONTAIN: '%.40s' is not "
				     "auto, cgroup or subreaper", want);
		goto out;
	}
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
	if (!registered && atexit(contain_exit) == 0)
		registered = 1;
out:
	if (C.rc < 0 && err)
		*err = C.err;
	return C.rc;
}

enum contain_method contain_method(void)
{
	return C.done && C.owner == contain_self_pid() && C.rc == 0 ? C.method : CONTAIN_NONE;
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

int contain_cgroup_fd(void)
{
	return contain_method() == CONTAIN_CGROUP ? C.dir_fd : -1;
}

int contain_child_join(int fd)
{
	if (fd < 0)
		return 0;
	/* "0" is the writer itself; lseek is meaningless on cgroup.procs. */
	return write(fd, "0", 1) == 1 ? 0 : errno;
}

unsigned contain_kill(pid_t child, int *alone)
{
	int dummy;

	if (!alone)
		alone = &dummy;
	*alone = 0;
	switch (contain_method()) {
	case CONTAIN_CGROUP:
		/* Most children leave nothing: one read of cgroup.events says
		 * so (the exited child itself is no member any more). */
		if (cgroup_populated(C.dir, C.events_fd))
			return cgroup_kill(C.dir);
		*alone = 1;
		return 0;
	case CONTAIN_SUBREAPER:
		return subreaper_kill(child);
	default:
		return 0;
	}
}

unsigned contain_settle(pid_t child, int alone)
{
	unsigned n = 0;

	/* Empty at the child's exit (alone): nothing could start anything
	 * since, and there is nothing to wait for; a descendant that had
	 * exited before is still a zombie of plumb's to reap. */
	if (!alone && contain_method() == CONTAIN_CGROUP) {
		/* cgroup.kill is asynchronous: what contain_kill() killed may
		 * still be listed for a moment, and must not count twice. */
		if (!cgroup_wait_empty(C.dir, C.events_fd, 100000000ull)) {
			n = cgroup_kill(C.dir);
			cgroup_wait_empty(C.dir, C.events_fd, SETTLE_NS);
		}
	} else if (!alone) {
		n = contain_kill(child, NULL);
	}
	reap_zombies();
	return n;
}
