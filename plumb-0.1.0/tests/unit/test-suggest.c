/*
 * tests/unit/test-suggest.c: edit distance and "did you mean" (common/suggest.c).
 */
#include <string.h>

#include "tests/unit/unit.h"
#include "common/suggest.h"
#include "common/banned.h"

PLUMB_TEST(suggest_distance_counts_edits)
{
	assert_int_equal(suggest_distance("", ""), 0);
	assert_int_equal(suggest_distance("rounds", "rounds"), 0);
	assert_int_equal(suggest_distance("ROUNDS", "rounds"), 0);
	assert_int_equal(suggest_distance("round", "rounds"), 1);
	assert_int_equal(suggest_distance("rounsd", "rounds"), 1);   /* swap */
	assert_int_equal(suggest_distance("atrifact", "artifact"), 1);
	assert_int_equal(suggest_distance("rnouds", "rounds"), 2);
	assert_int_equal(suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(suggest_distance("", "abc"), 3);
	assert_int_equal(suggest_distance("abc", ""), 3);
}

PLUMB_TEST(suggest_pick_near_misses_only)
{
	const char *c[] = { "pads", "rounds", "seed", "cc" };

	assert_string_equal(suggest_pick("round", c, 4), "rounds");
	assert_string_equal(suggest_pick("Rounds", c, 4), "rounds");   /* case only */
	assert_string_equal(suggest_pick("pdas", c, 4), "pads");
	assert_null(suggest_pick("rounds", c, 4));                       /* exact */
	assert_null(suggest_pick("frobnicate", c, 4));
	assert_null(suggest_pick("xy", c, 4));    /* 2 edits, but "cc" has only 2 letters */
	assert_string_equal(suggest_pick("c", c, 4), "cc");
	assert_null(suggest_pick("anything", c, 0));
}

