/*
 * views/import.c: the text of `plumb import`; see views/import.h.
 */
#include <stdio.h>

#include "common/buf.h"
#include "common/escape.h"
#include "formats/import.h"
#include "views/import.h"
#include "common/banned.h"

static int line(struct buf *out, const char *what, const char *text)
{
	return buf_printf(out, "plumb import: %s: ", what) | esc_text(out, text) |
	       buf_addch(out, '\n');
}

int view_import_warnings(const struct import_file *files, size_t n, struct buf *out)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < files[i].n_warnings; k++)
			rc |= line(out, "warning", files[i].warnings[k]);
	return rc ? -1 : 0;
}

int view_import_skipped(const struct import_result *res, struct buf *out)
{
	int rc = 0;

	for (size_t i = 0; i < res->n_skipped; i++)
		rc |= line(out, "left out", res->skipped[i]);
	return rc ? -1 : 0;
}

json_t *view_import_done_json(const char *out_path, const struct import_result *res,
			     const char *tool, int is_signed)
{
	json_t *skipped = json_array();
	json_t *j;

	for (size_t i = 0; skipped && i < res->n_skipped; i++)
		if (json_array_append_new(skipped, json_string(res->skipped[i])) < 0) {
			json_decref(skipped);
			return NULL;
		}
	if (!skipped)
		return NULL;
	j = json_pack("{s:s, s:s, s:I, s:s, s:b, s:o}", "bundle", out_path, "id", res->id,
		      "benches", (json_int_t)res->n_benches, "tool", tool, "signed", is_signed,
		      "leftOut", skipped);
	return j;
}

int view_import_done(const char *out_path, const struct import_result *res,
		     const char *tool, int is_signed, struct buf *out)
{
	int rc = esc_text(out, out_path);

	rc |= buf_printf(out, ": bundle %s, %zu benchmark%s imported from %s%s\n", res->id,
			 res->n_benches, res->n_benches == 1 ? "" : "s", tool,
			 is_signed ? " (signed)" : "");
	return rc ? -1 : 0;
}
