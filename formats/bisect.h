/*
 * formats/bisect.h: the record of one `plumb bisect` (DESIGN §12), as the
 * runner fills it step by step and the reports read it: the commits from
 * the good end to the bad end, every comparison made (which two commits,
 * the range before it, the verdict, each side's center and range, the
 * bundle written, the builds it cost) and how it ended.  Its JSON form is
 * reports/bisect.c's, laid out in docs/bisect-json.md.
 *
 * Commit indexes count from the good end (0) to the bad end (ncommits - 1)
 * along the bad end's first parents, so commit i's parent is i - 1.
 *
 * Ownership: struct bisect_record is caller-owned storage; bisect_record_init()
 * sets it up empty, the add functions append heap copies, and
 * bisect_record_release() frees everything it points to.
 */
#ifndef PLUMB_FORMATS_BISECT_H
#define PLUMB_FORMATS_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include "formats/manifest.h"

/* What one comparison compares (the base first). */
enum bisect_kind {
	BISECT_CHECK,      /* the good end against the bad end: must be slower */
	BISECT_STEP,       /* the good end against the midpoint */
	BISECT_AGAINST_BAD,/* an undecided midpoint against the bad end */
	BISECT_CONFIRM     /* the culprit's parent against the culprit */
};

/* What a comparison says for the narrowing. */
enum bisect_call {
	BISECT_CALL_SLOWER,     /* the candidate is slower than the base */
	BISECT_CALL_SAME,       /* placement, faster, or identical hot code: not slower */
	BISECT_CALL_UNDECIDED   /* noisy, unswept, too few rounds, intervals too wide */
};

/* How the bisect ended; the exit status follows (cli/cmd-bisect.c). */
enum bisect_outcome {
	BISECT_RUNNING,          /* not ended (an error stopped it) */
	BISECT_FOUND,            /* culprit named and confirmed against its parent */
	BISECT_NOT_FASTER,       /* the good end is not faster than the bad end */
	BISECT_STUCK,            /* a range it could not split: lo..hi */
	BISECT_UNCONFIRMED       /* the last commit left is not slower than its parent */
};

struct bisect_commit {
	char commit[41];
	char *subject;           /* untrusted: from the repository */
	char *author;            /* "Name <email>", untrusted */
	int64_t time;            /* commit time, seconds since the epoch */
};

struct bisect_side {
	int present;
	double center, min, max; /* over pads, in the metric's unit */
	size_t pads;
};

/* What one comparison's builds cost (or every comparison's, summed).  The
 * parts are each variant's own time, summed: with build.jobs > 1 they
 * overlap, so they may add up to more than build_ns. */
struct bisect_builds {
	unsigned built, cached;  /* variants built (the control counted) and restored from the build cache */
	unsigned controls;       /* controls built */
	unsigned reused;         /* controls reused from an earlier comparison of this bisect */
	uint64_t build_ns;       /* wall time from the run's start to the end of its builds */
	uint64_t setup_ns;       /* of which before the check-out: capacity, counters, host facts */
	uint64_t checkout_ns;    /* the repository opened and both trees exported */
	uint64_t fresh_ns;       /* variants built, the control apart */
	uint64_t control_ns;     /* the control's build */
	uint64_t restore_ns;     /* restores from the build cache, and of a reused control */
};

struct bisect_step {
	enum bisect_kind kind;
	size_t base, candidate;  /* commit indexes */
	size_t lo, hi;           /* the range before the step: lo not slower, hi slower */
	enum verdict verdict;
	enum bisect_call call;
	char why[160];           /* undecided: why; identical hot code: that */
	int hot_identical;       /* MANIFEST_UNKNOWN, 0 or 1 */
	double ratio;            /* candidate center / base center, NAN when absent */
	struct bisect_side sides[2];   /* base, candidate */
	char *bundle;            /* the bundle written */
	char id[65];             /* its id */
	struct bisect_builds builds;
	uint64_t measure_ns;
};

struct bisect_record {
	char id[40];             /* the bisect's id: the label bisect=<id> */
	char *bench, *metric;
	char *good_ref, *bad_ref;      /* as written */
	struct bisect_commit *commits; /* [0] the good end, [ncommits - 1] the bad end */
	size_t ncommits;
	struct bisect_step *steps;
	size_t nsteps;
	enum bisect_outcome outcome;
	size_t culprit;          /* BISECT_FOUND, BISECT_UNCONFIRMED: the commit */
	size_t lo, hi;           /* the range at the end */
	uint64_t wall_ns;        /* the whole bisect */
};

void bisect_record_init(struct bisect_record *rec);
void bisect_record_release(struct bisect_record *rec);

/* Append a zeroed step (NULL when memory runs out). */
struct bisect_step *bisect_record_add_step(struct bisect_record *rec);

/* ceil(log2 (ncommits - 1)) + 2: the comparisons a decided bisect needs at most. */
size_t bisect_record_limit(const struct bisect_record *rec);

/* Totals over the steps. */
void bisect_record_builds(const struct bisect_record *rec, struct bisect_builds *total);

/* Names: "check", "step", "against-bad", "confirm"; "found", "not-faster", ...; "slower", ... */
const char *bisect_kind_name(enum bisect_kind k);
const char *bisect_outcome_name(enum bisect_outcome o);
const char *bisect_call_name(enum bisect_call c);

#endif
