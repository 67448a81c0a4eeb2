/*
 * tests/unit/test-changes.c: reports/changes: which series a benchmark's
 * change points are found on (the candidate's level, or its ratio to one
 * base measured in the same job), a night on each, and a change that
 * moved no code (the same commit either side: the host's, never gated).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tests/unit/unit.h"
#include "common/err.h"
#include "reports/changes.h"
#include "reports/trend.h"
#include "common/banned.h"

static const double cand[] = { 110, 120, 100, 110 };   /* mean 110, sample variance 200/3 */
static const double base[] = { 100, 98, 102, 100 };    /* mean 100 */

/* A night measured against base commit b (NULL: none recorded). */
static struct changes_obs obs(const char *commit, const char *b)
{
	struct changes_obs o = {
		.pads = cand, .npads = 4, .center = 110, .min = 100, .max = 120,
		.base_pads = base, .nbase = 4, .base_center = 100, .ratio = 1.1,
		.commit = commit, .base_commit = b,
	};
	return o;
}

/* One base every night: the within-night series; anything else: the level. */
PLUMB_TEST(changes_series_is_within_night_only_against_one_base)
{
	struct changes_obs o[3] = { obs("c1", "b0"), obs("c2", "b0"), obs("c3", "b0") };
	const char *b;

	assert_int_equal(changes_series_of(o, 3, &b), CHANGES_WITHIN);
	assert_string_equal(b, "b0");
	assert_string_equal(changes_series_name(CHANGES_WITHIN), "within-night");
	/* Another base on one night: the nights are not comparable ratios. */
	o[1].base_commit = "b1";
	assert_int_equal(changes_series_of(o, 3, &b), CHANGES_LEVEL);
	assert_null(b);
	assert_string_equal(changes_series_name(CHANGES_LEVEL), "level");
	/* No base recorded. */
	o[1].base_commit = NULL;
	assert_int_equal(changes_series_of(o, 3, &b), CHANGES_LEVEL);
	/* A base named but nothing measured of it. */
	o[1].base_commit = "b0";
	o[1].nbase = 0;
	o[1].ratio = NAN;
	o[1].base_center = NAN;
	assert_int_equal(changes_series_of(o, 3, &b), CHANGES_LEVEL);
	/* A night with no level at all is skipped, not a reason to fall back. */
	o[1] = obs("c2", NULL);
	o[1].npads = 0;
	o[1].center = o[1].min = o[1].max = NAN;
	assert_int_equal(changes_series_of(o, 3, &b), CHANGES_WITHIN);
	assert_int_equal(changes_series_of(o, 0, &b), CHANGES_LEVEL);
}

/*
 * Within the night: the candidate's pad mean over the base's, with the
 * variance of the candidate's mean alone; without pads the recorded ratio.
 */
PLUMB_TEST(changes_night_within_is_the_ratio_of_pad_means)
{
	struct changes_obs o = obs("c1", "b0");
	struct cp_night lv = changes_night(&o, CHANGES_LEVEL), in = changes_night(&o, CHANGES_WITHIN);

	assert_true(fabs(lv.level - 110) < 1e-12);
	assert_true(fabs(lv.var - 200.0 / 3 / 4) < 1e-9);
	assert_true(fabs(in.level - 1.1) < 1e-12);
	assert_true(fabs(in.var - 200.0 / 3 / 4 / (100.0 * 100.0)) < 1e-12);
	o.npads = 0;
	in = changes_night(&o, CHANGES_WITHIN);
	assert_true(in.level == 1.1 && isnan(in.var));
	lv = changes_night(&o, CHANGES_LEVEL);
	assert_true(lv.level == 110 && isnan(lv.var));
	o.ratio = NAN;
	in = changes_night(&o, CHANGES_WITHIN);
	assert_true(fabs(in.level - 1.1) < 1e-12);
	o.base_center = NAN;
	assert_true(isnan(changes_night(&o, CHANGES_WITHIN).level));
}

/* The same commit either side: the host moved; its object says so, and the series. */
PLUMB_TEST(changes_same_commit_either_side_is_the_host)
{
	struct changes_ref a = { "fb82883f00", "2026-01-02", "1" }, b = { "fb82883f00", "2026-01-03", "2" };
	struct changes_ref c = { "0123456789", "2026-01-03", "3" }, none = { NULL, NULL, NULL };
	struct cp_change ch = { .at = 5, .before = 1.0, .after = 1.1, .ratio = 1.1, .lo = 1.05,
				.hi = 1.15, .z = 7, .n_before = 5, .n_after = 2 };
	json_t *o;

	assert_true(changes_is_host(&a, &b));
	assert_false(changes_is_host(&a, &c));
	assert_false(changes_is_host(&none, &none));
	o = changes_object(&ch, &a, &b, CHANGES_LEVEL);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "cause")), "host");
	assert_string_equal(json_string_value(json_object_get(o, "series")), "level");
	assert_string_equal(json_string_value(json_object_get(o, "commits")), "fb82883f00..fb82883f00");
	json_decref(o);
	o = changes_object(&ch, &a, &c, CHANGES_WITHIN);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "cause")), "commits");
	assert_string_equal(json_string_value(json_object_get(o, "series")), "within-night");
	json_decref(o);
}

/*
 * A series of one commit whose host drifts 10% against one base: its
 * change points are looked for on the within-night ratio, which does not
 * move, and the JSON says which series it was.
 */
PLUMB_TEST(changes_trend_model_says_which_series)
{
	static char commit[] = "fb82883f", base_id[] = "b0";
	struct query_trend_point pts[40];
	double pads[40][4], base_pads[40][4];
	struct query_trend_result t = { .bench = "b0", .metric = "wall", .host = "5ca1",
					.points = pts, .n = 40 };
	struct trend_series s;
	struct plumb_err err;
	json_t *o;

	plumb_err_clear(&err);
	memset(pts, 0, sizeof(pts));
	for (int i = 0; i < 40; i++) {
		double h = i < 20 ? 1.0 : 1.1, w = 1 + 0.001 * (i % 3);
		struct query_trend_point *p = &pts[i];
		p->commit = commit;
		p->base_commit = base_id;
		p->center = 110 * h * w;
		p->min = p->max = p->spread = p->ratio = p->base_center = p->noise = NAN;
		pads[i][0] = 109 * h * w, pads[i][1] = 110 * h * w;
		pads[i][2] = 111 * h * w, pads[i][3] = 110 * h * w;
		base_pads[i][0] = 99 * h, base_pads[i][1] = 100 * h;
		base_pads[i][2] = 101 * h, base_pads[i][3] = 100 * h;
		p->pads = pads[i], p->npads = 4;
		p->base_pads = base_pads[i], p->nbase_pads = 4;
	}
	assert_int_equal(trend_series_find(&t, &s, &err), 0);
	assert_int_equal(s.series, CHANGES_WITHIN);
	assert_string_equal(s.base, "b0");
	assert_int_equal(json_array_size(s.changes), 0);
	o = json_object();
	assert_non_null(o);
	assert_int_equal(trend_json_found(o, &s), 0);
	assert_string_equal(json_string_value(json_object_get(o, "series")), "within-night");
	assert_string_equal(json_string_value(json_object_get(o, "series_base")), "b0");
	json_decref(o);
	trend_series_release(&s);
	/* The same nights with no base: the level moves 10%, the host's change (one commit). */
	for (size_t i = 0; i < 40; i++)
		pts[i].base_commit = NULL;
	assert_int_equal(trend_series_find(&t, &s, &err), 0);
	assert_int_equal(s.series, CHANGES_LEVEL);
	assert_null(s.base);
	assert_int_equal(json_array_size(s.changes), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(s.changes, 0), "cause")),
			    "host");
	assert_int_equal(s.host, 1);
	assert_int_equal(s.p[20].change, 1);
	assert_true(s.p[20].change_host);
	o = json_object();
	assert_non_null(o);
	assert_int_equal(trend_json_found(o, &s), 0);
	assert_string_equal(json_string_value(json_object_get(o, "series")), "level");
	assert_true(json_is_null(json_object_get(o, "series_base")));
	json_decref(o);
	trend_series_release(&s);
}
