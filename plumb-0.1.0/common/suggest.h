/*
 * common/suggest.h: "did you mean" for misspelt names (keys, benchmarks,
 * commands).  A near miss is within an edit distance of 2, counting a swap
 * of two neighbouring letters as one edit, ignoring case.
 *
 * Ownership: nothing is allocated; suggest_pick() returns one of the
 * caller's candidate pointers.
 */
#ifndef PLUMB_COMMON_SUGGEST_H
#define PLUMB_COMMON_SUGGEST_H

#include <stddef.h>

/* The most edits suggest_pick() accepts. */
#define SUGGEST_MAX_DISTANCE 2

/*
 * Optimal-string-alignment (restricted Damerau-Levenshtein) distance
 * between a and b, ASCII case ignored.  Strings longer than 255 bytes
 * count as far from everything (SIZE_MAX).
 */
size_t suggest_distance(const char *a, const char *b);

/*
 * The candidate nearest to word, when within SUGGEST_MAX_DISTANCE edits
 * and fewer edits than the candidate has letters (so "xy" does not suggest
 * "cc"); the first of equals wins.  NULL when none is near, or when word
 * equals a candidate exactly (nothing to suggest).
 */
const char *suggest_pick(const char *word, const char *const *candidates,
			 size_t n);

#endif
