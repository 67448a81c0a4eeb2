/*
 * formats/config-internal.h: what the three files of formats/config share and
 * nobody else uses: the key table (config.c: keys, setting and reading),
 * the value parsers (config-value.c) and the renderers (config-render.c).
 *
 * Adding a key: a row in config_keys[] and its enum key_id, its field in
 * struct plumb_config (config.h), its case in set_key() and in
 * config_key_value() (config.c), and its entry in docs/plumb.conf.5 (a
 * unit test keeps the page and the table in step).  The renderers and the
 * defaults follow from the table.
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

/* Key ids; the order of keys[] is the documented and rendered order. */
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

/* run.lock, build.cacheSize, archive.url: this machine's, never a spec's (config.c). */
bool config_key_local(enum key_id id);

#define PAD_BYTES_MAX      65536
#define WARMUP_RUNS_MAX    1000
#define SAMPLES_MAX        UINT64_C(1000000000)
#define SEED_MAX           UINT64_C(9223372036854775807)
#define LABEL_KEY_MAX      64
#define VALUE_MAX          4096   /* bytes of one value (commands included) */

struct key_def {
	struct config_key pub;
	enum key_id id;
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
