/*
 * runner/run-internal.h: the state of one `plumb run` that its files
 * share, and what each file offers the others, section by section.  No .c
 * file of its own; nothing outside runner/run*.c includes it.
 *
 * The files call down this list, never up it (no file-level circle):
 *   run-range.c        a range job: every pair's run through run.c's parts
 *   run.c              the stage, in order
 *   run-manifest.c     the record of the run
 *   run-sweep.c        run.pads = auto: the extensions
 *   run-work.c         whether the sides did the same work
 *   run-valgrind.c     counting under valgrind
 *   run-rounds.c       the benchmarks' set-up, warmup runs and rounds
 *   run-checksum.c, run-gbench.c, run-hooks.c, run-profile.c,
 *   run-artifacts.c, run-provenance.c, run-capacity.c
 *                      the checksum oracle, Google Benchmark binaries, the
 *                      run and bench hooks, hot = auto, the artifacts and
 *                      the provenance recorded, whether the run fits a bundle
 *   run-judge.c        a benchmark's verdict as the bundle records it
 *   run-common.c       the small steps every part takes: events, labels,
 *                      the environment, logs, values, failures, notes
 *
 * Ownership: struct run_state lives on runner_run()'s stack and borrows
 * the given configuration, opts and res; it owns benches, labels, the
 * samples file and its path, and the gbench expansion cfg may point to,
 * released at the end of runner_run().  struct bench_state owns its
 * command lines, environment, analysis, logs and failure text
 * (run_bench_release()).
 */
#ifndef PLUMB_RUNNER_RUN_INTERNAL_H
#define PLUMB_RUNNER_RUN_INTERNAL_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "common/err.h"
#include "formats/config.h"
#include "formats/samples.h"
#include "runner/build-types.h"
#include "runner/cachegrind.h"
#include "runner/envlist.h"
#include "runner/measure.h"
#include "runner/schedule.h"
#include "stats/rule.h"

struct analysis;
struct analysis_result;
struct config_bench;
struct host_facts;
struct manifest;
struct manifest_bench;
struct plumb_config;
struct runner_run_opts;
struct runner_run_result;

#define SAMPLES_FD 3
#define TAIL_LINES 10
#define BENCH_LOG_BUDGET ((uint64_t)1 << 20)   /* bytes of stderr kept per bench and variant */
#define RUN_GBENCH_OUT_MAX ((size_t)1 << 20)   /* bytes of a Google Benchmark binary's stdout */

/* ---- per-benchmark state --------------------------------------------------- */

/* The checksum oracle of one side (base with its control, or candidate). */
struct side_ck {
	char value[MEASURE_CHECKSUM_MAX + 1];   /* "" until a run printed one */
	size_t from;                            /* the variant that printed it */
	int none;                               /* a run printed none ... */
	size_t none_from;                       /* ... this variant's */
	int any;                                /* some run was checked */
};

struct bench_log {
	char *path;           /* <run>/log/bench-<name>-<id>.log */
	uint64_t bytes;       /* written so far */
	int used;             /* the file exists */
	int full;             /* the budget was reached (marker written) */
};

/* Hooks of one benchmark (run-hooks.c). */
struct bench_hooks {
	unsigned char *started;      /* per variant (nv of them): setup ran, or a run did */
	size_t nv;
	uint64_t prepare_runs, prepare_ns;
	unsigned setup_runs, cleanup_runs;
	uint64_t setup_ns, cleanup_ns;
};

/* run.setup and run.cleanup (run-hooks.c). */
struct run_hooks {
	int setup_done;              /* run.setup ran (or there is none) and succeeded */
	int started;                 /* the job's first run came: cleanup is due */
	uint64_t setup_ns, cleanup_ns;
	char *log;                   /* <run>/log/run-hooks.log */
	int log_used;
};

struct bench_state {
	const struct config_bench *cb;
	size_t nv;                   /* variants cl and logs hold */
	struct cmdline *cl;          /* per variant: the expanded command */
	struct envlist env;
	struct analysis *an;
	struct bench_log *logs;      /* per variant */
	struct side_ck ck[2];        /* RUNNER_BASE, RUNNER_CANDIDATE */
	char *failure;               /* set once it failed (keep-going) */
	char *failure_log;           /* the bundle member of its log (runner/failed.h), or NULL */
	unsigned left_runs;          /* runs that left processes running */
	unsigned long left_procs;    /* how many processes, all runs */
	/* hot = auto (run-profile.c): pad 0 of each side sampled in warmup run 1. */
	struct profile prof[2];      /* RUNNER_BASE, RUNNER_CANDIDATE */
	struct profile_hot *phot[2]; /* every symbol seen, by share */
	size_t nall[2], nhot[2];     /* how many; how many make the hot set */
	struct runner_hot *auto_hot; /* the hot set's symbols compared, base against candidate */
	size_t nauto;
	char *profile_note;          /* why there is no profile, or NULL */
	/* Counting (run-valgrind.c): the metric judged, and where counts come from. */
	enum metric_id metric;       /* cb->metric, or its valgrind row (no PMU) */
	int hw;                      /* hardware counters are read for it */
	int vg;                      /* one valgrind round per variant */
	char *vg_note;               /* why the metric was counted under valgrind, or NULL */
	int vg_nondet;               /* the two runs of a pad 0 differed */
	char *vg_diff;               /* how, or NULL */
	uint64_t vg_ns;              /* wall time of its valgrind runs */
	unsigned vg_runs;
	/* The same work (run-work.c): what the run showed, and how. */
	enum stats_work work;
	char *work_note;             /* the figures or why not shown, or NULL */
	struct bench_hooks hooks;    /* prepare, setup, cleanup (run-hooks.c) */
	char *gbench_note;           /* mode gbench: what its binary said (run-gbench.c), or NULL */
};

/* Per benchmark, decided before the builds (run_valgrind_plan()). */
struct bench_plan {
	enum metric_id metric;
	int hw, vg;
	char *note;
};


/* run.pads = auto (run-sweep.c): one extension of the sweep. */
struct run_sweep_bench {
	const char *name;            /* the benchmark's, borrowed */
	int undecided;               /* before the extension (or, for the last state, after) */
	int rounds_too;              /* undecided for want of rounds, not of pads */
	char why[96];                /* what left it undecided */
	enum verdict verdict;  /* its verdict then */
};
struct run_sweep_step {
	unsigned pads_before, pads_after;   /* per side */
	unsigned rounds;             /* rounds run */
	int every;                   /* every variant ran in them, not only the added ones */
	uint64_t at_ns;              /* when it started, since the first benchmark run */
	uint64_t ns;                 /* how long it took: builds, warmup runs, rounds */
	struct run_sweep_bench *before;   /* per benchmark: the state that asked for it */
};
struct run_sweep {
	struct run_sweep_step *steps;
	size_t nsteps;
	struct run_sweep_bench *final;    /* per benchmark: the state at the end */
	const char *stopped;         /* "decided" | "maxPads" | "budget" | "failed" */
	uint64_t spent_ns;           /* measuring time, warmup included, at the end */
};

/* A range job (run-range.c): what its pairs share. */
struct run_job {
	uint64_t done, total;        /* runs of every pair, done and planned */
	uint64_t t0;                 /* start of the job's first benchmark run */
	struct schedule sched;       /* the job's rounds: every variant of every pair */
};

/* bench.NAME.mode = gbench (run-gbench.c): the given configuration with each
 * such section replaced by the benchmarks its binary lists. */
struct run_gbench {
	struct plumb_config cfg;     /* a copy borrowing all but benches and their new names */
	char **missing;              /* per bench of cfg: why it cannot run (listed by one
	                                side only), or NULL; NULL when nothing was expanded */
};

struct run_state {
	const struct plumb_config *cfg;     /* the configuration run: given, or gb.cfg */
	const struct plumb_config *given;   /* as given: the spec the bundle records */
	struct run_gbench gb;
	struct run_job *job;         /* the range job this pair is part of, or NULL */
	const char *commit;          /* in a range job: the candidate commit (short), for progress */
	const struct runner_run_opts *opts;
	struct runner_run_result *res;
	struct runner_result build;
	struct bench_state *benches;
	char **labels;               /* per variant: "base/0" ... */
	size_t nlabels;
	char cwd[PATH_MAX];
	FILE *tsv;
	char *tsv_path;
	struct samples_writer writer;
	uint64_t tsv_bytes;          /* written to samples.tsv so far */
	int counters;                /* hardware counters are being read */
	char counters_reason[PLUMB_ERR_MAX + 64];
	int counters_broken;         /* they worked, then stopped working */
	uint64_t t0;                 /* start of the first benchmark run */
	uint64_t done, total;
	double load1;
	const char *last_bench, *last_variant;   /* of the last run, for progress */
	struct schedule sched;       /* the round order, across extensions */
	struct run_sweep sweep;      /* run.pads = auto: the extensions (run-sweep.c) */
	struct bench_plan *plan;     /* per benchmark (run-valgrind.c) */
	struct cachegrind_tool vg;   /* found when some benchmark needs it */
	int vg_any;
	uint64_t vg_ns;              /* wall time of every valgrind run */
	unsigned vg_runs;
	struct run_hooks hooks;      /* run.setup, run.cleanup (run-hooks.c) */
};

/* hot = auto: does warmup run `pass` of variant vi profile bench b?  Then p. */
struct profile *run_profile_for(struct run_state *st, struct bench_state *b, size_t vi,
				unsigned round, unsigned pass);
/* After the run that profile p sampled: keep its samples in the artifact. */
int run_profile_collect(struct run_state *st, struct bench_state *b, size_t vi,
			struct profile *p, struct plumb_err *err);
/* After the warmup runs: the hot sets and their identity, base against candidate. */
int run_profile_resolve(struct run_state *st, struct bench_state *b, struct plumb_err *err);
void run_profile_release(struct bench_state *b);

/* ---- run-common.c ----------------------------------------------------- */

/* Tell the caller of st's run of ev (runner/event.h). */
struct runner_event;
void run_tell(const struct run_state *st, const struct runner_event *ev);

#define RUN_TELL(st, ...) run_tell((st), &(const struct runner_event){ __VA_ARGS__ })

/* "base/2 (b02)" */
void run_variant_label(const struct run_state *st, size_t vi, char *out, size_t size);

/* The index of side's pad 0 (not the control) among build's variants. */
size_t run_pad0(const struct runner_result *build, enum runner_side side);

/* The benchmarks' environment: run.env from plumb's own, plus the samples fd
 * for a samples-mode cb (NULL: no benchmark, the run hooks'). */
int run_bench_env(const struct plumb_config *cfg, const struct config_bench *cb,
		  struct envlist *env, struct plumb_err *err);

/* Append a run's standard error (and how it ended) to bench b's log of variant vi. */
int run_bench_log(struct run_state *st, struct bench_state *b, size_t vi, const char *when,
		  const struct measure_result *m, struct plumb_err *err);

/* One value: a row of samples.tsv and a row of the benchmark's analysis. */
int run_record(struct run_state *st, struct bench_state *b, const struct runner_variant *v,
	       unsigned round, uint64_t iter, const char *metric, double value,
	       struct plumb_err *err);

/* The analysis result of metric in a (after analysis_finish()), or NULL. */
struct analysis_result;
const struct analysis_result *run_find_result(const struct analysis *a, const char *metric);

/*
 * A failed run: without --keep-going, the error PLUMB_EBENCH (and the
 * stderr tail of m, when given, in the result); with it, b's failure text.
 */
int run_bench_fail(struct run_state *st, struct bench_state *b, size_t vi,
		   const char *when, const char *why, const struct measure_result *m,
		   struct plumb_err *err);

/* *slot = a copy of s (NULL: none); PLUMB_EINTERNAL when memory runs out. */
int run_set(char **slot, const char *s, struct plumb_err *err);

/* Append a line to mb's notes (benches[].notes). */
int run_manifest_note(struct manifest_bench *mb, const char *text, struct plumb_err *err);

/* "same", "different", or NULL (unknown): benches[].work. */
const char *run_work_name(enum stats_work w);

/* ---- run-judge.c ------------------------------------------------------ */

/* benches[].hot of mb: the symbols bench b names (compared in br), then the
 * rest of the hot set its profile found. */
int run_bench_hot(const struct runner_result *br, const struct bench_state *b,
		  struct manifest_bench *mb, struct plumb_err *err);

/* The verdict of result ar under cfg's rule, with mb's hot-code identity and work. */
int run_judge(const struct plumb_config *cfg, const struct manifest_bench *mb,
	      const struct analysis_result *ar, struct stats_judgement *jd,
	      struct plumb_err *err);

/* The verdict of bench b's result ar as the manifest will record it (hot code
 * and work included). */
int run_bench_judge(const struct plumb_config *cfg, const struct runner_result *build,
		    const struct bench_state *b, const struct analysis_result *ar,
		    struct stats_judgement *jd, struct plumb_err *err);

/* ---- run.c ------------------------------------------------------------ */

struct buf;
/* runner_run() up to the first benchmark run: checks, host facts, builds,
 * the benchmarks' set-up, samples.tsv opened; out gets the bundle's path. */
int run_begin(struct run_state *st, const struct plumb_config *cfg,
	      const struct runner_run_opts *opts, struct runner_run_result *res,
	      struct host_facts *start, struct buf *out, struct plumb_err *err);
/* After the first rounds (r: how they ended): the sweep, valgrind, the cleanups. */
int run_measure_rest(struct run_state *st, int r, struct plumb_err *err);
/* After the last run: samples.tsv closed, host facts, the record, the bundle at out. */
int run_end(struct run_state *st, struct host_facts *start, struct host_facts *end,
	    struct buf *out, struct plumb_err *err);
/* Everything st holds (the run folder goes unless --keep). */
void run_state_release(struct run_state *st);

/* ---- run-artifacts.c --------------------------------------------------- */

/* run.keepArtifacts: provenance.artifacts, what is stored and what is left out. */
int run_artifacts(struct run_state *st, struct manifest *m, struct plumb_err *err);
/* The artifacts/ members m lists, into out (room for every variant): how many. */
struct bundle_log;
size_t run_artifact_logs(const struct run_state *st, const struct manifest *m,
			 struct bundle_log *out);

/* ---- run-provenance.c -------------------------------------------------- */

/* The manifest's provenance object (environment values, commands, inputs, ...). */
int run_provenance(struct run_state *st, struct manifest *m, struct plumb_err *err);
/* Whether an environment variable's name looks like a secret's (its value is redacted). */
int run_provenance_secret(const char *name);

/* ---- run-rounds.c ------------------------------------------------------ */

/* Set up b for cb: its command per variant, environment, logs, analysis. */
int run_bench_setup(struct run_state *st, struct bench_state *b,
		    const struct config_bench *cb, struct plumb_err *err);
void run_bench_release(struct bench_state *b, size_t nv);

/* samples.tsv's writer output (ctx: the run_state), counted against the bundle's limit. */
int run_tsv_write(void *ctx, const void *data, size_t len, struct plumb_err *err);

/* Warmup runs, then the rounds; fills m->run.order and m->run.conditions. */
int run_measure_all(struct run_state *st, struct manifest *m, struct plumb_err *err);

/*
 * A range job: the warmup runs of every pair, then run.rounds rounds in
 * which every variant of every pair runs once, in one order shuffled by
 * run.seed over all of them (sts[0]'s variants first, then sts[1]'s ...);
 * each pair's run.order records its own variants in the order they ran.
 */
int run_measure_job(struct run_state **sts, size_t n, struct run_job *job, struct plumb_err *err);

/* After runner_build_more() added variants from vi on: give every benchmark
 * their command lines and logs, run their warmup runs, then `rounds` more
 * rounds of the added variants, or of every variant when `every` (m->run.order
 * and conditions grow). */
int run_measure_more(struct run_state *st, struct manifest *m, size_t vi, unsigned rounds,
		     int every, struct plumb_err *err);

/* st->labels for every variant ("base/0" ...), grown to st->build.nvariants. */
int run_labels(struct run_state *st, struct plumb_err *err);

/* ---- run-valgrind.c ---------------------------------------------------- */

/*
 * Before the builds: each benchmark's metric and counting (bench.NAME.counter,
 * the host's counters); finds valgrind when one needs it.  PLUMB_EINPUT when
 * a metric cannot be counted here.
 */
int run_valgrind_plan(struct run_state *st, struct plumb_err *err);
void run_valgrind_plan_free(struct run_state *st);

/*
 * After the wall-clock rounds: one valgrind run of every variant of the
 * benchmarks that count under valgrind (round 1), pad 0 of each side twice
 * (round 2), the determinism check.
 */
int run_valgrind_all(struct run_state *st, struct plumb_err *err);

/*
 * The instructions of one run of bench b on variant vi under valgrind, not
 * recorded as a row (the same work, run-work.c): *ir (per sample in samples
 * mode), or a non-empty why when the run failed (the benchmark is not
 * failed for it; a failed bench hook fails it, b->failure).
 */
int run_valgrind_instructions(struct run_state *st, struct bench_state *b, size_t vi,
			      double *ir, char *why, size_t whysize, struct plumb_err *err);

/* The manifest's run.valgrind and benches[].valgrind for bench b (mb). */
int run_valgrind_manifest_run(struct run_state *st, struct manifest *m, struct plumb_err *err);
struct manifest_bench;
int run_valgrind_manifest_bench(struct run_state *st, struct bench_state *b,
				struct manifest_bench *mb, struct plumb_err *err);

/* ---- run-checksum.c ---------------------------------------------------- */

/* The checksum oracle after one run; a non-empty *why on a mismatch. */
void run_check_checksum(struct run_state *st, struct bench_state *b, size_t vi,
			const struct measure_result *m, char *why, size_t size);

/* ---- run-work.c -------------------------------------------------------- */

/*
 * After the last counted run, under the shift rule: whether each benchmark's
 * sides did the same work (b->work, b->work_note), from the checksums, the
 * counts recorded, or one valgrind run of pad 0 of each side where the
 * proof would decide.
 */
int run_work_prove(struct run_state *st, struct plumb_err *err);

/* ---- run-sweep.c ------------------------------------------------------- */

/* run.pads = auto: after the first rounds, extend while a benchmark is undecided. */
int run_sweep(struct run_state *st, struct manifest *m, struct plumb_err *err);
/* The manifest's record of the sweep (run.sweep). */
int run_sweep_record(struct run_state *st, struct manifest *m, struct plumb_err *err);
void run_sweep_release(struct run_state *st);

/* ---- run-hooks.c ------------------------------------------------------- */

/*
 * Before run `when` of bench b on variant vi (PLUMB_ARTIFACT already set in
 * b->env): run.setup once per job, b's setup once per variant, b's prepare.
 * A failed bench hook fails the benchmark as a failed run does
 * (run_bench_fail(): b->failure under --keep-going); a failed run.setup
 * stops the job.
 */
int run_hooks_before(struct run_state *st, struct bench_state *b, size_t vi,
		     const char *when, struct plumb_err *err);
/*
 * After the job's last run (rc: how measuring ended): every started
 * variant's cleanup, then run.cleanup.  Returns rc when it is an error
 * (the cleanups' own errors are then only logged), else theirs.
 */
int run_hooks_finish(struct run_state *st, int rc, struct plumb_err *err);
/* bench b's hook figures as notes of mb (benches[].notes). */
int run_hooks_notes(struct run_state *st, struct bench_state *b, struct manifest_bench *mb,
		    struct plumb_err *err);
/* The run hooks' log for the bundle (logs/run-hooks.log), or NULL when none was written. */
const char *run_hooks_log(const struct run_state *st);
void run_hooks_release(struct run_state *st, struct bench_state *b);

/* ---- run-manifest.c ---------------------------------------------------- */

/* Everything the manifest records once the rounds are done. */
int run_manifest_record(struct run_state *st, struct manifest *m,
			struct host_facts *start, struct host_facts *end,
			struct plumb_err *err);

/* ---- run-gbench.c ------------------------------------------------------ */

/*
 * After the builds: each mode gbench section's binary lists its benchmarks
 * (base and candidate pad 0), and st->cfg becomes the configuration in
 * which they replace it (st->plan follows).  PLUMB_EBENCH naming the
 * section and the variant when a listing fails or is empty, or, without
 * --keep-going, naming a benchmark one side alone lists.
 */
int run_gbench_expand(struct run_state *st, struct plumb_err *err);
/* After the benchmarks' set-up, --keep-going: those one side lacks, failed. */
int run_gbench_missing(struct run_state *st, struct plumb_err *err);
/* The words a run of expanded benchmark cb appends to its command line (none for others). */
struct cmdline;
int run_gbench_args(const struct config_bench *cb, struct cmdline *cl, const char *key,
		    struct plumb_err *err);
/*
 * After a run of gbench benchmark b on variant vi that exited 0: its wall
 * (real_time) and cpu (cpu_time) from the JSON on m's standard output,
 * recorded as rows of round (none for a warmup run, round 0); a non-empty
 * why when the output holds no value for it (the benchmark fails with it).
 */
int run_gbench_take(struct run_state *st, struct bench_state *b, size_t vi, unsigned round,
		    const struct measure_result *m, char *why, size_t size, struct plumb_err *err);
/* The expansion (st->cfg is the given configuration again). */
void run_gbench_release(struct run_state *st);

/* ---- run-capacity.c ---------------------------------------------------- */

/* PLUMB_EINPUT when cfg's run would make a manifest larger than a bundle holds. */
int run_check_capacity(const struct plumb_config *cfg, struct plumb_err *err);

#endif
