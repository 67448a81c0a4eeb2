/*
 * formats/config.c: reading plumb.conf (git-config syntax, through
 * libgit2), checking every value, applying command-line overrides, and
 * rendering the effective configuration as plumb.conf text and as JSON.
 *
 * Everything is driven by one key table (keys[] below): the parser, the
 * "did you mean" suggestions, the renderers and the test that keeps
 * docs/plumb.conf.5 in step all walk it.  libgit2 only parses the syntax;
 * the meaning of each key is here, so a typo is an error, never a silently
 * ignored setting.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <git2.h>
#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/path.h"
#include "common/quote.h"
#include "common/suggest.h"
#include "common/utf8.h"
#include "formats/config.h"
#include "common/banned.h"

/* Key ids; the order of keys[] is the documented and rendered order. */
enum key_id {
	K_REPO_PATH, K_REPO_URL,
	K_RUN_BASE, K_RUN_CANDIDATE, K_RUN_PADS, K_RUN_ROUNDS, K_RUN_SEED,
	K_RUN_CONTROL, K_RUN_WARMUP_RUNS, K_RUN_CPU, K_RUN_ASLR, K_RUN_ENV,
	K_RUN_LABEL,
	K_BUILD_COMMAND, K_BUILD_ARTIFACT, K_BUILD_PAD, K_BUILD_PAD_BYTES,
	K_BUILD_REUSE, K_BUILD_TIMEOUT, K_BUILD_CC,
	K_BENCH_COMMAND, K_BENCH_MODE, K_BENCH_WARMUP, K_BENCH_METRIC,
	K_BENCH_HOT, K_BENCH_TIMEOUT, K_BENCH_MAX_SAMPLES, K_BENCH_CHECKSUM,
	K_COUNT
};
#define K_BENCH_FIRST K_BENCH_COMMAND

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

static const struct key_def keys[] = {
	{ { "repo", "path", ".", false, false, "a folder (relative to plumb.conf's folder)" }, K_REPO_PATH },
	{ { "repo", "url", NULL, false, false, "a URL git can clone" }, K_REPO_URL },
	{ { "run", "base", NULL, true, false, "a revision" }, K_RUN_BASE },
	{ { "run", "candidate", "HEAD", false, false, "a revision, or WORKTREE" }, K_RUN_CANDIDATE },
	{ { "run", "pads", "4", false, false, "1 to 64" }, K_RUN_PADS },
	{ { "run", "rounds", "10", false, false, "1 to 100000" }, K_RUN_ROUNDS },
	{ { "run", "seed", "1", false, false, "0 to 9223372036854775807" }, K_RUN_SEED },
	{ { "run", "control", "true", false, false, "true | false" }, K_RUN_CONTROL },
	{ { "run", "warmupRuns", "1", false, false, "0 to 1000" }, K_RUN_WARMUP_RUNS },
	{ { "run", "cpu", NULL, false, false, "a CPU list: 2, 0-3, 1,3,5-7" }, K_RUN_CPU },
	{ { "run", "aslr", "on", false, false, "on | off" }, K_RUN_ASLR },
	{ { "run", "env", "PATH HOME LANG", false, false, "variable names, space-separated" }, K_RUN_ENV },
	{ { "run", "label", NULL, false, true, "KEY=VALUE, repeatable" }, K_RUN_LABEL },
	{ { "build", "command", NULL, true, false, "a shell command" }, K_BUILD_COMMAND },
	{ { "build", "artifact", NULL, true, false, "a relative path inside the tree" }, K_BUILD_ARTIFACT },
	{ { "build", "pad", "link", false, false, "link | env | none" }, K_BUILD_PAD },
	{ { "build", "padBytes", "16", false, false, "1 to 65536" }, K_BUILD_PAD_BYTES },
	{ { "build", "reuse", "relink", false, false, "relink | none" }, K_BUILD_REUSE },
	{ { "build", "timeout", "30m", false, false, "a duration: 90, 90s, 30m, 2h" }, K_BUILD_TIMEOUT },
	{ { "build", "cc", "cc", false, false, "a compiler command" }, K_BUILD_CC },
	{ { "bench", "command", NULL, true, false, "a shell command" }, K_BENCH_COMMAND },
	{ { "bench", "mode", "process", false, false, "process | samples" }, K_BENCH_MODE },
	{ { "bench", "warmup", "auto", false, false, "auto | N | none" }, K_BENCH_WARMUP },
	{ { "bench", "metric", "wall", false, false, "wall | cpu | cycles | instructions" }, K_BENCH_METRIC },
	{ { "bench", "hot", NULL, false, false, "symbol names, space-separated" }, K_BENCH_HOT },
	{ { "bench", "timeout", "5m", false, false, "a duration: 90, 90s, 30m, 2h" }, K_BENCH_TIMEOUT },
	{ { "bench", "maxSamples", "10000000", false, false, "1 to 1000000000" }, K_BENCH_MAX_SAMPLES },
	{ { "bench", "checksum", "auto", false, false, "auto | required | off" }, K_BENCH_CHECKSUM },
};

static const char *const sections[] = { "repo", "run", "build", "bench" };

static const char *const pad_names[] = { "link", "env", "none" };
static const char *const reuse_names[] = { "relink", "none" };
static const char *const mode_names[] = { "process", "samples" };
static const char *const metric_names[] = { "wall", "cpu", "cycles", "instructions" };
static const char *const checksum_names[] = { "auto", "required", "off" };
static const char *const aslr_names[] = { "on", "off" };

static const char *const build_placeholders[] = {
	"pad", "pad_bytes", "pad_object", "pad_ldflags"
};
static const char *const bench_placeholders[] = { "artifact" };

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

const struct config_key *config_key_at(size_t i)
{
	return i < N_OF(keys) ? &keys[i].pub : NULL;
}

static const struct key_def *key_by_id(enum key_id id)
{
	for (size_t i = 0; i < N_OF(keys); i++)
		if (keys[i].id == id)
			return &keys[i];
	return NULL;
}

/* The key of section sec named name (any case), or NULL. */
static const struct key_def *key_find(const char *sec, const char *name)
{
	for (size_t i = 0; i < N_OF(keys); i++)
		if (strcasecmp(keys[i].pub.section, sec) == 0 &&
		    strcasecmp(keys[i].pub.name, name) == 0)
			return &keys[i];
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

const char *config_metric_name(enum config_metric metric)
{
	return (size_t)metric < N_OF(metric_names) ? metric_names[metric] : "?";
}

const char *config_checksum_name(enum config_checksum checksum)
{
	return (size_t)checksum < N_OF(checksum_names) ? checksum_names[checksum] : "?";
}

/* ---- small helpers ---------------------------------------------------- */

/* A value as shown in a message: quoted as text (common/quote.h), cut to fit. */
static const char *shown(const char *v, char *out, size_t size)
{
	return quote(out, size, v, v ? strlen(v) : 0, SIZE_MAX, QUOTE_TEXT);
}

#define SHOWN_MAX 80
#define SHOW(v) shown((v), (char[SHOWN_MAX]){ 0 }, SHOWN_MAX)

static int oom(struct plumb_err *err)
{
	return plumb_err_oom(err, "configuration");
}

static int set_str(char **dst, const char *v, struct plumb_err *err)
{
	char *s = strdup(v);

	if (!s)
		return oom(err);
	free(*dst);
	*dst = s;
	return 0;
}

static void free_list(char ***v, size_t *n)
{
	for (size_t i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

static bool has_ctrl(const char *v, bool allow_nl_tab)
{
	for (; *v; v++) {
		unsigned char c = (unsigned char)*v;

		if (allow_nl_tab && (c == '\n' || c == '\t'))
			continue;
		if (c < 0x20 || c == 0x7f)
			return true;
	}
	return false;
}

static bool is_alpha_(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Strictly digits, within [min, max]. */
static bool parse_u64(const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t n = 0;

	if (!*v)
		return false;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		if (n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (n < min || n > max)
		return false;
	*out = n;
	return true;
}

static int bad_number(struct plumb_err *err, const char *where, const char *v,
		      uint64_t min, uint64_t max)
{
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a whole number from %" PRIu64 " to %" PRIu64,
			     where, SHOW(v), min, max);
}

static int parse_number(const char *where, const char *v, uint64_t min,
			uint64_t max, uint64_t *out, struct plumb_err *err)
{
	if (!parse_u64(v, min, max, out))
		return bad_number(err, where, v, min, max);
	return 0;
}

/* One of names (any case): its index, or an error listing them. */
static int parse_choice(const char *where, const char *v,
			const char *const *names, size_t n, int *out,
			struct plumb_err *err)
{
	struct buf list;

	for (size_t i = 0; i < n; i++)
		if (strcasecmp(v, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	buf_init(&list, 256);
	for (size_t i = 0; i < n; i++)
		if (buf_printf(&list, "%s%s", i ? ", " : "", names[i]) < 0)
			break;
	plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not one of %s", where,
		      SHOW(v), buf_cstr(&list));
	buf_release(&list);
	return PLUMB_EINPUT;
}

/* git-config booleans: NULL (no '=') is true, "" is false, as git reads them. */
static int parse_bool(const char *where, const char *v, bool *out,
		      struct plumb_err *err)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0", "" };

	if (!v) {
		*out = true;
		return 0;
	}
	for (size_t i = 0; i < N_OF(yes); i++)
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
	for (size_t i = 0; i < N_OF(no); i++)
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a boolean (true or false)", where, SHOW(v));
}

/* "90", "90s", "30m", "2h", "1h30m": seconds in [1, CONFIG_TIMEOUT_MAX]. */
static int parse_duration(const char *where, const char *v, long *out,
			  struct plumb_err *err)
{
	const char *p = v;
	uint64_t total = 0;
	int last_unit = 4;   /* units come largest first: h, m, s, each once */

	if (!*p)
		goto bad;
	while (*p) {
		const char *start = p;
		uint64_t n = 0;
		int unit;

		if (!is_digit(*p))
			goto bad;
		while (is_digit(*p)) {
			n = n * 10 + (uint64_t)(*p - '0');
			if (n > (uint64_t)CONFIG_TIMEOUT_MAX)
				goto bad;
			p++;
		}
		switch (*p) {
		case 'h': case 'H': unit = 3; n *= 3600; p++; break;
		case 'm': case 'M': unit = 2; n *= 60; p++; break;
		case 's': case 'S': unit = 1; p++; break;
		case '\0':
			/* A bare number is seconds, and only alone ("90"). */
			if (start != v)
				goto bad;
			unit = 1;
			break;
		default: goto bad;
		}
		if (unit >= last_unit)
			goto bad;
		last_unit = unit;
		total += n;
		if (total > (uint64_t)CONFIG_TIMEOUT_MAX)
			goto bad;
	}
	if (total < 1)
		goto bad;
	*out = (long)total;
	return 0;
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a duration (like 90s, 30m or 2h) from 1s to 168h",
			     where, SHOW(v));
}

/* A duration as plumb.conf writes it: the largest unit that is exact. */
static void duration_text(long s, char *out, size_t size)
{
	if (s % 3600 == 0)
		snprintf(out, size, "%ldh", s / 3600);
	else if (s % 60 == 0)
		snprintf(out, size, "%ldm", s / 60);
	else
		snprintf(out, size, "%lds", s);
}

/* Split v at blanks into words (fresh copies), checking each with ok(). */
static int parse_words(const char *where, const char *v,
		       bool (*ok)(const char *), const char *what,
		       char ***outv, size_t *outn, struct plumb_err *err)
{
	char **words = NULL;
	size_t n = 0;
	const char *p = v;
	int rc = 0;

	while (*p) {
		const char *start;
		char *w, **grown;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (n == CONFIG_LIST_MAX) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d names",
					   where, CONFIG_LIST_MAX);
			goto fail;
		}
		w = strndup(start, (size_t)(p - start));
		if (!w) {
			rc = oom(err);
			goto fail;
		}
		if (!ok(w)) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not %s",
					   where, SHOW(w), what);
			free(w);
			goto fail;
		}
		for (size_t i = 0; i < n; i++)
			if (strcmp(words[i], w) == 0) {
				rc = plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is given twice",
						   where, SHOW(w));
				free(w);
				goto fail;
			}
		grown = realloc(words, (n + 1) * sizeof(*words));
		if (!grown) {
			free(w);
			rc = oom(err);
			goto fail;
		}
		words = grown;
		words[n++] = w;
	}
	free_list(outv, outn);
	*outv = words;
	*outn = n;
	return 0;
fail:
	free_list(&words, &n);
	return rc;
}

static bool env_name_ok(const char *w)
{
	if (!is_alpha_(*w))
		return false;
	for (w++; *w; w++)
		if (!is_alpha_(*w) && !is_digit(*w))
			return false;
	return true;
}

/* C and C++ (mangled) symbol names, with the '.', '$' and '@' that ELF allows. */
static bool symbol_ok(const char *w)
{
	if (is_digit(*w))
		return false;
	for (; *w; w++)
		if (!is_alpha_(*w) && !is_digit(*w) && *w != '.' && *w != '$' && *w != '@')
			return false;
	return true;
}

static bool name_char_ok(char c)
{
	return is_alpha_(c) || is_digit(c) || c == '.' || c == '-';
}

/* Benchmark names end up in file names and TSV columns: keep them plain. */
static bool bench_name_ok(const char *n)
{
	size_t len = strlen(n);

	if (len == 0 || len > CONFIG_BENCH_NAME_MAX || !(is_alpha_(*n) || is_digit(*n)))
		return false;
	for (; *n; n++)
		if (!name_char_ok(*n))
			return false;
	return true;
}

static bool label_key_ok(const char *k, size_t len)
{
	if (len == 0 || len > LABEL_KEY_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!name_char_ok(k[i]))
			return false;
	return true;
}

/* Revisions: git refs hold no blanks; a leading '-' would read as an option. */
static int parse_rev(const char *where, const char *v, char **dst,
		     struct plumb_err *err)
{
	if (!*v || *v == '-' || strlen(v) > 256)
		goto bad;
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			goto bad;
	return set_str(dst, v, err);
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a revision (a tag, branch, HEAD~N, commit id or WORKTREE)",
			     where, SHOW(v));
}

/*
 * {word} placeholders: a near miss of a known one is an error; any other
 * {word} is shell text (awk '{print}') and passes.
 */
static int check_placeholders(const char *where, const char *v,
			      const char *const *known, size_t n,
			      struct plumb_err *err)
{
	for (const char *p = strchr(v, '{'); p; p = strchr(p + 1, '{')) {
		char word[64];
		size_t len = 0;
		const char *q = p + 1;
		const char *near;

		if (p > v && p[-1] == '$')
			continue;
		while ((is_alpha_(*q) || is_digit(*q)) && len + 1 < sizeof(word))
			word[len++] = *q++;
		word[len] = '\0';
		if (*q != '}' || len == 0)
			continue;
		near = suggest_pick(word, known, n);
		if (!near)
			continue;
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: '{%s}' is not a placeholder (did you mean '{%s}'?)",
				     where, word, near);
	}
	return 0;
}

static int parse_command(const char *where, const char *v, char **dst,
			 const char *const *known, size_t n,
			 struct plumb_err *err)
{
	int rc;
	const char *p = v;

	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (!*p)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty command", where);
	if (has_ctrl(v, true))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: '%s' holds a control character", where, SHOW(v));
	rc = check_placeholders(where, v, known, n, err);
	if (rc < 0)
		return rc;
	return set_str(dst, v, err);
}

/* A plain one-line value: not empty, no control characters. */
static int parse_text(const char *where, const char *v, char **dst,
		      struct plumb_err *err)
{
	if (!*v)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty value", where);
	if (has_ctrl(v, false))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: '%s' holds a control character", where, SHOW(v));
	return set_str(dst, v, err);
}

static int parse_artifact(const char *where, const char *v, char **dst,
			  struct plumb_err *err)
{
	const char *p = v;

	if (!*v || *v == '/' || has_ctrl(v, false))
		goto bad;
	while (*p) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.')
			goto bad;
		p += len;
		if (*p == '/')
			p++;
	}
	return set_str(dst, v, err);
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a relative path inside the tree (no leading '/', no '..')",
			     where, SHOW(v));
}

/* "2", "0-3", "1,3,5-7"; "" means no pinning. */
static int parse_cpus(const char *where, const char *v, struct plumb_config *cfg,
		      struct plumb_err *err)
{
	unsigned char seen[CONFIG_CPU_MAX + 1];
	int *cpus;
	size_t n = 0;
	const char *p = v;

	memset(seen, 0, sizeof(seen));
	while (*p == ' ')
		p++;
	if (!*p) {
		free(cfg->run.cpus);
		cfg->run.cpus = NULL;
		cfg->run.ncpus = 0;
		return 0;
	}
	while (*p) {
		uint64_t lo = 0, hi;

		if (!is_digit(*p))
			goto bad;
		while (is_digit(*p)) {
			lo = lo * 10 + (uint64_t)(*p++ - '0');
			if (lo > CONFIG_CPU_MAX)
				goto bad;
		}
		hi = lo;
		if (*p == '-') {
			p++;
			if (!is_digit(*p))
				goto bad;
			hi = 0;
			while (is_digit(*p)) {
				hi = hi * 10 + (uint64_t)(*p++ - '0');
				if (hi > CONFIG_CPU_MAX)
					goto bad;
			}
			if (hi < lo)
				goto bad;
		}
		for (uint64_t c = lo; c <= hi; c++)
			seen[c] = 1;
		while (*p == ' ')
			p++;
		if (*p == ',') {
			p++;
			while (*p == ' ')
				p++;
			if (!*p)
				goto bad;
		} else if (*p) {
			goto bad;
		}
	}
	for (size_t c = 0; c <= CONFIG_CPU_MAX; c++)
		n += seen[c];
	cpus = malloc(n * sizeof(*cpus));
	if (!cpus)
		return oom(err);
	n = 0;
	for (int c = 0; c <= CONFIG_CPU_MAX; c++)
		if (seen[c])
			cpus[n++] = c;
	free(cfg->run.cpus);
	cfg->run.cpus = cpus;
	cfg->run.ncpus = n;
	return 0;
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a CPU list (like 2, 0-3 or 1,3,5-7) of CPUs 0 to %d",
			     where, SHOW(v), CONFIG_CPU_MAX);
}

/* The canonical text of a CPU set: "0-3,6". */
static int cpus_text(const struct plumb_config *cfg, struct buf *out)
{
	const int *c = cfg->run.cpus;
	size_t n = cfg->run.ncpus;

	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && c[j + 1] == c[j] + 1)
			j++;
		if (buf_printf(out, "%s%d", i ? "," : "", c[i]) < 0)
			return -1;
		if (j > i && buf_printf(out, "%s%d", j == i + 1 ? "," : "-", c[j]) < 0)
			return -1;
		i = j + 1;
	}
	return 0;
}

/* Add or replace one label from "KEY=VALUE". */
static int add_label(const char *where, const char *v, bool replace,
		     struct plumb_config *cfg, struct plumb_err *err)
{
	const char *eq = strchr(v, '=');
	struct config_label *grown;
	char *k, *val;
	size_t klen;

	if (!eq || !label_key_ok(v, (size_t)(eq - v)) || strlen(eq + 1) > 256 ||
	    has_ctrl(eq + 1, false) || !utf8_ok(eq + 1, strlen(eq + 1), UTF8_VALID))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: '%s' is not KEY=VALUE (KEY: up to %d letters, digits, '.', '_' or '-'; "
				     "VALUE: up to 256 characters)",
				     where, SHOW(v), LABEL_KEY_MAX);
	klen = (size_t)(eq - v);
	for (size_t i = 0; i < cfg->run.nlabels; i++) {
		struct config_label *l = &cfg->run.labels[i];

		if (strlen(l->key) != klen || memcmp(l->key, v, klen) != 0)
			continue;
		if (!replace)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: label '%s' is given twice",
					     where, SHOW(l->key));
		return set_str(&l->value, eq + 1, err);
	}
	if (cfg->run.nlabels == CONFIG_LIST_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d labels",
				     where, CONFIG_LIST_MAX);
	k = strndup(v, klen);
	val = strdup(eq + 1);
	grown = k && val ? realloc(cfg->run.labels, (cfg->run.nlabels + 1) * sizeof(*grown)) : NULL;
	if (!grown) {
		free(k);
		free(val);
		return oom(err);
	}
	cfg->run.labels = grown;
	grown[cfg->run.nlabels].key = k;
	grown[cfg->run.nlabels].value = val;
	cfg->run.nlabels++;
	return 0;
}

/* ---- benches ---------------------------------------------------------- */

static void bench_release(struct config_bench *b)
{
	free(b->name);
	free(b->command);
	free_list(&b->hot, &b->nhot);
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
	if (!bench_name_ok(name))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: [bench \"%s\"]: a benchmark name is 1 to %d letters, digits, "
				     "'.', '_' or '-', starting with a letter, digit or '_'",
				     origin, SHOW(name), CONFIG_BENCH_NAME_MAX);
	if (cfg->nbenches == CONFIG_BENCHES_MAX)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d benchmarks",
				     origin, CONFIG_BENCHES_MAX);
	grown = realloc(cfg->benches, (cfg->nbenches + 1) * sizeof(*grown));
	if (!grown)
		return oom(err);
	cfg->benches = grown;
	b = &grown[cfg->nbenches];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	if (!b->name)
		return oom(err);
	b->mode = CONFIG_MODE_PROCESS;
	b->warmup = CONFIG_WARMUP_AUTO;
	b->metric = CONFIG_METRIC_WALL;
	b->timeout = 5 * 60;
	b->max_samples = 10000000;
	b->checksum = CONFIG_CHECKSUM_AUTO;
	cfg->nbenches++;
	*out = b;
	return 0;
}

/* ---- setting one key -------------------------------------------------- */

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
	if (v && !utf8_ok(v, strlen(v), UTF8_VALID))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not valid UTF-8",
				     where, SHOW(v));
	switch (id) {
	case K_REPO_PATH:
		if (cfg->repo.url)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: repo.url is given too; give one of path and url", where);
		return parse_text(where, v, &cfg->repo.path, err);
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
		rc = set_str(&cfg->repo.url, v, err);
		if (rc == 0) {
			free(cfg->repo.path);
			cfg->repo.path = NULL;
		}
		return rc;
	case K_RUN_BASE:
		return parse_rev(where, v, &cfg->run.base, err);
	case K_RUN_CANDIDATE:
		return parse_rev(where, v, &cfg->run.candidate, err);
	case K_RUN_PADS:
		rc = parse_number(where, v, 1, CONFIG_PADS_MAX, &n, err);
		if (rc == 0)
			cfg->run.pads = (unsigned)n;
		return rc;
	case K_RUN_ROUNDS:
		rc = parse_number(where, v, 1, CONFIG_ROUNDS_MAX, &n, err);
		if (rc == 0)
			cfg->run.rounds = (unsigned)n;
		return rc;
	case K_RUN_SEED:
		return parse_number(where, v, 0, SEED_MAX, &cfg->run.seed, err);
	case K_RUN_CONTROL:
		return parse_bool(where, v, &cfg->run.control, err);
	case K_RUN_WARMUP_RUNS:
		rc = parse_number(where, v, 0, WARMUP_RUNS_MAX, &n, err);
		if (rc == 0)
			cfg->run.warmup_runs = (unsigned)n;
		return rc;
	case K_RUN_CPU:
		return parse_cpus(where, v, cfg, err);
	case K_RUN_ASLR:
		/* on/off, and the other boolean spellings git accepts. */
		if (*v && parse_bool(where, v, &flag, NULL) == 0) {
			cfg->run.aslr = flag;
			return 0;
		}
		return parse_choice(where, v, aslr_names, N_OF(aslr_names), &choice, err);
	case K_RUN_ENV:
		return parse_words(where, v, env_name_ok, "a variable name",
				   &cfg->run.env, &cfg->run.nenv, err);
	case K_RUN_LABEL:
		return add_label(where, v, false, cfg, err);
	case K_BUILD_COMMAND:
		return parse_command(where, v, &cfg->build.command, build_placeholders,
				     N_OF(build_placeholders), err);
	case K_BUILD_ARTIFACT:
		return parse_artifact(where, v, &cfg->build.artifact, err);
	case K_BUILD_PAD:
		rc = parse_choice(where, v, pad_names, N_OF(pad_names), &choice, err);
		if (rc == 0)
			cfg->build.pad = (enum config_pad)choice;
		return rc;
	case K_BUILD_PAD_BYTES:
		rc = parse_number(where, v, 1, PAD_BYTES_MAX, &n, err);
		if (rc == 0)
			cfg->build.pad_bytes = (unsigned)n;
		return rc;
	case K_BUILD_REUSE:
		rc = parse_choice(where, v, reuse_names, N_OF(reuse_names), &choice, err);
		if (rc == 0)
			cfg->build.reuse = (enum config_reuse)choice;
		return rc;
	case K_BUILD_TIMEOUT:
		return parse_duration(where, v, &cfg->build.timeout, err);
	case K_BUILD_CC:
		return parse_text(where, v, &cfg->build.cc, err);
	case K_BENCH_COMMAND:
		return parse_command(where, v, &b->command, bench_placeholders,
				     N_OF(bench_placeholders), err);
	case K_BENCH_MODE:
		rc = parse_choice(where, v, mode_names, N_OF(mode_names), &choice, err);
		if (rc == 0)
			b->mode = (enum config_mode)choice;
		return rc;
	case K_BENCH_WARMUP:
		if (strcasecmp(v, "auto") == 0) {
			b->warmup = CONFIG_WARMUP_AUTO;
		} else if (strcasecmp(v, "none") == 0 || strcmp(v, "0") == 0) {
			b->warmup = CONFIG_WARMUP_NONE;
		} else if (parse_u64(v, 1, SAMPLES_MAX, &n)) {
			b->warmup = CONFIG_WARMUP_COUNT;
			b->warmup_count = n;
		} else {
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: '%s' is not auto, none or a whole number from 1 to %" PRIu64,
					     where, SHOW(v), SAMPLES_MAX);
		}
		return 0;
	case K_BENCH_METRIC:
		rc = parse_choice(where, v, metric_names, N_OF(metric_names), &choice, err);
		if (rc == 0)
			b->metric = (enum config_metric)choice;
		return rc;
	case K_BENCH_HOT:
		return parse_words(where, v, symbol_ok, "a symbol name", &b->hot, &b->nhot, err);
	case K_BENCH_TIMEOUT:
		return parse_duration(where, v, &b->timeout, err);
	case K_BENCH_MAX_SAMPLES:
		return parse_number(where, v, 1, SAMPLES_MAX, &b->max_samples, err);
	case K_BENCH_CHECKSUM:
		rc = parse_choice(where, v, checksum_names, N_OF(checksum_names), &choice, err);
		if (rc == 0)
			b->checksum = (enum config_checksum)choice;
		return rc;
	case K_COUNT:
		break;
	}
	return plumb_err_set(err, PLUMB_EINTERNAL, "%s: no setter", where);
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
	const char *cands[N_OF(keys)];
	const char *near;
	size_t n = 0;
	bool known_sec = false;

	for (size_t i = 0; i < N_OF(sections); i++)
		if (strcasecmp(sec, sections[i]) == 0)
			known_sec = true;
	if (!known_sec) {
		near = suggest_pick(sec, sections, N_OF(sections));
		if (near)
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: %s: unknown section '%s' (did you mean '%s'?)",
					     origin, SHOW(name), SHOW(sec), near);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: %s: unknown section '%s' (sections: repo, run, build, bench)",
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
	for (size_t i = 0; i < N_OF(keys); i++)
		if (strcasecmp(keys[i].pub.section, sec) == 0)
			cands[n++] = keys[i].pub.name;
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
	for (size_t i = 0; i < N_OF(keys); i++)
		if (strcasecmp(keys[i].pub.name, key) == 0) {
			const char *s = keys[i].pub.section;

			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: %s: unknown key (did you mean '%s.%s%s'?)",
					     origin, SHOW(name), s,
					     strcmp(s, "bench") == 0 ? "NAME." : "",
					     keys[i].pub.name);
		}
	return plumb_err_set(err, PLUMB_EINPUT, "%s: %s: unknown key", origin, SHOW(name));
}

/*
 * Resolve a full name to its key (and bench, created when new), then set
 * it.  seen_twice: error when the key was already given (one file).
 */
static int set_named(struct plumb_config *cfg, const char *name, const char *v,
		     const char *origin, bool once, struct plumb_err *err)
{
	char *sec, *sub, *key;
	const struct key_def *kd;
	struct config_bench *b = NULL;
	char where[PLUMB_ERR_MAX / 2];
	int rc;

	if (split_name(name, &sec, &sub, &key) < 0)
		return oom(err);
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

/* ---- init, release ---------------------------------------------------- */

int config_init(struct plumb_config *cfg, struct plumb_err *err)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->run.pads = 4;
	cfg->run.rounds = 10;
	cfg->run.seed = 1;
	cfg->run.control = true;
	cfg->run.warmup_runs = 1;
	cfg->run.aslr = true;
	cfg->build.pad = CONFIG_PAD_LINK;
	cfg->build.pad_bytes = 16;
	cfg->build.reuse = CONFIG_REUSE_RELINK;
	cfg->build.timeout = 30 * 60;
	if (set_str(&cfg->repo.path, ".", err) < 0 ||
	    set_str(&cfg->run.candidate, "HEAD", err) < 0 ||
	    set_str(&cfg->build.cc, "cc", err) < 0 ||
	    set_str(&cfg->dir, ".", err) < 0 ||
	    parse_words("env", "PATH HOME LANG", env_name_ok, "", &cfg->run.env,
			&cfg->run.nenv, err) < 0) {
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
	free(cfg->run.base);
	free(cfg->run.candidate);
	free(cfg->run.cpus);
	free_list(&cfg->run.env, &cfg->run.nenv);
	for (size_t i = 0; i < cfg->run.nlabels; i++) {
		free(cfg->run.labels[i].key);
		free(cfg->run.labels[i].value);
	}
	free(cfg->run.labels);
	free(cfg->build.command);
	free(cfg->build.artifact);
	free(cfg->build.cc);
	for (size_t i = 0; i < cfg->nbenches; i++)
		bench_release(&cfg->benches[i]);
	free(cfg->benches);
	free(cfg->workdir);
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

	if (set_str(&cfg->file, path, err) < 0)
		return PLUMB_EINTERNAL;
	dir = path_dirname(path);
	if (!dir)
		return oom(err);
	free(cfg->dir);
	cfg->dir = dir;
	return 0;
}

struct entry {
	char *name;
	char *value;   /* NULL for a key without '=' */
};

static void entries_free(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].value);
	}
	free(e);
}

/* All entries of the file, in file order; rejects includes. */
static int read_entries(const char *path, struct entry **out, size_t *nout,
			struct plumb_err *err)
{
	git_config *gc = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *ge;
	struct entry *v = NULL;
	size_t n = 0;
	int rc = 0, grc;

	if (git_config_open_ondisk(&gc, path) < 0)
		return git_syntax_error(path, err);
	if (git_config_iterator_new(&it, gc) < 0) {
		rc = git_syntax_error(path, err);
		goto out;
	}
	while ((grc = git_config_next(&ge, it)) == 0) {
		struct entry *grown;

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
			rc = oom(err);
			goto out;
		}
		v = grown;
		v[n].name = strdup(ge->name);
		v[n].value = ge->value ? strdup(ge->value) : NULL;
		n++;
		if (!v[n - 1].name || (ge->value && !v[n - 1].value)) {
			rc = oom(err);
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

int config_read(struct plumb_config *cfg, const char *path,
		struct plumb_err *err)
{
	struct entry *e = NULL;
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
	if (git_libgit2_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libgit2 failed to start");
	rc = read_entries(path, &e, &n, err);
	git_libgit2_shutdown();
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = set_named(cfg, e[i].name, e[i].value, path, true, err);
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

/* Keep only the benches named in names (file order); unknown names are errors. */
static int filter_benches(struct plumb_config *cfg, const char **names,
			  size_t n, struct plumb_err *err)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		const char **cands;
		const char *near;

		if (bench_get(cfg, names[i]))
			continue;
		cands = malloc((cfg->nbenches + 1) * sizeof(*cands));
		if (!cands)
			return oom(err);
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
			want = strcmp(cfg->benches[i].name, names[j]) == 0;
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
	    (rc = override(cfg, K_RUN_SEED, ov->seed, "--seed", err)) < 0)
		return rc;
	for (size_t i = 0; i < ov->nlabels; i++) {
		rc = add_label("--label", ov->labels[i], true, cfg, err);
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
		rc = set_str(&cfg->workdir, ov->workdir, err);
		if (rc < 0)
			return rc;
	}
	cfg->keep = ov->keep;
	cfg->keep_going = ov->keep_going;
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
		if (b->mode == CONFIG_MODE_PROCESS) {
			if (is_explicit(cfg, b, K_BENCH_WARMUP))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "%s: bench.%s.warmup: applies to mode = samples only "
						     "(use run.warmupRuns for process mode)", f, b->name);
			if (is_explicit(cfg, b, K_BENCH_MAX_SAMPLES))
				return plumb_err_set(err, PLUMB_EINPUT,
						     "%s: bench.%s.maxSamples: applies to mode = samples only",
						     f, b->name);
		} else if (b->metric != CONFIG_METRIC_WALL) {
			return plumb_err_set(err, PLUMB_EINPUT,
					     "%s: bench.%s.metric: '%s' applies to mode = process only "
					     "(samples are the benchmark's own durations)",
					     f, b->name, config_metric_name(b->metric));
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

/* ---- rendering -------------------------------------------------------- */

/* A value as git-config text: bare when safe, else quoted with escapes. */
static int add_value(struct buf *out, const char *v)
{
	size_t len = strlen(v);
	bool quote = len == 0 || v[0] == ' ' || v[0] == '\t' ||
		     v[len - 1] == ' ' || v[len - 1] == '\t' ||
		     strpbrk(v, ";#\"\\\n\t") != NULL;

	if (!quote)
		return buf_addstr(out, v);
	if (buf_addch(out, '"') < 0)
		return -1;
	for (const char *p = v; *p; p++) {
		int rc;

		switch (*p) {
		case '"': rc = buf_addstr(out, "\\\""); break;
		case '\\': rc = buf_addstr(out, "\\\\"); break;
		case '\n': rc = buf_addstr(out, "\\n"); break;
		case '\t': rc = buf_addstr(out, "\\t"); break;
		default: rc = buf_addch(out, *p); break;
		}
		if (rc < 0)
			return -1;
	}
	return buf_addch(out, '"');
}

static int add_kv(struct buf *out, const char *key, const char *v)
{
	if (buf_printf(out, "\t%s = ", key) < 0 || add_value(out, v) < 0)
		return -1;
	return buf_addch(out, '\n');
}

static int add_kv_u64(struct buf *out, const char *key, uint64_t v)
{
	return buf_printf(out, "\t%s = %" PRIu64 "\n", key, v);
}

static int add_words(struct buf *out, const char *key, char *const *v, size_t n)
{
	struct buf line;
	int rc = 0;

	buf_init(&line, 64 * 1024);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = buf_printf(&line, "%s%s", i ? " " : "", v[i]);
	if (rc == 0)
		rc = add_kv(out, key, buf_cstr(&line));
	buf_release(&line);
	return rc;
}

static const char *warmup_text(const struct config_bench *b, char *tmp, size_t size)
{
	if (b->warmup == CONFIG_WARMUP_AUTO)
		return "auto";
	if (b->warmup == CONFIG_WARMUP_NONE)
		return "none";
	snprintf(tmp, size, "%" PRIu64, b->warmup_count);
	return tmp;
}

static int render_text(const struct plumb_config *cfg, struct buf *out)
{
	char d[32], w[32];
	struct buf cpus;
	int rc = 0;

	if (buf_addstr(out, "# plumb.conf: the effective configuration (see plumb.conf(5))\n") < 0 ||
	    buf_addstr(out, "[repo]\n") < 0)
		return -1;
	if (cfg->repo.url) {
		if (buf_addstr(out, "\t; path: not used (url is given)\n") < 0 ||
		    add_kv(out, "url", cfg->repo.url) < 0)
			return -1;
	} else if (add_kv(out, "path", cfg->repo.path ? cfg->repo.path : ".") < 0 ||
		   buf_addstr(out, "\t; url: not set\n") < 0) {
		return -1;
	}
	if (buf_addstr(out, "[run]\n") < 0)
		return -1;
	if (cfg->run.base ? add_kv(out, "base", cfg->run.base) < 0
			  : buf_addstr(out, "\t; base: not set (required)\n") < 0)
		return -1;
	if (add_kv(out, "candidate", cfg->run.candidate) < 0 ||
	    add_kv_u64(out, "pads", cfg->run.pads) < 0 ||
	    add_kv_u64(out, "rounds", cfg->run.rounds) < 0 ||
	    add_kv_u64(out, "seed", cfg->run.seed) < 0 ||
	    add_kv(out, "control", cfg->run.control ? "true" : "false") < 0 ||
	    add_kv_u64(out, "warmupRuns", cfg->run.warmup_runs) < 0)
		return -1;
	if (cfg->run.ncpus) {
		buf_init(&cpus, 16 * 1024);
		rc = cpus_text(cfg, &cpus);
		if (rc == 0)
			rc = add_kv(out, "cpu", buf_cstr(&cpus));
		buf_release(&cpus);
		if (rc < 0)
			return -1;
	} else if (buf_addstr(out, "\t; cpu: not set (no pinning)\n") < 0) {
		return -1;
	}
	if (add_kv(out, "aslr", cfg->run.aslr ? "on" : "off") < 0 ||
	    add_words(out, "env", cfg->run.env, cfg->run.nenv) < 0)
		return -1;
	for (size_t i = 0; i < cfg->run.nlabels; i++) {
		const struct config_label *l = &cfg->run.labels[i];
		struct buf kv;

		buf_init(&kv, 1024);
		rc = buf_printf(&kv, "%s=%s", l->key, l->value);
		if (rc == 0)
			rc = add_kv(out, "label", buf_cstr(&kv));
		buf_release(&kv);
		if (rc < 0)
			return -1;
	}
	if (cfg->run.nlabels == 0 && buf_addstr(out, "\t; label: none\n") < 0)
		return -1;
	if (buf_addstr(out, "[build]\n") < 0)
		return -1;
	if (cfg->build.command ? add_kv(out, "command", cfg->build.command) < 0
			       : buf_addstr(out, "\t; command: not set (required)\n") < 0)
		return -1;
	if (cfg->build.artifact ? add_kv(out, "artifact", cfg->build.artifact) < 0
				: buf_addstr(out, "\t; artifact: not set (required)\n") < 0)
		return -1;
	duration_text(cfg->build.timeout, d, sizeof(d));
	if (add_kv(out, "pad", config_pad_name(cfg->build.pad)) < 0 ||
	    add_kv_u64(out, "padBytes", cfg->build.pad_bytes) < 0 ||
	    add_kv(out, "reuse", config_reuse_name(cfg->build.reuse)) < 0 ||
	    add_kv(out, "timeout", d) < 0 ||
	    add_kv(out, "cc", cfg->build.cc) < 0)
		return -1;
	for (size_t i = 0; i < cfg->nbenches; i++) {
		const struct config_bench *b = &cfg->benches[i];
		bool samples = b->mode == CONFIG_MODE_SAMPLES;

		if (buf_printf(out, "[bench \"%s\"]\n", b->name) < 0)
			return -1;
		if (b->command ? add_kv(out, "command", b->command) < 0
			       : buf_addstr(out, "\t; command: not set (required)\n") < 0)
			return -1;
		if (add_kv(out, "mode", config_mode_name(b->mode)) < 0)
			return -1;
		/* Samples-only keys stay comments in process mode: setting them there is an error. */
		if (samples ? add_kv(out, "warmup", warmup_text(b, w, sizeof(w))) < 0
			    : buf_printf(out, "\t; warmup: samples mode only\n") < 0)
			return -1;
		if (add_kv(out, "metric", config_metric_name(b->metric)) < 0)
			return -1;
		if (b->nhot ? add_words(out, "hot", b->hot, b->nhot) < 0
			    : buf_addstr(out, "\t; hot: not set (main is checked)\n") < 0)
			return -1;
		duration_text(b->timeout, d, sizeof(d));
		if (add_kv(out, "timeout", d) < 0)
			return -1;
		if (samples ? add_kv_u64(out, "maxSamples", b->max_samples) < 0
			    : buf_printf(out, "\t; maxSamples: samples mode only\n") < 0)
			return -1;
		if (add_kv(out, "checksum", config_checksum_name(b->checksum)) < 0)
			return -1;
	}
	return 0;
}

int config_to_text(const struct plumb_config *cfg, struct buf *out,
		   struct plumb_err *err)
{
	size_t mark = out->len;

	if (render_text(cfg, out) < 0) {
		int rc = buf_err(err, "configuration text");

		out->len = mark;
		if (out->data)
			out->data[mark] = '\0';
		return rc;
	}
	return 0;
}

/* JSON building with one failure flag, so every call need not be checked. */
struct jb {
	bool failed;
};

static json_t *jb_check(struct jb *jb, json_t *v)
{
	if (!v)
		jb->failed = true;
	return v;
}

/* obj[key] = v, taking v; a NULL v or obj marks the build failed. */
static void jb_set(struct jb *jb, json_t *obj, const char *key, json_t *v)
{
	if (!v || !obj) {
		json_decref(v);
		jb->failed = true;
		return;
	}
	if (json_object_set_new(obj, key, v) < 0)
		jb->failed = true;
}

/* Append v to array a, taking v. */
static void jb_append(struct jb *jb, json_t *a, json_t *v)
{
	if (!v || !a) {
		json_decref(v);
		jb->failed = true;
		return;
	}
	if (json_array_append_new(a, v) < 0)
		jb->failed = true;
}

/* A new object or array set as obj[key]; borrowed, NULL on failure. */
static json_t *jb_child(struct jb *jb, json_t *obj, const char *key, json_t *v)
{
	jb_set(jb, obj, key, v);
	return jb->failed ? NULL : v;
}

static json_t *jb_str(struct jb *jb, const char *s)
{
	return s ? jb_check(jb, json_string(s)) : jb_check(jb, json_null());
}

static json_t *jb_int(struct jb *jb, uint64_t v)
{
	return jb_check(jb, json_integer((json_int_t)v));
}

static json_t *jb_words(struct jb *jb, char *const *v, size_t n)
{
	json_t *a = jb_check(jb, json_array());

	for (size_t i = 0; a && i < n; i++)
		jb_append(jb, a, jb_str(jb, v[i]));
	return a;
}

json_t *config_to_json(const struct plumb_config *cfg)
{
	struct jb jb = { false };
	json_t *root = jb_check(&jb, json_object());
	json_t *repo = jb_child(&jb, root, "repo", json_object());
	json_t *run = jb_child(&jb, root, "run", json_object());
	json_t *build = jb_child(&jb, root, "build", json_object());
	json_t *benches = jb_child(&jb, root, "bench", json_array());
	json_t *cpus, *labels;

	if (jb.failed) {
		json_decref(root);
		return NULL;
	}
	jb_set(&jb, repo, "path", jb_str(&jb, cfg->repo.url ? NULL : cfg->repo.path));
	jb_set(&jb, repo, "url", jb_str(&jb, cfg->repo.url));

	jb_set(&jb, run, "base", jb_str(&jb, cfg->run.base));
	jb_set(&jb, run, "candidate", jb_str(&jb, cfg->run.candidate));
	jb_set(&jb, run, "pads", jb_int(&jb, cfg->run.pads));
	jb_set(&jb, run, "rounds", jb_int(&jb, cfg->run.rounds));
	jb_set(&jb, run, "seed", jb_int(&jb, cfg->run.seed));
	jb_set(&jb, run, "control", jb_check(&jb, json_boolean(cfg->run.control)));
	jb_set(&jb, run, "warmupRuns", jb_int(&jb, cfg->run.warmup_runs));
	cpus = jb_child(&jb, run, "cpu", cfg->run.ncpus ? json_array() : json_null());
	for (size_t i = 0; cpus && i < cfg->run.ncpus; i++)
		jb_append(&jb, cpus, jb_int(&jb, (uint64_t)cfg->run.cpus[i]));
	jb_set(&jb, run, "aslr", jb_str(&jb, cfg->run.aslr ? "on" : "off"));
	jb_set(&jb, run, "env", jb_words(&jb, cfg->run.env, cfg->run.nenv));
	labels = jb_child(&jb, run, "label", json_object());
	for (size_t i = 0; labels && i < cfg->run.nlabels; i++)
		jb_set(&jb, labels, cfg->run.labels[i].key, jb_str(&jb, cfg->run.labels[i].value));

	jb_set(&jb, build, "command", jb_str(&jb, cfg->build.command));
	jb_set(&jb, build, "artifact", jb_str(&jb, cfg->build.artifact));
	jb_set(&jb, build, "pad", jb_str(&jb, config_pad_name(cfg->build.pad)));
	jb_set(&jb, build, "padBytes", jb_int(&jb, cfg->build.pad_bytes));
	jb_set(&jb, build, "reuse", jb_str(&jb, config_reuse_name(cfg->build.reuse)));
	jb_set(&jb, build, "timeout", jb_int(&jb, (uint64_t)cfg->build.timeout));
	jb_set(&jb, build, "cc", jb_str(&jb, cfg->build.cc));

	for (size_t i = 0; i < cfg->nbenches && !jb.failed; i++) {
		const struct config_bench *b = &cfg->benches[i];
		json_t *o = json_object();
		json_t *warmup;
		bool samples = b->mode == CONFIG_MODE_SAMPLES;

		jb_append(&jb, benches, o);
		if (jb.failed)
			break;
		/* Samples-only keys are null in process mode: nothing was applied. */
		if (!samples)
			warmup = jb_check(&jb, json_null());
		else if (b->warmup == CONFIG_WARMUP_COUNT)
			warmup = jb_int(&jb, b->warmup_count);
		else
			warmup = jb_str(&jb, b->warmup == CONFIG_WARMUP_AUTO ? "auto" : "none");
		jb_set(&jb, o, "name", jb_str(&jb, b->name));
		jb_set(&jb, o, "command", jb_str(&jb, b->command));
		jb_set(&jb, o, "mode", jb_str(&jb, config_mode_name(b->mode)));
		jb_set(&jb, o, "warmup", warmup);
		jb_set(&jb, o, "metric", jb_str(&jb, config_metric_name(b->metric)));
		jb_set(&jb, o, "hot", jb_words(&jb, b->hot, b->nhot));
		jb_set(&jb, o, "timeout", jb_int(&jb, (uint64_t)b->timeout));
		jb_set(&jb, o, "maxSamples", samples ? jb_int(&jb, b->max_samples)
						     : jb_check(&jb, json_null()));
		jb_set(&jb, o, "checksum", jb_str(&jb, config_checksum_name(b->checksum)));
	}
	if (jb.failed) {
		json_decref(root);
		return NULL;
	}
	return root;
}
