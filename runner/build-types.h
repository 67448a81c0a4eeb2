/*
 * runner/build-types.h: what the build stage returns, shared by the files
 * that make it (runner/build*.c), the run that measures its variants
 * (runner/run*.c), the bisect and the views: the sides, a variant, the
 * build result, and the options a build is given.  No .c file of its own;
 * the functions on these are runner/build.h's (the build) and
 * runner/build-variant.h's (a variant's names and digest).
 *
 * Ownership: struct runner_result is caller-owned storage filled by
 * runner_build() (also on failure, so that it can be released) and freed
 * by runner_result_release(); every string in it is a heap copy.  struct
 * runner_controls and struct runner_opts borrow everything.
 */
#ifndef PLUMB_RUNNER_BUILD_TYPES_H
#define PLUMB_RUNNER_BUILD_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "runner/checkout.h"
#include "runner/hotcode.h"
#include "runner/event.h"
#include "runner/lock.h"

enum runner_side { RUNNER_BASE = 0, RUNNER_CANDIDATE = 1 };

/* What the shift check concluded. */
enum runner_shift {
	RUNNER_SHIFT_NOT_CHECKED,  /* pad = none, or not run yet */
	RUNNER_SHIFT_EXACT,        /* every pad moved every symbol by K × padBytes */
	RUNNER_SHIFT_MOVED         /* pad = env: every pad moved the code, by the build's amount */
};

struct runner_variant {
	char id[4];          /* "b00", "c03"; "k00" for the control */
	enum runner_side side;
	int control;         /* the second build of base pad 0 */
	unsigned pad;        /* K */
	uint64_t pad_bytes;  /* the pad's offset: K × build.padBytes, or spread (pad.h) */
	char *dir;           /* the variant's folder: same path length for all */
	char *artifact;      /* <dir>/<build.artifact> */
	char *elf;           /* the ELF file checked (the artifact, or a file in it), or NULL */
	char *log;           /* the build log */
	char *command;       /* the build command as run */
	int shell;           /* it ran through /bin/sh -c */
	int relinked;        /* built from a copy of the side's built pad 0 */
	int built;           /* the build finished and made the artifact (or it was restored) */
	int cached;          /* restored from the build cache, not built */
	char cache_key[65];  /* the entry it was restored from (the build cache's, or for
	                        a reused control the bisect's store), or "" when built */
	unsigned reused;     /* the control: reused from this comparison of the bisect
	                        (runner_opts.controls), not built; 0 when built */
	char same_as[4];     /* A/A: the base variant copied (same tree), or "" */
	uint64_t prepare_ns; /* exporting or copying the folder */
	uint64_t build_ns;   /* the build command, wall time */
	unsigned left_behind; /* processes the build left running (killed) */
	uint64_t size;       /* bytes of the artifact (a folder: of its files) */
	char sha256[65];
	uint64_t *addr;      /* address of each checked symbol (runner_result.symbols) */
};

struct runner_hot {
	char *symbol;
	struct hotcode_result cmp;   /* base pad 0 against candidate pad 0 */
};

struct runner_result {
	char *workdir;       /* the work folder (absolute) */
	char *build_dir[2];  /* <workdir>/build/<tree id>: where each side's variants build */
	char *run_dir;       /* <workdir>/run-<UTC time>-<pid> */
	int keep;            /* keep the run folder at release */
	/* the caller's events, for a folder runner_result_release() cannot remove */
	runner_event_fn *event;
	void *event_ctx;
	struct run_lock lock;

	struct checkout_side side[2];   /* RUNNER_BASE, RUNNER_CANDIDATE */
	char *repo;          /* the repository, as configured (path or URL) */
	char *project;       /* run.project, else checkout_project(); NULL without a commit */
	char *repo_cache;    /* the mirror's folder for a URL, else NULL */

	struct runner_variant *variants;  /* b00..bNN, c00..cNN, then k00; pads added
	                                     by runner_build_more() follow, base then candidate */
	size_t nvariants;
	unsigned npads;      /* pads per side so far */

	char **symbols;      /* checked for the shift: the hot symbols, or "main" */
	size_t nsymbols;
	int symbols_hot;     /* the symbols are named hot code (not the "main" default) */

	enum runner_shift shift;
	char shift_note[512];

	int control;         /* a control was built */
	int reproducible;    /* control byte-identical to base pad 0 */
	char repro_note[512];

	struct runner_hot *hot;  /* one per hot symbol */
	size_t nhot;

	char *log_tail;      /* after a failed build: the last lines of its log */
	char suspect[4];     /* after a failed build or check: the variant it is about, or "" */
	uint64_t total_ns;
	uint64_t checkout_ns;  /* the repository opened and both trees exported */
};

/*
 * A bisect's controls (runner/bisect.c): the control of a base commit is
 * built fresh at the first comparison with that base, kept in dir (a
 * build cache folder of the bisect's own, never the shared one), and at a
 * later comparison with the same base restored from there instead of
 * built, its artifact's SHA-256 checked against the one it had.  Nothing
 * from an earlier bisect or run can be reused: the folder is the bisect's
 * and goes with it.
 */
struct runner_controls {
	const char *bisect;   /* the bisect's id (recorded with a reused control) */
	const char *dir;      /* the bisect's store of controls */
	unsigned comparison;  /* this comparison (1-based) */
	unsigned built_at;    /* the comparison that built this base's control, or 0: build it */
};

struct runner_opts {
	/* Told what the builds do (runner/event.h: RUNNER_EV_BUILT ...), or NULL. */
	runner_event_fn *event;
	void *event_ctx;
	const struct runner_controls *controls;  /* a bisect's, or NULL (plain runs) */
};

#endif
