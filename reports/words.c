/*
 * reports/words.c: how a report spells its vocabularies (words.h): the
 * names of the formats and of the --fail-on values, the word a compared
 * benchmark's verdict is shown with and the direction of a difference
 * without one.  Kept apart from the model's builder (compare.c) so that
 * the phrases, the renderers and the trend read the same words without
 * depending on what builds the model.
 */
#include <string.h>

#include "common/verdict.h"
#include "reports/words.h"
#include "common/banned.h"

static const char *const format_names[] = { "text", "md", "html", "json", "csv", "bmf" };

int report_format_parse(const char *s, enum report_format *out)
{
	for (size_t i = 0; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (strcmp(s, format_names[i]) == 0) {
			*out = (enum report_format)i;
			return 0;
		}
	if (strcmp(s, "markdown") == 0) {
		*out = REPORT_MARKDOWN;
		return 0;
	}
	return -1;
}

const char *report_format_name(enum report_format f)
{
	return format_names[f];
}

int report_fail_on_parse(const char *s, enum report_fail_on *out)
{
	if (strcmp(s, "slower") == 0)
		*out = REPORT_FAIL_SLOWER;
	else if (strcmp(s, "any") == 0)
		*out = REPORT_FAIL_ANY;
	else if (strcmp(s, "noisy") == 0)
		*out = REPORT_FAIL_NOISY;
	else
		return -1;
	return 0;
}

const char *report_fail_on_name(enum report_fail_on f)
{
	return f == REPORT_FAIL_SLOWER ? "slower" : f == REPORT_FAIL_ANY ? "any" :
	       f == REPORT_FAIL_NOISY ? "noisy" : f == REPORT_FAIL_CHANGE ? "change" : NULL;
}

const char *render_direction(const struct report_bench *b)
{
	return manifest_direction_name(b->direction == MANIFEST_DIRECTION_FASTER ?
				       MANIFEST_DIRECTION_FASTER : MANIFEST_DIRECTION_SLOWER);
}

const char *render_verdict_word(const struct report_bench *b)
{
	if (b->failure || b->old_failure)
		return "failed";
	if (b->missing || b->verdict == VERDICT_UNSET)
		return "not compared";
	if (b->withheld)
		return "withheld";
	return verdict_name(b->verdict);
}
