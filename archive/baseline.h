/*
 * archive/baseline.h: named baselines ("release-1.2", "nightly"): a name
 * pointing at one side of one archived bundle, what reports compare
 * against.  Setting an existing name moves it; a bundle that a baseline
 * names cannot be removed until the baseline is.
 *
 * Ownership: the strings and arrays of struct baseline_entries and struct
 * baseline_detail are theirs, freed by baseline_entries_release() and
 * baseline_detail_release().
 */
#ifndef PLUMB_ARCHIVE_BASELINE_H
#define PLUMB_ARCHIVE_BASELINE_H

/* The side file of every baseline, beside archive.db (see baseline.c). */
#define BASELINES_SIDE_FILE "baselines.tsv"
#define BASELINES_SIDE_HEADER "name\tbundle\tside\tnote"

#include "archive/query.h"
#include "archive/store.h"

struct plumb_err;

/* What baseline_set() did: the bundle and side named, and the bundle named before. */
struct baseline_change {
	char bundle[STORE_ID_LEN + 1];
	char side[10];
	char previous[STORE_ID_LEN + 1];   /* "" when the name is new */
};

/*
 * Point name at a bundle's side ("candidate" when side is NULL).  bundle is
 * an archived id or unique prefix, or the path of a bundle file, which is
 * added first.  *out (may be NULL) says what changed.
 */
int baseline_set(struct store *st, const char *name, const char *bundle,
		 const char *side, const char *note, struct baseline_change *out,
		 struct plumb_err *err);

/* One baseline; a string is NULL when unknown. */
struct baseline_entry {
	char *name, *bundle, *side;
	char *set_at;                  /* RFC 3339 */
	char *note;
	char *created;                 /* its bundle's creation, RFC 3339 */
	char *commit;                  /* the commit of the side it names */
};

/* Baselines, by name. */
struct baseline_entries {
	struct baseline_entry *v;
	size_t n;
};

/* Every baseline, by name, in *out (zeroed first). */
int baseline_list(struct store *st, struct baseline_entries *out, struct plumb_err *err);

void baseline_entries_release(struct baseline_entries *l);

/* One baseline and everything about its bundle. */
struct baseline_detail {
	struct baseline_entry entry;
	struct query_detail bundle;
};

/* One baseline with its bundle (as query_show gives it) in *out (zeroed first). */
int baseline_show(struct store *st, const char *name, struct baseline_detail *out,
		  struct plumb_err *err);

void baseline_detail_release(struct baseline_detail *d);

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
