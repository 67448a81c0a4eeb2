/*
 * formats/config.c: the keys of plumb.conf and reading them: the key
 * table, setting one key from text (the file, a default, a flag), reading
 * a file through libgit2 (git-config syntax), command-line overrides and
 * the checks between keys.  The value parsers are in config-value.c, the
 * renderers (plumb.conf text and JSON) in config-render.c.
 *
 * One descriptor table drives everything (config_keys[] below): a row
 * holds a key's name, default, doc line, kind, the offset of its field and
 * its bounds or choices, so that the defaults (read from it as a file's
 * values are), the parser (set_key()), the read-back for --dry-run and the
 * bundle's spec (config_key_value()), the "did you mean" suggestions and
 * the test that keeps docs/plumb.conf.5 in step all walk it.  A key with
 * a rule of its own names a small function in its row (check, or set and
 * get for KIND_SPECIAL).  libgit2 only parses the syntax; the meaning of
 * each key is here, so a typo is an error, never a silently ignored setting.
 *
 * libgit2 (1.5) is the one parser.  prescan() reads the bytes first for
 * what libgit2 lets through or acts on before plumb sees an entry:
 *   - a NUL byte: libgit2 ends the value there ("HEAD~1\0junk" would run
 *     HEAD~1);
 *   - a quote left open at the end of a line: libgit2 reads it as closed;
 *   - an [include] or [includeIf] section: libgit2 opens the named file
 *     while parsing (a FIFO hangs it, and an error inside /etc/passwd is
 *     reported as this file's); read_entries() refuses include.path too;
 *   - where each key line is and whether the syntax removed quote
 *     characters from a command (libgit2's entries carry no line): the
 *     warning of warn_quotes().
 * Each names the line.  Everything else (syntax, escapes, continuation
 * lines, case of names) is libgit2's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "common/git2.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/path.h"
#include "common/suggest.h"
#include "common/units.h"
#include "common/url.h"
#include "formats/config.h"
#include "formats/config-internal.h"
#include "stats/rule.h"
#include "common/banned.h"

const char *const config_sections[CONFIG_NSECTIONS] = { "repo", "run", "build", "verdict", "host", "archive", "bench" };
static const char *const rule_names[] = { "shift", "margin", "overlap" };
static const char *const pad_names[] = { "link", "env", "none" };
static const char *const reuse_names[] = { "relink", "none" };
static const char *const offsets_names[] = { "linear", "spread" };
static const char *const mode_names[] = { "process", "samples", "gbench" };
static const char *const checksum_names[] = { "auto", "required", "off" };
static const char *const aslr_names[] = { "on", "off" };
static const char *const keep_names[] = { "none", "pad0", "all" };
static const char *const counter_names[] = { "auto", "hardware", "valgrind", "both" };

static const char *const build_placeholders[] = {
	"pad", "pad_bytes", "pad_object", "pad_ldflags"
};
static const char *const bench_placeholders[] = { "artifact" };

/* KIND_CHOICE stores the index through an int: every enum it fills is one. */
_Static_assert(sizeof(enum config_pad) == sizeof(int) && sizeof(enum config_keep) == sizeof(int) &&
	       sizeof(enum config_offsets) == sizeof(int) && sizeof(enum config_reuse) == sizeof(int) &&
	       sizeof(enum config_mode) == sizeof(int) && sizeof(enum config_checksum) == sizeof(int) &&
	       sizeof(enum config_counter) == sizeof(int) && sizeof(enum metric_id) == sizeof(int),
	       "KIND_CHOICE fields are int-sized enums");

/* ---- the rules of single keys ------------------------------------------ */

static void value_str(struct key_value *v, const char *s, const char *note)
{
	v->kind = s || !note ? V_STR : V_NONE;
	v->s = s;
	v->note = note;
}

static void value_u64(struct key_value *v, enum value_kind kind, uint64_t n)
{
	v->kind = kind;
	v->n = n;
}

static int repo_path_check(struct plumb_config *cfg, struct config_bench *b, const char *v,
			   const char *where, struct plumb_err *err)
{
	(void)b, (void)v;
	if (cfg->repo.url)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: repo.url is given too; give one of path and url", where);
	return 0;
}

static bool repo_by_path(const struct plumb_config *cfg, const struct config_bench *b)
{
	(void)b;
	return !cfg->repo.url;
}

/* repo.url replaces repo.path's default; both given is an error. */
static int repo_url_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
			const char *where, struct plumb_err *err)
{
	(void)b;
	if (cfg->explicit_keys & (UINT64_C(1) << K_REPO_PATH))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: repo.path is given too; give one of path and url", where);
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a URL", where, SHOW(v));
	if (!*v)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty value", where);
	if (config_set_str(&cfg->repo.url, v, err) < 0)
		return PLUMB_EINTERNAL;
	free(cfg->repo.path);
	cfg->repo.path = NULL;
	return 0;
}

static int glob_check(struct plumb_config *cfg, struct config_bench *b, const char *v,
		      const char *where, struct plumb_err *err)
{
	(void)cfg, (void)b;
	return *v ? 0 : plumb_err_set(err, PLUMB_EINPUT, "%s: empty value (a glob: v*)", where);
}

/* run.pads: a number, or auto (the adaptive sweep from CONFIG_PADS_AUTO_START). */
static int pads_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
		    const char *where, struct plumb_err *err)
{
	uint64_t n = CONFIG_PADS_AUTO_START;
	bool is_auto = strcasecmp(v, "auto") == 0;

	(void)b;
	if (!is_auto && config_parse_number(where, v, 1, CONFIG_PADS_MAX, &n, err) < 0)
		return PLUMB_EINPUT;
	cfg->run.pads = (unsigned)n;
	cfg->run.pads_auto = is_auto;
	return 0;
}

static void pads_get(const struct plumb_config *cfg, const struct config_bench *b,
		     struct key_value *v)
{
	(void)b;
	if (cfg->run.pads_auto)
		value_str(v, "auto", NULL);
	else
		value_u64(v, V_U64, cfg->run.pads);
}

static bool pads_auto(const struct plumb_config *cfg, const struct config_bench *b)
{
	(void)b;
	return cfg->run.pads_auto;
}

static int cpus_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
		    const char *where, struct plumb_err *err)
{
	(void)b;
	return config_parse_cpus(where, v, cfg, err);
}

static void cpus_get(const struct plumb_config *cfg, const struct config_bench *b,
		     struct key_value *v)
{
	(void)b;
	v->kind = cfg->run.ncpus ? V_CPUS : V_NONE;
	v->cpus = cfg->run.cpus;
	v->ncpus = cfg->run.ncpus;
	v->note = "not set (no pinning)";
}

static int label_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
		     const char *where, struct plumb_err *err)
{
	(void)b;
	return config_add_label(where, v, false, cfg, err);
}

static void label_get(const struct plumb_config *cfg, const struct config_bench *b,
		      struct key_value *v)
{
	(void)b;
	v->kind = V_LABELS;
	v->labels = cfg->run.labels;
	v->nlabels = cfg->run.nlabels;
	v->note = "none";
}

/* archive.url, and the same without its password for everything shown. */
static int archive_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
		       const char *where, struct plumb_err *err)
{
	int rc = config_parse_text(where, v, &cfg->archive.url, err);

	(void)b;
	free(cfg->archive.shown);
	cfg->archive.shown = NULL;
	if (rc == 0 && !(cfg->archive.shown = url_redact(cfg->archive.url)))
		return plumb_err_oom(err, where);
	return rc;
}

static void archive_get(const struct plumb_config *cfg, const struct config_bench *b,
			struct key_value *v)
{
	(void)b;
	value_str(v, cfg->archive.shown, "not set ($PLUMB_ARCHIVE, else $XDG_DATA_HOME/plumb)");
}

/* verdict.rule: the rule's static name, as stats_rule_select() takes it. */
static int rule_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
		    const char *where, struct plumb_err *err)
{
	int choice;

	(void)b;
	if (config_parse_choice(where, v, rule_names, N_OF(rule_names), &choice, err) < 0)
		return PLUMB_EINPUT;
	cfg->verdict.rule = rule_names[choice];
	return 0;
}

static void rule_get(const struct plumb_config *cfg, const struct config_bench *b,
		     struct key_value *v)
{
	(void)b;
	value_str(v, cfg->verdict.rule, NULL);
}

/* A {param:NAME} left in a benchmark's command or filter (no params). */
static int params_done(struct plumb_config *cfg, struct config_bench *b, const char *v,
		       const char *where, struct plumb_err *err)
{
	(void)cfg, (void)b;
	return config_params_leftover(where, v, err);
}

static bool gbench_mode(const struct plumb_config *cfg, const struct config_bench *b)
{
	(void)cfg;
	return b->mode == CONFIG_MODE_GBENCH;
}

static bool samples_mode(const struct plumb_config *cfg, const struct config_bench *b)
{
	(void)cfg;
	return b->mode == CONFIG_MODE_SAMPLES;
}

/* bench.NAME.warmup: auto, none (or 0), or a count of samples to drop. */
static int warmup_set(struct plumb_config *cfg, struct config_bench *b, const char *v,
		      const char *where, struct plumb_err *err)
{
	uint64_t n;

	(void)cfg;
	if (strcasecmp(v, "auto") == 0) {
		b->warmup = CONFIG_WARMUP_AUTO;
	} else if (strcasecmp(v, "none") == 0 || strcmp(v, "0") == 0) {
		b->warmup = CONFIG_WARMUP_NONE;
	} else if (config_parse_u64(v, 1, SAMPLES_MAX, &n)) {
		b->warmup = CONFIG_WARMUP_COUNT;
		b->warmup_count = n;
	} else {
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: '%s' is not auto, none or a whole number from 1 to %" PRIu64,
				     where, SHOW(v), SAMPLES_MAX);
	}
	return 0;
}

static void warmup_get(const struct plumb_config *cfg, const struct config_bench *b,
		       struct key_value *v)
{
	(void)cfg;
	if (b->warmup == CONFIG_WARMUP_COUNT)
		value_u64(v, V_U64, b->warmup_count);
	else
		value_str(v, b->warmup == CONFIG_WARMUP_AUTO ? "auto" : "none", NULL);
}

/* ---- the key table ------------------------------------------------------ */

#define KEY(sec, name, def, doc) .pub = { sec, name, def, false, false, doc }
#define REQUIRED(sec, name, doc) .pub = { sec, name, NULL, true, false, doc }
#define RUN(field)   .off = offsetof(struct plumb_config, field)
#define BENCH(field) .off = offsetof(struct config_bench, field)
#define BENCH2(field, field2) BENCH(field), .off2 = offsetof(struct config_bench, field2)
#define CFG2(field, field2) RUN(field), .off2 = offsetof(struct plumb_config, field2)
#define CHOICES(a) .choices = (a), .nchoices = N_OF(a)
#define UINT(lo, hi) .kind = KIND_UINT, .min = (lo), .max = (hi)
#define TEXT(parser) .kind = KIND_STR, .parse = (parser)
#define SPECIAL(s, g) .kind = KIND_SPECIAL, .set = (s), .get = (g)
#define ONLY(fn, note) .applies = (fn), .unapplied = (note)
#define CMD "a shell command"
#define DURATION "a duration: 90, 90s, 30m, 2h"

/* Every key in documented and rendered order, one row per enum key_id. */
const struct key_def config_keys[K_COUNT] = {
	[K_REPO_PATH] = { KEY("repo", "path", ".", "a folder (relative to plumb.conf's folder)"),
			  TEXT(config_parse_text), RUN(repo.path), .check = repo_path_check,
			  ONLY(repo_by_path, "not used (url is given)") },
	[K_REPO_URL] = { KEY("repo", "url", NULL, "a URL git can clone"), .kind = KIND_STR, .set = repo_url_set,
			 RUN(repo.url), .unset = "not set" },
	[K_REPO_RELEASE_TAGS] = { KEY("repo", "releaseTags", NULL,
				      "a glob of tag names (v*): the tags run.base = latest-tag chooses from"),
				  TEXT(config_parse_text), RUN(repo.release_tags), .check = glob_check,
				  .unset = "not set (every tag)" },
	[K_RUN_BASE] = { REQUIRED("run", "base", "a revision"), TEXT(config_parse_rev), RUN(run.base),
			 .unset = "not set (required)" },
	[K_RUN_CANDIDATE] = { KEY("run", "candidate", "HEAD", "a revision, or WORKTREE"),
			      TEXT(config_parse_rev), RUN(run.candidate) },
	[K_RUN_PADS] = { KEY("run", "pads", "auto", "1 to 64, or auto"), SPECIAL(pads_set, pads_get) },
	[K_RUN_MAX_PADS] = { KEY("run", "maxPads", "18", "6 to 64 (pads = auto only)"),
			     UINT(CONFIG_PADS_AUTO_START, CONFIG_PADS_MAX), RUN(run.max_pads),
			     ONLY(pads_auto, "pads = auto only") },
	[K_RUN_BUDGET] = { KEY("run", "budget", "15m", DURATION " (pads = auto only)"),
			   .kind = KIND_DURATION, RUN(run.budget), ONLY(pads_auto, "pads = auto only") },
	[K_RUN_ROUNDS] = { KEY("run", "rounds", "10", "1 to 100000"), UINT(1, CONFIG_ROUNDS_MAX),
			   RUN(run.rounds) },
	[K_RUN_SEED] = { KEY("run", "seed", "1", "0 to 9223372036854775807"), .kind = KIND_U64,
			 .max = SEED_MAX, RUN(run.seed) },
	[K_RUN_CONTROL] = { KEY("run", "control", "true", "true | false"), .kind = KIND_BOOL,
			    RUN(run.control) },
	[K_RUN_WARMUP_RUNS] = { KEY("run", "warmupRuns", "1", "0 to 1000"), UINT(0, WARMUP_RUNS_MAX),
				RUN(run.warmup_runs) },
	[K_RUN_CPU] = { KEY("run", "cpu", NULL, "a CPU list: 2, 0-3, 1,3,5-7"), SPECIAL(cpus_set, cpus_get) },
	/* on and off, or any other boolean spelling git accepts. */
	[K_RUN_ASLR] = { KEY("run", "aslr", "on", "on | off"), .kind = KIND_BOOL, CHOICES(aslr_names),
			 RUN(run.aslr) },
	[K_RUN_ENV] = { KEY("run", "env", "PATH HOME LANG", "variable names, space-separated"),
			.kind = KIND_WORDS, CFG2(run.env, run.nenv), .word_ok = config_env_name_ok,
			.what = "a variable name" },
	[K_RUN_KEEP_ARTIFACTS] = { KEY("run", "keepArtifacts", "pad0", "none | pad0 | all"),
				   .kind = KIND_CHOICE, CHOICES(keep_names), RUN(run.keep_artifacts) },
	[K_RUN_LABEL] = { .pub = { "run", "label", NULL, false, true, "KEY=VALUE, repeatable" },
			  SPECIAL(label_set, label_get) },
	[K_RUN_SETUP] = { KEY("run", "setup", NULL, CMD), .kind = KIND_COMMAND, RUN(run.setup) },
	[K_RUN_CLEANUP] = { KEY("run", "cleanup", NULL, CMD), .kind = KIND_COMMAND, RUN(run.cleanup) },
	[K_RUN_LOCK] = { KEY("run", "lock", NULL, "a file path (the machine-wide lock)"),
			 TEXT(config_parse_text), RUN(run.lock), .local = true,
			 .unset = "not set (/run/lock/plumb, /var/lock/plumb or $XDG_RUNTIME_DIR/plumb.lock)" },
	[K_RUN_PROJECT] = { KEY("run", "project", NULL, "a name: the project in the archive (default: "
				"the repository's remote URL, else its first commit id)"),
			    TEXT(config_parse_text), RUN(run.project),
			    .unset = "not set (the remote URL, else the first commit id)" },
	[K_BUILD_COMMAND] = { REQUIRED("build", "command", CMD), .kind = KIND_COMMAND,
			      CHOICES(build_placeholders), RUN(build.command), .unset = "not set (required)" },
	[K_BUILD_ARTIFACT] = { REQUIRED("build", "artifact", "a relative path inside the tree"),
			       TEXT(config_parse_artifact), RUN(build.artifact), .unset = "not set (required)" },
	[K_BUILD_PAD] = { KEY("build", "pad", "link", "link | env | none"), .kind = KIND_CHOICE,
			  CHOICES(pad_names), RUN(build.pad) },
	[K_BUILD_PAD_BYTES] = { KEY("build", "padBytes", "16", "1 to 65536"), UINT(1, PAD_BYTES_MAX),
				RUN(build.pad_bytes) },
	[K_BUILD_PAD_OFFSETS] = { KEY("build", "padOffsets", "spread", "linear | spread"),
				  .kind = KIND_CHOICE, CHOICES(offsets_names), RUN(build.pad_offsets) },
	[K_BUILD_REUSE] = { KEY("build", "reuse", "relink", "relink | none"), .kind = KIND_CHOICE,
			    CHOICES(reuse_names), RUN(build.reuse) },
	[K_BUILD_TIMEOUT] = { KEY("build", "timeout", "30m", DURATION), .kind = KIND_DURATION,
			      RUN(build.timeout) },
	[K_BUILD_CC] = { KEY("build", "cc", "cc", "a compiler command"), TEXT(config_parse_text),
			 RUN(build.cc) },
	[K_BUILD_CACHE_SIZE] = { KEY("build", "cacheSize", "4G", "a size: 0 (off), 500M, 4G"),
				 .kind = KIND_SIZE, CFG2(build.cache_size, build.cache_size_text),
				 .local = true },
	[K_BUILD_JOBS] = { KEY("build", "jobs", "auto", "1 to 64, or auto (the number of CPUs)"),
			   UINT(1, CONFIG_JOBS_MAX), .auto_ok = true, RUN(build.jobs) },
	[K_VERDICT_RULE] = { KEY("verdict", "rule", "shift", "shift | margin | overlap"),
			     SPECIAL(rule_set, rule_get) },
	[K_VERDICT_CONFIDENCE] = { KEY("verdict", "confidence", "auto",
				       "0.5 to 0.999, or auto (shift 0.99, margin and overlap 0.95)"),
				   .kind = KIND_REAL, .lo = "0.5", .hi = "0.999", .auto_ok = true,
				   CFG2(verdict.confidence, verdict.confidence_text) },
	[K_VERDICT_MIN_EFFECT] = { KEY("verdict", "minEffect", "0.01", "0 to 0.5 (rule shift)"),
				   .kind = KIND_REAL, .lo = "0", .hi = "0.5",
				   CFG2(verdict.min_effect, verdict.min_effect_text) },
	[K_HOST_ALLOW] = { KEY("host", "allow", NULL, "check ids, comma-separated: virt,isolation"),
			   TEXT(config_parse_text), RUN(host.allow), .unset = "none" },
	[K_ARCHIVE_URL] = { KEY("archive", "url", NULL, "a folder, or postgresql://USER:PASSWORD@HOST/DB"),
			    .kind = KIND_STR, .set = archive_set, .get = archive_get, RUN(archive.url),
			    .local = true },
	[K_BENCH_COMMAND] = { REQUIRED("bench", "command", CMD), .kind = KIND_COMMAND,
			      CHOICES(bench_placeholders), BENCH(command), .check = params_done,
			      .unset = "not set (required)" },
	[K_BENCH_MODE] = { KEY("bench", "mode", "process", "process | samples | gbench"),
			   .kind = KIND_CHOICE, CHOICES(mode_names), BENCH(mode) },
	[K_BENCH_FILTER] = { KEY("bench", "filter", NULL,
				 "a Google Benchmark regular expression (mode = gbench only)"),
			     TEXT(config_parse_text), BENCH(filter), .check = params_done,
			     ONLY(gbench_mode, "mode = gbench only"),
			     .unset = "not set (every benchmark of the binary)" },
	[K_BENCH_WARMUP] = { KEY("bench", "warmup", "auto", "auto | N | none"),
			     SPECIAL(warmup_set, warmup_get), ONLY(samples_mode, "samples mode only") },
	[K_BENCH_METRIC] = { KEY("bench", "metric", "wall", NULL /* from the metric table */),
			     .kind = KIND_CHOICE, .choices = metric_bench_names, .nchoices = METRIC_COUNT,
			     BENCH(metric) },
	[K_BENCH_HOT] = { KEY("bench", "hot", NULL, "symbol names, space-separated"), .kind = KIND_WORDS,
			  BENCH2(hot, nhot), .word_ok = config_symbol_ok, .what = "a symbol name",
			  .unset = "not set (main is checked)" },
	[K_BENCH_HOT_COVERAGE] = { KEY("bench", "hotCoverage", "0.95", "0.5 to 1"), .kind = KIND_REAL,
				   .lo = "0.5", .hi = "1", BENCH2(hot_coverage, hot_coverage_text) },
	[K_BENCH_TIMEOUT] = { KEY("bench", "timeout", "5m", DURATION), .kind = KIND_DURATION,
			      BENCH(timeout) },
	[K_BENCH_MAX_SAMPLES] = { KEY("bench", "maxSamples", "10000000", "1 to 1000000000"),
				  .kind = KIND_U64, .min = 1, .max = SAMPLES_MAX, BENCH(max_samples),
				  ONLY(samples_mode, "samples mode only") },
	[K_BENCH_CHECKSUM] = { KEY("bench", "checksum", "auto", "auto | required | off"),
			       .kind = KIND_CHOICE, CHOICES(checksum_names), BENCH(checksum) },
	[K_BENCH_COUNTER] = { KEY("bench", "counter", "auto", "auto | hardware | valgrind | both"),
			      .kind = KIND_CHOICE, CHOICES(counter_names), BENCH(counter) },
	[K_BENCH_PARAMS] = { KEY("bench", "params", NULL, "NAME=V1,V2;NAME=V1,..."),
			     TEXT(config_parse_params), BENCH(params) },
	[K_BENCH_PREPARE] = { KEY("bench", "prepare", NULL, CMD), .kind = KIND_COMMAND,
			      CHOICES(bench_placeholders), BENCH(prepare), .check = params_done },
	[K_BENCH_SETUP] = { KEY("bench", "setup", NULL, CMD), .kind = KIND_COMMAND,
			    CHOICES(bench_placeholders), BENCH(setup), .check = params_done },
	[K_BENCH_CLEANUP] = { KEY("bench", "cleanup", NULL, CMD), .kind = KIND_COMMAND,
			      CHOICES(bench_placeholders), BENCH(cleanup), .check = params_done },
};

/* "wall | cpu | ...": the metrics a benchmark may be measured by. */
static const char *metric_choices(void)
{
	static char text[256];

	if (!text[0]) {
		size_t used = 0;

		for (int m = 0; m < METRIC_COUNT; m++) {
			int n;

			if (!metric_table[m].bench)
				continue;
			n = snprintf(text + used, sizeof(text) - used, "%s%s",
				     used ? " | " : "", metric_table[m].name);
			if (n < 0 || (size_t)n >= sizeof(text) - used)
				break;
			used += (size_t)n;
		}
	}
	return text;
}

const struct config_key *config_key_at(size_t i)
{
	static struct config_key metric_key;

	if (i >= N_OF(config_keys))
		return NULL;
	if (i == K_BENCH_METRIC) {
		metric_key = config_keys[i].pub;
		metric_key.values = metric_choices();
		return &metric_key;
	}
	return &config_keys[i].pub;
}

/* The key of section sec named name (any case), or NULL. */
static const struct key_def *key_find(const char *sec, const char *name)
{
	for (size_t i = 0; i < N_OF(config_keys); i++)
		if (strcasecmp(config_keys[i].pub.section, sec) == 0 &&
		    strcasecmp(config_keys[i].pub.name, name) == 0)
			return &config_keys[i];
	return NULL;
}

const char *config_pad_name(enum config_pad pad)
{
	return (size_t)pad < N_OF(pad_names) ? pad_names[pad] : "?";
}

const char *config_reuse_name(enum config_reuse reuse)
{
	return (size_t)reuse < N_OF(reuse_names) ? reuse_names[reuse] : "?";
}

const char *config_mode_name(enum config_mode mode)
{
	return (size_t)mode < N_OF(mode_names) ? mode_names[mode] : "?";
}

const char *config_counter_name(enum config_counter counter)
{
	return (size_t)counter < N_OF(counter_names) ? counter_names[counter] : "?";
}

const char *config_checksum_name(enum config_checksum checksum)
{
	return (size_t)checksum < N_OF(checksum_names) ? checksum_names[checksum] : "?";
}

/* The field of key kd in cfg, or in b for a bench key (const only for the
 * read-back: set_key() and release_keys() pass what they may write). */
static void *key_field(const struct key_def *kd, size_t off, const struct plumb_config *cfg,
		       const struct config_bench *b)
{
	return (char *)(kd - config_keys >= K_BENCH_FIRST ? (void *)b : (void *)cfg) + off;
}

/* Free the strings and lists the table's rows own (of cfg, or of bench b). */
static void release_keys(struct plumb_config *cfg, struct config_bench *b)
{
	for (size_t i = b ? K_BENCH_FIRST : 0; i < (b ? N_OF(config_keys) : K_BENCH_FIRST); i++) {
		const struct key_def *kd = &config_keys[i];

		if (kd->kind == KIND_STR || kd->kind == KIND_COMMAND)
			free(*(char **)key_field(kd, kd->off, cfg, b));
		else if (kd->kind == KIND_WORDS)
			config_free_list(key_field(kd, kd->off, cfg, b), key_field(kd, kd->off2, cfg, b));
	}
}

/* ---- benches ---------------------------------------------------------- */

static void bench_release(struct config_bench *b)
{
	free(b->name);
	free(b->gbench);
	release_keys(NULL, b);
	memset(b, 0, sizeof(*b));
}

static struct config_bench *bench_get(struct plumb_config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nbenches; i++)
		if (strcmp(cfg->benches[i].name, name) == 0)
			return &cfg->benches[i];
	return NULL;
}

const struct config_bench *config_bench_find(const struct plumb_config *cfg,
					     const char *name)
{
	for (size_t i = 0; i < cfg->nbenches; i++)
		if (strcmp(cfg->benches[i].name, name) == 0)
			return &cfg->benches[i];
	return NULL;
}

static int set_defaults(struct plumb_config *cfg, struct config_bench *b,
			struct plumb_err *err);

/* The bench of that name, created with the defaults when new. */
static int bench_add(struct plumb_config *cfg, const char *origin,
		     const char *name, struct config_bench **out,
		     struct plumb_err *err)
{
	struct config_bench *grown, *b;

	b = bench_get(cfg, name);
	if (b) {
		*out = b;
		return 0;
	}
	if (!config_bench_name_ok(name))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: [bench \"%s\"]: a benchmark name is 1 to %d letters, digits, "
				     "'.', '_' or '-', starting with a letter, digit or '_'",
				     origin, SHOW(name), CONFIG_BENCH_NAME_MAX);
	if (cfg->nbenches == CONFIG_BENCHES_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d benchmarks",
				     origin, CONFIG_BENCHES_MAX);
	grown = realloc(cfg->benches, (cfg->nbenches + 1) * sizeof(*grown));
	if (!grown)
		return config_oom(err);
	cfg->benches = grown;
	b = &grown[cfg->nbenches];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	if (!b->name)
		return config_oom(err);
	cfg->nbenches++;
	*out = b;
	return set_defaults(cfg, b, err);
}

/* ---- setting one key -------------------------------------------------- */

/* The text beside a KIND_REAL or KIND_SIZE field holds units_exact()'s output. */
_Static_assert(sizeof(((struct plumb_config *)0)->build.cache_size_text) == UNITS_EXACT_MAX &&
	       sizeof(((struct plumb_config *)0)->verdict.confidence_text) == UNITS_EXACT_MAX &&
	       sizeof(((struct plumb_config *)0)->verdict.min_effect_text) == UNITS_EXACT_MAX &&
	       sizeof(((struct config_bench *)0)->hot_coverage_text) == UNITS_EXACT_MAX,
	       "the texts of KIND_REAL and KIND_SIZE fields are UNITS_EXACT_MAX bytes");

/* A number from kd->lo to kd->hi (as written in messages), kept with its text. */
static int parse_real(const struct key_def *kd, const char *where, const char *v, double *out,
		      char text[UNITS_EXACT_MAX], struct plumb_err *err)
{
	char *end;
	double x;

	if (kd->auto_ok && strcasecmp(v, "auto") == 0) {
		*out = 0;
		snprintf(text, UNITS_EXACT_MAX, "auto");
		return 0;
	}
	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || !(x >= strtod(kd->lo, NULL) && x <= strtod(kd->hi, NULL)))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a number from %s to %s",
				     where, SHOW(v), kd->lo, kd->hi);
	*out = x;
	units_exact(x, UNITS_EXACT_PLAIN, text);
	return 0;
}

/*
 * Set key id (of bench b for bench keys) from v, as its row says; where
 * prefixes messages ("plumb.conf: run.pads", "--pads").  v is NULL for a
 * key without '='.
 */
static int set_key(struct plumb_config *cfg, struct config_bench *b,
		   enum key_id id, const char *v, const char *where,
		   struct plumb_err *err)
{
	const struct key_def *kd = &config_keys[id];
	void *f = key_field(kd, kd->off, cfg, b);
	void *f2 = key_field(kd, kd->off2, cfg, b);
	uint64_t n = 0;
	int choice, rc;

	/* A bare key is true, as git reads it, for a plain boolean only. */
	if (!v && !(kd->kind == KIND_BOOL && !kd->choices))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: missing value (write '%s = VALUE')",
				     where, kd->pub.name);
	if (v && strlen(v) > VALUE_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: value longer than %d bytes",
				     where, VALUE_MAX);
	if (v && !config_utf8_ok(v))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not valid UTF-8",
				     where, SHOW(v));
	if (kd->check && (rc = kd->check(cfg, b, v, where, err)) < 0)
		return rc;
	if (kd->set)
		return kd->set(cfg, b, v, where, err);
	switch (kd->kind) {
	case KIND_STR:
		return kd->parse(where, v, f, err);
	case KIND_COMMAND:
		return config_parse_command(where, v, f, kd->choices, kd->nchoices, err);
	case KIND_UINT:
	case KIND_U64:
		if (!(kd->auto_ok && strcasecmp(v, "auto") == 0) &&
		    (rc = config_parse_number(where, v, kd->min, kd->max, &n, err)) < 0)
			return rc;
		if (kd->kind == KIND_UINT)
			*(unsigned *)f = (unsigned)n;
		else
			*(uint64_t *)f = n;
		return 0;
	case KIND_BOOL:
		/* Spelled by its choices (on | off), or any boolean git accepts. */
		if (!kd->choices || (*v && config_parse_bool(where, v, f, NULL) == 0))
			return config_parse_bool(where, v, f, err);
		if ((rc = config_parse_choice(where, v, kd->choices, kd->nchoices, &choice, err)) < 0)
			return rc;
		*(bool *)f = choice == 0;
		return 0;
	case KIND_DURATION:
		return config_parse_duration(where, v, f, err);
	case KIND_CHOICE:
		if ((rc = config_parse_choice(where, v, kd->choices, kd->nchoices, &choice, err)) < 0)
			return rc;
		*(int *)f = choice;
		return 0;
	case KIND_REAL:
		return parse_real(kd, where, v, f, f2, err);
	case KIND_SIZE:
		return config_parse_size(where, v, f, f2, UNITS_EXACT_MAX, err);
	case KIND_WORDS:
		return config_parse_words(where, v, kd->word_ok, kd->what, f, f2, err);
	case KIND_SPECIAL:
		break;
	}
	return plumb_err_set(err, PLUMB_EINTERNAL, "%s: no setter", where);
}

/*
 * Set every key of cfg (b NULL) or of bench b that has a default to it,
 * read from config_keys[] as a file's value would be: the defaults are written
 * there once.  Defaults are not marked as given.
 */
static int set_defaults(struct plumb_config *cfg, struct config_bench *b,
			struct plumb_err *err)
{
	for (size_t i = b ? K_BENCH_FIRST : 0; i < (b ? N_OF(config_keys) : K_BENCH_FIRST); i++) {
		const struct key_def *kd = &config_keys[i];
		char where[96];
		int rc;

		if (!kd->pub.def)
			continue;
		snprintf(where, sizeof(where), "default of %s.%s", kd->pub.section, kd->pub.name);
		rc = set_key(cfg, b, (enum key_id)i, kd->pub.def, where, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * The effective value of key id (of bench b for bench keys), for the
 * renderers: set_key() read backwards, from the same row.  A key that does
 * not apply (samples-only keys in process mode) shows so.
 */
void config_key_value(const struct plumb_config *cfg, const struct config_bench *b,
		      enum key_id id, struct key_value *v)
{
	const struct key_def *kd = &config_keys[id];
	const void *f = key_field(kd, kd->off, cfg, b);
	const void *f2 = key_field(kd, kd->off2, cfg, b);

	memset(v, 0, sizeof(*v));
	v->kind = V_NONE;
	if (kd->applies && !kd->applies(cfg, b)) {
		v->note = kd->unapplied;
		return;
	}
	if (kd->get) {
		kd->get(cfg, b, v);
		return;
	}
	switch (kd->kind) {
	case KIND_STR:
	case KIND_COMMAND:
		value_str(v, *(char *const *)f, kd->unset);
		return;
	case KIND_UINT:
		if (kd->auto_ok && *(const unsigned *)f == 0)
			value_str(v, "auto", NULL);
		else
			value_u64(v, V_U64, *(const unsigned *)f);
		return;
	case KIND_U64:
		value_u64(v, V_U64, *(const uint64_t *)f);
		return;
	case KIND_BOOL:
		if (kd->choices) {
			value_str(v, kd->choices[*(const bool *)f ? 0 : 1], NULL);
		} else {
			v->kind = V_BOOL;
			v->flag = *(const bool *)f;
		}
		return;
	case KIND_DURATION:
		value_u64(v, V_DURATION, (uint64_t)*(const long *)f);
		return;
	case KIND_CHOICE:
		value_str(v, kd->choices[*(const int *)f], NULL);
		return;
	case KIND_REAL:
	case KIND_SIZE:
		value_str(v, f2, NULL);
		return;
	case KIND_WORDS:
		v->kind = V_WORDS;
		v->words = *(char **const *)f;
		v->nwords = *(const size_t *)f2;
		v->note = kd->unset;
		return;
	case KIND_SPECIAL:
		break;
	}
	v->note = "?";
}

/* After set_key() succeeded: remember that the key was given. */
static void mark_explicit(struct plumb_config *cfg, struct config_bench *b,
			  enum key_id id)
{
	if (id >= K_BENCH_FIRST)
		b->explicit_keys |= 1u << (id - K_BENCH_FIRST);
	else
		cfg->explicit_keys |= UINT64_C(1) << id;
}

static bool is_explicit(const struct plumb_config *cfg,
			const struct config_bench *b, enum key_id id)
{
	if (id >= K_BENCH_FIRST)
		return (b->explicit_keys >> (id - K_BENCH_FIRST)) & 1u;
	return (cfg->explicit_keys >> id) & 1u;
}

/* Splits "sec.sub.key" (sub may hold dots) into three fresh strings. */
static int split_name(const char *name, char **sec, char **sub, char **key)
{
	const char *d1 = strchr(name, '.');
	const char *d2 = strrchr(name, '.');

	*sec = *sub = *key = NULL;
	if (!d1) {
		*sec = strdup(name);
		*key = strdup("");
	} else {
		*sec = strndup(name, (size_t)(d1 - name));
		*key = strdup(d2 + 1);
		if (d2 > d1) {
			*sub = strndup(d1 + 1, (size_t)(d2 - d1 - 1));
			if (!*sub)
				goto fail;
		}
	}
	if (*sec && *key)
		return 0;
fail:
	free(*sec);
	free(*sub);
	free(*key);
	*sec = *sub = *key = NULL;
	return -1;
}

/* The message for a key nobody knows, with a suggestion when one is near. */
static int unknown_key(const char *origin, const char *name, const char *sec,
		       const char *sub, const char *key, struct plumb_err *err)
{
	const char *cands[N_OF(config_keys)];
	const char *near;
	size_t n = 0;
	bool known_sec = false;

	for (size_t i = 0; i < CONFIG_NSECTIONS; i++)
		if (strcasecmp(sec, config_sections[i]) == 0)
			known_sec = true;
	if (!known_sec) {
		near = suggest_pick(sec, config_sections, CONFIG_NSECTIONS);
		if (near)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: %s: unknown section '%s' (did you mean '%s'?)",
					     origin, SHOW(name), SHOW(sec), near);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: %s: unknown section '%s' (sections: repo, run, build, verdict, host, archive, bench)",
				     origin, SHOW(name), SHOW(sec));
	}
	if (strcasecmp(sec, "bench") == 0 && !sub)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: %s: a benchmark section needs a name: [bench \"NAME\"]",
				     origin, SHOW(name));
	if (strcasecmp(sec, "bench") != 0 && sub)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: %s: section [%s] takes no name (write [%s])",
				     origin, SHOW(name), sec, sec);
	for (size_t i = 0; i < N_OF(config_keys); i++)
		if (strcasecmp(config_keys[i].pub.section, sec) == 0)
			cands[n++] = config_keys[i].pub.name;
	near = suggest_pick(key, cands, n);
	if (near) {
		if (sub)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: %s: unknown key (did you mean '%s.%s.%s'?)",
					     origin, SHOW(name), sec, SHOW(sub), near);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: %s: unknown key (did you mean '%s.%s'?)",
				     origin, SHOW(name), sec, near);
	}
	/* The right key in the wrong section: "run.timeout" -> build.timeout. */
	for (size_t i = 0; i < N_OF(config_keys); i++)
		if (strcasecmp(config_keys[i].pub.name, key) == 0) {
			const char *s = config_keys[i].pub.section;

			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: %s: unknown key (did you mean '%s.%s%s'?)",
					     origin, SHOW(name), s,
					     strcmp(s, "bench") == 0 ? "NAME." : "",
					     config_keys[i].pub.name);
		}
	return plumb_err_set(err, PLUMB_EINPUT, "%s: %s: unknown key", origin, SHOW(name));
}

/*
 * Resolve a full name to its key (and bench, created when new), then set
 * it.  seen_twice: error when the key was already given (one file).
 */
/* 1 when word is in list. */
static int in_list(const char *word, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, list[i]) == 0)
			return 1;
	return 0;
}

/*
 * Placeholders are expanded only in the keys that document them: a
 * "{name}" of build.command's or bench.NAME.command's anywhere else is an
 * error, not literal text the user did not mean.  (Other braces, "${x}"
 * or awk '{print}', are shell text and pass.)
 */
static int check_foreign_placeholders(const char *where, const struct key_def *kd, const char *v,
				      struct plumb_err *err)
{
	const char *const *own = kd->kind == KIND_COMMAND ? kd->choices : NULL;

	for (const char *p = v ? strchr(v, '{') : NULL; p; p = strchr(p + 1, '{')) {
		const char *end = strchr(p + 1, '}');
		char word[32];
		const char *owner;
		if (!end || (size_t)(end - p - 1) >= sizeof(word) || (p > v && p[-1] == '$'))
			continue;
		memcpy(word, p + 1, (size_t)(end - p - 1));
		word[end - p - 1] = '\0';
		if (in_list(word, build_placeholders, N_OF(build_placeholders)))
			owner = "build.command";
		else if (in_list(word, bench_placeholders, N_OF(bench_placeholders)))
			owner = "bench.NAME.command";
		else
			continue;
		if (own && in_list(word, own, kd->nchoices))
			continue;
		return plumb_err_set(err, PLUMB_EINPUT, "%s: '{%s}' is a placeholder of %s only; "
				     "%s", where, word, owner,
				     own ? "this command does not expand it" :
				     "this key takes no placeholders");
	}
	return 0;
}

static int set_named(struct plumb_config *cfg, const char *name, const char *v,
		     const char *origin, bool once, struct plumb_err *err)
{
	char *sec, *sub, *key;
	const struct key_def *kd;
	struct config_bench *b = NULL;
	char where[PLUMB_ERR_MAX / 2];
	enum key_id id;
	int rc;

	if (split_name(name, &sec, &sub, &key) < 0)
		return config_oom(err);
	kd = key_find(sec, key);
	id = kd ? (enum key_id)(kd - config_keys) : K_COUNT;
	if (!kd || (strcmp(kd->pub.section, "bench") == 0) != (sub != NULL)) {
		rc = unknown_key(origin, name, sec, sub, key, err);
		goto out;
	}
	if (sub) {
		rc = bench_add(cfg, origin, sub, &b, err);
		if (rc < 0)
			goto out;
		snprintf(where, sizeof(where), "%s: bench.%s.%s", origin, sub, kd->pub.name);
	} else {
		snprintf(where, sizeof(where), "%s: %s.%s", origin, kd->pub.section, kd->pub.name);
	}
	if (once && !kd->pub.multi && is_explicit(cfg, b, id)) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "%s: given more than once (give each key once)", where);
		goto out;
	}
	rc = check_foreign_placeholders(where, kd, v, err);
	if (rc == 0)
		rc = set_key(cfg, b, id, v, where, err);
	if (rc == 0)
		mark_explicit(cfg, b, id);
out:
	free(sec);
	free(sub);
	free(key);
	return rc;
}

int config_set(struct plumb_config *cfg, const char *name, const char *value,
	       const char *origin, struct plumb_err *err)
{
	return set_named(cfg, name, value, origin, false, err);
}

/* ---- a spec read from a bundle ---------------------------------------- */

int config_spec_key_check(const char *name, const char *value, const char *origin,
			  struct plumb_err *err)
{
	const struct key_def *kd;
	char *sec, *sub, *key;

	if (!value)
		return 0;
	if (split_name(name, &sec, &sub, &key) < 0)
		return config_oom(err);
	kd = sub ? NULL : key_find(sec, key);
	free(sec);
	free(sub);
	free(key);
	/* Unknown keys are config_set()'s to refuse.  A default changes nothing
	 * (older bundles record build.cacheSize = 4G in every spec). */
	if (!kd || !kd->local || (kd->pub.def && strcmp(value, kd->pub.def) == 0))
		return 0;
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: %s.%s = '%s': refused: a bundle may not choose this machine's lock, "
			     "build cache or archive (formats/bundle-v1.md, \"The spec read back\")",
			     origin, kd->pub.section, kd->pub.name, SHOW(value));
}

/* ---- init, release ---------------------------------------------------- */

int config_init(struct plumb_config *cfg, struct plumb_err *err)
{
	memset(cfg, 0, sizeof(*cfg));
	if (config_set_str(&cfg->dir, ".", err) < 0 || set_defaults(cfg, NULL, err) < 0) {
		config_release(cfg);
		return PLUMB_EINTERNAL;
	}
	return 0;
}

void config_release(struct plumb_config *cfg)
{
	if (!cfg)
		return;
	free(cfg->file);
	free(cfg->dir);
	release_keys(cfg, NULL);
	free(cfg->run.cpus);
	for (size_t i = 0; i < cfg->run.nlabels; i++) {
		free(cfg->run.labels[i].key);
		free(cfg->run.labels[i].value);
	}
	free(cfg->run.labels);
	free(cfg->archive.shown);
	for (size_t i = 0; i < cfg->nbenches; i++)
		bench_release(&cfg->benches[i]);
	free(cfg->benches);
	free(cfg->workdir);
	free(cfg->from.bundle);
	free(cfg->from.commit[0]);
	free(cfg->from.commit[1]);
	for (size_t i = 0; i < cfg->nwarnings; i++)
		free(cfg->warnings[i]);
	free(cfg->warnings);
	memset(cfg, 0, sizeof(*cfg));
}

/* ---- reading a file --------------------------------------------------- */

/*
 * libgit2's parse errors read "failed to parse config file: <what> (in
 * <path>:<line>[, column <c>])"; say "<path>:<line>: <what>" instead.
 */
static int git_syntax_error(const char *path, struct plumb_err *err)
{
	const git_error *ge = git_error_last();
	const char *msg = ge && ge->message ? ge->message : "unknown error";
	const char *prefix = "failed to parse config file: ";
	const char *in = strstr(msg, " (in ");
	const char *colon;
	char what[PLUMB_ERR_MAX / 2];
	unsigned long line;

	if (strncmp(msg, prefix, strlen(prefix)) == 0 && in) {
		colon = strrchr(in, ':');
		if (colon && is_digit(colon[1])) {
			line = strtoul(colon + 1, NULL, 10);
			msg += strlen(prefix);
			snprintf(what, sizeof(what), "%.*s", (int)(in - msg), msg);
			return plumb_err_set(err, PLUMB_EINPUT, "%s:%lu: syntax error: %s",
					     path, line, what);
		}
	}
	return plumb_err_set(err, PLUMB_EINPUT, "%s: %s", path, msg);
}

static int set_file_names(struct plumb_config *cfg, const char *path,
			  struct plumb_err *err)
{
	char *dir;

	if (config_set_str(&cfg->file, path, err) < 0)
		return PLUMB_EINTERNAL;
	dir = path_dirname(path);
	if (!dir)
		return config_oom(err);
	free(cfg->dir);
	cfg->dir = dir;
	return 0;
}

static void entries_free(struct config_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].value);
	}
	free(e);
}

/* One key line of the file, in file order: where it is and whether the
 * syntax removed quote characters from its value. */
struct quote_mark {
	unsigned long line;
	int quoted;
};

/*
 * The checks libgit2 does not make (the list at the top of this file), in
 * the bytes before libgit2 reads them, each naming the line; and a
 * quote_mark per key line for warn_quotes().
 */
static int prescan(const char *path, struct quote_mark **marks, size_t *nmarks,
		   struct plumb_err *err)
{
	struct buf text;
	const char *s, *end;
	unsigned long line = 1;
	int quote = 0, continued = 0, special = 0, rc;
	const char *open = NULL;   /* where the quote now open opened, on this line */

	buf_init(&text, CONFIG_FILE_MAX + 1);
	if ((rc = file_read(path, CONFIG_FILE_MAX, &text, err)) < 0) {
		buf_release(&text);
		return rc;
	}
	s = text.data;
	end = s + text.len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *le = nl ? nl : end, *p = s, *nul, *vstart = NULL;
		int comment = 0;

		if ((nul = memchr(s, '\0', (size_t)(le - s))) != NULL) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s:%lu: a NUL byte (column %zu)",
					   path, line, (size_t)(nul - s) + 1);
			goto out;
		}
		while (!quote && p < le && (*p == ' ' || *p == '\t'))
			p++;
		if (!quote && p < le && *p == '[') {
			/* A section header: [name], [name "sub"] or [name.sub]. */
			const char *q = p + 1;
			size_t n = 0;
			while (q + n < le && q[n] != ']' && q[n] != ' ' && q[n] != '\t' &&
			       q[n] != '.' && q[n] != '"')
				n++;
			if ((n == 7 && strncasecmp(q, "include", 7) == 0) ||
			    (n == 9 && strncasecmp(q, "includeif", 9) == 0)) {
				rc = plumb_err_set(err, PLUMB_EINPUT, "%s:%lu: [%.*s]: includes are not "
						   "supported (plumb.conf is one self-contained file)",
						   path, line, (int)n, q);
				goto out;
			}
			p = le;   /* a header's quotes are libgit2's to check */
		} else if (!continued && p < le && *p != ';' && *p != '#') {
			/* A key line: libgit2 gives its entries in this order. */
			struct quote_mark *grown = realloc(*marks, (*nmarks + 1) * sizeof(**marks));
			if (!grown) {
				rc = config_oom(err);
				goto out;
			}
			*marks = grown;
			grown[*nmarks].line = line;
			grown[*nmarks].quoted = 0;
			(*nmarks)++;
			/* The value's first character: a quote there may wrap it whole. */
			if ((vstart = memchr(p, '=', (size_t)(le - p))) != NULL) {
				vstart++;
				while (vstart < le && (*vstart == ' ' || *vstart == '\t'))
					vstart++;
			}
		}
		for (; p < le && !comment; p++) {
			if (*p == '\\') {
				if (p + 1 >= le)
					break;   /* continued on the next line */
				p++;
			} else if (*p == '"' && !quote) {
				quote = 1;
				open = p;
				special = 0;
			} else if (*p == '"') {
				/* Quotes wrapping the whole value (the way to keep ; and #)
				 * or holding nothing a command splits on change no word;
				 * others do: warned about (warn_quotes()). */
				const char *rest = p + 1;
				quote = 0;
				while (rest < le && (*rest == ' ' || *rest == '\t'))
					rest++;
				if (special && *nmarks &&
				    !(open && open == vstart && (rest == le || *rest == ';' || *rest == '#')))
					(*marks)[*nmarks - 1].quoted = 1;
			} else if (quote && strchr(" \t;&|<>$`()*?[#'~", *p)) {
				special = 1;
			} else if (!quote && (*p == ';' || *p == '#')) {
				comment = 1;
			}
		}
		/* A value may go on after a backslash at the end of the line. */
		if (quote && !(le > s && le[-1] == '\\' && !comment)) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s:%lu: a quote (\") is not closed on "
					   "this line", path, line);
			goto out;
		}
		continued = le > s && le[-1] == '\\' && !comment;
		open = NULL;
		if (quote)
			special = 1;   /* a value going on over lines: a newline inside */
		if (!(le > s && le[-1] == '\\'))
			quote = 0;
		s = nl ? nl + 1 : end;
		line++;
	}
	rc = 0;
out:
	buf_release(&text);
	return rc;
}

/* All entries of the file, in file order; rejects includes. */
static int read_entries(const char *path, struct config_entry **out, size_t *nout,
			struct plumb_err *err)
{
	git_config *gc = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *ge;
	struct config_entry *v = NULL;
	size_t n = 0;
	int rc = 0, grc;

	if (git_config_open_ondisk(&gc, path) < 0)
		return git_syntax_error(path, err);
	if (git_config_iterator_new(&it, gc) < 0) {
		rc = git_syntax_error(path, err);
		goto out;
	}
	while ((grc = git_config_next(&ge, it)) == 0) {
		struct config_entry *grown;

		/* An include would let $HOME or another file in: refuse it. */
		if (ge->include_depth > 0 || strcasecmp(ge->name, "include.path") == 0 ||
		    strncasecmp(ge->name, "includeif.", 10) == 0) {
			rc = plumb_err_set(err, PLUMB_EINPUT,
					   "%s: %s: includes are not supported (plumb.conf is one self-contained file)",
					   path, ge->include_depth > 0 ? "include" : SHOW(ge->name));
			goto out;
		}
		if (n == CONFIG_ENTRIES_MAX) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d keys",
					   path, CONFIG_ENTRIES_MAX);
			goto out;
		}
		grown = realloc(v, (n + 1) * sizeof(*v));
		if (!grown) {
			rc = config_oom(err);
			goto out;
		}
		v = grown;
		v[n].name = strdup(ge->name);
		v[n].value = ge->value ? strdup(ge->value) : NULL;
		n++;
		if (!v[n - 1].name || (ge->value && !v[n - 1].value)) {
			rc = config_oom(err);
			goto out;
		}
	}
	if (grc != GIT_ITEROVER)
		rc = git_syntax_error(path, err);
out:
	git_config_iterator_free(it);
	git_config_free(gc);
	if (rc < 0) {
		entries_free(v, n);
		return rc;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* build.command or bench.NAME.command (libgit2 lower-cases section and key). */
static int is_command_key(const char *name)
{
	size_t len = strlen(name);

	return strcasecmp(name, "build.command") == 0 ||
	       (strncasecmp(name, "bench.", 6) == 0 && len > 14 &&
		strcasecmp(name + len - 8, ".command") == 0);
}

/*
 * The syntax of plumb.conf took quote characters out of a command (they
 * group words for the file, they never reach the command): say so, with
 * the command as it will run and how to pass a quote through.
 */
static int warn_quotes(struct plumb_config *cfg, const char *path, unsigned long line,
		       const char *name, const char *value, struct plumb_err *err)
{
	char **grown = realloc(cfg->warnings, (cfg->nwarnings + 1) * sizeof(*grown));
	char *w;

	if (!grown)
		return config_oom(err);
	cfg->warnings = grown;
	w = buf_strdupf("%s:%lu: %s: the plumb.conf syntax removed the quote characters (\") "
			"from this value; it runs as: %s; to give the command a quote, write \\\" "
			"in plumb.conf (make X=\\\"a b\\\" passes X=\"a b\" to the shell)",
			path, line, name, value);
	if (!w)
		return config_oom(err);
	cfg->warnings[cfg->nwarnings++] = w;
	return 0;
}

int config_read(struct plumb_config *cfg, const char *path,
		struct plumb_err *err)
{
	struct quote_mark *marks = NULL;
	size_t nmarks = 0;
	struct config_entry *e = NULL;
	size_t n = 0;
	struct stat st;
	int rc;

	/* libgit2 reads a missing file as an empty one: check first. */
	if (stat(path, &st) < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path, "cannot read");
	if (!S_ISREG(st.st_mode))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: not a regular file", path);
	if (st.st_size > CONFIG_FILE_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: larger than %d bytes",
				     path, CONFIG_FILE_MAX);
	rc = set_file_names(cfg, path, err);
	if (rc < 0)
		return rc;
	rc = prescan(path, &marks, &nmarks, err);
	if (rc < 0) {
		free(marks);
		return rc;
	}
	if ((rc = git2_init(err)) < 0) {
		free(marks);
		return rc;
	}
	rc = read_entries(path, &e, &n, err);
	if (rc < 0) {
		free(marks);
		return rc;
	}
	/* A matrix changes the entries: its quote warnings are given up
	 * (the pairing below checks nmarks == n) rather than misplaced. */
	if ((rc = config_params_expand(path, &e, &n, err)) < 0) {
		free(marks);
		entries_free(e, n);
		return rc;
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = set_named(cfg, e[i].name, e[i].value, path, true, err);
	/* The key lines and the entries pair up unless a header line holds a
	 * key too ("[build] command = x"): then no warning rather than a wrong one. */
	for (size_t i = 0; i < n && rc == 0 && nmarks == n; i++)
		if (marks[i].quoted && e[i].value && is_command_key(e[i].name))
			rc = warn_quotes(cfg, path, marks[i].line, e[i].name, e[i].value, err);
	free(marks);
	entries_free(e, n);
	return rc;
}

/* ---- overrides, checks ------------------------------------------------ */

static int override(struct plumb_config *cfg, enum key_id id, const char *v,
		    const char *opt, struct plumb_err *err)
{
	int rc;

	if (!v)
		return 0;
	rc = set_key(cfg, NULL, id, v, opt, err);
	if (rc == 0)
		mark_explicit(cfg, NULL, id);
	return rc;
}

/* Whether name is an expansion of family (bench.FAMILY.params: "FAMILY/..."). */
static bool in_family(const char *name, const char *family)
{
	size_t len = strlen(family);

	return strncmp(name, family, len) == 0 && name[len] == '/';
}

static bool bench_family(const struct plumb_config *cfg, const char *family)
{
	for (size_t i = 0; i < cfg->nbenches; i++)
		if (in_family(cfg->benches[i].name, family))
			return true;
	return false;
}

/* Keep only the benches named in names (file order), a family name all of
 * its expansions; unknown names are errors. */
static int filter_benches(struct plumb_config *cfg, const char **names,
			  size_t n, struct plumb_err *err)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		const char **cands;
		const char *near;

		if (bench_get(cfg, names[i]) || bench_family(cfg, names[i]))
			continue;
		cands = malloc((cfg->nbenches + 1) * sizeof(*cands));
		if (!cands)
			return config_oom(err);
		for (size_t j = 0; j < cfg->nbenches; j++)
			cands[j] = cfg->benches[j].name;
		near = suggest_pick(names[i], cands, cfg->nbenches);
		if (near)
			plumb_err_set(err, PLUMB_EINPUT,
				      "--bench: no benchmark '%s' in %s (did you mean '%s'?)",
				      SHOW(names[i]), cfg->file ? cfg->file : "the configuration",
				      SHOW(near));
		else
			plumb_err_set(err, PLUMB_EINPUT, "--bench: no benchmark '%s' in %s",
				      SHOW(names[i]), cfg->file ? cfg->file : "the configuration");
		free(cands);
		return PLUMB_EINPUT;
	}
	for (size_t i = 0; i < cfg->nbenches; i++) {
		bool want = false;

		for (size_t j = 0; j < n && !want; j++)
			want = strcmp(cfg->benches[i].name, names[j]) == 0 ||
			       in_family(cfg->benches[i].name, names[j]);
		if (want)
			cfg->benches[kept++] = cfg->benches[i];
		else
			bench_release(&cfg->benches[i]);
	}
	cfg->nbenches = kept;
	return 0;
}

int config_apply_overrides(struct plumb_config *cfg,
			   const struct config_overrides *ov,
			   struct plumb_err *err)
{
	int rc;

	if (!ov)
		return 0;
	if ((rc = override(cfg, K_RUN_BASE, ov->base, "--base", err)) < 0 ||
	    (rc = override(cfg, K_RUN_CANDIDATE, ov->candidate, "--candidate", err)) < 0 ||
	    (rc = override(cfg, K_RUN_PADS, ov->pads, "--pads", err)) < 0 ||
	    (rc = override(cfg, K_RUN_ROUNDS, ov->rounds, "--rounds", err)) < 0 ||
	    (rc = override(cfg, K_RUN_SEED, ov->seed, "--seed", err)) < 0 ||
	    (rc = override(cfg, K_BUILD_JOBS, ov->jobs, "--jobs", err)) < 0)
		return rc;
	for (size_t i = 0; i < ov->nlabels; i++) {
		rc = config_add_label("--label", ov->labels[i], true, cfg, err);
		if (rc < 0)
			return rc;
	}
	if (ov->nbenches) {
		rc = filter_benches(cfg, ov->benches, ov->nbenches, err);
		if (rc < 0)
			return rc;
	}
	if (ov->workdir) {
		if (!*ov->workdir)
			return plumb_err_set(err, PLUMB_EINPUT, "--workdir: empty value");
		rc = config_set_str(&cfg->workdir, ov->workdir, err);
		if (rc < 0)
			return rc;
	}
	cfg->keep = ov->keep;
	cfg->keep_going = ov->keep_going;
	cfg->no_cache = ov->no_cache;
	return 0;
}

/*
 * A mode gbench section: the binary's own times are the values (wall is its
 * real_time, cpu its cpu_time), and its standard output is its JSON, so no
 * counter, no valgrind round and no checksum= line on stdout.
 */
static int gbench_check(const char *f, const struct config_bench *b, struct plumb_err *err)
{
	if (b->metric != METRIC_WALL && b->metric != METRIC_CPU)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: bench.%s.metric: '%s' does not apply to mode = gbench "
				     "(wall is Google Benchmark's real_time, cpu its cpu_time)",
				     f, b->name, metric_name(b->metric));
	if (b->counter != CONFIG_COUNTER_AUTO)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: bench.%s.counter: '%s' does not apply to mode = gbench "
				     "(its times are the binary's own: nothing is counted)",
				     f, b->name, config_counter_name(b->counter));
	if (b->checksum == CONFIG_CHECKSUM_REQUIRED)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: bench.%s.checksum: 'required' does not apply to mode = gbench "
				     "(its standard output is Google Benchmark's JSON)", f, b->name);
	return 0;
}

int config_check(const struct plumb_config *cfg, struct plumb_err *err)
{
	const char *f = cfg->file ? cfg->file : "plumb.conf";

	if (!cfg->run.base)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: run.base: missing (required)", f);
	if (!cfg->build.command)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: build.command: missing (required)", f);
	if (!cfg->build.artifact)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: build.artifact: missing (required)", f);
	if (strcmp(cfg->run.candidate, CONFIG_LATEST_TAG) == 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: run.candidate: " CONFIG_LATEST_TAG " chooses a base (the newest release "
				     "before the candidate); give the candidate as a revision", f);
	if (cfg->repo.url && (strcmp(cfg->run.base, "WORKTREE") == 0 ||
			      strcmp(cfg->run.candidate, "WORKTREE") == 0))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: run.%s: WORKTREE needs repo.path (a repository given by url has no working copy)",
				     f, strcmp(cfg->run.base, "WORKTREE") == 0 ? "base" : "candidate");
	if (cfg->nbenches == 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: bench: missing (at least one [bench \"NAME\"] section is required)", f);
	for (size_t i = 0; i < cfg->nbenches; i++) {
		const struct config_bench *b = &cfg->benches[i];

		if (!b->command)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: bench.%s.command: missing (required)", f, b->name);
		if (b->mode != CONFIG_MODE_SAMPLES) {
			if (is_explicit(cfg, b, K_BENCH_WARMUP))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "%s: bench.%s.warmup: applies to mode = samples only "
						     "(use run.warmupRuns for %s mode)", f, b->name,
						     config_mode_name(b->mode));
			if (is_explicit(cfg, b, K_BENCH_MAX_SAMPLES))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "%s: bench.%s.maxSamples: applies to mode = samples only",
						     f, b->name);
		}
		if (b->mode == CONFIG_MODE_SAMPLES && b->metric != METRIC_WALL)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: bench.%s.metric: '%s' applies to mode = process only "
					     "(samples are the benchmark's own durations)",
					     f, b->name, metric_name(b->metric));
		if (b->mode != CONFIG_MODE_GBENCH && b->filter)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: bench.%s.filter: applies to mode = gbench only", f, b->name);
		if (b->mode == CONFIG_MODE_GBENCH) {
			int rc = gbench_check(f, b, err);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

int config_load(struct plumb_config *cfg, const char *path,
		const struct config_overrides *ov, struct plumb_err *err)
{
	int rc = config_init(cfg, err);

	if (rc < 0)
		return rc;
	if ((rc = config_read(cfg, path, err)) < 0 ||
	    (rc = config_apply_overrides(cfg, ov, err)) < 0 ||
	    (rc = config_check(cfg, err)) < 0) {
		config_release(cfg);
		return rc;
	}
	return 0;
}

unsigned config_sweep_looks(const struct plumb_config *cfg)
{
	if (!cfg->run.pads_auto)
		return 1;
	return stats_sweep_looks(CONFIG_PADS_AUTO_START, CONFIG_PADS_AUTO_STEP, cfg->run.max_pads);
}

int config_repo_dir(const struct plumb_config *cfg, struct buf *out,
		    struct plumb_err *err)
{
	const char *p = cfg->repo.path;
	int rc;

	if (!p)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: repo.path: not set (the repository is given by url)",
				     cfg->file ? cfg->file : "plumb.conf");
	if (p[0] == '/' || !cfg->dir || strcmp(cfg->dir, ".") == 0)
		rc = buf_addstr(out, p);
	else if (strcmp(p, ".") == 0)
		rc = buf_addstr(out, cfg->dir);
	else
		rc = buf_printf(out, "%s%s%s", cfg->dir,
				cfg->dir[strlen(cfg->dir) - 1] == '/' ? "" : "/", p);
	return rc < 0 ? buf_err(err, "repository path") : 0;
}
