/*
 * common/quote.h: the one way an untrusted string is quoted inside an
 * error or warning message, so that a hostile name can neither repaint
 * the terminal that shows the message nor hide where it ends.
 *
 * Ownership: quote() writes into the caller's array and returns it.
 */
#ifndef PLUMB_COMMON_QUOTE_H
#define PLUMB_COMMON_QUOTE_H

#include <stddef.h>

enum quote_style {
	/*
	 * Bytes (file and member names, TSV fields): printable ASCII as it
	 * is except backslash and apostrophe; any other byte as \xHH.
	 */
	QUOTE_BYTES,
	/*
	 * Text (configuration values): displayable UTF-8 (utf8.h) and
	 * backslash as they are; newline and tab as \n and \t; any other
	 * byte as \xHH.
	 */
	QUOTE_TEXT,
};

/*
 * s[0, len) quoted in style into out (size >= 16 bytes): at most max bytes
 * of input, and "..." when some were left off (or would not fit).  A NULL
 * s is empty.  Returns out.
 */
const char *quote(char *out, size_t size, const char *s, size_t len, size_t max,
		  enum quote_style style);

#endif
