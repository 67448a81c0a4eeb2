/*
 * formats/import.c: reading another tool's result file: the budgets, the
 * gzip unpacking, the two readings through formats/jsonpull.h (the whole
 * text checked and its top level kept, then the big array walked one
 * element at a time, its sample arrays packed), recognising the tool by
 * content, and the helpers the three readers (import-hyperfine.c,
 * import-pyperf.c, import-gbench.c) share.  Making the bundle is
 * formats/import-bundle.c.
 *
 * Why not one jansson tree: it takes some 48 bytes a number and 232 to
 * 344 an object, so a file the limits allow (1,000,000 values, or
 * 500,000 small objects in 4 MB) held 126 to 187 MB; read this way the
 * file costs its samples (12 bytes a value) and one element's tree,
 * within the 64 MB bundle-v1.md promises.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <zlib.h>

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

/* Element i of a (an array of the tree, or one read into packed storage). */
size_t import_size(const struct import_walk *w, const json_t *a)
{
	for (size_t k = 0; k < w->n_packed; k++)
		if (w->packed[k].stand_in == a)
			return w->packed[k].n;
	return json_array_size(a);
}

void import_elem(const struct import_walk *w, const json_t *a, size_t i, struct import_elem *out)
{
	const json_t *v;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < w->n_packed; k++) {
		const struct import_packed *pk = &w->packed[k];
		if (pk->stand_in != a)
			continue;
		out->kind = pk->kind[i];
		if (out->kind == IMPORT_ELEM_INTEGER) {
			out->integer = pk->v[i].integer;
			out->number = (double)out->integer;
		} else if (out->kind == IMPORT_ELEM_REAL) {
			out->number = pk->v[i].number;
		}
		return;
	}
	v = json_array_get(a, i);
	out->kind = json_is_integer(v) ? IMPORT_ELEM_INTEGER : json_is_real(v) ? IMPORT_ELEM_REAL :
		    json_is_null(v) ? IMPORT_ELEM_NULL : IMPORT_ELEM_OTHER;
	if (json_is_integer(v))
		out->integer = json_integer_value(v);
	if (json_is_number(v))
		out->number = json_number_value(v);
}

static void packed_free(struct import_walk *w)
{
	for (size_t k = 0; k < w->n_packed; k++) {
		json_decref(w->packed[k].stand_in);
		free(w->packed[k].kind);
		free(w->packed[k].v);
	}
	free(w->packed);
	w->packed = NULL;
	w->n_packed = 0;
}

/* An array at a sample path read into packed storage: numbers and nulls
 * kept, anything else marked (and skipped). */
static int pack(struct import_walk *w, struct jsonpull *p, json_t **out)
{
	struct import_packed *grown = realloc(w->packed, (w->n_packed + 1) * sizeof(*grown)), *pk;
	enum jsonpull_tok tok;
	int rc;

	if (!grown)
		return plumb_err_oom(w->err, "import");
	w->packed = grown;
	pk = &grown[w->n_packed];
	memset(pk, 0, sizeof(*pk));
	if (!(pk->stand_in = json_array()))
		return plumb_err_oom(w->err, "import");
	w->n_packed++;
	for (;;) {
		if ((rc = jsonpull_next(p, &tok)) < 0)
			return rc;
		if (tok == JSONPULL_ARRAY_END)
			break;
		if (pk->n == pk->cap) {
			size_t cap = pk->cap ? pk->cap * 2 : 64;
			unsigned char *nk = realloc(pk->kind, cap);
			union import_number *nv;
			if (!nk)
				return plumb_err_oom(w->err, "import");
			pk->kind = nk;
			if (!(nv = realloc(pk->v, cap * sizeof(*nv))))
				return plumb_err_oom(w->err, "import");
			pk->v = nv;
			pk->cap = cap;
		}
		pk->v[pk->n].integer = 0;
		switch (tok) {
		case JSONPULL_INTEGER:
			pk->kind[pk->n] = IMPORT_ELEM_INTEGER;
			pk->v[pk->n].integer = p->integer;
			break;
		case JSONPULL_REAL:
			pk->kind[pk->n] = IMPORT_ELEM_REAL;
			pk->v[pk->n].number = p->number;
			break;
		case JSONPULL_NULL:
			pk->kind[pk->n] = IMPORT_ELEM_NULL;
			break;
		default:
			pk->kind[pk->n] = IMPORT_ELEM_OTHER;
			if ((rc = jsonpull_skip(p, tok)) < 0)
				return rc;
			break;
		}
		pk->n++;
	}
	*out = json_incref(pk->stand_in);
	return 1;
}

static int matches(const struct jsonpull *p, const char *const *patterns)
{
	for (size_t i = 0; patterns && patterns[i]; i++)
		if (jsonpull_at(p, patterns[i]))
			return 1;
	return 0;
}

/* jsonpull_tree()'s hook: the reader's sample arrays packed, its ignored parts skipped. */
static int hook(void *ctx, struct jsonpull *p, enum jsonpull_tok tok, json_t **out)
{
	struct import_walk *w = ctx;
	int rc;

	if (!w->reader)
		return 0;
	if (tok == JSONPULL_ARRAY && matches(p, w->reader->packed))
		return pack(w, p, out);
	if (matches(p, w->reader->skipped)) {
		*out = NULL;
		return (rc = jsonpull_skip(p, tok)) < 0 ? rc : 1;
	}
	return 0;
}

/*
 * Where a result file's bytes come from, in chunks: the file (unpacked
 * when it is a gzip stream, through zlib, whose checks are the format's
 * own: the header, the deflate data, every member's CRC-32 and length
 * (ISIZE); members may follow one another, as `gzip -c a b` writes them;
 * anything else after the last trailer is refused, as is a file that
 * ends before it), or a buffer.  It is read twice (import_parse_src()),
 * the file's SHA-256 taken each time: a file that changed in between is
 * refused.
 */
struct import_src {
	const char *name;
	int fd;                       /* -1: data */
	const char *data;
	size_t len, off;
	int gzip, z_live, raw_eof;
	z_stream z;
	unsigned char raw[JSONPULL_CHUNK];
	size_t raw_total, plain_total;
	struct digest d;
	int d_live;
	unsigned char sum[DIGEST_BYTES];
	int summed;                   /* sum holds the first reading's hash */
};

/* The next bytes of the file itself into src->raw (after what is left). */
static int raw_fill(struct import_src *s, struct plumb_err *err)
{
	size_t keep = s->z.avail_in;
	ssize_t n;

	if (keep && s->z.next_in != s->raw)
		memmove(s->raw, s->z.next_in, keep);
	s->z.next_in = s->raw;
	do
		n = read(s->fd, s->raw + keep, sizeof(s->raw) - keep);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, s->name, "read");
	if (n == 0)
		s->raw_eof = 1;
	s->raw_total += (size_t)n;
	if (s->raw_total > IMPORT_MAX_BYTES)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: larger than %zu bytes", s->name,
				     IMPORT_MAX_BYTES);
	if (n && digest_update(&s->d, s->raw + keep, (size_t)n, err) < 0)
		return err->code;
	s->z.avail_in = (uInt)(keep + (size_t)n);
	return 0;
}

static int gz_read(struct import_src *s, char *buf, size_t cap, size_t *got,
		   struct plumb_err *err)
{
	int rc = 0, zr;

	*got = 0;
	while (*got == 0) {
		if (!s->z_live)
			return 0;   /* the last member ended with the file */
		if (s->z.avail_in == 0 && !s->raw_eof && (rc = raw_fill(s, err)) < 0)
			return rc;
		s->z.next_out = (unsigned char *)buf;
		s->z.avail_out = (uInt)cap;
		zr = inflate(&s->z, Z_NO_FLUSH);
		*got = cap - s->z.avail_out;
		s->plain_total += *got;
		if (s->plain_total > IMPORT_MAX_BYTES)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: unpacks to more than %zu bytes "
					     "(the limit of an imported file)", s->name, IMPORT_MAX_BYTES);
		if (zr == Z_STREAM_END) {
			/* Another member, the end, or bytes that do not belong. */
			if (s->z.avail_in < 2 && !s->raw_eof && (rc = raw_fill(s, err)) < 0)
				return rc;
			if (s->z.avail_in < 2 && !s->raw_eof && (rc = raw_fill(s, err)) < 0)
				return rc;
			if (s->z.avail_in == 0) {
				inflateEnd(&s->z);
				s->z_live = 0;
			} else if (s->z.avail_in >= 2 && s->z.next_in[0] == 0x1f &&
				   s->z.next_in[1] == 0x8b && inflateReset(&s->z) == Z_OK) {
				continue;
			} else {
				size_t after = s->z.avail_in;
				s->z.avail_in = 0;
				while (!s->raw_eof && (rc = raw_fill(s, err)) == 0) {
					after += s->z.avail_in;
					s->z.avail_in = 0;
				}
				if (!s->raw_eof)
					return rc;
				return plumb_err_set(err, PLUMB_EINPUT, "%s: damaged gzip stream: %zu "
						     "bytes after the end of its data (the trailer)",
						     s->name, after);
			}
			continue;
		}
		if (zr == Z_OK)
			continue;
		if (zr == Z_BUF_ERROR && s->z.avail_in == 0 && !s->raw_eof)
			continue;
		if (zr == Z_MEM_ERROR)
			return plumb_err_oom(err, s->name);
		if (zr == Z_BUF_ERROR && s->z.avail_in == 0)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: not a readable gzip stream: "
					     "truncated gzip input (it ends before its trailer)", s->name);
		/* "incorrect data check" (CRC-32), "incorrect length check" (ISIZE), ... */
		return plumb_err_set(err, PLUMB_EINPUT, "%s: damaged gzip stream: %s", s->name,
				     s->z.msg ? s->z.msg : "invalid data");
	}
	return 0;
}

/* jsonpull's read function. */
static int src_read(void *ctx, char *buf, size_t cap, size_t *got, struct plumb_err *err)
{
	struct import_src *s = ctx;
	ssize_t n;

	*got = 0;
	if (s->fd < 0) {
		size_t n2 = s->len - s->off < cap ? s->len - s->off : cap;
		memcpy(buf, s->data + s->off, n2);
		s->off += n2;
		*got = n2;
		return 0;
	}
	if (s->gzip)
		return gz_read(s, buf, cap, got, err);
	/* Plain: what raw_fill read first is handed out before the rest. */
	if (s->z.avail_in) {
		n = (ssize_t)(s->z.avail_in < cap ? s->z.avail_in : cap);
		memcpy(buf, s->z.next_in, (size_t)n);
		s->z.next_in += n;
		s->z.avail_in -= (uInt)n;
		*got = (size_t)n;
		return 0;
	}
	if (s->raw_eof)
		return 0;
	if (raw_fill(s, err) < 0)
		return err->code;
	return src_read(ctx, buf, cap, got, err);
}

/* Start (or start again) reading the source from its first byte. */
static int src_start(struct import_src *s, struct plumb_err *err)
{
	int rc;

	if (s->fd < 0) {
		s->off = 0;
		if (s->len > IMPORT_MAX_BYTES)
			return plumb_err_set(err, PLUMB_EINPUT, "%s: larger than %zu bytes", s->name,
					     IMPORT_MAX_BYTES);
		return 0;
	}
	if (lseek(s->fd, 0, SEEK_SET) < 0)
		return plumb_err_errno(err, PLUMB_EIO, errno, s->name, "seek");
	if (s->z_live)
		inflateEnd(&s->z);
	s->z_live = 0;
	memset(&s->z, 0, sizeof(s->z));
	s->raw_eof = 0;
	s->raw_total = s->plain_total = 0;
	if (s->d_live)
		digest_release(&s->d);
	if ((rc = digest_init(&s->d, 0, err)) < 0)
		return rc;
	s->d_live = 1;
	if ((rc = raw_fill(s, err)) < 0)
		return rc;
	/* Again on a short read, so that the magic is seen whole. */
	if (s->z.avail_in < 2 && !s->raw_eof && (rc = raw_fill(s, err)) < 0)
		return rc;
	s->gzip = s->z.avail_in >= 2 && s->raw[0] == 0x1f && s->raw[1] == 0x8b;
	if (s->gzip) {
		/* 16 + MAX_WBITS: a gzip wrapper, checked, not zlib's or raw deflate. */
		unsigned char *in = s->z.next_in;
		uInt avail = s->z.avail_in;
		if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK)
			return plumb_err_oom(err, "gzip");
		s->z.next_in = in;
		s->z.avail_in = avail;
		s->z_live = 1;
	}
	return 0;
}

/* The source read to its end: its hash, the same both times. */
static int src_finish(struct import_src *s, struct plumb_err *err)
{
	unsigned char sum[DIGEST_BYTES];
	int rc;

	if (s->fd < 0)
		return 0;
	rc = digest_final(&s->d, sum, err);
	s->d_live = 0;
	if (rc < 0)
		return rc;
	if (!s->summed) {
		memcpy(s->sum, sum, sizeof(sum));
		s->summed = 1;
	} else if (memcmp(s->sum, sum, sizeof(sum)) != 0) {
		return plumb_err_set(err, PLUMB_EINPUT, "%s: changed while it was read", s->name);
	}
	return 0;
}

static void src_release(struct import_src *s)
{
	if (s->z_live)
		inflateEnd(&s->z);
	s->z_live = 0;
	if (s->d_live)
		digest_release(&s->d);
	s->d_live = 0;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static const char expected[] =
	"not a result file plumb imports: expected hyperfine --export-json "
	"({\"results\": [...]}), pyperf JSON ({\"version\": \"1.0\", \"benchmarks\": [...]}) "
	"or Google Benchmark --benchmark_out JSON ({\"context\": {...}, \"benchmarks\": [...]})";

static void walk_init(struct import_walk *w, const char *name, struct import_file *f,
		      struct plumb_err *err)
{
	memset(w, 0, sizeof(*w));
	w->name = name;
	w->f = f;
	w->err = err;
	jsonio_path_init(&w->path);
	w->budget.max = IMPORT_MAX_HELD;
	w->budget.hook = hook;
	w->budget.ctx = w;
}

static void pull_start(struct import_walk *w, struct jsonpull *p, struct import_src *s)
{
	jsonpull_init(p, src_read, s, IMPORT_MAX_DEPTH, IMPORT_MAX_STRING, IMPORT_MAX_JSON,
		      "of an imported file", w->err);
}

/* The members the readers walk one element at a time. */
static int is_big(const char *key)
{
	return strcmp(key, "results") == 0 || strcmp(key, "benchmarks") == 0;
}

/* rc of the tokenizer: its messages (but the source's own) name the file. */
static int pull_err(struct import_walk *w, const struct jsonpull *p, int rc)
{
	if (rc == PLUMB_EINPUT && !p->read_failed)
		plumb_err_prefix(w->err, "%s", w->name);
	return rc;
}

/*
 * The first reading: the whole text checked, and the top-level object
 * into *top but for its arrays "results" and "benchmarks", which stand
 * as empty arrays (the second reading walks them).  A text that does
 * not start as an object is expected's error (or other's).
 */
static int read_top(struct import_walk *w, struct jsonpull *p, json_t **top,
		    const char *other)
{
	enum jsonpull_tok tok;
	char *key = NULL;
	json_t *v;
	int rc, c;

	if ((rc = jsonpull_lookahead(p, &c)) < 0)
		return rc;
	if (c != '{')
		return (rc = jsonpull_drain(p)) < 0 ? rc :
		       plumb_err_set(w->err, PLUMB_EINPUT, "%s: %s", w->name, other);
	if ((rc = jsonpull_next(p, &tok)) < 0)
		goto fail;
	if (!(*top = json_object()))
		return plumb_err_oom(w->err, "import");
	for (;;) {
		if ((rc = jsonpull_next(p, &tok)) < 0)
			goto fail;
		if (tok == JSONPULL_OBJECT_END)
			break;
		if (json_object_get(*top, p->str)) {
			rc = jsonpull_fail(p, "duplicate object key");
			goto fail;
		}
		if (!(key = strdup(p->str)))
			return plumb_err_oom(w->err, "import");
		if ((rc = jsonpull_next(p, &tok)) < 0)
			goto fail;
		v = NULL;
		if (is_big(key) && tok == JSONPULL_ARRAY) {
			if ((rc = jsonpull_skip(p, tok)) < 0)
				goto fail;
			v = json_array();
		} else if ((rc = jsonpull_tree(p, tok, &w->budget, &v)) < 0) {
			goto fail;
		}
		if (!v || json_object_set_new(*top, key, v) < 0) {
			free(key);
			return plumb_err_oom(w->err, "import");
		}
		free(key);
		key = NULL;
	}
	if ((rc = jsonpull_next(p, &tok)) < 0)
		goto fail;
	return 0;
fail:
	free(key);
	/* The source's own checks (size, gzip) come before what its text says. */
	if (!p->read_failed) {
		struct plumb_err mine = *w->err;
		if (jsonpull_drain(p) < 0)
			return p->read_failed;
		*w->err = mine;
	}
	return pull_err(w, p, rc);
}

/* The second reading: the elements of top-level member r->array to r->element, one at a time. */
static int read_elements(struct import_walk *w, struct jsonpull *p)
{
	enum jsonpull_tok tok;
	int rc, here = 0;

	if ((rc = jsonpull_next(p, &tok)) < 0)
		return pull_err(w, p, rc);
	for (;;) {
		if ((rc = jsonpull_next(p, &tok)) < 0)
			return pull_err(w, p, rc);
		if (tok == JSONPULL_OBJECT_END)
			break;
		here = strcmp(p->str, w->reader->array) == 0;
		if ((rc = jsonpull_next(p, &tok)) < 0)
			return pull_err(w, p, rc);
		if (!here || tok != JSONPULL_ARRAY) {
			if ((rc = jsonpull_skip(p, tok)) < 0)
				return pull_err(w, p, rc);
			continue;
		}
		for (size_t i = 0;; i++) {
			size_t cost = w->budget.cost, old;
			json_t *e;
			if ((rc = jsonpull_next(p, &tok)) < 0)
				return pull_err(w, p, rc);
			if (tok == JSONPULL_ARRAY_END)
				break;
			if ((rc = jsonpull_tree(p, tok, &w->budget, &e)) < 0) {
				packed_free(w);
				return pull_err(w, p, rc);
			}
			old = jsonio_path_key(&w->path, w->reader->array);
			jsonio_path_index(&w->path, i);
			rc = w->reader->element(w, e);
			jsonio_path_restore(&w->path, old);
			json_decref(e);
			packed_free(w);
			w->budget.cost = cost;
			if (rc < 0)
				return rc;
		}
	}
	return pull_err(w, p, jsonpull_next(p, &tok));
}

/* A result file's text from s, read twice: first checked whole with its small parts
 * kept, then the big arrays walked. */
static int parse_src(struct import_walk *w, struct import_src *s, int gbench_only)
{
	static const char not_gbench[] = "not Google Benchmark JSON (expected {\"context\": "
		"{...}, \"benchmarks\": [...]})";
	struct import_file *f = w->f;
	struct jsonpull p;
	json_t *top = NULL;
	int rc;

	if ((rc = src_start(s, w->err)) < 0)
		return rc;
	pull_start(w, &p, s);
	rc = read_top(w, &p, &top, expected);
	jsonpull_release(&p);
	if (rc == 0)
		rc = src_finish(s, w->err);
	if (rc < 0)
		goto out;
	if (!gbench_only && json_is_array(json_object_get(top, "results"))) {
		f->tool = IMPORT_HYPERFINE;
		w->reader = &import_hyperfine;
	} else if (json_is_array(json_object_get(top, "benchmarks")) &&
		   json_is_object(json_object_get(top, "context"))) {
		f->tool = IMPORT_GBENCH;
		w->reader = &import_gbench;
	} else if (!gbench_only && json_is_array(json_object_get(top, "benchmarks")) &&
		   json_object_get(top, "version")) {
		f->tool = IMPORT_PYPERF;
		w->reader = &import_pyperf;
	} else {
		rc = plumb_err_set(w->err, PLUMB_EINPUT, "%s: %s", w->name,
				   gbench_only ? not_gbench : expected);
		goto out;
	}
	w->top = top;
	if (w->reader->begin)
		rc = w->reader->begin(w);
	if (rc == 0 && (rc = src_start(s, w->err)) == 0) {
		pull_start(w, &p, s);
		rc = read_elements(w, &p);
		jsonpull_release(&p);
		if (rc == 0)
			rc = src_finish(s, w->err);
	}
	if (w->reader->end)
		rc = w->reader->end(w, rc);
out:
	packed_free(w);
	json_decref(top);
	return rc;
}

/* What every result file must hold. */
static int check_entries(struct import_walk *w, int rc)
{
	struct import_file *f = w->f;

	if (rc == 0 && f->n_entries == 0 && f->n_warnings)
		rc = plumb_err_set(w->err, PLUMB_EINPUT, "%s (no benchmark to import)",
				   f->warnings[f->n_warnings - 1]);
	else if (rc == 0 && f->n_entries == 0)
		rc = plumb_err_set(w->err, PLUMB_EINPUT, "%s: %s file with no benchmark to import",
				   w->name, import_tool_name(f->tool));
	return rc;
}

static void src_init(struct import_src *s, const char *name, const char *data, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->fd = -1;
	s->data = data;
	s->len = len;
}

int import_parse(const char *name, const char *data, size_t len,
		 struct import_file *f, struct plumb_err *err)
{
	struct import_walk w;
	struct import_src s;
	int rc;

	walk_init(&w, name, f, err);
	src_init(&s, name, data, len);
	rc = check_entries(&w, parse_src(&w, &s, 0));
	src_release(&s);
	return rc;
}

int import_parse_gbench(const char *name, const char *data, size_t len,
			struct import_file *f, struct plumb_err *err)
{
	struct import_walk w;
	struct import_src s;
	int rc;

	memset(f, 0, sizeof(*f));
	f->tool = IMPORT_GBENCH;
	walk_init(&w, name, f, err);
	src_init(&s, name, data, len);
	rc = parse_src(&w, &s, 1);
	src_release(&s);
	return rc;
}

int import_load(const char *path, struct import_file *f, struct plumb_err *err)
{
	struct import_walk w;
	struct import_src s;
	uint64_t size;
	int rc;

	memset(f, 0, sizeof(*f));
	walk_init(&w, path, f, err);
	src_init(&s, path, NULL, 0);
	if (!(f->path = strdup(path))) {
		rc = plumb_err_oom(err, "import");
	} else if ((s.fd = file_open_regular(path, 0, &size, err)) < 0) {
		rc = s.fd;
		s.fd = -1;
	} else if (size > IMPORT_MAX_BYTES) {
		rc = plumb_err_set(err, PLUMB_EINPUT, "%s: larger than %zu bytes", path,
				   IMPORT_MAX_BYTES);
	} else {
		rc = check_entries(&w, parse_src(&w, &s, 0));
		f->gzip = s.gzip;
		if (s.summed)
			digest_hex(s.sum, f->sha256);
	}
	src_release(&s);
	if (rc < 0)
		import_file_release(f);
	return rc;
}
