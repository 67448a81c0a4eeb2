/*
 * common/suggest.c: edit distance and "did you mean"; see suggest.h.
 */
#include <stdint.h>
#include <string.h>

#include "common/suggest.h"
#include "common/banned.h"

#define SUGGEST_LEN_MAX 255

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

size_t suggest_distance(const char *a, const char *b)
{
	/* Three rows of the dynamic-programming table suffice for OSA. */
	size_t rows[3][SUGGEST_LEN_MAX + 1];
	size_t la = strlen(a), lb = strlen(b);

	if (la > SUGGEST_LEN_MAX || lb > SUGGEST_LEN_MAX)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3], *prev2 = rows[(i + 1) % 3];
		unsigned char ca = fold((unsigned char)a[i - 1]);

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned char cb = fold((unsigned char)b[j - 1]);
			size_t cost = ca == cb ? 0 : 1;
			size_t best = prev[j] + 1;

			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + cost < best)
				best = prev[j - 1] + cost;
			if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) &&
			    fold((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}

const char *suggest_pick(const char *word, const char *const *candidates,
			 size_t n)
{
	const char *best = NULL;
	size_t best_d = SUGGEST_MAX_DISTANCE + 1;

	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(word, candidates[i]);

		if (d == 0 && strcmp(word, candidates[i]) == 0)
			return NULL;
		if (d < best_d && d < strlen(candidates[i])) {
			best = candidates[i];
			best_d = d;
		}
	}
	return best;
}
