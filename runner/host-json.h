/*
 * runner/host-json.h: the host facts as JSON (the object run manifests
 * keep as host.start and host.end; its keys are documented in
 * docs/host-facts.md and are a stable contract) and the comparability
 * fingerprint computed from it.
 *
 * Ownership: host_facts_to_json() returns a new reference the caller
 * releases (json_decref()); the string host_fingerprint() returns lives
 * as long as the facts.
 */
#ifndef PLUMB_RUNNER_HOST_JSON_H
#define PLUMB_RUNNER_HOST_JSON_H

#include <jansson.h>

#include "runner/host-types.h"

struct buf;
struct plumb_err;

/* The fingerprint (16 lower-case hex digits); "" before collection. */
const char *host_fingerprint(const struct host_facts *hf);

/*
 * The canonical text the fingerprint hashes (see docs/host-facts.md):
 * appended to out.  Returns 0, or -1 when out is full.
 */
int host_fingerprint_input(const struct host_facts *hf, struct buf *out);

/* Compute hf->fingerprint from the facts. */
int host_fingerprint_update(struct host_facts *hf, struct plumb_err *err);

/* The facts as a new JSON object (keys of docs/host-facts.md); NULL on OOM. */
json_t *host_facts_to_json(const struct host_facts *hf);

#endif
