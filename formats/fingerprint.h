/*
 * formats/fingerprint.h: the host comparability fingerprint (DESIGN §8,
 * docs/host-facts.md "The fingerprint") computed from host facts as a
 * manifest holds them (host.start, host.end).  It lives in formats/ so
 * that the runner, which records it, and the bundle consistency check,
 * which recomputes it, use the one recipe.
 *
 * Ownership: the facts are borrowed; the text is appended to the caller's
 * buffer, the fingerprint written into the caller's array.
 */
#ifndef PLUMB_FORMATS_FINGERPRINT_H
#define PLUMB_FORMATS_FINGERPRINT_H

#include <jansson.h>

struct buf;

#define FINGERPRINT_HEX 17    /* 16 lower-case hex digits and a NUL */

/*
 * The canonical text the fingerprint hashes: one "key=value" line per
 * fact that decides comparability, unknown (absent, null or of another
 * type) as "null".  Appended to out; 0, or -1 when out is full.
 */
int fingerprint_input(const json_t *facts, struct buf *out);

/* The first 16 hex digits of the SHA-256 of that text; -1 on a full buffer. */
int fingerprint_of(const json_t *facts, char out[FINGERPRINT_HEX]);

/*
 * Whether facts is an object written by plumb's host module (it carries
 * the facts' integer "version"): only those are recomputed by the
 * consistency check, since results imported from other tools record
 * facts of their own shape.
 */
int fingerprint_checkable(const json_t *facts);

#endif
