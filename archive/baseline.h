/*
 * archive/baseline.h: named baselines ("release-1.2", "nightly"): a name
 * pointing at one side of one archived bundle, what reports compare
 * against.  Setting an existing name moves it; a bundle that a baseline
 * names cannot be removed until the baseline is.
 *
 * Ownership: a json_t returned through *out belongs to the caller.
 */
#ifndef PLUMB_ARCHIVE_BASELINE_H
#define PLUMB_ARCHIVE_BASELINE_H

/* The side file of every baseline, beside archive.db (see baseline.c). */
#define BASELINES_SIDE_FILE "baselines.tsv"
#define BASELINES_SIDE_HEADER "name\tbundle\tside\tnote"

#include <jansson.h>

#include "archive/store.h"

struct plumb_err;

/*
 * Point name at a bundle's side ("candidate" when side is NULL).  bundle is
 * an archived id or unique prefix, or the path of a bundle file, which is
 * added first.  *out (may be NULL) receives {"name", "bundle", "side",
 * "previous": id or null}.
 */
int baseline_set(struct store *st, const char *name, const char *bundle,
		 const char *side, const char *note, json_t **out,
		 struct plumb_err *err);

/* Every baseline, by name: a JSON array. */
int baseline_list(struct store *st, json_t **out, struct plumb_err *err);

/* One baseline with its bundle (as query_show gives it): a JSON object. */
int baseline_show(struct store *st, const char *name, json_t **out,
		  struct plumb_err *err);

/* Delete a baseline (not the bundle). */
int baseline_rm(struct store *st, const char *name, struct plumb_err *err);

/*
 * The bundle id (65 bytes) and side (10 bytes) a baseline names; unknown
 * is PLUMB_EINPUT.  For `plumb report --baseline NAME`.
 */
int baseline_get(struct store *st, const char *name, char *id, char *side,
		 struct plumb_err *err);

/*
 * `plumb archive reindex`: rebuild archive.db in dir from the stored
 * bundle files and baselines.tsv.  The old archive.db (and its -wal) is
 * kept as archive.db.damaged; every file under bundles/ that verifies is
 * indexed again (as gc adopts), then every baseline of the side file is
 * set again.  *nbundles and *nbaselines say how many; a baseline whose
 * bundle is not there any more is reported in the error (PLUMB_EINPUT)
 * after all the others were restored.
 */
int baseline_reindex(const char *dir, size_t *nbundles, size_t *nbaselines,
		     struct plumb_err *err);

#endif
