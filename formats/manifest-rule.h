/*
 * formats/manifest-rule.h: what a recorded benchmark says about how it was
 * judged, as stats_judge() (stats/rule.h) takes it: the rule and the
 * hot-code identity.  Whoever re-judges a bundle's samples (bundle
 * verification, reports against a baseline) uses exactly what the run did.
 */
#ifndef PLUMB_FORMATS_MANIFEST_RULE_H
#define PLUMB_FORMATS_MANIFEST_RULE_H

#include "formats/manifest.h"
#include "stats/rule.h"

/* benches[].rule, or the seeds' overlap rule, version 1, when it records none. */
void manifest_bench_rule(const struct manifest_bench *mb, struct stats_rule *out);

/* The identity of the hot symbols benches[].hot compared. */
enum stats_hot manifest_bench_hot(const struct manifest_bench *mb);

/* Whether the run showed both sides did the same work (benches[].work). */
enum stats_work manifest_bench_work(const struct manifest_bench *mb);

/*
 * A side's reduction as the manifest records it (pads, center, range,
 * spread, rounds; p99 and coP99 when samples): nothing when the side has
 * no pads.  The runner and plumb import record through this one route.
 */
struct analysis_side_result;
struct plumb_err;
int manifest_record_side(struct manifest_side_stats *s, const struct analysis_side_result *as,
			 int samples, struct plumb_err *err);

/* Record jd in mb: verdict, direction, rule, reason, interval, noise, power, ranges. */
int manifest_record_judgement(struct manifest_bench *mb, const struct stats_judgement *jd,
			      struct plumb_err *err);

#endif
