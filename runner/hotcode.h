/*
 * runner/hotcode.h: did the hot code change between base and candidate?
 * (seed 000: "before blaming a pass, check whether the hot code changed").
 *
 * A hot symbol of base pad 0 and candidate pad 0 is
 *   identical                  the same bytes;
 *   identical except addresses the same instructions once every
 *                              PC-relative displacement (calls, jumps,
 *                              RIP-relative operands; ADR/ADRP pages and
 *                              their low-12 companions on aarch64; absolute
 *                              addresses in non-PIE x86 code) is normalized:
 *                              a target inside the function must be at the
 *                              same offset, and a target both sides can name
 *                              by symbol must be the same symbol and offset;
 *   changed                    anything else, with both sizes.
 * Instructions are decoded with capstone, for x86-64 and aarch64; on other
 * machines differing bytes are "changed".
 *
 * Ownership: plain storage only; nothing is allocated for the caller.
 */
#ifndef PLUMB_RUNNER_HOTCODE_H
#define PLUMB_RUNNER_HOTCODE_H

#include <stddef.h>
#include <stdint.h>

struct elf_image;
struct plumb_err;

enum hotcode_verdict {
	HOTCODE_IDENTICAL,
	HOTCODE_SAME_EXCEPT_ADDRESSES,
	HOTCODE_CHANGED
};

/* One function's code: its bytes, its address, and the file it came from
 * (NULL: no symbol names to compare, as in unit tests). */
struct hotcode_code {
	const unsigned char *bytes;
	size_t len;
	uint64_t addr;
	const struct elf_image *img;
};

struct hotcode_result {
	enum hotcode_verdict verdict;
	uint64_t base_size, cand_size;
	size_t instructions;       /* decoded in base (0 when bytes were equal) */
	size_t normalized;         /* instructions that needed normalizing */
	char detail[256];          /* for "changed": where the first difference is */
};

/* Compare base and candidate code for machine (an ELF e_machine). */
int hotcode_compare(int machine, const struct hotcode_code *base,
		    const struct hotcode_code *cand, struct hotcode_result *out,
		    struct plumb_err *err);

/* "identical", "identical except addresses", "changed". */
const char *hotcode_verdict_name(enum hotcode_verdict v);

#endif
