/*
 * views/bundle.h: the views of a verified bundle (formats/bundle.h): the
 * summary of `plumb bundle show` as text or JSON, and the signature line
 * of show and verify.
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

#endif
