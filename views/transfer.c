/*
 * views/transfer.c: push and pull lines (transfer.h).  A refusal's reason
 * may quote a member name or text from a bundle: it is escaped.
 */
#include <stdio.h>

#include <jansson.h>

#include "views/transfer.h"
#include "common/escape.h"
#include "common/banned.h"

void view_transfer_progress(FILE *out, const char *verb, size_t i, size_t n, const char *id,
			    enum transfer_status status, const char *reason)
{
	fprintf(out, "%s: %zu/%zu ", verb, i, n);
	(void)esc_fputs(out, id, 0);
	fprintf(out, " %s", transfer_status_name(status));
	if (reason) {
		fputs(": ", out);
		(void)esc_fputs(out, reason, 0);
	}
	fputc('\n', out);
	fflush(out);
}

void view_transfer(const json_t *model, const char *verb, const char *where, FILE *out)
{
	fprintf(out, "%s ", verb);
	(void)esc_fputs(out, where, 0);
	fprintf(out, ": %zu sent, %zu already there, %zu refused%s\n",
		json_array_size(json_object_get(model, "sent")),
		json_array_size(json_object_get(model, "present")),
		json_array_size(json_object_get(model, "refused")),
		json_is_true(json_object_get(model, "stopped")) ? " (stopped before the end)" : "");
}

void view_transfer_refused(const json_t *model, const char *lead, FILE *out)
{
	const json_t *list = json_object_get(model, "refused");
	size_t i;
	json_t *e;

	if (json_array_size(list) == 0)
		return;
	fputs(lead, out);
	json_array_foreach(list, i, e) {
		fputc(' ', out);
		(void)esc_fputs(out, json_string_value(json_object_get(e, "id")), 0);
	}
	fputc('\n', out);
}
