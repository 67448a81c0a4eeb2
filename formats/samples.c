/*
 * formats/samples.c: the streaming samples.tsv reader and writer.
 *
 * Separate from the bundle code because `plumb analyze` reads the same
 * layout from any file, and the runner writes it before any bundle exists.
 * The reader is on the hot path of a 10-million-row analysis, so it parses
 * each line where it lies in the caller's bytes (copying only a line split
 * between two feeds), parses numbers by hand (strtod only for the rare
 * value the fast path cannot round exactly) and validates a name only when
 * it differs from the previous row's.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/err.h"
#include "common/quote.h"
#include "common/units.h"
#include "common/utf8.h"
#include "formats/samples.h"
#include "common/banned.h"

#define SAMPLES_READER_MAGIC 0x53414d52u  /* "SAMR" */
#define SAMPLES_WRITER_MAGIC 0x53414d57u  /* "SAMW" */
#define READ_CHUNK (256u * 1024u)

static const char *const column_names[SAMPLES_COLUMNS] = {
	"bench", "side", "pad", "round", "iter", "metric", "value"
};

enum { COL_BENCH, COL_SIDE, COL_PAD, COL_ROUND, COL_ITER, COL_METRIC, COL_VALUE };

static const char *const side_names[] = {
	[SAMPLES_BASE] = "base",
	[SAMPLES_CANDIDATE] = "candidate",
	[SAMPLES_CONTROL] = "control",
};

const char *samples_side_name(enum samples_side side)
{
	switch (side) {
	case SAMPLES_BASE:
	case SAMPLES_CANDIDATE:
	case SAMPLES_CONTROL:
		return side_names[side];
	}
	return "?";
}

/* Untrusted text quoted for a message: at most 40 bytes of it. */
static const char *quote_field(char *out, size_t size, const char *s, size_t len)
{
	return quote(out, size, s, len, 40, QUOTE_BYTES);
}

/*
 * Why a bench or metric name is unacceptable, or NULL when it is fine:
 * 1..max bytes of UTF-8 under the name policy (common/utf8.h).
 */
static const char *name_problem(const char *s, size_t len, size_t max)
{
	if (len == 0)
		return "empty";
	if (len > max)
		return "too long";
	switch (utf8_check(s, len, UTF8_NAME)) {
	case UTF8_OK:
		return NULL;
	case UTF8_CONTROL:
		return "contains a control character";
	case UTF8_MALFORMED:
		break;
	}
	return "is not valid UTF-8";
}

/* A whole decimal number of digits only, <= max: 0, -1 not a number, -2 too big. */
static int parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	int big = 0;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';
		if (d > 9)
			return -1;
		if (v > (UINT64_MAX - d) / 10)
			big = 1;
		else
			v = v * 10 + d;
	}
	if (big || v > max)
		return -2;
	*out = v;
	return 0;
}

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* Case-insensitive: is s (len bytes, an optional sign first) nan or inf? */
static int is_nonfinite_word(const char *s, size_t len)
{
	static const char *const words[] = { "nan", "inf", "infinity" };

	if (len && (*s == '-' || *s == '+')) {
		s++;
		len--;
	}
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
		if (strlen(words[w]) == len && strncasecmp(s, words[w], len) == 0)
			return 1;
	return 0;
}

/*
 * Parse a value: digits, optional ".digits", optional "e[+-]digits".  tmp
 * (len + 1 bytes) holds a NUL-terminated copy for strtod when one is
 * needed.  Returns NULL and sets *out, or the reason.
 * Up to 19 significant digits below 2^53 with at most 22 fraction digits
 * are converted here exactly (one correctly rounded division of two exact
 * doubles); anything else goes through strtod, whose grammar is wider but
 * which only ever sees text this function already checked.
 */
static const char *parse_value(const char *s, size_t len, double *out, char *tmp)
{
	size_t i = 0, int_digits, frac_digits = 0;
	uint64_t m = 0;
	int has_exp = 0;
	double v;

	if (len == 0)
		return "empty";
	if (s[0] < '0' || s[0] > '9') {
		if (is_nonfinite_word(s, len))
			return "not a finite number";
		if (s[0] == '-') {
			/* Say "negative" only when the rest is a number. */
			double dummy;
			if (len > 1 && parse_value(s + 1, len - 1, &dummy, tmp) == NULL)
				return "negative value";
		}
		return "not a number";
	}
	/* m wraps past 19 digits; it is used only when there are fewer. */
	while (i < len && s[i] >= '0' && s[i] <= '9') {
		m = m * 10 + (uint64_t)(s[i] - '0');
		i++;
	}
	int_digits = i;
	if (int_digits == 0)
		return "not a number";
	if (i < len && s[i] == '.') {
		size_t start = ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			m = m * 10 + (uint64_t)(s[i] - '0');
			i++;
		}
		frac_digits = i - start;
		if (frac_digits == 0)
			return "not a number";
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t start;
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		start = i;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == start)
			return "not a number";
		has_exp = 1;
	}
	if (i != len)
		return "not a number";
	if (!has_exp && int_digits + frac_digits <= 19 && frac_digits <= 22 &&
	    m <= (UINT64_C(1) << 53)) {
		*out = (double)m / pow10_exact[frac_digits];
		return NULL;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	v = strtod(tmp, NULL);
	if (!isfinite(v))
		return "not a finite number (out of range)";
	*out = v;
	return NULL;
}

/* Fill err with "<name>: line N: <fmt>", mark the reader failed. */
static int line_err(struct samples_reader *r, struct plumb_err *err,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int line_err(struct samples_reader *r, struct plumb_err *err,
		    const char *fmt, ...)
{
	char what[PLUMB_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	r->failed = PLUMB_EINPUT;
	return plumb_err_set(err, PLUMB_EINPUT, "%s: line %llu: %s", r->name,
			     (unsigned long long)r->lineno, what);
}

static int check_header(struct samples_reader *r, const char *line, size_t len,
			struct plumb_err *err)
{
	size_t pos = 0;
	char q[200];

	for (int c = 0; c < SAMPLES_COLUMNS; c++) {
		const char *f = line + pos;
		const char *tab;
		size_t flen;

		if (pos > len)
			return line_err(r, err, "column %d: header '%s' missing (the header row is "
					"bench, side, pad, round, iter, metric, value separated by tabs)",
					c + 1, column_names[c]);
		tab = memchr(f, '\t', len - pos);
		flen = tab ? (size_t)(tab - f) : len - pos;
		if (flen != strlen(column_names[c]) || memcmp(f, column_names[c], flen) != 0)
			return line_err(r, err, "column %d: expected header '%s', found '%s'%s",
					c + 1, column_names[c], quote_field(q, sizeof(q), f, flen),
					c == 0 ? " (the first line must be the header row)" : "");
		pos += flen + 1;
		if (!tab && c < SAMPLES_COLUMNS - 1)
			pos = len + 1;
		if (tab && c == SAMPLES_COLUMNS - 1)
			return line_err(r, err, "column %d: unexpected header column '%s'",
					c + 2, quote_field(q, sizeof(q), tab + 1,
						     len - (size_t)(tab + 1 - line)));
	}
	r->header_seen = 1;
	return 0;
}

/*
 * Remember a validated name in prev (so that an equal one is not checked
 * again) and NUL-terminate it there: rows point at that copy.
 */
static int take_name(struct samples_reader *r, struct plumb_err *err, const char *col,
		     const char *f, size_t len, size_t max, char *prev, size_t *prev_len)
{
	const char *why;
	char q[200];

	if (len == *prev_len && memcmp(f, prev, len) == 0)
		return 0;
	why = name_problem(f, len, max);
	if (why)
		return line_err(r, err, "column '%s': name '%s' %s%s", col,
				quote_field(q, sizeof(q), f, len), why,
				strcmp(why, "too long") == 0 ?
				(max == SAMPLES_NAME_MAX ? " (at most 255 bytes)" : " (at most 64 bytes)") : "");
	memcpy(prev, f, len);
	prev[len] = '\0';
	*prev_len = len;
	return 0;
}

/* Parse one data row (len bytes, no newline) and deliver it. */
static int process_row(struct samples_reader *r, const char *line, size_t len,
		       samples_row_fn cb, void *ctx, struct plumb_err *err)
{
	const char *f[SAMPLES_COLUMNS];
	size_t fl[SAMPLES_COLUMNS];
	struct samples_row row;
	const char *p = line, *end = line + len, *why;
	uint64_t u;
	char q[200];
	int n = 0, rc;

	if (r->rows >= r->max_rows)
		return line_err(r, err, "more than %llu rows (the limit)",
				(unsigned long long)r->max_rows);
	if (len == 0)
		return line_err(r, err, "column 'bench': empty line");
	/* Split at tabs: a plain loop beats a memchr call per short field. */
	f[0] = p;
	for (; p < end; p++) {
		if (*p != '\t')
			continue;
		if (n == SAMPLES_COLUMNS - 1)
			return line_err(r, err, "column %d: unexpected (a row has %d "
					"tab-separated columns)", SAMPLES_COLUMNS + 1, SAMPLES_COLUMNS);
		fl[n] = (size_t)(p - f[n]);
		f[++n] = p + 1;
	}
	fl[n] = (size_t)(end - f[n]);
	n++;
	if (n < SAMPLES_COLUMNS)
		return line_err(r, err, "column '%s': missing (the row has %d of %d "
				"tab-separated columns)", column_names[n], n, SAMPLES_COLUMNS);

	if (take_name(r, err, "bench", f[COL_BENCH], fl[COL_BENCH], SAMPLES_NAME_MAX,
		      r->prev_bench, &r->prev_bench_len) < 0 ||
	    take_name(r, err, "metric", f[COL_METRIC], fl[COL_METRIC], SAMPLES_METRIC_MAX,
		      r->prev_metric, &r->prev_metric_len) < 0)
		return r->failed;
	row.bench = r->prev_bench;
	row.bench_len = r->prev_bench_len;
	row.metric = r->prev_metric;
	row.metric_len = r->prev_metric_len;

	if (fl[COL_SIDE] == 4 && memcmp(f[COL_SIDE], "base", 4) == 0)
		row.side = SAMPLES_BASE;
	else if (fl[COL_SIDE] == 9 && memcmp(f[COL_SIDE], "candidate", 9) == 0)
		row.side = SAMPLES_CANDIDATE;
	else if (fl[COL_SIDE] == 7 && memcmp(f[COL_SIDE], "control", 7) == 0)
		row.side = SAMPLES_CONTROL;
	else
		return line_err(r, err, "column 'side': unknown side '%s' (expected base, "
				"candidate or control)", quote_field(q, sizeof(q), f[COL_SIDE], fl[COL_SIDE]));

	rc = parse_uint(f[COL_PAD], fl[COL_PAD], SAMPLES_PAD_MAX, &u);
	if (rc < 0)
		return line_err(r, err, "column 'pad': %s '%s'%s",
				rc == -1 ? "not a whole number" : "out of range",
				quote_field(q, sizeof(q), f[COL_PAD], fl[COL_PAD]),
				rc == -1 ? "" : " (0 to 65535)");
	row.pad = (uint32_t)u;
	rc = parse_uint(f[COL_ROUND], fl[COL_ROUND], SAMPLES_ROUND_MAX, &u);
	if (rc < 0)
		return line_err(r, err, "column 'round': %s '%s'%s",
				rc == -1 ? "not a whole number" : "out of range",
				quote_field(q, sizeof(q), f[COL_ROUND], fl[COL_ROUND]),
				rc == -1 ? "" : " (0 to 999999999)");
	row.round = (uint32_t)u;
	if (fl[COL_ITER] == 1 && f[COL_ITER][0] == '-') {
		row.iter = SAMPLES_ITER_NONE;
	} else {
		rc = parse_uint(f[COL_ITER], fl[COL_ITER], SAMPLES_ITER_MAX, &u);
		if (rc < 0)
			return line_err(r, err, "column 'iter': %s '%s'%s",
					rc == -1 ? "not '-' or a whole number" : "out of range",
					quote_field(q, sizeof(q), f[COL_ITER], fl[COL_ITER]),
					rc == -1 ? "" : " (0 to 999999999999999)");
		row.iter = u;
	}
	why = parse_value(f[COL_VALUE], fl[COL_VALUE], &row.value, r->num);
	if (why)
		return line_err(r, err, "column 'value': %s '%s'", why,
				quote_field(q, sizeof(q), f[COL_VALUE], fl[COL_VALUE]));
	row.line = r->lineno;

	rc = cb ? cb(ctx, &row, err) : 0;
	if (rc < 0) {
		r->failed = rc;
		return plumb_err_prefix(err, "%s: line %llu", r->name,
					(unsigned long long)r->lineno);
	}
	r->rows++;
	return 0;
}

static int process_line(struct samples_reader *r, const char *line, size_t len,
			samples_row_fn cb, void *ctx, struct plumb_err *err)
{
	r->lineno++;
	if (!r->header_seen)
		return check_header(r, line, len, err);
	return process_row(r, line, len, cb, ctx, err);
}

int samples_reader_init(struct samples_reader *r, const char *name,
			const struct samples_limits *lim, struct plumb_err *err)
{
	memset(r, 0, sizeof(*r));
	r->name = name ? name : "samples.tsv";
	r->prev_bench_len = (size_t)-1;   /* no previous row: validate the first */
	r->prev_metric_len = (size_t)-1;
	r->max_line = lim && lim->max_line ? lim->max_line : SAMPLES_DEFAULT_MAX_LINE;
	r->max_rows = lim && lim->max_rows ? lim->max_rows : SAMPLES_DEFAULT_MAX_ROWS;
	r->line = malloc(r->max_line + 1);
	r->num = malloc(r->max_line + 1);
	if (!r->line || !r->num) {
		free(r->line);
		free(r->num);
		return plumb_err_oom(err, "samples reader");
	}
	r->magic = SAMPLES_READER_MAGIC;
	return 0;
}

void samples_reader_release(struct samples_reader *r)
{
	if (!r || r->magic != SAMPLES_READER_MAGIC)
		return;
	free(r->line);
	free(r->num);
	r->line = NULL;
	r->num = NULL;
	r->magic = 0;
}

static int reader_after_failure(struct samples_reader *r, struct plumb_err *err)
{
	return plumb_err_set(err, r->failed, "%s: read after an earlier error", r->name);
}

int samples_reader_feed(struct samples_reader *r, const void *data, size_t len,
			samples_row_fn cb, void *ctx, struct plumb_err *err)
{
	const char *p = data, *end = p + len;

	if (r->magic != SAMPLES_READER_MAGIC)
		return plumb_err_set(err, PLUMB_EINTERNAL, "samples reader used before init");
	if (r->failed)
		return reader_after_failure(r, err);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);
		int rc;

		if (take > r->max_line - r->line_len) {
			r->lineno++;
			return line_err(r, err, "column %zu: line longer than %zu bytes (the limit)",
					r->max_line + 1, r->max_line);
		}
		if (!nl) {
			/* A partial line: carry it over to the next feed. */
			memcpy(r->line + r->line_len, p, take);
			r->line_len += take;
			break;
		}
		if (r->line_len == 0) {
			rc = process_line(r, p, take, cb, ctx, err);
		} else {
			memcpy(r->line + r->line_len, p, take);
			rc = process_line(r, r->line, r->line_len + take, cb, ctx, err);
			r->line_len = 0;
		}
		if (rc < 0)
			return rc;
		p = nl + 1;
	}
	return 0;
}

int samples_reader_finish(struct samples_reader *r, samples_row_fn cb,
			  void *ctx, struct plumb_err *err)
{
	if (r->magic != SAMPLES_READER_MAGIC)
		return plumb_err_set(err, PLUMB_EINTERNAL, "samples reader used before init");
	if (r->failed)
		return reader_after_failure(r, err);
	if (r->line_len > 0) {
		int rc = process_line(r, r->line, r->line_len, cb, ctx, err);
		r->line_len = 0;
		if (rc < 0)
			return rc;
	}
	if (!r->header_seen) {
		r->failed = PLUMB_EINPUT;
		return plumb_err_set(err, PLUMB_EINPUT, "%s: empty input (no header row)", r->name);
	}
	return 0;
}

int samples_read_path(const char *path, const struct samples_limits *lim,
		      samples_row_fn cb, void *ctx, uint64_t *rows,
		      struct plumb_err *err)
{
	int is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "standard input" : path;
	struct samples_reader r;
	struct stat st;
	char *chunk = NULL;
	int fd, rc;

	fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, path, NULL);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!is_stdin)
			close(fd);
		return plumb_err_set(err, PLUMB_EINPUT, "%s: is a folder, not a file", name);
	}
	rc = samples_reader_init(&r, name, lim, err);
	if (rc == 0) {
		chunk = malloc(READ_CHUNK);
		if (!chunk)
			rc = plumb_err_oom(err, "samples read buffer");
	}
	while (rc == 0) {
		ssize_t got = read(fd, chunk, READ_CHUNK);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			rc = plumb_err_errno(err, 0, errno, name, "read");
			break;
		}
		if (got == 0) {
			rc = samples_reader_finish(&r, cb, ctx, err);
			break;
		}
		rc = samples_reader_feed(&r, chunk, (size_t)got, cb, ctx, err);
	}
	if (rows)
		*rows = r.rows;
	free(chunk);
	samples_reader_release(&r);
	if (!is_stdin)
		close(fd);
	return rc;
}

/* --- writer --- */

int samples_format_value(double v, char *out, size_t size)
{
	if (!isfinite(v) || v < 0 || size < UNITS_EXACT_MAX)
		return -1;
	return units_exact(v, UNITS_EXACT_PLAIN, out);
}

int samples_write_stdio(void *ctx, const void *data, size_t len,
			struct plumb_err *err)
{
	FILE *f = ctx;

	if (len && fwrite(data, 1, len, f) != len)
		return plumb_err_errno(err, 0, errno ? errno : EIO, "samples.tsv", "write");
	return 0;
}

void samples_writer_init(struct samples_writer *w, samples_write_fn fn, void *ctx)
{
	w->magic = SAMPLES_WRITER_MAGIC;
	w->write = fn;
	w->ctx = ctx;
	w->header_done = 0;
	w->failed = 0;
	w->rows = 0;
	w->len = 0;
}

static int writer_flush(struct samples_writer *w, struct plumb_err *err)
{
	int rc;

	if (w->len == 0)
		return 0;
	rc = w->write(w->ctx, w->buf, w->len, err);
	w->len = 0;
	if (rc < 0)
		w->failed = rc;
	return rc;
}

static int writer_add(struct samples_writer *w, const char *s, size_t len,
		      struct plumb_err *err)
{
	if (w->len + len > sizeof(w->buf)) {
		int rc = writer_flush(w, err);
		if (rc < 0)
			return rc;
	}
	memcpy(w->buf + w->len, s, len);
	w->len += len;
	return 0;
}

int samples_writer_row(struct samples_writer *w, const struct samples_row *row,
		       struct plumb_err *err)
{
	/* bench, metric, three numbers of 20 digits, the value, side and tabs */
	char line[SAMPLES_NAME_MAX + SAMPLES_METRIC_MAX + 128];
	char val[40], iter[24], q[200];
	const char *why;
	int n;

	if (w->magic != SAMPLES_WRITER_MAGIC)
		return plumb_err_set(err, PLUMB_EINTERNAL, "samples writer used before init");
	if (w->failed)
		return plumb_err_set(err, w->failed, "samples.tsv: write after an earlier error");
	why = name_problem(row->bench, row->bench_len, SAMPLES_NAME_MAX);
	if (why)
		return plumb_err_set(err, PLUMB_EINPUT, "samples.tsv: row %llu: column 'bench': "
				     "name '%s' %s", (unsigned long long)w->rows + 1,
				     quote_field(q, sizeof(q), row->bench, row->bench_len), why);
	why = name_problem(row->metric, row->metric_len, SAMPLES_METRIC_MAX);
	if (why)
		return plumb_err_set(err, PLUMB_EINPUT, "samples.tsv: row %llu: column 'metric': "
				     "name '%s' %s", (unsigned long long)w->rows + 1,
				     quote_field(q, sizeof(q), row->metric, row->metric_len), why);
	if (row->side != SAMPLES_BASE && row->side != SAMPLES_CANDIDATE &&
	    row->side != SAMPLES_CONTROL)
		return plumb_err_set(err, PLUMB_EINPUT, "samples.tsv: row %llu: column 'side': "
				     "unknown side %d", (unsigned long long)w->rows + 1, (int)row->side);
	if (row->pad > SAMPLES_PAD_MAX || row->round > SAMPLES_ROUND_MAX ||
	    (row->iter != SAMPLES_ITER_NONE && row->iter > SAMPLES_ITER_MAX))
		return plumb_err_set(err, PLUMB_EINPUT, "samples.tsv: row %llu: column '%s': "
				     "out of range", (unsigned long long)w->rows + 1,
				     row->pad > SAMPLES_PAD_MAX ? "pad" :
				     row->round > SAMPLES_ROUND_MAX ? "round" : "iter");
	if (samples_format_value(row->value, val, sizeof(val)) < 0) {
		char v[UNITS_MAX];

		units_as_read(row->value, v);
		return plumb_err_set(err, PLUMB_EINPUT, "samples.tsv: row %llu: column 'value': "
				     "%s value %s", (unsigned long long)w->rows + 1,
				     isfinite(row->value) ? "negative" : "not a finite", v);
	}
	if (!w->header_done) {
		if (writer_add(w, SAMPLES_HEADER "\n", sizeof(SAMPLES_HEADER), err) < 0)
			return w->failed;
		w->header_done = 1;
	}
	if (row->iter == SAMPLES_ITER_NONE)
		snprintf(iter, sizeof(iter), "-");
	else
		snprintf(iter, sizeof(iter), "%llu", (unsigned long long)row->iter);
	n = snprintf(line, sizeof(line), "%.*s\t%s\t%u\t%u\t%s\t%.*s\t%s\n",
		     (int)row->bench_len, row->bench, samples_side_name(row->side),
		     (unsigned)row->pad, (unsigned)row->round, iter,
		     (int)row->metric_len, row->metric, val);
	if (n < 0 || (size_t)n >= sizeof(line))
		return plumb_err_set(err, PLUMB_EINTERNAL, "samples.tsv: row too long");
	if (writer_add(w, line, (size_t)n, err) < 0)
		return w->failed;
	w->rows++;
	return 0;
}

int samples_writer_finish(struct samples_writer *w, struct plumb_err *err)
{
	if (w->magic != SAMPLES_WRITER_MAGIC)
		return plumb_err_set(err, PLUMB_EINTERNAL, "samples writer used before init");
	if (w->failed)
		return plumb_err_set(err, w->failed, "samples.tsv: write after an earlier error");
	if (!w->header_done) {
		if (writer_add(w, SAMPLES_HEADER "\n", sizeof(SAMPLES_HEADER), err) < 0)
			return w->failed;
		w->header_done = 1;
	}
	return writer_flush(w, err);
}
