/*
 * runner/hotcode.c: comparing a hot function of base and candidate
 * instruction by instruction; see hotcode.h for the verdicts.
 *
 * x86-64 is compared on bytes: capstone tells where the displacement and
 * immediate fields of each instruction sit, those fields are zeroed on
 * both sides once their targets agree, and the rest must be equal.
 * aarch64 packs operands into one 32-bit word, so it is compared on the
 * decoded operands instead (same instruction, same registers, same
 * immediates), with PC-relative targets and ADRP pages treated as above.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>
#include <capstone/capstone.h>

#include "common/err.h"
#include "runner/elfsym.h"
#include "runner/hotcode.h"
#include "common/banned.h"

#define TRACK_MAX 16

const char *hotcode_verdict_name(enum hotcode_verdict v)
{
	switch (v) {
	case HOTCODE_IDENTICAL: return "identical";
	case HOTCODE_SAME_EXCEPT_ADDRESSES: return "identical except addresses";
	default: return "changed";
	}
}

/*
 * Do target ta (base) and tb (candidate) mean the same place?  Inside the
 * function: the same offset.  Elsewhere: the same symbol and offset when
 * both can be named; an address neither side can name is normalized away.
 */
static int same_target(const struct hotcode_code *a, uint64_t ta,
		       const struct hotcode_code *b, uint64_t tb)
{
	int ina = ta >= a->addr && ta - a->addr < a->len;
	int inb = tb >= b->addr && tb - b->addr < b->len;
	const char *na = NULL, *nb = NULL;
	uint64_t oa = 0, ob = 0;

	if (ina || inb)
		return ina && inb && ta - a->addr == tb - b->addr;
	if (a->img)
		na = elf_image_symbol_at(a->img, ta, &oa);
	if (b->img)
		nb = elf_image_symbol_at(b->img, tb, &ob);
	if (na && nb)
		return strcmp(na, nb) == 0 && oa == ob;
	return !na && !nb;
}

static void changed_at(struct hotcode_result *out, const cs_insn *ia,
		       const cs_insn *ib, uint64_t base_addr, const char *why)
{
	out->verdict = HOTCODE_CHANGED;
	/* Long operand strings are cut; the offset and the reason come first. */
	snprintf(out->detail, sizeof(out->detail),
		 "at +0x%llx: %.24s %.60s / %.24s %.60s (%.40s)",
		 (unsigned long long)(ia->address - base_addr), ia->mnemonic, ia->op_str,
		 ib->mnemonic, ib->op_str, why);
}

/* x86-64: zero the fields that hold addresses, once their targets agree. */
static int x86_pair(csh h, const struct hotcode_code *a, const cs_insn *ia,
		    const struct hotcode_code *b, const cs_insn *ib,
		    int *normalized, const char **why)
{
	const cs_x86 *xa = &ia->detail->x86, *xb = &ib->detail->x86;
	unsigned char na[32], nb[32];
	int rel = cs_insn_group(h, ia, CS_GRP_BRANCH_RELATIVE);
	int absolute_ok = a->img && b->img && !elf_image_pie(a->img) && !elf_image_pie(b->img);

	if (ia->size != ib->size || ia->size > sizeof(na) || xa->op_count != xb->op_count) {
		*why = "different instruction";
		return 0;
	}
	memcpy(na, ia->bytes, ia->size);
	memcpy(nb, ib->bytes, ib->size);
	for (int k = 0; k < xa->op_count; k++) {
		const cs_x86_op *oa = &xa->operands[k], *ob = &xb->operands[k];
		if (oa->type != ob->type) {
			*why = "different operands";
			return 0;
		}
		if (oa->type == X86_OP_IMM && (rel ||
		    (absolute_ok && elf_image_mapped(a->img, (uint64_t)oa->imm) &&
		     elf_image_mapped(b->img, (uint64_t)ob->imm)))) {
			if (!same_target(a, (uint64_t)oa->imm, b, (uint64_t)ob->imm)) {
				*why = "different target";
				return 0;
			}
			if (xa->encoding.imm_size && xa->encoding.imm_offset == xb->encoding.imm_offset &&
			    xa->encoding.imm_offset + xa->encoding.imm_size <= ia->size) {
				memset(na + xa->encoding.imm_offset, 0, xa->encoding.imm_size);
				memset(nb + xb->encoding.imm_offset, 0, xb->encoding.imm_size);
			}
		} else if (oa->type == X86_OP_MEM && oa->mem.base == X86_REG_RIP &&
			   ob->mem.base == X86_REG_RIP) {
			uint64_t ta = ia->address + ia->size + (uint64_t)oa->mem.disp;
			uint64_t tb = ib->address + ib->size + (uint64_t)ob->mem.disp;
			if (!same_target(a, ta, b, tb)) {
				*why = "different data";
				return 0;
			}
			if (xa->encoding.disp_size && xa->encoding.disp_offset == xb->encoding.disp_offset &&
			    xa->encoding.disp_offset + xa->encoding.disp_size <= ia->size) {
				memset(na + xa->encoding.disp_offset, 0, xa->encoding.disp_size);
				memset(nb + xb->encoding.disp_offset, 0, xb->encoding.disp_size);
			}
		}
	}
	if (memcmp(na, nb, ia->size) != 0) {
		*why = "different encoding";
		return 0;
	}
	(*normalized)++;
	return 1;
}

/* aarch64: registers holding an ADRP page, per side. */
struct pages {
	arm64_reg reg[TRACK_MAX];
	uint64_t page[TRACK_MAX];
	int n;
};

static int page_of(const struct pages *p, arm64_reg r, uint64_t *page)
{
	for (int i = 0; i < p->n; i++)
		if (p->reg[i] == r) {
			*page = p->page[i];
			return 1;
		}
	return 0;
}

static void page_forget(struct pages *p, arm64_reg r)
{
	for (int i = 0; i < p->n; i++)
		if (p->reg[i] == r) {
			p->reg[i] = p->reg[p->n - 1];
			p->page[i] = p->page[p->n - 1];
			p->n--;
			return;
		}
}

static void page_set(struct pages *p, arm64_reg r, uint64_t page)
{
	page_forget(p, r);
	if (p->n < TRACK_MAX) {
		p->reg[p->n] = r;
		p->page[p->n++] = page;
	}
}

/* Registers an instruction writes: from capstone's access flags. */
static void forget_written(struct pages *p, const cs_arm64 *x)
{
	for (int k = 0; k < x->op_count; k++)
		if (x->operands[k].type == ARM64_OP_REG && (x->operands[k].access & CS_AC_WRITE))
			page_forget(p, x->operands[k].reg);
}

static int a64_pc_relative(unsigned id)
{
	return id == ARM64_INS_ADR || id == ARM64_INS_LDR || id == ARM64_INS_LDRSW ||
	       id == ARM64_INS_PRFM;
}

static int a64_pair(csh h, const struct hotcode_code *a, const cs_insn *ia,
		    struct pages *pa, const struct hotcode_code *b, const cs_insn *ib,
		    struct pages *pb, int *normalized, const char **why)
{
	const cs_arm64 *xa = &ia->detail->arm64, *xb = &ib->detail->arm64;
	int rel = cs_insn_group(h, ia, CS_GRP_BRANCH_RELATIVE);
	int adrp = ia->id == ARM64_INS_ADRP;
	int any = 0, ok = 1;
	uint64_t page_a = 0, page_b = 0;
	int paged = 0;

	if (xa->op_count != xb->op_count || xa->cc != xb->cc ||
	    xa->writeback != xb->writeback || xa->update_flags != xb->update_flags) {
		*why = "different instruction";
		return 0;
	}
	/* A base register that holds an ADRP page on both sides. */
	for (int k = 0; k < xa->op_count && !paged; k++) {
		const cs_arm64_op *oa = &xa->operands[k], *ob = &xb->operands[k];
		arm64_reg ra = 0, rb = 0;
		if (oa->type == ARM64_OP_MEM && ob->type == ARM64_OP_MEM) {
			ra = oa->mem.base;
			rb = ob->mem.base;
		} else if (ia->id == ARM64_INS_ADD && k == 1 && oa->type == ARM64_OP_REG &&
			   ob->type == ARM64_OP_REG) {
			ra = oa->reg;
			rb = ob->reg;
		}
		if (ra && ra == rb && page_of(pa, ra, &page_a) && page_of(pb, rb, &page_b))
			paged = 1;
	}
	for (int k = 0; k < xa->op_count && ok; k++) {
		const cs_arm64_op *oa = &xa->operands[k], *ob = &xb->operands[k];
		if (oa->type != ob->type || oa->shift.type != ob->shift.type ||
		    oa->shift.value != ob->shift.value || oa->ext != ob->ext ||
		    oa->vas != ob->vas || oa->vector_index != ob->vector_index) {
			*why = "different operands";
			return 0;
		}
		switch (oa->type) {
		case ARM64_OP_REG:
		case ARM64_OP_REG_MRS:
		case ARM64_OP_REG_MSR:
			if (oa->reg != ob->reg) {
				*why = "different registers";
				return 0;
			}
			break;
		case ARM64_OP_IMM:
		case ARM64_OP_CIMM:
			if (adrp) {
				any = 1;   /* a page: checked where it is used */
			} else if ((rel && k == xa->op_count - 1) ||
				   (a64_pc_relative(ia->id) && k == xa->op_count - 1 && !paged)) {
				if (!same_target(a, (uint64_t)oa->imm, b, (uint64_t)ob->imm)) {
					*why = "different target";
					return 0;
				}
				any |= oa->imm != ob->imm;
			} else if (paged && ia->id == ARM64_INS_ADD && k == 2) {
				if (!same_target(a, page_a + (uint64_t)oa->imm, b, page_b + (uint64_t)ob->imm)) {
					*why = "different data";
					return 0;
				}
				any |= oa->imm != ob->imm;
			} else if (oa->imm != ob->imm) {
				*why = "different immediate";
				return 0;
			}
			break;
		case ARM64_OP_MEM:
			if (oa->mem.base != ob->mem.base || oa->mem.index != ob->mem.index) {
				*why = "different address registers";
				return 0;
			}
			if (paged) {
				if (!same_target(a, page_a + (uint64_t)(int64_t)oa->mem.disp, b,
						 page_b + (uint64_t)(int64_t)ob->mem.disp)) {
					*why = "different data";
					return 0;
				}
				any |= oa->mem.disp != ob->mem.disp;
			} else if (oa->mem.disp != ob->mem.disp) {
				*why = "different offset";
				return 0;
			}
			break;
		case ARM64_OP_FP:
			if (memcmp(&oa->fp, &ob->fp, sizeof(oa->fp)) != 0) {
				*why = "different constant";
				return 0;
			}
			break;
		default:
			/* System operands, barriers, prefetch kinds: same value. */
			if (oa->imm != ob->imm) {
				*why = "different operands";
				return 0;
			}
			break;
		}
	}
	if (adrp && xa->op_count == 2 && xa->operands[0].type == ARM64_OP_REG) {
		page_set(pa, xa->operands[0].reg, (uint64_t)xa->operands[1].imm);
		page_set(pb, xb->operands[0].reg, (uint64_t)xb->operands[1].imm);
	} else {
		forget_written(pa, xa);
		forget_written(pb, xb);
	}
	if (any || memcmp(ia->bytes, ib->bytes, ia->size) != 0)
		(*normalized)++;
	return 1;
}

int hotcode_compare(int machine, const struct hotcode_code *base,
		    const struct hotcode_code *cand, struct hotcode_result *out,
		    struct plumb_err *err)
{
	cs_insn *ia = NULL, *ib = NULL;
	size_t na = 0, nb = 0, used_a = 0, used_b = 0;
	struct pages pa, pb;
	int normalized = 0;
	csh h;

	memset(out, 0, sizeof(*out));
	out->base_size = base->len;
	out->cand_size = cand->len;
	if (base->len == cand->len && memcmp(base->bytes, cand->bytes, base->len) == 0) {
		out->verdict = HOTCODE_IDENTICAL;
		return 0;
	}
	out->verdict = HOTCODE_CHANGED;
	if (base->len != cand->len) {
		snprintf(out->detail, sizeof(out->detail), "size %zu bytes in base, %zu in candidate",
			 base->len, cand->len);
		return 0;
	}
	if (machine == EM_X86_64) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
			return plumb_err_set(err, PLUMB_EINTERNAL, "capstone: cannot open x86-64");
	} else if (machine == EM_AARCH64) {
		if (cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &h) != CS_ERR_OK)
			return plumb_err_set(err, PLUMB_EINTERNAL, "capstone: cannot open aarch64");
	} else {
		snprintf(out->detail, sizeof(out->detail),
			 "bytes differ (addresses are normalized on x86-64 and aarch64 only)");
		return 0;
	}
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	na = cs_disasm(h, base->bytes, base->len, base->addr, 0, &ia);
	nb = cs_disasm(h, cand->bytes, cand->len, cand->addr, 0, &ib);
	out->instructions = na;
	memset(&pa, 0, sizeof(pa));
	memset(&pb, 0, sizeof(pb));
	if (na != nb) {
		snprintf(out->detail, sizeof(out->detail), "%zu instructions in base, %zu in candidate", na, nb);
		goto done;
	}
	for (size_t i = 0; i < na; i++) {
		const char *why = NULL;
		int same;
		if (ia[i].id != ib[i].id) {
			changed_at(out, &ia[i], &ib[i], base->addr, "different instruction");
			goto done;
		}
		used_a += ia[i].size;
		used_b += ib[i].size;
		if (machine == EM_X86_64) {
			if (ia[i].size == ib[i].size && memcmp(ia[i].bytes, ib[i].bytes, ia[i].size) == 0)
				continue;
			same = x86_pair(h, base, &ia[i], cand, &ib[i], &normalized, &why);
		} else {
			same = a64_pair(h, base, &ia[i], &pa, cand, &ib[i], &pb, &normalized, &why);
		}
		if (!same) {
			changed_at(out, &ia[i], &ib[i], base->addr, why ? why : "different");
			goto done;
		}
	}
	/* Bytes capstone could not decode (data in code) must be equal. */
	if (used_a != used_b || memcmp(base->bytes + used_a, cand->bytes + used_b, base->len - used_a) != 0) {
		snprintf(out->detail, sizeof(out->detail), "undecoded bytes from +0x%zx differ", used_a);
		goto done;
	}
	out->normalized = (size_t)normalized;
	out->verdict = HOTCODE_SAME_EXCEPT_ADDRESSES;
done:
	if (ia)
		cs_free(ia, na);
	if (ib)
		cs_free(ib, nb);
	cs_close(&h);
	return 0;
}
