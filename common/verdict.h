/*
 * common/verdict.h: the verdicts, one row each (STYLE 18).  Every stage
 * and renderer reads this table: stats/ judges into it, the manifest reads
 * and writes its names, reports/ counts, colours, gates and explains by
 * it, the site and the HTML page take their classes from it.
 *
 * To add a verdict (what the build and the tests demand):
 *   1. a row in VERDICT_TABLE below (its place is its place in every
 *      listing and summary line);
 *   2. its cases in the switches -Wswitch names (a build with
 *      --enable-werror fails without them): stats/rule.c (where a rule
 *      gives it, and stats_undecided()), reports/phrases.c (the
 *      explanations of phrase_explain()), views/analyze.c (the rule's
 *      lines of plumb analyze);
 *   3. its name in the benches[i].verdict row of formats/bundle-v1.md and
 *      in docs/plumb.1's VERDICTS (tests/unit/test-metric.c), and the same
 *      row in formats/manifest-fields.md (t4008 finds each of its rows,
 *      verbatim, in the specification);
 *   4. the goldens that list every verdict, rewritten and read: every
 *      report's glossary and summary counts (tests/fixtures/reports/
 *      update-expect.sh ./plumb; t2010) and the imports' reports
 *      (tests/fixtures/import/make-expect.sh ./plumb; t4030).
 * Its words reach the reports' glossary and `plumb run`'s summary from
 * here (tests/unit/test-reports.c checks the glossary against them), its
 * colour the terminal and the pages.  No test reads the other lists of
 * verdicts: docs/verdict.md (what a rule means by it), docs/csv.md,
 * docs/analyze-json.md, docs/report-json.md and docs/range-json.md.
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

/* --fail-on modes (reports/model.h) under which a verdict fails a gate (reports/gate.c). */
#define VERDICT_FAILS_SLOWER 1u   /* --fail-on slower */
#define VERDICT_FAILS_ANY 2u      /* --fail-on any */
#define VERDICT_FAILS_NOISY 4u    /* --fail-on noisy */

/*
 * X(ID, name, colour, fails, decided, directed, words)
 *   name     in the manifest, JSON, CSV, the HTML classes (v-<name>)
 *   colour   enum verdict_colour, without the prefix
 *   fails    VERDICT_FAILS_* bits: the --fail-on modes it trips
 *   decided  1: the evidence answered the question (a change, or none
 *            larger than the minimum effect); 0: it could not
 *   directed 1: the verdict records which way the difference points
 *            (benches[].direction: "unswept (slower)")
 *   words    what it means, for people (the glossary, `plumb run`'s
 *            summary); they cover every rule that gives the verdict
 */
#define VERDICT_TABLE(X) \
	X(SLOWER, "slower", RED, VERDICT_FAILS_SLOWER | VERDICT_FAILS_ANY | VERDICT_FAILS_NOISY, 1, 0, \
	  "the candidate is slower: the shift's interval lies wholly above the minimum effect " \
	  "(margin and overlap rules: the candidate's range lies wholly above the base's)") \
	X(FASTER, "faster", GREEN, VERDICT_FAILS_ANY, 1, 0, \
	  "the candidate is faster: the shift's interval lies wholly below minus the minimum " \
	  "effect (margin and overlap rules: the candidate's range lies wholly below the base's)") \
	X(UNCHANGED, "unchanged", GREY, 0, 1, 0, \
	  "no change larger than the minimum effect: the shift's interval lies wholly inside " \
	  "it (shift rule)") \
	X(PLACEMENT, "placement", GREY, 0, 0, 0, \
	  "a difference that cannot be told from where the code sits: the shift's interval " \
	  "reaches across an edge of the minimum effect (margin and overlap rules: the ranges " \
	  "overlap), or the hot code is identical and the work the same") \
	X(UNSWEPT, "unswept", AMBER, 0, 0, 1, \
	  "too few pads on a side to tell a change from placement at the rule's confidence " \
	  "(4+4 pads reach 97% at most)") \
	X(INSUFFICIENT, "insufficient", AMBER, 0, 0, 0, \
	  "too few rounds, or a side without samples") \
	X(NOISY, "noisy", AMBER, VERDICT_FAILS_NOISY, 0, 1, \
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
	bool directed;
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

/* Whether v records a direction (unswept, noisy); false for UNSET. */
bool verdict_directed(enum verdict v);

#endif
