/*
 * formats/manifest-valgrind.h: the manifest's Valgrind members, written
 * by runner/run-valgrind.c and read by the reports (formats/bundle-v1.md,
 * manifest-fields.md):
 *
 *   run.valgrind          the tool (version, path), the fixed cache
 *                         geometry, the cost formula, runs and their time
 *   benches[].valgrind    source, deterministic (the two runs of pad 0
 *                         agreed), difference, runs, time, and per side
 *                         each simulated metric's center, min and max over
 *                         pads
 *
 * They are kept as JSON objects in struct manifest (opaque members);
 * manifest_vg_validate() checks their shape, so a reader can trust it.
 *
 * Ownership: the key table is static; returned pointers borrow the JSON.
 */
#ifndef PLUMB_FORMATS_MANIFEST_VALGRIND_H
#define PLUMB_FORMATS_MANIFEST_VALGRIND_H

#include <jansson.h>

#include "common/metric.h"

struct manifest;
struct plumb_err;

/* The members of benches[].valgrind.sides.<side>, by metric row. */
struct manifest_vg_key {
	enum metric_id metric;
	const char *key;
};
#define MANIFEST_VG_NKEYS 5
extern const struct manifest_vg_key manifest_vg_keys[MANIFEST_VG_NKEYS];

/* A simulated metric of one side: center, min and max over pads. */
struct manifest_vg_stat {
	int present;
	double center, min, max;
};

/* benches[].valgrind.sides.<side>.<key of metric>; present 0 when absent. */
void manifest_vg_stat(const json_t *bench_vg, const char *side, enum metric_id metric,
		      struct manifest_vg_stat *out);

/* PLUMB_EINPUT naming the JSON path when a Valgrind member is malformed. */
int manifest_vg_validate(const struct manifest *m, struct plumb_err *err);

#endif
