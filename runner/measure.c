/*
 * runner/measure.c: one measured run of a benchmark: the harness spec,
 * the samples-fd and stdout line scanners, the counters; see measure.h.
 *
 * The scanners work on the bytes as they arrive (proc.h callback sinks)
 * with a fixed line buffer, so a benchmark that writes without end costs
 * plumb a bounded amount of memory: stdout is only searched for checksum
 * lines (longer lines are skipped whole), and the samples fd holds at most
 * max_samples values.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "runner/measure.h"
#include "runner/perf.h"
#include "sys/proc.h"
#include "common/banned.h"

/* A line assembled from pieces; long lines are flagged, not kept. */
struct line_scan {
	char buf[MEASURE_LINE_MAX + 1];
	size_t len;
	int overflow;          /* the current line passed MEASURE_LINE_MAX */
	uint64_t total;        /* bytes of the current line, kept or not */
	uint64_t lineno;       /* lines completed so far */
};

struct run_ctx {
	const struct measure_spec *spec;
	struct measure_result *res;
	struct line_scan out, fd;
	size_t cap;            /* samples allocated */
	struct perf_set perf;
	int perf_on;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static const char checksum_key[] = "checksum=";

/* Nonzero when s[0..len) starts, after blanks, with "checksum=". */
static int is_checksum_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && is_blank(s[i]))
		i++;
	return len - i >= sizeof(checksum_key) - 1 &&
	       memcmp(s + i, checksum_key, sizeof(checksum_key) - 1) == 0;
}

/*
 * 1 and hex filled when s[0..len) is "checksum=<hex>" with blanks around;
 * -2 when it is "checksum=" and more than MEASURE_CHECKSUM_MAX hex digits;
 * 0 otherwise.
 */
static int parse_checksum(const char *s, size_t len, char hex[MEASURE_CHECKSUM_MAX + 1])
{
	size_t i = 0, n = 0;

	while (i < len && is_blank(s[i]))
		i++;
	while (len > i && is_blank(s[len - 1]))
		len--;
	if (len - i < sizeof(checksum_key) ||
	    memcmp(s + i, checksum_key, sizeof(checksum_key) - 1) != 0)
		return 0;
	for (i += sizeof(checksum_key) - 1; i < len; i++) {
		if (!is_hex(s[i]))
			return 0;
		if (n == MEASURE_CHECKSUM_MAX) {
			while (i < len && is_hex(s[i]))
				i++;
			return i == len ? -2 : 0;
		}
		hex[n++] = (s[i] >= 'A' && s[i] <= 'F') ? (char)(s[i] - 'A' + 'a') : s[i];
	}
	hex[n] = '\0';
	return n > 0;
}

/*
 * The error for a checksum line over the limit (cut off in the scanner, or
 * with too many digits): its length and the limit, never a silent drop.
 */
static int checksum_too_long(const char *stream, const struct line_scan *ls,
			     struct plumb_err *err)
{
	return plumb_err_set(err, PLUMB_EBENCH,
			     "%s line %llu: a checksum= line of %llu bytes, over the limit of "
			     "%d hex digits (%zu bytes with \"checksum=\")",
			     stream, (unsigned long long)ls->lineno,
			     (unsigned long long)ls->total, MEASURE_CHECKSUM_MAX,
			     sizeof(checksum_key) - 1 + MEASURE_CHECKSUM_MAX);
}

int measure_parse_line(const char *line, size_t len, double *value,
		       char hex[MEASURE_CHECKSUM_MAX + 1])
{
	char num[MEASURE_LINE_MAX + 1];
	size_t i = 0, digits = 0, n;
	char *end;

	while (len > 0 && is_blank(line[len - 1]))
		len--;
	while (i < len && is_blank(line[i]))
		i++;
	if (i == len)
		return 0;
	if (line[i] == 'c')
		return parse_checksum(line, len, hex) == 1 ? 2 : -1;
	n = len - i;
	if (n > MEASURE_LINE_MAX)
		return -1;
	memcpy(num, line + i, n);
	num[n] = '\0';
	/* digits [ "." digits ]: strtod alone would take signs, hex, inf, nan. */
	for (i = 0; i < n && num[i] >= '0' && num[i] <= '9'; i++)
		digits++;
	if (digits == 0)
		return -1;
	if (i < n && num[i] == '.') {
		size_t frac = 0;
		for (i++; i < n && num[i] >= '0' && num[i] <= '9'; i++)
			frac++;
		if (frac == 0)
			return -1;
	}
	if (i != n)
		return -1;
	errno = 0;
	*value = strtod(num, &end);
	if (errno == ERANGE || *end != '\0')
		return -1;
	return 1;
}

/* Record a checksum seen in this run (first one kept; a different one is a conflict). */
static void note_checksum(struct measure_result *res, const char *hex)
{
	if (!res->checksum[0]) {
		snprintf(res->checksum, sizeof(res->checksum), "%s", hex);
	} else if (strcmp(res->checksum, hex) != 0 && !res->checksum_conflict) {
		res->checksum_conflict = 1;
		snprintf(res->other_checksum, sizeof(res->other_checksum), "%s", hex);
	}
}

/* Feed bytes to a scanner; on_line gets each complete line (or its overflow). */
static int scan(struct line_scan *ls, const char *data, size_t len,
		int (*on_line)(struct run_ctx *, struct line_scan *, struct plumb_err *),
		struct run_ctx *ctx, struct plumb_err *err)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t take = nl ? (size_t)(nl - data) : len;
		ls->total += take;
		if (!ls->overflow) {
			/* An overflowing line keeps its first MEASURE_LINE_MAX
			 * bytes, whatever pieces it came in: the line's kind
			 * ("checksum=") is read from them. */
			size_t room = MEASURE_LINE_MAX - ls->len;
			size_t keep = take < room ? take : room;
			memcpy(ls->buf + ls->len, data, keep);
			ls->len += keep;
			if (keep < take)
				ls->overflow = 1;
		}
		if (!nl)
			return 0;
		ls->buf[ls->len] = '\0';
		ls->lineno++;
		{
			int r = on_line(ctx, ls, err);
			if (r < 0)
				return r;
		}
		ls->len = 0;
		ls->overflow = 0;
		ls->total = 0;
		data = nl + 1;
		len -= take + 1;
	}
	return 0;
}

static int stdout_line(struct run_ctx *ctx, struct line_scan *ls, struct plumb_err *err)
{
	char hex[MEASURE_CHECKSUM_MAX + 1];
	int kind;

	if (ls->overflow)
		return is_checksum_line(ls->buf, ls->len) ? checksum_too_long("stdout", ls, err) : 0;
	kind = parse_checksum(ls->buf, ls->len, hex);
	if (kind == -2)
		return checksum_too_long("stdout", ls, err);
	if (kind == 1)
		note_checksum(ctx->res, hex);
	return 0;
}

static int samples_line(struct run_ctx *ctx, struct line_scan *ls, struct plumb_err *err)
{
	struct measure_result *res = ctx->res;
	char hex[MEASURE_CHECKSUM_MAX + 1];
	double v = 0;
	int kind;

	if ((ls->overflow && is_checksum_line(ls->buf, ls->len)) ||
	    (!ls->overflow && parse_checksum(ls->buf, ls->len, hex) == -2))
		return checksum_too_long("samples fd", ls, err);
	if (ls->overflow)
		return plumb_err_set(err, PLUMB_EBENCH,
				     "samples fd line %llu: a line of %llu bytes, longer than the "
				     "limit of %d bytes", (unsigned long long)ls->lineno,
				     (unsigned long long)ls->total, MEASURE_LINE_MAX);
	kind = measure_parse_line(ls->buf, ls->len, &v, hex);
	if (kind < 0) {
		char shown[48];
		size_t n = ls->len < 40 ? ls->len : 40;
		for (size_t i = 0; i < n; i++)
			shown[i] = (ls->buf[i] >= 0x20 && ls->buf[i] < 0x7f) ? ls->buf[i] : '?';
		shown[n] = '\0';
		return plumb_err_set(err, PLUMB_EBENCH,
				     "samples fd line %llu: '%s%s' is neither a duration in ns nor checksum=HEX",
				     (unsigned long long)ls->lineno, shown, ls->len > 40 ? "..." : "");
	}
	if (kind == 2) {
		if (ctx->spec->checksum)
			note_checksum(res, hex);
		return 0;
	}
	if (kind == 0)
		return 0;
	if (res->nsamples >= ctx->spec->max_samples)
		return plumb_err_set(err, PLUMB_EBENCH,
				     "wrote more than maxSamples (%llu) samples",
				     (unsigned long long)ctx->spec->max_samples);
	if (res->nsamples == ctx->cap) {
		size_t ncap = ctx->cap ? ctx->cap * 2 : 1024;
		double *p;
		if (ncap > ctx->spec->max_samples)
			ncap = (size_t)ctx->spec->max_samples;
		p = realloc(res->samples, ncap * sizeof(*p));
		if (!p)
			return plumb_err_oom(err, "samples");
		res->samples = p;
		ctx->cap = ncap;
	}
	res->samples[res->nsamples++] = v;
	return 0;
}

static int on_stdout(void *c, const char *data, size_t len, struct plumb_err *err)
{
	struct run_ctx *ctx = c;

	return scan(&ctx->out, data, len, stdout_line, ctx, err);
}

static int on_samples(void *c, const char *data, size_t len, struct plumb_err *err)
{
	struct run_ctx *ctx = c;

	return scan(&ctx->fd, data, len, samples_line, ctx, err);
}

static int on_start(void *c, pid_t pid, struct plumb_err *err)
{
	struct run_ctx *ctx = c;
	struct plumb_err perr;

	(void)err;
	plumb_err_clear(&perr);
	/* A profile that cannot be attached is simply empty (the caller says so). */
	if (ctx->spec->profile)
		(void)profile_attach(ctx->spec->profile, pid, &perr);
	if (ctx->spec->nevents == 0)
		return 0;
	plumb_err_clear(&perr);
	/* Counters that cannot be attached leave this run without counts;
	 * the benchmark still runs (the caller records why). */
	if (perf_attach(&ctx->perf, pid, &perr) == 0)
		ctx->perf_on = 1;
	else
		snprintf(ctx->res->counters_error, sizeof(ctx->res->counters_error), "%s", perr.msg);
	return 0;
}

void measure_result_release(struct measure_result *res)
{
	proc_result_release(&res->proc);
	free(res->samples);
	res->samples = NULL;
	res->nsamples = 0;
}

/* A field added after the texts would not be zeroed by measure_run(). */
_Static_assert(sizeof(struct measure_result) - offsetof(struct measure_result, counters_error) -
	       PLUMB_ERR_MAX < _Alignof(struct measure_result),
	       "struct measure_result ends with its texts");

int measure_run(const struct measure_spec *spec, struct measure_result *res,
		struct plumb_err *err)
{
	struct proc_spec ps;
	struct run_ctx ctx;
	struct plumb_err berr;
	int r;

	memset(res, 0, offsetof(struct measure_result, why));
	res->why[0] = res->checksum[0] = res->other_checksum[0] = '\0';
	res->counters_error[0] = '\0';
	memset(&ctx, 0, sizeof(ctx));
	ctx.spec = spec;
	ctx.res = res;
	perf_set_init(&ctx.perf, spec->events, spec->nevents);
	plumb_err_clear(&berr);

	proc_spec_init(&ps);
	ps.argv = spec->argv;
	ps.env = spec->env;
	ps.cwd = spec->cwd;
	ps.timeout_ns = spec->timeout_ns;
	ps.cpus = spec->cpus;
	ps.ncpus = spec->ncpus;
	ps.no_aslr = spec->no_aslr;
	if (spec->out_cap) {
		ps.out.kind = PROC_SINK_MEM;
		ps.out.cap = spec->out_cap;
	} else if (spec->checksum) {
		ps.out.kind = PROC_SINK_CALLBACK;
		ps.out.on_data = on_stdout;
		ps.out.ctx = &ctx;
	} else {
		ps.out.kind = PROC_SINK_NULL;
	}
	ps.err.kind = PROC_SINK_MEM;
	ps.err.cap = spec->stderr_cap ? spec->stderr_cap : MEASURE_STDERR_CAP;
	if (spec->samples_fd > 2) {
		ps.extra_fd = spec->samples_fd;
		ps.extra.kind = PROC_SINK_CALLBACK;
		ps.extra.on_data = on_samples;
		ps.extra.ctx = &ctx;
	}
	if (spec->nevents > 0 || spec->profile) {
		ps.on_start = on_start;
		ps.start_ctx = &ctx;
	}

	r = proc_run(&ps, &res->proc, &berr);
	if (ctx.perf_on) {
		perf_read(&ctx.perf, &res->counts);
		perf_set_close(&ctx.perf);
	}
	if (r == PLUMB_EBENCH) {
		/* A scanner refused the benchmark's output: the child was killed. */
		res->failed = 1;
		snprintf(res->why, sizeof(res->why), "%s", berr.msg);
		return 0;
	}
	if (r < 0) {
		*err = berr;
		return r;
	}
	/* A line still being assembled when the stream ended counts too. */
	if (ctx.fd.len > 0 || ctx.fd.overflow) {
		ctx.fd.lineno++;
		ctx.fd.buf[ctx.fd.len] = '\0';
		if (samples_line(&ctx, &ctx.fd, &berr) < 0 && !res->failed) {
			res->failed = 1;
			snprintf(res->why, sizeof(res->why), "%s", berr.msg);
		}
	}
	if ((ctx.out.len > 0 || ctx.out.overflow) && spec->checksum) {
		ctx.out.lineno++;
		ctx.out.buf[ctx.out.len] = '\0';
		if (stdout_line(&ctx, &ctx.out, &berr) < 0 && !res->failed) {
			res->failed = 1;
			snprintf(res->why, sizeof(res->why), "%s", berr.msg);
		}
	}
	if (!(res->proc.exited && res->proc.status == 0)) {
		res->failed = 1;
		proc_describe(&res->proc, spec->timeout_ns, res->why, sizeof(res->why));
	} else if (spec->out_cap && res->proc.out_truncated) {
		res->failed = 1;
		snprintf(res->why, sizeof(res->why), "wrote %llu bytes to standard output, more than "
			 "the %zu kept", (unsigned long long)res->proc.out_bytes, spec->out_cap);
	}
	return 0;
}

int measure_stderr_tail(const struct measure_result *res, unsigned nlines,
			const char *indent, struct buf *out)
{
	const char *s = buf_cstr(&res->proc.err_mem);
	const char *end = s + res->proc.err_mem.len, *start;
	unsigned seen = 0;

	while (end > s && end[-1] == '\n')
		end--;
	for (start = end; start > s; start--)
		if (start[-1] == '\n' && ++seen == nlines)
			break;
	while (start < end) {
		const char *nl = memchr(start, '\n', (size_t)(end - start));
		size_t len = nl ? (size_t)(nl - start) : (size_t)(end - start);
		if (buf_printf(out, "%s%.*s\n", indent, (int)len, start) < 0)
			return -1;
		start += len + 1;
	}
	return 0;
}
