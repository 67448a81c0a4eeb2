/*
 * archive/scrub.h: checking the archive (verify) and repairing what can be
 * repaired without losing anything (gc).
 *
 * verify re-hashes stored files and re-verifies them as bundles, and
 * reports rows without files, files without rows, stray entries, size and
 * hash mismatches, and SQLite's integrity and foreign-key checks.  With
 * nslices > 1 it checks one of that many disjoint slices (by id), so a
 * nightly job covers everything over nslices nights.
 *
 * gc removes leftover temporary files, adopts files without rows that
 * verify as the bundle their name says (adding their rows), and moves
 * anything else under bundles/ to <archive>/lost/, deleting nothing but
 * temporary files.  Rows without files are reported, not removed
 * (`plumb archive rm ID` does that).
 *
 * Ownership: struct scrub_report is caller-owned storage; its lines are
 * malloc'd and freed by scrub_report_release().
 */
#ifndef PLUMB_ARCHIVE_SCRUB_H
#define PLUMB_ARCHIVE_SCRUB_H

#include <stddef.h>

#include "archive/store.h"

struct plumb_err;

struct scrub_report {
	char **lines;       /* what was found (verify) or done and found (gc), in order */
	size_t nlines;
	size_t nproblems;   /* lines that are problems still present */
	size_t nbundles;    /* bundle rows checked (verify) or adopted (gc) */
	size_t nfiles;      /* files looked at */
};

void scrub_report_init(struct scrub_report *rep);
void scrub_report_release(struct scrub_report *rep);

/*
 * Check slice number slice (1-based) of nslices (1, 1 for everything).
 * Problems go to rep; the return value is an error only when the check
 * itself could not run.
 */
int scrub_verify(struct store *st, unsigned slice, unsigned nslices,
		 struct scrub_report *rep, struct plumb_err *err);

/* Repair as described above; what was done and what is left go to rep. */
int scrub_gc(struct store *st, struct scrub_report *rep, struct plumb_err *err);

/* The slice (0-based, of nslices) an entry of bundles/ falls in. */
unsigned scrub_slice_of(const char *relpath, unsigned nslices);

#endif
