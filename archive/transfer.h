/*
 * archive/transfer.h: bundles from one archive to another, for `plumb
 * archive push` (this host's archive to the shared one) and `pull` (the
 * reverse).
 *
 * A bundle goes across by id: one the destination's index already holds
 * is "present" and not read at all; any other goes through store_add() on
 * the destination, which verifies it completely (every member and
 * checksum, and the consistency check of formats/bundle-check.c that
 * `archive add` runs) before the file is published and the row
 * committed.  So a transfer is idempotent, and one killed at any point
 * and run again completes it: what was committed is present, what was not
 * is sent again, and a file published without its row is adopted by the
 * same add (or by `archive gc`).  A bundle that does not verify is
 * "refused" with the reason, never indexed, and the transfer goes on with
 * the rest; so is a file that holds another bundle than its id (checked
 * before anything is indexed), one that is not a regular file (a FIFO in
 * the store is never opened for reading), one a remote store cannot give,
 * and a row whose id is malformed.  Any other failure (I/O, rclone not
 * running, a lock held too long, a damaged index) stops it.
 *
 * Ownership: the json_t result belongs to the caller; the options only
 * borrow their strings.
 */
#ifndef PLUMB_ARCHIVE_TRANSFER_H
#define PLUMB_ARCHIVE_TRANSFER_H

#include <stddef.h>

#include <jansson.h>

#include "archive/store.h"

struct plumb_err;

enum transfer_status {
	TRANSFER_SENT,      /* verified and added to the destination */
	TRANSFER_PRESENT,   /* the destination held it already */
	TRANSFER_REFUSED    /* did not verify: not indexed (reason given) */
};

/*
 * Called after each bundle: its place (1-based) among n, its id, what
 * happened, and for a refusal the reason.  A nonzero return stops the
 * transfer after that bundle (a signal arrived).
 */
typedef int (*transfer_progress_fn)(void *ctx, size_t i, size_t n, const char *id,
				    enum transfer_status status, const char *reason);

struct transfer_opts {
	const char *host;    /* only bundles of this host fingerprint (or prefix), or NULL */
	const char *since;   /* only bundles created at or after this date, or NULL */
	transfer_progress_fn progress;  /* or NULL */
	void *ctx;
};

/* The word of a status in lines and JSON: "sent", "present", "refused". */
const char *transfer_status_name(enum transfer_status s);

/*
 * Send every bundle of from (matching o's filters) that to does not hold.
 * *out receives {sent: [ID...], present: [ID...], refused: [{id, reason}],
 * stopped: bool}, also when a failure stopped the transfer part way (then
 * the return is that failure's code).  Returns 0 even when some bundles
 * were refused: the caller decides the exit status from the model.
 */
int transfer_bundles(struct store *from, struct store *to,
		     const struct transfer_opts *o, json_t **out,
		     struct plumb_err *err);

#endif
