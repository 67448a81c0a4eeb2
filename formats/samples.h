/*
 * formats/samples.h: the samples.tsv layout, read and written as a stream.
 *
 * The layout (a bundle's samples.tsv, and the input of `plumb analyze`):
 *
 *   bench<TAB>side<TAB>pad<TAB>round<TAB>iter<TAB>metric<TAB>value<LF>   (header)
 *   interp<TAB>base<TAB>0<TAB>1<TAB>-<TAB>wall<TAB>0.734125<LF>          (rows)
 *
 *   bench   1..SAMPLES_NAME_MAX bytes of UTF-8, no control characters
 *           (so no tab, CR or LF)
 *   side    base | candidate | control
 *   pad     decimal 0..SAMPLES_PAD_MAX
 *   round   decimal 0..SAMPLES_ROUND_MAX
 *   iter    '-' for one value per round (process mode), or the iteration
 *           number, decimal 0..SAMPLES_ITER_MAX (samples mode)
 *   metric  1..SAMPLES_METRIC_MAX bytes, same characters as bench
 *   value   a finite, non-negative decimal number: digits, an optional
 *           fraction ".digits", an optional exponent "e[+-]digits"; no
 *           sign, no "nan"/"inf", no hexadecimal, no spaces
 *
 * Lines end with LF (the last one may lack it); no blank lines, no CR.
 * The writer puts an integral value below 2^53 without a decimal point
 * ("42"), and any other value in the shortest form that reads back to the
 * same double ("0.734125", "1e+300").
 *
 * The reader is push-driven so that it can be fed from anything (a file, a
 * pipe, a libarchive member): samples_reader_feed() takes bytes in pieces
 * of any size and calls a callback per row; samples_reader_finish() ends
 * the stream.  It parses lines in place in the caller's bytes and copies
 * only a line split between two feeds: it never holds more than one line.  Every error is
 * PLUMB_EINPUT with a message "<name>: line N: column 'C': <what>", and
 * nothing after the bad line is read.
 *
 * Ownership: struct samples_reader and struct samples_writer are caller
 * storage; samples_reader_init() allocates two buffers of max_line + 1
 * bytes that samples_reader_release() frees; the writer allocates
 * nothing.  The name given to samples_reader_init() is borrowed and must
 * outlive the reader.  A struct samples_row passed to a callback, and the
 * strings it points to, are valid only during that call.
 */
#ifndef PLUMB_FORMATS_SAMPLES_H
#define PLUMB_FORMATS_SAMPLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct plumb_err;

/* The header row, without its newline. */
#define SAMPLES_HEADER "bench\tside\tpad\tround\titer\tmetric\tvalue"
#define SAMPLES_COLUMNS 7

/* Field limits (the same for reader and writer). */
#define SAMPLES_NAME_MAX 255            /* bytes in a bench name */
#define SAMPLES_METRIC_MAX 64           /* bytes in a metric name */
#define SAMPLES_PAD_MAX 65535u
#define SAMPLES_ROUND_MAX 999999999u
#define SAMPLES_ITER_MAX 999999999999999ull   /* 10^15 - 1 */
#define SAMPLES_ITER_NONE UINT64_MAX          /* iter '-' */

/* Reader limits: defaults, applied when a field is 0. */
#define SAMPLES_DEFAULT_MAX_LINE 4096u        /* bytes per line, LF not counted */
#define SAMPLES_DEFAULT_MAX_ROWS 50000000ull  /* data rows, header not counted */

enum samples_side {
	SAMPLES_BASE = 0,
	SAMPLES_CANDIDATE = 1,
	SAMPLES_CONTROL = 2
};

struct samples_row {
	const char *bench;     /* NUL-terminated, bench_len bytes */
	size_t bench_len;
	enum samples_side side;
	uint32_t pad;
	uint32_t round;
	uint64_t iter;         /* SAMPLES_ITER_NONE for '-' */
	const char *metric;    /* NUL-terminated, metric_len bytes */
	size_t metric_len;
	double value;          /* finite, >= 0 */
	uint64_t line;         /* 1-based line in the source (reader only) */
};

struct samples_limits {
	size_t max_line;       /* 0: SAMPLES_DEFAULT_MAX_LINE */
	uint64_t max_rows;     /* 0: SAMPLES_DEFAULT_MAX_ROWS */
};

/*
 * Called once per data row.  Returns 0 to go on, or a negative PLUMB_E*
 * code after filling err; the reader then stops and prefixes the message
 * with "<name>: line N: " (so a callback names only the column).
 */
typedef int (*samples_row_fn)(void *ctx, const struct samples_row *row,
			      struct plumb_err *err);

struct samples_reader {
	unsigned magic;
	const char *name;      /* for messages, borrowed */
	size_t max_line;
	uint64_t max_rows;
	char *line;            /* max_line + 1 bytes: a line split between feeds */
	size_t line_len;       /* bytes of it carried over so far */
	char *num;             /* max_line + 1 bytes: a value for strtod */
	uint64_t lineno;       /* lines read so far */
	uint64_t rows;         /* data rows delivered so far */
	int header_seen;
	int failed;            /* the code of the first error, sticky */
	/* The previous row's names, NUL-terminated: rows point here, and an
	 * equal name is not validated again. */
	char prev_bench[SAMPLES_NAME_MAX + 1];
	size_t prev_bench_len;
	char prev_metric[SAMPLES_METRIC_MAX + 1];
	size_t prev_metric_len;
};

/* Set up a reader for a source called name; lim may be NULL (defaults). */
int samples_reader_init(struct samples_reader *r, const char *name,
			const struct samples_limits *lim, struct plumb_err *err);

/* Consume len bytes (any split), calling cb for each complete row. */
int samples_reader_feed(struct samples_reader *r, const void *data, size_t len,
			samples_row_fn cb, void *ctx, struct plumb_err *err);

/*
 * End of input: the last line may lack its newline.  An input without a
 * header row is "empty input".  A header with no rows is valid here
 * (callers that need rows check r->rows).
 */
int samples_reader_finish(struct samples_reader *r, samples_row_fn cb,
			  void *ctx, struct plumb_err *err);

void samples_reader_release(struct samples_reader *r);

/*
 * Read a whole file ("-": standard input, named "standard input" in
 * messages) through a reader; *rows (may be NULL) receives the row count.
 * A missing or unreadable file is PLUMB_EINPUT, a read error PLUMB_EIO.
 */
int samples_read_path(const char *path, const struct samples_limits *lim,
		      samples_row_fn cb, void *ctx, uint64_t *rows,
		      struct plumb_err *err);

/* Writer output: write all len bytes or fill err and return < 0. */
typedef int (*samples_write_fn)(void *ctx, const void *data, size_t len,
				struct plumb_err *err);

/* A samples_write_fn for a FILE * passed as ctx (errors name "samples.tsv"). */
int samples_write_stdio(void *ctx, const void *data, size_t len,
			struct plumb_err *err);

#define SAMPLES_WRITER_BUF 16384

struct samples_writer {
	unsigned magic;
	samples_write_fn write;
	void *ctx;
	int header_done;
	int failed;
	uint64_t rows;
	size_t len;
	char buf[SAMPLES_WRITER_BUF];
};

/* Set up a writer; nothing is written until the first row or finish. */
void samples_writer_init(struct samples_writer *w, samples_write_fn fn, void *ctx);

/*
 * Append one row (the header first, once).  A row the reader would reject
 * (a bad name, a negative or non-finite value, a number out of range) is
 * PLUMB_EINPUT naming the column; nothing of it is written.
 */
int samples_writer_row(struct samples_writer *w, const struct samples_row *row,
		       struct plumb_err *err);

/* Write the header if no row was written, and flush what is buffered. */
int samples_writer_finish(struct samples_writer *w, struct plumb_err *err);

/*
 * Format a finite non-negative value as the writer does, into out (at
 * least UNITS_EXACT_MAX (32) bytes).  Returns the length, or -1 for a negative or
 * non-finite value.
 */
int samples_format_value(double v, char *out, size_t size);

/* "base", "candidate", "control". */
const char *samples_side_name(enum samples_side side);

#endif
