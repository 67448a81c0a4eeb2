/*
 * reports/audit.h: the model behind `plumb audit` (DESIGN §11): what an
 * auditor can say about one bundle (a .plumb file or an unpacked folder)
 * without running anything.
 *
 *   integrity     every member against SHA256SUMS, the bundle id, the
 *                 signature against the keys given (-p) or the trusted
 *                 keys ($XDG_CONFIG_HOME/plumb/trusted/ *.pub);
 *   consistency   every summary and verdict of the manifest recomputed
 *                 from samples.tsv under the rule each benchmark names
 *                 (formats/bundle-check.c, the check every reader runs),
 *                 the host fingerprints from their facts, rows against
 *                 variants and rounds: here each difference is listed
 *                 instead of the first one refused;
 *   provenance    what the manifest records to redo the run (the views
 *                 print it from the manifest);
 *   re-analysis   every benchmark's samples judged again under today's
 *                 default rule (stats_judge() through analysis_judge()),
 *                 beside the recorded verdict.
 *
 * Results are not errors (STYLE 20): a failed part is a field; only what
 * stops the audit itself (a key file that does not load, memory) is an
 * error.  cli/ turns audit_exit_failed() into exit 3.
 *
 * Ownership: struct audit is caller-owned storage; audit_init() sets it
 * up, audit_run() fills it, audit_release() frees what it allocated.
 * Strings in it come from the bundle and are hostile: views escape them.
 */
#ifndef PLUMB_REPORTS_AUDIT_H
#define PLUMB_REPORTS_AUDIT_H

#include <stddef.h>

#include "common/err.h"
#include "formats/bundle.h"
#include "formats/keyring.h"
#include "reports/hostdiff.h"
#include "stats/rule.h"

struct audit_opts {
	const char *path;                 /* bundle file or folder */
	const char *const *keys;          /* -p KEY.pub paths */
	size_t n_keys;
	const char *trusted_dir;          /* NULL: $XDG_CONFIG_HOME/plumb/trusted */
};

/* One benchmark of the manifest, judged again under today's rule. */
struct audit_bench {
	int judged;                       /* its samples were reduced */
	struct stats_rule recorded_rule;  /* the rule it names (none: overlap v1) */
	int rule_known;                   /* that rule is implemented here */
	struct stats_judgement today;     /* under today's default rule */
	int differs;                      /* today's verdict or direction is not the recorded one */
};

enum audit_state { AUDIT_PASS, AUDIT_FAIL, AUDIT_UNVERIFIED, AUDIT_NOT_CHECKED };

/* One benchmark measured again (--remeasure): the recorded run against the new one. */
struct audit_again {
	int found;                        /* the new run has it */
	int failed;                       /* it failed in either run */
	double old_min[2], old_max[2];    /* recorded ranges: base, candidate */
	double new_center[2];             /* the new centers */
	int within[2];                    /* new center within the recorded range */
	int same_verdict;                 /* verdict and direction */
	char old_verdict[48], new_verdict[48];
	int reproduced;                   /* found, not failed, within both, same verdict */
};

/* `plumb audit --remeasure`: what the new run says about the recorded one. */
struct audit_remeasure {
	int done;                         /* a new run was compared */
	char *bundle;                     /* the new bundle's path */
	char id[BUNDLE_ID_HEX];
	int same_commits;                 /* the refs named the recorded commits again */
	struct hostdiff host;             /* recorded host -> this host (CPU model first) */
	struct audit_again *benches;      /* one per recorded benchmark */
	size_t n_reproduced;
	int reproduced;                   /* every benchmark reproduced, hosts comparable */
};

struct audit {
	char *path;
	int folder;                       /* an unpacked bundle */
	/* integrity */
	enum audit_state integrity;
	char integrity_error[PLUMB_ERR_MAX];
	struct bundle_info info;          /* valid unless integrity is AUDIT_FAIL */
	struct keyring keys;              /* the keys offered (-p, else the trusted-keys folder) */
	/* consistency */
	enum audit_state consistency;
	struct bundle_diffs diffs;
	/* re-analysis */
	struct stats_rule today_rule;
	struct audit_bench *benches;      /* one per info.manifest.benches */
	size_t n_benches;
	size_t n_differ;                  /* benchmarks whose verdict today differs */
	size_t n_unknown_rule;            /* benchmarks naming a rule not implemented here */
	struct audit_remeasure re;
};

void audit_init(struct audit *a);
void audit_release(struct audit *a);

/* Audit o->path; 0 (the parts say what was found), or an error. */
int audit_run(const struct audit_opts *o, struct audit *a, struct plumb_err *err);

/*
 * Compare the audited bundle's record with a new run of its configuration
 * on this host (manifest now, written to bundle with id): per benchmark
 * the new centers against the recorded ranges and the verdicts, and the
 * hosts' comparability.  Fills a->re.
 */
int audit_remeasure(struct audit *a, const struct manifest *now, const char *bundle,
		    const char *id, struct plumb_err *err);

/* Integrity or consistency failed: the audit fails (exit 3). */
int audit_failed(const struct audit *a);

/* "pass", "FAIL", "unverified", "not checked". */
const char *audit_state_name(enum audit_state s);

#endif
