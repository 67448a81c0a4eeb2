/*
 * common/quote.c: untrusted strings quoted for messages; see quote.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/quote.h"
#include "common/utf8.h"
#include "common/banned.h"

const char *quote(char *out, size_t size, const char *str, size_t len, size_t max,
		  enum quote_style style)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t o = 0, i = 0;

	if (!str)
		len = 0;
	while (i < len && i < max) {
		char piece[8];
		size_t n = 1, plen;
		int32_t cp = s[i];

		if (style == QUOTE_TEXT)
			n = utf8_next(s + i, len - i, &cp);
		if (style == QUOTE_TEXT && cp == '\n') {
			memcpy(piece, "\\n", plen = 2);
		} else if (style == QUOTE_TEXT && cp == '\t') {
			memcpy(piece, "\\t", plen = 2);
		} else if (style == QUOTE_TEXT && n > 1 && utf8_displayable(cp)) {
			memcpy(piece, s + i, plen = n);
		} else if (cp >= 0x20 && cp < 0x7f &&
			   (style == QUOTE_TEXT || (cp != '\\' && cp != '\''))) {
			piece[0] = (char)cp;
			plen = 1;
		} else {
			snprintf(piece, sizeof(piece), "\\x%02x", s[i]);
			plen = 4;
			n = 1;
		}
		/* Keep room for "..." and the NUL. */
		if (o + plen + 4 > size)
			break;
		memcpy(out + o, piece, plen);
		o += plen;
		i += n;
	}
	if (i < len && o + 4 <= size) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}
