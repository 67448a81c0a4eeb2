/*
 * reports/bisect.c: the bisect report's document (reports/bisect.h) and its
 * sentences, said once for every format.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/jsonio.h"
#include "common/units.h"
#include "formats/manifest.h"
#include "reports/bisect.h"
#include "common/banned.h"

static json_t *range_json(size_t lo, size_t hi)
{
	return json_pack("[I,I]", (json_int_t)lo, (json_int_t)hi);
}

static json_t *side_json(const struct bisect_side *s)
{
	if (!s->present)
		return json_null();
	return json_pack("{s:o,s:o,s:o,s:I}", "center", jsonio_real(s->center),
			 "min", jsonio_real(s->min), "max", jsonio_real(s->max),
			 "pads", (json_int_t)s->pads);
}

static json_t *builds_json(const struct bisect_builds *b)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "built", (json_int_t)b->built,
			 "cached", (json_int_t)b->cached, "controls", (json_int_t)b->controls,
			 "controlsReused", (json_int_t)b->reused,
			 "buildNs", (json_int_t)b->build_ns, "setupNs", (json_int_t)b->setup_ns,
			 "checkoutNs", (json_int_t)b->checkout_ns, "freshNs", (json_int_t)b->fresh_ns,
			 "controlNs", (json_int_t)b->control_ns, "restoreNs", (json_int_t)b->restore_ns);
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
				last ? verdict_name(last->verdict) : "not measured",
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
				last ? verdict_name(last->verdict) : "", last && last->why[0] ? ", " : "",
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
	const char *v = verdict_name(s->verdict);

	return json_pack("{s:I,s:s,s:I,s:I,s:o,s:s?,s:s,s:s?,s:o,s:o,s:{s:o,s:o},s:s?,s:s?,s:o,s:I}",
			 "n", (json_int_t)n, "kind", bisect_kind_name(s->kind),
			 "base", (json_int_t)s->base, "candidate", (json_int_t)s->candidate,
			 "range", range_json(s->lo, s->hi), "verdict", v,
			 "call", bisect_call_name(s->call), "why", s->why[0] ? s->why : NULL,
			 "hotIdentical", s->hot_identical == MANIFEST_UNKNOWN ? json_null() : json_boolean(s->hot_identical),
			 "ratio", jsonio_real(s->ratio),
			 "sides", "base", side_json(&s->sides[0]), "candidate", side_json(&s->sides[1]),
			 "bundle", s->bundle, "bundleId", s->id[0] ? s->id : NULL,
			 "builds", builds_json(&s->builds),
			 "measureNs", (json_int_t)s->measure_ns);
}

json_t *bisect_report_doc(const struct bisect_record *rec)
{
	json_t *doc = NULL, *commits = json_array(), *steps = json_array();
	struct bisect_builds builds;
	struct buf sum;
	int bad = !commits || !steps;

	buf_init(&sum, 1 << 16);
	for (size_t i = 0; i < rec->ncommits && !bad; i++)
		bad |= json_array_append_new(commits, commit_json(rec, i)) < 0;
	for (size_t i = 0; i < rec->nsteps && !bad; i++)
		bad |= json_array_append_new(steps, step_json(&rec->steps[i], i + 1)) < 0;
	bad |= summary(&sum, rec) < 0;
	bisect_record_builds(rec, &builds);
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
				"builds", builds_json(&builds), "wallNs", (json_int_t)rec->wall_ns);
	json_decref(commits);
	json_decref(steps);
	buf_release(&sum);
	return doc;
}

/* ---- reading a bisect.json back ------------------------------------------------- */

static int want(int ok, const char *path, const char *member, const char *what, struct plumb_err *err)
{
	return ok ? 0 : plumb_err_set(err, PLUMB_EINPUT, "%s: %s: %s", path, member, what);
}

/* An index into commits[] (n of them). */
static int check_index(const json_t *v, size_t n, const char *path, const char *member,
		       struct plumb_err *err)
{
	return want(json_is_integer(v) && json_integer_value(v) >= 0 && (size_t)json_integer_value(v) < n, path,
		    member, "expected an index into commits", err);
}

static int check_step(const json_t *s, size_t i, size_t n, const char *path, struct plumb_err *err)
{
	const json_t *rg = json_object_get(s, "range");
	char m[64];
	int r;

	snprintf(m, sizeof(m), "steps[%zu]", i);
	if ((r = want(json_is_object(s), path, m, "expected object", err)) < 0)
		return r;
	snprintf(m, sizeof(m), "steps[%zu].base", i);
	if ((r = check_index(json_object_get(s, "base"), n, path, m, err)) < 0)
		return r;
	snprintf(m, sizeof(m), "steps[%zu].candidate", i);
	if ((r = check_index(json_object_get(s, "candidate"), n, path, m, err)) < 0)
		return r;
	snprintf(m, sizeof(m), "steps[%zu].range", i);
	if ((r = want(json_is_array(rg) && json_array_size(rg) == 2, path, m, "expected [lo, hi]", err)) < 0 ||
	    (r = check_index(json_array_get(rg, 0), n, path, m, err)) < 0 ||
	    (r = check_index(json_array_get(rg, 1), n, path, m, err)) < 0)
		return r;
	snprintf(m, sizeof(m), "steps[%zu].kind", i);
	if ((r = want(json_is_string(json_object_get(s, "kind")), path, m, "expected string", err)) < 0)
		return r;
	snprintf(m, sizeof(m), "steps[%zu].call", i);
	return want(json_is_string(json_object_get(s, "call")), path, m, "expected string", err);
}

int bisect_report_load(const char *path, json_t **doc, struct plumb_err *err)
{
	const json_t *commits, *steps, *res, *v;
	struct buf text;
	json_t *d = NULL;
	size_t n;
	int r;

	*doc = NULL;
	buf_init(&text, BISECT_REPORT_MAX_BYTES + 1);
	r = file_read(path, BISECT_REPORT_MAX_BYTES, &text, err);
	if (r == 0 && (r = jsonio_load(text.data, text.len, BISECT_REPORT_MAX_BYTES, 8, &d, err)) < 0)
		plumb_err_prefix(err, "%s", path);
	buf_release(&text);
	if (r < 0)
		return r;
	commits = json_object_get(d, "commits");
	steps = json_object_get(d, "steps");
	res = json_object_get(d, "result");
	n = json_array_size(commits);
	if ((r = want(json_is_object(d), path, "(top level)", "expected object", err)) < 0 ||
	    (r = want(json_is_string(json_object_get(d, "format")) &&
			      strcmp(json_string_value(json_object_get(d, "format")), "plumb-bisect") == 0,
		      path, "format", "expected \"plumb-bisect\"", err)) < 0 ||
	    (r = want(json_is_integer(json_object_get(d, "version")) &&
			      json_integer_value(json_object_get(d, "version")) == BISECT_REPORT_VERSION,
		      path, "version", "not a version this plumb reads", err)) < 0 ||
	    (r = want(json_is_array(commits) && n >= 2 && n <= BISECT_REPORT_MAX_COMMITS, path, "commits",
		      "expected an array of 2 to 100001 commits", err)) < 0 ||
	    (r = want(json_is_array(steps) && json_array_size(steps) <= BISECT_REPORT_MAX_STEPS, path, "steps",
		      "expected an array of at most 4096 steps", err)) < 0 ||
	    (r = want(json_is_object(res) && json_is_string(json_object_get(res, "summary")) &&
			      json_is_string(json_object_get(res, "outcome")),
		      path, "result", "expected an object with outcome and summary", err)) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(commits, i);
		char m[64];
		snprintf(m, sizeof(m), "commits[%zu]", i);
		if ((r = want(json_is_object(c) && json_is_string(json_object_get(c, "commit")) &&
				      json_is_string(json_object_get(c, "subject")) &&
				      json_is_string(json_object_get(c, "author")),
			      path, m, "expected an object with commit, subject and author", err)) < 0)
			goto out;
	}
	for (size_t i = 0; i < json_array_size(steps); i++)
		if ((r = check_step(json_array_get(steps, i), i, n, path, err)) < 0)
			goto out;
	v = json_object_get(res, "culprit");
	if (v && !json_is_null(v) && (r = check_index(v, n, path, "result.culprit", err)) < 0)
		goto out;
	*doc = d;
	d = NULL;
out:
	json_decref(d);
	return r;
}
