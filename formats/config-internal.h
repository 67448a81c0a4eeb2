/*
 * formats/config-internal.h: what the three files of formats/config share and
 * nobody else uses: the key table (config.c: keys, setting and reading),
 * the value parsers (config-value.c) and the renderers (config-render.c).
 *
 * Adding a key: its enum key_id, its row in config_keys[] (config.c: name,
 * default, doc line, kind, field, bounds or choices; a rule of its own as
 * a function the row names), its field in struct plumb_config (config.h),
 * and its entry in docs/plumb.conf.5 (a unit test keeps the page and the
 * table in step).  Parsing, defaults, read-back and rendering follow from
 * the row.
 *
 * Ownership: the tables are static; struct key_value only borrows from
 * the configuration it describes.
 */
#ifndef PLUMB_FORMATS_CONFIG_INTERNAL_H
#define PLUMB_FORMATS_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/config.h"

struct buf;
struct plumb_err;

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Key ids, config_keys[]'s index: their order is the documented and rendered order. */
enum key_id {
	K_REPO_PATH, K_REPO_URL, K_REPO_RELEASE_TAGS,
	K_RUN_BASE, K_RUN_CANDIDATE, K_RUN_PADS, K_RUN_MAX_PADS, K_RUN_BUDGET,
	K_RUN_ROUNDS, K_RUN_SEED,
	K_RUN_CONTROL, K_RUN_WARMUP_RUNS, K_RUN_CPU, K_RUN_ASLR, K_RUN_ENV,
	K_RUN_KEEP_ARTIFACTS,
	K_RUN_LABEL, K_RUN_SETUP, K_RUN_CLEANUP, K_RUN_LOCK, K_RUN_PROJECT,
	K_BUILD_COMMAND, K_BUILD_ARTIFACT, K_BUILD_PAD, K_BUILD_PAD_BYTES,
	K_BUILD_PAD_OFFSETS, K_BUILD_REUSE, K_BUILD_TIMEOUT, K_BUILD_CC, K_BUILD_CACHE_SIZE, K_BUILD_JOBS,
	K_VERDICT_RULE, K_VERDICT_CONFIDENCE, K_VERDICT_MIN_EFFECT,
	K_HOST_ALLOW,
	K_ARCHIVE_URL,
	K_BENCH_COMMAND, K_BENCH_MODE, K_BENCH_FILTER, K_BENCH_WARMUP, K_BENCH_METRIC,
	K_BENCH_HOT, K_BENCH_HOT_COVERAGE, K_BENCH_TIMEOUT, K_BENCH_MAX_SAMPLES, K_BENCH_CHECKSUM,
	K_BENCH_COUNTER, K_BENCH_PARAMS, K_BENCH_PREPARE, K_BENCH_SETUP, K_BENCH_CLEANUP,
	K_COUNT
};
#define K_BENCH_FIRST K_BENCH_COMMAND

#define PAD_BYTES_MAX      65536
#define WARMUP_RUNS_MAX    1000
#define SAMPLES_MAX        UINT64_C(1000000000)
#define SEED_MAX           UINT64_C(9223372036854775807)
#define LABEL_KEY_MAX      64
#define VALUE_MAX          4096   /* bytes of one value (commands included) */

/*
 * How a key's text becomes its field (set_key()) and the field its value
 * shown (config_key_value()).  off is the field's offsetof in struct
 * plumb_config, or in struct config_bench for bench keys; off2 a second
 * field where the kind says.
 */
enum key_kind {
	KIND_STR,       /* char *, checked and copied by parse() */
	KIND_COMMAND,   /* char *, a shell command expanding the placeholders in choices */
	KIND_UINT,      /* unsigned from min to max; with auto_ok "auto" is 0 */
	KIND_U64,       /* uint64_t from min to max */
	KIND_BOOL,      /* bool; spelled choices[0] | choices[1] when choices are given */
	KIND_DURATION,  /* long seconds (config_parse_duration()) */
	KIND_CHOICE,    /* an int-sized enum: the index of the value in choices */
	KIND_REAL,      /* double from lo to hi, its text at off2; with auto_ok "auto" is 0 */
	KIND_SIZE,      /* uint64_t bytes, its canonical text at off2 */
	KIND_WORDS,     /* char ** and its size_t count at off2, each word passing word_ok() */
	KIND_SPECIAL    /* no field of its own: set() and get() do it all */
};

struct key_value;

/* A key's own rule: check v (before the kind's parser) or set it instead of it. */
typedef int key_set_fn(struct plumb_config *cfg, struct config_bench *b, const char *v,
		       const char *where, struct plumb_err *err);

/* One row of the key table; a rule of one key is a named function in its row. */
struct key_def {
	struct config_key pub;    /* name, default, doc line (plumb.conf.5, the tests) */
	enum key_kind kind;
	size_t off, off2;
	uint64_t min, max;        /* KIND_UINT, KIND_U64 */
	const char *lo, *hi;      /* KIND_REAL, as messages write them */
	bool auto_ok;             /* "auto" is a value (KIND_UINT, KIND_REAL) */
	bool local;               /* where this machine keeps things (run.lock, build.cacheSize,
	                             archive.url), not how a run measured: never in a bundle's
	                             spec, nor set by one (it could make plumb write to a file
	                             or server of its choosing) */
	const char *const *choices;
	size_t nchoices;
	int (*parse)(const char *where, const char *v, char **dst, struct plumb_err *err);
	bool (*word_ok)(const char *w);   /* KIND_WORDS, and what a word is */
	const char *what;
	key_set_fn *check;        /* extra rule run before the value is stored */
	key_set_fn *set;          /* replaces the kind's parser */
	void (*get)(const struct plumb_config *cfg, const struct config_bench *b,
		    struct key_value *v);   /* replaces the kind's read-back */
	const char *unset;        /* read-back note of a key not set (NULL: "not set") */
	bool (*applies)(const struct plumb_config *cfg, const struct config_bench *b);
	const char *unapplied;    /* read-back note when applies() says no */
};

/*
 * A key's effective value, as both renderers see it (config_key_value()): the
 * plumb.conf text and the JSON of one kind are written once, by kind.
 */
enum value_kind {
	V_NONE,       /* not set or not applied: a comment "; name: note", JSON null */
	V_STR,        /* s (NULL: not set) */
	V_U64,        /* n */
	V_BOOL,       /* flag: true | false */
	V_DURATION,   /* n seconds: "30m" in the text, 1800 in JSON */
	V_WORDS,      /* words[nwords]: "a b c", JSON array; none: note when set */
	V_CPUS,       /* cpus[ncpus]: "0-3,6", JSON array of numbers */
	V_LABELS      /* labels[nlabels]: one "KEY=VALUE" line each, JSON object; none: note */
};

struct key_value {
	enum value_kind kind;
	const char *note;
	const char *s;
	uint64_t n;
	bool flag;
	char *const *words;
	size_t nwords;
	const int *cpus;
	size_t ncpus;
	const struct config_label *labels;
	size_t nlabels;
};

/* Every key, in documented and rendered order; K_COUNT rows. */
extern const struct key_def config_keys[K_COUNT];

#define CONFIG_NSECTIONS 7
extern const char *const config_sections[CONFIG_NSECTIONS];  /* repo, run, build, verdict, host, archive, bench */

/* The effective value of key id (of bench b for bench keys). */
void config_key_value(const struct plumb_config *cfg, const struct config_bench *b,
		      enum key_id id, struct key_value *v);

/* One key = value line of the file, in file order (config.c). */
struct config_entry {
	char *name;
	char *value;   /* NULL for a key without '=' */
};

/*
 * Parameter matrices (config-params.c): replace the entries of every
 * [bench] section that has params by one section per combination, with
 * {param:NAME} substituted; *entries is replaced (the old array freed) and
 * holds whatever was built when an error is returned.
 */
int config_params_expand(const char *path, struct config_entry **entries, size_t *count,
			 struct plumb_err *err);
/* bench.NAME.params: check v (NAME=V1,V2;...) and store it. */
int config_parse_params(const char *where, const char *v, char **dst, struct plumb_err *err);
/* A {param:NAME} left in v (a benchmark without params): an error naming where. */
int config_params_leftover(const char *where, const char *v, struct plumb_err *err);
/* A parameter's name and value (config-value.c). */
bool config_param_name_ok(const char *s, size_t len);
bool config_param_value_ok(const char *s, size_t len);

/* ---- value parsers (config-value.c) ----------------------------------
 * Each checks v and stores it; where prefixes messages
 * ("plumb.conf: run.pads", "--pads"), which are PLUMB_EINPUT and show v
 * through SHOW().
 */

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Valid UTF-8 throughout (no overlong forms, surrogates, past U+10FFFF). */
bool config_utf8_ok(const char *v);

/* v as shown in a message: control characters and non-UTF-8 escaped, cut to size. */
const char *config_shown(const char *v, char *out, size_t size);
#define SHOWN_MAX 80
#define SHOW(v) config_shown((v), (char[SHOWN_MAX]){ 0 }, SHOWN_MAX)

int config_oom(struct plumb_err *err);
int config_set_str(char **dst, const char *v, struct plumb_err *err);
void config_free_list(char ***v, size_t *n);

bool config_parse_u64(const char *v, uint64_t min, uint64_t max, uint64_t *out);
int config_parse_number(const char *where, const char *v, uint64_t min,
			uint64_t max, uint64_t *out, struct plumb_err *err);
/* One of names (any case, "" entries skipped): its index, or an error listing them. */
int config_parse_choice(const char *where, const char *v,
			const char *const *names, size_t n, int *out,
			struct plumb_err *err);
int config_parse_bool(const char *where, const char *v, bool *out,
		      struct plumb_err *err);
void config_duration_text(long s, char *out, size_t size);
int config_parse_words(const char *where, const char *v,
		       bool (*ok)(const char *), const char *what,
		       char ***outv, size_t *outn, struct plumb_err *err);
bool config_env_name_ok(const char *w);
bool config_symbol_ok(const char *w);
bool config_bench_name_ok(const char *n);
int config_parse_rev(const char *where, const char *v, char **dst,
		     struct plumb_err *err);
int config_parse_command(const char *where, const char *v, char **dst,
			 const char *const *known, size_t n,
			 struct plumb_err *err);
int config_parse_text(const char *where, const char *v, char **dst,
		      struct plumb_err *err);
int config_parse_artifact(const char *where, const char *v, char **dst,
			  struct plumb_err *err);
int config_parse_cpus(const char *where, const char *v, struct plumb_config *cfg,
		      struct plumb_err *err);
int config_cpus_text(const int *c, size_t n, struct buf *out);

#endif
