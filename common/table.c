/*
 * common/table.c: aligned text tables; see table.h.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/utf8.h"
#include "common/banned.h"

void table_init(struct table *t, size_t cols, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols;
	t->align = align;
}

void table_release(struct table *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->colours);
	memset(t, 0, sizeof(*t));
}

/* Store s, escaped, as the next cell. */
static void add_escaped(struct table *t, const char *s)
{
	struct buf b;

	if (t->failed)
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **c = realloc(t->cells, cap * sizeof(*c));
		if (!c) {
			t->failed = 1;
			return;
		}
		t->cells = c;
		t->cap = cap;
	}
	buf_init(&b, TABLE_CELL_MAX);
	if (esc_text(&b, s) < 0 || !(t->cells[t->n] = buf_detach(&b, NULL))) {
		buf_release(&b);
		t->failed = 1;
		return;
	}
	t->n++;
}

void table_cell(struct table *t, const char *s)
{
	add_escaped(t, s ? s : "");
}

void table_cellf(struct table *t, const char *fmt, ...)
{
	struct buf raw;
	va_list ap;
	int rc;

	buf_init(&raw, TABLE_CELL_MAX);
	va_start(ap, fmt);
	rc = buf_vprintf(&raw, fmt, ap);
	va_end(ap);
	if (rc < 0)
		t->failed = 1;
	else
		add_escaped(t, buf_cstr(&raw));
	buf_release(&raw);
}

void table_end_row(struct table *t, const char *colour)
{
	const char **c;

	if (t->failed)
		return;
	if (t->n != (t->rows + 1) * t->cols) {
		t->failed = 1;
		return;
	}
	c = realloc(t->colours, (t->rows + 1) * sizeof(*c));
	if (!c) {
		t->failed = 1;
		return;
	}
	t->colours = c;
	c[t->rows++] = colour;
}

void table_row(struct table *t, ...)
{
	va_list ap;

	va_start(ap, t);
	for (size_t i = 0; i < t->cols; i++)
		table_cell(t, va_arg(ap, const char *));
	va_end(ap);
	table_end_row(t, NULL);
}

static int spaces(struct buf *out, size_t n)
{
	for (; n > 0; n--)
		if (buf_addch(out, ' ') < 0)
			return -1;
	return 0;
}

int table_render(const struct table *t, struct buf *out)
{
	size_t *w;
	int rc = 0;

	if (t->failed || t->n != t->rows * t->cols)
		return -1;
	if (!(w = calloc(t->cols ? t->cols : 1, sizeof(*w))))
		return -1;
	for (size_t c = 0; c < t->cols; c++)
		w[c] = t->min ? t->min[c] : 0;
	for (size_t i = 0; i < t->n; i++) {
		size_t cw = utf8_width(t->cells[i]);
		if (cw > w[i % t->cols])
			w[i % t->cols] = cw;
	}
	for (size_t r = 0; rc == 0 && r < t->rows; r++) {
		char *const *row = t->cells + r * t->cols;
		size_t last = t->cols;

		/* The empty cells at the end are not written. */
		while (last > 1 && !*row[last - 1])
			last--;
		rc |= spaces(out, t->indent);
		for (size_t c = 0; c < last; c++) {
			size_t pad = w[c] - utf8_width(row[c]);
			int right = t->align && t->align[c] == 'r';
			int coloured = c + 1 == last && t->colours[r];

			if (c > 0)
				rc |= spaces(out, t->gap ? t->gap[c] : 2);
			if (right)
				rc |= spaces(out, pad);
			if (coloured)
				rc |= buf_addstr(out, t->colours[r]);
			rc |= buf_addstr(out, row[c]);
			if (coloured)
				rc |= buf_addstr(out, "\033[0m");
			if (!right && c + 1 < last)
				rc |= spaces(out, pad);
		}
		rc |= buf_addch(out, '\n');
	}
	free(w);
	return rc ? -1 : 0;
}

int table_write(const struct table *t, FILE *f)
{
	struct buf b;
	int rc;

	buf_init(&b, (size_t)-1);
	rc = table_render(t, &b);
	if (rc == 0 && b.len > 0 && fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}
