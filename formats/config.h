/*
 * formats/config.h: plumb.conf, the description of a run (DESIGN §4).
 *
 * plumb.conf is git-config syntax, read with libgit2's config API from the
 * one file named (no global, system or included files).  Every key has a
 * default or is required; every value is checked when read, and a bad one
 * is PLUMB_EINPUT with a message naming the file, the key and the value:
 *   plumb.conf: run.pads: 'four' is not a whole number from 1 to 64
 * Command-line flags (struct config_overrides) go through the same checks.
 * The effective configuration renders back to git-config text that reads
 * back to the same configuration, and to JSON (the bundle's "spec").
 * docs/plumb.conf.5 documents every key of config_key_at(); a unit test
 * keeps the two in step.
 *
 * Typical use:
 *   struct plumb_config cfg;
 *   if (config_load(&cfg, "plumb.conf", &overrides, &err) < 0)
 *           return cli_fail(&err);
 *   ... cfg.run.pads, cfg.build.command, cfg.benches[i].name ...
 *   config_release(&cfg);
 *
 * Ownership: struct plumb_config is caller-owned storage; config_init()
 * fills it with the defaults (heap copies) and config_release() frees every
 * string and array inside it (all heap copies; nothing points into the file, the
 * overrides or libgit2).  struct config_overrides only borrows its strings.
 */
#ifndef PLUMB_FORMATS_CONFIG_H
#define PLUMB_FORMATS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "common/metric.h"
#include "formats/sign.h"

struct buf;
struct plumb_err;

/* run.base = latest-tag: the newest tag before the candidate (matching
 * repo.releaseTags), chosen when the run checks out (runner/checkout.h). */
#define CONFIG_LATEST_TAG "latest-tag"

/* Limits, stated in docs/plumb.conf.5. */
#define CONFIG_FILE_MAX        (1024 * 1024)  /* bytes of plumb.conf */
#define CONFIG_ENTRIES_MAX     10000          /* key = value lines */
#define CONFIG_PADS_MAX        64
#define CONFIG_JOBS_MAX        64   /* build.jobs */
/* run.pads = auto (runner/run-sweep.c): the first sweep's pads per side,
 * and how many each extension adds to each side (up to run.maxPads). */
#define CONFIG_PADS_AUTO_START 6
#define CONFIG_PADS_AUTO_STEP  6
#define CONFIG_ROUNDS_MAX      100000
#define CONFIG_BENCHES_MAX     256
#define CONFIG_BENCH_NAME_MAX  64
/* bench.NAME.params: parameters, values each, bytes of a name and a value;
 * an expanded name (NAME/a=1,b=2) has at most CONFIG_BENCH_FULL_NAME_MAX bytes. */
#define CONFIG_PARAMS_MAX        8
#define CONFIG_PARAM_VALUES_MAX  64
#define CONFIG_PARAM_NAME_MAX    32
#define CONFIG_PARAM_VALUE_MAX   32
#define CONFIG_BENCH_FULL_NAME_MAX 255
#define CONFIG_LIST_MAX        256            /* env names, hot symbols, labels */
#define CONFIG_CPU_MAX         1023           /* highest CPU number (CPU_SETSIZE - 1) */
#define CONFIG_TIMEOUT_MAX     (7L * 24 * 3600) /* seconds */

enum config_pad { CONFIG_PAD_LINK, CONFIG_PAD_ENV, CONFIG_PAD_NONE };
enum config_reuse { CONFIG_REUSE_RELINK, CONFIG_REUSE_NONE };
/* run.keepArtifacts: none, base and candidate pad 0, or every variant (not the control) */
enum config_keep { CONFIG_KEEP_NONE, CONFIG_KEEP_PAD0, CONFIG_KEEP_ALL };
enum config_offsets { CONFIG_OFFSETS_LINEAR, CONFIG_OFFSETS_SPREAD };   /* build.padOffsets */
/* bench.NAME.mode: one process per round; samples streamed by the benchmark;
 * each benchmark of a Google Benchmark binary a benchmark (runner/run-gbench.c). */
enum config_mode { CONFIG_MODE_PROCESS, CONFIG_MODE_SAMPLES, CONFIG_MODE_GBENCH };
enum config_warmup {
	CONFIG_WARMUP_AUTO,   /* steady-state detection (seed 001) */
	CONFIG_WARMUP_COUNT,  /* drop the first warmup_count samples of a round */
	CONFIG_WARMUP_NONE    /* cold mode: keep every sample */
};
enum config_checksum {
	CONFIG_CHECKSUM_AUTO,     /* compare checksum= lines when the benchmark prints them */
	CONFIG_CHECKSUM_REQUIRED, /* a run without a checksum= line fails */
	CONFIG_CHECKSUM_OFF       /* ignore checksum= lines */
};

/* bench.NAME.counter: where counts come from (common/metric.h sources). */
enum config_counter {
	CONFIG_COUNTER_AUTO,      /* hardware when the host has it; valgrind for a
	                             counted metric when it has not */
	CONFIG_COUNTER_HARDWARE,  /* perf_event_open only */
	CONFIG_COUNTER_VALGRIND,  /* one valgrind round per variant, no perf */
	CONFIG_COUNTER_BOTH       /* hardware counters and the valgrind round */
};

/* One `label = KEY=VALUE` of [run], or one --label. */
struct config_label {
	char *key;
	char *value;
};

/* One [bench "NAME"] section. */
struct config_bench {
	char *name;                    /* the subsection, case kept */
	char *command;                 /* may hold {artifact} */
	enum config_mode mode;
	char *filter;                  /* bench.NAME.filter: mode gbench, a --benchmark_filter
	                                  regular expression, or NULL (every benchmark) */
	char *gbench;                  /* not a key: in the runner's expansion of a mode gbench
	                                  section (runner/run-gbench.c), the Google Benchmark
	                                  benchmark this one runs; NULL in a configuration read */
	enum config_warmup warmup;
	uint64_t warmup_count;         /* CONFIG_WARMUP_COUNT only, >= 1 */
	enum metric_id metric;
	char **hot;                    /* symbol names; nhot may be 0 */
	size_t nhot;
	double hot_coverage;           /* hot = auto: share of the samples the hot set covers */
	char hot_coverage_text[32];    /* as rendered (UNITS_EXACT_MAX) */
	long timeout;                  /* seconds, for one run of command */
	uint64_t max_samples;          /* samples mode: most samples per run */
	enum config_checksum checksum;
	enum config_counter counter;
	char *params;                  /* bench.NAME.params: after the expansion, this
	                                  benchmark's combination ("size=1M;level=1"), or NULL */
	/* Hooks (runner/run-hooks.c), commands that may hold {artifact}, or NULL:
	 * before every run of a variant (untimed), once per variant before its
	 * first run, once per variant after the job's last run. */
	char *prepare, *setup, *cleanup;
	unsigned explicit_keys;        /* internal: which keys were set, not defaulted */
};

struct plumb_config {
	char *file;        /* the file read, as named; NULL when none was read */
	char *dir;         /* its folder ("." when it has none): repo.path is relative to it */

	struct {
		char *path;    /* exactly one of path and url is set */
		char *url;
		char *release_tags;  /* repo.releaseTags: a glob, or NULL (every tag) */
	} repo;

	struct {
		char *base;        /* NULL until given (file or --base): required */
		char *candidate;   /* a revision, or "WORKTREE" */
		unsigned pads;     /* pads = auto: the first sweep's, CONFIG_PADS_AUTO_START */
		bool pads_auto;    /* run.pads = auto: the adaptive sweep (runner/run-sweep.c) */
		unsigned max_pads; /* run.maxPads: pads = auto stops there */
		long budget;       /* run.budget, seconds: pads = auto starts no extension past it */
		unsigned rounds;
		uint64_t seed;
		bool control;
		unsigned warmup_runs;
		int *cpus;         /* sorted, distinct; ncpus == 0: no pinning */
		size_t ncpus;
		bool aslr;         /* false: run with ADDR_NO_RANDOMIZE */
		char **env;        /* variable names passed to benchmarks */
		size_t nenv;
		enum config_keep keep_artifacts;  /* run.keepArtifacts: executables stored in the bundle */
		struct config_label *labels;   /* in order given */
		size_t nlabels;
		char *setup;       /* run.setup: a command once before the first run, or NULL */
		char *cleanup;     /* run.cleanup: once after the last run, or NULL */
		char *lock;        /* run.lock: the machine-wide lock, NULL for the default */
		char *project;     /* run.project: NULL for the remote URL or first commit id */
	} run;

	struct {
		char *command;     /* may hold {pad} {pad_bytes} {pad_object} {pad_ldflags} */
		char *artifact;    /* relative path inside the tree */
		enum config_pad pad;
		unsigned pad_bytes;
		enum config_offsets pad_offsets;   /* pad K at K x padBytes, or spread (pad.h) */
		enum config_reuse reuse;
		long timeout;      /* seconds */
		char *cc;          /* assembles the pad object */
		uint64_t cache_size;        /* bytes of the build cache; 0: no cache */
		char cache_size_text[32];   /* as written, canonical ("4G") */
		unsigned jobs;     /* build.jobs: builds at once; 0: auto (the CPUs plumb may use) */
	} build;

	struct {
		const char *rule;         /* verdict.rule: "shift" | "margin" | "overlap" (static) */
		double confidence;        /* verdict.confidence; 0: auto, the rule's own */
		char confidence_text[32]; /* verdict.confidence as rendered (UNITS_EXACT_MAX) */
		double min_effect;        /* verdict.minEffect (rule shift) */
		char min_effect_text[32];
	} verdict;

	struct {
		char *allow;              /* host.allow: check ids that --strict lets pass, or NULL */
	} host;

	/* Where `plumb run --archive` adds the bundle; not part of the spec. */
	struct {
		char *url;                /* archive.url: a folder or a postgresql:// URL, or NULL */
		char *shown;              /* the same without its password (common/url.h), for output */
	} archive;

	struct config_bench *benches;  /* in file order, at least one after config_check() */
	size_t nbenches;

	/* From the command line only; not part of the spec, not rendered. */
	char *workdir;     /* NULL: the default ($XDG_CACHE_HOME/plumb/runs) */
	/* run --from, audit --remeasure: the bundle read (NULL: a plumb.conf)
	 * and the commits it recorded for base and candidate, which the
	 * checkout holds the revisions to (NULL: not pinned, as when --base or
	 * --candidate replaced the recorded revision). */
	struct {
		char *bundle;
		char *commit[2];
	} from;
	bool keep;
	bool keep_going;
	bool no_cache;     /* --no-cache: neither restore from nor store in the build cache */

	uint64_t explicit_keys;  /* internal: which keys were set, not defaulted */

	/* What reading the file noticed and the caller should say ("plumb.conf:12:
	 * build.command: ..."), in file order; freed by config_release(). */
	char **warnings;
	size_t nwarnings;
};

/*
 * Command-line values applied over the file.  Strings are the raw
 * arguments (NULL: not given) and go through the same checks as the file's
 * values; messages name the option ("--pads: '0' is not ...").
 */
struct config_overrides {
	const char *base;
	const char *candidate;
	const char *pads;
	const char *rounds;
	const char *seed;
	const char *jobs;         /* --jobs N: build.jobs */
	const char **benches;     /* --bench NAME...: keep only these (file order) */
	size_t nbenches;
	const char **labels;      /* --label KEY=VALUE...: added, or replacing the file's KEY */
	size_t nlabels;
	const char *workdir;
	bool keep;
	bool keep_going;
	bool no_cache;
};

/* One documented key; the table behind the parser, the man page test and --help. */
struct config_key {
	const char *section;   /* "repo", "run", "build" or "bench" */
	const char *name;      /* documented spelling, e.g. "padBytes" */
	const char *def;       /* default as written in plumb.conf, or NULL */
	bool required;
	bool multi;            /* may be given more than once (run.label) */
	const char *values;    /* allowed values, one line, e.g. "link | env | none" */
};

/*
 * A benchmark's name as a file name component of [A-Za-z0-9._-] (a
 * bundle's member names): an expanded name NAME/a=1,b=x+y is
 * NAME--a-1_b-x.y, any other byte becomes _ (a Google Benchmark name,
 * NAME/BM_t<int>/8 is NAME--BM_t_int_--8).  Plain names are unchanged.
 */
#define CONFIG_BENCH_FILE_ID_MAX (2 * CONFIG_BENCH_FULL_NAME_MAX)
void config_bench_file_id(const char *name, char out[CONFIG_BENCH_FILE_ID_MAX + 1]);

/* The i-th known key (bench keys under section "bench"), NULL past the end. */
const struct config_key *config_key_at(size_t i);

/* build.cacheSize and `plumb cache prune --size`: a size in bytes: 0, 512K, 200M, 4G, 1T (powers of 1024); text gets the
 * canonical spelling. */
int config_parse_size(const char *where, const char *v, uint64_t *out, char *text,
		      size_t text_size, struct plumb_err *err);

/* Fill cfg with the defaults; fails only when memory runs out. */
int config_init(struct plumb_config *cfg, struct plumb_err *err);

/* Free everything cfg holds and zero it (config_init() before reuse). */
void config_release(struct plumb_config *cfg);

/*
 * Add (or with replace, replace) one label "KEY=VALUE" to cfg->run.labels:
 * the one check of a label, for plumb.conf's run.label, --label of
 * `plumb run` and of `plumb import`.  where names the source in messages.
 */
int config_add_label(const char *where, const char *v, bool replace,
		     struct plumb_config *cfg, struct plumb_err *err);

/*
 * Read path into cfg (set up with config_init(), once), checking every
 * value.  Required keys are checked later, by config_check(), so that
 * flags may supply them.  On error cfg holds part of the file; release it.
 */
int config_read(struct plumb_config *cfg, const char *path,
		struct plumb_err *err);

/*
 * Set one key from text, as if read from a file: name is
 * "section.key" or "bench.NAME.key" (case-insensitive, bench NAME as is),
 * origin names the source in messages ("plumb.conf", "--pads").
 */
int config_set(struct plumb_config *cfg, const char *name, const char *value,
	       const char *origin, struct plumb_err *err);

/* Apply command-line overrides (ov may be NULL); an unknown --bench is an error. */
int config_apply_overrides(struct plumb_config *cfg,
			   const struct config_overrides *ov,
			   struct plumb_err *err);

/* Check required keys and keys that depend on each other. */
int config_check(const struct plumb_config *cfg, struct plumb_err *err);

/*
 * config_init + config_read + config_apply_overrides + config_check.
 * On error cfg is released (and empty), err says why.
 */
int config_load(struct plumb_config *cfg, const char *path,
		const struct config_overrides *ov, struct plumb_err *err);

/*
 * A recorded configuration (a manifest's spec, as config_to_json() wrote
 * it) applied to cfg (set up with config_init()) key by key through
 * config_set(); origin names it in messages ("run.plumb: spec").
 */
int config_from_spec(struct plumb_config *cfg, const json_t *spec, const char *origin,
		     struct plumb_err *err);

/*
 * A recorded spec value as plumb.conf text, appended to out: 0, 1 for
 * null (not set), -1 for a value plumb.conf cannot hold (an object) or a
 * full buffer.  The reports show the configuration with it too.
 */
int config_value_text(const json_t *v, struct buf *out);

/*
 * Keys that say where this machine keeps things, not how a run measured
 * (run.lock, build.cacheSize, archive.url): a bundle's spec leaves them
 * out, and a spec read from a bundle may not set them (formats/bundle-v1.md,
 * "The spec read back").  name is "section.key"; value is the spec's value
 * as plumb.conf text (NULL: not set).  PLUMB_EINPUT naming origin and the
 * key when a spec sets one to other than its default.
 */
int config_spec_key_check(const char *name, const char *value, const char *origin,
			  struct plumb_err *err);

/* How config_load_bundle() reads a bundle, and what it found about its signature. */
struct config_from {
	const char *repo;                   /* --repo PATH, or NULL */
	const struct config_overrides *ov;  /* or NULL */
	const struct sign_public_key *keys; /* the trusted keys (formats/keyring.h), or NULL */
	size_t n_keys;
	/* Out: the commands it records run only when trusted (or the user says so). */
	int trusted;                        /* a good signature by one of keys */
	int signed_by_other;                /* signed, by none of keys (or no key to check) */
	int unverified;                     /* a folder without SHA256SUMS: never trusted */
	char keyid[SIGN_KEYID_HEX];         /* signed: the signing key's id, else "" */
};

/*
 * `plumb run --from BUNDLE`: config_init, then the spec of the bundle (a
 * file or folder, verified first; a signature by one of from->keys
 * checked, by another key recorded), the repository (from->repo, else the
 * folder the bundle recorded when its spec names one relative to its
 * plumb.conf, else, that folder gone, the remote URL it recorded as
 * repo.url), the recorded commits as cfg->from.commit, the overrides,
 * config_check.  A spec that sets a key config_spec_key_check() refuses
 * is PLUMB_EINPUT.  On error cfg is released.
 */
int config_load_bundle(struct plumb_config *cfg, const char *bundle, struct config_from *from,
		       struct plumb_err *err);

/*
 * The effective configuration as a new JSON object (caller json_decref()s
 * it), every key with its value, keys in the documented order; NULL when
 * memory runs out.  Layout: docs/plumb.conf.5, EFFECTIVE CONFIGURATION.
 */
json_t *config_to_json(const struct plumb_config *cfg);

/*
 * The effective configuration as plumb.conf text (appended to out): every
 * key with its value, unset optional keys as comments.  Reading the text
 * back gives the same configuration.
 */
int config_to_text(const struct plumb_config *cfg, struct buf *out,
		   struct plumb_err *err);

/* Names for enum values as written in plumb.conf ("link", "samples", ...). */
const char *config_pad_name(enum config_pad pad);
const char *config_reuse_name(enum config_reuse reuse);
const char *config_mode_name(enum config_mode mode);
const char *config_checksum_name(enum config_checksum checksum);
const char *config_counter_name(enum config_counter counter);

/*
 * How many times the run judges its benchmarks and may stop on a verdict:
 * 1 for a fixed run.pads; with run.pads = auto, the first sweep and each
 * extension run.maxPads allows (6, 10, 14, 18 pads: 4).  The shift rule's
 * level is split evenly over them (runner/run-judge.c, docs/verdict.md).
 */
unsigned config_sweep_looks(const struct plumb_config *cfg);

/* The bench named name (exact match), or NULL. */
const struct config_bench *config_bench_find(const struct plumb_config *cfg,
					     const char *name);

/*
 * The repository folder: repo.path as is when absolute, else joined to
 * cfg->dir (appended to out).  PLUMB_EINPUT when repo.url is used instead.
 */
int config_repo_dir(const struct plumb_config *cfg, struct buf *out,
		    struct plumb_err *err);

/*
 * A duration as plumb.conf spells one ("90", "90s", "30m", "2h", "1h30m"):
 * seconds from 1 to 168 hours; otherwise PLUMB_EINPUT naming where.
 */
int config_parse_duration(const char *where, const char *v, long *out,
			  struct plumb_err *err);

#endif
