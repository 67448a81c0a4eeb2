/*
 * formats/import.c: reading another tool's result file: the budgets, the
 * gzip unpacking, the two readings through formats/jsonpull.h (the whole
 * text checked and its top level kept, then the big array walked one
 * element at a time, its sample arrays packed), recognising the tool by
 * content, and handing the file to its reader (import-hyperfine.c,
 * import-pyperf.c, import-gbench.c, which share import-walk.c).  Making
 * the bundle is formats/import-bundle.c.
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
