/*
 * formats/config-params.c: parameter matrices, bench.NAME.params.
 *
 *   [bench "zip"]
 *           params = size=1M,64M;level=1,9
 *           command = {artifact} --level {param:level} input-{param:size}
 *
 * is one benchmark per combination, in the order the values are written
 * (the last parameter varies fastest): zip/size=1M,level=1,
 * zip/size=1M,level=9, zip/size=64M,level=1, zip/size=64M,level=9.  Each
 * gets every key of the section with "{param:NAME}" replaced by its value,
 * and params holding its own combination (size=1M;level=1), so that the
 * effective configuration (the bundle's spec, `run --dry-run`) lists
 * plain benchmarks that read back as they ran: a section whose name holds
 * a '/' is such an expansion and is not expanded again.
 *
 * The expansion works on the file's entries before any is set
 * (config_read()), so each expanded key goes through the same checks and
 * messages as a key written by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "formats/config-internal.h"
#include "common/banned.h"

struct param {
	char name[CONFIG_PARAM_NAME_MAX + 1];
	char *values[CONFIG_PARAM_VALUES_MAX];
	size_t nvalues;
};

struct matrix {
	struct param p[CONFIG_PARAMS_MAX];
	size_t n;
	size_t combos;
};

static void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->p[i].nvalues; j++)
			free(m->p[i].values[j]);
	memset(m, 0, sizeof(*m));
}

static int matrix_parse_norm(const char *where, const char *v, const char *p,
			     struct matrix *m, struct plumb_err *err);

/*
 * Parse "a=1,2;b=x" into m; messages start with where.  Blanks separate
 * parameters too ("a=1,2 b=x"): in plumb.conf a ';' starts a comment
 * unless the value is quoted.
 */
static int matrix_parse(const char *where, const char *v, struct matrix *m,
			struct plumb_err *err)
{
	char norm[VALUE_MAX + 1];
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	m->combos = 1;
	if (!v || !*v)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty value (NAME=V1,V2;NAME=V1,...)",
				     where);
	for (const char *p = v; *p && n < VALUE_MAX; p++) {
		if (*p == ' ' || *p == '\t' || *p == ';') {
			if (n && norm[n - 1] != ';')
				norm[n++] = ';';
		} else {
			norm[n++] = *p;
		}
	}
	if (n && norm[n - 1] == ';' && v[strlen(v) - 1] != ';')
		n--;
	norm[n] = '\0';
	return matrix_parse_norm(where, v, norm, m, err);
}

static int matrix_parse_norm(const char *where, const char *v, const char *p,
			     struct matrix *m, struct plumb_err *err)
{
	while (*p) {
		const char *eq = strchr(p, '='), *semi = strchr(p, ';');
		const char *end = semi ? semi : p + strlen(p);
		struct param *pa;

		if (!eq || eq > end || !config_param_name_ok(p, (size_t)(eq - p)))
			goto bad;
		if (m->n == CONFIG_PARAMS_MAX)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d parameters",
					     where, CONFIG_PARAMS_MAX);
		pa = &m->p[m->n];
		memcpy(pa->name, p, (size_t)(eq - p));
		pa->name[eq - p] = '\0';
		for (size_t i = 0; i < m->n; i++)
			if (strcmp(m->p[i].name, pa->name) == 0)
				return plumb_err_set(err, PLUMB_EINPUT, "%s: parameter '%s' given twice",
						     where, pa->name);
		m->n++;
		for (const char *q = eq + 1; q <= end;) {
			const char *comma = memchr(q, ',', (size_t)(end - q));
			const char *ve = comma ? comma : end;

			if (!config_param_value_ok(q, (size_t)(ve - q)))
				goto bad;
			if (pa->nvalues == CONFIG_PARAM_VALUES_MAX)
				return plumb_err_set(err, PLUMB_EINPUT, "%s: parameter '%s': more than "
						     "%d values", where, pa->name, CONFIG_PARAM_VALUES_MAX);
			if (!(pa->values[pa->nvalues] = strndup(q, (size_t)(ve - q))))
				return config_oom(err);
			pa->nvalues++;
			for (size_t i = 0; i + 1 < pa->nvalues; i++)
				if (strcmp(pa->values[i], pa->values[pa->nvalues - 1]) == 0)
					return plumb_err_set(err, PLUMB_EINPUT, "%s: parameter '%s': "
							     "value '%s' given twice", where, pa->name,
							     pa->values[i]);
			q = ve + 1;
		}
		m->combos *= pa->nvalues;
		if (m->combos > CONFIG_BENCHES_MAX)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %d combinations",
					     where, CONFIG_BENCHES_MAX);
		p = semi ? semi + 1 : end;
		if (semi && !*p)
			goto bad;
	}
	return 0;
bad:
	return plumb_err_set(err, PLUMB_EINPUT,
			     "%s: '%s' is not NAME=V1,V2;NAME=V1,... (names of letters, digits and "
			     "'_' up to %d, values also '.', '-', '+' up to %d)",
			     where, SHOW(v), CONFIG_PARAM_NAME_MAX, CONFIG_PARAM_VALUE_MAX);
}

int config_parse_params(const char *where, const char *v, char **dst, struct plumb_err *err)
{
	struct matrix m;
	int rc = matrix_parse(where, v, &m, err);

	matrix_release(&m);
	return rc < 0 ? rc : config_set_str(dst, v, err);
}

/* The index of combination c's value of parameter i (the last varies fastest). */
static size_t pick(const struct matrix *m, size_t c, size_t i)
{
	for (size_t j = m->n; j-- > i + 1;)
		c /= m->p[j].nvalues;
	return c % m->p[i].nvalues;
}

/* Append v with each {param:NAME} of m's combination c replaced. */
static int substitute(const char *where, const char *v, const struct matrix *m, size_t c,
		      struct buf *out, struct plumb_err *err)
{
	const char *p = v;

	for (const char *s; (s = strstr(p, "{param:")); p = strchr(s, '}') + 1) {
		const char *name = s + 7, *close = strchr(name, '}');
		size_t i;

		if (!close)
			break;
		for (i = 0; i < m->n; i++)
			if (strlen(m->p[i].name) == (size_t)(close - name) &&
			    strncmp(m->p[i].name, name, (size_t)(close - name)) == 0)
				break;
		if (i == m->n)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: '{param:%.*s}': no such parameter "
					     "in its params (a ';' in plumb.conf starts a comment: quote "
					     "the value, or separate parameters by spaces)", where,
					     (int)(close - name) > 64 ? 64 : (int)(close - name), name);
		if (buf_add(out, p, (size_t)(s - p)) < 0 ||
		    buf_addstr(out, m->p[i].values[pick(m, c, i)]) < 0)
			return buf_err(err, "configuration");
	}
	return buf_addstr(out, p) < 0 ? buf_err(err, "configuration") : 0;
}

/* "bench.SUB.KEY" -> SUB and KEY (pointers into name), or 0 when not a bench key. */
static int bench_key(const char *name, const char **sub, size_t *sublen, const char **key)
{
	const char *last = name ? strrchr(name, '.') : NULL;

	if (!name || strncasecmp(name, "bench.", 6) != 0 || !last || last < name + 6)
		return 0;
	*sub = name + 6;
	*sublen = (size_t)(last - *sub);
	*key = last + 1;
	return 1;
}

static int same_sub(const struct config_entry *e, const char *sub, size_t len)
{
	const char *s, *k;
	size_t n;

	return bench_key(e->name, &s, &n, &k) && n == len && strncmp(s, sub, len) == 0;
}

/* The combination c as a name suffix ("size=1M,level=1") or a params value ("size=1M;level=1"). */
static int combo_text(const struct matrix *m, size_t c, char sep, struct buf *out)
{
	for (size_t i = 0; i < m->n; i++)
		if (buf_printf(out, "%s%s=%s", i ? (char[2]){ sep, 0 } : "", m->p[i].name,
			       m->p[i].values[pick(m, c, i)]) < 0)
			return -1;
	return 0;
}

/* Room for one more entry in *out (n used of *cap). */
static int grow(struct config_entry **out, size_t n, size_t *cap, struct plumb_err *err)
{
	struct config_entry *g;

	if (n < *cap)
		return 0;
	if (!(g = realloc(*out, (*cap * 2 + 16) * sizeof(*g))))
		return config_oom(err);
	*out = g;
	*cap = *cap * 2 + 16;
	return 0;
}

/* Expand the section of entry e[at] (its params value v) into out. */
static int expand_one(const char *path, const struct config_entry *e, size_t n, size_t at,
		      struct config_entry **out, size_t *nout, size_t *cap,
		      struct plumb_err *err)
{
	const char *sub, *key;
	size_t sublen;
	char where[PLUMB_ERR_MAX / 2];
	struct matrix m;
	int rc = 0;

	bench_key(e[at].name, &sub, &sublen, &key);
	snprintf(where, sizeof(where), "%s: bench.%.*s.params", path, (int)sublen, sub);
	if ((rc = matrix_parse(where, e[at].value, &m, err)) < 0)
		goto out;
	for (size_t c = 0; rc == 0 && c < m.combos; c++) {
		struct buf name;

		buf_init(&name, VALUE_MAX);
		if (buf_add(&name, sub, sublen) < 0 || buf_addch(&name, '/') < 0 ||
		    combo_text(&m, c, ',', &name) < 0) {
			rc = buf_err(err, "configuration");
			buf_release(&name);
			break;
		}
		for (size_t i = 0; rc == 0 && i < n; i++) {
			const char *s2, *k2;
			size_t l2;
			struct buf v;
			struct config_entry *ne;

			if (!same_sub(&e[i], sub, sublen))
				continue;
			bench_key(e[i].name, &s2, &l2, &k2);
			if ((rc = grow(out, *nout, cap, err)) < 0)
				break;
			ne = &(*out)[*nout];
			buf_init(&v, VALUE_MAX * 2);
			snprintf(where, sizeof(where), "%s: bench.%.*s.%s", path, (int)sublen, sub, k2);
			if (strcasecmp(k2, "params") == 0)
				rc = combo_text(&m, c, ';', &v) < 0 ? buf_err(err, "configuration") : 0;
			else if (e[i].value)
				rc = substitute(where, e[i].value, &m, c, &v, err);
			ne->name = buf_strdupf("bench.%s.%s", buf_cstr(&name), k2);
			ne->value = e[i].value ? buf_detach(&v, NULL) : NULL;
			buf_release(&v);
			if (!ne->name || (e[i].value && !ne->value)) {
				free(ne->name);
				free(ne->value);
				if (rc == 0)
					rc = config_oom(err);
				break;
			}
			(*nout)++;
		}
		buf_release(&name);
	}
out:
	matrix_release(&m);
	return rc;
}

int config_params_expand(const char *path, struct config_entry **entries, size_t *count,
			 struct plumb_err *err)
{
	struct config_entry *e = *entries, *out = NULL;
	size_t n = *count, nout = 0, cap = 0;
	int rc = 0, any = 0;
	bool *done;

	for (size_t i = 0; i < n; i++) {
		const char *sub, *key;
		size_t len;
		if (bench_key(e[i].name, &sub, &len, &key) && strcasecmp(key, "params") == 0)
			any = 1;
	}
	if (!any)
		return 0;
	if (!(done = calloc(n, sizeof(*done))))
		return config_oom(err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const char *sub, *key;
		size_t len, params = n;

		if (done[i])
			continue;
		if (!bench_key(e[i].name, &sub, &len, &key)) {
			/* Not a bench key: kept as it is. */
			if ((rc = grow(&out, nout, &cap, err)) < 0)
				break;
			out[nout].name = e[i].name;
			out[nout].value = e[i].value;
			e[i].name = e[i].value = NULL;
			done[i] = true;
			nout++;
			continue;
		}
		/* A section is expanded (or kept) whole at its first entry; one
		 * named NAME/a=1 is an expansion already (the effective
		 * configuration read back): its params record its combination. */
		for (size_t j = i; j < n && !memchr(sub, '/', len); j++) {
			const char *s2, *k2;
			size_t l2;
			if (same_sub(&e[j], sub, len) && bench_key(e[j].name, &s2, &l2, &k2) &&
			    strcasecmp(k2, "params") == 0)
				params = j;
		}
		if (params < n) {
			rc = expand_one(path, e, n, params, &out, &nout, &cap, err);
			for (size_t j = i; j < n; j++)
				if (same_sub(&e[j], sub, len))
					done[j] = true;
			continue;
		}
		for (size_t j = i; rc == 0 && j < n; j++) {
			if (done[j] || !same_sub(&e[j], sub, len))
				continue;
			done[j] = true;
			if ((rc = grow(&out, nout, &cap, err)) < 0)
				break;
			out[nout].name = e[j].name;
			out[nout].value = e[j].value;
			e[j].name = e[j].value = NULL;
			nout++;
		}
	}
	free(done);
	/* Entries moved to out are NULL in e; what is left is freed here. */
	for (size_t i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].value);
	}
	free(e);
	*entries = out;
	*count = nout;
	return rc;
}

int config_params_leftover(const char *where, const char *v, struct plumb_err *err)
{
	const char *s = v ? strstr(v, "{param:") : NULL;
	const char *close = s ? strchr(s, '}') : NULL;

	if (!s || !close)
		return 0;
	return plumb_err_set(err, PLUMB_EINPUT, "%s: '%.*s' but the benchmark has no params "
			     "(bench.NAME.params = NAME=V1,V2;...)", where,
			     (int)(close - s + 1) > 80 ? 80 : (int)(close - s + 1), s);
}

void config_bench_file_id(const char *name, char out[CONFIG_BENCH_FILE_ID_MAX + 1])
{
	size_t o = 0;

	for (size_t i = 0; name[i] && o + 2 <= CONFIG_BENCH_FILE_ID_MAX; i++) {
		switch (name[i]) {
		case '/': out[o++] = '-'; out[o++] = '-'; break;
		case '=': out[o++] = '-'; break;
		case ',': out[o++] = '_'; break;
		case '+': out[o++] = '.'; break;
		default:
			/* Anything else a Google Benchmark name may hold ("BM_t<int>"). */
			out[o++] = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
				   (name[i] >= '0' && name[i] <= '9') || name[i] == '.' || name[i] == '_' ||
				   name[i] == '-' ? name[i] : '_';
			break;
		}
	}
	out[o] = '\0';
}
