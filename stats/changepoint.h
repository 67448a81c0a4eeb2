/*
 * stats/changepoint.h: change points in a nightly series, placement
 * aware (docs/changes.md states the method; DESIGN §12).
 *
 * A night is one archived run of one benchmark on one host: its level is
 * the mean of its pad medians (the whole range, not the center alone), and
 * the variance of that level from its own pads says how much placement
 * alone moves it.  The noise of a night's level is the larger of what the
 * pads say and what consecutive nights say (a robust estimate from their
 * differences), so neither a wide placement range nor night-to-night drift
 * can pass for a change.  A change point is where a windowed test of the
 * levels before and after it exceeds a threshold; change points are taken
 * greatest first, and later windows never reach across one already taken.
 *
 * Ownership: no pointer is kept; cp_find() fills the caller's array.
 */
#ifndef PLUMB_STATS_CHANGEPOINT_H
#define PLUMB_STATS_CHANGEPOINT_H

#include <stddef.h>

/* One night: level (finite) and the variance of that level from its pads (NAN: one pad). */
struct cp_night {
	double level;
	double var;
};

/* The method's parameters; cp_params_default() gives the documented ones. */
struct cp_params {
	size_t window;        /* nights each side of the tested split, at most (10) */
	size_t min_side;      /* nights each side, at least (2) */
	size_t size_window;   /* nights each side that size a found change (30) */
	double z;             /* threshold of the standardised difference (5) */
	double min_effect;    /* smallest relative change reported (0.005) */
	double agree;         /* fraction of each side's nights on its side of the midpoint (0.75) */
};

/* A change point: nights [at - ...) before it, [at ...) after it. */
struct cp_change {
	size_t at;            /* index of the first night after the change (>= 1) */
	double before, after; /* mean levels of the sizing windows either side */
	double ratio;         /* after / before */
	double lo, hi;        /* 95% interval of ratio */
	double z;             /* the test statistic that found it (signed) */
	size_t n_before, n_after; /* nights in the sizing windows */
};

void cp_params_default(struct cp_params *p);

/*
 * A night of k pad medians (k >= 1, finite): level = their mean, var = the
 * variance of that mean (sample variance / k; NAN when k = 1).
 */
struct cp_night cp_night_of(const double *pads, size_t k);

/*
 * The change points of x[0..n), in index order, at most max of them into
 * out (*nout how many).  The noise estimate is in *noise (the standard
 * deviation of one night's level; NULL: not wanted).  -1 when memory runs
 * out, else 0.
 */
int cp_find(const struct cp_night *x, size_t n, const struct cp_params *p,
	    struct cp_change *out, size_t max, size_t *nout, double *noise);

#endif
