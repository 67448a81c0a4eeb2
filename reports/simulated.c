/*
 * reports/simulated.c: what a benchmark's simulated counts say beside its
 * wall-clock verdict (issue: attribution).  A count of instructions is
 * exact for one build: when base and candidate execute the same number,
 * they did the same work, and a wall-clock difference comes from where
 * the code landed or from the machine.  The simulated cache cost is exact
 * too, but it moves with placement; its spread over the pads says how
 * much layout alone moves it.
 *
 * Read from the manifests' Valgrind members (formats/manifest-valgrind.h),
 * checked by manifest_validate() when the bundle was read.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/err.h"
#include "common/units.h"
#include "formats/manifest-valgrind.h"
#include "reports/model.h"
#include "reports/notes.h"
#include "reports/render.h"
#include "formats/jsonio.h"
#include "common/banned.h"

/*
 * Two jobs run the artifact from run folders whose names (a pid) may differ
 * in length, and the program's start-up code walks its arguments and
 * environment: against a baseline bundle, counts this close are one work.
 */
#define SIM_SAME_WORK 1e-4

int report_vg_deterministic(const struct manifest_bench *mb, const struct manifest_bench *ob)
{
	if (!metric_deterministic(mb->metric) ||
	    !json_is_true(json_object_get(mb->valgrind, "deterministic")))
		return 0;
	return !ob || json_is_true(json_object_get(ob->valgrind, "deterministic"));
}

static double spread_of(const struct manifest_vg_stat *s)
{
	return s->present && s->center > 0 ? (s->max - s->min) / s->center : NAN;
}

/* "valgrind 3.19.0 (cachegrind; I1 32768,8,64 ...)": the kind of counts. */
static int kind_note(const struct report *r, struct report_bench *b, const struct manifest *m,
		     struct plumb_err *err)
{
	const json_t *run = m->run.valgrind, *g = json_object_get(run, "geometry");
	const char *lv[3] = { "I1", "D1", "LL" };
	char geo[3][64];
	char t[UNITS_MAX];

	for (int i = 0; i < 3; i++) {
		const json_t *l = json_object_get(g, lv[i]);
		snprintf(geo[i], sizeof(geo[i]), "%s %lld B %lld-way %lld B lines", lv[i],
			 (long long)json_integer_value(json_object_get(l, "size")),
			 (long long)json_integer_value(json_object_get(l, "assoc")),
			 (long long)json_integer_value(json_object_get(l, "lineSize")));
	}
	units_value((double)json_integer_value(json_object_get(run, "ns")), UNITS_TIME_NS, 1, t);
	(void)r;
	return report_add_note(b, err, "counts: simulated by %s %s (%s; %s; %s; cost = %s), "
			       "not hardware counts; hardware counters %s; the valgrind runs "
			       "took %s", b->sim.source,
			       json_string_value(json_object_get(run, "version")), geo[0], geo[1], geo[2],
			       json_string_value(json_object_get(run, "costFormula")),
			       m->run.counters_available == 1 ? "read too" : "not read", t);
}

int report_vg_attach(const struct report *r, struct report_bench *b,
		     const struct manifest_bench *mb, const struct manifest_bench *ob,
		     struct plumb_err *err)
{
	const struct manifest_bench *oldb = r->kind == REPORT_SELF ? mb : ob;
	const char *oside = manifest_side_name(r->old.side);
	struct manifest_vg_stat io, in, co, cn;
	char x[UNITS_MAX], y[UNITS_MAX], p1[UNITS_MAX], p2[UNITS_MAX], d[UNITS_MAX];
	int rc;

	memset(&b->sim, 0, sizeof(b->sim));
	b->sim.instr_old = b->sim.instr_new = b->sim.cost_old = b->sim.cost_new = NAN;
	b->sim.cost_spread_old = b->sim.cost_spread_new = NAN;
	if (!mb->valgrind || !oldb || !oldb->valgrind || !r->new.m->run.valgrind)
		return 0;
	b->sim.present = 1;
	b->sim.source = json_string_value(json_object_get(mb->valgrind, "source"));
	b->sim.deterministic = report_vg_deterministic(mb, r->kind == REPORT_SELF ? NULL : ob) ||
		(!metric_deterministic(mb->metric) &&
		 json_is_true(json_object_get(mb->valgrind, "deterministic")) &&
		 json_is_true(json_object_get(oldb->valgrind, "deterministic")));
	manifest_vg_stat(oldb->valgrind, oside, METRIC_VG_INSTRUCTIONS, &io);
	manifest_vg_stat(mb->valgrind, "candidate", METRIC_VG_INSTRUCTIONS, &in);
	manifest_vg_stat(oldb->valgrind, oside, METRIC_CACHESIM, &co);
	manifest_vg_stat(mb->valgrind, "candidate", METRIC_CACHESIM, &cn);
	b->sim.instr_old = io.center;
	b->sim.instr_new = in.center;
	b->sim.cost_old = co.center;
	b->sim.cost_new = cn.center;
	b->sim.cost_spread_old = spread_of(&co);
	b->sim.cost_spread_new = spread_of(&cn);
	if ((rc = kind_note(r, b, r->new.m, err)) < 0)
		return rc;
	if (!b->sim.deterministic)
		return report_add_note(b, err, "simulated counts not deterministic: %s",
				       json_string_value(json_object_get(mb->valgrind, "difference")) ?
				       json_string_value(json_object_get(mb->valgrind, "difference")) :
				       "the baseline's were not");
	if (io.present && in.present) {
		double apart = fabs(in.center - io.center);
		int flat = io.min == io.max && in.min == in.max;
		units_whole(io.center, x);
		units_whole(in.center, y);
		units_whole(apart, d);
		b->sim.same_work = flat && (apart == 0 || (r->kind == REPORT_BASELINE &&
							    apart <= SIM_SAME_WORK * io.center));
		if (b->sim.same_work && apart == 0)
			rc = report_add_note(b, err, "instructions (simulated): %s %s, %s %s at every pad: "
					     "the same work: a wall-clock difference is placement or "
					     "the machine", r->old_role, x, r->new_role, y);
		else if (b->sim.same_work)
			rc = report_add_note(b, err, "instructions (simulated): %s %s, %s %s at every pad, "
					     "%s apart (the two jobs' argument and environment sizes "
					     "differ, and start-up code reads them): the same work: a "
					     "wall-clock difference is placement or the machine",
					     r->old_role, x, r->new_role, y, d);
		else {
			units_percent(io.center > 0 ? in.center / io.center - 1 : NAN, p1);
			rc = report_add_note(b, err, "instructions (simulated): %s %s, %s %s (%s): the "
					     "work changed", r->old_role, x, r->new_role, y, p1);
		}
		if (rc < 0)
			return rc;
	}
	if (co.present && cn.present) {
		units_percent(b->sim.cost_spread_old, p1);
		units_percent(b->sim.cost_spread_new, p2);
		rc = report_add_note(b, err, "simulated cost (cachesim) over pads: %s spread %s, "
				     "%s spread %s: how much layout alone moves it", r->old_role, p1,
				     r->new_role, p2);
	}
	return rc;
}

json_t *report_vg_json(const struct report_bench *b)
{
	json_t *o;
	int bad = 0;

	if (!b->sim.present)
		return json_null();
	o = json_object();
	if (!o)
		return NULL;
	bad |= json_object_set_new(o, "source", b->sim.source ? json_string(b->sim.source) : json_null());
	bad |= json_object_set_new(o, "deterministic", json_boolean(b->sim.deterministic));
	bad |= json_object_set_new(o, "instructionsOld", jsonio_real(b->sim.instr_old));
	bad |= json_object_set_new(o, "instructionsNew", jsonio_real(b->sim.instr_new));
	bad |= json_object_set_new(o, "sameWork", json_boolean(b->sim.deterministic &&
								b->sim.same_work));
	bad |= json_object_set_new(o, "cachesimOld", jsonio_real(b->sim.cost_old));
	bad |= json_object_set_new(o, "cachesimNew", jsonio_real(b->sim.cost_new));
	bad |= json_object_set_new(o, "cachesimSpreadOld", jsonio_real(b->sim.cost_spread_old));
	bad |= json_object_set_new(o, "cachesimSpreadNew", jsonio_real(b->sim.cost_spread_new));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
