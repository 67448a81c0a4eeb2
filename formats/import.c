/*
 * formats/import.c: reading another tool's result file: the budgets, the
 * gzip unpacking, recognising the tool by content, and the helpers the
 * three readers (import-hyperfine.c, import-pyperf.c, import-gbench.c)
 * share.  Making the bundle is formats/import-bundle.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/digest.h"
#include "formats/import-internal.h"
#include "formats/jsonio.h"
#include "common/banned.h"

const char *import_tool_name(enum import_tool t)
{
	switch (t) {
	case IMPORT_HYPERFINE: return "hyperfine";
	case IMPORT_PYPERF: return "pyperf";
	case IMPORT_GBENCH: return "google-benchmark";
	}
	return "?";
}

int import_fail(struct import_walk *w, const char *fmt, ...)
{
	char what[PLUMB_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return plumb_err_set(w->err, PLUMB_EINPUT, "%s: %s: %s", w->name,
			     jsonio_path_str(&w->path), what);
}

/* Member key of o of JSON type type: 0, 1 when absent or null and not required. */
static int member(struct import_walk *w, const json_t *o, const char *key, int required,
		  json_type type, const char *tname, const json_t **out)
{
	const json_t *v = json_object_get(o, key);
	size_t old;
	int rc = 0;

	*out = NULL;
	if (!v || json_is_null(v)) {
		if (!required)
			return 1;
		old = jsonio_path_key(&w->path, key);
		rc = import_fail(w, "missing required member");
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	if (json_typeof(v) != type && !(type == JSON_REAL && json_is_integer(v))) {
		old = jsonio_path_key(&w->path, key);
		rc = import_fail(w, "expected %s", tname);
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	*out = v;
	return 0;
}

int import_number(struct import_walk *w, const json_t *o, const char *key, int required,
		  double *out)
{
	const json_t *v;
	int rc = member(w, o, key, required, JSON_REAL, "number", &v);

	if (rc == 0)
		*out = json_number_value(v);
	return rc;
}

int import_string(struct import_walk *w, const json_t *o, const char *key, int required,
		  const char **out)
{
	const json_t *v;
	int rc = member(w, o, key, required, JSON_STRING, "string", &v);

	*out = rc == 0 ? json_string_value(v) : NULL;
	return rc;
}

int import_array(struct import_walk *w, const json_t *o, const char *key, int required,
		 const json_t **out)
{
	return member(w, o, key, required, JSON_ARRAY, "array", out);
}

int import_object(struct import_walk *w, const json_t *o, const char *key, int required,
		  const json_t **out)
{
	return member(w, o, key, required, JSON_OBJECT, "object", out);
}

int import_check_facts(struct import_walk *w, const json_t *src, const struct import_fact *map,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const json_t *v = map[i].src ? json_object_get(src, map[i].src) : NULL;
		const char *want = NULL;
		size_t old;
		int rc;

		if (!v || json_is_null(v))
			continue;
		if (map[i].type == JSON_STRING && !json_is_string(v))
			want = "a string";
		else if (map[i].type == JSON_INTEGER &&
			 (!json_is_integer(v) || (double)json_integer_value(v) < map[i].min))
			want = "a whole number";
		else if (map[i].type == JSON_REAL &&
			 (!json_is_number(v) || !isfinite(json_number_value(v)) ||
			  json_number_value(v) < map[i].min))
			want = "a finite number";
		if (!want)
			continue;
		old = jsonio_path_key(&w->path, map[i].src);
		if (map[i].type == JSON_STRING)
			rc = import_fail(w, "expected %s, found %s", want, jsonio_type_name(v));
		else if (json_is_number(v))
			rc = import_fail(w, "expected %s of at least %g, not %g", want, map[i].min,
					 json_number_value(v));
		else
			rc = import_fail(w, "expected %s of at least %g, found %s", want, map[i].min,
					 jsonio_type_name(v));
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	return 0;
}

json_t *import_host_facts(const json_t *src, const struct import_fact *map, size_t n)
{
	json_t *h = json_object();

	for (size_t i = 0; h && i < n; i++) {
		const json_t *v = map[i].src ? json_object_get(src, map[i].src) : NULL;
		const char *dot = strchr(map[i].path, '.');
		int ok = v && (map[i].type == JSON_REAL ? json_is_number(v) : json_typeof(v) == map[i].type);
		json_t *val = ok ? json_copy((json_t *)v) : json_null(), *at = h;
		char group[32];
		if (dot) {
			snprintf(group, sizeof(group), "%.*s", (int)(dot - map[i].path), map[i].path);
			at = json_object_get(h, group);
			if (!at && json_object_set_new(h, group, json_object()) == 0)
				at = json_object_get(h, group);
		}
		if (!val || !at || json_object_set_new(at, dot ? dot + 1 : map[i].path, val) < 0) {
			json_decref(h);
			return NULL;
		}
	}
	return h;
}

struct import_entry *import_entry_add(struct import_walk *w, const char *name)
{
	struct import_file *f = w->f;
	struct import_entry *v, *e;

	if (f->n_entries >= IMPORT_MAX_ENTRIES) {
		import_fail(w, "more than %d benchmarks (the limit of one file)", IMPORT_MAX_ENTRIES);
		return NULL;
	}
	v = realloc(f->entries, (f->n_entries + 1) * sizeof(*v));
	if (!v) {
		plumb_err_oom(w->err, "import");
		return NULL;
	}
	f->entries = v;
	e = &v[f->n_entries];
	memset(e, 0, sizeof(*e));
	if (!(e->name = strdup(name))) {
		plumb_err_oom(w->err, "import");
		return NULL;
	}
	f->n_entries++;
	return e;
}

struct import_series *import_series_of(struct import_walk *w, struct import_entry *e,
				       enum metric_id metric)
{
	for (size_t i = 0; i < e->n_series; i++)
		if (e->series[i].metric == metric)
			return &e->series[i];
	if (e->n_series >= IMPORT_MAX_METRICS) {
		plumb_err_set(w->err, PLUMB_EINTERNAL, "import: too many metrics");
		return NULL;
	}
	memset(&e->series[e->n_series], 0, sizeof(e->series[0]));
	e->series[e->n_series].metric = metric;
	return &e->series[e->n_series++];
}

int import_value(struct import_walk *w, struct import_series *s, uint32_t r, double v)
{
	if (!isfinite(v) || v < 0)
		return import_fail(w, "expected a finite number of at least 0, not %g", v);
	if (w->values >= IMPORT_MAX_VALUES)
		return import_fail(w, "more than %zu values (the limit of an imported file)",
				   IMPORT_MAX_VALUES);
	if ((s->n & (s->n - 1)) == 0) {
		size_t cap = s->n ? s->n * 2 : 1;
		double *nv = realloc(s->value, cap * sizeof(*nv));
		uint32_t *nr;
		if (!nv)
			return plumb_err_oom(w->err, "import");
		s->value = nv;
		nr = realloc(s->round, cap * sizeof(*nr));
		if (!nr)
			return plumb_err_oom(w->err, "import");
		s->round = nr;
	}
	s->value[s->n] = v;
	s->round[s->n] = r;
	s->n++;
	if (r > s->rounds)
		s->rounds = r;
	w->values++;
	return 0;
}

int import_line(struct import_walk *w, char ***v, size_t *n, const char *fmt, ...)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));
	char text[1024];
	va_list ap;

	if (!nv)
		return plumb_err_oom(w->err, "import");
	*v = nv;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!(nv[*n] = strdup(text)))
		return plumb_err_oom(w->err, "import");
	(*n)++;
	return 0;
}

static void free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void import_file_release(struct import_file *f)
{
	for (size_t i = 0; i < f->n_entries; i++) {
		struct import_entry *e = &f->entries[i];
		free(e->name);
		free(e->command);
		for (size_t k = 0; k < e->n_series; k++) {
			free(e->series[k].value);
			free(e->series[k].round);
		}
		free_lines(e->notes, e->n_notes);
	}
	free(f->entries);
	for (size_t i = 0; i < f->n_left; i++) {
		free(f->left[i].name);
		free(f->left[i].why);
	}
	free(f->left);
	free_lines(f->warnings, f->n_warnings);
	free(f->path);
	free(f->tool_version);
	json_decref(f->facts);
	json_decref(f->hostfacts);
	memset(f, 0, sizeof(*f));
}

static const char expected[] =
	"not a result file plumb imports: expected hyperfine --export-json "
	"({\"results\": [...]}), pyperf JSON ({\"version\": \"1.0\", \"benchmarks\": [...]}) "
	"or Google Benchmark --benchmark_out JSON ({\"context\": {...}, \"benchmarks\": [...]})";

/* The top-level object of a result file, parsed under the budgets, into *root. */
static int load_root(const char *name, const char *data, size_t len, json_t **root,
		     struct plumb_err *err)
{
	size_t i = 0;

	*root = NULL;
	while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
		i++;
	if (i == len || data[i] != '{')
		return plumb_err_set(err, PLUMB_EINPUT, "%s: %s", name, expected);
	if (jsonio_values(data, len, IMPORT_MAX_JSON) > IMPORT_MAX_JSON)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: more than %zu JSON values (the limit "
				     "of an imported file)", name, IMPORT_MAX_JSON);
	if (jsonio_load(data, len, IMPORT_MAX_BYTES, IMPORT_MAX_DEPTH, root, err) < 0)
		return plumb_err_prefix(err, "%s", name);
	return 0;
}

static void walk_init(struct import_walk *w, const char *name, struct import_file *f,
		      struct plumb_err *err)
{
	memset(w, 0, sizeof(*w));
	w->name = name;
	w->f = f;
	w->err = err;
	jsonio_path_init(&w->path);
}

/* Google Benchmark's shape: an array "benchmarks" and an object "context". */
static int is_gbench(const json_t *root)
{
	return json_is_array(json_object_get(root, "benchmarks")) &&
	       json_is_object(json_object_get(root, "context"));
}

int import_parse(const char *name, const char *data, size_t len,
		 struct import_file *f, struct plumb_err *err)
{
	struct import_walk w;
	json_t *root;
	int rc;

	walk_init(&w, name, f, err);
	if ((rc = load_root(name, data, len, &root, err)) < 0)
		return rc;
	if (json_is_array(json_object_get(root, "results"))) {
		f->tool = IMPORT_HYPERFINE;
		rc = import_read_hyperfine(&w, root);
	} else if (is_gbench(root)) {
		f->tool = IMPORT_GBENCH;
		rc = import_read_gbench(&w, root);
	} else if (json_is_array(json_object_get(root, "benchmarks")) &&
		   json_object_get(root, "version")) {
		f->tool = IMPORT_PYPERF;
		rc = import_read_pyperf(&w, root);
	} else {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s", name, expected);
	}
	json_decref(root);
	if (rc == 0 && f->n_entries == 0 && f->n_warnings)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s (no benchmark to import)", f->warnings[f->n_warnings - 1]);
	else if (rc == 0 && f->n_entries == 0)
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: %s file with no benchmark to import",
				   name, import_tool_name(f->tool));
	return rc;
}

int import_parse_gbench(const char *name, const char *data, size_t len,
			struct import_file *f, struct plumb_err *err)
{
	struct import_walk w;
	json_t *root;
	int rc;

	memset(f, 0, sizeof(*f));
	f->tool = IMPORT_GBENCH;
	walk_init(&w, name, f, err);
	if ((rc = load_root(name, data, len, &root, err)) < 0)
		return rc;
	if (is_gbench(root))
		rc = import_read_gbench(&w, root);
	else
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: not Google Benchmark JSON (expected "
				   "{\"context\": {...}, \"benchmarks\": [...]})", name);
	json_decref(root);
	return rc;
}

/*
 * The bytes of a gzip file, unpacked, at most IMPORT_MAX_BYTES, through
 * zlib, whose checks are the format's own: the header, the deflate data,
 * every member's CRC-32 and length (ISIZE).  Members may follow one
 * another (as `gzip -c a b` writes them); anything else after the last
 * trailer is refused, as is a file that ends before it.
 */
static int gunzip(const char *name, const struct buf *in, struct buf *out,
		  struct plumb_err *err)
{
	unsigned char chunk[64 * 1024];
	z_stream z;
	int zr, rc = 0;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip wrapper, checked, not zlib's or raw deflate. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return plumb_err_oom(err, "gzip");
	z.next_in = (unsigned char *)in->data;
	z.avail_in = (uInt)in->len;   /* at most IMPORT_MAX_BYTES: file_read's limit */
	for (;;) {
		size_t got;
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = inflate(&z, Z_NO_FLUSH);
		got = sizeof(chunk) - z.avail_out;
		if (out->len + got > IMPORT_MAX_BYTES) {
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: unpacks to more than %zu bytes "
					   "(the limit of an imported file)", name, IMPORT_MAX_BYTES);
			break;
		}
		if (got && buf_add(out, chunk, got) < 0) {
			rc = buf_err(err, name);
			break;
		}
		if (zr == Z_STREAM_END) {
			if (z.avail_in == 0)
				break;
			if (z.avail_in >= 2 && z.next_in[0] == 0x1f && z.next_in[1] == 0x8b &&
			    inflateReset(&z) == Z_OK)
				continue;
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: damaged gzip stream: %u bytes after "
					   "the end of its data (the trailer)", name, z.avail_in);
			break;
		}
		if (zr == Z_OK)
			continue;
		if (zr == Z_MEM_ERROR)
			rc = plumb_err_oom(err, name);
		else if (zr == Z_BUF_ERROR && z.avail_in == 0)
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: not a readable gzip stream: truncated "
					   "gzip input (it ends before its trailer)", name);
		else
			/* "incorrect data check" (CRC-32), "incorrect length check" (ISIZE), ... */
			rc = plumb_err_set(err, PLUMB_EINPUT, "%s: damaged gzip stream: %s", name,
					   z.msg ? z.msg : "invalid data");
		break;
	}
	inflateEnd(&z);
	return rc;
}

int import_load(const char *path, struct import_file *f, struct plumb_err *err)
{
	struct buf raw, plain;
	const struct buf *text = &raw;
	int rc;

	memset(f, 0, sizeof(*f));
	buf_init(&raw, IMPORT_MAX_BYTES + 1);
	buf_init(&plain, IMPORT_MAX_BYTES + 1);
	rc = file_read(path, IMPORT_MAX_BYTES, &raw, err);
	if (rc == 0) {
		digest_buffer_hex(raw.data, raw.len, f->sha256);
		if (raw.len >= 2 && (unsigned char)raw.data[0] == 0x1f &&
		    (unsigned char)raw.data[1] == 0x8b) {
			f->gzip = 1;
			rc = gunzip(path, &raw, &plain, err);
			text = &plain;
		}
	}
	if (rc == 0 && !(f->path = strdup(path)))
		rc = plumb_err_oom(err, "import");
	if (rc == 0)
		rc = import_parse(path, text->data ? text->data : "", text->len, f, err);
	buf_release(&raw);
	buf_release(&plain);
	if (rc < 0)
		import_file_release(f);
	return rc;
}
