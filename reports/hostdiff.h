/*
 * reports/hostdiff.h: are two sets of host facts comparable?
 *
 * Host facts are the JSON objects a manifest keeps as host.start and
 * host.end (keys in docs/host-facts.md, written by runner/host-json.c).
 * A report compares them twice: within one job (start against end) and,
 * against a baseline, the baseline's host against this bundle's.
 *
 *   - CPU model or core count (cpu.model, cpu.logical, cpu.physical_cores)
 *     differ: the sides are not comparable, verdicts are withheld unless
 *     forced;
 *   - kernel, governor, turbo, SMT, microcode or compiler differ: a
 *     warning naming old -> new;
 *   - a governor other than `performance`, or turbo on, on any host of the
 *     report: a statement every report prints.
 * A fact unknown on one side (null or absent) never makes two hosts "not
 * comparable": it is a warning, since nothing proves the hosts differ.
 *
 * The whole of both fact sets is also kept as a flat table (dotted keys,
 * values as text) with the differing rows marked, for the HTML report.
 *
 * Ownership: struct hostdiff is caller-owned storage; hostdiff_init()
 * sets it up, hostdiff_release() frees every string and array in it.  The
 * json_t objects passed in are borrowed for the length of each call only.
 */
#ifndef PLUMB_REPORTS_HOSTDIFF_H
#define PLUMB_REPORTS_HOSTDIFF_H

#include <stddef.h>

#include <jansson.h>

struct plumb_err;
struct manifest_run;

enum hostdiff_level {
	HOSTDIFF_WARNING,        /* a confound: named, verdicts kept */
	HOSTDIFF_BLOCKER         /* not comparable: verdicts withheld */
};

enum hostdiff_scope {
	HOSTDIFF_JOB,            /* host.start -> host.end of one bundle */
	HOSTDIFF_BASELINE        /* the baseline's host -> this bundle's host */
};

/* A decisive fact that differs. */
struct hostdiff_item {
	const char *key;         /* "cpu.model" (static) */
	const char *what;        /* "CPU model" (static) */
	char *old, *new;         /* values as text; "unknown" for null or absent */
	enum hostdiff_level level;
	enum hostdiff_scope scope;
};

/* One row of the full facts table. */
struct hostdiff_row {
	char *key;               /* dotted path: "cpufreq.governor" */
	char *old, *new;         /* as text; NULL when absent on that side */
	int differs;
};

struct hostdiff {
	int comparable;                  /* no blocker among the items */
	struct hostdiff_item *items;     /* in the order of the key table, JOB first */
	size_t n_items;
	char **statements;               /* "governor is powersave, not performance: ..." */
	size_t n_statements;
	struct hostdiff_row *rows;       /* every fact of both sides, by key */
	size_t n_rows;
	const char *old_label, *new_label;  /* table column titles (static) */
};

void hostdiff_init(struct hostdiff *d);
void hostdiff_release(struct hostdiff *d);

/*
 * Compare the decisive facts of old and new (either may be NULL: a
 * missing host.end) and append the differences, scoped as scope.
 */
int hostdiff_compare(struct hostdiff *d, const json_t *old, const json_t *new,
		     enum hostdiff_scope scope, struct plumb_err *err);

/*
 * Append the statements a host's facts call for (governor not
 * performance, turbo on); who prefixes them ("baseline host") or is NULL.
 * A statement already present is not repeated.
 */
int hostdiff_state(struct hostdiff *d, const json_t *facts, const char *who,
		   struct plumb_err *err);

/*
 * Append the machine's load during the rounds (run.conditions[].load, the
 * 1-minute average at each round's start): its range, and a warning when
 * it exceeded the CPUs facts counts (cpu.logical).  Nothing when no round
 * recorded a load.
 */
int hostdiff_load(struct hostdiff *d, const struct manifest_run *run, const json_t *facts,
		  const char *who, struct plumb_err *err);

/* Fill the flat table of every fact of old and new, with column titles. */
int hostdiff_table(struct hostdiff *d, const json_t *old, const json_t *new,
		   const char *old_label, const char *new_label,
		   struct plumb_err *err);

/* "start -> end of the job" / "baseline -> this bundle" (ascii) or with an arrow. */
const char *hostdiff_scope_text(enum hostdiff_scope scope, int ascii);

/*
 * The value at a dotted path of a facts object ("cpu.model"), or NULL
 * when absent.  Borrowed from facts.
 */
const json_t *hostdiff_lookup(const json_t *facts, const char *path);

/* A fact's value as text ("unknown" for null or NULL); malloc'd, NULL on OOM. */
char *hostdiff_value_text(const json_t *v);

#endif
