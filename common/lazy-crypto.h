/*
 * common/lazy-crypto.h: crypto, loaded on first use (common/lazy.h).
 *
 * Include this instead of the library's header.  Every function plumb
 * calls is a row of PLUMB_CRYPTO_FUNCS and a redirect below; a call to any
 * other function of crypto does not link.
 */
#ifndef PLUMB_COMMON_LAZY_CRYPTO_H
#define PLUMB_COMMON_LAZY_CRYPTO_H

#include <openssl/evp.h>

#include "common/lazy.h"

#define PLUMB_CRYPTO_FUNCS(X) \
	X(EVP_Digest) \
	X(EVP_DigestFinal_ex) \
	X(EVP_DigestInit_ex) \
	X(EVP_DigestUpdate) \
	X(EVP_MD_CTX_free) \
	X(EVP_MD_CTX_new) \
	X(EVP_sha256)

#define PLUMB_CRYPTO_SLOT(f) __typeof__(f) *f;
struct plumb_crypto_fns {
	PLUMB_CRYPTO_FUNCS(PLUMB_CRYPTO_SLOT)
};
#undef PLUMB_CRYPTO_SLOT

extern struct plumb_crypto_fns plumb_crypto;
extern struct lazy_lib plumb_crypto_lib;

/* Load crypto now; 0, or PLUMB_EINTERNAL naming the library. */
int crypto_load(struct plumb_err *err);

/* A call through the table, loading crypto first when it is not yet. */
#define PLUMB_CRYPTO(f) (*(lazy_need(&plumb_crypto_lib), plumb_crypto.f))

#ifndef PLUMB_LAZY_CRYPTO_IMPL
#define EVP_Digest PLUMB_CRYPTO(EVP_Digest)
#define EVP_DigestFinal_ex PLUMB_CRYPTO(EVP_DigestFinal_ex)
#define EVP_DigestInit_ex PLUMB_CRYPTO(EVP_DigestInit_ex)
#define EVP_DigestUpdate PLUMB_CRYPTO(EVP_DigestUpdate)
#define EVP_MD_CTX_free PLUMB_CRYPTO(EVP_MD_CTX_free)
#define EVP_MD_CTX_new PLUMB_CRYPTO(EVP_MD_CTX_new)
#define EVP_sha256 PLUMB_CRYPTO(EVP_sha256)
#endif

#endif
