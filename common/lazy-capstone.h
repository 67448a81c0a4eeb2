/*
 * common/lazy-capstone.h: capstone, loaded on first use (common/lazy.h).
 *
 * Include this instead of the library's header.  Every function plumb
 * calls is a row of PLUMB_CAPSTONE_FUNCS and a redirect below; a call to any
 * other function of capstone does not link.
 */
#ifndef PLUMB_COMMON_LAZY_CAPSTONE_H
#define PLUMB_COMMON_LAZY_CAPSTONE_H

#include <capstone/capstone.h>

#include "common/lazy.h"

#define PLUMB_CAPSTONE_FUNCS(X) \
	X(cs_close) \
	X(cs_disasm) \
	X(cs_free) \
	X(cs_insn_group) \
	X(cs_open) \
	X(cs_option)

#define PLUMB_CAPSTONE_SLOT(f) __typeof__(f) *f;
struct plumb_capstone_fns {
	PLUMB_CAPSTONE_FUNCS(PLUMB_CAPSTONE_SLOT)
};
#undef PLUMB_CAPSTONE_SLOT

extern struct plumb_capstone_fns plumb_capstone;
extern struct lazy_lib plumb_capstone_lib;

/* Load capstone now; 0, or PLUMB_EINTERNAL naming the library. */
int capstone_load(struct plumb_err *err);

/* A call through the table, loading capstone first when it is not yet. */
#define PLUMB_CAPSTONE(f) (*(lazy_need(&plumb_capstone_lib), plumb_capstone.f))

#ifndef PLUMB_LAZY_CAPSTONE_IMPL
#define cs_close PLUMB_CAPSTONE(cs_close)
#define cs_disasm PLUMB_CAPSTONE(cs_disasm)
#define cs_free PLUMB_CAPSTONE(cs_free)
#define cs_insn_group PLUMB_CAPSTONE(cs_insn_group)
#define cs_open PLUMB_CAPSTONE(cs_open)
#define cs_option PLUMB_CAPSTONE(cs_option)
#endif

#endif
