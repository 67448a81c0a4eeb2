/*
 * common/utf8.h: the one UTF-8 decoder and the named policies every
 * reader and view applies to text.  Which bytes are acceptable depends on
 * what the text is, never on who asks:
 *
 *   UTF8_VALID      well-formed UTF-8 (no overlong form, surrogate or code
 *                   point past U+10FFFF); any character.  Text that ends
 *                   up in JSON (plumb.conf values).
 *   UTF8_PRINTABLE  valid, and no C0 control but tab, no DEL, no C1
 *                   control (minisign's rule for trusted comments).
 *   UTF8_NAME       valid, and no C0 control at all (tab included), no
 *                   DEL, no C1 control: a benchmark or metric name, a host
 *                   fact, one line of a child's output.
 *
 * utf8_displayable() is the stricter test of what may reach a terminal,
 * a page or a table (common/escape.h): UTF8_NAME's characters less the
 * bidirectional controls, line and paragraph separators and non-characters.
 *
 * Ownership: nothing here allocates.
 */
#ifndef PLUMB_COMMON_UTF8_H
#define PLUMB_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

enum utf8_policy { UTF8_VALID, UTF8_PRINTABLE, UTF8_NAME };

/* What utf8_check() found: the first problem of the text. */
enum utf8_problem { UTF8_OK = 0, UTF8_MALFORMED, UTF8_CONTROL };

/*
 * Decode one character at s (n >= 1 bytes left): its length (1 to 4) and
 * its code point in *cp, or length 1 and *cp = -1 for a malformed or
 * truncated sequence.
 */
size_t utf8_next(const unsigned char *s, size_t n, int32_t *cp);

/* The first problem of s[0, n) under policy, or UTF8_OK. */
enum utf8_problem utf8_check(const char *s, size_t n, enum utf8_policy policy);

/* 1 when s[0, n) passes policy, else 0. */
int utf8_ok(const char *s, size_t n, enum utf8_policy policy);

/* 1 when cp (-1 for a malformed byte) may be shown to a reader as it is. */
int utf8_displayable(int32_t cp);

/* Drop a UTF-8 sequence cut short at the end of s (after a truncation). */
void utf8_cut(char *s);

/*
 * The terminal columns s takes once escaped (common/escape.h): a wide
 * character (CJK, Hangul, fullwidth forms, emoji) two, a combining mark or
 * zero-width character none, a character that may not be shown (and a
 * malformed byte) one, for the '?' that replaces it; the rest one.
 */
size_t utf8_width(const char *s);

#endif
