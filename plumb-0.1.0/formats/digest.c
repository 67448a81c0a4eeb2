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

#include "common/err.h"
#include "formats/digest.h"
#include "common/banned.h"

#define DIGEST_MAGIC 0x44474553u  /* "DGES" */

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
		crypto_hash_sha256_update(&d->st, s->data, s->len);
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
	if (sodium_init() < 0)
		return plumb_err_set(err, PLUMB_EINTERNAL, "libsodium failed to initialize");
	crypto_hash_sha256_init(&d->st);
	d->threaded = threaded;
	if (threaded) {
		for (unsigned i = 0; i < DIGEST_SLOTS; i++) {
			d->slot[i].data = malloc(DIGEST_SLOT_BYTES);
			if (!d->slot[i].data) {
				free_slots(d);
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
		crypto_hash_sha256_update(&d->st, p, len);
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
	crypto_hash_sha256_final(&d->st, out);
	d->magic = 0;
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
	d->magic = 0;
}

void digest_buffer(const void *data, size_t len, unsigned char out[DIGEST_BYTES])
{
	crypto_hash_sha256(out, data, len);
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
