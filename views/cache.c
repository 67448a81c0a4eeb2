/*
 * views/cache.c: the build cache's listing and prune summary; see cache.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/units.h"
#include "runner/buildcache.h"
#include "views/cache.h"
#include "common/banned.h"

static void stamp(int64_t t, char *out, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0 || !gmtime_r(&tt, &tm))
		snprintf(out, size, "-");
	else
		strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void bytes_text(uint64_t b, char out[UNITS_MAX])
{
	units_kib((long long)((b + 1023) / 1024), out);
}

int cacheview_list_text(const struct buildcache *bc, const struct buildcache_meta *v, size_t n,
			struct buf *out)
{
	static const size_t list_min[6] = { 12, 20, 20, 10, 8, 0 };
	struct buf raw;
	struct table t;
	uint64_t total = 0;
	char used[32], made[32], size[UNITS_MAX], all[UNITS_MAX], limit[UNITS_MAX];
	int r = 0;

	buf_init(&raw, out->max);
	for (size_t i = 0; i < n; i++)
		total += v[i].bytes;
	bytes_text(total, all);
	bytes_text(bc->limit, limit);
	r |= buf_printf(&raw, "build cache %s: %zu entr%s, %s", bc->dir, n, n == 1 ? "y" : "ies", all);
	r |= bc->limit ? buf_printf(&raw, " of %s\n", limit) : buf_addstr(&raw, "\n");
	if (r == 0 && esc_text_lines(out, buf_cstr(&raw)) < 0)
		r = -1;
	buf_release(&raw);
	table_init(&t, 6, "lllrrl");
	t.min = list_min;
	if (n)
		table_row(&t, "key", "last used", "built", "size", "build", "what");
	for (size_t i = 0; i < n; i++) {
		char key[13], took[UNITS_MAX];
		snprintf(key, sizeof(key), "%.12s", v[i].key);   /* its first 12 digits name it */
		stamp(v[i].used, used, sizeof(used));
		stamp(v[i].created, made, sizeof(made));
		bytes_text(v[i].bytes, size);
		units_seconds((double)v[i].build_ns / 1e9, took);
		table_cell(&t, key);
		table_cell(&t, used);
		table_cell(&t, made);
		table_cell(&t, size);
		table_cell(&t, took);
		table_cellf(&t, "%s%s", v[i].what, v[i].whole ? "" : " (artifact)");
		table_end_row(&t, NULL);
	}
	if (r == 0 && table_render(&t, out) < 0)
		r = -1;
	table_release(&t);
	return r ? -1 : 0;
}

json_t *cacheview_list_json(const struct buildcache *bc, const struct buildcache_meta *v, size_t n)
{
	json_t *root = json_pack("{s:s, s:I, s:[]}", "folder", bc->dir, "limit", (json_int_t)bc->limit,
				 "entries");
	json_t *arr = root ? json_object_get(root, "entries") : NULL;

	if (!arr)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		char used[32], made[32];
		json_t *o;
		stamp(v[i].used, used, sizeof(used));
		stamp(v[i].created, made, sizeof(made));
		o = json_pack("{s:s, s:s, s:s, s:I, s:I, s:f, s:s, s:s, s:b}", "key", v[i].key,
			      "what", v[i].what, "sha256", v[i].sha256, "size", (json_int_t)v[i].size,
			      "bytes", (json_int_t)v[i].bytes, "build_seconds", (double)v[i].build_ns / 1e9,
			      "built", made, "used", used, "whole", v[i].whole);
		if (!o || json_array_append_new(arr, o) < 0)
			goto fail;
	}
	return root;
fail:
	json_decref(root);
	return NULL;
}

json_t *cacheview_prune_json(const struct buildcache *bc, size_t removed, uint64_t freed,
			     size_t left, uint64_t left_bytes)
{
	return json_pack("{s:s, s:I, s:I, s:I, s:I}", "cache", bc->dir,
			 "removed", (json_int_t)removed, "freedBytes", (json_int_t)freed,
			 "left", (json_int_t)left, "leftBytes", (json_int_t)left_bytes);
}

int cacheview_prune_text(const struct buildcache *bc, size_t removed, uint64_t freed,
			 size_t left, uint64_t left_bytes, struct buf *out)
{
	char f[UNITS_MAX], l[UNITS_MAX];
	struct buf raw;
	int r;

	bytes_text(freed, f);
	bytes_text(left_bytes, l);
	buf_init(&raw, out->max);
	r = buf_printf(&raw, "build cache %s: removed %zu entr%s (%s); %zu left (%s)\n", bc->dir,
		       removed, removed == 1 ? "y" : "ies", f, left, l);
	if (r == 0 && esc_text_lines(out, buf_cstr(&raw)) < 0)
		r = -1;
	buf_release(&raw);
	return r < 0 ? -1 : 0;
}
