/*
 * formats/import-hyperfine.c: hyperfine's --export-json (docs/import.md).
 *
 * {"results": [{"command", "mean", "stddev", "median", "user", "system",
 * "min", "max", "times": [s...], "exit_codes": [int|null...],
 * "parameters": {...}}]}: one entry per command; each element of times
 * (seconds) is one run, so one round of the wall metric.  hyperfine keeps
 * user and system only as means, so no per-run CPU series exists.
 * hyperfine records no version and no host facts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "formats/import-internal.h"
#include "common/banned.h"

static int read_result(struct import_walk *w, const json_t *r)
{
	const json_t *times, *codes = NULL, *params = NULL;
	struct import_elem v;
	const char *command;
	struct import_entry *e;
	struct import_series *s;
	size_t i, old, nonzero = 0, signalled = 0;
	char first[200] = "";
	int rc;

	if (!json_is_object(r))
		return import_fail(w, "expected object");
	if ((rc = import_string(w, r, "command", 1, &command)) < 0 ||
	    (rc = import_array(w, r, "times", 1, &times)) < 0 ||
	    (rc = import_array(w, r, "exit_codes", 0, &codes)) < 0 ||
	    (rc = import_object(w, r, "parameters", 0, &params)) < 0)
		return rc;
	if (import_size(w, times) == 0) {
		old = jsonio_path_key(&w->path, "times");
		rc = import_fail(w, "no runs");
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	if (codes && import_size(w, codes) != import_size(w, times)) {
		old = jsonio_path_key(&w->path, "exit_codes");
		rc = import_fail(w, "%zu exit codes for %zu times", import_size(w, codes),
				 import_size(w, times));
		jsonio_path_restore(&w->path, old);
		return rc;
	}
	if (!(e = import_entry_add(w, command)))
		return PLUMB_EINPUT;
	if (!(e->command = strdup(command)))
		return plumb_err_oom(w->err, "import");
	if (!(s = import_series_of(w, e, METRIC_WALL)))
		return PLUMB_EINTERNAL;
	old = jsonio_path_key(&w->path, "times");
	for (i = 0; i < import_size(w, times); i++) {
		size_t o2 = jsonio_path_index(&w->path, i);
		import_elem(w, times, i, &v);
		if (v.kind != IMPORT_ELEM_INTEGER && v.kind != IMPORT_ELEM_REAL)
			rc = import_fail(w, "expected number");
		else
			rc = import_value(w, s, (uint32_t)(i + 1), v.number * 1e9);
		jsonio_path_restore(&w->path, o2);
		if (rc < 0)
			return rc;
	}
	jsonio_path_restore(&w->path, old);
	old = jsonio_path_key(&w->path, "exit_codes");
	for (i = 0; codes && i < import_size(w, codes); i++) {
		import_elem(w, codes, i, &v);
		if (v.kind == IMPORT_ELEM_NULL) {
			signalled++;
			continue;
		}
		if (v.kind != IMPORT_ELEM_INTEGER) {
			size_t o2 = jsonio_path_index(&w->path, i);
			rc = import_fail(w, "expected integer or null");
			jsonio_path_restore(&w->path, o2);
			return rc;
		}
		if (v.integer != 0 && nonzero++ == 0)
			snprintf(first, sizeof(first), "run %zu exited with %" JSON_INTEGER_FORMAT,
				 i + 1, v.integer);
	}
	jsonio_path_restore(&w->path, old);
	if (nonzero && (rc = import_line(w, &e->notes, &e->n_notes,
					  "hyperfine: %zu of %zu runs exited non-zero (%s); their "
					  "times are kept, as hyperfine -i kept them", nonzero,
					  import_size(w, times), first)) < 0)
		return rc;
	if (signalled && (rc = import_line(w, &e->notes, &e->n_notes,
					    "hyperfine: %zu of %zu runs were ended by a signal "
					    "(exit code null)", signalled, import_size(w, times))) < 0)
		return rc;
	if (params && json_object_size(params)) {
		const char *k;
		json_t *pv;
		char text[600];
		size_t len = 0;
		json_object_foreach((json_t *)params, k, pv) {
			const char *val = json_is_string(pv) ? json_string_value(pv) : "?";
			int n = snprintf(text + len, sizeof(text) - len, "%s%s=%s", len ? ", " : "", k, val);
			if (n < 0 || (size_t)n >= sizeof(text) - len)
				break;
			len += (size_t)n;
		}
		if ((rc = import_line(w, &e->notes, &e->n_notes, "hyperfine parameters: %s", text)) < 0)
			return rc;
	}
	return 0;
}

static const char *const packed[] = { "results[*].times", "results[*].exit_codes", NULL };

const struct import_reader import_hyperfine = {
	.array = "results",
	.packed = packed,
	.element = read_result,
};
