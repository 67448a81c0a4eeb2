/*
 * runner/pad.c: writing and assembling pad objects; see pad.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/digest.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/pad.h"
#include "runner/schedule.h"
#include "sys/proc.h"
#include "common/banned.h"

#define PAD_TIMEOUT_NS (120ull * 1000000000ull)
#define STAMP_MAX 8192
#define OBJECT_MAX (64u << 20)

int pad_source(uint64_t bytes, int retain, struct buf *out)
{
	int r = buf_printf(out,
			   "/* plumb pad object: %llu bytes placed ahead of all ordinary code.\n"
			   " * Never executed; it only moves the code that follows it. */\n"
			   "\t.section .text.unlikely.plumb_pad,\"ax%s\",@progbits\n",
			   (unsigned long long)bytes, retain ? "R" : "");
	if (r < 0)
		return r;
#if defined(__x86_64__) || defined(__i386__)
	r = buf_printf(out, "\t.fill %llu, 1, 0x90\n", (unsigned long long)bytes);
#elif defined(__aarch64__)
	if (bytes % 4 == 0)
		r = buf_printf(out, "\t.fill %llu, 4, 0xd503201f\n", (unsigned long long)(bytes / 4));
	else
		r = buf_printf(out, "\t.skip %llu\n", (unsigned long long)bytes);
#else
	r = buf_printf(out, "\t.skip %llu\n", (unsigned long long)bytes);
#endif
	if (r < 0)
		return r;
	return buf_addstr(out, "\t.section .note.GNU-stack,\"\",@progbits\n");
}

void pad_object_release(struct pad_object *p)
{
	free(p->object);
	p->object = NULL;
}

/* Write the source and run "cc -c plumb_pad.s -o plumb_pad.o" in dir. */
static int assemble(const char *dir, uint64_t bytes, int retain, const char *cc,
		    const struct envlist *env, struct proc_result *res,
		    struct buf *log, struct plumb_err *err)
{
	struct buf src, path, line;
	struct atomic_file af;
	struct cmdline cl;
	struct proc_spec spec;
	int r;

	buf_init(&src, 4096);
	buf_init(&path, 8192);
	buf_init(&line, 8192);
	memset(&cl, 0, sizeof(cl));
	if (pad_source(bytes, retain, &src) < 0 ||
	    buf_printf(&path, "%s/plumb_pad.s", dir) < 0 ||
	    buf_printf(&line, "%s -c plumb_pad.s -o plumb_pad.o", cc) < 0) {
		r = buf_err(err, "pad object");
		goto out;
	}
	if ((r = atomic_file_open(&af, path.data, 0644, err)) < 0)
		goto out;
	if ((r = atomic_file_write(&af, src.data, src.len, err)) < 0) {
		atomic_file_abort(&af);
		goto out;
	}
	if ((r = atomic_file_commit(&af, err)) < 0)
		goto out;
	if ((r = cmdline_expand(&cl, line.data, NULL, 0, "build.cc", err)) < 0)
		goto out;
	buf_reset(&path);
	if (buf_printf(&path, "%s/assemble.log", dir) < 0) {
		r = buf_err(err, "pad object");
		goto out;
	}
	proc_spec_init(&spec);
	spec.argv = cl.argv;
	spec.env = env->v;
	spec.cwd = dir;
	spec.timeout_ns = PAD_TIMEOUT_NS;
	spec.out.kind = PROC_SINK_FILE;
	spec.out.path = path.data;
	spec.out.cap = 64 * 1024;
	spec.err.kind = PROC_SINK_STDOUT;
	r = proc_run(&spec, res, err);
	if (r == 0)
		buf_addstr(log, path.data);
out:
	cmdline_release(&cl);
	buf_release(&src);
	buf_release(&path);
	buf_release(&line);
	return r;
}

uint64_t pad_offset(int spread, unsigned k, unsigned pad_bytes, uint64_t seed)
{
	uint64_t window = PAD_SPREAD_WINDOW, slots, taken[64], state = seed;
	unsigned n = 0;

	if (!spread || k == 0)
		return (uint64_t)k * pad_bytes;
	if ((uint64_t)64 * pad_bytes > window)
		window = (uint64_t)64 * pad_bytes;
	slots = window / pad_bytes - 1;   /* offsets 1 .. slots times pad_bytes */
	for (;;) {
		uint64_t o = (schedule_splitmix64(&state) % slots + 1) * pad_bytes;
		unsigned i;
		for (i = 0; i < n; i++)
			if (taken[i] == o)
				break;
		if (i < n)
			continue;
		if (++n == k || n == 64)
			return o;
		taken[n - 1] = o;
	}
}

/* What <dir>/made says of an object assembled there: everything it was made
 * of, and the object's SHA-256 (of its bytes as they are now). */
static int stamp_text(const char *dir, unsigned k, uint64_t bytes, const char *cc, int retained,
		      struct buf *out)
{
	char *obj = buf_strdupf("%s/plumb_pad.o", dir), hex[DIGEST_HEX];
	struct plumb_err ignored;
	struct buf data;
	int r;

	if (!obj)
		return -1;
	buf_init(&data, OBJECT_MAX);
	r = file_read(obj, OBJECT_MAX, &data, &ignored);
	free(obj);
	if (r == 0) {
		digest_buffer_hex(data.data ? data.data : "", data.len, hex);
		r = buf_printf(out, "plumb pad object %d\npad %u\nbytes %llu\ncc %s\nretained %d\nsha256 %s\n",
			       PAD_OBJECT_FORMAT, k, (unsigned long long)bytes, cc, retained, hex) < 0 ? -1 : 0;
	}
	buf_release(&data);
	return r;
}

int pad_object_reuse(const char *dir, unsigned k, uint64_t bytes, const char *cc,
		     struct pad_object *out)
{
	char *made = buf_strdupf("%s/made", dir);
	struct plumb_err ignored;
	struct buf have, want;
	int hit = 0;

	memset(out, 0, sizeof(*out));
	buf_init(&have, STAMP_MAX);
	buf_init(&want, STAMP_MAX);
	if (made && file_read(made, STAMP_MAX, &have, &ignored) == 0 && have.data) {
		int retained = strstr(have.data, "\nretained 1\n") != NULL;
		hit = stamp_text(dir, k, bytes, cc, retained, &want) == 0 && want.len == have.len &&
		      memcmp(want.data, have.data, have.len) == 0;
		if (hit && !(out->object = buf_strdupf("%s/plumb_pad.o", dir)))
			hit = 0;
		out->k = k;
		out->bytes = bytes;
		out->retained = retained;
	}
	free(made);
	buf_release(&have);
	buf_release(&want);
	return hit;
}

/* Say what the object in dir was made of (a stamp that cannot be written
 * only means the next run assembles it again). */
static void write_stamp(const char *dir, const struct pad_object *po, const char *cc)
{
	char *made = buf_strdupf("%s/made", dir);
	struct plumb_err ignored;
	struct buf text;
	int fd;

	buf_init(&text, STAMP_MAX);
	if (made && stamp_text(dir, po->k, po->bytes, cc, po->retained, &text) == 0 &&
	    (fd = open(made, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0) {
		if (write_all(fd, text.data, text.len, made, &ignored) < 0 || close(fd) < 0)
			unlink(made);
	}
	free(made);
	buf_release(&text);
}

int pad_object_make(const char *dir, unsigned k, uint64_t bytes,
		    const char *cc, const struct envlist *env,
		    struct pad_object *out, struct plumb_err *err)
{
	struct proc_result res;
	struct buf log, obj;
	int r;

	memset(out, 0, sizeof(*out));
	out->k = k;
	out->bytes = bytes;
	buf_init(&log, 8192);
	buf_init(&obj, 8192);
	if ((r = mkdir_p(dir, err)) < 0)
		goto out;
	/* Prefer the retain flag; an assembler older than binutils 2.36 refuses it. */
	r = assemble(dir, bytes, 1, cc, env, &res, &log, err);
	if (r < 0)
		goto out;
	out->retained = 1;
	if (!(res.exited && res.status == 0) && !res.spawn_errno) {
		proc_result_release(&res);
		buf_reset(&log);
		r = assemble(dir, bytes, 0, cc, env, &res, &log, err);
		if (r < 0)
			goto out;
		out->retained = 0;
	}
	if (!(res.exited && res.status == 0)) {
		char what[300];
		struct buf text;
		proc_describe(&res, PAD_TIMEOUT_NS, what, sizeof(what));
		buf_init(&text, 2048);
		if (file_read(log.data, 2000, &text, NULL) < 0)
			buf_reset(&text);
		for (char *p = text.data; p && *p; p++)
			if (*p == '\n')
				*p = ' ';
		r = plumb_err_set(err, PLUMB_EBUILD, "build.cc: '%s -c' cannot assemble the pad object for pad %u: %s: %s",
				  cc, k, what, buf_cstr(&text));
		buf_release(&text);
		proc_result_release(&res);
		goto out;
	}
	proc_result_release(&res);
	if (buf_printf(&obj, "%s/plumb_pad.o", dir) < 0) {
		r = buf_err(err, "pad object");
		goto out;
	}
	out->object = buf_detach(&obj, NULL);
	if (!out->object)
		r = plumb_err_oom(err, "pad object");
	else
		write_stamp(dir, out, cc);
out:
	buf_release(&log);
	buf_release(&obj);
	return r;
}
