/*
 * reports/html-page.h: the HTML page scaffold every page of plumb uses
 * (the report, the trend, the archive's index pages): the head with the
 * viewport and a Content-Security-Policy that loads nothing, the one
 * stylesheet, the footer and the verdict badge.  Strings are escaped
 * with esc_html() (common/escape.h), the one HTML escaper; a page that
 * needs more style passes it to html_begin_style() instead of copying
 * the sheet.
 *
 * Ownership: every function appends to a caller's struct buf and returns
 * 0, or -1 when the buffer is full.
 */
#ifndef PLUMB_REPORTS_HTML_PAGE_H
#define PLUMB_REPORTS_HTML_PAGE_H

struct buf;

/*
 * Open a page: doctype, head (charset, viewport, CSP, generator), the
 * escaped title, the shared stylesheet followed by style (raw CSS the
 * caller owns, or NULL), and <body>.
 */
int html_begin_style(struct buf *out, const char *title, const char *style);
/* html_begin_style() without extra style. */
int html_begin(struct buf *out, const char *title);
/* The footer ("this page is self-contained") and the closing tags. */
int html_end(struct buf *out);

/*
 * A verdict badge: <span class="verdict v-CLS">WORD</span>, coloured by
 * the sheet's v-slower, v-faster, v-placement, v-unswept, v-insufficient,
 * v-noisy, v-withheld, v-failed, v-none; cls NULL or "" is "none", word
 * is escaped.
 */
int html_badge(struct buf *out, const char *cls, const char *word);

/*
 * A commit id as every page shows it: its first 12 characters, the whole
 * id on hover, both escaped: <span class="id" title="ID">SHORT</span>
 * ("?" for NULL).
 */
#define HTML_ID_SHOWN 12
int html_commit(struct buf *out, const char *id);

#endif
