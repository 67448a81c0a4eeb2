/*
 * examples/interp/interp.c: a small bytecode interpreter whose speed moves
 * with code placement (seed 000).
 *
 *     ./interp [N]          run the bytecode loop N times (default 12000000)
 *
 * It prints one line, checksum=<16 hex>, a function of N only: every
 * correct build, at every pad, prints the same one.
 *
 * Why it is placement sensitive: run() dispatches with one switch, which
 * GCC and clang compile to a bounds check and a single indirect jump
 * through a jump table, shared by every opcode.  The loop below is 19
 * instructions whose opcodes repeat in an irregular order, so the target
 * of that one jump is predictable only from the history of the previous
 * targets.  The indirect branch predictor and the fetch and op-cache
 * structures are indexed by instruction address, so how well that
 * sequence is learnt, and how the dispatch block and the handlers fall
 * across 64-byte lines, depend on where run() lands.  Shifting the whole program by a
 * few 16-byte steps at link time (plumb's pad variants) changes its time
 * although not one instruction of run() changes.  README.md has measured
 * sweeps and what they show on one machine.
 *
 * The hot function is `run` (plumb.conf: hot = run).  Everything else is
 * set-up and may change freely between commits without touching run().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum opcode {
	OP_HALT, OP_LI, OP_MOV, OP_ADD, OP_SUB, OP_XOR, OP_SHLI, OP_SHRI,
	OP_ANDI, OP_MUL, OP_ADDI, OP_JMP, OP_JZ, OP_JNZ, OP_NOP
};

/* One instruction: reg[a] = reg[b] <op> reg[c] or <op> imm; jumps go to imm. */
struct insn {
	uint8_t op, a, b, c;
	int32_t imm;
};

#define NREGS 8

uint64_t run(const struct insn *code, uint64_t *reg);

/* The interpreter: one shared switch dispatch, short handlers. */
__attribute__((noinline)) uint64_t run(const struct insn *code, uint64_t *reg)
{
	const struct insn *pc = code;

	for (;;) {
		const struct insn *i = pc++;

		switch (i->op) {
		case OP_HALT: return reg[0] ^ reg[2] ^ reg[3] ^ reg[4] ^ reg[5] ^ reg[6];
		case OP_LI:   reg[i->a] = (uint64_t)(int64_t)i->imm; break;
		case OP_MOV:  reg[i->a] = reg[i->b]; break;
		case OP_ADD:  reg[i->a] = reg[i->b] + reg[i->c]; break;
		case OP_SUB:  reg[i->a] = reg[i->b] - reg[i->c]; break;
		case OP_XOR:  reg[i->a] = reg[i->b] ^ reg[i->c]; break;
		case OP_SHLI: reg[i->a] = reg[i->b] << (i->imm & 63); break;
		case OP_SHRI: reg[i->a] = reg[i->b] >> (i->imm & 63); break;
		case OP_ANDI: reg[i->a] = reg[i->b] & (uint64_t)(int64_t)i->imm; break;
		case OP_MUL:  reg[i->a] = reg[i->b] * reg[i->c]; break;
		case OP_ADDI: reg[i->a] = reg[i->b] + (uint64_t)(int64_t)i->imm; break;
		case OP_JMP:  pc = code + i->imm; break;
		case OP_JZ:   if (reg[i->a] == 0) pc = code + i->imm; break;
		case OP_JNZ:  if (reg[i->a] != 0) pc = code + i->imm; break;
		case OP_NOP:  break;
		}
	}
}

#define I(op, a, b, c, imm) { OP_##op, a, b, c, imm }

/*
 * A toy hash: r2 and r3 are mixed, r0 accumulates, r1 counts the loop
 * down.  The 19 opcodes of the loop repeat in an irregular order (three
 * XOR, three ADD, three MOV, two SUB, two SHLI, two NOP...), and most
 * handlers are a few instructions, so the time goes into dispatch.
 */
static const struct insn program[] = {
	/*  0 */ I(LI,   0, 0, 0, 0),
	/*  1 */ I(LI,   2, 0, 0, 0x2545f491),
	/*  2 */ I(LI,   3, 0, 0, 0x1b873593),
	/*  3 */ I(LI,   4, 0, 0, 0),
	/*  4 */ I(LI,   5, 0, 0, 0),
	/* loop: */
	/*  5 */ I(MOV,  4, 2, 0, 0),           /* t = x */
	/*  6 */ I(SHLI, 4, 4, 0, 13),          /* t <<= 13 */
	/*  7 */ I(ADD,  2, 2, 4, 0),           /* x += t */
	/*  8 */ I(SUB,  5, 2, 3, 0),           /* u = x - y */
	/*  9 */ I(MOV,  6, 5, 0, 0),           /* v = u */
	/* 10 */ I(SUB,  3, 3, 6, 0),           /* y -= v */
	/* 11 */ I(ADDI, 3, 3, 0, 0x9e37),      /* y += 0x9e37 */
	/* 12 */ I(XOR,  2, 2, 3, 0),           /* x ^= y */
	/* 13 */ I(XOR,  4, 2, 6, 0),           /* t = x ^ v */
	/* 14 */ I(NOP,  0, 0, 0, 0),
	/* 15 */ I(XOR,  0, 0, 4, 0),           /* c ^= t */
	/* 16 */ I(ADDI, 0, 0, 0, 7),           /* c += 7 */
	/* 17 */ I(MOV,  5, 2, 0, 0),           /* u = x */
	/* 18 */ I(ADD,  0, 0, 5, 0),           /* c += u */
	/* 19 */ I(SHLI, 4, 3, 0, 3),           /* t = y << 3 */
	/* 20 */ I(NOP,  0, 0, 0, 0),
	/* 21 */ I(ADD,  2, 2, 4, 0),           /* x += t */
	/* 22 */ I(ADDI, 1, 1, 0, -1),          /* n -= 1 */
	/* 23 */ I(JNZ,  1, 0, 0, 5),           /* loop while n != 0 */
	/* 24 */ I(HALT, 0, 0, 0, 0),
};

int main(int argc, char **argv)
{
	uint64_t reg[NREGS] = { 0 };
	char *end = NULL;
	long long n = 12000000;

	if (argc > 2 || (argc == 2 && ((n = strtoll(argv[1], &end, 10)) <= 0 || *end != '\0'))) {
		fputs("usage: interp [N]   (N >= 1, default 12000000)\n", stderr);
		return 2;
	}
	reg[1] = (uint64_t)n;
	printf("checksum=%016llx\n", (unsigned long long)run(program, reg));
	return 0;
}
