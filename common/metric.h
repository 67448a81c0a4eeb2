/*
 * common/metric.h: the metrics plumb measures, one row each (STYLE 18).
 *
 * To add a metric (at most 4 files):
 *   1. a row in METRIC_TABLE below (its place is its place among a run's
 *      samples.tsv rows and in every listing);
 *   2. its case in metric_of_run() (runner/run-rounds.c): the value for
 *      a CLOCK or RUSAGE row, NAN for a COUNTER row (runner/perf.c opens
 *      every COUNTER row from its perf type and config; -Wswitch names a
 *      forgotten case), and for a VALGRIND row in cachegrind_value()
 *      (runner/cachegrind.c);
 *   3. its name in formats/bundle-v1.md's samples.tsv metrics;
 *   4. when a benchmark may be measured by it (bench 1): its word in
 *      docs/plumb.conf.5's bench.NAME.metric.
 * The enum, the names in plumb.conf, samples.tsv and the manifest, the
 * units, the perf events, the manifest's counters members, and every
 * renderer follow from the row; tests/unit/test-metric.c checks every row
 * against perf.c and both documents.
 *
 * Ownership: the table is static and read-only.
 */
#ifndef PLUMB_COMMON_METRIC_H
#define PLUMB_COMMON_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include "common/units.h"

/*
 * X(ID, name, unit, dimension, source, counter k, perf type, perf config,
 *   bench, key, words)
 *   name      in samples.tsv, plumb.conf and the manifest's benches[].metric
 *   unit      of the recorded value ("ns", "bytes", "count")
 *   source    CLOCK (the harness's clock), RUSAGE (wait4), COUNTER
 *             (perf_event_open: counter k, with its perf type and config,
 *             which only runner/perf.c expands), VALGRIND (a separate run
 *             under valgrind --tool=cachegrind, runner/cachegrind.c: a
 *             simulated count, deterministic for a given build, never a
 *             hardware count)
 *   bench     1: bench.NAME.metric may name it (a verdict is computed on it)
 *   key       COUNTER: the member of the manifest's sides.*.counters
 *   words     what it is, for people
 */
#define METRIC_TABLE(X) \
	X(WALL, "wall", "ns", UNITS_TIME_NS, CLOCK, -1, 0, 0, 1, NULL, \
	  "wall-clock time of a run (process mode) or a sample (samples mode)") \
	X(CPU, "cpu", "ns", UNITS_TIME_NS, RUSAGE, -1, 0, 0, 1, NULL, \
	  "CPU time of a run, user and system") \
	X(USER, "user", "ns", UNITS_TIME_NS, RUSAGE, -1, 0, 0, 0, NULL, \
	  "user CPU time of a run") \
	X(SYS, "sys", "ns", UNITS_TIME_NS, RUSAGE, -1, 0, 0, 0, NULL, \
	  "system CPU time of a run") \
	X(MAXRSS, "maxrss", "bytes", UNITS_COUNT, RUSAGE, -1, 0, 0, 0, NULL, \
	  "largest resident set of a run") \
	X(CYCLES, "cycles", "count", UNITS_COUNT, COUNTER, 0, \
	  PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, "cycles", \
	  "CPU cycles in user space, per run or per sample") \
	X(INSTRUCTIONS, "instructions", "count", UNITS_COUNT, COUNTER, 1, \
	  PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, "instructions", \
	  "instructions retired in user space, per run or per sample") \
	X(BRANCH_MISSES, "branch-misses", "count", UNITS_COUNT, COUNTER, 2, \
	  PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 0, "branchMisses", \
	  "mispredicted branches in user space, per run or per sample") \
	X(VG_INSTRUCTIONS, "vg-instructions", "count", UNITS_COUNT, VALGRIND, -1, 0, 0, 1, NULL, \
	  "instructions executed (Ir) as Valgrind's cachegrind counts them, per run or per sample") \
	X(VG_I1_MISSES, "vg-i1-misses", "count", UNITS_COUNT, VALGRIND, -1, 0, 0, 0, NULL, \
	  "simulated first-level instruction cache misses (I1mr), same basis") \
	X(VG_D1_MISSES, "vg-d1-misses", "count", UNITS_COUNT, VALGRIND, -1, 0, 0, 0, NULL, \
	  "simulated first-level data cache misses, reads and writes (D1mr + D1mw), same basis") \
	X(VG_LL_MISSES, "vg-ll-misses", "count", UNITS_COUNT, VALGRIND, -1, 0, 0, 0, NULL, \
	  "simulated last-level cache misses, instructions and data (ILmr + DLmr + DLmw), same basis") \
	X(CACHESIM, "cachesim", "count", UNITS_COUNT, VALGRIND, -1, 0, 0, 1, NULL, \
	  "estimated cycles from the simulated caches: L1 hits + 5 x LL hits + 35 x memory accesses")

#define METRIC_ENUM_ROW_(id, ...) METRIC_##id,
enum metric_id {
	METRIC_TABLE(METRIC_ENUM_ROW_)
	METRIC_COUNT
};

enum metric_source { METRIC_SRC_CLOCK, METRIC_SRC_RUSAGE, METRIC_SRC_COUNTER,
		     METRIC_SRC_VALGRIND };

/* How many COUNTER rows: the counters are numbered 0 .. METRIC_NCOUNTERS-1. */
#define METRIC_IS_COUNTER_CLOCK 0
#define METRIC_IS_COUNTER_RUSAGE 0
#define METRIC_IS_COUNTER_COUNTER 1
#define METRIC_IS_COUNTER_VALGRIND 0
#define METRIC_NCOUNTERS_ROW_(id, name, unit, dim, src, ...) + METRIC_IS_COUNTER_##src
enum { METRIC_NCOUNTERS = 0 METRIC_TABLE(METRIC_NCOUNTERS_ROW_) };

struct metric_def {
	const char *name;
	const char *unit;
	enum units_dim dim;
	enum metric_source source;
	int counter;          /* COUNTER: k; -1 otherwise */
	bool bench;           /* may be bench.NAME.metric */
	const char *key;      /* COUNTER: manifest counters member; NULL otherwise */
	const char *words;
};

/* Row id of the table (id < METRIC_COUNT). */
extern const struct metric_def metric_table[METRIC_COUNT];

/*
 * The names of the metrics a benchmark may be measured by, indexed by
 * enum metric_id, "" for the others, NULL-terminated: the choices of
 * bench.NAME.metric and of the manifest's benches[].metric.
 */
extern const char *const metric_bench_names[METRIC_COUNT + 1];

/* The row's name, unit and dimension; "?" / UNITS_COUNT past the table. */
const char *metric_name(enum metric_id m);
const char *metric_unit(enum metric_id m);
enum units_dim metric_dim(enum metric_id m);

/* The metric a benchmark may be measured by, named name: 0, or -1. */
int metric_parse(const char *name, enum metric_id *out);

/*
 * A metric whose value is the same in every run of one build (a VALGRIND
 * row): its verdict needs one round per variant once two runs of pad 0
 * agreed (stats/rule.h, deterministic).
 */
bool metric_deterministic(enum metric_id m);

/* Whether name[0..len) names a deterministic metric. */
bool metric_deterministic_named(const char *name, size_t len);

/* The names of the deterministic metrics, NULL-terminated (analysis_opts). */
extern const char *const metric_deterministic_names[];

/* The metric counted by counter k (0 <= k < METRIC_NCOUNTERS), and its row. */
enum metric_id metric_of_counter(int k);
const struct metric_def *metric_counter(int k);

#endif
