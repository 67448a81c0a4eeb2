/*
 * runner/build-jobs.c: building variants at the same time (build.jobs);
 * see build-internal.h for the interface.
 *
 * Which variants may build at once: those of different build folders.
 * Every variant of a side builds in its tree's one folder (build/<tree
 * id>, the identical-path rule of build.c), and its relinks start from
 * the side's pad 0, so a side's variants build one after another, in
 * order, and the sides (two trees, two folders) build side by side: one
 * track per side.  An A/A candidate pad (one tree) is no build: it waits
 * for the base pad it copies.
 *
 * How: each variant builds in a worker, a fork of plumb that makes the
 * variant exactly as the one-at-a-time path does (the callback) and sends
 * back what it changed in the variant.  A worker is a process of its own
 * so that it has a container of its own (sys/contain.h: its own cgroup,
 * or its own subreaper sweep): what a finished build leaves running is
 * killed without touching a sibling build, and a worker reaps only its own
 * children.  The worker is its own process group, registered with
 * common/cleanup.h: a signal to plumb reaches it, and it stops its build
 * the way plumb stops any child.
 *
 * The first failure stops the others: the running workers get SIGTERM,
 * stop their builds (killed, their leftovers killed, everything reaped)
 * and are reaped before this returns with the first error; nothing starts
 * after it.  Every worker has ended when build_jobs_run() returns, so no
 * build runs while anything is measured.
 *
 * The wire, worker to plumb: messages of a head (type, length) and a body:
 * 'E' an event (runner/event.h: struct wire_event, then its strings), 'C' the variant's command, 'T' the failed build's
 * log tail, 'R' the outcome (struct outcome), last.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/cleanup.h"
#include "common/err.h"
#include "common/fileio.h"
#include "runner/build-internal.h"
#include "runner/build-variant.h"
#include "sys/contain.h"
#include "common/banned.h"

struct head {
	uint32_t type, len;
};

/* What a worker changed in its variant, and how the callback ended. */
struct outcome {
	int r;
	struct plumb_err err;
	int built, cached, shell;
	unsigned reused;
	char same_as[4];
	uint64_t prepare_ns, build_ns, size;
	unsigned left_behind;
	char sha256[65];
	char cache_key[65];
};

struct slot {
	pid_t pid;           /* 0: free */
	int fd;              /* the read end of its pipe */
	size_t at;           /* the variant's index in the order */
	struct buf in;       /* bytes not parsed yet */
	int got_outcome;
	int stopped;         /* sent SIGTERM: once only (a second one is a hard exit) */
	struct outcome out;
};

unsigned build_jobs_auto(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* ---- the worker ------------------------------------------------------ */

static int wire_fd = -1;    /* the worker's write end */

static void send_msg(uint32_t type, const void *data, size_t len)
{
	struct head h = { type, (uint32_t)len };
	struct plumb_err e;

	plumb_err_clear(&e);
	if (write_all(wire_fd, &h, sizeof(h), "build worker", &e) == 0 && len)
		write_all(wire_fd, data, len, "build worker", &e);
}

/* An event on the wire: the struct with its pointers cleared, the lengths
 * of its strings (subject, label, detail, text; -1 for NULL), then the
 * strings one after another.  A build's events carry no list and no commit. */
struct wire_event {
	struct runner_event ev;
	int32_t len[4];
};

static void forward_event(void *ctx, const struct runner_event *ev)
{
	const char *str[4] = { ev->subject, ev->label, ev->detail, ev->text };
	struct wire_event w;
	struct buf b;

	(void)ctx;
	memset(&w, 0, sizeof(w));
	w.ev = *ev;   /* its numbers; the pointers mean nothing in plumb */
	w.ev.commit = w.ev.subject = w.ev.label = w.ev.detail = w.ev.text = NULL;
	w.ev.items = NULL;
	w.ev.nitems = 0;
	for (int i = 0; i < 4; i++)
		w.len[i] = str[i] ? (int32_t)strnlen(str[i], 1 << 20) : -1;
	buf_init(&b, 8u << 20);
	if (buf_add(&b, &w, sizeof(w)) == 0) {
		for (int i = 0; i < 4; i++)
			if (w.len[i] > 0)
				(void)buf_add(&b, str[i], (size_t)w.len[i]);
		send_msg('E', b.data, b.len);
	}
	buf_release(&b);
}

/* The event a worker sent (forward_event()), handed to opts; a malformed one is dropped. */
static void receive_event(const struct runner_opts *opts, const char *body, size_t len)
{
	char *str[4] = { NULL, NULL, NULL, NULL };
	struct wire_event w;
	size_t off = sizeof(w);
	int ok = len >= sizeof(w);

	if (ok)
		memcpy(&w, body, sizeof(w));
	for (int i = 0; ok && i < 4; i++) {
		if (w.len[i] < 0)
			continue;
		if ((size_t)w.len[i] > len - off || !(str[i] = strndup(body + off, (size_t)w.len[i])))
			ok = 0;
		else
			off += (size_t)w.len[i];
	}
	if (ok) {
		w.ev.subject = str[0];
		w.ev.label = str[1];
		w.ev.detail = str[2];
		w.ev.text = str[3];
		runner_event_send(opts->event, opts->event_ctx, &w.ev);
	}
	for (int i = 0; i < 4; i++)
		free(str[i]);
}

static void send_str(uint32_t type, const char *s)
{
	if (s)
		send_msg(type, s, strlen(s));
}

static void __attribute__((noreturn))
worker(const struct build_jobs *J, struct runner_variant *v, int keep, struct slot *slots,
       unsigned nslots, pid_t parent)
{
	struct runner_opts fwd = { forward_event, NULL, NULL };
	struct outcome o;

	/* Only plumb may stop this worker; the other workers are not its own. */
	for (unsigned k = 0; k < nslots; k++)
		if (slots[k].pid > 0) {
			child_group_forget(slots[k].pid);
			close(slots[k].fd);
		}
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	memset(&o, 0, sizeof(o));
	plumb_err_clear(&o.err);
	free(J->res->log_tail);
	J->res->log_tail = NULL;
	o.r = J->realize(J->ctx, v, keep, &fwd, &o.err);
	o.built = v->built;
	o.cached = v->cached;
	o.reused = v->reused;
	o.shell = v->shell;
	memcpy(o.same_as, v->same_as, sizeof(o.same_as));
	o.prepare_ns = v->prepare_ns;
	o.build_ns = v->build_ns;
	o.size = v->size;
	o.left_behind = v->left_behind;
	memcpy(o.sha256, v->sha256, sizeof(o.sha256));
	memcpy(o.cache_key, v->cache_key, sizeof(o.cache_key));
	send_str('C', v->command);
	if (o.r < 0)
		send_str('T', J->res->log_tail);
	send_msg('R', &o, sizeof(o));
	close(wire_fd);
	/* Its own container goes (what is left in it killed); plumb's stays. */
	contain_release();
	_exit(0);
}

/* ---- plumb's side ---------------------------------------------------- */

/* Whether order[i] may start: its track is free and what it needs is built. */
static int ready(const struct build_jobs *J, const unsigned char *state, size_t i)
{
	const struct runner_variant *v = J->order[i];

	for (size_t j = 0; j < i; j++) {
		const struct runner_variant *w = J->order[j];
		if (state[j] == 2)
			continue;
		if (w->side == v->side)
			return 0;   /* one folder: in order */
		if (J->same_tree && v->side != RUNNER_BASE && !v->control && w->side == RUNNER_BASE &&
		    !w->control && w->pad == v->pad)
			return 0;   /* A/A: the copy of that base pad */
	}
	return 1;
}

static int start(const struct build_jobs *J, struct slot *slots, unsigned nslots,
		 struct slot *s, size_t at, struct plumb_err *err)
{
	int p[2];
	pid_t pid, parent = getpid();

	if (pipe2(p, O_CLOEXEC) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, "pipe", "create");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return plumb_err_errno(err, PLUMB_EIO, e, J->order[at]->id, "fork a build worker");
	}
	if (pid == 0) {
		close(p[0]);
		wire_fd = p[1];
		worker(J, J->order[at], J->keep_export[at], slots, nslots, parent);
	}
	close(p[1]);
	setpgid(pid, pid);
	child_group_register(pid);
	s->pid = pid;
	s->fd = p[0];
	s->at = at;
	s->got_outcome = 0;
	s->stopped = 0;
	buf_init(&s->in, 64u << 20);
	return 0;
}

/* Hand on every complete message in s->in. */
static int parse(struct build_jobs *J, struct slot *s, struct plumb_err *err)
{
	struct runner_variant *v = J->order[s->at];
	size_t off = 0;
	int r = 0;

	while (s->in.len - off >= sizeof(struct head)) {
		struct head h;
		const char *body;
		memcpy(&h, s->in.data + off, sizeof(h));
		if (s->in.len - off - sizeof(h) < h.len)
			break;
		body = s->in.data + off + sizeof(h);
		off += sizeof(h) + h.len;
		if (h.type == 'E' && J->opts) {
			receive_event(J->opts, body, h.len);
		} else if (h.type == 'C') {
			free(v->command);
			if (!(v->command = strndup(body, h.len)))
				r = plumb_err_oom(err, "build worker");
		} else if (h.type == 'T') {
			free(J->tail);
			J->tail = strndup(body, h.len);
		} else if (h.type == 'R' && h.len == sizeof(s->out)) {
			memcpy(&s->out, body, sizeof(s->out));
			s->got_outcome = 1;
		}
	}
	memmove(s->in.data, s->in.data + off, s->in.len - off);
	s->in.len -= off;
	return r;
}

/* The worker in s ended (its pipe closed): reap it, take its outcome. */
static int finish(const struct build_jobs *J, struct slot *s, struct plumb_err *err)
{
	struct runner_variant *v = J->order[s->at];
	int status = 0, r;

	close(s->fd);
	s->fd = -1;
	while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	child_group_forget(s->pid);
	s->pid = 0;
	buf_release(&s->in);
	if (!s->got_outcome) {
		char name[96];
		build_variant_name(v, name, sizeof(name));
		return plumb_err_set(err, PLUMB_EINTERNAL, "%s: its build worker ended without an outcome (%s %d)",
				     name, WIFSIGNALED(status) ? "signal" : "exit status",
				     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	}
	v->built = s->out.built;
	v->cached = s->out.cached;
	v->reused = s->out.reused;
	v->shell = s->out.shell;
	memcpy(v->same_as, s->out.same_as, sizeof(v->same_as));
	v->prepare_ns = s->out.prepare_ns;
	v->build_ns = s->out.build_ns;
	v->size = s->out.size;
	v->left_behind = s->out.left_behind;
	memcpy(v->sha256, s->out.sha256, sizeof(v->sha256));
	v->sha256[sizeof(v->sha256) - 1] = '\0';
	memcpy(v->cache_key, s->out.cache_key, sizeof(v->cache_key));
	v->cache_key[sizeof(v->cache_key) - 1] = '\0';
	r = s->out.r;
	if (r < 0)
		*err = s->out.err;
	return r;
}

int build_jobs_run(struct build_jobs *J, struct plumb_err *err)
{
	unsigned nslots = J->jobs < 1 ? 1 : J->jobs > 64 ? 64 : J->jobs, running = 0;
	unsigned char *state;        /* 0 waiting, 1 building, 2 built */
	struct slot *slots;
	int r = 0, stopping = 0;

	if (J->n == 0)
		return 0;
	state = calloc(J->n, 1);
	slots = calloc(nslots, sizeof(*slots));
	if (!state || !slots) {
		free(state);
		free(slots);
		return plumb_err_oom(err, "build jobs");
	}
	for (unsigned k = 0; k < nslots; k++)
		slots[k].fd = -1;
	for (;;) {
		struct pollfd pfd[64];
		unsigned which[64], np = 0;

		if (!stopping && cleanup_signal_pending()) {
			stopping = 1;
			if (r == 0)
				r = plumb_err_set(err, PLUMB_EINTERNAL, "the builds: stopped by signal %d",
						  cleanup_signal_pending());
		}
		for (size_t i = 0; i < J->n && !stopping && running < nslots; i++) {
			unsigned k;
			if (state[i] != 0 || !ready(J, state, i))
				continue;
			for (k = 0; k < nslots && slots[k].pid; k++)
				;
			if ((r = start(J, slots, nslots, &slots[k], i, err)) < 0) {
				stopping = 1;
				break;
			}
			state[i] = 1;
			running++;
		}
		/* The others stop as plumb's children do on a signal: SIGTERM once
		 * (plumb's own handler sent it already when a signal came). */
		if (stopping)
			for (unsigned k = 0; k < nslots; k++)
				if (slots[k].pid > 0 && !slots[k].stopped) {
					slots[k].stopped = 1;
					if (!cleanup_signal_pending())
						kill(slots[k].pid, SIGTERM);
				}
		if (running == 0)
			break;
		for (unsigned k = 0; k < nslots; k++)
			if (slots[k].pid > 0 && np < 64) {
				pfd[np].fd = slots[k].fd;
				pfd[np].events = POLLIN;
				which[np++] = k;
			}
		if (poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			if (r == 0)
				r = plumb_err_errno(err, PLUMB_EINTERNAL, errno, "build workers", "poll");
			stopping = 1;
			continue;
		}
		for (unsigned q = 0; q < np; q++) {
			struct slot *s = &slots[which[q]];
			char chunk[65536];
			ssize_t got;
			struct plumb_err e;
			int fr;

			if (!(pfd[q].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			got = read(s->fd, chunk, sizeof(chunk));
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			plumb_err_clear(&e);
			if (got > 0) {
				if ((buf_add(&s->in, chunk, (size_t)got) < 0 || parse(J, s, &e) < 0) && r == 0) {
					r = plumb_err_oom(err, "build worker");
					stopping = 1;
				}
				continue;
			}
			/* End of the pipe: the worker is done. */
			parse(J, s, &e);
			state[s->at] = 2;
			running--;
			fr = finish(J, s, &e);
			if (fr < 0 && r == 0 && !stopping) {
				/* The first failure is the run's; the others stop. */
				*err = e;
				r = fr;
				J->failed = J->order[s->at];
				free(J->res->log_tail);
				J->res->log_tail = J->tail;
				J->tail = NULL;
				stopping = 1;
			}
		}
	}
	free(J->tail);
	J->tail = NULL;
	free(state);
	free(slots);
	return r;
}
