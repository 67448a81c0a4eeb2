/*
 * common/verdict.h: the verdicts, one row each (STYLE 18).  Every stage
 * and renderer reads this table: stats/ judges into it, the manifest reads
 * and writes its names, reports/ counts, colours, gates and explains by
 * it, the site and the HTML page take their classes from it.
 *
 * To add a verdict:
 *   1. a row in VERDICT_TABLE below (its place is its place in every
 *      listing and summary line);
 *   2. where a rule gives it: stats/rule.c (and its meaning in
 *      docs/verdict.md);
 *   3. its name in formats/bundle-v1.md's benches[].verdict and in
 *      docs/plumb.1's VERDICTS;
 *   4. its sentence in reports/compare.c's explanation (-Wswitch names a
 *      forgotten case there).
 * tests/unit/test-metric.c checks every row's name against both documents.
 *
 * Ownership: the table is static and read-only.
 */
#ifndef PLUMB_COMMON_VERDICT_H
#define PLUMB_COMMON_VERDICT_H

#include <stdbool.h>

/* How a verdict looks: a terminal colour and the HTML page's colour variable. */
enum verdict_colour {
	VERDICT_PLAIN,    /* no colour */
	VERDICT_RED,      /* a regression */
	VERDICT_GREEN,    /* an improvement */
	VERDICT_GREY,     /* nothing to act on */
	VERDICT_AMBER     /* the evidence could not decide */
};

/* --fail-on modes (reports/report.h) under which a verdict fails a gate. */
#define VERDICT_FAILS_SLOWER 1u   /* --fail-on slower */
#define VERDICT_FAILS_ANY 2u      /* --fail-on any */
#define VERDICT_FAILS_NOISY 4u    /* --fail-on noisy */

/*
 * X(ID, name, colour, fails, decided, words)
 *   name     in the manifest, JSON, CSV, the HTML classes (v-<name>)
 *   colour   enum verdict_colour, without the prefix
 *   fails    VERDICT_FAILS_* bits: the --fail-on modes it trips
 *   decided  1: the evidence answered the question (a change, or none
 *            larger than the minimum effect); 0: it could not
 *   words    what it means, for people (the glossary)
 */
#define VERDICT_TABLE(X) \
	X(SLOWER, "slower", RED, VERDICT_FAILS_SLOWER | VERDICT_FAILS_ANY | VERDICT_FAILS_NOISY, 1, \
	  "the candidate is slower: the change lies wholly above the minimum effect") \
	X(FASTER, "faster", GREEN, VERDICT_FAILS_ANY, 1, \
	  "the candidate is faster: the change lies wholly below minus the minimum effect") \
	X(UNCHANGED, "unchanged", GREY, 0, 1, \
	  "no change larger than the minimum effect: the change's interval lies wholly inside it") \
	X(PLACEMENT, "placement", GREY, 0, 0, \
	  "a difference that cannot be told from where the code sits: the change's interval " \
	  "reaches across an edge of the minimum effect (or the hot code and the work are the same)") \
	X(UNSWEPT, "unswept", AMBER, 0, 0, \
	  "too few pads on a side to tell a change from placement at the rule's confidence") \
	X(INSUFFICIENT, "insufficient", AMBER, 0, 0, \
	  "too few rounds, or a side without samples") \
	X(NOISY, "noisy", AMBER, VERDICT_FAILS_NOISY, 0, \
	  "margin rule: the ranges are apart, but by no more than the noise")

#define VERDICT_ENUM_ROW_(id, ...) VERDICT_##id,
enum verdict {
	VERDICT_UNSET,    /* not judged (a failed benchmark), or no such name */
	VERDICT_TABLE(VERDICT_ENUM_ROW_)
	VERDICT_COUNT
};
#undef VERDICT_ENUM_ROW_

struct verdict_def {
	const char *name;
	enum verdict_colour colour;
	unsigned fails;
	bool decided;
	const char *words;
};

/* Indexed by enum verdict; row VERDICT_UNSET has name "" and no words. */
extern const struct verdict_def verdict_table[VERDICT_COUNT];

/* The names by enum verdict, "" for UNSET, NULL after the last (for enum readers). */
extern const char *const verdict_names[VERDICT_COUNT + 1];

/* "slower"; NULL for UNSET or out of range. */
const char *verdict_name(enum verdict v);

/* The verdict of that name; VERDICT_UNSET for any other string or NULL. */
enum verdict verdict_from_name(const char *name);

/* Whether v trips a gate of mode bits VERDICT_FAILS_*. */
bool verdict_fails(enum verdict v, unsigned mode);

#endif
