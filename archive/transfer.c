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

/*
 * Fetch bundle id from from and add it to to, as that id and nothing else.
 * *status is what became of it; a bundle that is not whole, not there or
 * not that id is TRANSFER_REFUSED with why (0 returned); a failure that
 * stops the transfer (I/O, the lock, a damaged index) is returned.
 */
static int send_one(struct store *from, struct store *to, const char *id,
		    enum transfer_status *status, struct plumb_err *why)
{
	struct store_add_opts ao;
	struct store_added added;
	char *path = NULL, *name = NULL;
	int r;

	*status = TRANSFER_REFUSED;
	if ((r = store_fetch(from, id, &path, &name, why)) == 0) {
		memset(&ao, 0, sizeof(ao));
		ao.name = name;
		ao.expect_id = id;
		ao.nofollow = !from->remote;
		r = store_add_with(to, path, &ao, &added, why);
		if (from->remote)
			(void)unlink(path);
		if (r == 0)
			*status = added.status == STORE_PRESENT ? TRANSFER_PRESENT : TRANSFER_SENT;
	}
	free(path);
	free(name);
	/* Bad input is this bundle's, unless an index answered that it is damaged. */
	return r == PLUMB_EINPUT && !from->damaged && !to->damaged ? 0 : r;
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
	struct query_summaries list;
	json_t *model;
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
	n = list.n;
	/* query_list() gives the newest first: send the oldest first. */
	for (i = 0; i < n && !stop; i++) {
		const char *id = list.v[n - 1 - i].id;
		enum transfer_status status = TRANSFER_REFUSED;
		struct plumb_err why;
		int found;

		plumb_err_clear(&why);
		if (!id || !store_is_id(id)) {
			/* A damaged or hostile row: refused by name, the others go on. */
			plumb_err_set(&why, PLUMB_EINPUT, "%s: the bundle row of id '%.80s' is malformed "
				      "(an id is 64 lower-case hex digits)", from->db_path, id ? id : "");
			id = id ? id : "";
		} else if ((r = holds(to, id, &found, err)) < 0) {
			break;
		} else if (found) {
			status = TRANSFER_PRESENT;
		} else if ((r = send_one(from, to, id, &status, &why)) < 0) {
			*err = why;
			break;
		}
		if (record(model, id, status, why.msg) < 0) {
			r = plumb_err_oom(err, "transfer summary");
			break;
		}
		if (o->progress)
			stop = o->progress(o->ctx, i + 1, n, id, status,
					   status == TRANSFER_REFUSED ? why.msg : NULL);
	}
	query_summaries_release(&list);
	if (r < 0 || stop)
		json_object_set_new(model, "stopped", json_true());
	*out = model;
	return r;
}
