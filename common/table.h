/*
 * common/table.h: the one engine for aligned text tables.  Every table a
 * command prints for a terminal or a cron log (plumb report's, analyze's,
 * the trend's, the archive's, --help's options) is laid out here, so they
 * all align the same way and none cuts a cell short.
 *
 * A table is filled a row at a time, then rendered once every row is
 * known: each column is as wide as its widest cell (header included) or
 * its least width (t->min), in terminal columns (utf8_width(): a wide
 * character counts two, a combining mark none); columns are two spaces
 * apart (or t->gap's, for a layout whose columns were one space apart); a cell is left-aligned unless t->align says 'r'.  The empty
 * cells at the end of a row are not written and the last cell written is
 * not padded, so no line ends in blanks.  Nothing is truncated.
 *
 * Every cell is escaped for a terminal (esc_text(), common/escape.h) as
 * it is added: a name from a bundle may go in as it is.
 *
 * Errors are sticky: a cell that cannot be stored (memory, a cell over
 * TABLE_CELL_MAX bytes) marks the table failed, and table_render() then
 * returns -1 having appended nothing.
 *
 * Ownership: struct table is caller-owned storage; table_init() sets it
 * up, table_release() frees the cells it copied.  align, min and gap are
 * borrowed and must outlive the table.
 */
#ifndef PLUMB_COMMON_TABLE_H
#define PLUMB_COMMON_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct buf;

#define TABLE_CELL_MAX ((size_t)1 << 20)

struct table {
	size_t cols;              /* cells per row */
	const char *align;        /* 'l' or 'r' per column; NULL: all left */
	const size_t *min;        /* least width per column, or NULL */
	const size_t *gap;        /* spaces before each column (the first's unused), or NULL: 2 */
	size_t indent;            /* spaces before every row */
	/* private */
	char **cells;             /* row-major, escaped */
	const char **colours;     /* per row: ANSI colour of its last cell, or NULL */
	size_t n, cap, rows;
	int failed;
};

void table_init(struct table *t, size_t cols, const char *align);
void table_release(struct table *t);

/* Add the next cell of the current row (NULL is the empty cell). */
void table_cell(struct table *t, const char *s);
void table_cellf(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * End the current row, which must have t->cols cells.  colour, when not
 * NULL, is an ANSI SGR sequence ("\033[31m") the row's last cell is
 * written in, followed by a reset.
 */
void table_end_row(struct table *t, const char *colour);

/* A whole row of t->cols strings, uncoloured. */
void table_row(struct table *t, ...);

/* Append the laid-out rows to out; 0, or -1 when out is full or the
 * table failed (then nothing was appended). */
int table_render(const struct table *t, struct buf *out);

/* The same written to f; 0, or -1 (a write error, or the table failed). */
int table_write(const struct table *t, FILE *f);

#endif
