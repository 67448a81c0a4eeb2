/*
 * runner/host-parse.c: parsers for /proc and /sys text.  Each one is
 * strict: text it does not recognise is "malformed" (-1), so that the
 * caller records the fact as unknown with a note instead of guessing.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/utf8.h"
#include "runner/host-parse.h"
#include "common/banned.h"

#define MAX_VALUE_LEN 4096

void cpuset_release(struct cpuset *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

/* A decimal number of at most 9 digits at *p; -1 when there is none. */
static int parse_cpu_number(const char **p)
{
	long v = 0;
	int digits = 0;

	while (isdigit((unsigned char)**p)) {
		if (++digits > 9)
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	if (digits == 0 || v > HOST_MAX_CPU)
		return -1;
	return (int)v;
}

int host_parse_cpulist(const char *s, struct cpuset *out)
{
	unsigned char *seen = calloc(HOST_MAX_CPU + 1, 1);
	const char *p = skip_blanks(s);
	size_t n = 0;

	out->v = NULL;
	out->n = 0;
	if (!seen)
		return -2;
	while (*p && *p != '\n') {
		int lo = parse_cpu_number(&p), hi;
		if (lo < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = parse_cpu_number(&p);
			if (hi < lo)
				goto bad;
		}
		for (int c = lo; c <= hi; c++)
			if (!seen[c]) {
				seen[c] = 1;
				n++;
			}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
		else
			break;
	}
	if (*skip_blanks(p))
		goto bad;
	if (n) {
		out->v = malloc(n * sizeof(*out->v));
		if (!out->v) {
			free(seen);
			return -2;
		}
		for (int c = 0; c <= HOST_MAX_CPU; c++)
			if (seen[c])
				out->v[out->n++] = c;
	}
	free(seen);
	return 0;
bad:
	free(seen);
	return -1;
}

int host_format_cpulist(const int *cpus, size_t n, char **out)
{
	struct buf b;
	size_t i = 0;

	buf_init(&b, 1 << 20);
	*out = NULL;
	while (i < n) {
		size_t j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (buf_printf(&b, "%s%d", i ? "," : "", cpus[i]) < 0 ||
		    (j > i && buf_printf(&b, "-%d", cpus[j]) < 0)) {
			buf_release(&b);
			return -2;
		}
		i = j + 1;
	}
	*out = buf_detach(&b, NULL);
	return *out ? 0 : -2;
}

int host_parse_ll(const char *s, long long *out)
{
	const char *p = skip_blanks(s);
	char *end;
	long long v;

	if (!*p || !(isdigit((unsigned char)*p) || *p == '-'))
		return -1;
	errno = 0;
	v = strtoll(p, &end, 10);
	if (errno || end == p || *skip_blanks(end))
		return -1;
	*out = v;
	return 0;
}

/* Copy s[0..len) into a new string. */
static int dup_range(const char *s, size_t len, char **out)
{
	*out = malloc(len + 1);
	if (!*out)
		return -2;
	memcpy(*out, s, len);
	(*out)[len] = '\0';
	return 0;
}

/* Trim blanks around s: start and length. */
static const char *trim(const char *s, size_t *len)
{
	const char *p = skip_blanks(s);
	size_t n = strlen(p);

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' ||
		     p[n - 1] == '\r'))
		n--;
	*len = n;
	return p;
}

static int is_token_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == ':' ||
	       c == '+' || c == '-';
}

int host_parse_token(const char *s, char **out)
{
	size_t len;
	const char *p = trim(s, &len);

	if (len == 0 || len > 256)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!is_token_char(p[i]))
			return -1;
	return dup_range(p, len, out);
}

int host_parse_line(const char *s, char **out)
{
	size_t len;
	const char *p = trim(s, &len);

	if (len == 0 || len > MAX_VALUE_LEN || !utf8_ok(p, len, UTF8_NAME))
		return -1;
	return dup_range(p, len, out);
}

int host_parse_bracketed(const char *s, char **out)
{
	const char *open = strchr(s, '['), *close;
	size_t len;
	int rc;
	char *word;

	if (!open || strchr(open + 1, '['))
		return -1;
	close = strchr(open, ']');
	if (!close || strchr(close + 1, ']'))
		return -1;
	len = (size_t)(close - open - 1);
	rc = dup_range(open + 1, len, &word);
	if (rc)
		return rc;
	rc = host_parse_token(word, out);
	free(word);
	return rc;
}

/*
 * Walk "key : value" lines.  For each line calls fn(key, keylen, value,
 * vallen, ctx); stops when fn returns nonzero and returns that.
 */
static int each_colon_line(const char *text,
			   int (*fn)(const char *, size_t, const char *, size_t, void *),
			   void *ctx)
{
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *colon = memchr(line, ':', len);

		if (colon) {
			size_t klen = (size_t)(colon - line);
			const char *v = colon + 1;
			size_t vlen = len - klen - 1;
			int rc;

			while (klen && (line[klen - 1] == ' ' || line[klen - 1] == '\t'))
				klen--;
			while (vlen && (*v == ' ' || *v == '\t')) {
				v++;
				vlen--;
			}
			while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t' ||
					v[vlen - 1] == '\r'))
				vlen--;
			rc = fn(line, klen, v, vlen, ctx);
			if (rc)
				return rc;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

struct field_ctx {
	const char *key;
	const char *val;
	size_t vlen;
};

static int find_field(const char *k, size_t klen, const char *v, size_t vlen,
		      void *ctx)
{
	struct field_ctx *f = ctx;

	if (strlen(f->key) == klen && memcmp(k, f->key, klen) == 0) {
		f->val = v;
		f->vlen = vlen;
		return 1;
	}
	return 0;
}

int host_cpuinfo_field(const char *text, const char *key, char **out)
{
	struct field_ctx f = { key, NULL, 0 };
	char *raw;
	int rc;

	if (!each_colon_line(text, find_field, &f))
		return 0;
	if (f.vlen > MAX_VALUE_LEN)
		return -1;
	rc = dup_range(f.val, f.vlen, &raw);
	if (rc)
		return rc;
	rc = host_parse_line(raw, out);
	free(raw);
	return rc < 0 ? rc : 1;
}

static int count_processor(const char *k, size_t klen, const char *v,
			   size_t vlen, void *ctx)
{
	(void)v;
	(void)vlen;
	if (klen == 9 && memcmp(k, "processor", 9) == 0)
		(*(long long *)ctx)++;
	return 0;
}

long long host_cpuinfo_count(const char *text)
{
	long long n = 0;

	each_colon_line(text, count_processor, &n);
	return n;
}

struct cores_ctx {
	long long processors;
	long long cur_pkg, cur_core;
	long long *pairs;    /* pkg, core, pkg, core ... */
	size_t npairs, cap;
	int bad;
};

static int value_ll(const char *v, size_t vlen, long long *out)
{
	char tmp[32];

	if (vlen == 0 || vlen >= sizeof(tmp))
		return -1;
	memcpy(tmp, v, vlen);
	tmp[vlen] = '\0';
	return host_parse_ll(tmp, out);
}

/* Record the (package, core) pair of the processor that just ended. */
static int cores_flush(struct cores_ctx *c)
{
	if (c->processors == 0)
		return 0;
	if (c->cur_pkg < 0 || c->cur_core < 0) {
		c->bad = 1;
		return 0;
	}
	for (size_t i = 0; i < c->npairs; i++)
		if (c->pairs[2 * i] == c->cur_pkg && c->pairs[2 * i + 1] == c->cur_core)
			return 0;
	if (c->npairs == c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 16;
		long long *np;
		if (ncap > HOST_MAX_CPU + 1)
			return -1;
		np = realloc(c->pairs, ncap * 2 * sizeof(*np));
		if (!np)
			return -2;
		c->pairs = np;
		c->cap = ncap;
	}
	c->pairs[2 * c->npairs] = c->cur_pkg;
	c->pairs[2 * c->npairs + 1] = c->cur_core;
	c->npairs++;
	return 0;
}

static int collect_cores(const char *k, size_t klen, const char *v, size_t vlen,
			 void *ctx)
{
	struct cores_ctx *c = ctx;
	long long x;

	if (klen == 9 && memcmp(k, "processor", 9) == 0) {
		int rc = cores_flush(c);
		if (rc)
			return rc;
		c->processors++;
		c->cur_pkg = c->cur_core = -1;
	} else if (klen == 11 && memcmp(k, "physical id", 11) == 0) {
		if (value_ll(v, vlen, &x) < 0 || x < 0)
			c->bad = 1;
		else
			c->cur_pkg = x;
	} else if (klen == 7 && memcmp(k, "core id", 7) == 0) {
		if (value_ll(v, vlen, &x) < 0 || x < 0)
			c->bad = 1;
		else
			c->cur_core = x;
	}
	return 0;
}

int host_cpuinfo_cores(const char *text, long long *cores, long long *packages)
{
	struct cores_ctx c = { 0, -1, -1, NULL, 0, 0, 0 };
	int rc = each_colon_line(text, collect_cores, &c);

	if (!rc)
		rc = cores_flush(&c);
	if (rc || c.bad || c.processors == 0) {
		free(c.pairs);
		return rc == -2 ? -2 : -1;
	}
	*cores = (long long)c.npairs;
	*packages = 0;
	for (size_t i = 0; i < c.npairs; i++) {
		size_t j;
		for (j = 0; j < i; j++)
			if (c.pairs[2 * j] == c.pairs[2 * i])
				break;
		if (j == i)
			(*packages)++;
	}
	free(c.pairs);
	return 0;
}

struct flag_ctx {
	const char *word;
	int found;   /* -1 no flags line yet */
};

static int find_flag(const char *k, size_t klen, const char *v, size_t vlen,
		     void *ctx)
{
	struct flag_ctx *f = ctx;
	size_t wlen = strlen(f->word);
	size_t i = 0;

	if (!(klen == 5 && memcmp(k, "flags", 5) == 0))
		return 0;
	f->found = 0;
	while (i < vlen) {
		size_t j = i;
		while (j < vlen && v[j] != ' ' && v[j] != '\t')
			j++;
		if (j - i == wlen && memcmp(v + i, f->word, wlen) == 0) {
			f->found = 1;
			break;
		}
		i = j + 1;
	}
	return 1;
}

int host_cpuinfo_has_flag(const char *text, const char *word)
{
	struct flag_ctx f = { word, -1 };

	each_colon_line(text, find_flag, &f);
	return f.found;
}

int host_cmdline_param(const char *cmdline, const char *name, char **out)
{
	size_t nlen = strlen(name);
	const char *p = cmdline;
	const char *val = NULL;
	size_t vlen = 0;

	*out = NULL;
	for (;;) {
		const char *w;
		int quoted = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		w = p;
		/* A word ends at a blank outside double quotes. */
		while (*p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (*p == '"')
				quoted = !quoted;
			p++;
		}
		if (p - w == 2 && w[0] == '-' && w[1] == '-')
			break;  /* the rest belongs to init */
		if ((size_t)(p - w) > nlen && memcmp(w, name, nlen) == 0 && w[nlen] == '=') {
			val = w + nlen + 1;
			vlen = (size_t)(p - val);
		}
	}
	if (!val)
		return 0;
	{
		char *v = malloc(vlen + 1);
		size_t k = 0;
		if (!v)
			return -2;
		for (size_t i = 0; i < vlen; i++)
			if (val[i] != '"')
				v[k++] = val[i];
		v[k] = '\0';
		if (!utf8_ok(v, k, UTF8_NAME)) {
			free(v);
			return -1;
		}
		*out = v;
	}
	return 1;
}

int host_os_release_field(const char *text, const char *key, char **out)
{
	size_t klen = strlen(key);
	const char *line = text;

	*out = NULL;
	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len > klen && memcmp(line, key, klen) == 0 && line[klen] == '=') {
			const char *v = line + klen + 1;
			size_t vlen = len - klen - 1;
			char *res = malloc(vlen + 1);
			size_t k = 0;
			char q = 0;

			if (!res)
				return -2;
			if (vlen && (v[0] == '"' || v[0] == '\'')) {
				q = v[0];
				if (vlen < 2 || v[vlen - 1] != q) {
					free(res);
					return -1;
				}
				v++;
				vlen -= 2;
			}
			for (size_t i = 0; i < vlen; i++) {
				if (q == '"' && v[i] == '\\' && i + 1 < vlen &&
				    strchr("$\"\\`", v[i + 1]))
					i++;
				else if (q == 0 && v[i] == '\\' && i + 1 < vlen)
					i++;
				res[k++] = v[i];
			}
			res[k] = '\0';
			if (k == 0 || !utf8_ok(res, k, UTF8_NAME)) {
				free(res);
				return -1;
			}
			*out = res;
			return 1;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

int host_parse_loadavg(const char *text, double load[3])
{
	const char *p = text;

	for (int i = 0; i < 3; i++) {
		char *end;
		double v;

		p = skip_blanks(p);
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		v = strtod(p, &end);
		if (errno || end == p || v < 0 || v > 1e9 ||
		    (*end != ' ' && *end != '\t' && *end != '\n' && *end != '\0'))
			return -1;
		load[i] = v;
		p = end;
	}
	return 0;
}

struct meminfo_ctx {
	const char *key;
	long long value;
	int state;   /* 0 absent, 1 found, -1 malformed */
};

static int find_meminfo(const char *k, size_t klen, const char *v, size_t vlen,
			void *ctx)
{
	struct meminfo_ctx *m = ctx;
	long long x;

	if (!(strlen(m->key) == klen && memcmp(k, m->key, klen) == 0))
		return 0;
	if (vlen >= 3 && memcmp(v + vlen - 3, " kB", 3) == 0)
		vlen -= 3;
	if (value_ll(v, vlen, &x) < 0 || x < 0) {
		m->state = -1;
	} else {
		m->state = 1;
		m->value = x;
	}
	return 1;
}

int host_meminfo_kb(const char *text, const char *key, long long *out)
{
	struct meminfo_ctx m = { key, 0, 0 };

	each_colon_line(text, find_meminfo, &m);
	if (m.state == 1)
		*out = m.value;
	return m.state;
}

int host_summarize(char *const *vals, const int *cpus, size_t n, char **out)
{
	struct buf b;
	size_t known = 0;
	unsigned char *done;
	int *group;

	*out = NULL;
	for (size_t i = 0; i < n; i++)
		if (vals[i])
			known++;
	if (known == 0)
		return 0;
	if (known == n) {
		size_t i;
		for (i = 1; i < n; i++)
			if (strcmp(vals[i], vals[0]) != 0)
				break;
		if (i == n) {
			*out = strdup(vals[0]);
			return *out ? 0 : -2;
		}
	}
	done = calloc(n, 1);
	group = malloc(n * sizeof(*group));
	if (!done || !group) {
		free(done);
		free(group);
		return -2;
	}
	buf_init(&b, 1 << 20);
	for (size_t i = 0; i < n; i++) {
		const char *v = vals[i] ? vals[i] : "unknown";
		size_t g = 0;
		char *list = NULL;
		if (done[i])
			continue;
		for (size_t j = i; j < n; j++) {
			const char *w = vals[j] ? vals[j] : "unknown";
			if (!done[j] && (vals[j] == NULL) == (vals[i] == NULL) &&
			    strcmp(v, w) == 0) {
				done[j] = 1;
				group[g++] = cpus[j];
			}
		}
		if (host_format_cpulist(group, g, &list) < 0 ||
		    buf_printf(&b, "%s%s:%s", b.len ? " " : "", v, list) < 0) {
			free(list);
			free(done);
			free(group);
			buf_release(&b);
			return -2;
		}
		free(list);
	}
	free(done);
	free(group);
	*out = buf_detach(&b, NULL);
	return *out ? 0 : -2;
}
