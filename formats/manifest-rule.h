/*
 * formats/manifest-rule.h: a benchmark's judgement (stats/rule.h) into its
 * manifest entry, and back: the rule a recorded benchmark was judged by
 * and the hot-code identity it recorded, so that whoever re-judges a
 * bundle's samples (bundle verification, reports) calls stats_judge()
 * with exactly what the run used.
 *
 * Ownership: manifest_set_judgement() copies what it keeps into mb.
 */
#ifndef PLUMB_FORMATS_MANIFEST_RULE_H
#define PLUMB_FORMATS_MANIFEST_RULE_H

#include "formats/manifest.h"
#include "stats/rule.h"

struct plumb_err;

/* The manifest's verdict for a stats verdict. */
enum manifest_verdict manifest_verdict_of(enum stats_verdict v);

/*
 * Record jd in mb: verdict, direction, ratio, rule, reason, interval,
 * noise basis, detectable change, the sides' rule ranges, and (with a
 * control) the noise member.  mb's sides must be filled already.
 */
int manifest_set_judgement(struct manifest_bench *mb, const struct stats_judgement *jd,
			   struct plumb_err *err);

/* The rule mb was judged by: its recorded rule, or overlap v1 when absent. */
void manifest_bench_rule(const struct manifest_bench *mb, struct stats_rule *out);

/* The hot-code identity mb recorded (benches[].hot), as stats_judge() takes it. */
enum stats_hot manifest_bench_hot(const struct manifest_bench *mb);

#endif
