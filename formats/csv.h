/*
 * formats/csv.h: the CSV export layout of `plumb report --format csv` and
 * `plumb analyze --format csv` (docs/csv.md), written in one place so the
 * two cannot differ.
 *
 * One row per benchmark x metric x side x pad, under one header row:
 *
 *   bench,mode,metric,unit,side,pad,rounds,value,center,min,max,spread,
 *   ratio,ratio_low,ratio_high,detectable_slower,detectable_faster,
 *   shift,shift_low,shift_high,shift_level,p,p_adjusted,min_effect,pads,
 *   verdict,direction
 *
 * Text fields are RFC 4180 fields in double quotes (common/escape.h
 * esc_csv(): untrusted names cannot break a row, start a formula or reach
 * a terminal); numbers are unquoted, in the metric's unit, unscaled, in
 * the shortest form that reads back to the same double; an unknown number
 * or an absent pad is an empty field.  Lines end with LF.
 *
 * Ownership: the caller owns the buffer and every string of a row.
 */
#ifndef PLUMB_FORMATS_CSV_H
#define PLUMB_FORMATS_CSV_H

#include <stdint.h>

struct buf;

/* One row; strings may be NULL (an empty field), numbers NAN, pad/rounds -1. */
struct csv_row {
	const char *bench, *mode, *metric, *unit, *side;
	int64_t pad;               /* -1: the row is the side's whole (a counter) */
	int64_t rounds;            /* -1: unknown */
	double value;              /* the pad's median over rounds (or the side's count) */
	double center, min, max, spread;   /* the side's reduction */
	double ratio, ratio_low, ratio_high;  /* the benchmark's, candidate / base */
	double detectable_slower, detectable_faster;
	/* The shift rule's: the shift and its interval (relative), the
	 * interval's coverage, p, p adjusted by Holm over the report's
	 * benchmarks, the rule's minimum effect. */
	double shift, shift_low, shift_high, shift_level, p, p_adjusted, min_effect;
	int64_t pads;              /* the row's side's pads; -1: unknown */
	const char *verdict, *direction;
};

/* A row of NULLs, NANs and -1s, to fill in. */
void csv_row_init(struct csv_row *r);

/* The shift rule's columns of r but p_adjusted (a report's alone). */
void csv_row_shift(struct csv_row *r, double shift, double lo, double hi, double level,
		   double p, double min_effect);

/* Append the header line; 0, or -1 when out is full. */
int csv_header(struct buf *out);

/* Append one row; 0, or -1 when out is full. */
int csv_put(struct buf *out, const struct csv_row *r);

#endif
