/*
 * reports/report.c: the stage `plumb report` and `plumb run` call:
 * compare, render in one format, decide what the comparison means for
 * the exit status, and write the result (atomically to a file, or to
 * standard output).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "reports/compare.h"
#include "reports/gate.h"
#include "reports/hostdiff.h"
#include "reports/render.h"
#include "reports/renderers.h"
#include "reports/report.h"
#include "reports/words.h"
#include "common/banned.h"

/* What each --fail-on asks for, in a message. */
static const char *fail_on_words(enum report_fail_on f)
{
	return f == REPORT_FAIL_SLOWER ? "slower" : f == REPORT_FAIL_ANY ? "slower or faster" :
	       "slower or too noisy to tell";
}

/* The first blocker, for the message of a withheld comparison. */
static void withheld_message(const struct report *r, char *msg, size_t size)
{
	for (size_t i = 0; i < r->host.n_items; i++) {
		const struct hostdiff_item *it = &r->host.items[i];
		struct buf t;
		if (it->level != HOSTDIFF_BLOCKER)
			continue;
		buf_init(&t, PLUMB_ERR_MAX);
		buf_printf(&t, "%s differs: %s \u2192 %s (%s)", it->what, it->old, it->new,
			   hostdiff_scope_text(it->scope, 0));
		snprintf(msg, size,
			 "hosts not comparable: %.400s; verdicts withheld, --force compares anyway",
			 buf_cstr(&t));
		buf_release(&t);
		return;
	}
	snprintf(msg, size, "hosts not comparable; verdicts withheld, --force compares anyway");
}

void report_result_of(const struct report *r, enum report_fail_on fail_on,
		      struct report_result *res)
{
	struct buf names;
	size_t failing;

	memset(res, 0, sizeof(*res));
	buf_init(&names, sizeof(res->summary));
	if (phrase_summary(r, &names) == 0)
		snprintf(res->summary, sizeof(res->summary), "%s", buf_cstr(&names));
	buf_release(&names);
	if (r->withheld) {
		res->withheld = 1;
		withheld_message(r, res->message, sizeof(res->message));
		return;
	}
	buf_init(&names, PLUMB_ERR_MAX / 2);
	res->failed = report_failed(r, &names);
	if (res->failed && fail_on != REPORT_FAIL_NEVER)
		snprintf(res->message, sizeof(res->message),
			 "%zu benchmark%s failed (--fail-on %s): %s", res->failed,
			 res->failed == 1 ? "" : "s", report_fail_on_name(fail_on),
			 buf_cstr(&names));
	buf_reset(&names);
	failing = report_failing(r, fail_on, &names);
	res->failon_matched = failing;
	if (failing && !res->message[0] && r->holm_n)
		snprintf(res->message, sizeof(res->message),
			 "%zu benchmark%s %s (--fail-on %s, Holm over %zu benchmark%s): %s",
			 failing, failing == 1 ? "" : "s", fail_on_words(fail_on),
			 report_fail_on_name(fail_on), r->holm_n, r->holm_n == 1 ? "" : "s",
			 buf_cstr(&names));
	else if (failing && !res->message[0])
		snprintf(res->message, sizeof(res->message),
			 "%zu benchmark%s %s (--fail-on %s): %s",
			 failing, failing == 1 ? "" : "s", fail_on_words(fail_on),
			 report_fail_on_name(fail_on), buf_cstr(&names));
	buf_release(&names);
}

int report_render(const struct report_side *bundle,
		  const struct report_side *baseline,
		  const struct report_opts *o, struct buf *out,
		  struct report_result *res, struct plumb_err *err)
{
	struct report r;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = report_compare(&r, baseline ? REPORT_BASELINE : REPORT_SELF,
			    baseline ? baseline : bundle, bundle, o->force, err);
	if (rc < 0)
		return rc;
	r.fail_on = o->fail_on;
	switch (o->format) {
	case REPORT_TEXT:
		rc = report_text(&r, o->color, out, err);
		break;
	case REPORT_MARKDOWN:
		rc = report_markdown(&r, out, err);
		break;
	case REPORT_JSON:
		rc = report_json(&r, o, out, err);
		break;
	case REPORT_HTML:
		rc = report_html(&r, out, err);
		break;
	case REPORT_CSV:
		rc = report_csv(&r, out, err);
		break;
	case REPORT_BMF:
		rc = report_bmf(&r, out, err);
		break;
	}
	if (rc == 0)
		report_result_of(&r, o->fail_on, res);
	report_release(&r);
	return rc;
}

int report_write(const struct buf *text, const char *path, struct plumb_err *err)
{
	struct atomic_file af;
	int rc;

	if (!path) {
		if (text->len && fwrite(text->data, 1, text->len, stdout) != text->len)
			return plumb_err_errno(err, PLUMB_EIO, errno, "standard output", "write");
		if (fflush(stdout) != 0)
			return plumb_err_errno(err, PLUMB_EIO, errno, "standard output", "write");
		return 0;
	}
	if ((rc = atomic_file_open(&af, path, 0644, err)) < 0)
		return rc;
	if ((rc = atomic_file_write(&af, text->data ? text->data : "", text->len, err)) < 0) {
		atomic_file_abort(&af);
		return rc;
	}
	return atomic_file_commit(&af, err);
}
