/*
 * runner/schedule.h: the order in which the variants run in each round
 * (DESIGN §5.4): a shuffle driven by the recorded seed, the same on every
 * machine and with every C library.
 *
 * The generator is splitmix64 (Steele, Lea and Flood, 2014): the state
 * starts at the seed; each draw adds 0x9e3779b97f4a7c15 to the state
 * (modulo 2^64) and returns it mixed by
 *     z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
 *     z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
 *     z ^ (z >> 31).
 * Round r (r = 0, 1, ...) starts from the variants in build order
 * (base pads 0..N-1, candidate pads 0..N-1, then the control) and shuffles
 * them with Fisher-Yates: for i from n-1 down to 1, element i is swapped
 * with element j, j uniform in [0, i]: a draw x below (2^64 mod (i+1)) is
 * rejected and drawn again, then j = x mod (i+1).  The draws continue from
 * one round to the next, so the whole schedule is a function of the seed
 * and the number of variants only.  With run.pads = auto an extension
 * appends variants (runner_build_more(): base pads, then candidate pads,
 * after the control); its rounds shuffle all n' variants, in that build
 * order, with the draws going on from the last round before it.
 *
 * Ownership: plain values; nothing allocates.
 */
#ifndef PLUMB_RUNNER_SCHEDULE_H
#define PLUMB_RUNNER_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

struct schedule {
	uint64_t state;
	size_t n;          /* variants per round */
	uint64_t round;    /* rounds produced so far */
};

/* One splitmix64 draw. */
uint64_t schedule_splitmix64(uint64_t *state);

/* Start a schedule of n variants from seed. */
void schedule_init(struct schedule *s, uint64_t seed, size_t n);

/* The next round's order: perm[0..n) is a permutation of 0..n-1. */
void schedule_next(struct schedule *s, size_t *perm);

#endif
