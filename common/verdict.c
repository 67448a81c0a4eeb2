/*
 * common/verdict.c: the verdict table of common/verdict.h, expanded into
 * rows and lookups.
 */
#include <string.h>

#include "common/verdict.h"
#include "common/banned.h"

#define ROW_(id, name_, colour_, fails_, decided_, directed_, words_) \
	[VERDICT_##id] = { name_, VERDICT_##colour_, fails_, decided_, directed_, words_ },
const struct verdict_def verdict_table[VERDICT_COUNT] = {
	[VERDICT_UNSET] = { "", VERDICT_PLAIN, 0, false, false, "" },
	VERDICT_TABLE(ROW_)
};
#undef ROW_

#define NAME_(id, name_, ...) [VERDICT_##id] = name_,
const char *const verdict_names[VERDICT_COUNT + 1] = {
	[VERDICT_UNSET] = "",
	VERDICT_TABLE(NAME_)
	[VERDICT_COUNT] = NULL
};
#undef NAME_

const char *verdict_name(enum verdict v)
{
	return v > VERDICT_UNSET && v < VERDICT_COUNT ? verdict_table[v].name : NULL;
}

enum verdict verdict_from_name(const char *name)
{
	for (int v = VERDICT_UNSET + 1; name && v < VERDICT_COUNT; v++)
		if (strcmp(verdict_table[v].name, name) == 0)
			return (enum verdict)v;
	return VERDICT_UNSET;
}

bool verdict_fails(enum verdict v, unsigned mode)
{
	return v > VERDICT_UNSET && v < VERDICT_COUNT && (verdict_table[v].fails & mode) != 0;
}

bool verdict_directed(enum verdict v)
{
	return v > VERDICT_UNSET && v < VERDICT_COUNT && verdict_table[v].directed;
}
