/*
 * archive/transfer.c: `archive push` and `pull` (transfer.h): the list of
 * bundles from the source's index, a look-up by id in the destination's,
 * and store_add() for every bundle it does not hold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "archive/bundles.h"
#include "archive/query.h"
#include "archive/remote.h"
#include "archive/store.h"
#include "archive/transfer.h"
#include "common/err.h"
#include "common/banned.h"

const char *transfer_status_name(enum transfer_status s)
{
	switch (s) {
	case TRANSFER_SENT:
		return "sent";
	case TRANSFER_PRESENT:
		return "present";
	default:
		return "refused";
	}
}

/* Does to's index hold id, with its file in the store? */
static int holds(struct store *to, const char *id, int *found, struct plumb_err *err)
{
	struct db_stmt *s = store_prepare(to, "SELECT size FROM bundles WHERE id = ?1", err);
	int64_t size = -1;
	struct stat sb;
	char *path;
	int rc;

	*found = 0;
	if (!s)
		return err ? err->code : PLUMB_EINTERNAL;
	db_bind_text(s, 1, id);
	rc = db_step(s);
	if (rc == DB_ROW)
		size = db_column_int64(s, 0);
	db_finalize(s);
	if (rc != DB_ROW && rc != DB_DONE)
		return store_db_err(to, rc, "look up bundle", err);
	if (size < 0)
		return 0;
	/* A remote store is not asked per bundle (archive verify checks its files). */
	if (to->remote) {
		*found = 1;
		return 0;
	}
	/* A row whose file is missing or cut: store_add() restores the file. */
	if (!(path = store_bundle_path(to, id)))
		return plumb_err_oom(err, "bundle path");
	*found = stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == size;
	free(path);
	return 0;
}

/* Append id (and a refusal's reason) to the model's list for status. */
static int record(json_t *model, const char *id, enum transfer_status status,
		  const char *reason)
{
	json_t *list = json_object_get(model, transfer_status_name(status));
	json_t *v = status == TRANSFER_REFUSED
		? json_pack("{s:s, s:s}", "id", id, "reason", reason)
		: json_string(id);

	return v && json_array_append_new(list, v) == 0 ? 0 : -1;
}

int transfer_bundles(struct store *from, struct store *to,
		     const struct transfer_opts *o, json_t **out,
		     struct plumb_err *err)
{
	struct query_filter f;
	json_t *list = NULL, *model;
	size_t n, i;
	int r = 0, stop = 0;

	*out = NULL;
	memset(&f, 0, sizeof(f));
	f.host = o->host;
	f.since = o->since;
	model = json_pack("{s:[], s:[], s:[], s:b}", "sent", "present", "refused", "stopped", 0);
	if (!model)
		return plumb_err_oom(err, "transfer summary");
	if ((r = query_list(from, &f, &list, err)) < 0) {
		json_decref(model);
		return r;
	}
	n = json_array_size(list);
	/* query_list() gives the newest first: send the oldest first. */
	for (i = 0; i < n && !stop; i++) {
		const char *id = json_string_value(json_object_get(json_array_get(list, n - 1 - i), "id"));
		enum transfer_status status;
		struct plumb_err why;
		struct store_added added;
		char *path;
		int found;

		if (!id || !store_is_id(id)) {
			r = plumb_err_set(err, PLUMB_EINTERNAL, "%s: a bundle row without an id", from->dir);
			break;
		}
		if ((r = holds(to, id, &found, err)) < 0)
			break;
		plumb_err_clear(&why);
		if (found) {
			status = TRANSFER_PRESENT;
		} else {
			if ((r = store_fetch(from, id, &path, err)) < 0)
				break;
			r = store_add(to, path, &added, &why);
			if (from->remote)
				(void)unlink(path);
			free(path);
			if (r == PLUMB_EINPUT) {
				status = TRANSFER_REFUSED;
				r = 0;
			} else if (r < 0) {
				*err = why;
				break;
			} else if (strcmp(added.id, id) != 0) {
				/* The source's file is another bundle than its row says. */
				plumb_err_set(&why, PLUMB_EINPUT, "the file stored as %s is bundle %s",
					      id, added.id);
				status = TRANSFER_REFUSED;
			} else {
				status = added.status == STORE_PRESENT ? TRANSFER_PRESENT : TRANSFER_SENT;
			}
		}
		if (record(model, id, status, why.msg) < 0) {
			r = plumb_err_oom(err, "transfer summary");
			break;
		}
		if (o->progress)
			stop = o->progress(o->ctx, i + 1, n, id, status,
					   status == TRANSFER_REFUSED ? why.msg : NULL);
	}
	json_decref(list);
	if (r < 0 || stop)
		json_object_set_new(model, "stopped", json_true());
	*out = model;
	return r;
}
