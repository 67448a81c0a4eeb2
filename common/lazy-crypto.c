/*
 * common/lazy-crypto.c: the table of crypto's functions (common/lazy-crypto.h).
 */
#define PLUMB_LAZY_CRYPTO_IMPL
#include "common/lazy-crypto.h"
#include "common/banned.h"

struct plumb_crypto_fns plumb_crypto;

#define PLUMB_CRYPTO_NAME(f) #f,
static const char *const names[] = { PLUMB_CRYPTO_FUNCS(PLUMB_CRYPTO_NAME) };
_Static_assert(sizeof(plumb_crypto) == sizeof(names) / sizeof(names[0]) * sizeof(void (*)(void)),
	       "one function pointer per name");

struct lazy_lib plumb_crypto_lib = {
	.name = "libcrypto",
	.soname = PLUMB_CRYPTO_SONAME,
	.path = PLUMB_CRYPTO_PATH,
	.symbols = names,
	.table = &plumb_crypto,
	.n = sizeof(names) / sizeof(names[0]),
};

int crypto_load(struct plumb_err *err)
{
	return lazy_load(&plumb_crypto_lib, err);
}
