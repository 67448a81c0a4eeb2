/*
 * runner/host.h: the host facts of DESIGN §8, the comparability
 * fingerprint, and the readiness check behind `plumb host --check`.
 *
 * Facts are read from /proc and /sys under a root prefix (PLUMB_SYSROOT,
 * default "/"), so tests can point plumb at a fake tree.  A fact that
 * cannot be read is unknown (NULL, HOST_NA, HOST_UNKNOWN; JSON null), never
 * guessed; a file that exists but cannot be parsed also adds a note naming
 * it.  The JSON form (host_facts_to_json) is what run manifests store as
 * host.start and host.end: its keys are documented in docs/host-facts.md
 * and are a stable contract.
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
 * Ownership: struct host_facts and struct host_check are caller-owned
 * storage; host_facts_init()/host_check_init() set them up and
 * host_facts_release()/host_check_release() free every string they hold.
 * Strings returned by host_fingerprint() live as long as the facts.
 */
#ifndef PLUMB_RUNNER_HOST_H
#define PLUMB_RUNNER_HOST_H

#include <limits.h>
#include <stddef.h>

#include <jansson.h>

struct buf;
struct plumb_err;

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

/* Set every fact to unknown. */
void host_facts_init(struct host_facts *hf);

/* Free every string; the facts are unknown again. */
void host_facts_release(struct host_facts *hf);

/*
 * Read every fact.  The root is PLUMB_SYSROOT (default "/"); a root that is
 * not a folder is PLUMB_EINPUT "PLUMB_SYSROOT: <root>: no such folder".
 * The compiler is `$CC --version` (else `cc --version`) run on this
 * machine with a timeout, unless PLUMB_HOST_NO_CC is set and not empty.
 * Unreadable or malformed files never fail the call: they leave the fact
 * unknown and add a note.  hf must be freshly initialized.
 */
int host_facts_collect(struct host_facts *hf, struct plumb_err *err);

/* What plumb run reads at the start of every round (run.conditions). */
struct host_round {
	int has_load;
	double load[3];                 /* 1, 5 and 15-minute load averages */
	long long cur_min_khz, cur_max_khz;   /* scaling_cur_freq over the CPUs; HOST_NA unknown */
};

/*
 * Read the load average and the range of the CPUs' current frequencies
 * (under PLUMB_SYSROOT, as the facts are).  Cheap, never fails: what
 * cannot be read is unknown.
 */
void host_round_sample(struct host_round *out);

/*
 * kernel.perf_event_paranoid under PLUMB_SYSROOT, as the facts read it;
 * HOST_NA when it cannot be read.  Never fails.
 */
long long host_perf_paranoid(void);

/* The fingerprint (16 lower-case hex digits); "" before collection. */
const char *host_fingerprint(const struct host_facts *hf);

/*
 * The canonical text the fingerprint hashes (see docs/host-facts.md):
 * appended to out.  Returns 0, or -1 when out is full.
 */
int host_fingerprint_input(const struct host_facts *hf, struct buf *out);

/* Compute hf->fingerprint from the facts. */
int host_fingerprint_update(struct host_facts *hf, struct plumb_err *err);

/* The facts as a new JSON object (keys of docs/host-facts.md); NULL on OOM. */
json_t *host_facts_to_json(const struct host_facts *hf);


/* The readiness check. */
enum host_level {
	HOST_NOTE,     /* informational: never fails --strict */
	HOST_WARNING   /* a confound: --strict fails */
};

struct host_finding {
	const char *id;        /* "governor", "turbo", ... (static) */
	enum host_level level;
	char *message;
	char *fix;             /* one line */
	int allowed;           /* a warning host_check_allow() allowed: --strict passes it */
};

struct host_check {
	struct host_finding *items;
	size_t n;
	size_t warnings;       /* warnings not allowed: --strict fails on these */
	size_t notes;
	size_t allowed;        /* warnings allowed (--allow, host.allow) */
};

/* Every id a finding can have, in the order of docs/host-facts.md. */
extern const char *const host_check_ids[];
extern const size_t host_check_nids;

/*
 * Allow the warnings named in list ("virt,isolation", commas or spaces):
 * they stay in the findings, marked allowed, and no longer count as
 * warnings.  A name that is no id is PLUMB_EARG naming where ("--allow",
 * "plumb.conf: host.allow") and the known names.  hc may be NULL to check
 * the names only.
 */
int host_check_allow(struct host_check *hc, const char *where, const char *list,
		     struct plumb_err *err);

void host_check_init(struct host_check *hc);
void host_check_release(struct host_check *hc);

/* Judge the facts; findings come in a fixed order (docs/host-facts.md). */
int host_check_run(const struct host_facts *hf, struct host_check *hc,
		   struct plumb_err *err);

/* {"warnings": N, "notes": N, "items": [{id, level, message, fix}]}; NULL on OOM. */
json_t *host_check_to_json(const struct host_check *hc);

#endif
