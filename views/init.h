/*
 * views/init.h: what `plumb init` prints: the file it wrote, for which
 * build system, and the next three commands of a first comparison.
 *
 * Ownership: text is appended to a caller-owned struct buf.
 */
#ifndef PLUMB_VIEWS_INIT_H
#define PLUMB_VIEWS_INIT_H

struct buf;
struct init_project;

/* 0, or -1 when out is full; path is escaped for the terminal. */
int initview_text(const char *path, const struct init_project *p, struct buf *out);

#endif
