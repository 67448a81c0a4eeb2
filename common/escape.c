/*
 * common/escape.c: escaping for terminal, Markdown and HTML; see escape.h.
 */
#include <stdint.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape.h"
#include "common/utf8.h"
#include "common/banned.h"

enum esc_kind { ESC_TEXT, ESC_MD, ESC_HTML, ESC_CSV };

static int esc(struct buf *out, const char *str, enum esc_kind kind)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t n = strlen((const char *)s), i = 0;

	while (i < n) {
		int32_t cp;
		size_t len = utf8_next(s + i, n - i, &cp);
		int r = 0;

		if (!utf8_displayable(cp)) {
			r = buf_addch(out, '?');
		} else if (kind == ESC_HTML && cp < 0x80 && strchr("&<>\"'", (int)cp)) {
			static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
			r = buf_addstr(out, ent[strchr("&<>\"'", (int)cp) - "&<>\"'"]);
		} else if (kind == ESC_CSV && cp == '"') {
			r = buf_addstr(out, "\"\"");
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

int esc_csv(struct buf *out, const char *s)
{
	/* A leading = + - @ makes a spreadsheet evaluate the cell (OWASP's
	 * "CSV injection"): a quote before it keeps the cell text. */
	int formula = s && *s && strchr("=+-@", *s);

	if (buf_addch(out, '"') < 0 || (formula && buf_addch(out, '\'') < 0) ||
	    esc(out, s, ESC_CSV) < 0 || buf_addch(out, '"') < 0)
		return -1;
	return 0;
}

int esc_text_lines(struct buf *out, const char *s)
{
	struct buf line;
	int rc = 0;

	if (!s)
		return 0;
	buf_init(&line, strlen(s) + 1);
	while (rc == 0 && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		buf_reset(&line);
		rc = buf_add(&line, s, n) < 0 || esc_text(out, buf_cstr(&line)) < 0 ||
		     (nl && buf_addch(out, '\n') < 0) ? -1 : 0;
		s += n + (nl ? 1 : 0);
	}
	buf_release(&line);
	return rc;
}

int esc_text_pad(struct buf *out, const char *s, size_t width)
{
	size_t w = utf8_width(s);

	if (esc_text(out, s) < 0)
		return -1;
	for (; w < width; w++)
		if (buf_addch(out, ' ') < 0)
			return -1;
	return 0;
}

int esc_fputs(FILE *f, const char *s, size_t width)
{
	struct buf b;
	int rc;

	/* Escaping at most quadruples a string (a byte becomes "?" or stays). */
	buf_init(&b, (s ? strlen(s) : 0) + width + 16);
	rc = esc_text_pad(&b, s, width);
	if (rc == 0 && b.len > 0 && fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}
