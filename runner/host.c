/*
 * runner/host.c: reading the host facts of DESIGN §8 from /proc and /sys
 * under PLUMB_SYSROOT.  Every read is bounded; a missing file leaves its
 * fact unknown, an unreadable or malformed one also adds a note naming
 * it, and nothing is ever inferred from a neighbouring fact that the
 * kernel did not state (the frequency of a VM without cpufreq is unknown,
 * not "the cpuinfo MHz").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/utf8.h"
#include "runner/host.h"
#include "runner/host-json.h"
#include "runner/host-parse.h"
#include "runner/host-probe.h"
#include "common/banned.h"

/* Size limits of the files read (STYLE 8). */
#define LIMIT_ATTR     4096            /* one sysfs attribute */
#define LIMIT_TEXT     (64 * 1024)     /* meminfo, os-release, cmdline */
#define LIMIT_CPUINFO  (8 * 1024 * 1024)

#define CPU_DIR "sys/devices/system/cpu"

struct reader {
	const char *root;          /* "" for the live machine, else the prefix */
	struct host_facts *hf;
	int oom;
	struct cpuset cpus;        /* the CPUs whose folders are read */
	char *cpuinfo;             /* proc/cpuinfo text, or NULL */
	long long *pkg;            /* package id of each of cpus, -1 unknown */
};

void host_facts_init(struct host_facts *hf)
{
	memset(hf, 0, sizeof(*hf));
	hf->logical_cpus = hf->physical_cores = hf->packages = HOST_NA;
	hf->smt = hf->turbo = hf->virtualized = hf->hypervisor_flag = HOST_UNKNOWN;
	hf->min_khz = hf->max_khz = HOST_NA;
	hf->scaling_min_khz = hf->scaling_max_khz = HOST_NA;
	hf->cur_min_khz = hf->cur_max_khz = HOST_NA;
	hf->aslr = hf->perf_paranoid = HOST_NA;
	hf->mem_total_kb = hf->mem_available_kb = HOST_NA;
	hf->swap_total_kb = hf->swap_free_kb = HOST_NA;
	hf->core_throttle = hf->package_throttle = HOST_NA;
}

void host_facts_release(struct host_facts *hf)
{
	char **strs[] = {
		&hf->hostname, &hf->os_name, &hf->os_id, &hf->os_version_id,
		&hf->kernel_release, &hf->cmdline, &hf->isolcpus, &hf->nohz_full,
		&hf->isolated_cpus, &hf->cpu_vendor, &hf->cpu_model,
		&hf->microcode, &hf->online_cpus, &hf->smt_control, &hf->driver,
		&hf->governor, &hf->epp, &hf->pstate_status, &hf->turbo_source,
		&hf->hypervisor_type, &hf->clocksource, &hf->perf_cycles,
		&hf->thp, &hf->compiler_command, &hf->compiler,
	};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(*strs[i]);
	for (size_t i = 0; i < hf->nnotes; i++)
		free(hf->notes[i]);
	free(hf->notes);
	host_facts_init(hf);
}

/* Add "<fmt>" to the notes. */
static void note(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct reader *r, const char *fmt, ...)
{
	struct host_facts *hf = r->hf;
	struct buf b;
	char **nv;
	va_list ap;

	buf_init(&b, 4096);
	va_start(ap, fmt);
	if (buf_vprintf(&b, fmt, ap) < 0 && errno == ENOMEM) {
		va_end(ap);
		r->oom = 1;
		return;
	}
	va_end(ap);
	nv = realloc(hf->notes, (hf->nnotes + 1) * sizeof(*nv));
	if (!nv) {
		buf_release(&b);
		r->oom = 1;
		return;
	}
	hf->notes = nv;
	hf->notes[hf->nnotes] = buf_detach(&b, NULL);
	if (!hf->notes[hf->nnotes]) {
		r->oom = 1;
		return;
	}
	hf->nnotes++;
}

/* Record the outcome of a parser for rel: -2 is out of memory. */
static void parsed(struct reader *r, int rc, const char *rel, const char *what)
{
	if (rc == -2)
		r->oom = 1;
	else if (rc < 0)
		note(r, "/%s: malformed (%s)", rel, what);
}

/*
 * Read root/rel into out (reset first): 1 read, 0 missing (no note),
 * -1 unreadable (noted).
 */
static int read_rel(struct reader *r, const char *rel, size_t max, struct buf *out)
{
	struct plumb_err err;
	struct stat st;
	char path[4096];
	size_t plen;
	int n;

	buf_reset(out);
	n = snprintf(path, sizeof(path), "%s/%s", r->root, rel);
	if (n < 0 || (size_t)n >= sizeof(path))
		return 0;
	if (stat(path, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		note(r, "/%s: %s", rel, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		note(r, "/%s: is a folder", rel);
		return -1;
	}
	plumb_err_clear(&err);
	if (file_read(path, max, out, &err) < 0) {
		if (err.code == PLUMB_EINTERNAL) {
			r->oom = 1;
			return -1;
		}
		/* The message starts with the full path: show the in-root one. */
		plen = strlen(path);
		if (strncmp(err.msg, path, plen) == 0)
			note(r, "/%s%s", rel, err.msg + plen);
		else
			note(r, "/%s: %s", rel, err.msg);
		return -1;
	}
	if (memchr(out->data, '\0', out->len)) {
		note(r, "/%s: malformed (binary data)", rel);
		return -1;
	}
	return 1;
}

/* A whole number in [lo, hi] from one file: 1 ok, 0 missing, -1 noted. */
static int read_ll(struct reader *r, const char *rel, long long lo, long long hi,
		   long long *out)
{
	struct buf b;
	long long v;
	int rc;

	buf_init(&b, LIMIT_ATTR);
	rc = read_rel(r, rel, LIMIT_ATTR, &b);
	if (rc == 1) {
		if (host_parse_ll(b.data, &v) < 0 || v < lo || v > hi) {
			note(r, "/%s: malformed (expected a whole number from %lld to %lld)",
			     rel, lo, hi);
			rc = -1;
		} else {
			*out = v;
		}
	}
	buf_release(&b);
	return rc;
}

/* A one-word value: 1 ok, 0 missing, -1 noted. */
static int read_token(struct reader *r, const char *rel, char **out)
{
	struct buf b;
	int rc;

	*out = NULL;
	buf_init(&b, LIMIT_ATTR);
	rc = read_rel(r, rel, LIMIT_ATTR, &b);
	if (rc == 1) {
		int p = host_parse_token(b.data, out);
		if (p < 0) {
			parsed(r, p, rel, "expected one word");
			rc = -1;
		}
	}
	buf_release(&b);
	return rc;
}

/* One line of text: 1 ok, 0 missing, -1 noted. */
static int read_line(struct reader *r, const char *rel, size_t max, char **out)
{
	struct buf b;
	int rc;

	*out = NULL;
	buf_init(&b, max);
	rc = read_rel(r, rel, max, &b);
	if (rc == 1) {
		char *nl = strchr(b.data, '\n');
		int p;
		/* A trailing newline ends the line; anything after it is wrong. */
		if (nl && nl[1] != '\0') {
			note(r, "/%s: malformed (more than one line)", rel);
			rc = -1;
		} else if ((p = host_parse_line(b.data, out)) < 0) {
			parsed(r, p, rel, "expected one line of text");
			rc = -1;
		}
	}
	buf_release(&b);
	return rc;
}

/* A CPU list file, formatted canonically ("" for none): 1/0/-1. */
static int read_cpulist(struct reader *r, const char *rel, struct cpuset *set,
			char **text)
{
	struct buf b;
	int rc;

	set->v = NULL;
	set->n = 0;
	if (text)
		*text = NULL;
	buf_init(&b, LIMIT_TEXT);
	rc = read_rel(r, rel, LIMIT_TEXT, &b);
	if (rc == 1) {
		int p = host_parse_cpulist(b.data, set);
		if (p < 0) {
			parsed(r, p, rel, "expected a CPU list such as 0-3,8");
			rc = -1;
		} else if (text && host_format_cpulist(set->v, set->n, text) < 0) {
			r->oom = 1;
			rc = -1;
		}
	}
	buf_release(&b);
	return rc;
}

static void cpu_path(char *path, size_t size, int cpu, const char *leaf)
{
	snprintf(path, size, CPU_DIR "/cpu%d/%s", cpu, leaf);
}

/* Text identity: hostname, os-release, kernel, command line. */
static void read_system(struct reader *r)
{
	struct host_facts *hf = r->hf;
	struct buf b;
	const char *osrel = "etc/os-release";
	int rc;

	read_line(r, "proc/sys/kernel/hostname", LIMIT_ATTR, &hf->hostname);
	read_line(r, "proc/sys/kernel/osrelease", LIMIT_ATTR, &hf->kernel_release);

	buf_init(&b, LIMIT_TEXT);
	rc = read_rel(r, osrel, LIMIT_TEXT, &b);
	if (rc == 0) {
		osrel = "usr/lib/os-release";
		rc = read_rel(r, osrel, LIMIT_TEXT, &b);
	}
	if (rc == 1) {
		static const char *keys[] = { "PRETTY_NAME", "ID", "VERSION_ID" };
		char **outs[] = { &hf->os_name, &hf->os_id, &hf->os_version_id };
		for (size_t i = 0; i < 3; i++) {
			int p = host_os_release_field(b.data, keys[i], outs[i]);
			if (p == -2)
				r->oom = 1;
			else if (p < 0)
				note(r, "/%s: malformed %s", osrel, keys[i]);
		}
	}
	buf_release(&b);

	/* /proc/cmdline: one line, NUL-free; parameters after "--" go to init. */
	if (read_line(r, "proc/cmdline", LIMIT_TEXT, &hf->cmdline) == 1) {
		const char *names[] = { "isolcpus", "nohz_full" };
		char **outs[] = { &hf->isolcpus, &hf->nohz_full };
		for (size_t i = 0; i < 2; i++) {
			int p = host_cmdline_param(hf->cmdline, names[i], outs[i]);
			if (p == 0 && !(*outs[i] = strdup("")))
				r->oom = 1;
			else if (p < 0)
				parsed(r, p, "proc/cmdline", names[i]);
		}
	}
	{
		struct cpuset iso;
		read_cpulist(r, CPU_DIR "/isolated", &iso, &hf->isolated_cpus);
		cpuset_release(&iso);
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The cpuN folders, for when the online list cannot be read. */
static void list_cpu_dirs(struct reader *r)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	size_t cap = 0;

	snprintf(path, sizeof(path), "%s/" CPU_DIR, r->root);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		long long n;
		if (strncmp(de->d_name, "cpu", 3) != 0 || host_parse_ll(de->d_name + 3, &n) < 0 ||
		    n < 0 || n > HOST_MAX_CPU || de->d_name[3] == '-' || de->d_name[3] == ' ')
			continue;
		if (r->cpus.n == cap) {
			int *nv;
			cap = cap ? 2 * cap : 16;
			nv = realloc(r->cpus.v, cap * sizeof(*nv));
			if (!nv) {
				r->oom = 1;
				break;
			}
			r->cpus.v = nv;
		}
		r->cpus.v[r->cpus.n++] = (int)n;
	}
	closedir(d);
	if (r->cpus.n)
		qsort(r->cpus.v, r->cpus.n, sizeof(*r->cpus.v), cmp_int);
}

/* CPU identity and topology: model, counts, SMT, microcode, hypervisor flag. */
static void read_cpus(struct reader *r)
{
	struct host_facts *hf = r->hf;
	struct buf b;
	int rc;

	rc = read_cpulist(r, CPU_DIR "/online", &r->cpus, &hf->online_cpus);
	if (rc == 1 && r->cpus.n == 0) {
		note(r, "/" CPU_DIR "/online: malformed (no CPU online)");
		free(hf->online_cpus);
		hf->online_cpus = NULL;
		rc = -1;
	}
	if (rc == 1)
		hf->logical_cpus = (long long)r->cpus.n;
	else
		list_cpu_dirs(r);

	buf_init(&b, LIMIT_CPUINFO);
	if (read_rel(r, "proc/cpuinfo", LIMIT_CPUINFO, &b) == 1) {
		static const char *keys[] = { "vendor_id", "model name", "microcode" };
		char **outs[] = { &hf->cpu_vendor, &hf->cpu_model, &hf->microcode };
		for (size_t i = 0; i < 3; i++) {
			int p = host_cpuinfo_field(b.data, keys[i], outs[i]);
			if (p == -2)
				r->oom = 1;
			else if (p < 0)
				note(r, "/proc/cpuinfo: malformed %s", keys[i]);
		}
		hf->hypervisor_flag = host_cpuinfo_has_flag(b.data, "hypervisor");
		if (hf->hypervisor_flag < 0)
			hf->hypervisor_flag = HOST_UNKNOWN;  /* no x86 flags line */
		if (hf->logical_cpus == HOST_NA && host_cpuinfo_count(b.data) > 0)
			hf->logical_cpus = host_cpuinfo_count(b.data);
		r->cpuinfo = buf_detach(&b, NULL);
		if (!r->cpuinfo)
			r->oom = 1;
	}
	buf_release(&b);

	/* Physical cores: distinct thread sibling sets; packages: distinct ids. */
	if (r->cpus.n) {
		char **sib = calloc(r->cpus.n, sizeof(*sib));
		long long *pkg = malloc(r->cpus.n * sizeof(*pkg));
		int all = 1, wide = 0;
		r->pkg = pkg;
		if (!sib || !pkg) {
			r->oom = 1;
		} else {
			for (size_t i = 0; i < r->cpus.n; i++) {
				char path[256];
				struct cpuset set;
				cpu_path(path, sizeof(path), r->cpus.v[i], "topology/thread_siblings_list");
				if (read_cpulist(r, path, &set, &sib[i]) != 1 || set.n == 0) {
					all = 0;
				} else if (set.n > 1) {
					wide = 1;
				}
				cpuset_release(&set);
				cpu_path(path, sizeof(path), r->cpus.v[i], "topology/physical_package_id");
				pkg[i] = -1;
				if (read_ll(r, path, 0, 1LL << 31, &pkg[i]) != 1)
					all = 0;
			}
			if (all && hf->logical_cpus == (long long)r->cpus.n) {
				long long cores = 0, pkgs = 0;
				for (size_t i = 0; i < r->cpus.n; i++) {
					size_t j;
					for (j = 0; j < i; j++)
						if (strcmp(sib[j], sib[i]) == 0)
							break;
					cores += j == i;
					for (j = 0; j < i; j++)
						if (pkg[j] == pkg[i])
							break;
					pkgs += j == i;
				}
				hf->physical_cores = cores;
				hf->packages = pkgs;
				hf->smt = wide ? HOST_YES : HOST_NO;
			}
		}
		for (size_t i = 0; sib && i < r->cpus.n; i++)
			free(sib[i]);
		free(sib);
	}
	if (hf->physical_cores == HOST_NA && r->cpuinfo) {
		long long cores, pkgs;
		if (host_cpuinfo_cores(r->cpuinfo, &cores, &pkgs) == 0 &&
		    hf->logical_cpus != HOST_NA) {
			hf->physical_cores = cores;
			hf->packages = pkgs;
			hf->smt = cores < hf->logical_cpus ? HOST_YES : HOST_NO;
		}
	}

	/* The kernel's own SMT switch wins over what the topology suggests. */
	{
		long long active;
		rc = read_ll(r, CPU_DIR "/smt/active", 0, 1, &active);
		if (rc == 1)
			hf->smt = active ? HOST_YES : HOST_NO;
		else if (rc < 0)
			hf->smt = HOST_UNKNOWN;
		read_token(r, CPU_DIR "/smt/control", &hf->smt_control);
	}
}

/* Per-CPU values of one cpufreq file, summarized into *out. */
static void per_cpu_summary(struct reader *r, const char *leaf, char **out)
{
	char **vals = calloc(r->cpus.n ? r->cpus.n : 1, sizeof(*vals));

	*out = NULL;
	if (!vals) {
		r->oom = 1;
		return;
	}
	for (size_t i = 0; i < r->cpus.n; i++) {
		char path[256];
		cpu_path(path, sizeof(path), r->cpus.v[i], leaf);
		read_token(r, path, &vals[i]);
	}
	if (host_summarize(vals, r->cpus.v, r->cpus.n, out) < 0)
		r->oom = 1;
	for (size_t i = 0; i < r->cpus.n; i++)
		free(vals[i]);
	free(vals);
}

/*
 * Lowest and highest value of a per-CPU number; both unknown unless every
 * CPU has it.  Every CPU is read, so each malformed file gets its note.
 */
static void per_cpu_range(struct reader *r, const char *leaf, long long limit,
			  long long *lo, long long *hi)
{
	long long min = HOST_NA, max = HOST_NA;
	int gap = r->cpus.n == 0;

	for (size_t i = 0; i < r->cpus.n; i++) {
		char path[256];
		long long v;
		cpu_path(path, sizeof(path), r->cpus.v[i], leaf);
		if (read_ll(r, path, 0, limit, &v) != 1) {
			gap = 1;
			continue;
		}
		if (min == HOST_NA || v < min)
			min = v;
		if (max == HOST_NA || v > max)
			max = v;
	}
	if (lo)
		*lo = gap ? HOST_NA : min;
	if (hi)
		*hi = gap ? HOST_NA : max;
}

/* Frequency scaling: driver, governor, EPP, limits, turbo. */
static void read_cpufreq(struct reader *r)
{
	struct host_facts *hf = r->hf;
	const long long fmax = 1000LL * 1000 * 1000;  /* 1 THz in kHz */
	long long v;
	int rc;

	per_cpu_summary(r, "cpufreq/scaling_driver", &hf->driver);
	per_cpu_summary(r, "cpufreq/scaling_governor", &hf->governor);
	per_cpu_summary(r, "cpufreq/energy_performance_preference", &hf->epp);
	per_cpu_range(r, "cpufreq/cpuinfo_min_freq", fmax, &hf->min_khz, NULL);
	per_cpu_range(r, "cpufreq/cpuinfo_max_freq", fmax, NULL, &hf->max_khz);
	per_cpu_range(r, "cpufreq/scaling_min_freq", fmax, &hf->scaling_min_khz, NULL);
	per_cpu_range(r, "cpufreq/scaling_max_freq", fmax, NULL, &hf->scaling_max_khz);
	per_cpu_range(r, "cpufreq/scaling_cur_freq", fmax, &hf->cur_min_khz, &hf->cur_max_khz);

	if (read_token(r, CPU_DIR "/intel_pstate/status", &hf->pstate_status) == 0)
		read_token(r, CPU_DIR "/amd_pstate/status", &hf->pstate_status);

	/*
	 * Turbo, most specific source first: intel_pstate's no_turbo; the
	 * per-policy boost of amd-pstate (and of cpufreq since 6.11); the
	 * global cpufreq boost of acpi-cpufreq.  A malformed source stops
	 * the search: the answer is then unknown, not another file's.
	 */
	rc = read_ll(r, CPU_DIR "/intel_pstate/no_turbo", 0, 1, &v);
	if (rc == 1) {
		hf->turbo = v ? HOST_NO : HOST_YES;
		hf->turbo_source = strdup("/" CPU_DIR "/intel_pstate/no_turbo");
	}
	if (rc == 0 && r->cpus.n) {
		int any = 0, on = 0, gap = 0;
		for (size_t i = 0; i < r->cpus.n; i++) {
			char path[256];
			int one;
			cpu_path(path, sizeof(path), r->cpus.v[i], "cpufreq/boost");
			one = read_ll(r, path, 0, 1, &v);
			if (one == 1) {
				any = 1;
				on |= v == 1;
			} else {
				gap = 1;
				if (one < 0)
					rc = -1;
			}
		}
		if (any && !gap) {
			hf->turbo = on ? HOST_YES : HOST_NO;
			hf->turbo_source = strdup("/" CPU_DIR "/cpu*/cpufreq/boost");
			rc = 1;
		} else if (any) {
			rc = -1;
		}
	}
	if (rc == 0) {
		rc = read_ll(r, CPU_DIR "/cpufreq/boost", 0, 1, &v);
		if (rc == 1) {
			hf->turbo = v ? HOST_YES : HOST_NO;
			hf->turbo_source = strdup("/" CPU_DIR "/cpufreq/boost");
		}
	}
	if (rc == 1 && !hf->turbo_source)
		r->oom = 1;
}

/*
 * Thermal throttle counts (Intel only): core counts add up over CPUs; a
 * package count is repeated by every CPU of the package, so it is taken
 * once per package id.  A count is known only when every CPU has it.
 */
static void read_throttle(struct reader *r)
{
	struct host_facts *hf = r->hf;
	long long core = 0, pkg = 0;
	long long *seen;
	size_t nseen = 0, have = 0;
	int core_ok = 1, pkg_ok = 1;

	if (r->cpus.n == 0)
		return;
	seen = malloc(r->cpus.n * sizeof(*seen));
	if (!seen) {
		r->oom = 1;
		return;
	}
	for (size_t i = 0; i < r->cpus.n; i++) {
		char path[256];
		long long c, p, id = r->pkg ? r->pkg[i] : -1;
		int rc1, rc2;
		size_t j;

		cpu_path(path, sizeof(path), r->cpus.v[i], "thermal_throttle/core_throttle_count");
		rc1 = read_ll(r, path, 0, 1LL << 53, &c);
		cpu_path(path, sizeof(path), r->cpus.v[i], "thermal_throttle/package_throttle_count");
		rc2 = read_ll(r, path, 0, 1LL << 53, &p);
		if (rc1 == 0 && rc2 == 0)
			continue;
		have++;
		if (rc1 == 1)
			core += c;
		else
			core_ok = 0;
		if (rc2 != 1 || id < 0) {
			pkg_ok = 0;
			continue;
		}
		for (j = 0; j < nseen && seen[j] != id; j++)
			;
		if (j == nseen) {
			seen[nseen++] = id;
			pkg += p;
		}
	}
	free(seen);
	if (have == 0)
		return;
	if (have < r->cpus.n) {
		note(r, "/" CPU_DIR "/cpu*/thermal_throttle: present on %zu of %zu CPUs",
		     have, r->cpus.n);
		return;
	}
	if (core_ok)
		hf->core_throttle = core;
	if (pkg_ok)
		hf->package_throttle = pkg;
}

/* Virtualization, clock, ASLR, perf, THP, load, memory, throttling. */
static void read_platform(struct reader *r)
{
	struct host_facts *hf = r->hf;
	struct buf b;
	int rc;

	rc = read_token(r, "sys/hypervisor/type", &hf->hypervisor_type);
	if (hf->hypervisor_flag == HOST_YES || hf->hypervisor_type)
		hf->virtualized = HOST_YES;
	else if (hf->hypervisor_flag == HOST_NO && rc == 0)
		hf->virtualized = HOST_NO;

	read_token(r, "sys/devices/system/clocksource/clocksource0/current_clocksource",
		   &hf->clocksource);
	read_ll(r, "proc/sys/kernel/randomize_va_space", 0, 2, &hf->aslr);
	read_ll(r, "proc/sys/kernel/perf_event_paranoid", -1000, 1000, &hf->perf_paranoid);

	buf_init(&b, LIMIT_TEXT);
	if (read_rel(r, "sys/kernel/mm/transparent_hugepage/enabled", LIMIT_ATTR, &b) == 1)
		parsed(r, host_parse_bracketed(b.data, &hf->thp),
		       "sys/kernel/mm/transparent_hugepage/enabled",
		       "expected one [bracketed] choice");
	if (read_rel(r, "proc/loadavg", LIMIT_ATTR, &b) == 1) {
		if (host_parse_loadavg(b.data, hf->load) == 0)
			hf->has_load = 1;
		else
			note(r, "/proc/loadavg: malformed (expected three load averages)");
	}
	if (read_rel(r, "proc/meminfo", LIMIT_TEXT, &b) == 1) {
		static const char *keys[] = { "MemTotal", "MemAvailable", "SwapTotal", "SwapFree" };
		long long *outs[] = { &hf->mem_total_kb, &hf->mem_available_kb,
				      &hf->swap_total_kb, &hf->swap_free_kb };
		for (size_t i = 0; i < 4; i++)
			if (host_meminfo_kb(b.data, keys[i], outs[i]) < 0)
				note(r, "/proc/meminfo: malformed %s", keys[i]);
	}
	buf_release(&b);

	read_throttle(r);
}

/*
 * Whether a cycles counter can be had.  On the live machine: by trying.
 * Under a fake root, from its files: no CPU PMU among the event sources
 * means not supported; perf_event_paranoid above 2 forbids even
 * user-space counting of one's own processes to unprivileged users.
 */
static void read_perf(struct reader *r)
{
	struct host_facts *hf = r->hf;
	const char *answer = NULL;

	if (!*r->root) {
		answer = host_probe_perf_cycles();
	} else {
		static const char *pmus[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3" };
		char path[4096];
		struct stat st;
		int have_dir, have_pmu = 0;

		snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices", r->root);
		have_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		for (size_t i = 0; have_dir && i < sizeof(pmus) / sizeof(pmus[0]); i++) {
			snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/%s",
				 r->root, pmus[i]);
			if (stat(path, &st) == 0)
				have_pmu = 1;
		}
		if (have_dir && !have_pmu)
			answer = "not supported";
		else if (hf->perf_paranoid != HOST_NA && hf->perf_paranoid > 2)
			answer = "not permitted";
		else if (have_pmu && hf->perf_paranoid != HOST_NA)
			answer = "available";
	}
	if (answer && !(hf->perf_cycles = strdup(answer)))
		r->oom = 1;
}

static void read_compiler(struct reader *r)
{
	struct host_facts *hf = r->hf;
	const char *skip = getenv("PLUMB_HOST_NO_CC");
	const char *cc = getenv("CC");
	char *why = NULL;
	int rc;

	if (skip && *skip)
		return;
	if (!cc || !*cc)
		cc = "cc";
	if (!utf8_ok(cc, strlen(cc), UTF8_NAME) || strlen(cc) > 1024) {
		note(r, "compiler: $CC is not one line of text");
		return;
	}
	hf->compiler_command = strdup(cc);
	if (!hf->compiler_command) {
		r->oom = 1;
		return;
	}
	rc = host_probe_compiler(cc, &hf->compiler, &why);
	if (rc == -2)
		r->oom = 1;
	if (why)
		note(r, "compiler: '%s --version': %s", cc, why);
	free(why);
}

/* The root from PLUMB_SYSROOT: "" for the live machine, else the prefix. */
static int resolve_root(char **root, struct plumb_err *err)
{
	const char *env = getenv("PLUMB_SYSROOT");
	struct stat st;
	size_t len;

	*root = NULL;
	if (!env || !*env)
		env = "/";
	len = strlen(env);
	while (len > 0 && env[len - 1] == '/')
		len--;
	if (stat(env, &st) < 0)
		return plumb_err_set(err, PLUMB_EINPUT, "PLUMB_SYSROOT: %s: no such folder", env);
	if (!S_ISDIR(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "PLUMB_SYSROOT: %s: not a folder", env);
	*root = strndup(env, len);
	if (!*root)
		return plumb_err_oom(err, "PLUMB_SYSROOT");
	return 0;
}

/*
 * The round sampler runs at every round of a run, between measured runs:
 * what it needs is opened once per root (PLUMB_SYSROOT) and kept, and each
 * round costs one pread() per file (/proc/loadavg, each CPU's
 * scaling_cur_freq) instead of a stat, an open, two reads and a close of
 * each plus the CPU list and the root again.
 *
 * The load averages are read at most once in LOAD_REREAD_NS and the
 * reading is reused by the rounds in between: the kernel recomputes them
 * every 5 seconds (LOAD_FREQ), so a round of a microsecond benchmark would
 * otherwise pay a read (a few microseconds, between two measured runs)
 * for the number the previous round already had.  A round's load is thus
 * at most that old; the frequencies, which change from one moment to the
 * next, are read every round.
 */
#define LOAD_REREAD_NS 250000000ull   /* a quarter of a second */

static struct {
	char *env;             /* the PLUMB_SYSROOT the files are of ("" for none) */
	int load_fd;
	int *freq_fd;          /* one per CPU; -1 for one without the file */
	size_t nfreq;
	int freq_gap;          /* a CPU without it: frequencies unknown */
	uint64_t load_at;      /* when the load below was read (0: never) */
	double load[3];
} RS = { NULL, -1, NULL, 0, 1, 0, { 0, 0, 0 } };

static void round_sampler_close(void)
{
	if (RS.load_fd >= 0)
		close(RS.load_fd);
	for (size_t i = 0; i < RS.nfreq; i++)
		if (RS.freq_fd[i] >= 0)
			close(RS.freq_fd[i]);
	free(RS.freq_fd);
	free(RS.env);
	RS.env = NULL;
	RS.load_fd = -1;
	RS.freq_fd = NULL;
	RS.nfreq = 0;
	RS.freq_gap = 1;
	RS.load_at = 0;
}

/* Open what the sampler reads under the root env names; 0, or -1 (no root). */
static int round_sampler_open(const char *env)
{
	struct host_facts hf;
	struct plumb_err err;
	struct reader r;
	char *root, *online = NULL, path[4096];

	round_sampler_close();
	RS.env = strdup(env);
	if (!RS.env)
		return -1;
	plumb_err_clear(&err);
	if (resolve_root(&root, &err) != 0)
		return -1;
	host_facts_init(&hf);
	memset(&r, 0, sizeof(r));
	r.root = root;
	r.hf = &hf;
	if (read_cpulist(&r, CPU_DIR "/online", &r.cpus, &online) != 1 || r.cpus.n == 0)
		list_cpu_dirs(&r);
	snprintf(path, sizeof(path), "%s/proc/loadavg", root);
	RS.load_fd = open(path, O_RDONLY | O_CLOEXEC);
	RS.freq_gap = r.cpus.n == 0;
	if (r.cpus.n > 0) {
		RS.freq_fd = malloc(r.cpus.n * sizeof(*RS.freq_fd));
		if (!RS.freq_fd)
			RS.freq_gap = 1;
	}
	for (size_t i = 0; RS.freq_fd && i < r.cpus.n; i++) {
		char rel[256];
		cpu_path(rel, sizeof(rel), r.cpus.v[i], "cpufreq/scaling_cur_freq");
		snprintf(path, sizeof(path), "%s/%s", root, rel);
		RS.freq_fd[RS.nfreq++] = open(path, O_RDONLY | O_CLOEXEC);
		if (RS.freq_fd[RS.nfreq - 1] < 0)
			RS.freq_gap = 1;
	}
	free(online);
	cpuset_release(&r.cpus);
	host_facts_release(&hf);
	free(root);
	return 0;
}

/* The text of an open sysfs or proc file, read from its start; -1 on failure. */
static ssize_t pread_text(int fd, char *text, size_t size)
{
	ssize_t n = fd >= 0 ? pread(fd, text, size - 1, 0) : -1;

	if (n < 0)
		return -1;
	text[n] = '\0';
	return n;
}

void host_round_sample(struct host_round *out)
{
	const char *env = getenv("PLUMB_SYSROOT");
	long long min = HOST_NA, max = HOST_NA;
	uint64_t now;
	char text[256];

	memset(out, 0, sizeof(*out));
	out->cur_min_khz = out->cur_max_khz = HOST_NA;
	if (!env)
		env = "";
	if ((!RS.env || strcmp(RS.env, env) != 0) && round_sampler_open(env) < 0)
		return;
	now = clock_now_ns();
	if (RS.load_at && now - RS.load_at < LOAD_REREAD_NS) {
		memcpy(out->load, RS.load, sizeof(out->load));
		out->has_load = 1;
	} else if (pread_text(RS.load_fd, text, sizeof(text)) > 0 &&
		   host_parse_loadavg(text, out->load) == 0) {
		out->has_load = 1;
		memcpy(RS.load, out->load, sizeof(RS.load));
		RS.load_at = now;
	} else {
		RS.load_at = 0;   /* unreadable now: asked again next round */
	}
	if (RS.freq_gap)
		return;
	for (size_t i = 0; i < RS.nfreq; i++) {
		long long v;
		if (pread_text(RS.freq_fd[i], text, sizeof(text)) <= 0 ||
		    host_parse_ll(text, &v) < 0 || v < 0 || v > 1000LL * 1000 * 1000)
			return;   /* one CPU unknown: the range is unknown */
		if (min == HOST_NA || v < min)
			min = v;
		if (max == HOST_NA || v > max)
			max = v;
	}
	out->cur_min_khz = min;
	out->cur_max_khz = max;
}

long long host_perf_paranoid(void)
{
	struct host_facts hf;
	struct plumb_err err;
	struct reader r;
	long long v = HOST_NA;
	char *root;

	plumb_err_clear(&err);
	if (resolve_root(&root, &err) != 0)
		return HOST_NA;
	host_facts_init(&hf);
	memset(&r, 0, sizeof(r));
	r.root = root;
	r.hf = &hf;
	read_ll(&r, "proc/sys/kernel/perf_event_paranoid", -1000, 1000, &v);
	host_facts_release(&hf);
	free(root);
	return v;
}

int host_facts_collect(struct host_facts *hf, struct plumb_err *err)
{
	struct reader r;
	char *root;
	int rc;

	rc = resolve_root(&root, err);
	if (rc)
		return rc;
	memset(&r, 0, sizeof(r));
	r.root = root;
	r.hf = hf;
	hf->live = *root == '\0';

	read_system(&r);
	read_cpus(&r);
	read_cpufreq(&r);
	read_platform(&r);
	read_perf(&r);
	read_compiler(&r);

	cpuset_release(&r.cpus);
	free(r.cpuinfo);
	free(r.pkg);
	free(root);
	if (r.oom)
		return plumb_err_oom(err, "host facts");
	return host_fingerprint_update(hf, err);
}
