/*
 * runner/host-check.c: `plumb host --check`, the readiness rules.  Each
 * rule looks at the facts alone (never at the files), so the same rules
 * judge a live machine, a fixture tree, and the host.start of an old
 * bundle.  Warnings are confounds a benchmark cannot undo (a moving clock,
 * a shared core); notes are worth knowing but never fail --strict.  The
 * rules and thresholds are documented in docs/host-facts.md.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "runner/host-check.h"
#include "runner/host-types.h"
#include "common/banned.h"

const char *const host_check_ids[] = {
	"governor", "turbo", "smt", "aslr", "load", "perf", "virt", "isolation", "thp", "swap",
	"throttle",
};
const size_t host_check_nids = sizeof(host_check_ids) / sizeof(host_check_ids[0]);

static int known_id(const char *s, size_t n)
{
	for (size_t i = 0; i < host_check_nids; i++)
		if (strlen(host_check_ids[i]) == n && strncmp(host_check_ids[i], s, n) == 0)
			return 1;
	return 0;
}

int host_check_allow(struct host_check *hc, const char *where, const char *list,
		     struct plumb_err *err)
{
	const char *p = list ? list : "";

	while (*p) {
		size_t n = strcspn(p, ", \t");
		if (n && !known_id(p, n)) {
			struct buf names, name;
			char raw[65];
			int rc;
			buf_init(&names, 4096);
			buf_init(&name, 256);
			for (size_t i = 0; i < host_check_nids; i++)
				buf_printf(&names, "%s%s", i ? ", " : "", host_check_ids[i]);
			snprintf(raw, sizeof(raw), "%.*s", (int)(n < 64 ? n : 64), p);
			esc_text(&name, raw);   /* the caller's words, never raw */
			rc = plumb_err_set(err, PLUMB_EARG, "%s: '%s' is not the id of a check (%s)", where,
					   buf_cstr(&name), buf_cstr(&names));
			buf_release(&names);
			buf_release(&name);
			return rc;
		}
		for (size_t i = 0; hc && n && i < hc->n; i++) {
			struct host_finding *f = &hc->items[i];
			if (f->level != HOST_WARNING || f->allowed || strlen(f->id) != n ||
			    strncmp(f->id, p, n) != 0)
				continue;
			f->allowed = 1;
			hc->warnings--;
			hc->allowed++;
		}
		p += n;
		p += strspn(p, ", \t");
	}
	return 0;
}

void host_check_init(struct host_check *hc)
{
	memset(hc, 0, sizeof(*hc));
}

void host_check_release(struct host_check *hc)
{
	for (size_t i = 0; i < hc->n; i++) {
		free(hc->items[i].message);
		free(hc->items[i].fix);
	}
	free(hc->items);
	host_check_init(hc);
}

/* Add a finding; the message is formatted, the fix is a plain string. */
static int add(struct host_check *hc, const char *id, enum host_level level,
	       const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int add(struct host_check *hc, const char *id, enum host_level level,
	       const char *fix, const char *fmt, ...)
{
	struct host_finding *nv;
	struct buf b;
	va_list ap;
	int rc;

	buf_init(&b, 4096);
	va_start(ap, fmt);
	rc = buf_vprintf(&b, fmt, ap);
	va_end(ap);
	nv = rc < 0 ? NULL : realloc(hc->items, (hc->n + 1) * sizeof(*nv));
	if (!nv) {
		buf_release(&b);
		return -1;
	}
	hc->items = nv;
	nv[hc->n].id = id;
	nv[hc->n].level = level;
	nv[hc->n].allowed = 0;
	nv[hc->n].message = buf_detach(&b, NULL);
	nv[hc->n].fix = strdup(fix);
	if (!nv[hc->n].message || !nv[hc->n].fix) {
		free(nv[hc->n].message);
		free(nv[hc->n].fix);
		return -1;
	}
	hc->n++;
	if (level == HOST_WARNING)
		hc->warnings++;
	else
		hc->notes++;
	return 0;
}

/* The fix for turbo, written for the file the state was read from. */
static const char *turbo_fix(const char *source)
{
	if (source && strstr(source, "intel_pstate"))
		return "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo";
	if (source && strstr(source, "cpu*"))
		return "echo 0 | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/boost";
	return "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost";
}

int host_check_run(const struct host_facts *hf, struct host_check *hc,
		   struct plumb_err *err)
{
	int bad = 0;

	/* Seed 003: under powersave the clock moves between samples. */
	if (hf->governor && strcmp(hf->governor, "performance") != 0)
		bad |= add(hc, "governor", HOST_WARNING,
			   "echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor",
			   "the CPU scaling governor is %s, not performance: the clock follows the load",
			   hf->governor);
	else if (!hf->governor)
		bad |= add(hc, "governor", HOST_NOTE,
			   "ask the firmware or the hypervisor for a fixed clock",
			   "the CPU scaling governor is unknown (no cpufreq in sysfs)");

	if (hf->turbo == HOST_YES)
		bad |= add(hc, "turbo", HOST_WARNING, turbo_fix(hf->turbo_source),
			   "turbo/boost is on: the clock rises above base while power and heat allow");
	else if (hf->turbo == HOST_UNKNOWN)
		bad |= add(hc, "turbo", HOST_NOTE,
			   "check the firmware setup for turbo/boost",
			   "the turbo/boost state is unknown");

	if (hf->smt == HOST_YES)
		bad |= add(hc, "smt", HOST_WARNING,
			   "echo off | sudo tee /sys/devices/system/cpu/smt/control",
			   "SMT is on: a sibling hardware thread can share the benchmark's core");

	if (hf->aslr != HOST_NA && hf->aslr > 0)
		bad |= add(hc, "aslr", HOST_NOTE,
			   "set aslr = off under [run] in plumb.conf to turn it off for benchmarks only",
			   "ASLR is on (randomize_va_space %lld): stack, heap and library addresses move between runs",
			   hf->aslr);

	if (hf->has_load && hf->logical_cpus != HOST_NA && hf->logical_cpus > 0) {
		double limit = (double)hf->logical_cpus / 4.0;
		char now[UNITS_MAX], most[UNITS_MAX];

		if (limit < 1.0)
			limit = 1.0;
		units_load(hf->load[0], now);
		units_load(limit, most);
		if (hf->load[0] >= limit)
			bad |= add(hc, "load", HOST_WARNING,
				   "wait for other jobs to finish, or run when the machine is idle",
				   "the load average is %s, high for %lld CPUs (limit %s)",
				   now, hf->logical_cpus, most);
	}

	if (hf->perf_cycles && strcmp(hf->perf_cycles, "not supported") == 0)
		bad |= add(hc, "perf", HOST_WARNING,
			   "use metric = wall or cpu, or give the machine a (virtual) PMU",
			   "cycle and instruction counters are not supported (no CPU PMU)");
	else if (hf->perf_cycles && strcmp(hf->perf_cycles, "not permitted") == 0) {
		char level[32] = "unknown";
		if (hf->perf_paranoid != HOST_NA)
			snprintf(level, sizeof(level), "%lld", hf->perf_paranoid);
		bad |= add(hc, "perf", HOST_WARNING,
			   "echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid (in a container: allow perf_event_open)",
			   "cycle and instruction counters are not permitted (perf_event_paranoid %s)",
			   level);
	}

	if (hf->virtualized == HOST_YES) {
		const char *how = hf->hypervisor_type ? hf->hypervisor_type : "hypervisor CPU flag";
		bad |= add(hc, "virt", HOST_WARNING,
			   "benchmark on bare metal, or pin the virtual CPUs to dedicated host cores",
			   "running virtualized (%s): other guests and the hypervisor share the hardware",
			   how);
	}

	if (hf->logical_cpus != HOST_NA && hf->logical_cpus > 1) {
		const char *iso = hf->isolated_cpus ? hf->isolated_cpus : hf->isolcpus;
		if (iso && !*iso)
			bad |= add(hc, "isolation", HOST_WARNING,
				   "boot with isolcpus=N nohz_full=N and set cpu = N under [run] in plumb.conf",
				   "no CPU is isolated: the scheduler may run other tasks on the benchmark's CPU");
	}

	if (hf->thp && strcmp(hf->thp, "always") == 0)
		bad |= add(hc, "thp", HOST_WARNING,
			   "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled",
			   "transparent huge pages are always on: page faults and khugepaged vary run to run");

	if (hf->swap_total_kb != HOST_NA && hf->swap_free_kb != HOST_NA &&
	    hf->swap_total_kb > hf->swap_free_kb) {
		char used[UNITS_MAX];
		units_kib(hf->swap_total_kb - hf->swap_free_kb, used);
		bad |= add(hc, "swap", HOST_WARNING,
			   "free memory, then: sudo swapoff -a && sudo swapon -a",
			   "swap is in use (%s): a benchmark's pages may come back from disk", used);
	}

	if ((hf->core_throttle != HOST_NA && hf->core_throttle > 0) ||
	    (hf->package_throttle != HOST_NA && hf->package_throttle > 0)) {
		char core[32] = "unknown", pkg[32] = "unknown";
		if (hf->core_throttle != HOST_NA)
			snprintf(core, sizeof(core), "%lld", hf->core_throttle);
		if (hf->package_throttle != HOST_NA)
			snprintf(pkg, sizeof(pkg), "%lld", hf->package_throttle);
		bad |= add(hc, "throttle", HOST_WARNING,
			   "improve cooling; compare the counts before and after a run",
			   "thermal throttling seen since boot (%s core, %s package events)",
			   core, pkg);
	}

	if (bad)
		return plumb_err_oom(err, "host check");
	return 0;
}

json_t *host_check_to_json(const struct host_check *hc)
{
	json_t *o = json_object();
	json_t *items = json_array();
	int bad = !o || !items;

	for (size_t i = 0; !bad && i < hc->n; i++) {
		const struct host_finding *f = &hc->items[i];
		json_t *it = json_pack("{s:s, s:s, s:s, s:s, s:b}",
				       "id", f->id,
				       "level", f->level == HOST_WARNING ? "warning" : "note",
				       "message", f->message,
				       "fix", f->fix,
				       "allowed", f->allowed);
		bad |= !it || json_array_append_new(items, it) < 0;
	}
	if (!bad) {
		bad |= json_object_set_new(o, "warnings", json_integer((json_int_t)hc->warnings));
		bad |= json_object_set_new(o, "notes", json_integer((json_int_t)hc->notes));
		bad |= json_object_set_new(o, "allowed", json_integer((json_int_t)hc->allowed));
		bad |= json_object_set_new(o, "items", items);
		items = NULL;
	}
	json_decref(items);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
