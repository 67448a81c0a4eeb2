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

size_t utf8_width(const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s), i = 0, w = 0;

	while (i < n) {
		int32_t cp;
		i += utf8_next(s + i, n - i, &cp);
		w++;
	}
	return w;
}
