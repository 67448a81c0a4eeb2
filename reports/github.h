/*
 * reports/github.h: GitHub Actions workflow commands for a compared model
 * (reports/github.c).  report_github_escape() appends s escaped as a
 * workflow command's message (property 0) or property value (property
 * 1), after esc_text.  report_github() appends an ::error line per failed
 * benchmark and per one that fails --fail-on slower (Holm's adjustment
 * included), a ::warning line per one that the adjustment holds back and
 * per noisy one.  report_github_render() compares as report_render()
 * does (the gate fail_on stated in the Markdown) and appends the Markdown
 * report to md and the annotations to notes.
 *
 * Ownership: every function appends to the caller's buffers; nothing
 * outlives a call.
 */
#ifndef PLUMB_REPORTS_GITHUB_H
#define PLUMB_REPORTS_GITHUB_H

#include "reports/model.h"

struct buf;
struct plumb_err;

int report_github_escape(struct buf *out, const char *s, int property);
int report_github(const struct report *r, struct buf *out, struct plumb_err *err);
int report_github_render(const struct report_side *bundle, const struct report_side *baseline,
			 int force, enum report_fail_on fail_on, struct buf *md, struct buf *notes,
			 struct plumb_err *err);

#endif
