/*
 * runner/host-check.h: the readiness check behind `plumb host --check`:
 * rules that judge the host facts alone (runner/host-types.h), so the same
 * rules judge a live machine, a fixture tree and the host.start of an old
 * bundle.  The rules and thresholds are documented in docs/host-facts.md.
 *
 * Ownership: struct host_check is caller-owned storage; host_check_init()
 * sets it up and host_check_release() frees every finding and string it
 * holds.  host_check_to_json() returns a new reference.
 */
#ifndef PLUMB_RUNNER_HOST_CHECK_H
#define PLUMB_RUNNER_HOST_CHECK_H

#include <stddef.h>

#include <jansson.h>

struct host_facts;
struct plumb_err;

enum host_level {
	HOST_NOTE,     /* informational: never fails --strict */
	HOST_WARNING   /* a confound: --strict fails */
};

struct host_finding {
	const char *id;        /* "governor", "turbo", ... (static) */
	enum host_level level;
	char *message;
	char *fix;             /* one line */
	int allowed;           /* a warning host_check_allow() allowed: --strict passes it */
};

struct host_check {
	struct host_finding *items;
	size_t n;
	size_t warnings;       /* warnings not allowed: --strict fails on these */
	size_t notes;
	size_t allowed;        /* warnings allowed (--allow, host.allow) */
};

/* Every id a finding can have, in the order of docs/host-facts.md. */
extern const char *const host_check_ids[];
extern const size_t host_check_nids;

/*
 * Allow the warnings named in list ("virt,isolation", commas or spaces):
 * they stay in the findings, marked allowed, and no longer count as
 * warnings.  A name that is no id is PLUMB_EARG naming where ("--allow",
 * "plumb.conf: host.allow") and the known names.  hc may be NULL to check
 * the names only.
 */
int host_check_allow(struct host_check *hc, const char *where, const char *list,
		     struct plumb_err *err);

void host_check_init(struct host_check *hc);
void host_check_release(struct host_check *hc);

/* Judge the facts; findings come in a fixed order (docs/host-facts.md). */
int host_check_run(const struct host_facts *hf, struct host_check *hc,
		   struct plumb_err *err);

/* {"warnings": N, "notes": N, "items": [{id, level, message, fix}]}; NULL on OOM. */
json_t *host_check_to_json(const struct host_check *hc);

#endif
