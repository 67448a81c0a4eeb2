/*
 * formats/config-value.c: the value parsers of plumb.conf: numbers,
 * choices, booleans, durations, word lists, revisions, commands, paths,
 * CPU lists and labels, each checked with a message naming the key and
 * showing the value safely.  Separate from the key table (config.c) so
 * that a value type is one function whatever key uses it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/quote.h"
#include "common/suggest.h"
#include "common/utf8.h"
#include "formats/config.h"
#include "formats/config-internal.h"
#include "common/banned.h"

/* Valid UTF-8 (common/utf8.h): values end up in JSON, which must be UTF-8. */
bool config_utf8_ok(const char *v)
{
	return utf8_ok(v, strlen(v), UTF8_VALID);
}

/* A value as shown in a message: quoted as text (common/quote.h), cut to fit. */
const char *config_shown(const char *v, char *out, size_t size)
{
	return quote(out, size, v, v ? strlen(v) : 0, SIZE_MAX, QUOTE_TEXT);
}

int config_oom(struct plumb_err *err)
{
	return plumb_err_oom(err, "configuration");
}

int config_set_str(char **dst, const char *v, struct plumb_err *err)
{
	char *s = strdup(v);

	if (!s)
		return config_oom(err);
	free(*dst);
	*dst = s;
	return 0;
}

void config_free_list(char ***v, size_t *n)
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

/* Strictly digits, within [min, max]. */
bool config_parse_u64(const char *v, uint64_t min, uint64_t max, uint64_t *out)
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

int config_parse_number(const char *where, const char *v, uint64_t min,
			uint64_t max, uint64_t *out, struct plumb_err *err)
{
	if (!config_parse_u64(v, min, max, out))
		return bad_number(err, where, v, min, max);
	return 0;
}

int config_parse_size(const char *where, const char *v, uint64_t *out, char *text,
		      size_t text_size, struct plumb_err *err)
{
	static const char units[] = "KMGT";
	const char *u = NULL;
	size_t len = strlen(v);
	uint64_t n, mul = 1;
	char digits[32];

	if (len && (v[len - 1] & ~0x20) && (u = strchr(units, v[len - 1] & ~0x20)) != NULL)
		len--;
	if (len == 0 || len >= sizeof(digits))
		goto bad;
	memcpy(digits, v, len);
	digits[len] = '\0';
	for (const char *k = units; u && k <= u; k++)
		mul <<= 10;
	if (!config_parse_u64(digits, 0, UINT64_MAX / mul, &n))
		goto bad;
	*out = n * mul;
	if (u)
		snprintf(text, text_size, "%" PRIu64 "%c", n, *u);
	else
		snprintf(text, text_size, "%" PRIu64, n);
	return 0;
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a size: a whole number of bytes, or with K, M, G or T (4G)",
			     where, SHOW(v));
}

/* One of names (any case, "" entries skipped): its index, or an error listing them. */
int config_parse_choice(const char *where, const char *v,
			const char *const *names, size_t n, int *out,
			struct plumb_err *err)
{
	struct buf list;

	for (size_t i = 0; i < n; i++)
		if (names[i][0] && strcasecmp(v, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
	buf_init(&list, 256);
	for (size_t i = 0; i < n; i++)
		if (names[i][0] && buf_printf(&list, "%s%s", list.len ? ", " : "", names[i]) < 0)
			break;
	plumb_err_set(err, PLUMB_EINPUT, "%s: '%s' is not one of %s", where,
		      SHOW(v), buf_cstr(&list));
	buf_release(&list);
	return PLUMB_EINPUT;
}

/* git-config booleans: NULL (no '=') is true, "" is false, as git reads them. */
int config_parse_bool(const char *where, const char *v, bool *out,
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
int config_parse_duration(const char *where, const char *v, long *out,
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
void config_duration_text(long s, char *out, size_t size)
{
	if (s % 3600 == 0)
		snprintf(out, size, "%ldh", s / 3600);
	else if (s % 60 == 0)
		snprintf(out, size, "%ldm", s / 60);
	else
		snprintf(out, size, "%lds", s);
}

/* Split v at blanks into words (fresh copies), checking each with ok(). */
int config_parse_words(const char *where, const char *v,
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
			rc = config_oom(err);
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
			rc = config_oom(err);
			goto fail;
		}
		words = grown;
		words[n++] = w;
	}
	config_free_list(outv, outn);
	*outv = words;
	*outn = n;
	return 0;
fail:
	config_free_list(&words, &n);
	return rc;
}

bool config_env_name_ok(const char *w)
{
	if (!is_alpha_(*w))
		return false;
	for (w++; *w; w++)
		if (!is_alpha_(*w) && !is_digit(*w))
			return false;
	return true;
}

/* C and C++ (mangled) symbol names, with the '.', '$' and '@' that ELF allows. */
bool config_symbol_ok(const char *w)
{
	if (is_digit(*w))
		return false;
	for (; *w; w++)
		if (!is_alpha_(*w) && !is_digit(*w) && *w != '.' && *w != '$' && *w != '@')
			return false;
	return true;
}

/* A parameter's name and value, in a bench name and in a params line. */
static bool param_name_char(char c)
{
	return is_alpha_(c) || is_digit(c);
}

static bool param_value_char(char c)
{
	return param_name_char(c) || c == '.' || c == '-' || c == '+';
}

bool config_param_name_ok(const char *s, size_t len)
{
	if (len == 0 || len > CONFIG_PARAM_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!param_name_char(s[i]))
			return false;
	return true;
}

bool config_param_value_ok(const char *s, size_t len)
{
	if (len == 0 || len > CONFIG_PARAM_VALUE_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!param_value_char(s[i]))
			return false;
	return true;
}

static bool name_char_ok(char c)
{
	return is_alpha_(c) || is_digit(c) || c == '.' || c == '-';
}

/* A parameter combination "a=1,b=x" of an expanded name (config-params.c). */
static bool combo_ok(const char *s)
{
	while (*s) {
		const char *eq = strchr(s, '='), *comma;
		size_t vlen;

		if (!eq || !config_param_name_ok(s, (size_t)(eq - s)))
			return false;
		comma = strchr(eq + 1, ',');
		vlen = comma ? (size_t)(comma - eq - 1) : strlen(eq + 1);
		if (!config_param_value_ok(eq + 1, vlen))
			return false;
		s = comma ? comma + 1 : eq + 1 + vlen;
		if (comma && !*s)
			return false;
	}
	return true;
}

/*
 * Benchmark names end up in file names and TSV columns: keep them plain.
 * A name expanded from bench.NAME.params is NAME/a=1,b=x.
 */
bool config_bench_name_ok(const char *n)
{
	const char *slash = strchr(n, '/');
	size_t len = slash ? (size_t)(slash - n) : strlen(n);

	if (len == 0 || len > CONFIG_BENCH_NAME_MAX || !(is_alpha_(*n) || is_digit(*n)))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!name_char_ok(n[i]))
			return false;
	if (!slash)
		return true;
	return strlen(n) <= CONFIG_BENCH_FULL_NAME_MAX && slash[1] && combo_ok(slash + 1);
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
int config_parse_rev(const char *where, const char *v, char **dst,
		     struct plumb_err *err)
{
	if (!*v || *v == '-' || strlen(v) > 256)
		goto bad;
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			goto bad;
	return config_set_str(dst, v, err);
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

int config_parse_command(const char *where, const char *v, char **dst,
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
	return config_set_str(dst, v, err);
}

/* A plain one-line value: not empty, no control characters. */
int config_parse_text(const char *where, const char *v, char **dst,
		      struct plumb_err *err)
{
	if (!*v)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty value", where);
	if (has_ctrl(v, false))
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: '%s' holds a control character", where, SHOW(v));
	return config_set_str(dst, v, err);
}

int config_parse_artifact(const char *where, const char *v, char **dst,
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
	return config_set_str(dst, v, err);
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not a relative path inside the tree (no leading '/', no '..')",
			     where, SHOW(v));
}

/* "2", "0-3", "1,3,5-7"; "" means no pinning. */
int config_parse_cpus(const char *where, const char *v, struct plumb_config *cfg,
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
		return config_oom(err);
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
int config_cpus_text(const int *c, size_t n, struct buf *out)
{
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
int config_add_label(const char *where, const char *v, bool replace,
		     struct plumb_config *cfg, struct plumb_err *err)
{
	const char *eq = strchr(v, '=');
	struct config_label *grown;
	char *k, *val;
	size_t klen;

	if (!eq || !label_key_ok(v, (size_t)(eq - v)) || strlen(eq + 1) > 256 ||
	    has_ctrl(eq + 1, false) || !config_utf8_ok(eq + 1))
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
		return config_set_str(&l->value, eq + 1, err);
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
		return config_oom(err);
	}
	cfg->run.labels = grown;
	grown[cfg->run.nlabels].key = k;
	grown[cfg->run.nlabels].value = val;
	cfg->run.nlabels++;
	return 0;
}
