/*
 * views/bundle.h: the views of a verified bundle (formats/bundle.h): the
 * summary of `plumb bundle show` as text or JSON, the signature line
 * of show and verify, and what pack, verify, extract, keygen and sign print.
 *
 * Ownership: the bundle_info is borrowed; text is appended to the caller's
 * struct buf or written into its array.
 */
#ifndef PLUMB_VIEWS_BUNDLE_H
#define PLUMB_VIEWS_BUNDLE_H

#include <stddef.h>

struct buf;
struct bundle_info;
struct plumb_err;

/* "good, key K", "present (key K), not checked: ...", or "none", into out. */
const char *view_bundle_sig(const struct bundle_info *info, char *out, size_t size);

/* Id, commits, host, schedule, signature, then one line per benchmark. */
int view_bundle_text(const char *path, const struct bundle_info *info, struct buf *out,
		     struct plumb_err *err);

/* One JSON object: id, sizes, samples, signature, members and the whole manifest. */
int view_bundle_json(const char *path, const struct bundle_info *info, struct buf *out,
		     struct plumb_err *err);

/*
 * The one-paragraph results of pack, verify, extract, keygen and sign, as
 * the commands print them; paths are escaped as the bundle's strings are.
 * Each returns 0, or -1 when out could not grow.
 */
int view_bundle_packed(struct buf *out, const char *path, const char *id, int sign);
int view_bundle_verified(struct buf *out, const char *path, const struct bundle_info *info);
int view_bundle_extracted(struct buf *out, const char *path, const struct bundle_info *info,
			  const char *dir);
int view_bundle_keygen(struct buf *out, const char *name, const char *keyid);
int view_bundle_signed(struct buf *out, const char *path, const struct bundle_info *info);

#endif
