/*
 * formats/csv.c: the CSV export layout; see csv.h.
 */
#include <math.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape.h"
#include "common/units.h"
#include "formats/csv.h"
#include "common/banned.h"

void csv_row_init(struct csv_row *r)
{
	memset(r, 0, sizeof(*r));
	r->pad = r->rounds = -1;
	r->value = r->center = r->min = r->max = r->spread = NAN;
	r->ratio = r->ratio_low = r->ratio_high = NAN;
	r->detectable_slower = r->detectable_faster = NAN;
	r->shift = r->shift_low = r->shift_high = r->shift_level = NAN;
	r->p = r->p_adjusted = r->min_effect = NAN;
	r->pads = -1;
}

void csv_row_shift(struct csv_row *r, double shift, double lo, double hi, double level,
		   double p, double min_effect)
{
	r->shift = shift;
	r->shift_low = lo;
	r->shift_high = hi;
	r->shift_level = level;
	r->p = p;
	r->min_effect = min_effect;
}

int csv_header(struct buf *out)
{
	return buf_addstr(out, "bench,mode,metric,unit,side,pad,rounds,value,center,min,max,"
			  "spread,ratio,ratio_low,ratio_high,detectable_slower,"
			  "detectable_faster,shift,shift_low,shift_high,shift_level,p,"
			  "p_adjusted,min_effect,pads,verdict,direction\n");
}

/* ",<number>" or "," for an unknown one. */
static int num(struct buf *out, double v)
{
	char s[UNITS_EXACT_MAX];

	if (buf_addch(out, ',') < 0)
		return -1;
	if (isnan(v) || isinf(v))
		return 0;
	units_exact(v, UNITS_EXACT_PLAIN, s);
	return buf_addstr(out, s);
}

static int whole(struct buf *out, int64_t v)
{
	return v < 0 ? buf_addch(out, ',') : buf_printf(out, ",%lld", (long long)v);
}

static int text(struct buf *out, const char *s, int first)
{
	if (!first && buf_addch(out, ',') < 0)
		return -1;
	return s ? esc_csv(out, s) : 0;
}

int csv_put(struct buf *out, const struct csv_row *r)
{
	if (text(out, r->bench, 1) || text(out, r->mode, 0) || text(out, r->metric, 0) ||
	    text(out, r->unit, 0) || text(out, r->side, 0) ||
	    whole(out, r->pad) || whole(out, r->rounds) ||
	    num(out, r->value) || num(out, r->center) || num(out, r->min) ||
	    num(out, r->max) || num(out, r->spread) || num(out, r->ratio) ||
	    num(out, r->ratio_low) || num(out, r->ratio_high) ||
	    num(out, r->detectable_slower) || num(out, r->detectable_faster) ||
	    num(out, r->shift) || num(out, r->shift_low) || num(out, r->shift_high) ||
	    num(out, r->shift_level) || num(out, r->p) || num(out, r->p_adjusted) ||
	    num(out, r->min_effect) || whole(out, r->pads) ||
	    text(out, r->verdict, 0) || text(out, r->direction, 0) ||
	    buf_addch(out, '\n'))
		return -1;
	return 0;
}
