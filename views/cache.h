/*
 * views/cache.h: what `plumb cache list` and `plumb cache prune` print: the
 * build cache's entries (key, what, sizes, when built and last used) as a
 * table or JSON, and what a prune removed.
 *
 * Ownership: text is appended to a caller-owned struct buf; the JSON is
 * new and the caller json_decref()s it.
 */
#ifndef PLUMB_VIEWS_CACHE_H
#define PLUMB_VIEWS_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct buf;
struct buildcache;
struct buildcache_meta;

int cacheview_list_text(const struct buildcache *bc, const struct buildcache_meta *v, size_t n,
			struct buf *out);
json_t *cacheview_list_json(const struct buildcache *bc, const struct buildcache_meta *v, size_t n);

/* {"cache", "removed", "freedBytes", "left", "leftBytes"}; NULL when memory runs out. */
json_t *cacheview_prune_json(const struct buildcache *bc, size_t removed, uint64_t freed,
			     size_t left, uint64_t left_bytes);

int cacheview_prune_text(const struct buildcache *bc, size_t removed, uint64_t freed,
			 size_t left, uint64_t left_bytes, struct buf *out);

#endif
