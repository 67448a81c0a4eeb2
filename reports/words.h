/*
 * reports/words.h: how a report spells its vocabularies
 * (reports/words.c): the formats and --fail-on values as the command line
 * spells them, and a compared benchmark's verdict and direction as every
 * renderer shows them.  Lookups only: the file calls nothing else in
 * reports/, so every layer of the folder may use it.
 *
 * Ownership: every string returned is static.
 */
#ifndef PLUMB_REPORTS_WORDS_H
#define PLUMB_REPORTS_WORDS_H

#include "reports/model.h"

/* Names of formats and fail-on values as the command line spells them. */
int report_format_parse(const char *s, enum report_format *out);
int report_fail_on_parse(const char *s, enum report_fail_on *out);
const char *report_format_name(enum report_format f);
/* "slower", "any", "noisy", or NULL for REPORT_FAIL_NEVER. */
const char *report_fail_on_name(enum report_fail_on f);

/* The words a verdict is shown with ("slower", "withheld", "failed", ...). */
const char *render_verdict_word(const struct report_bench *b);
/* Which way an unswept or noisy difference points: the manifest's direction
 * name, "slower" when none was recorded. */
const char *render_direction(const struct report_bench *b);

#endif
