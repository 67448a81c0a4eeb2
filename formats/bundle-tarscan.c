/*
 * formats/bundle-tarscan.c: a second look at every tar header, from the
 * raw bytes, before libarchive reads them.
 *
 * Why: libarchive's tar reader is lenient where the specification is not.
 * It reads an unknown entry type ('Z', NUL) as a regular file, skips a GNU
 * volume header ('V'), reads a GNU sparse entry ('S') with an empty map as
 * a plain file, and cuts a pax path record at a NUL byte; none of that is
 * visible in the archive_entry it returns.  So the reader's source hands
 * every decompressed chunk to this scanner too, which follows the stream
 * header by header (it skips the data, so it costs nothing per byte) and
 * refuses what formats/bundle-v1.md (4.2) does not list: entry types other
 * than '0', '5', 'x' and GNU 'L', a NUL inside any name, and pax records
 * that the format does not use.
 */
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "formats/bundle-internal.h"
#include "common/banned.h"

#define BLOCK 512u

/* What the scanner is reading. */
enum { S_HEADER, S_DATA, S_DONE };

/* The type's description for a message, or NULL for an accepted type. */
static const char *type_problem(unsigned char t)
{
	switch (t) {
	case '0':
	case '5':
	case 'x':
	case 'L':
		return NULL;
	case '1': return "hard link (links are not allowed in a bundle)";
	case '2': return "symbolic link (links are not allowed in a bundle)";
	case '3': return "character device (only files and folders are allowed)";
	case '4': return "block device (only files and folders are allowed)";
	case '6': return "FIFO (only files and folders are allowed)";
	case 'S': return "GNU sparse file (not allowed in a bundle)";
	case 'V': return "GNU volume header (only files and folders are allowed)";
	case 'g': return "pax global header (not allowed in a bundle)";
	default: return NULL;
	}
}

/* Store the scanner's error; the name is a header field (len bytes at most). */
static int scan_fail(struct bundle_tarscan *s, const char *name, size_t len,
		     const char *fmt, const char *what)
{
	char q[400];
	char msg[PLUMB_ERR_MAX];

	snprintf(msg, sizeof(msg), fmt, what);
	plumb_err_set(&s->err, PLUMB_EINPUT, "%s: member '%s': %s", s->bundle,
		      bundle_quote(q, sizeof(q), name, strnlen(name, len)), msg);
	s->failed = 1;
	return -1;
}

/* A tar number field: octal (NUL or space ended) or GNU base-256; -1 when bad. */
static int64_t tar_number(const unsigned char *p, size_t n)
{
	uint64_t v = 0;
	size_t i = 0;

	if (p[0] & 0x80) {
		if (p[0] != 0x80)
			return -1;   /* negative or wider than 63 bits */
		for (i = 1; i < n; i++) {
			if (v >> 55)
				return -1;
			v = (v << 8) | p[i];
		}
		return (int64_t)v;
	}
	while (i < n && p[i] == ' ')
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = (v << 3) | (uint64_t)(p[i] - '0');
	}
	for (; i < n; i++)
		if (p[i] != ' ' && p[i] != '\0')
			return -1;
	return (int64_t)v;
}

/* Does a NUL-padded field hold a byte other than NUL after its first NUL? */
static int nul_inside(const unsigned char *p, size_t n)
{
	const unsigned char *z = memchr(p, 0, n);

	if (!z)
		return 0;
	for (z++; z < p + n; z++)
		if (*z)
			return 1;
	return 0;
}

/*
 * Check the pax records of an 'x' header ("LEN key=value\n" each): no NUL
 * anywhere, no GNU sparse keys; remember a size record for the entry that
 * follows.
 */
static int pax_records(struct bundle_tarscan *s)
{
	const char *p = (const char *)s->ext, *end = p + s->ext_len;
	const char *path = "";
	size_t path_len = 0;

	while (p < end) {
		const char *sp, *eq, *rec_end;
		size_t reclen = 0;
		for (sp = p; sp < end && *sp >= '0' && *sp <= '9' && reclen < BUNDLE_TARSCAN_EXT_MAX; sp++)
			reclen = reclen * 10 + (size_t)(*sp - '0');
		if (sp == p || sp >= end || *sp != ' ' || reclen > (size_t)(end - p) ||
		    reclen < (size_t)(sp - p) + 3)
			return scan_fail(s, path, path_len, "%s", "a malformed pax extended header");
		rec_end = p + reclen;
		if (rec_end[-1] != '\n')
			return scan_fail(s, path, path_len, "%s", "a malformed pax extended header");
		eq = memchr(sp + 1, '=', (size_t)(rec_end - sp - 1));
		if (!eq)
			return scan_fail(s, path, path_len, "%s", "a malformed pax extended header");
		if ((size_t)(eq - sp - 1) == 4 && memcmp(sp + 1, "path", 4) == 0) {
			path = eq + 1;
			path_len = (size_t)(rec_end - 1 - path);
		}
		if (memchr(sp + 1, '\0', (size_t)(rec_end - sp - 1))) {
			int is_path = (size_t)(eq - sp - 1) == 4 && memcmp(sp + 1, "path", 4) == 0;
			return scan_fail(s, is_path ? path : "", is_path ? path_len : 0, "%s",
					 is_path ? "a NUL byte in its name (pax path record)"
						 : "a NUL byte in a pax extended header record");
		}
		if ((size_t)(eq - sp - 1) > 11 && memcmp(sp + 1, "GNU.sparse.", 11) == 0)
			return scan_fail(s, path, path_len, "%s", "GNU sparse file (not allowed in a bundle)");
		if ((size_t)(eq - sp - 1) == 4 && memcmp(sp + 1, "size", 4) == 0) {
			uint64_t v = 0;
			const char *d = eq + 1;
			if (d == rec_end - 1)
				return scan_fail(s, path, path_len, "%s", "a malformed pax size record");
			for (; d < rec_end - 1; d++) {
				if (*d < '0' || *d > '9' || v > (UINT64_MAX - 9) / 10)
					return scan_fail(s, path, path_len, "%s", "a malformed pax size record");
				v = v * 10 + (uint64_t)(*d - '0');
			}
			s->next_size = (int64_t)v;
		}
		p = rec_end;
	}
	return 0;
}

/* The header in s->hdr is complete: check it and set up its data. */
static int header(struct bundle_tarscan *s)
{
	const unsigned char *h = s->hdr;
	const char *name = (const char *)h;
	unsigned char t = h[156];
	const char *why;
	int64_t size;
	int is_ext;

	if (h[0] == 0) {
		for (size_t i = 0; i < BLOCK; i++)
			if (h[i])
				goto not_end;
		s->state = S_DONE;   /* the end-of-archive block: libarchive checks the rest */
		return 0;
	}
not_end:
	if (s->ext_kind == 'L')
		name = (const char *)s->ext;   /* the GNU long name, NUL-checked below */
	if (t == '\0')
		return scan_fail(s, name, BLOCK, "%s", "tar entry type NUL (an old-style file; "
				 "only types '0' and '5' are allowed)");
	why = type_problem(t);
	if (!why && !(t == '0' || t == '5' || t == 'x' || t == 'L')) {
		char what[80];
		snprintf(what, sizeof(what), (t > ' ' && t < 0x7f) ? "tar entry type '%c'"
			 : "tar entry type 0x%02x", t);
		return scan_fail(s, name, BLOCK, "%s (only types '0' and '5' are allowed)", what);
	}
	if (why)
		return scan_fail(s, name, BLOCK, "%s", why);
	if (nul_inside(h, 100) || nul_inside(h + 345, 155) || nul_inside(h + 157, 100))
		return scan_fail(s, name, 100, "%s", "a NUL byte inside its name");
	size = tar_number(h + 124, 12);
	if (size < 0)
		return scan_fail(s, name, 100, "%s", "a malformed size field");
	is_ext = t == 'x' || t == 'L';
	if (is_ext && s->ext_kind)
		return scan_fail(s, name, 100, "%s", "two extended headers for one entry");
	if (!is_ext && s->next_size >= 0)
		size = s->next_size;
	s->next_size = -1;
	if (!is_ext)
		s->ext_kind = 0;
	s->cur_kind = is_ext ? t : 0;
	if (is_ext && (uint64_t)size > BUNDLE_TARSCAN_EXT_MAX)
		return scan_fail(s, name, 100, "%s", "an extended header larger than 64 KiB");
	s->ext_len = 0;
	s->remaining = (uint64_t)size;
	s->padding = (BLOCK - (uint64_t)size % BLOCK) % BLOCK;
	s->state = S_DATA;
	return 0;
}

/* An extended header's data is complete. */
static int ext_done(struct bundle_tarscan *s)
{
	if (s->cur_kind == 'x' && pax_records(s) < 0)
		return -1;
	if (s->cur_kind == 'L') {
		/* The long name, then NUL padding only. */
		if (nul_inside(s->ext, s->ext_len) || s->ext_len == 0)
			return scan_fail(s, (const char *)s->ext, s->ext_len, "%s",
					 "a NUL byte inside its name (GNU long name)");
		if (s->ext[s->ext_len - 1] != 0) {
			if (s->ext_len >= sizeof(s->ext))
				return scan_fail(s, (const char *)s->ext, s->ext_len, "%s",
						 "a GNU long name too long");
			s->ext[s->ext_len] = 0;
		}
	}
	s->ext_kind = s->cur_kind;
	return 0;
}

void bundle_tarscan_init(struct bundle_tarscan *s, const char *bundle)
{
	memset(s, 0, sizeof(*s));
	s->bundle = bundle;
	s->next_size = -1;
	s->state = S_HEADER;
}

int bundle_tarscan_feed(struct bundle_tarscan *s, const unsigned char *p, size_t len)
{
	size_t off = 0;

	if (s->failed)
		return -1;
	while (off < len && s->state != S_DONE) {
		if (s->state == S_HEADER) {
			size_t n = BLOCK - s->hdr_fill;
			if (n > len - off)
				n = len - off;
			memcpy(s->hdr + s->hdr_fill, p + off, n);
			s->hdr_fill += n;
			off += n;
			if (s->hdr_fill == BLOCK) {
				s->hdr_fill = 0;
				if (header(s) < 0)
					return -1;
				if (s->state == S_DATA && s->remaining == 0 && s->padding == 0) {
					if (s->cur_kind && ext_done(s) < 0)
						return -1;
					s->state = S_HEADER;
				}
			}
			continue;
		}
		/* S_DATA: the entry's data (kept for extended headers), then padding. */
		if (s->remaining) {
			size_t n = s->remaining < len - off ? (size_t)s->remaining : len - off;
			if (s->cur_kind) {
				memcpy(s->ext + s->ext_len, p + off, n);
				s->ext_len += n;
			}
			s->remaining -= n;
			off += n;
			if (s->remaining == 0 && s->cur_kind && ext_done(s) < 0)
				return -1;
		} else {
			size_t n = s->padding < len - off ? (size_t)s->padding : len - off;
			s->padding -= n;
			off += n;
		}
		if (s->remaining == 0 && s->padding == 0)
			s->state = S_HEADER;
	}
	return 0;
}
