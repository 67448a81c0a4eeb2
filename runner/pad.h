/*
 * runner/pad.h: pad objects and the variables a pad variant's build sees
 * (DESIGN §5.2).
 *
 * The pad object of pad K holds K × padBytes bytes (nops where the target
 * has a one-byte nop) in section .text.unlikely.plumb_pad, which GNU ld's
 * default script places first among the .text.unlikely input sections, at
 * the head of the output .text; so every function in .text.startup,
 * .text.hot and .text moves up by exactly the pad, as long as no input
 * section is aligned more coarsely than padBytes (then the shift check
 * fails and says so).  The section is marked SHF_GNU_RETAIN ("R") where the
 * assembler knows it, so --gc-sections cannot drop it, and the object
 * carries an empty .note.GNU-stack so the link does not turn on an
 * executable stack.  Every pad object is assembled in its own folder from a
 * file of the same name, so the objects differ in nothing but the pad.
 *
 * Ownership: struct pad_object is caller-owned storage; pad_object_make()
 * fills it and pad_object_release() frees its strings.
 */
#ifndef PLUMB_RUNNER_PAD_H
#define PLUMB_RUNNER_PAD_H

#include <stdint.h>

struct envlist;
struct plumb_err;

/* The format of the pad objects plumb writes (pad_source()); part of the
 * build cache's key, so raise it whenever pad_source() writes other bytes. */
#define PAD_OBJECT_FORMAT 1

struct pad_object {
	unsigned k;
	uint64_t bytes;   /* K × padBytes */
	char *object;     /* <dir>/plumb_pad.o */
	int retained;     /* assembled with the "R" (retain) flag */
};

/*
 * Write <dir>/plumb_pad.s for pad k and assemble it with `cc -c` (cc may
 * carry flags: "gcc -m32") in dir, with env; the assembler's output goes to
 * <dir>/assemble.log.  A failure is PLUMB_EBUILD naming build.cc.
 */
int pad_object_make(const char *dir, unsigned k, uint64_t bytes,
		    const char *cc, const struct envlist *env,
		    struct pad_object *out, struct plumb_err *err);

/*
 * The offset of pad k (bytes of its pad object).  linear: k x pad_bytes.
 * spread: 0 for pad 0; pad k > 0 the k-th distinct value of a splitmix64
 * stream started at seed (runner/schedule.h's generator), each draw x
 * giving the multiple of pad_bytes ((x mod (W / pad_bytes - 1)) + 1) x
 * pad_bytes, W = PAD_SPREAD_WINDOW or 64 x pad_bytes if larger: pads at
 * distinct offsets within the first 4 KiB, the same for the same seed
 * however many pads are asked for (pads added later keep the first ones').
 */
#define PAD_SPREAD_WINDOW 4096u
uint64_t pad_offset(int spread, unsigned k, unsigned pad_bytes, uint64_t seed);

/*
 * The object pad_object_make() left in dir, when it was made for the same
 * pad k, bytes and cc and its bytes are still the ones it had (its SHA-256,
 * in <dir>/made): 1 and out filled, else 0 (assemble it again).  Pad
 * objects live at the same paths run after run, so a run reuses the last
 * run's instead of assembling six files again.
 */
int pad_object_reuse(const char *dir, unsigned k, uint64_t bytes, const char *cc,
		     struct pad_object *out);

void pad_object_release(struct pad_object *p);

/* The assembly source of a pad of bytes bytes (appended to out). */
struct buf;
int pad_source(uint64_t bytes, int retain, struct buf *out);

#endif
