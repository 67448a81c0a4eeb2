/*
 * reports/github.c: GitHub Actions workflow commands for a compared model
 * (github.h): an ::error line per failed benchmark and per one that fails
 * a --fail-on slower gate, a ::warning line per one that Holm's
 * adjustment holds back from it and per noisy one (report_github()).
 * Each says the effect as every other format does, its magnitude first
 * (the shift and its interval under the shift rule, else the change of
 * the centers, with the ratio), and names the bundle it comes from (its
 * path as given, else its id).
 *
 * Escaping follows GitHub's rules for workflow commands: in the message,
 * % CR LF become %25 %0D %0A; in a property value (title=...) also : and ,
 * become %3A and %2C.  Before that every string from the bundle goes
 * through esc_text (no control character reaches the log), so a
 * benchmark name can neither end the command nor start another.
 */
#include <math.h>
#include <string.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "reports/compare.h"
#include "reports/gate.h"
#include "reports/github.h"
#include "reports/model.h"
#include "reports/render.h"
#include "reports/renderers.h"
#include "common/banned.h"

int report_github_escape(struct buf *out, const char *s, int property)
{
	struct buf t;
	int rc = 0;

	buf_init(&t, 1 << 16);
	if (esc_text(&t, s ? s : "") < 0) {
		buf_release(&t);
		return -1;
	}
	for (const char *p = buf_cstr(&t); *p && rc == 0; p++) {
		switch (*p) {
		case '%': rc = buf_addstr(out, "%25"); break;
		case '\r': rc = buf_addstr(out, "%0D"); break;
		case '\n': rc = buf_addstr(out, "%0A"); break;
		case ':': rc = property ? buf_addstr(out, "%3A") : buf_addch(out, ':'); break;
		case ',': rc = property ? buf_addstr(out, "%2C") : buf_addch(out, ','); break;
		default: rc = buf_addch(out, *p); break;
		}
	}
	buf_release(&t);
	return rc;
}

/* "::error title=plumb: NAME slower::MESSAGE\n" */
static int command(struct buf *out, const char *kind, const char *name, const char *what,
		   const char *message)
{
	struct buf title;
	int rc;

	buf_init(&title, 1 << 12);
	rc = buf_printf(&title, "plumb: %s %s", name, what);
	rc |= buf_printf(out, "::%s title=", kind);
	rc |= report_github_escape(out, buf_cstr(&title), 1);
	rc |= buf_addstr(out, "::");
	rc |= report_github_escape(out, message, 0);
	rc |= buf_addch(out, '\n');
	buf_release(&title);
	return rc ? -1 : 0;
}

/* "+50.0% wall, interval +40.0% to +60.0% (ratio 1.500), 2 pads a side": an
 * older rule's verdict, by the change of the centers. */
static int centers_effect(const struct report *r, const struct report_bench *b, struct buf *msg)
{
	char ratio[UNITS_MAX];
	int rc = 0;

	units_ratio(b->ratio, ratio);
	rc |= phrase_change_signed(b, msg);
	rc |= buf_printf(msg, " %s", metric_name(b->metric));
	if (!isnan(b->ratio_lo) && !isnan(b->ratio_hi)) {
		rc |= buf_addstr(msg, ", interval ");
		rc |= phrase_interval(b, msg);
	}
	rc |= buf_printf(msg, " (ratio %s of the %s's)", ratio, r->old_role);
	if (b->old && b->new) {
		rc |= buf_addstr(msg, ", ");
		rc |= phrase_pad_count(r, b, msg);
	}
	return rc ? -1 : 0;
}

/* "; bundle run.plumb": where the annotated result is. */
static int bundle_named(const struct report *r, struct buf *msg)
{
	if (r->new.origin)
		return buf_printf(msg, "; bundle %s", r->new.origin);
	if (r->new.bundle)
		return buf_printf(msg, "; bundle %s in the archive", r->new.bundle);
	return 0;
}

int report_github(const struct report *r, struct buf *out, struct plumb_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < r->n_benches && rc == 0; i++) {
		const struct report_bench *b = &r->benches[i];
		const char *word = verdict_name(b->verdict);
		struct buf msg;
		int slower = report_bench_fails(b, REPORT_FAIL_SLOWER);
		int held = report_bench_held(b, REPORT_FAIL_SLOWER);

		buf_init(&msg, 1 << 14);
		if (b->failure) {
			rc |= buf_printf(&msg, "%s failed: %s", b->name, b->failure);
			rc |= bundle_named(r, &msg);
			rc |= command(out, "error", b->name, "failed", buf_cstr(&msg));
		} else if ((slower || held) && b->has_shift) {
			rc |= buf_printf(&msg, "%s is %s: ", b->name, word);
			rc |= phrase_effect(r, b, &msg);
			if (held) {
				char p[UNITS_MAX];

				units_p(b->p_holm, p);
				rc |= buf_printf(&msg, "; held back from the gate by Holm's adjustment "
						 "over %zu benchmarks (adjusted p %s)", r->holm_n, p);
			}
			rc |= bundle_named(r, &msg);
			rc |= command(out, held ? "warning" : "error", b->name, word, buf_cstr(&msg));
		} else if (slower) {
			rc |= buf_printf(&msg, "%s is %s: ", b->name, word);
			rc |= centers_effect(r, b, &msg);
			rc |= bundle_named(r, &msg);
			rc |= command(out, "error", b->name, word, buf_cstr(&msg));
		} else if (report_bench_fails(b, REPORT_FAIL_NOISY)) {
			rc |= buf_printf(&msg, "%s is too noisy to tell: ", b->name);
			rc |= centers_effect(r, b, &msg);
			rc |= buf_addstr(&msg, ", within the noise");
			rc |= bundle_named(r, &msg);
			rc |= command(out, "warning", b->name, word, buf_cstr(&msg));
		}
		buf_release(&msg);
	}
	return rc ? buf_err(err, "annotations") : 0;
}

int report_github_render(const struct report_side *bundle, const struct report_side *baseline,
			 int force, enum report_fail_on fail_on, struct buf *md, struct buf *notes,
			 struct plumb_err *err)
{
	struct report r;
	int rc;

	rc = report_compare(&r, baseline ? REPORT_BASELINE : REPORT_SELF,
			    baseline ? baseline : bundle, bundle, force, err);
	if (rc < 0)
		return rc;
	r.fail_on = fail_on;
	rc = report_markdown(&r, md, err);
	if (rc == 0)
		rc = report_github(&r, notes, err);
	report_release(&r);
	return rc;
}
