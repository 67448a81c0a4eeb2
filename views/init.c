/*
 * views/init.c: the text of `plumb init`; see init.h.
 */
#include "common/buf.h"
#include "common/escape.h"
#include "formats/init.h"
#include "views/init.h"
#include "common/banned.h"

int initview_text(const char *path, const struct init_project *p, struct buf *out)
{
	const char *b = init_build_name(p->build);
	int rc = 0;

	rc |= buf_addstr(out, "plumb init: wrote ");
	rc |= esc_text(out, path);
	rc |= buf_printf(out, " for a project built with %s", b ? b : "make (nothing recognised:");
	if (!b)
		rc |= buf_addstr(out, " edit build.command)");
	if (!p->artifact_found)
		rc |= buf_addstr(out, "; set build.artifact to the program the build makes");
	rc |= buf_addstr(out, "\nnext:\n"
			 "  plumb run --dry-run        what would be built and run, nothing done\n"
			 "  plumb run -o first.plumb   build both commits at several pads, measure, judge\n"
			 "  plumb report first.plumb   the comparison again: text, Markdown, HTML, JSON\n");
	return rc ? -1 : 0;
}
