/*
 * reports/audit.c: the audit of one bundle (see audit.h).  Integrity and
 * consistency are the reader's own checks (formats/bundle-verify.c and
 * bundle-check.c) run with their differences collected; the re-analysis
 * judges the same reductions again under today's rule, in the same pass
 * over samples.tsv.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "formats/manifest-rule.h"
#include "reports/audit.h"
#include "stats/analysis.h"
#include "stats/rule.h"
#include "common/banned.h"

void audit_init(struct audit *a)
{
	memset(a, 0, sizeof(*a));
	bundle_info_init(&a->info);
	stats_rule_default(&a->today_rule);
	a->integrity = a->consistency = AUDIT_NOT_CHECKED;
}

void audit_release(struct audit *a)
{
	free(a->path);
	keyring_release(&a->keys);
	bundle_info_release(&a->info);
	bundle_diffs_release(&a->diffs);
	free(a->benches);
	free(a->re.bundle);
	free(a->re.benches);
	if (a->re.done)
		hostdiff_release(&a->re.host);
	audit_init(a);
}

const char *audit_state_name(enum audit_state s)
{
	switch (s) {
	case AUDIT_PASS: return "pass";
	case AUDIT_FAIL: return "FAIL";
	case AUDIT_UNVERIFIED: return "unverified";
	default: return "not checked";
	}
}

int audit_failed(const struct audit *a)
{
	return a->integrity == AUDIT_FAIL || a->consistency == AUDIT_FAIL;
}

/*
 * Today's default for this bundle: a run with an adaptive sweep would
 * today share the confidence among the sweep's looks (stats_sweep_looks(),
 * today's step), so a sweep's bundle is judged at that level, as the run
 * would judge it now; any other at the default.
 */
static void today_for(struct audit *a, const struct manifest *m)
{
	const json_t *sw = m->run.sweep;
	json_int_t start, max;

	stats_rule_default(&a->today_rule);
	if (!sw)
		return;
	start = json_integer_value(json_object_get(sw, "startPads"));
	max = json_integer_value(json_object_get(sw, "maxPads"));
	if (start < 1 || max < start || max > (json_int_t)UINT32_MAX)
		return;   /* manifest_sweep_check() refuses such a bundle */
	a->today_rule.confidence = stats_confidence_per_look(a->today_rule.confidence,
		stats_sweep_looks((unsigned)start, CONFIG_PADS_AUTO_STEP, (unsigned)max));
}

/* Each benchmark's reduction, judged again under today's rule. */
static int rejudge(void *ctx, size_t bi, const struct analysis_result *r, struct plumb_err *err)
{
	struct audit *a = ctx;
	const struct manifest *m = &a->info.manifest;
	const struct manifest_bench *b;
	struct audit_bench *ab;

	if (!a->benches) {
		today_for(a, m);
		a->n_benches = m->n_benches;
		if (!(a->benches = calloc(m->n_benches ? m->n_benches : 1, sizeof(*a->benches))))
			return plumb_err_oom(err, "audit");
	}
	if (bi >= a->n_benches)
		return 0;
	b = &m->benches[bi];
	ab = &a->benches[bi];
	ab->judged = 1;
	if (analysis_judge(r, &a->today_rule, manifest_bench_hot(b), manifest_bench_work(b), &ab->today) < 0 &&
	    errno == ENOMEM)
		return plumb_err_oom(err, "audit");
	return 0;
}

/* Recorded against today's verdict, and the rules each benchmark names. */
static void compare_verdicts(struct audit *a)
{
	const struct manifest *m = &a->info.manifest;

	for (size_t i = 0; i < a->n_benches && i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		struct audit_bench *ab = &a->benches[i];
		const char *rv = verdict_name(b->verdict);
		const char *rd = manifest_direction_name(b->direction);
		const char *tv, *td;
		struct stats_rule probe;

		manifest_bench_rule(b, &ab->recorded_rule);
		ab->rule_known = !b->rule.present ||
			(b->rule.name && stats_rule_select(b->rule.name, (int)b->rule.version,
							   &probe) == 0);
		if (!ab->rule_known)
			a->n_unknown_rule++;
		if (!ab->judged)
			continue;
		tv = verdict_name(ab->today.verdict);
		td = verdict_directed(ab->today.verdict) ? stats_direction_name(ab->today.direction)
							    : NULL;
		ab->differs = !rv || strcmp(rv, tv) != 0 || (rd == NULL) != (td == NULL) ||
			      (rd && strcmp(rd, td) != 0);
		a->n_differ += ab->differs != 0;
	}
}

int audit_run(const struct audit_opts *o, struct audit *a, struct plumb_err *err)
{
	struct bundle_read_opts ro = { .limits = NULL };
	struct plumb_err verr;
	struct stat st;
	int rc;

	if (!(a->path = strdup(o->path)))
		return plumb_err_oom(err, "audit");
	if (stat(o->path, &st) != 0)
		return plumb_err_errno(err, PLUMB_EINPUT, errno, o->path, "open");
	a->folder = S_ISDIR(st.st_mode);
	if ((rc = keyring_load(&a->keys, o->keys, o->n_keys, o->trusted_dir, err)) < 0)
		return rc;
	ro.pubkeys = a->keys.keys;
	ro.n_pubkeys = a->keys.n;
	/* Keys named on the command line ask for a signature; trusted ones only check one. */
	ro.require_signature = o->n_keys > 0;
	ro.diffs = &a->diffs;
	a->diffs.on_bench = rejudge;
	a->diffs.ctx = a;
	plumb_err_clear(&verr);
	rc = bundle_verify_any(o->path, &ro, NULL, NULL, &a->info, &verr);
	if (rc < 0 && rc != PLUMB_EINPUT) {
		*err = verr;
		return rc;
	}
	if (rc < 0) {
		/* The bytes are not what SHA256SUMS says, or do not parse: nothing
		 * they say can be checked. */
		a->integrity = AUDIT_FAIL;
		snprintf(a->integrity_error, sizeof(a->integrity_error), "%s", verr.msg);
		bundle_diffs_release(&a->diffs);
		free(a->benches);
		a->benches = NULL;
		a->n_benches = 0;
		return 0;
	}
	a->integrity = a->info.unverified ? AUDIT_UNVERIFIED : AUDIT_PASS;
	if (!a->benches && a->info.manifest.n_benches) {
		a->n_benches = a->info.manifest.n_benches;
		if (!(a->benches = calloc(a->n_benches, sizeof(*a->benches))))
			return plumb_err_oom(err, "audit");
	}
	compare_verdicts(a);
	a->consistency = a->diffs.total || a->n_unknown_rule ? AUDIT_FAIL : AUDIT_PASS;
	return 0;
}

static void verdict_of(const struct manifest_bench *b, char out[48])
{
	const char *v = verdict_name(b->verdict), *d = manifest_direction_name(b->direction);

	snprintf(out, 48, "%s%s%s%s", b->failure ? "failed" : v ? v : "-", d ? " (" : "",
		 d ? d : "", d ? ")" : "");
}

static int same_commit(const struct manifest_commit *a, const struct manifest_commit *b)
{
	return a->commit && b->commit && strcmp(a->commit, b->commit) == 0;
}

int audit_remeasure(struct audit *a, const struct manifest *now, const char *bundle,
		    const char *id, struct plumb_err *err)
{
	const struct manifest *old = &a->info.manifest;
	struct audit_remeasure *re = &a->re;
	int rc;

	hostdiff_init(&re->host);
	re->done = 1;
	if (!(re->bundle = strdup(bundle ? bundle : "")))
		return plumb_err_oom(err, "audit");
	snprintf(re->id, sizeof(re->id), "%s", id ? id : "");
	re->same_commits = same_commit(&old->repo.base, &now->repo.base) &&
			   same_commit(&old->repo.candidate, &now->repo.candidate);
	if ((rc = hostdiff_compare(&re->host, old->host.start, now->host.start,
				   HOSTDIFF_BASELINE, err)) < 0)
		return rc;
	if (!(re->benches = calloc(old->n_benches ? old->n_benches : 1, sizeof(*re->benches))))
		return plumb_err_oom(err, "audit");
	for (size_t i = 0; i < old->n_benches; i++) {
		const struct manifest_bench *ob = &old->benches[i];
		const struct manifest_bench *nb = manifest_find_bench(now, ob->name);
		struct audit_again *g = &re->benches[i];
		const struct manifest_side_stats *os[2] = { &ob->base, &ob->candidate };

		verdict_of(ob, g->old_verdict);
		if (!nb) {
			snprintf(g->new_verdict, sizeof(g->new_verdict), "not measured");
			continue;
		}
		g->found = 1;
		verdict_of(nb, g->new_verdict);
		g->failed = ob->failure || nb->failure || !nb->base.present || !nb->candidate.present;
		if (g->failed)
			continue;
		/* An instruction count is the same work within STATS_SAME_WORK:
		 * a build in another folder or another environment executes a
		 * few instructions more or fewer (a path's length), not more
		 * work.  Every other metric must land in the recorded range. */
		double slack = ob->metric == METRIC_INSTRUCTIONS ||
			       ob->metric == METRIC_VG_INSTRUCTIONS ? STATS_SAME_WORK : 0;

		for (int s = 0; s < 2; s++) {
			const struct manifest_side_stats *ns = s ? &nb->candidate : &nb->base;
			/* The rule's range when recorded (margin: the pads' intervals,
			 * which hold the round-to-round noise), else the pad medians'. */
			g->old_min[s] = isnan(os[s]->range_lo) ? os[s]->min : os[s]->range_lo;
			g->old_max[s] = isnan(os[s]->range_hi) ? os[s]->max : os[s]->range_hi;
			g->new_center[s] = ns->center;
			g->within[s] = os[s]->present &&
				       ns->center >= g->old_min[s] - slack * fabs(g->old_min[s]) &&
				       ns->center <= g->old_max[s] + slack * fabs(g->old_max[s]);
		}
		g->same_verdict = strcmp(g->old_verdict, g->new_verdict) == 0;
		g->reproduced = g->within[0] && g->within[1] && g->same_verdict;
		re->n_reproduced += g->reproduced != 0;
	}
	re->reproduced = re->host.comparable && re->n_reproduced == old->n_benches;
	return 0;
}
