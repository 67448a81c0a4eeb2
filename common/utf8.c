/*
 * common/utf8.c: decoding UTF-8 and the named policies of utf8.h.
 */
#include <string.h>

#include "common/utf8.h"
#include "common/banned.h"

size_t utf8_next(const unsigned char *s, size_t n, int32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len, i;

	if (c < 0x80) {
		*cp = (int32_t)c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		c &= 0x1F;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		c &= 0x0F;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		*cp = -1;
		return 1;
	}
	if (n < len) {
		*cp = -1;
		return 1;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = -1;
			return 1;
		}
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
		*cp = -1;
		return 1;
	}
	*cp = (int32_t)c;
	return len;
}

/* C0 controls, DEL and C1 controls. */
static int is_control(int32_t cp)
{
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

enum utf8_problem utf8_check(const char *str, size_t n, enum utf8_policy policy)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < n) {
		int32_t cp;
		size_t len = utf8_next(s + i, n - i, &cp);

		if (cp < 0)
			return UTF8_MALFORMED;
		if (policy != UTF8_VALID && is_control(cp) &&
		    !(policy == UTF8_PRINTABLE && cp == '\t'))
			return UTF8_CONTROL;
		i += len;
	}
	return UTF8_OK;
}

int utf8_ok(const char *s, size_t n, enum utf8_policy policy)
{
	return utf8_check(s, n, policy) == UTF8_OK;
}

int utf8_displayable(int32_t cp)
{
	return !(cp < 0 || is_control(cp) ||
		 cp == 0x061C || cp == 0x200E || cp == 0x200F ||
		 (cp >= 0x202A && cp <= 0x202E) ||     /* bidi embeddings, overrides */
		 (cp >= 0x2066 && cp <= 0x2069) ||     /* bidi isolates */
		 cp == 0x2028 || cp == 0x2029 ||       /* line, paragraph separators */
		 cp == 0xFFFE || cp == 0xFFFF);        /* not characters (XML) */
}

void utf8_cut(char *s)
{
	size_t n = strlen(s), start, need;
	unsigned char c;

	if (n == 0)
		return;
	/* Find the lead byte of the last sequence, and drop it when short. */
	start = n - 1;
	while (start > 0 && n - start < 4 && ((unsigned char)s[start] & 0xC0) == 0x80)
		start--;
	c = (unsigned char)s[start];
	need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
	if (n - start < need)
		s[start] = '\0';
}

/*
 * Terminal columns of a character that may be shown: two for the East
 * Asian wide and fullwidth blocks (Unicode's East Asian Width W and F:
 * Hangul, CJK, kana, fullwidth forms) and the pictographic emoji blocks,
 * none for combining marks, zero-width characters and variation
 * selectors, one for everything else.  The blocks, not every code point:
 * what a name in a table needs to stay aligned, not a full wcwidth().
 */
static size_t columns(int32_t cp)
{
	static const struct { int32_t lo, hi; } zero[] = {
		{ 0x0300, 0x036F }, { 0x0483, 0x0489 }, { 0x0591, 0x05BD }, { 0x0610, 0x061A },
		{ 0x064B, 0x065F }, { 0x1AB0, 0x1AFF }, { 0x1DC0, 0x1DFF }, { 0x200B, 0x200D },
		{ 0x2060, 0x2064 }, { 0x20D0, 0x20FF }, { 0xFE00, 0xFE0F }, { 0xFE20, 0xFE2F },
		{ 0xFEFF, 0xFEFF }, { 0xE0100, 0xE01EF },
	}, wide[] = {
		{ 0x1100, 0x115F }, { 0x2E80, 0x303E }, { 0x3041, 0x33FF }, { 0x3400, 0x4DBF },
		{ 0x4E00, 0x9FFF }, { 0xA000, 0xA4CF }, { 0xA960, 0xA97F }, { 0xAC00, 0xD7A3 },
		{ 0xF900, 0xFAFF }, { 0xFE10, 0xFE19 }, { 0xFE30, 0xFE6F }, { 0xFF00, 0xFF60 },
		{ 0xFFE0, 0xFFE6 }, { 0x1F300, 0x1F64F }, { 0x1F680, 0x1F6FF }, { 0x1F900, 0x1F9FF },
		{ 0x20000, 0x2FFFD }, { 0x30000, 0x3FFFD },
	};

	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (cp >= zero[i].lo && cp <= zero[i].hi)
			return 0;
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (cp >= wide[i].lo && cp <= wide[i].hi)
			return 2;
	return 1;
}

size_t utf8_width(const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s), i = 0, w = 0;

	while (i < n) {
		int32_t cp;
		i += utf8_next(s + i, n - i, &cp);
		/* What may not be shown is escaped as one '?' (common/escape.h). */
		w += utf8_displayable(cp) ? columns(cp) : 1;
	}
	return w;
}
