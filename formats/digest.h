/*
 * formats/digest.h: every SHA-256 of plumb (bundle members and ids,
 * artifacts, trees, inputs, host ids), optionally computed on a helper
 * thread.  No other file hashes (t0007).
 *
 * The backend is OpenSSL's libcrypto (EVP): it uses the CPU's SHA
 * extensions where present (x86 SHA-NI, ARMv8 SHA2) and tuned vector code
 * elsewhere, about 2 GB/s here against libsodium's portable 300 MB/s.
 * PLUMB_DIGEST=libsodium hashes with libsodium's portable SHA-256
 * instead; both give the same bytes.
 *
 * Why a thread: hashing on the reading thread would add its whole time to
 * `plumb bundle verify` of a large bundle (~350 MB of samples.tsv for 10
 * million samples).  In threaded mode digest_update() copies the bytes into
 * one of a few fixed slots and returns; the helper hashes them in order.
 * Memory is bounded: DIGEST_SLOTS * DIGEST_SLOT_BYTES, whatever the
 * stream's length.
 *
 * Ownership: struct digest is caller-owned storage; after digest_init()
 * succeeds the caller calls digest_final() (which also releases it) or
 * digest_release() (abandon: stops the helper, discards the hash).
 */
#ifndef PLUMB_FORMATS_DIGEST_H
#define PLUMB_FORMATS_DIGEST_H

#include <pthread.h>
#include <stddef.h>
#include <sodium.h>

struct plumb_err;

#define DIGEST_BYTES 32
#define DIGEST_HEX 65                          /* 64 hex digits and a NUL */
#define DIGEST_SLOTS 4
#define DIGEST_SLOT_BYTES ((size_t)256 << 10)

struct digest_slot {
	unsigned char *data;
	size_t len;
	int full;                 /* handed to the helper, not yet hashed */
};

struct digest {
	unsigned magic;
	void *evp;                /* libcrypto's EVP_MD_CTX, or NULL: ... */
	crypto_hash_sha256_state st;   /* ... libsodium's state */
	int threaded;
	/* Threaded mode only. */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct digest_slot slot[DIGEST_SLOTS];
	unsigned fill;            /* the slot the writer fills */
	unsigned next;            /* the slot the helper hashes next */
	int stop;                 /* no more slots will come */
};

/* Start a hash; threaded != 0 hashes on a helper thread. */
int digest_init(struct digest *d, int threaded, struct plumb_err *err);

/* Add len bytes. */
int digest_update(struct digest *d, const void *data, size_t len,
		  struct plumb_err *err);

/* Finish: out receives the 32-byte SHA-256; d is released. */
int digest_final(struct digest *d, unsigned char out[DIGEST_BYTES],
		 struct plumb_err *err);

/* Abandon a hash (safe on a released or never-initialized-to-magic one). */
void digest_release(struct digest *d);

/* One-shot SHA-256 of a buffer, on the calling thread. */
void digest_buffer(const void *data, size_t len, unsigned char out[DIGEST_BYTES]);

/* One-shot SHA-256 of a buffer, as 64 lower-case hex digits. */
void digest_buffer_hex(const void *data, size_t len, char out[DIGEST_HEX]);

/* The backend in use: "libcrypto" or "libsodium". */
const char *digest_backend(void);

/* Tests and benches: force libsodium (1) or the default (0) for later hashes. */
void digest_force_sodium(int on);

/* Lower-case hex of a hash. */
void digest_hex(const unsigned char h[DIGEST_BYTES], char out[DIGEST_HEX]);

/* Parse 64 lower-case hex digits; -1 when s is not exactly that. */
int digest_from_hex(const char *s, size_t len, unsigned char out[DIGEST_BYTES]);

#endif
