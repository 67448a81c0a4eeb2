/*
 * formats/config.c: the keys of plumb.conf and reading them: the key
 * table, setting one key from text (the file, a default, a flag), reading
 * a file through libgit2 (git-config syntax), command-line overrides and
 * the checks between keys.  The value parsers are in config-value.c, the
 * renderers (plumb.conf text and JSON) in config-render.c.
 *
 * Everything is driven by one key table (config_keys[] below): the
 * defaults (read from it as a file's values are), the parser, the "did
 * you mean" suggestions, both renderers (through config_key_value(), one
 * value per key) and the test that keeps docs/plumb.conf.5 in step all
 * walk it.  libgit2 only parses the syntax; the meaning of each key is
 * here, so a typo is an error, never a silently ignored setting.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
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

const struct key_def config_keys[] = {
	{ { "repo", "path", ".", false, false, "a folder (relative to plumb.conf's folder)" }, K_REPO_PATH },
	{ { "repo", "url", NULL, false, false, "a URL git can clone" }, K_REPO_URL },
	{ { "repo", "releaseTags", NULL, false, false,
	    "a glob of tag names (v*): the tags run.base = latest-tag chooses from" }, K_REPO_RELEASE_TAGS },
	{ { "run", "base", NULL, true, false, "a revision" }, K_RUN_BASE },
	{ { "run", "candidate", "HEAD", false, false, "a revision, or WORKTREE" }, K_RUN_CANDIDATE },
	{ { "run", "pads", "auto", false, false, "1 to 64, or auto" }, K_RUN_PADS },
	{ { "run", "maxPads", "18", false, false, "6 to 64 (pads = auto only)" }, K_RUN_MAX_PADS },
	{ { "run", "budget", "15m", false, false, "a duration: 90, 90s, 30m, 2h (pads = auto only)" }, K_RUN_BUDGET },
	{ { "run", "rounds", "10", false, false, "1 to 100000" }, K_RUN_ROUNDS },
	{ { "run", "seed", "1", false, false, "0 to 9223372036854775807" }, K_RUN_SEED },
	{ { "run", "control", "true", false, false, "true | false" }, K_RUN_CONTROL },
	{ { "run", "warmupRuns", "1", false, false, "0 to 1000" }, K_RUN_WARMUP_RUNS },
	{ { "run", "cpu", NULL, false, false, "a CPU list: 2, 0-3, 1,3,5-7" }, K_RUN_CPU },
	{ { "run", "aslr", "on", false, false, "on | off" }, K_RUN_ASLR },
	{ { "run", "env", "PATH HOME LANG", false, false, "variable names, space-separated" }, K_RUN_ENV },
	{ { "run", "keepArtifacts", "pad0", false, false, "none | pad0 | all" }, K_RUN_KEEP_ARTIFACTS },
	{ { "run", "label", NULL, false, true, "KEY=VALUE, repeatable" }, K_RUN_LABEL },
	{ { "run", "setup", NULL, false, false, "a shell command" }, K_RUN_SETUP },
	{ { "run", "cleanup", NULL, false, false, "a shell command" }, K_RUN_CLEANUP },
	{ { "run", "lock", NULL, false, false, "a file path (the machine-wide lock)" }, K_RUN_LOCK },
	{ { "run", "project", NULL, false, false, "a name: the project in the archive (default: "
	    "the repository's remote URL, else its first commit id)" }, K_RUN_PROJECT },
	{ { "build", "command", NULL, true, false, "a shell command" }, K_BUILD_COMMAND },
	{ { "build", "artifact", NULL, true, false, "a relative path inside the tree" }, K_BUILD_ARTIFACT },
	{ { "build", "pad", "link", false, false, "link | env | none" }, K_BUILD_PAD },
	{ { "build", "padBytes", "16", false, false, "1 to 65536" }, K_BUILD_PAD_BYTES },
	{ { "build", "padOffsets", "spread", false, false, "linear | spread" }, K_BUILD_PAD_OFFSETS },
	{ { "build", "reuse", "relink", false, false, "relink | none" }, K_BUILD_REUSE },
	{ { "build", "timeout", "30m", false, false, "a duration: 90, 90s, 30m, 2h" }, K_BUILD_TIMEOUT },
	{ { "build", "cc", "cc", false, false, "a compiler command" }, K_BUILD_CC },
	{ { "build", "cacheSize", "4G", false, false, "a size: 0 (off), 500M, 4G" }, K_BUILD_CACHE_SIZE },
	{ { "build", "jobs", "auto", false, false, "1 to 64, or auto (the number of CPUs)" }, K_BUILD_JOBS },
	{ { "verdict", "rule", "shift", false, false, "shift | margin | overlap" }, K_VERDICT_RULE },
	{ { "verdict", "confidence", "auto", false, false,
	    "0.5 to 0.999, or auto (shift 0.99, margin and overlap 0.95)" }, K_VERDICT_CONFIDENCE },
	{ { "verdict", "minEffect", "0.01", false, false, "0 to 0.5 (rule shift)" }, K_VERDICT_MIN_EFFECT },
	{ { "host", "allow", NULL, false, false, "check ids, comma-separated: virt,isolation" }, K_HOST_ALLOW },
	{ { "archive", "url", NULL, false, false, "a folder, or postgresql://USER:PASSWORD@HOST/DB" }, K_ARCHIVE_URL },
	{ { "bench", "command", NULL, true, false, "a shell command" }, K_BENCH_COMMAND },
	{ { "bench", "mode", "process", false, false, "process | samples | gbench" }, K_BENCH_MODE },
	{ { "bench", "filter", NULL, false, false, "a Google Benchmark regular expression (mode = gbench only)" }, K_BENCH_FILTER },
	{ { "bench", "warmup", "auto", false, false, "auto | N | none" }, K_BENCH_WARMUP },
	{ { "bench", "metric", "wall", false, false, NULL /* from the metric table */ }, K_BENCH_METRIC },
	{ { "bench", "hot", NULL, false, false, "symbol names, space-separated" }, K_BENCH_HOT },
	{ { "bench", "hotCoverage", "0.95", false, false, "0.5 to 1" }, K_BENCH_HOT_COVERAGE },
	{ { "bench", "timeout", "5m", false, false, "a duration: 90, 90s, 30m, 2h" }, K_BENCH_TIMEOUT },
	{ { "bench", "maxSamples", "10000000", false, false, "1 to 1000000000" }, K_BENCH_MAX_SAMPLES },
	{ { "bench", "checksum", "auto", false, false, "auto | required | off" }, K_BENCH_CHECKSUM },
	{ { "bench", "counter", "auto", false, false, "auto | hardware | valgrind | both" }, K_BENCH_COUNTER },
	{ { "bench", "params", NULL, false, false, "NAME=V1,V2;NAME=V1,..." }, K_BENCH_PARAMS },
	{ { "bench", "prepare", NULL, false, false, "a shell command" }, K_BENCH_PREPARE },
	{ { "bench", "setup", NULL, false, false, "a shell command" }, K_BENCH_SETUP },
	{ { "bench", "cleanup", NULL, false, false, "a shell command" }, K_BENCH_CLEANUP },
};

const char *const config_sections[CONFIG_NSECTIONS] = { "repo", "run", "build", "verdict", "host", "archive", "bench" };
static const char *const rule_names[] = { "shift", "margin", "overlap" };

_Static_assert(sizeof(config_keys) / sizeof(config_keys[0]) == K_COUNT,
	       "one row of config_keys[] per enum key_id");

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
	if (config_keys[i].id == K_BENCH_METRIC) {
		metric_key = config_keys[i].pub;
		metric_key.values = metric_choices();
		return &metric_key;
	}
	return &config_keys[i].pub;
}

static const struct key_def *key_by_id(enum key_id id)
{
	for (size_t i = 0; i < N_OF(config_keys); i++)
		if (config_keys[i].id == id)
			return &config_keys[i];
	return NULL;
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

/* ---- benches ---------------------------------------------------------- */

static void bench_release(struct config_bench *b)
{
	free(b->name);
	free(b->command);
	free(b->filter);
	free(b->gbench);
	free(b->params);
	free(b->prepare);
	free(b->setup);
	free(b->cleanup);
	config_free_list(&b->hot, &b->nhot);
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

/* A number from 0.5 to max (written as in messages), kept with its text. */
static int parse_share(const char *where, const char *v, const char *max, double *out,
		       char text[32], struct plumb_err *err)
{
	char *end;
	double c, hi = strtod(max, NULL);

	errno = 0;
	c = strtod(v, &end);
	if (errno || end == v || *end || !(c >= 0.5 && c <= hi))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a number from 0.5 to %s",
				     where, SHOW(v), max);
	*out = c;
	units_exact(c, UNITS_EXACT_PLAIN, text);
	return 0;
}

/*
 * Set key id (of bench b for bench keys) from v; where prefixes messages
 * ("plumb.conf: run.pads", "--pads").  v is NULL for a key without '='.
 */
static int set_key(struct plumb_config *cfg, struct config_bench *b,
		   enum key_id id, const char *v, const char *where,
		   struct plumb_err *err)
{
	uint64_t n;
	int choice, rc;
	bool flag;

	if (!v && id != K_RUN_CONTROL)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: missing value (write '%s = VALUE')",
				     where, key_by_id(id)->pub.name);
	if (v && strlen(v) > VALUE_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: value longer than %d bytes",
				     where, VALUE_MAX);
	if (v && !config_utf8_ok(v))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not valid UTF-8",
				     where, SHOW(v));
	switch (id) {
	case K_REPO_PATH:
		if (cfg->repo.url)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: repo.url is given too; give one of path and url", where);
		return config_parse_text(where, v, &cfg->repo.path, err);
	case K_REPO_URL:
		if (cfg->explicit_keys & (UINT64_C(1) << K_REPO_PATH))
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: repo.path is given too; give one of path and url", where);
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p <= ' ' || *p == 0x7f)
				return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a URL",
						     where, SHOW(v));
		if (!*v)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: empty value", where);
		rc = config_set_str(&cfg->repo.url, v, err);
		if (rc == 0) {
			free(cfg->repo.path);
			cfg->repo.path = NULL;
		}
		return rc;
	case K_REPO_RELEASE_TAGS:
		if (!*v)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: empty value (a glob: v*)", where);
		return config_parse_text(where, v, &cfg->repo.release_tags, err);
	case K_RUN_BASE:
		return config_parse_rev(where, v, &cfg->run.base, err);
	case K_RUN_CANDIDATE:
		return config_parse_rev(where, v, &cfg->run.candidate, err);
	case K_RUN_PADS:
		if (strcasecmp(v, "auto") == 0) {
			cfg->run.pads = CONFIG_PADS_AUTO_START;
			cfg->run.pads_auto = true;
			return 0;
		}
		rc = config_parse_number(where, v, 1, CONFIG_PADS_MAX, &n, err);
		if (rc == 0) {
			cfg->run.pads = (unsigned)n;
			cfg->run.pads_auto = false;
		}
		return rc;
	case K_RUN_MAX_PADS:
		rc = config_parse_number(where, v, CONFIG_PADS_AUTO_START, CONFIG_PADS_MAX, &n, err);
		if (rc == 0)
			cfg->run.max_pads = (unsigned)n;
		return rc;
	case K_RUN_BUDGET:
		rc = config_parse_duration(where, v, &cfg->run.budget, err);
		if (rc == 0 && cfg->run.budget < 1)
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s': the budget must be at least 1 second",
					   where, SHOW(v));
		return rc;
	case K_RUN_ROUNDS:
		rc = config_parse_number(where, v, 1, CONFIG_ROUNDS_MAX, &n, err);
		if (rc == 0)
			cfg->run.rounds = (unsigned)n;
		return rc;
	case K_RUN_SEED:
		return config_parse_number(where, v, 0, SEED_MAX, &cfg->run.seed, err);
	case K_RUN_CONTROL:
		return config_parse_bool(where, v, &cfg->run.control, err);
	case K_RUN_WARMUP_RUNS:
		rc = config_parse_number(where, v, 0, WARMUP_RUNS_MAX, &n, err);
		if (rc == 0)
			cfg->run.warmup_runs = (unsigned)n;
		return rc;
	case K_RUN_CPU:
		return config_parse_cpus(where, v, cfg, err);
	case K_RUN_ASLR:
		/* on/off, and the other boolean spellings git accepts. */
		if (*v && config_parse_bool(where, v, &flag, NULL) == 0) {
			cfg->run.aslr = flag;
			return 0;
		}
		return config_parse_choice(where, v, aslr_names, N_OF(aslr_names), &choice, err);
	case K_RUN_ENV:
		return config_parse_words(where, v, config_env_name_ok, "a variable name",
				   &cfg->run.env, &cfg->run.nenv, err);
	case K_RUN_KEEP_ARTIFACTS:
		rc = config_parse_choice(where, v, keep_names, N_OF(keep_names), &choice, err);
		if (rc == 0)
			cfg->run.keep_artifacts = (enum config_keep)choice;
		return rc;
	case K_RUN_LABEL:
		return config_add_label(where, v, false, cfg, err);
	case K_RUN_SETUP:
		return config_parse_command(where, v, &cfg->run.setup, NULL, 0, err);
	case K_RUN_CLEANUP:
		return config_parse_command(where, v, &cfg->run.cleanup, NULL, 0, err);
	case K_RUN_LOCK:
		return config_parse_text(where, v, &cfg->run.lock, err);
	case K_RUN_PROJECT:
		return config_parse_text(where, v, &cfg->run.project, err);
	case K_HOST_ALLOW:
		return config_parse_text(where, v, &cfg->host.allow, err);
	case K_ARCHIVE_URL: {
		int r = config_parse_text(where, v, &cfg->archive.url, err);
		free(cfg->archive.shown);
		cfg->archive.shown = NULL;
		if (r == 0 && !(cfg->archive.shown = url_redact(cfg->archive.url)))
			return plumb_err_oom(err, where);
		return r;
	}
	case K_BUILD_COMMAND:
		return config_parse_command(where, v, &cfg->build.command, build_placeholders,
				     N_OF(build_placeholders), err);
	case K_BUILD_ARTIFACT:
		return config_parse_artifact(where, v, &cfg->build.artifact, err);
	case K_BUILD_PAD:
		rc = config_parse_choice(where, v, pad_names, N_OF(pad_names), &choice, err);
		if (rc == 0)
			cfg->build.pad = (enum config_pad)choice;
		return rc;
	case K_BUILD_PAD_BYTES:
		rc = config_parse_number(where, v, 1, PAD_BYTES_MAX, &n, err);
		if (rc == 0)
			cfg->build.pad_bytes = (unsigned)n;
		return rc;
	case K_BUILD_PAD_OFFSETS:
		rc = config_parse_choice(where, v, offsets_names, N_OF(offsets_names), &choice, err);
		if (rc == 0)
			cfg->build.pad_offsets = (enum config_offsets)choice;
		return rc;
	case K_BUILD_REUSE:
		rc = config_parse_choice(where, v, reuse_names, N_OF(reuse_names), &choice, err);
		if (rc == 0)
			cfg->build.reuse = (enum config_reuse)choice;
		return rc;
	case K_BUILD_TIMEOUT:
		return config_parse_duration(where, v, &cfg->build.timeout, err);
	case K_BUILD_CC:
		return config_parse_text(where, v, &cfg->build.cc, err);
	case K_BUILD_CACHE_SIZE:
		return config_parse_size(where, v, &cfg->build.cache_size, cfg->build.cache_size_text,
					 sizeof(cfg->build.cache_size_text), err);
	case K_BUILD_JOBS:
		if (strcasecmp(v, "auto") == 0) {
			cfg->build.jobs = 0;
			return 0;
		}
		rc = config_parse_number(where, v, 1, CONFIG_JOBS_MAX, &n, err);
		if (rc == 0)
			cfg->build.jobs = (unsigned)n;
		return rc;
	case K_VERDICT_RULE:
		rc = config_parse_choice(where, v, rule_names, N_OF(rule_names), &choice, err);
		if (rc == 0)
			cfg->verdict.rule = rule_names[choice];
		return rc;
	case K_VERDICT_CONFIDENCE:
		if (v && strcasecmp(v, "auto") == 0) {
			cfg->verdict.confidence = 0;
			snprintf(cfg->verdict.confidence_text, sizeof(cfg->verdict.confidence_text), "auto");
			return 0;
		}
		return parse_share(where, v, "0.999", &cfg->verdict.confidence,
				   cfg->verdict.confidence_text, err);
	case K_VERDICT_MIN_EFFECT: {
		char *end;
		double e;
		errno = 0;
		e = v ? strtod(v, &end) : NAN;
		if (!v || errno || end == v || *end || !(e >= 0 && e <= 0.5))
			return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not a number from 0 to 0.5",
					     where, SHOW(v ? v : ""));
		cfg->verdict.min_effect = e;
		units_exact(e, UNITS_EXACT_PLAIN, cfg->verdict.min_effect_text);
		return 0;
	}
	case K_BENCH_COMMAND:
		if ((rc = config_params_leftover(where, v, err)) < 0)
			return rc;
		return config_parse_command(where, v, &b->command, bench_placeholders,
				     N_OF(bench_placeholders), err);
	case K_BENCH_MODE:
		rc = config_parse_choice(where, v, mode_names, N_OF(mode_names), &choice, err);
		if (rc == 0)
			b->mode = (enum config_mode)choice;
		return rc;
	case K_BENCH_FILTER:
		if ((rc = config_params_leftover(where, v, err)) < 0)
			return rc;
		return config_parse_text(where, v, &b->filter, err);
	case K_BENCH_WARMUP:
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
	case K_BENCH_METRIC:
		rc = config_parse_choice(where, v, metric_bench_names, METRIC_COUNT, &choice, err);
		if (rc == 0)
			b->metric = (enum metric_id)choice;
		return rc;
	case K_BENCH_HOT:
		return config_parse_words(where, v, config_symbol_ok, "a symbol name", &b->hot, &b->nhot, err);
	case K_BENCH_HOT_COVERAGE:
		return parse_share(where, v, "1", &b->hot_coverage, b->hot_coverage_text, err);
	case K_BENCH_TIMEOUT:
		return config_parse_duration(where, v, &b->timeout, err);
	case K_BENCH_MAX_SAMPLES:
		return config_parse_number(where, v, 1, SAMPLES_MAX, &b->max_samples, err);
	case K_BENCH_CHECKSUM:
		rc = config_parse_choice(where, v, checksum_names, N_OF(checksum_names), &choice, err);
		if (rc == 0)
			b->checksum = (enum config_checksum)choice;
		return rc;
	case K_BENCH_COUNTER:
		rc = config_parse_choice(where, v, counter_names, N_OF(counter_names), &choice, err);
		if (rc == 0)
			b->counter = (enum config_counter)choice;
		return rc;
	case K_BENCH_PARAMS:
		return config_parse_params(where, v, &b->params, err);
	case K_BENCH_PREPARE:
	case K_BENCH_SETUP:
	case K_BENCH_CLEANUP:
		if ((rc = config_params_leftover(where, v, err)) < 0)
			return rc;
		return config_parse_command(where, v, id == K_BENCH_PREPARE ? &b->prepare :
					    id == K_BENCH_SETUP ? &b->setup : &b->cleanup,
					    bench_placeholders, N_OF(bench_placeholders), err);
	case K_COUNT:
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
	for (size_t i = 0; i < N_OF(config_keys); i++) {
		const struct key_def *kd = &config_keys[i];
		char where[96];
		int rc;

		if (!kd->pub.def || (kd->id >= K_BENCH_FIRST) != (b != NULL))
			continue;
		snprintf(where, sizeof(where), "default of %s.%s", kd->pub.section, kd->pub.name);
		rc = set_key(cfg, b, kd->id, kd->pub.def, where, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

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

/*
 * The effective value of key id (of bench b for bench keys), for the
 * renderers: set_key() read backwards.  Samples-only keys are not applied
 * in process mode and show so.
 */
void config_key_value(const struct plumb_config *cfg, const struct config_bench *b,
		      enum key_id id, struct key_value *v)
{
	bool samples = b && b->mode == CONFIG_MODE_SAMPLES;

	memset(v, 0, sizeof(*v));
	v->kind = V_NONE;
	switch (id) {
	case K_REPO_PATH:
		if (cfg->repo.url)
			v->note = "not used (url is given)";
		else
			value_str(v, cfg->repo.path, NULL);
		return;
	case K_REPO_URL:
		value_str(v, cfg->repo.url, "not set");
		return;
	case K_REPO_RELEASE_TAGS:
		value_str(v, cfg->repo.release_tags, "not set (every tag)");
		return;
	case K_RUN_BASE:
		value_str(v, cfg->run.base, "not set (required)");
		return;
	case K_RUN_CANDIDATE:
		value_str(v, cfg->run.candidate, NULL);
		return;
	case K_RUN_PADS:
		if (cfg->run.pads_auto)
			value_str(v, "auto", NULL);
		else
			value_u64(v, V_U64, cfg->run.pads);
		return;
	case K_RUN_MAX_PADS:
		if (cfg->run.pads_auto)
			value_u64(v, V_U64, cfg->run.max_pads);
		else
			v->note = "pads = auto only";
		return;
	case K_RUN_BUDGET:
		if (cfg->run.pads_auto)
			value_u64(v, V_DURATION, (uint64_t)cfg->run.budget);
		else
			v->note = "pads = auto only";
		return;
	case K_RUN_ROUNDS:
		value_u64(v, V_U64, cfg->run.rounds);
		return;
	case K_RUN_SEED:
		value_u64(v, V_U64, cfg->run.seed);
		return;
	case K_RUN_CONTROL:
		v->kind = V_BOOL;
		v->flag = cfg->run.control;
		return;
	case K_RUN_WARMUP_RUNS:
		value_u64(v, V_U64, cfg->run.warmup_runs);
		return;
	case K_RUN_CPU:
		if (cfg->run.ncpus) {
			v->kind = V_CPUS;
			v->cpus = cfg->run.cpus;
			v->ncpus = cfg->run.ncpus;
		} else {
			v->note = "not set (no pinning)";
		}
		return;
	case K_RUN_ASLR:
		value_str(v, aslr_names[cfg->run.aslr ? 0 : 1], NULL);
		return;
	case K_RUN_ENV:
		v->kind = V_WORDS;
		v->words = cfg->run.env;
		v->nwords = cfg->run.nenv;
		return;
	case K_RUN_KEEP_ARTIFACTS:
		value_str(v, keep_names[cfg->run.keep_artifacts], NULL);
		return;
	case K_RUN_LABEL:
		v->kind = V_LABELS;
		v->labels = cfg->run.labels;
		v->nlabels = cfg->run.nlabels;
		v->note = "none";
		return;
	case K_RUN_SETUP:
		value_str(v, cfg->run.setup, NULL);
		return;
	case K_RUN_CLEANUP:
		value_str(v, cfg->run.cleanup, NULL);
		return;
	case K_RUN_LOCK:
		value_str(v, cfg->run.lock, "not set (/run/lock/plumb, /var/lock/plumb or $XDG_RUNTIME_DIR/plumb.lock)");
		return;
	case K_RUN_PROJECT:
		value_str(v, cfg->run.project, "not set (the remote URL, else the first commit id)");
		return;
	case K_HOST_ALLOW:
		value_str(v, cfg->host.allow, "none");
		return;
	case K_ARCHIVE_URL:
		value_str(v, cfg->archive.shown, "not set ($PLUMB_ARCHIVE, else $XDG_DATA_HOME/plumb)");
		return;
	case K_BUILD_COMMAND:
		value_str(v, cfg->build.command, "not set (required)");
		return;
	case K_BUILD_ARTIFACT:
		value_str(v, cfg->build.artifact, "not set (required)");
		return;
	case K_BUILD_PAD:
		value_str(v, config_pad_name(cfg->build.pad), NULL);
		return;
	case K_BUILD_PAD_BYTES:
		value_u64(v, V_U64, cfg->build.pad_bytes);
		return;
	case K_BUILD_PAD_OFFSETS:
		value_str(v, offsets_names[cfg->build.pad_offsets], NULL);
		return;
	case K_BUILD_REUSE:
		value_str(v, config_reuse_name(cfg->build.reuse), NULL);
		return;
	case K_BUILD_TIMEOUT:
		value_u64(v, V_DURATION, (uint64_t)cfg->build.timeout);
		return;
	case K_BUILD_CC:
		value_str(v, cfg->build.cc, NULL);
		return;
	case K_BUILD_CACHE_SIZE:
		value_str(v, cfg->build.cache_size_text, NULL);
		return;
	case K_BUILD_JOBS:
		if (cfg->build.jobs)
			value_u64(v, V_U64, cfg->build.jobs);
		else
			value_str(v, "auto", NULL);
		return;
	case K_VERDICT_RULE:
		value_str(v, cfg->verdict.rule, NULL);
		return;
	case K_VERDICT_CONFIDENCE:
		value_str(v, cfg->verdict.confidence_text, NULL);
		return;
	case K_VERDICT_MIN_EFFECT:
		value_str(v, cfg->verdict.min_effect_text, NULL);
		return;
	case K_BENCH_COMMAND:
		value_str(v, b->command, "not set (required)");
		return;
	case K_BENCH_MODE:
		value_str(v, config_mode_name(b->mode), NULL);
		return;
	case K_BENCH_FILTER:
		if (b->mode != CONFIG_MODE_GBENCH)
			v->note = "mode = gbench only";
		else
			value_str(v, b->filter, "not set (every benchmark of the binary)");
		return;
	case K_BENCH_WARMUP:
		if (!samples)
			v->note = "samples mode only";
		else if (b->warmup == CONFIG_WARMUP_COUNT)
			value_u64(v, V_U64, b->warmup_count);
		else
			value_str(v, b->warmup == CONFIG_WARMUP_AUTO ? "auto" : "none", NULL);
		return;
	case K_BENCH_METRIC:
		value_str(v, metric_name(b->metric), NULL);
		return;
	case K_BENCH_HOT:
		v->kind = V_WORDS;
		v->words = b->hot;
		v->nwords = b->nhot;
		v->note = "not set (main is checked)";
		return;
	case K_BENCH_HOT_COVERAGE:
		value_str(v, b->hot_coverage_text, NULL);
		return;
	case K_BENCH_TIMEOUT:
		value_u64(v, V_DURATION, (uint64_t)b->timeout);
		return;
	case K_BENCH_MAX_SAMPLES:
		if (samples)
			value_u64(v, V_U64, b->max_samples);
		else
			v->note = "samples mode only";
		return;
	case K_BENCH_CHECKSUM:
		value_str(v, config_checksum_name(b->checksum), NULL);
		return;
	case K_BENCH_COUNTER:
		value_str(v, config_counter_name(b->counter), NULL);
		return;
	case K_BENCH_PARAMS:
		value_str(v, b->params, NULL);
		return;
	case K_BENCH_PREPARE:
		value_str(v, b->prepare, NULL);
		return;
	case K_BENCH_SETUP:
		value_str(v, b->setup, NULL);
		return;
	case K_BENCH_CLEANUP:
		value_str(v, b->cleanup, NULL);
		return;
	case K_COUNT:
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
static int check_foreign_placeholders(const char *where, enum key_id id, const char *v,
				      struct plumb_err *err)
{
	int bench_cmd = id == K_BENCH_COMMAND || id == K_BENCH_PREPARE || id == K_BENCH_SETUP ||
			id == K_BENCH_CLEANUP;
	const char *const *own = id == K_BUILD_COMMAND ? build_placeholders :
				 bench_cmd ? bench_placeholders : NULL;
	size_t n_own = id == K_BUILD_COMMAND ? N_OF(build_placeholders) :
		       bench_cmd ? N_OF(bench_placeholders) : 0;

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
		if (own && in_list(word, own, n_own))
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
	int rc;

	if (split_name(name, &sec, &sub, &key) < 0)
		return config_oom(err);
	kd = key_find(sec, key);
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
	if (once && !kd->pub.multi && is_explicit(cfg, b, kd->id)) {
		rc = plumb_err_set(err, PLUMB_EINPUT,
				   "%s: given more than once (give each key once)", where);
		goto out;
	}
	rc = check_foreign_placeholders(where, kd->id, v, err);
	if (rc == 0)
		rc = set_key(cfg, b, kd->id, v, where, err);
	if (rc == 0)
		mark_explicit(cfg, b, kd->id);
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

/*
 * Where this machine keeps things (its lock, its build cache, its
 * archive), never how a run measured: not recorded in a bundle's spec, and
 * a spec read from a bundle may not set them, or a bundle could make plumb
 * write to a file or server of its choosing.
 */
static const enum key_id local_keys[] = { K_RUN_LOCK, K_BUILD_CACHE_SIZE, K_ARCHIVE_URL };

bool config_key_local(enum key_id id)
{
	for (size_t i = 0; i < N_OF(local_keys); i++)
		if (local_keys[i] == id)
			return true;
	return false;
}

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
	if (!kd || !config_key_local(kd->id) || (kd->pub.def && strcmp(value, kd->pub.def) == 0))
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
	free(cfg->repo.path);
	free(cfg->repo.url);
	free(cfg->repo.release_tags);
	free(cfg->run.base);
	free(cfg->run.candidate);
	free(cfg->run.cpus);
	config_free_list(&cfg->run.env, &cfg->run.nenv);
	for (size_t i = 0; i < cfg->run.nlabels; i++) {
		free(cfg->run.labels[i].key);
		free(cfg->run.labels[i].value);
	}
	free(cfg->run.labels);
	free(cfg->run.setup);
	free(cfg->run.cleanup);
	free(cfg->build.command);
	free(cfg->build.artifact);
	free(cfg->build.cc);
	free(cfg->run.lock);
	free(cfg->run.project);
	free(cfg->host.allow);
	free(cfg->archive.url);
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

/*
 * What libgit2's parser lets through or acts on before plumb sees an
 * entry, found in the bytes first: a NUL (libgit2 ends the value there:
 * "HEAD~1\0junk" would run HEAD~1), a quote left open at the end of a line
 * (accepted as if closed), and an [include] or [includeIf] section (libgit2
 * opens the named file while parsing: a FIFO hangs it, and an error inside
 * /etc/passwd is reported as this file's).  Each names the line.
 */
/* One key line of the file, in file order: where it is and whether the
 * syntax removed quote characters from its value. */
struct quote_mark {
	unsigned long line;
	int quoted;
};

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
