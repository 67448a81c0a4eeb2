/*
 * runner/cachegrind.h: simulated counts of a benchmark run under Valgrind
 * (the VALGRIND rows of common/metric.h): instructions (Ir), I1, D1 and LL
 * misses, and an estimated cycle cost, exact and repeatable where the
 * host has no hardware counters (a VM without a PMU).
 *
 * The tool is found at run time: the first `valgrind` in plumb's PATH
 * (Debian package valgrind), its version from `valgrind --version`.  The
 * cache geometry is fixed, never the host's, so counts compare across
 * machines:
 *     I1  32768 B, 8-way, 64 B lines     (--I1=32768,8,64)
 *     D1  32768 B, 8-way, 64 B lines     (--D1=32768,8,64)
 *     LL  8 MiB,  16-way, 64 B lines     (--LL=8388608,16,64)
 * and the estimated cost is
 *     cachesim = L1 hits + 5 x LL hits + 35 x memory accesses
 * where accesses = Ir + Dr + Dw, L1 misses = I1mr + D1mr + D1mw,
 * memory accesses = LL misses = ILmr + DLmr + DLmw, L1 hits = accesses -
 * L1 misses and LL hits = L1 misses - LL misses (the weights of
 * iai-callgrind and CodSpeed).
 *
 * Process mode runs the command under --tool=cachegrind; samples mode
 * under --tool=callgrind with --collect-atstart=no, so only what the
 * benchmark marks is counted (plumb/bench.h turns collection on for each
 * timed iteration's body with CALLGRIND_TOGGLE_COLLECT: the installed
 * Valgrind may predate cachegrind's own client requests, 3.22).  Both
 * simulate the same caches and write the same events.
 *
 * A command that runs through /bin/sh -c is traced into its children
 * (--trace-children=yes), each process writing its own output file
 * (--cachegrind-out-file=DIR/vg.%p); only the files whose `cmd:` line
 * starts with the artifact's path are summed, so the shell, and any
 * other program of the line (`| head`), is never counted.
 *
 * Ownership: struct cachegrind_tool is caller storage filled by
 * cachegrind_find().  cachegrind_argv() returns a heap vector that
 * cachegrind_argv_free() frees; its strings are copies.
 */
#ifndef PLUMB_RUNNER_CACHEGRIND_H
#define PLUMB_RUNNER_CACHEGRIND_H

#include <limits.h>
#include <stddef.h>

#include "common/metric.h"

struct plumb_err;

#define CACHEGRIND_I1 "32768,8,64"
#define CACHEGRIND_D1 "32768,8,64"
#define CACHEGRIND_LL "8388608,16,64"
#define CACHEGRIND_LL_WEIGHT 5
#define CACHEGRIND_MEM_WEIGHT 35
#define CACHEGRIND_FORMULA "L1 hits + 5 x LL hits + 35 x memory accesses"
#define CACHEGRIND_PACKAGE "valgrind"
#define CACHEGRIND_MAX_FILE ((size_t)64 << 20)   /* bytes of one output file read */

struct cachegrind_tool {
	char path[PATH_MAX];   /* the valgrind program */
	char version[64];      /* "3.19.0" */
};

/* The counts of one run: the artifact's processes summed. */
struct cachegrind_counts {
	double ir, dr, dw, i1mr, d1mr, d1mw, ilmr, dlmr, dlmw;
	unsigned procs;        /* output files of the artifact */
};

/*
 * Find valgrind in path (a PATH value; NULL: plumb's) and read its
 * version.  PLUMB_EINPUT naming the package when it is not there or does
 * not run; `why` names what asked for it ("bench.x.metric = instructions").
 */
int cachegrind_find(const char *path, const char *why, struct cachegrind_tool *t,
		    struct plumb_err *err);

/*
 * argv prefixed to run under valgrind: process mode (samples 0)
 * cachegrind, samples mode callgrind (see above), out files in outdir.
 * NULL when memory runs out.
 */
char **cachegrind_argv(const struct cachegrind_tool *t, int samples, const char *outdir,
		       char *const *argv);
void cachegrind_argv_free(char **v);

/*
 * Add one output file's counts (text[0..len)) to c when its cmd: line's
 * first word is artifact; *matched 1 then.  PLUMB_EBENCH naming `name`
 * when the file has no events:/summary: lines, or they disagree.
 */
int cachegrind_parse(const char *text, size_t len, const char *artifact, const char *name,
		     struct cachegrind_counts *c, int *matched, struct plumb_err *err);

/*
 * Every output file in dir: the artifact's counts summed into c (zeroed
 * first), and each file removed.  PLUMB_EBENCH when none was the
 * artifact's; PLUMB_EINPUT naming the file when it cannot be read.
 */
int cachegrind_collect(const char *dir, const char *artifact, struct cachegrind_counts *c,
		       struct plumb_err *err);

/* Remove every output file left in dir (a run that failed half-way). */
void cachegrind_clean(const char *dir);

/* The value of VALGRIND row m for c; NAN for another row. */
double cachegrind_value(enum metric_id m, const struct cachegrind_counts *c);

/* "valgrind-cachegrind" (process mode) or "valgrind-callgrind" (samples mode). */
const char *cachegrind_source(int samples);

#endif
