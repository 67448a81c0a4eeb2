/*
 * formats/digest.c: SHA-256 of a stream, inline or on a helper thread.
 *
 * The helper thread blocks every signal, so SIGINT and SIGTERM reach the
 * thread that does the I/O and can unwind (common/cleanup.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <openssl/evp.h>

#include "common/err.h"
#include "formats/digest.h"
#include "common/banned.h"

#define DIGEST_MAGIC 0x44474553u  /* "DGES" */

static int force_sodium = -1;   /* -1: PLUMB_DIGEST not read yet */

void digest_force_sodium(int on)
{
	force_sodium = on;
}

/*
 * Whether libcrypto hashes: yes unless PLUMB_DIGEST=libsodium chooses
 * libsodium's portable code (bench/bundle.sh measures one against the
 * other).
 */
static int use_evp(void)
{
	if (force_sodium < 0) {
		const char *e = getenv("PLUMB_DIGEST");
		force_sodium = e && strcmp(e, "libsodium") == 0;
	}
	return !force_sodium;
}

const char *digest_backend(void)
{
	return use_evp() ? "libcrypto" : "libsodium";
}

/* Add bytes to whichever state d holds. */
static void hash_update(struct digest *d, const void *p, size_t len)
{
	if (d->evp)
		EVP_DigestUpdate(d->evp, p, len);
	else
		crypto_hash_sha256_update(&d->st, p, len);
}

/* Start d's state: an EVP context when libcrypto is there, else libsodium's. */
static int hash_start(struct digest *d, struct plumb_err *err)
{
	if (use_evp()) {
		d->evp = EVP_MD_CTX_new();
		if (!d->evp)
			return plumb_err_oom(err, "hash context");
		if (EVP_DigestInit_ex(d->evp, EVP_sha256(), NULL) != 1) {
			EVP_MD_CTX_free(d->evp);
			d->evp = NULL;
			return plumb_err_set(err, PLUMB_EINTERNAL, "libcrypto: SHA-256 failed to start");
		}
		return 0;
	}
	if (sodium_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libsodium failed to initialize");
	crypto_hash_sha256_init(&d->st);
	return 0;
}

static void hash_drop(struct digest *d)
{
	if (d->evp)
		EVP_MD_CTX_free(d->evp);
	d->evp = NULL;
}

static void *digest_helper(void *arg)
{
	struct digest *d = arg;

	pthread_mutex_lock(&d->lock);
	for (;;) {
		struct digest_slot *s = &d->slot[d->next];
		while (!s->full && !d->stop)
			pthread_cond_wait(&d->cond, &d->lock);
		if (!s->full)
			break;   /* stopped and nothing left */
		pthread_mutex_unlock(&d->lock);
		hash_update(d, s->data, s->len);
		pthread_mutex_lock(&d->lock);
		s->full = 0;
		s->len = 0;
		d->next = (d->next + 1) % DIGEST_SLOTS;
		pthread_cond_broadcast(&d->cond);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

static void free_slots(struct digest *d)
{
	for (unsigned i = 0; i < DIGEST_SLOTS; i++) {
		free(d->slot[i].data);
		d->slot[i].data = NULL;
	}
}

int digest_init(struct digest *d, int threaded, struct plumb_err *err)
{
	sigset_t all, old;
	int rc;

	memset(d, 0, sizeof(*d));
	rc = hash_start(d, err);
	if (rc < 0)
		return rc;
	d->threaded = threaded;
	if (threaded) {
		for (unsigned i = 0; i < DIGEST_SLOTS; i++) {
			d->slot[i].data = malloc(DIGEST_SLOT_BYTES);
			if (!d->slot[i].data) {
				free_slots(d);
				hash_drop(d);
				return plumb_err_oom(err, "hash buffers");
			}
		}
		pthread_mutex_init(&d->lock, NULL);
		pthread_cond_init(&d->cond, NULL);
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = pthread_create(&d->thread, NULL, digest_helper, d);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (rc != 0) {
			pthread_mutex_destroy(&d->lock);
			pthread_cond_destroy(&d->cond);
			free_slots(d);
			hash_drop(d);
			return plumb_err_errno(err, PLUMB_EINTERNAL, rc, "hash thread", "create");
		}
	}
	d->magic = DIGEST_MAGIC;
	return 0;
}

/* Hand the slot being filled to the helper and wait until the next is free. */
static void hand_over(struct digest *d)
{
	pthread_mutex_lock(&d->lock);
	d->slot[d->fill].full = 1;
	pthread_cond_broadcast(&d->cond);
	d->fill = (d->fill + 1) % DIGEST_SLOTS;
	while (d->slot[d->fill].full)
		pthread_cond_wait(&d->cond, &d->lock);
	pthread_mutex_unlock(&d->lock);
}

int digest_update(struct digest *d, const void *data, size_t len,
		  struct plumb_err *err)
{
	const unsigned char *p = data;

	if (d->magic != DIGEST_MAGIC)
		return plumb_err_set(err, PLUMB_EINTERNAL, "digest used before init");
	if (!d->threaded) {
		hash_update(d, p, len);
		return 0;
	}
	while (len > 0) {
		struct digest_slot *s = &d->slot[d->fill];
		size_t take = DIGEST_SLOT_BYTES - s->len;
		if (take > len)
			take = len;
		memcpy(s->data + s->len, p, take);
		s->len += take;
		p += take;
		len -= take;
		if (s->len == DIGEST_SLOT_BYTES)
			hand_over(d);
	}
	return 0;
}

/* Stop the helper after it hashed every full slot. */
static void stop_helper(struct digest *d)
{
	pthread_mutex_lock(&d->lock);
	d->stop = 1;
	pthread_cond_broadcast(&d->cond);
	pthread_mutex_unlock(&d->lock);
	pthread_join(d->thread, NULL);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->cond);
	free_slots(d);
}

int digest_final(struct digest *d, unsigned char out[DIGEST_BYTES],
		 struct plumb_err *err)
{
	if (d->magic != DIGEST_MAGIC)
		return plumb_err_set(err, PLUMB_EINTERNAL, "digest used before init");
	if (d->threaded) {
		if (d->slot[d->fill].len > 0) {
			pthread_mutex_lock(&d->lock);
			d->slot[d->fill].full = 1;
			pthread_cond_broadcast(&d->cond);
			pthread_mutex_unlock(&d->lock);
		}
		stop_helper(d);
	}
	d->magic = 0;
	if (d->evp) {
		unsigned int n = 0;
		int ok = EVP_DigestFinal_ex(d->evp, out, &n) == 1 && n == DIGEST_BYTES;
		hash_drop(d);
		if (!ok)
			return plumb_err_set(err, PLUMB_EINTERNAL, "libcrypto: SHA-256 failed");
		return 0;
	}
	crypto_hash_sha256_final(&d->st, out);
	return 0;
}

void digest_release(struct digest *d)
{
	if (!d || d->magic != DIGEST_MAGIC)
		return;
	if (d->threaded) {
		/* Discard what is queued: the helper stops at the first empty slot. */
		pthread_mutex_lock(&d->lock);
		for (unsigned i = 0; i < DIGEST_SLOTS; i++)
			if (i != d->next)
				d->slot[i].full = 0;
		pthread_mutex_unlock(&d->lock);
		stop_helper(d);
	}
	hash_drop(d);
	d->magic = 0;
}

void digest_buffer(const void *data, size_t len, unsigned char out[DIGEST_BYTES])
{
	unsigned int n = 0;

	if (use_evp() && EVP_Digest(data, len, out, &n, EVP_sha256(), NULL) == 1 &&
	    n == DIGEST_BYTES)
		return;
	/* crypto_hash_sha256() needs no sodium_init(): it is portable C. */
	crypto_hash_sha256(out, data, len);
}

void digest_buffer_hex(const void *data, size_t len, char out[DIGEST_HEX])
{
	unsigned char h[DIGEST_BYTES];

	digest_buffer(data, len, h);
	digest_hex(h, out);
}

void digest_hex(const unsigned char h[DIGEST_BYTES], char out[DIGEST_HEX])
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < DIGEST_BYTES; i++) {
		out[2 * i] = hex[h[i] >> 4];
		out[2 * i + 1] = hex[h[i] & 15];
	}
	out[2 * DIGEST_BYTES] = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int digest_from_hex(const char *s, size_t len, unsigned char out[DIGEST_BYTES])
{
	if (len != 2 * DIGEST_BYTES)
		return -1;
	for (size_t i = 0; i < DIGEST_BYTES; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}
