/*
 * runner/build-internal.h: what the files of the build stage share:
 * build.c (the work folder, the checkouts, the pads and the builds, in
 * order) calls build-key.c (a variant's build cache key), build-jobs.c
 * (builds side by side) and build-verify.c (reading the artifacts back:
 * digests, symbol addresses, the shift check, the control's
 * reproducibility, the hot-code comparison).  Outside runner/build*.c
 * only the build cache (the digest), the run's files that read artifacts
 * (run-artifacts.c: the digest; run-profile.c, run-range.c: the hot-code
 * comparison) and the unit tests include it.
 *
 * Ownership: every function fills the caller's struct runner_result; the
 * notes and fields it sets are released by runner_result_release().
 */
#ifndef PLUMB_RUNNER_BUILD_INTERNAL_H
#define PLUMB_RUNNER_BUILD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "runner/build-types.h"

struct plumb_config;
struct plumb_err;

/* ---- build-key.c ------------------------------------------------------ */

struct buf;

/* What every variant of this run shares in its cache key: the key format,
 * the compiler and the linker, the steering environment (appended to out). */
int build_key_toolchain(const struct plumb_config *cfg, struct buf *out, struct plumb_err *err);

/* v's whole key material: toolchain, then the tree, command (v->command set,
 * the work folder in it written as {workdir}), pad and reuse; object is v's
 * pad object or NULL. */
int build_key_material(const struct plumb_config *cfg, const struct runner_result *res,
		       const struct runner_variant *v, const char *toolchain,
		       const char *object, struct buf *out, struct plumb_err *err);

/* ---- build-jobs.c ---------------------------------------------------- */

/* What build_jobs_run() makes, and how (build.jobs). */
struct build_jobs {
	struct runner_result *res;
	struct runner_variant **order;     /* the variants to make, in build order */
	const unsigned char *keep_export;  /* per variant: its side's exported tree is used later */
	size_t n;
	unsigned jobs;                     /* at most this many at once */
	int same_tree;                     /* A/A: a candidate pad is a copy of the base pad */
	/* Make v as the one-at-a-time path does, progress to opts; 0 or an error. */
	int (*realize)(void *ctx, struct runner_variant *v, int keep_export,
		       const struct runner_opts *opts, struct plumb_err *err);
	void *ctx;
	const struct runner_opts *opts;    /* plumb's progress */
	char *tail;                        /* internal: a failed build's log tail */
	struct runner_variant *failed;     /* out: the variant whose build failed first, or NULL */
};

/* build.jobs = auto: the CPUs plumb may run on. */
unsigned build_jobs_auto(void);

/*
 * Make every variant of J, up to J->jobs at once, each side's in order,
 * the sides side by side, each build in a worker process with a container
 * of its own.  The first failure stops the others (killed and reaped) and
 * is returned, res->log_tail its log's tail.  Every worker has ended when
 * this returns.
 */
int build_jobs_run(struct build_jobs *J, struct plumb_err *err);

/* ---- build-verify.c -------------------------------------------------- */

/* SHA-256 (hex) and size of a file; for a folder, over its sorted entries. */
int build_artifact_digest(const char *path, char hex[65], uint64_t *size,
			  struct plumb_err *err);

/* The symbols the run checks: every bench's hot symbols, else main. */
int build_collect_symbols(const struct plumb_config *cfg, struct runner_result *res,
			  struct plumb_err *err);

/* Read the symbol addresses of every built variant not read yet; sets
 * v->elf.  *machine from b00 (when it is read). */
int build_read_addresses(const struct plumb_config *cfg, struct runner_result *res,
			 int *machine, struct plumb_err *err);

/*
 * Right after the first build of base (the control with build.reuse =
 * none, else base pad 0), before any other is built: read that artifact's
 * symbols, so that a hot symbol it does not define fails now, with the
 * nearest names (a GCC clone first), not after every pad was built.
 */
int build_check_names(const struct plumb_config *cfg, struct runner_result *res,
		      struct runner_variant *first, struct plumb_err *err);

/* Every pad read so far moved the code (by K x padBytes when plumb places the pad). */
int build_check_shift(const struct plumb_config *cfg, struct runner_result *res,
		      struct plumb_err *err);

/* Whether the control is byte for byte base pad 0 (res->repro_note when not). */
int build_check_control(struct runner_result *res, struct plumb_err *err);

/* The hot code of base and candidate compared, symbol by symbol. */
int build_check_hot(struct runner_result *res, int machine, struct plumb_err *err);

struct elf_image;

/*
 * Compare symbol name of a (base pad 0) and b (candidate pad 0), both built
 * for machine: 1 and *out, 0 when either does not define it, or an error.
 */
int runner_compare_symbol(const struct elf_image *a, const struct elf_image *b, int machine,
			  const char *name, struct hotcode_result *out, struct plumb_err *err);

#endif
