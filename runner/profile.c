/*
 * runner/profile.c: software-clock sampling of a benchmark; see profile.h.
 */
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/err.h"
#include "runner/elfsym.h"
#include "runner/profile.h"
#include "common/banned.h"

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

/* Unmap and close every CPU's event. */
static void detach(struct profile *p)
{
	for (size_t c = 0; c < p->ncpu; c++) {
		if (p->ring && p->ring[c])
			munmap(p->ring[c], p->ring_size);
		if (p->fd && p->fd[c] >= 0)
			close(p->fd[c]);
	}
	free(p->ring);
	free(p->fd);
	p->ring = NULL;
	p->fd = NULL;
	p->ncpu = 0;
}

int profile_attach(struct profile *p, pid_t pid, struct plumb_err *err)
{
	struct perf_event_attr attr;
	long page = sysconf(_SC_PAGESIZE), ncpu = sysconf(_SC_NPROCESSORS_CONF);
	size_t opened = 0;
	int e = 0;

	if (ncpu < 1)
		ncpu = 1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = PROFILE_PERIOD_NS;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;   /* children too: mapped per CPU, which the kernel allows */
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.mmap = 1;
	p->fd = malloc((size_t)ncpu * sizeof(*p->fd));
	p->ring = calloc((size_t)ncpu, sizeof(*p->ring));
	if (!p->fd || !p->ring) {
		detach(p);
		return plumb_err_oom(err, "profile");
	}
	p->ncpu = (size_t)ncpu;
	p->ring_size = (size_t)page * (1 + PROFILE_RING_PAGES);
	for (size_t c = 0; c < p->ncpu; c++) {
		void *ring;
		p->fd[c] = (int)syscall(SYS_perf_event_open, &attr, pid, (int)c, -1, PERF_FLAG_FD_CLOEXEC);
		if (p->fd[c] < 0) {
			e = errno;   /* an offline CPU: ENODEV; go on with the others */
			continue;
		}
		ring = mmap(NULL, p->ring_size, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd[c], 0);
		if (ring == MAP_FAILED) {
			e = errno;
			close(p->fd[c]);
			p->fd[c] = -1;
			detach(p);
			return plumb_err_set(err, PLUMB_EBENCH, "profile: mmap of the sample buffer of "
					     "CPU %zu: %s", c, strerror(e));
		}
		p->ring[c] = ring;
		opened++;
	}
	if (opened == 0) {
		detach(p);
		return plumb_err_set(err, PLUMB_EBENCH, "profile: perf_event_open(cpu-clock) on pid %ld: %s",
				     (long)pid, strerror(e));
	}
	return 0;
}

void profile_close(struct profile *p)
{
	detach(p);
	free(p->off);
	profile_init(p);
}

/* One mapping of the artifact in one process. */
struct map {
	uint32_t pid;
	uint64_t start, len, pgoff;
};

/* Copy n bytes at logical position pos of the data area (it may wrap). */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t pos, void *dst, size_t n)
{
	uint64_t at = pos % size;
	size_t first = (size_t)(size - at) < n ? (size_t)(size - at) : n;

	memcpy(dst, data + at, first);
	if (first < n)
		memcpy((unsigned char *)dst + first, data, n - first);
}

static int push_off(struct profile *p, uint64_t off)
{
	if (p->n == p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 1024;
		uint64_t *o = realloc(p->off, nc * sizeof(*o));
		if (!o)
			return -1;
		p->off = o;
		p->cap = nc;
	}
	p->off[p->n++] = off;
	return 0;
}

/* What profile_collect() gathers across the CPUs' buffers. */
struct gather {
	struct map *maps;
	size_t nmaps, capmaps;
	const char *real;
};

/* One pass over one CPU's buffer: pass 0 the artifact's mappings, pass 1 the samples. */
static int read_ring(struct profile *p, const struct perf_event_mmap_page *meta, int pass,
		     struct gather *g, struct plumb_err *err)
{
	const unsigned char *data = (const unsigned char *)meta + meta->data_offset;
	uint64_t size = meta->data_size;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	for (uint64_t pos = tail; pos + sizeof(struct perf_event_header) <= head;) {
		struct perf_event_header h;
		unsigned char rec[PATH_MAX + 64];
		ring_copy(data, size, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || pos + h.size > head)
			break;
		if (h.size <= sizeof(rec))
			ring_copy(data, size, pos, rec, h.size);
		if (pass == 0 && h.type == PERF_RECORD_MMAP && h.size <= sizeof(rec) &&
		    h.size > sizeof(h) + 32) {
			/* pid, tid, addr, len, pgoff, filename */
			uint32_t pid;
			uint64_t addr, len, pgoff;
			const char *name = (const char *)rec + sizeof(h) + 32;
			size_t room = h.size - sizeof(h) - 32;
			memcpy(&pid, rec + sizeof(h), 4);
			memcpy(&addr, rec + sizeof(h) + 8, 8);
			memcpy(&len, rec + sizeof(h) + 16, 8);
			memcpy(&pgoff, rec + sizeof(h) + 24, 8);
			if (strnlen(name, room) < room && strcmp(name, g->real) == 0) {
				if (g->nmaps == g->capmaps) {
					size_t nc = g->capmaps ? 2 * g->capmaps : 8;
					struct map *m = realloc(g->maps, nc * sizeof(*m));
					if (!m)
						return plumb_err_oom(err, "profile");
					g->maps = m;
					g->capmaps = nc;
				}
				g->maps[g->nmaps++] = (struct map){ pid, addr, len, pgoff };
			}
		} else if (pass == 1 && h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 16) {
			uint64_t ip;
			uint32_t pid;
			memcpy(&ip, rec + sizeof(h), 8);
			memcpy(&pid, rec + sizeof(h) + 8, 4);
			p->total++;
			for (size_t m = 0; m < g->nmaps; m++)
				if (g->maps[m].pid == pid && ip >= g->maps[m].start &&
				    ip - g->maps[m].start < g->maps[m].len) {
					if (push_off(p, ip - g->maps[m].start + g->maps[m].pgoff) < 0)
						return plumb_err_oom(err, "profile");
					break;
				}
		} else if (pass == 1 && h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;
			memcpy(&lost, rec + sizeof(h) + 8, 8);
			p->lost += lost;
		}
		pos += h.size;
	}
	return 0;
}

int profile_collect(struct profile *p, const char *artifact, struct plumb_err *err)
{
	struct gather g = { NULL, 0, 0, NULL };
	char real[PATH_MAX];
	int rc = 0;

	if (!p->ring)
		return 0;
	if (!realpath(artifact, real))
		snprintf(real, sizeof(real), "%s", artifact);
	g.real = real;
	for (size_t c = 0; c < p->ncpu; c++)
		if (p->fd[c] >= 0)
			ioctl(p->fd[c], PERF_EVENT_IOC_DISABLE, 0);
	/* Two passes over every buffer: a child may map the artifact on one
	 * CPU and run on another. */
	for (int pass = 0; pass < 2 && rc == 0; pass++)
		for (size_t c = 0; c < p->ncpu && rc == 0; c++)
			if (p->ring[c])
				rc = read_ring(p, p->ring[c], pass, &g, err);
	free(g.maps);
	detach(p);
	return rc;
}

void profile_hot_free(struct profile_hot *h, size_t n)
{
	for (size_t i = 0; h && i < n; i++)
		free(h[i].name);
	free(h);
}

static int hot_cmp(const void *a, const void *b)
{
	const struct profile_hot *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

int profile_resolve(const struct profile *p, const char *artifact, double coverage,
		    struct profile_hot **all, size_t *n_all, size_t *n_hot,
		    struct plumb_err *err)
{
	struct elf_image *img = NULL;
	struct profile_hot *h = NULL;
	size_t n = 0, cap = 0;
	uint64_t cum = 0;
	int rc;

	*all = NULL;
	*n_all = *n_hot = 0;
	if (p->n == 0)
		return 0;
	if ((rc = elf_image_open(artifact, &img, err)) < 0)
		return rc;
	for (size_t i = 0; i < p->n; i++) {
		uint64_t va = 0;
		const char *name = NULL;
		size_t k;
		if (elf_image_offset_vaddr(img, p->off[i], &va))
			name = elf_image_symbol_at(img, va, NULL);
		if (!name)
			name = "(unknown)";
		for (k = 0; k < n; k++)
			if (strcmp(h[k].name, name) == 0)
				break;
		if (k == n) {
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 16;
				struct profile_hot *g = realloc(h, nc * sizeof(*g));
				if (!g)
					goto oom;
				h = g;
				cap = nc;
			}
			h[n].name = strdup(name);
			h[n].samples = 0;
			if (!h[n].name)
				goto oom;
			n++;
		}
		h[k].samples++;
	}
	elf_image_free(img);
	qsort(h, n, sizeof(*h), hot_cmp);
	for (size_t k = 0; k < n; k++) {
		h[k].share = (double)h[k].samples / (double)p->n;
		if (*n_hot < PROFILE_MAX_SYMBOLS && (double)cum < coverage * (double)p->n) {
			cum += h[k].samples;
			(*n_hot)++;
		}
	}
	*all = h;
	*n_all = n;
	return 0;
oom:
	elf_image_free(img);
	profile_hot_free(h, n);
	return plumb_err_oom(err, "profile");
}
