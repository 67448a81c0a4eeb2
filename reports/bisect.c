/*
 * reports/bisect.c: the bisect report's document (reports/bisect.h) and its
 * sentences, said once for every format.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/units.h"
#include "formats/manifest.h"
#include "reports/bisect.h"
#include "common/banned.h"

static json_t *num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *range_json(size_t lo, size_t hi)
{
	return json_pack("[I,I]", (json_int_t)lo, (json_int_t)hi);
}

static json_t *side_json(const struct bisect_side *s)
{
	if (!s->present)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:I}", "center", num(s->center), "min", num(s->min), "max",
			 num(s->max), "pads", (json_int_t)s->pads);
}

static json_t *builds_json(unsigned built, unsigned cached, uint64_t ns)
{
	return json_pack("{s:I,s:I,s:I}", "built", (json_int_t)built, "cached", (json_int_t)cached,
			 "buildNs", (json_int_t)ns);
}

static json_t *commit_json(const struct bisect_record *rec, size_t i)
{
	const struct bisect_commit *c = &rec->commits[i];
	char t[MANIFEST_TIME_MAX];

	if (manifest_time_format(c->time, t) < 0)
		t[0] = '\0';
	return json_pack("{s:I,s:s,s:s,s:s,s:s}", "index", (json_int_t)i, "commit", c->commit,
			 "subject", c->subject ? c->subject : "", "author", c->author ? c->author : "",
			 "time", t);
}

/* "1a2b3c4d5e6f (plant a slowdown)" */
static int name_commit(struct buf *b, const struct bisect_record *rec, size_t i)
{
	const struct bisect_commit *c = &rec->commits[i];

	return buf_printf(b, "%.12s (%s)", c->commit, c->subject ? c->subject : "");
}

/* The result's sentence. */
static int summary(struct buf *b, const struct bisect_record *rec)
{
	const struct bisect_step *last = rec->nsteps ? &rec->steps[rec->nsteps - 1] : NULL;
	char ratio[UNITS_MAX];
	int r = 0;

	switch (rec->outcome) {
	case BISECT_FOUND:
		units_ratio(last ? last->ratio : NAN, ratio);
		r |= buf_addstr(b, "found: ") < 0 || name_commit(b, rec, rec->culprit) < 0 ||
		     buf_printf(b, " is the first commit slower than its parent (ratio %s against %.12s)", ratio,
				rec->commits[rec->culprit - 1].commit) < 0;
		break;
	case BISECT_NOT_FASTER:
		r |= buf_printf(b, "not found: the good end is not faster (%.12s against %.12s: %s%s%s)",
				rec->commits[0].commit, rec->commits[rec->ncommits - 1].commit,
				last ? manifest_verdict_name(last->verdict) : "not measured",
				last && last->why[0] ? ", " : "", last ? last->why : "") < 0;
		break;
	case BISECT_STUCK:
		r |= buf_printf(b, "not found: undecided; could not split %.12s..%.12s (%zu commit%s): %s",
				rec->commits[rec->lo].commit, rec->commits[rec->hi].commit, rec->hi - rec->lo,
				rec->hi - rec->lo == 1 ? "" : "s", last ? last->why : "") < 0;
		break;
	case BISECT_UNCONFIRMED:
		r |= buf_addstr(b, "not found: ") < 0 || name_commit(b, rec, rec->culprit) < 0 ||
		     buf_printf(b, " is not slower than its parent %.12s (%s%s%s); no commit is blamed",
				rec->commits[rec->culprit - 1].commit,
				last ? manifest_verdict_name(last->verdict) : "", last && last->why[0] ? ", " : "",
				last ? last->why : "") < 0;
		break;
	case BISECT_RUNNING:
		r |= buf_printf(b, "stopped after %zu comparison%s", rec->nsteps, rec->nsteps == 1 ? "" : "s") < 0;
		break;
	}
	return r ? -1 : 0;
}

static json_t *step_json(const struct bisect_step *s, size_t n)
{
	const char *v = manifest_verdict_name(s->verdict);

	return json_pack("{s:I,s:s,s:I,s:I,s:o,s:s?,s:s,s:s?,s:o,s:o,s:{s:o,s:o},s:s?,s:s?,s:o,s:I}",
			 "n", (json_int_t)n, "kind", bisect_kind_name(s->kind),
			 "base", (json_int_t)s->base, "candidate", (json_int_t)s->candidate,
			 "range", range_json(s->lo, s->hi), "verdict", v,
			 "call", bisect_call_name(s->call), "why", s->why[0] ? s->why : NULL,
			 "hotIdentical", s->hot_identical == MANIFEST_UNKNOWN ? json_null() : json_boolean(s->hot_identical),
			 "ratio", num(s->ratio),
			 "sides", "base", side_json(&s->sides[0]), "candidate", side_json(&s->sides[1]),
			 "bundle", s->bundle, "bundleId", s->id[0] ? s->id : NULL,
			 "builds", builds_json(s->built, s->cached, s->build_ns),
			 "measureNs", (json_int_t)s->measure_ns);
}

json_t *bisect_report_doc(const struct bisect_record *rec)
{
	json_t *doc = NULL, *commits = json_array(), *steps = json_array();
	unsigned built, cached;
	uint64_t build_ns;
	struct buf sum;
	int bad = !commits || !steps;

	buf_init(&sum, 1 << 16);
	for (size_t i = 0; i < rec->ncommits && !bad; i++)
		bad |= json_array_append_new(commits, commit_json(rec, i)) < 0;
	for (size_t i = 0; i < rec->nsteps && !bad; i++)
		bad |= json_array_append_new(steps, step_json(&rec->steps[i], i + 1)) < 0;
	bad |= summary(&sum, rec) < 0;
	bisect_record_builds(rec, &built, &cached, &build_ns);
	if (!bad && rec->ncommits)
		doc = json_pack("{s:s,s:i,s:s,s:s?,s:s?,s:{s:s?,s:s},s:{s:s?,s:s},s:O,s:O,"
				"s:{s:s,s:s,s:o,s:o,s:I,s:I,s:o,s:I}}",
				"format", "plumb-bisect", "version", BISECT_REPORT_VERSION, "id", rec->id,
				"bench", rec->bench, "metric", rec->metric,
				"good", "ref", rec->good_ref, "commit", rec->commits[0].commit,
				"bad", "ref", rec->bad_ref, "commit", rec->commits[rec->ncommits - 1].commit,
				"commits", commits, "steps", steps,
				"result", "outcome", bisect_outcome_name(rec->outcome), "summary", buf_cstr(&sum),
				"culprit", rec->outcome == BISECT_FOUND ? json_integer((json_int_t)rec->culprit)
									 : json_null(),
				"range", range_json(rec->lo, rec->hi),
				"comparisons", (json_int_t)rec->nsteps, "limit", (json_int_t)bisect_record_limit(rec),
				"builds", builds_json(built, cached, build_ns), "wallNs", (json_int_t)rec->wall_ns);
	json_decref(commits);
	json_decref(steps);
	buf_release(&sum);
	return doc;
}
