/*
 * common/escape.h: untrusted strings (a bundle's benchmark names, commit
 * subjects, symbol names, notes, host facts; a repository's refs; a
 * child's output) made safe for a terminal, Markdown and HTML/SVG.  A
 * name holding an escape sequence must not repaint a terminal, one
 * holding "<script>" must not run, one holding "|" must not break a table.
 *
 * Each function appends s with every character that could change what a
 * reader sees replaced by '?': control characters (C0, DEL, C1),
 * bidirectional overrides and isolates, line and paragraph separators,
 * and malformed UTF-8 (utf8_displayable()).  Then, for its format:
 *   esc_text  nothing more (a terminal or a log);
 *   esc_md    Markdown punctuation that could start markup or end a table
 *             cell is backslash-escaped;
 *   esc_html  & < > " ' as entities (valid in HTML and XML, in text and in
 *             attribute values);
 *   esc_csv   one RFC 4180 field: in double quotes, a quote doubled, and a
 *             leading = + - @ (a spreadsheet formula) preceded by a single
 *             quote.
 * A NULL s is the empty string.  They return 0, or -1 when out is full.
 *
 * Ownership: the caller owns out (or the FILE); nothing here allocates
 * memory that outlives a call.
 */
#ifndef PLUMB_COMMON_ESCAPE_H
#define PLUMB_COMMON_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

struct buf;

int esc_text(struct buf *out, const char *s);
int esc_md(struct buf *out, const char *s);
int esc_html(struct buf *out, const char *s);
int esc_csv(struct buf *out, const char *s);

/*
 * Text of several lines, each escaped as esc_text() does: the newlines
 * between them stay.  For a view rendered whole, then escaped once.
 */
int esc_text_lines(struct buf *out, const char *s);

/*
 * Append s escaped, then pad with spaces to width columns (utf8_width()):
 * a fixed column.  A table whose columns fit their cells is common/table.h.
 */
int esc_text_pad(struct buf *out, const char *s, size_t width);

/*
 * The same for a stream: s as esc_text() shows it, then spaces up to
 * width columns (0: none).  Returns 0, or -1 on a write error.
 */
int esc_fputs(FILE *f, const char *s, size_t width);

#endif
