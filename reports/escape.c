/*
 * reports/escape.c: the bundle's strings (benchmark names, commit
 * subjects, symbol names, notes, host facts) made safe for a terminal,
 * Markdown and HTML/SVG.  A bundle is untrusted input: a name holding an
 * escape sequence must not repaint a terminal, one holding "<script>" must
 * not run, one holding "|" must not break a table.
 */
#include <stdint.h>
#include <string.h>

#include "common/buf.h"
#include "reports/render.h"
#include "common/banned.h"

/*
 * Decode one UTF-8 character at s (n bytes left): its code point in *cp
 * and its length, or length 1 and *cp = -1 for a malformed sequence.
 */
static size_t utf8_next(const unsigned char *s, size_t n, int32_t *cp)
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

/* Characters that change how the rest of a line is shown, or are not text. */
static int unsafe(int32_t cp)
{
	return cp < 0 || cp < 0x20 || cp == 0x7F ||
	       (cp >= 0x80 && cp <= 0x9F) ||          /* C1 controls */
	       cp == 0x061C || cp == 0x200E || cp == 0x200F ||
	       (cp >= 0x202A && cp <= 0x202E) ||      /* bidi embeddings, overrides */
	       (cp >= 0x2066 && cp <= 0x2069) ||      /* bidi isolates */
	       cp == 0x2028 || cp == 0x2029 ||        /* line, paragraph separators */
	       cp == 0xFFFE || cp == 0xFFFF;          /* not characters (XML) */
}

enum esc_kind { ESC_TEXT, ESC_MD, ESC_HTML };

static int esc(struct buf *out, const char *str, enum esc_kind kind)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s), i = 0;

	while (i < n) {
		int32_t cp;
		size_t len = utf8_next(s + i, n - i, &cp);
		int r = 0;

		if (unsafe(cp)) {
			r = buf_addch(out, '?');
		} else if (kind == ESC_HTML && cp < 0x80 && strchr("&<>\"'", (int)cp)) {
			static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
			r = buf_addstr(out, ent[strchr("&<>\"'", (int)cp) - "&<>\"'"]);
		} else if (kind == ESC_MD && cp < 0x80 && strchr("\\`*_[]<>|~&$", (int)cp)) {
			r = buf_addch(out, '\\');
			if (r == 0)
				r = buf_addch(out, (char)cp);
		} else {
			r = buf_add(out, s + i, len);
		}
		if (r < 0)
			return -1;
		i += len;
	}
	return 0;
}

int esc_text(struct buf *out, const char *s)
{
	return esc(out, s, ESC_TEXT);
}

int esc_md(struct buf *out, const char *s)
{
	return esc(out, s, ESC_MD);
}

int esc_html(struct buf *out, const char *s)
{
	return esc(out, s, ESC_HTML);
}

size_t esc_width(const char *str)
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

int esc_text_pad(struct buf *out, const char *s, size_t width)
{
	size_t w = esc_width(s);

	if (esc_text(out, s) < 0)
		return -1;
	for (; w < width; w++)
		if (buf_addch(out, ' ') < 0)
			return -1;
	return 0;
}

void esc_utf8_cut(char *s)
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
