/*
 * runner/host-types.h: the host facts of DESIGN §8 as one struct, and the
 * constants that say a fact is unknown, shared by the files that read
 * them (runner/host.c), write them as JSON and fingerprint them
 * (runner/host-json.c), judge them (runner/host-check.c) and name an
 * unknown perf_event_paranoid (runner/perf.c); no .c file of its own.
 *
 * To add a host fact (what the build and the tests demand):
 *   1. its member in struct host_facts below: a string also in the list
 *      host_facts_release() frees, a number set to HOST_NA and a yes/no
 *      to HOST_UNKNOWN by host_facts_init() (runner/host.c);
 *   2. its reading in runner/host.c, under the root prefix: unknown when
 *      it cannot be read, a note naming a file that cannot be parsed;
 *   3. its key in its group of host_facts_to_json() (runner/host-json.c);
 *   4. its row in docs/host-facts.md's table of facts (the dotted key, its
 *      JSON type, its source), and the key's last part in docs/plumb.1's
 *      `plumb host` section (t5003: plumb host --json has exactly the
 *      documented keys, and plumb(1) names each);
 *   5. its value in every assertion that compares its group whole, in
 *      t5000 (one per fixture tree, tests/fixtures/hosts/, which
 *      generate.sh writes: give the trees its file) and for load, memory,
 *      thermal and compiler in t5002 (grep -n '\] == {' lists them);
 *   6. when `plumb host` shows it (views/host.c): its line in t5000's
 *      table of intel-laptop.
 * A fact that decides comparability changes the fingerprint of every host
 * (formats/fingerprint.c: a new first line, docs/host-facts.md "The
 * fingerprint", tests/integration/fingerprint.py, t5000's fingerprints)
 * and is compared in reports/hostdiff.c; the others are recorded and shown
 * only.
 *
 * Ownership: struct host_facts is caller-owned storage; host_facts_init()
 * sets it up and host_facts_release() frees every string it holds
 * (runner/host.h).
 */
#ifndef PLUMB_RUNNER_HOST_TYPES_H
#define PLUMB_RUNNER_HOST_TYPES_H

#include <limits.h>
#include <stddef.h>

/* An unknown number. */
#define HOST_NA LLONG_MIN

/* A yes/no fact that may be unknown. */
enum host_tri {
	HOST_UNKNOWN = -1,
	HOST_NO = 0,
	HOST_YES = 1
};

/* Size of a fingerprint: 16 hex digits and a NUL. */
#define HOST_FINGERPRINT_LEN 17

/* Version of the JSON object (its "version" key). */
#define HOST_FACTS_VERSION 1

struct host_facts {
	int live;                  /* read from this machine (no PLUMB_SYSROOT) */
	char *hostname;
	char *os_name;             /* os-release PRETTY_NAME */
	char *os_id;
	char *os_version_id;
	char *kernel_release;
	char *cmdline;
	char *isolcpus;            /* isolcpus= value, "" when not on the cmdline */
	char *nohz_full;           /* nohz_full= value, "" when not on the cmdline */
	char *isolated_cpus;       /* sys/devices/system/cpu/isolated, "" for none */
	char *cpu_vendor;
	char *cpu_model;
	char *microcode;
	char *online_cpus;         /* "0-15" */
	long long logical_cpus;
	long long physical_cores;
	long long packages;
	int smt;                   /* enum host_tri */
	char *smt_control;
	/* Per-CPU facts, summarized: "v" when all agree, else "v1:0-3 v2:4-7". */
	char *driver;
	char *governor;
	char *epp;
	char *pstate_status;       /* intel_pstate/status or amd_pstate/status */
	long long min_khz, max_khz;            /* cpuinfo_{min,max}_freq */
	long long scaling_min_khz, scaling_max_khz;
	long long cur_min_khz, cur_max_khz;    /* scaling_cur_freq over CPUs */
	int turbo;                 /* enum host_tri */
	char *turbo_source;        /* the file turbo was read from */
	int virtualized;           /* enum host_tri */
	int hypervisor_flag;       /* enum host_tri */
	char *hypervisor_type;
	char *clocksource;
	long long aslr;            /* randomize_va_space */
	long long perf_paranoid;
	char *perf_cycles;         /* "available", "not permitted", "not supported" */
	char *thp;                 /* the [bracketed] value */
	double load[3];
	int has_load;
	long long mem_total_kb, mem_available_kb;
	long long swap_total_kb, swap_free_kb;
	long long core_throttle, package_throttle;
	char *compiler_command;
	char *compiler;            /* first line of `$CC --version` */
	char fingerprint[HOST_FINGERPRINT_LEN];
	char **notes;              /* "<path>: <what went wrong>" */
	size_t nnotes;
};

#endif
