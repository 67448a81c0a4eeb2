/*
 * runner/cachegrind.c: running a benchmark under Valgrind's cache
 * simulator and reading what it counted; see cachegrind.h.  Separate from
 * runner/measure.c: the run itself goes through the same harness, only
 * its argument vector is prefixed, and its counts come from files.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "runner/cachegrind.h"
#include "sys/proc.h"
#include "common/banned.h"

static const char install_hint[] =
	"install the Debian package " CACHEGRIND_PACKAGE " (sudo apt-get install -y "
	CACHEGRIND_PACKAGE ")";

/* The first dir/valgrind of the PATH value that is an executable file. */
static int search_path(const char *path, char *out, size_t size)
{
	const char *p = path;

	while (p && *p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		if (n > 0 && n + sizeof("/valgrind") < size) {
			memcpy(out, p, n);
			snprintf(out + n, size - n, "/valgrind");
			if (access(out, X_OK) == 0)
				return 0;
		}
		p = colon ? colon + 1 : NULL;
	}
	return -1;
}

int cachegrind_find(const char *path, const char *why, struct cachegrind_tool *t,
		    struct plumb_err *err)
{
	char *argv[3];
	struct proc_spec ps;
	struct proc_result pr;
	struct plumb_err perr;
	const char *s, *v;
	size_t n;
	int r;

	memset(t, 0, sizeof(*t));
	if (!path)
		path = getenv("PATH");
	if (search_path(path ? path : "", t->path, sizeof(t->path)) < 0)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: needs valgrind, which is not in PATH; %s", why, install_hint);
	argv[0] = t->path;
	argv[1] = (char *)"--version";
	argv[2] = NULL;
	proc_spec_init(&ps);
	ps.argv = argv;
	ps.out.kind = PROC_SINK_MEM;
	ps.out.cap = 4096;
	ps.err.kind = PROC_SINK_NULL;
	ps.timeout_ns = 30ull * 1000000000ull;
	plumb_err_clear(&perr);
	r = proc_run(&ps, &pr, &perr);
	if (r < 0) {
		*err = perr;
		return r;
	}
	s = buf_cstr(&pr.out_mem);
	v = strncmp(s, "valgrind-", 9) == 0 ? s + 9 : NULL;
	n = v ? strspn(v, "0123456789.") : 0;
	if (!(pr.exited && pr.status == 0) || n == 0 || n >= sizeof(t->version)) {
		proc_result_release(&pr);
		return plumb_err_set(err, PLUMB_EINPUT,
				     "%s: %s --version did not print a valgrind version; %s",
				     why, t->path, install_hint);
	}
	memcpy(t->version, v, n);
	t->version[n] = '\0';
	proc_result_release(&pr);
	return 0;
}

const char *cachegrind_source(int samples)
{
	return samples ? "valgrind-callgrind" : "valgrind-cachegrind";
}

void cachegrind_argv_free(char **v)
{
	if (!v)
		return;
	for (size_t i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

char **cachegrind_argv(const struct cachegrind_tool *t, int samples, const char *outdir,
		       char *const *argv)
{
	const char *fixed[] = {
		samples ? "--tool=callgrind" : "--tool=cachegrind",
		"-q", "--cache-sim=yes", "--branch-sim=no",
		"--I1=" CACHEGRIND_I1, "--D1=" CACHEGRIND_D1, "--LL=" CACHEGRIND_LL,
		"--trace-children=yes",
		samples ? "--collect-atstart=no" : NULL,
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), n = 0, k = 0;
	char **v;

	while (argv[n])
		n++;
	v = calloc(1 + nfixed + 2 + n + 1, sizeof(*v));
	if (!v)
		return NULL;
	if (!(v[k++] = strdup(t->path)))
		goto oom;
	for (size_t i = 0; i < nfixed; i++)
		if (fixed[i] && !(v[k++] = strdup(fixed[i])))
			goto oom;
	if (!(v[k++] = buf_strdupf("--%s-out-file=%s/vg.%%p", samples ? "callgrind" : "cachegrind",
				   outdir)))
		goto oom;
	if (!(v[k++] = strdup("--")))
		goto oom;
	for (size_t i = 0; i < n; i++)
		if (!(v[k++] = strdup(argv[i])))
			goto oom;
	return v;
oom:
	cachegrind_argv_free(v);
	return NULL;
}

/* The line of text starting with key at a line start, or NULL; *len its length. */
static const char *find_line(const char *text, size_t len, const char *key, size_t *llen)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t e = nl ? (size_t)(nl - text) : len;
		if (e - i >= klen && memcmp(text + i, key, klen) == 0) {
			*llen = e - i - klen;
			return text + i + klen;
		}
		i = e + 1;
	}
	return NULL;
}

/* Split s[0..len) into blank-separated words: up to max, count in *n. */
static void words(const char *s, size_t len, const char **w, size_t *wl, size_t max, size_t *n)
{
	size_t i = 0;

	*n = 0;
	while (i < len && *n < max) {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if (i == len)
			break;
		w[*n] = s + i;
		while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
		wl[*n] = (size_t)(s + i - w[*n]);
		(*n)++;
	}
}

#define MAX_EVENTS 32

int cachegrind_parse(const char *text, size_t len, const char *artifact, const char *name,
		     struct cachegrind_counts *c, int *matched, struct plumb_err *err)
{
	static const char *const ev_names[] = { "Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw",
						 "ILmr", "DLmr", "DLmw" };
	double *slot[] = { &c->ir, &c->dr, &c->dw, &c->i1mr, &c->d1mr, &c->d1mw,
			   &c->ilmr, &c->dlmr, &c->dlmw };
	const char *ew[MAX_EVENTS], *sw[MAX_EVENTS], *cw[1], *cmd, *ev, *sum;
	size_t ewl[MAX_EVENTS], swl[MAX_EVENTS], cwl[1], cl, el, sl, ne, ns, nc;
	double add[9];

	*matched = 0;
	cmd = find_line(text, len, "cmd: ", &cl);
	if (!cmd)
		return plumb_err_set(err, PLUMB_EBENCH, "%s: no cmd: line (not a valgrind output file)", name);
	words(cmd, cl, cw, cwl, 1, &nc);
	if (nc == 0 || cwl[0] != strlen(artifact) || memcmp(cw[0], artifact, cwl[0]) != 0)
		return 0;   /* another process of the command line */
	ev = find_line(text, len, "events: ", &el);
	sum = find_line(text, len, "summary: ", &sl);
	if (!ev || !sum)
		return plumb_err_set(err, PLUMB_EBENCH, "%s: no events: or summary: line (the run "
				     "was cut short?)", name);
	words(ev, el, ew, ewl, MAX_EVENTS, &ne);
	words(sum, sl, sw, swl, MAX_EVENTS, &ns);
	/* callgrind leaves out trailing zeros ("summary: 0" when nothing was
	 * collected); more values than events is a broken file. */
	if (ns > ne || ns == 0)
		return plumb_err_set(err, PLUMB_EBENCH, "%s: %zu events but %zu summary values",
				     name, ne, ns);
	for (size_t k = 0; k < 9; k++) {
		add[k] = NAN;
		for (size_t i = 0; i < ne; i++) {
			char num[32];
			char *end;
			unsigned long long x;
			if (ewl[i] != strlen(ev_names[k]) || memcmp(ew[i], ev_names[k], ewl[i]) != 0)
				continue;
			if (i >= ns) {
				add[k] = 0;   /* a trailing zero left out */
				break;
			}
			if (swl[i] == 0 || swl[i] >= sizeof(num) || strspn(sw[i], "0123456789") < swl[i])
				return plumb_err_set(err, PLUMB_EBENCH, "%s: summary value %zu is not a count",
						     name, i + 1);
			memcpy(num, sw[i], swl[i]);
			num[swl[i]] = '\0';
			errno = 0;
			x = strtoull(num, &end, 10);
			if (errno)
				return plumb_err_set(err, PLUMB_EBENCH, "%s: summary value %zu is out of range",
						     name, i + 1);
			add[k] = (double)x;
			break;
		}
		if (isnan(add[k]))
			return plumb_err_set(err, PLUMB_EBENCH, "%s: no %s event (was the cache "
					     "simulation off?)", name, ev_names[k]);
	}
	for (size_t k = 0; k < 9; k++)
		*slot[k] += add[k];
	c->procs++;
	*matched = 1;
	return 0;
}

int cachegrind_collect(const char *dir, const char *artifact, struct cachegrind_counts *c,
		       struct plumb_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0, any = 0;

	memset(c, 0, sizeof(*c));
	if (!d)
		return plumb_err_errno(err, PLUMB_EIO, errno, dir, "open");
	while ((e = readdir(d)) != NULL) {
		struct buf text;
		char *path;
		int matched = 0;
		if (strncmp(e->d_name, "vg.", 3) != 0)
			continue;
		path = buf_strdupf("%s/%s", dir, e->d_name);
		if (!path) {
			r = plumb_err_oom(err, "valgrind output");
			break;
		}
		buf_init(&text, CACHEGRIND_MAX_FILE);
		if (r == 0 && (r = file_read(path, CACHEGRIND_MAX_FILE, &text, err)) == 0)
			r = cachegrind_parse(buf_cstr(&text), text.len, artifact, path, c, &matched, err);
		any |= matched;
		buf_release(&text);
		unlink(path);
		free(path);
		if (r < 0)
			break;
	}
	closedir(d);
	if (r == 0 && !any)
		r = plumb_err_set(err, PLUMB_EBENCH, "valgrind counted no process of %s (the "
				  "command never ran the artifact?)", artifact);
	return r;
}

void cachegrind_clean(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char *path;
		if (strncmp(e->d_name, "vg.", 3) != 0)
			continue;
		path = buf_strdupf("%s/%s", dir, e->d_name);
		if (path)
			unlink(path);
		free(path);
	}
	closedir(d);
}

double cachegrind_value(enum metric_id m, const struct cachegrind_counts *c)
{
	double access = c->ir + c->dr + c->dw;
	double l1miss = c->i1mr + c->d1mr + c->d1mw;
	double llmiss = c->ilmr + c->dlmr + c->dlmw;

	switch (m) {
	case METRIC_VG_INSTRUCTIONS:
		return c->ir;
	case METRIC_VG_I1_MISSES:
		return c->i1mr;
	case METRIC_VG_D1_MISSES:
		return c->d1mr + c->d1mw;
	case METRIC_VG_LL_MISSES:
		return llmiss;
	case METRIC_CACHESIM:
		return (access - l1miss) + CACHEGRIND_LL_WEIGHT * (l1miss - llmiss) +
		       CACHEGRIND_MEM_WEIGHT * llmiss;
	default:
		break;
	}
	return NAN;
}
