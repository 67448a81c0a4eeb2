/*
 * reports/hostclass.h: host classes (host fingerprints) as `plumb archive
 * hosts` and the archive's pages show them: archive/hosts.h's rows with
 * the facts that tell two classes apart picked out (docs/archive-hosts.md).
 *
 * Ownership: the json_t returned through *out belongs to the caller.
 */
#ifndef PLUMB_REPORTS_HOSTCLASS_H
#define PLUMB_REPORTS_HOSTCLASS_H

#include <jansson.h>

#include "archive/store.h"

struct plumb_err;

/* Version of the JSON layout of `plumb archive hosts --json`. */
#define HOSTCLASS_JSON_VERSION 1

/*
 * {format: "plumb-hosts", version, hosts: [{fingerprint, cpuModel,
 * cpus, cores, kernel, governor, turbo, smt, bundles, benchmarks, first,
 * last, facts}]}, in fingerprint order; a fact not recorded is null.
 */
int hostclass_list(struct store *st, json_t **out, struct plumb_err *err);

#endif
