/*
 * runner/host.h: reading the host facts of DESIGN §8 (struct host_facts,
 * runner/host-types.h) from this machine or a fixture tree, and the few
 * facts plumb run reads again at every round.  Their JSON form and the
 * comparability fingerprint are runner/host-json.h's, the readiness check
 * behind `plumb host --check` runner/host-check.h's.
 *
 * Facts are read from /proc and /sys under a root prefix (PLUMB_SYSROOT,
 * default "/"), so tests can point plumb at a fake tree.  A fact that
 * cannot be read is unknown (NULL, HOST_NA, HOST_UNKNOWN; JSON null), never
 * guessed; a file that exists but cannot be parsed also adds a note naming
 * it.
 *
 * Ownership: struct host_facts is caller-owned storage; host_facts_init()
 * sets it up and host_facts_release() frees every string it holds.
 * struct host_round is plain caller-owned storage.
 */
#ifndef PLUMB_RUNNER_HOST_H
#define PLUMB_RUNNER_HOST_H

#include "runner/host-types.h"

struct plumb_err;

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

#endif
