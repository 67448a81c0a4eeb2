/*
 * views/audit.c: the report of `plumb audit` (see audit.h).  The audit
 * and its manifest become one JSON document (parts, items, differences,
 * benchmarks); --format json prints it through the one JSON writer, and
 * the text, Markdown and HTML renderers walk the same document, escaping
 * every string for their format.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/units.h"
#include "formats/bundle.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "reports/audit.h"
#include "stats/rule.h"
#include "views/audit.h"
#include "common/banned.h"

int view_audit_format_parse(const char *s, enum view_audit_format *out)
{
	static const char *const names[] = { "text", "md", "html", "json" };

	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum view_audit_format)i;
			return 0;
		}
	return -1;
}

/* ---- the document -------------------------------------------------------- */

struct doc {
	json_t *root;
	int bad;           /* out of memory somewhere */
};

/* A string for the document: NULL stays null, text not UTF-8 is named so. */
static json_t *jstr(const char *s)
{
	json_t *v;

	if (!s)
		return json_null();
	v = json_string(s);
	return v ? v : json_string("(not UTF-8 text)");
}

static void set(struct doc *d, json_t *o, const char *key, json_t *v)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0)
		d->bad = 1;
}

static void push(struct doc *d, json_t *a, json_t *v)
{
	if (!a || !v || json_array_append_new(a, v) < 0)
		d->bad = 1;
}

/* One key and value line of a part; the value printf-formatted. */
static void item(struct doc *d, json_t *items, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void item(struct doc *d, json_t *items, const char *key, const char *fmt, ...)
{
	char *v;
	va_list ap;
	struct buf b;
	json_t *o = json_object();

	buf_init(&b, (size_t)1 << 20);
	va_start(ap, fmt);
	if (buf_vprintf(&b, fmt, ap) < 0)
		d->bad = 1;
	va_end(ap);
	v = buf_detach(&b, NULL);
	set(d, o, "key", jstr(key));
	set(d, o, "value", jstr(v ? v : ""));
	free(v);
	push(d, items, o);
}

/* A part: its name, title, state and summary, and an empty item list. */
static json_t *part(struct doc *d, const char *name, const char *title, const char *state,
		    const char *summary, json_t **items)
{
	json_t *p = json_object();

	*items = json_array();
	set(d, p, "part", jstr(name));
	set(d, p, "title", jstr(title));
	set(d, p, "state", jstr(state));
	set(d, p, "summary", jstr(summary));
	if (*items)
		json_incref(*items);
	set(d, p, "items", *items);
	push(d, json_object_get(d->root, "parts"), p);
	json_decref(*items);
	return p;
}

static const char *or_none(const char *s)
{
	return s ? s : "(not recorded)";
}

/* ---- integrity ----------------------------------------------------------- */

/* The artifacts/ members, when there are any: verification checked each. */
static void stored_artifacts(struct doc *d, json_t *items, const struct bundle_info *in)
{
	size_t n = 0;

	for (size_t i = 0; i < in->n_members; i++)
		n += !in->members[i].is_dir && bundle_artifact_member(in->members[i].name);
	if (n)
		item(d, items, "artifacts", "%zu stored, each matching its variant's recorded "
		     "artifact hash", n);
}

static void integrity(struct doc *d, const struct audit *a)
{
	const struct bundle_info *in = &a->info;
	char summary[PLUMB_ERR_MAX + 64];
	size_t files = 0;
	json_t *items;

	if (a->integrity == AUDIT_FAIL)
		snprintf(summary, sizeof(summary), "%s", a->integrity_error);
	else if (a->integrity == AUDIT_UNVERIFIED)
		snprintf(summary, sizeof(summary), "a folder without SHA256SUMS: its files are "
			 "unverified");
	else
		snprintf(summary, sizeof(summary), "every member matches SHA256SUMS");
	part(d, "integrity", "Integrity", audit_state_name(a->integrity), summary, &items);
	if (a->integrity == AUDIT_FAIL)
		return;
	for (size_t i = 0; i < in->n_members; i++)
		files += !in->members[i].is_dir;
	item(d, items, "id", "%s", a->integrity == AUDIT_UNVERIFIED ? "none (no SHA256SUMS)" : in->id);
	item(d, items, "members", "%zu file%s%s", files, files == 1 ? "" : "s",
	     a->integrity == AUDIT_UNVERIFIED ? ", not checked against checksums" :
	     ", each hashed and matching SHA256SUMS");
	item(d, items, "samples", "%llu rows", (unsigned long long)in->samples_rows);
	stored_artifacts(d, items, in);
	switch (in->sig) {
	case BUNDLE_SIG_GOOD:
		item(d, items, "signature", "good, key %s (%s%s)", in->sig_keyid,
		     a->keys.from_folder ? "trusted key " : "", a->keys.paths[in->sig_key]);
		item(d, items, "trusted comment", "%s", in->sig_comment);
		break;
	case BUNDLE_SIG_UNCHECKED:
		item(d, items, "signature", "present, key %s, not checked: no trusted key (-p, or "
		     "*.pub in %s)", in->sig_keyid, a->keys.folder ? a->keys.folder : "the trusted-keys folder");
		item(d, items, "trusted comment", "%s", in->sig_comment);
		break;
	default:
		item(d, items, "signature", "none");
		break;
	}
}

/* ---- consistency --------------------------------------------------------- */

static void consistency(struct doc *d, const struct audit *a)
{
	const struct manifest *m = &a->info.manifest;
	char summary[160];
	json_t *items, *p, *diffs;

	if (a->consistency == AUDIT_NOT_CHECKED)
		snprintf(summary, sizeof(summary), "the integrity check failed");
	else if (a->consistency == AUDIT_PASS)
		snprintf(summary, sizeof(summary), "the manifest agrees with samples.tsv");
	else
		snprintf(summary, sizeof(summary), "%zu difference%s between the manifest and "
			 "its samples", a->diffs.total + a->n_unknown_rule,
			 a->diffs.total + a->n_unknown_rule == 1 ? "" : "s");
	p = part(d, "consistency", "Consistency", audit_state_name(a->consistency), summary,
		 &items);
	if (a->consistency == AUDIT_NOT_CHECKED)
		return;
	item(d, items, "benchmarks", "%zu of %zu re-judged from samples.tsv under the rule each "
	     "names", a->info.checked_benches, m->n_benches);
	item(d, items, "rows", "every row's benchmark, side, pad and round checked against the "
	     "manifest");
	item(d, items, "fingerprint", "%s", a->info.fingerprint_checked ?
	     "recomputed from the host facts" :
	     "not recomputed (no fingerprint, or facts not written by plumb)");
	diffs = json_array();
	for (size_t i = 0; i < a->diffs.n; i++)
		push(d, diffs, jstr(a->diffs.msg[i]));
	if (a->diffs.total > a->diffs.n) {
		char more[64];
		snprintf(more, sizeof(more), "... and %zu more", a->diffs.total - a->diffs.n);
		push(d, diffs, jstr(more));
	}
	for (size_t i = 0; i < a->n_benches && i < m->n_benches; i++) {
		char *msg;
		if (a->benches[i].rule_known)
			continue;
		msg = buf_strdupf("manifest.json: benches[%zu].rule: '%s' version %lld is not "
				  "implemented by this plumb: the verdict cannot be re-judged", i,
				  m->benches[i].rule.name ? m->benches[i].rule.name : "?",
				  (long long)m->benches[i].rule.version);
		push(d, diffs, jstr(msg));
		free(msg);
	}
	set(d, p, "differences", diffs);
}

/* ---- provenance ---------------------------------------------------------- */

static const char *spec_str(const json_t *spec, const char *group, const char *key)
{
	const json_t *v = json_object_get(json_object_get(spec, group), key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static void commit_item(struct doc *d, json_t *items, const char *label,
			const struct manifest_commit *c)
{
	item(d, items, label, "%s = %s%s%s%s%s%s%s%s%s", or_none(c->ref), or_none(c->commit),
	     c->tree ? ", tree " : "", c->tree ? c->tree : "",
	     c->subject ? ", \"" : "", c->subject ? c->subject : "", c->subject ? "\"" : "",
	     c->author ? ", by " : "", c->author ? c->author : "",
	     c->dirty == 1 ? ", from a dirty working copy" : "");
}

static void host_item(struct doc *d, json_t *items, const char *label, const json_t *h)
{
	const char *model = json_string_value(json_object_get(json_object_get(h, "cpu"), "model"));
	const json_t *logical = json_object_get(json_object_get(h, "cpu"), "logical");
	const char *kernel = json_string_value(json_object_get(json_object_get(h, "kernel"), "release"));
	const char *gov = json_string_value(json_object_get(json_object_get(h, "cpufreq"), "governor"));
	const json_t *turbo = json_object_get(json_object_get(h, "cpufreq"), "turbo");
	const char *cc = json_string_value(json_object_get(json_object_get(h, "compiler"), "version"));
	char cpus[32];

	if (!h) {
		item(d, items, label, "(not recorded)");
		return;
	}
	if (json_is_integer(logical))
		snprintf(cpus, sizeof(cpus), "%lld", (long long)json_integer_value(logical));
	item(d, items, label, "%s, %s CPUs, kernel %s, governor %s, turbo %s; compiler %s",
	     or_none(model), json_is_integer(logical) ? cpus : "(not recorded)",
	     or_none(kernel), or_none(gov),
	     json_is_true(turbo) ? "on" : json_is_false(turbo) ? "off" : "unknown", or_none(cc));
}

/* The members of the manifest's provenance object, as recorded. */
static void recorded_provenance(struct doc *d, json_t *items, const json_t *p)
{
	const json_t *v, *e;
	const char *k;
	size_t i;

	if (!p)
		return;
	if (json_is_string(json_object_get(p, "remote")))
		item(d, items, "remote", "%s", json_string_value(json_object_get(p, "remote")));
	if (json_is_string(json_object_get(p, "workdir")))
		item(d, items, "working folder", "%s", json_string_value(json_object_get(p, "workdir")));
	json_object_foreach((json_t *)json_object_get(p, "environment"), k, v) {
		char *key = buf_strdupf("env %s", k);
		item(d, items, key ? key : "env", "%s", or_none(json_string_value(v)));
		free(key);
	}
	json_array_foreach(json_object_get(p, "commands"), i, e) {
		char *key = buf_strdupf("run %s %s", json_string_value(json_object_get(e, "bench")),
					json_string_value(json_object_get(e, "variant")));
		item(d, items, key ? key : "run", "%s%s", json_string_value(json_object_get(e, "line")),
		     json_is_true(json_object_get(e, "shell")) ? "  (through /bin/sh -c)" : "");
		free(key);
	}
	json_array_foreach(json_object_get(p, "inputs"), i, e) {
		char *key = buf_strdupf("input %s", json_string_value(json_object_get(e, "path")));
		item(d, items, key ? key : "input", "%lld bytes, sha256 %s",
		     (long long)json_integer_value(json_object_get(e, "size")),
		     json_string_value(json_object_get(e, "sha256")));
		free(key);
	}
	json_array_foreach(json_object_get(p, "artifacts"), i, e) {
		const char *member = json_string_value(json_object_get(e, "member"));
		char *key = buf_strdupf("kept %s", json_string_value(json_object_get(e, "variant")));
		if (member)
			item(d, items, key ? key : "kept", "%s, %lld bytes, sha256 %s", member,
			     (long long)json_integer_value(json_object_get(e, "size")),
			     json_string_value(json_object_get(e, "sha256")));
		else
			item(d, items, key ? key : "kept", "not stored: %s",
			     or_none(json_string_value(json_object_get(e, "omitted"))));
		free(key);
	}
	json_object_foreach((json_t *)json_object_get(p, "toolchain"), k, v) {
		char *key = buf_strdupf("toolchain %s", k);
		item(d, items, key ? key : "toolchain", "%s", or_none(json_string_value(v)));
		free(key);
	}
	v = json_object_get(p, "plumb");
	if (json_is_object(v))
		item(d, items, "plumb", "%s, source commit %s",
		     or_none(json_string_value(json_object_get(v, "version"))),
		     or_none(json_string_value(json_object_get(v, "commit"))));
}

static void provenance(struct doc *d, const struct audit *a)
{
	const struct manifest *m = &a->info.manifest;
	const json_t *spec = m->spec, *benches = json_object_get(spec, "bench");
	const json_t *env = json_object_get(json_object_get(spec, "run"), "env");
	struct buf missing;
	json_t *items;
	char *miss, warm[64];
	json_t *file;
	size_t i;

	if (a->integrity == AUDIT_FAIL) {
		part(d, "provenance", "Provenance", audit_state_name(AUDIT_NOT_CHECKED),
		     "the integrity check failed", &items);
		return;
	}
	buf_init(&missing, 4096);
	if (!m->repo.base.tree || !m->repo.candidate.tree)
		buf_addstr(&missing, ", tree ids");
	if (!m->build.command)
		buf_addstr(&missing, ", build command");
	if (!m->run.n_order)
		buf_addstr(&missing, ", round order");
	if (!m->host.end)
		buf_addstr(&missing, ", host facts at the end");
	if (!m->provenance)
		buf_addstr(&missing, ", environment values, working folder, commands as run, "
			   "inputs, toolchain");
	miss = buf_detach(&missing, NULL);
	if (miss && *miss) {
		char *s = buf_strdupf("not recorded: %s", miss + 2);
		part(d, "provenance", "Provenance", "incomplete", s ? s : "incomplete", &items);
		free(s);
	} else {
		part(d, "provenance", "Provenance", "pass", "what the run did, as recorded", &items);
	}
	free(miss);
	item(d, items, "written by", "%s %s, %s", or_none(m->tool.name), or_none(m->tool.version),
	     or_none(m->created));
	/* An imported bundle: the files it was made from (plumb import). */
	json_array_foreach(json_object_get(m->source, "files"), i, file)
		item(d, items, "imported from", "%s (%s side, sha256 %s)",
		     or_none(json_string_value(json_object_get(file, "path"))),
		     or_none(json_string_value(json_object_get(file, "side"))),
		     or_none(json_string_value(json_object_get(file, "sha256"))));
	item(d, items, "repository", "%s", m->repo.url ? m->repo.url :
	     or_none(spec_str(spec, "repo", "url") ? spec_str(spec, "repo", "url") :
		     spec_str(spec, "repo", "path")));
	commit_item(d, items, "base", &m->repo.base);
	commit_item(d, items, "candidate", &m->repo.candidate);
	item(d, items, "build", "%s (pads by %s, %lld bytes a step, %zu variants)",
	     or_none(m->build.command), manifest_method_name(m->build.method),
	     (long long)m->build.pad_bytes, m->build.n_variants);
	for (i = 0; i < m->build.n_variants; i++) {
		const struct manifest_variant *v = &m->build.variants[i];
		char label[MANIFEST_LABEL_MAX], key[MANIFEST_LABEL_MAX + 16];
		if (!v->artifact_sha256)
			continue;
		manifest_variant_label(v, label);
		snprintf(key, sizeof(key), "artifact %s", label);
		item(d, items, key, "%s, %lld bytes, sha256 %s", or_none(v->artifact_path),
		     (long long)v->artifact_size, v->artifact_sha256);
	}
	for (i = 0; i < json_array_size(benches); i++) {
		const json_t *b = json_array_get(benches, i);
		const char *name = json_string_value(json_object_get(b, "name"));
		const char *cmd = json_string_value(json_object_get(b, "command"));
		const char *mode = json_string_value(json_object_get(b, "mode"));
		const char *metric = json_string_value(json_object_get(b, "metric"));
		char *key = buf_strdupf("bench %s", name ? name : "?");
		item(d, items, key ? key : "bench", "%s (%s mode, metric %s)", or_none(cmd),
		     or_none(mode), or_none(metric));
		free(key);
	}
	if (json_is_array(env)) {
		struct buf names;
		char *s;
		buf_init(&names, 1 << 16);
		for (i = 0; i < json_array_size(env); i++)
			if (json_is_string(json_array_get(env, i)))
				buf_printf(&names, "%s%s", i ? " " : "",
					   json_string_value(json_array_get(env, i)));
		s = buf_detach(&names, NULL);
		item(d, items, "environment", "%s", s && *s ? s : "(none passed)");
		free(s);
	}
	if (m->run.warmup_runs >= 0)
		snprintf(warm, sizeof(warm), "%lld warmup run%s a variant", (long long)m->run.warmup_runs,
			 m->run.warmup_runs == 1 ? "" : "s");
	else
		snprintf(warm, sizeof(warm), "warmup runs not recorded");
	item(d, items, "schedule", "%lld rounds, seed %lld, round order %s, %s%s%s",
	     (long long)m->run.rounds, (long long)m->run.seed,
	     m->run.n_order ? "recorded" : "not recorded", warm,
	     m->run.warmup_policy ? ", samples warmup " : "",
	     m->run.warmup_policy ? m->run.warmup_policy : "");
	if (m->run.start || m->run.end)
		item(d, items, "ran", "%s to %s", or_none(m->run.start), or_none(m->run.end));
	if (m->run.containment_method)
		item(d, items, "containment", "%s", m->run.containment_method);
	for (i = 0; i < m->run.n_labels; i++) {
		char *key = buf_strdupf("label %s", m->run.labels[i].key);
		item(d, items, key ? key : "label", "%s", or_none(m->run.labels[i].value));
		free(key);
	}
	recorded_provenance(d, items, m->provenance);
	host_item(d, items, "host at start", m->host.start);
	if (m->host.end)
		host_item(d, items, "host at end", m->host.end);
	if (m->host.fingerprint)
		item(d, items, "host fingerprint", "%s", m->host.fingerprint);
}

/* ---- re-analysis --------------------------------------------------------- */

static char *verdict_text(const char *v, const char *dir, const char *rule, long long version)
{
	return buf_strdupf("%s%s%s%s (%s v%lld)", v ? v : "-", dir ? " (" : "", dir ? dir : "",
			   dir ? ")" : "", rule, version);
}

static void reanalysis(struct doc *d, const struct audit *a)
{
	const struct manifest *m = &a->info.manifest;
	char summary[200], level[UNITS_MAX];
	json_t *items, *rows = json_array();
	size_t judged = 0;

	units_level(a->today_rule.confidence, level);
	for (size_t i = 0; i < a->n_benches; i++)
		judged += a->benches[i].judged;
	if (a->integrity == AUDIT_FAIL)
		snprintf(summary, sizeof(summary), "the integrity check failed");
	else if (a->n_differ)
		snprintf(summary, sizeof(summary), "%zu of %zu verdicts differ under today's rule "
			 "(%s, version %d, at %s)", a->n_differ, judged,
			 stats_rule_name(a->today_rule.kind), a->today_rule.version, level);
	else
		snprintf(summary, sizeof(summary), "today's rule (%s, version %d, at %s) gives the "
			 "recorded verdicts", stats_rule_name(a->today_rule.kind),
			 a->today_rule.version, level);
	part(d, "reanalysis", "Re-analysis under today's rule",
	     a->integrity == AUDIT_FAIL ? audit_state_name(AUDIT_NOT_CHECKED) :
	     a->n_differ ? "differs" : "pass", summary, &items);
	for (size_t i = 0; a->integrity != AUDIT_FAIL && i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		const struct audit_bench *ab = i < a->n_benches ? &a->benches[i] : NULL;
		json_t *r = json_object();
		char *rec, *today = NULL, ratio[UNITS_MAX];

		set(d, r, "name", jstr(b->name));
		if (b->failure || !ab || !ab->judged) {
			set(d, r, "recorded", jstr(b->failure ? "failed" : "-"));
			set(d, r, "today", jstr("-"));
			set(d, r, "ratio", jstr("-"));
			set(d, r, "differs", json_false());
			set(d, r, "reason", jstr(b->failure ? b->failure : "not judged"));
			push(d, rows, r);
			continue;
		}
		rec = verdict_text(verdict_name(b->verdict),
				   manifest_direction_name(b->direction),
				   stats_rule_name(ab->recorded_rule.kind), ab->recorded_rule.version);
		today = verdict_text(verdict_name(ab->today.verdict),
				     verdict_directed(ab->today.verdict) ?
				     stats_direction_name(ab->today.direction) : NULL,
				     stats_rule_name(a->today_rule.kind), a->today_rule.version);
		units_ratio(ab->today.has_ratio ? ab->today.ratio : NAN, ratio);
		set(d, r, "recorded", jstr(rec ? rec : "?"));
		set(d, r, "today", jstr(today ? today : "?"));
		set(d, r, "ratio", jstr(ratio));
		set(d, r, "differs", json_boolean(ab->differs));
		set(d, r, "reason", jstr(stats_reason_name(ab->today.reason)));
		push(d, rows, r);
		free(rec);
		free(today);
	}
	set(d, json_array_get(json_object_get(d->root, "parts"),
			      json_array_size(json_object_get(d->root, "parts")) - 1),
	    "benches", rows);
}

/* ---- re-measurement ------------------------------------------------------ */

static void remeasure(struct doc *d, const struct audit *a)
{
	const struct audit_remeasure *re = &a->re;
	const struct manifest *m = &a->info.manifest;
	const char *state = !re->host.comparable ? "not comparable" :
			    re->reproduced ? "reproduced" : "not reproduced";
	char summary[PLUMB_ERR_MAX];
	json_t *items, *p;

	if (!re->host.comparable)
		snprintf(summary, sizeof(summary), "this host is not comparable with the recorded one");
	else
		snprintf(summary, sizeof(summary), "%zu of %zu benchmarks reproduced",
			 re->n_reproduced, m->n_benches);
	p = part(d, "remeasure", "Re-measurement on this host", state, summary, &items);
	set(d, p, "reproduced", json_boolean(re->reproduced));
	/* A different CPU model is said first: the host's items come in that order. */
	for (size_t i = 0; i < re->host.n_items; i++) {
		const struct hostdiff_item *h = &re->host.items[i];
		item(d, items, h->level == HOSTDIFF_BLOCKER ? "host (not comparable)" : "host",
		     "%s differs: %s (recorded) -> %s (this host)", h->what, h->old, h->new);
	}
	if (re->host.n_items == 0)
		item(d, items, "host", "the facts that decide comparability are the recorded ones");
	item(d, items, "new bundle", "%s, id %s", re->bundle, re->id[0] ? re->id : "-");
	item(d, items, "commits", "%s", re->same_commits ?
	     "the refs name the recorded commits" :
	     "the refs name other commits than the recorded ones");
	for (size_t i = 0; i < m->n_benches; i++) {
		const struct audit_again *g = &re->benches[i];
		enum units_dim dim = metric_dim(m->benches[i].metric);
		char key[128], c[2][UNITS_MAX], lo[2][UNITS_MAX], hi[2][UNITS_MAX];

		snprintf(key, sizeof(key), "bench %.100s", m->benches[i].name);
		if (!g->found || g->failed) {
			item(d, items, key, "%s -> %s: not reproduced", g->old_verdict, g->new_verdict);
			continue;
		}
		for (int s = 0; s < 2; s++) {
			units_value(g->new_center[s], dim, 0, c[s]);
			units_value(g->old_min[s], dim, 0, lo[s]);
			units_value(g->old_max[s], dim, 0, hi[s]);
		}
		item(d, items, key, "base %s %s %s-%s, candidate %s %s %s-%s, verdict %s -> %s: %s",
		     c[0], g->within[0] ? "within" : "outside", lo[0], hi[0],
		     c[1], g->within[1] ? "within" : "outside", lo[1], hi[1],
		     g->old_verdict, g->new_verdict, g->reproduced ? "reproduced" : "not reproduced");
	}
}

static json_t *build(const struct audit *a)
{
	struct doc d = { json_object(), 0 };

	set(&d, d.root, "format", jstr("plumb-audit"));
	set(&d, d.root, "version", json_integer(VIEW_AUDIT_JSON_VERSION));
	set(&d, d.root, "bundle", jstr(a->path));
	set(&d, d.root, "id", a->integrity == AUDIT_PASS ? jstr(a->info.id) : json_null());
	set(&d, d.root, "result", jstr(audit_failed(a) ? "fail" : "pass"));
	set(&d, d.root, "parts", json_array());
	integrity(&d, a);
	consistency(&d, a);
	provenance(&d, a);
	reanalysis(&d, a);
	if (a->re.done)
		remeasure(&d, a);
	if (d.bad) {
		json_decref(d.root);
		return NULL;
	}
	return d.root;
}

/* ---- renderers ----------------------------------------------------------- */

static const char *sget(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* The text tables: least widths and the spaces between columns. */
static const size_t items_min[2] = { 20, 0 };
static const size_t one_space[2] = { 0, 1 };
static const size_t benches_min[5] = { 20, 28, 28, 8, 0 };
static const size_t benches_gap[5] = { 0, 1, 1, 1, 2 };

static int render_text(const json_t *doc, struct buf *out)
{
	const json_t *parts = json_object_get(doc, "parts");
	int bad = 0;

	bad |= buf_addstr(out, "audit of ") | esc_text(out, sget(doc, "bundle")) |
	       buf_addch(out, '\n');
	for (size_t i = 0; i < json_array_size(parts); i++) {
		const json_t *p = json_array_get(parts, i);
		const json_t *items = json_object_get(p, "items");
		const json_t *diffs = json_object_get(p, "differences");
		const json_t *rows = json_object_get(p, "benches");

		bad |= buf_addch(out, '\n') | esc_text(out, sget(p, "title")) | buf_addstr(out, ": ") |
		       esc_text(out, sget(p, "state")) | buf_addstr(out, " (") |
		       esc_text(out, sget(p, "summary")) | buf_addstr(out, ")\n");
		if (json_array_size(items)) {
			struct table t;
			table_init(&t, 2, NULL);
			t.min = items_min;
			t.gap = one_space;
			t.indent = 2;
			for (size_t k = 0; k < json_array_size(items); k++) {
				const json_t *it = json_array_get(items, k);
				table_row(&t, sget(it, "key"), sget(it, "value"));
			}
			bad |= table_render(&t, out);
			table_release(&t);
		}
		for (size_t k = 0; k < json_array_size(diffs); k++)
			bad |= buf_addstr(out, "  difference: ") |
			       esc_text(out, json_string_value(json_array_get(diffs, k))) |
			       buf_addch(out, '\n');
		if (json_array_size(rows)) {
			struct table t;
			table_init(&t, 5, "lllrl");
			t.min = benches_min;
			t.gap = benches_gap;
			t.indent = 2;
			table_row(&t, "bench", "recorded", "today", "ratio", "");
			for (size_t k = 0; k < json_array_size(rows); k++) {
				const json_t *r = json_array_get(rows, k);
				table_row(&t, sget(r, "name"), sget(r, "recorded"), sget(r, "today"),
					  sget(r, "ratio"),
					  json_is_true(json_object_get(r, "differs")) ? "differs" : "");
			}
			bad |= table_render(&t, out);
			table_release(&t);
		}
	}
	bad |= buf_printf(out, "\naudit: %s\n", sget(doc, "result"));
	return bad;
}

static int render_md(const json_t *doc, struct buf *out)
{
	const json_t *parts = json_object_get(doc, "parts");
	int bad = 0;

	bad |= buf_addstr(out, "# Audit of `") | esc_md(out, sget(doc, "bundle")) |
	       buf_addstr(out, "`\n");
	for (size_t i = 0; i < json_array_size(parts); i++) {
		const json_t *p = json_array_get(parts, i);
		const json_t *items = json_object_get(p, "items");
		const json_t *diffs = json_object_get(p, "differences");
		const json_t *rows = json_object_get(p, "benches");

		bad |= buf_addstr(out, "\n## ") | esc_md(out, sget(p, "title")) |
		       buf_addstr(out, ": ") | esc_md(out, sget(p, "state")) | buf_addstr(out, "\n\n") |
		       esc_md(out, sget(p, "summary")) | buf_addstr(out, "\n");
		if (json_array_size(items))
			bad |= buf_addstr(out, "\n| | |\n|---|---|\n");
		for (size_t k = 0; k < json_array_size(items); k++) {
			const json_t *it = json_array_get(items, k);
			bad |= buf_addstr(out, "| ") | esc_md(out, sget(it, "key")) |
			       buf_addstr(out, " | ") | esc_md(out, sget(it, "value")) |
			       buf_addstr(out, " |\n");
		}
		if (json_array_size(diffs))
			bad |= buf_addch(out, '\n');
		for (size_t k = 0; k < json_array_size(diffs); k++)
			bad |= buf_addstr(out, "- ") |
			       esc_md(out, json_string_value(json_array_get(diffs, k))) |
			       buf_addch(out, '\n');
		if (json_array_size(rows))
			bad |= buf_addstr(out, "\n| bench | recorded | today | ratio | |\n"
					  "|---|---|---|---:|---|\n");
		for (size_t k = 0; k < json_array_size(rows); k++) {
			const json_t *r = json_array_get(rows, k);
			bad |= buf_addstr(out, "| ") | esc_md(out, sget(r, "name")) |
			       buf_addstr(out, " | ") | esc_md(out, sget(r, "recorded")) |
			       buf_addstr(out, " | ") | esc_md(out, sget(r, "today")) |
			       buf_addstr(out, " | ") | esc_md(out, sget(r, "ratio")) |
			       buf_addstr(out, json_is_true(json_object_get(r, "differs")) ?
					  " | differs |\n" : " | |\n");
		}
	}
	bad |= buf_printf(out, "\n**audit: %s**\n", sget(doc, "result"));
	return bad;
}

static int render_html(const json_t *doc, struct buf *out)
{
	const json_t *parts = json_object_get(doc, "parts");
	int bad = 0;

	bad |= buf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
			  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			  "style-src 'unsafe-inline'\">"
			  "<title>audit of ") | esc_html(out, sget(doc, "bundle")) |
	       buf_addstr(out, "</title>\n<style>body{font-family:sans-serif;max-width:70em;"
			  "margin:1em auto}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
			  "padding:.2em .5em;text-align:left}.FAIL,.differs{color:#b00}"
			  ".pass{color:#070}</style></head><body>\n<h1>Audit of <code>") |
	       esc_html(out, sget(doc, "bundle")) | buf_addstr(out, "</code></h1>\n");
	for (size_t i = 0; i < json_array_size(parts); i++) {
		const json_t *p = json_array_get(parts, i);
		const json_t *items = json_object_get(p, "items");
		const json_t *diffs = json_object_get(p, "differences");
		const json_t *rows = json_object_get(p, "benches");

		bad |= buf_addstr(out, "<h2>") | esc_html(out, sget(p, "title")) |
		       buf_addstr(out, ": <span class=\"") | esc_html(out, sget(p, "state")) |
		       buf_addstr(out, "\">") | esc_html(out, sget(p, "state")) |
		       buf_addstr(out, "</span></h2>\n<p>") | esc_html(out, sget(p, "summary")) |
		       buf_addstr(out, "</p>\n");
		if (json_array_size(items))
			bad |= buf_addstr(out, "<table>\n");
		for (size_t k = 0; k < json_array_size(items); k++) {
			const json_t *it = json_array_get(items, k);
			bad |= buf_addstr(out, "<tr><th>") | esc_html(out, sget(it, "key")) |
			       buf_addstr(out, "</th><td>") | esc_html(out, sget(it, "value")) |
			       buf_addstr(out, "</td></tr>\n");
		}
		if (json_array_size(items))
			bad |= buf_addstr(out, "</table>\n");
		if (json_array_size(diffs))
			bad |= buf_addstr(out, "<ul>\n");
		for (size_t k = 0; k < json_array_size(diffs); k++)
			bad |= buf_addstr(out, "<li class=\"differs\">") |
			       esc_html(out, json_string_value(json_array_get(diffs, k))) |
			       buf_addstr(out, "</li>\n");
		if (json_array_size(diffs))
			bad |= buf_addstr(out, "</ul>\n");
		if (json_array_size(rows))
			bad |= buf_addstr(out, "<table>\n<tr><th>bench</th><th>recorded</th>"
					  "<th>today</th><th>ratio</th><th></th></tr>\n");
		for (size_t k = 0; k < json_array_size(rows); k++) {
			const json_t *r = json_array_get(rows, k);
			bad |= buf_addstr(out, "<tr><td>") | esc_html(out, sget(r, "name")) |
			       buf_addstr(out, "</td><td>") | esc_html(out, sget(r, "recorded")) |
			       buf_addstr(out, "</td><td>") | esc_html(out, sget(r, "today")) |
			       buf_addstr(out, "</td><td>") | esc_html(out, sget(r, "ratio")) |
			       buf_addstr(out, json_is_true(json_object_get(r, "differs")) ?
					  "</td><td class=\"differs\">differs</td></tr>\n" :
					  "</td><td></td></tr>\n");
		}
		if (json_array_size(rows))
			bad |= buf_addstr(out, "</table>\n");
	}
	bad |= buf_addstr(out, "<p><strong>audit: <span class=\"") |
	       esc_html(out, sget(doc, "result")) | buf_addstr(out, "\">") |
	       esc_html(out, sget(doc, "result")) |
	       buf_addstr(out, "</span></strong></p>\n</body></html>\n");
	return bad;
}

int view_audit(const struct audit *a, enum view_audit_format f, struct buf *out,
	       struct plumb_err *err)
{
	json_t *doc = build(a);
	int rc = 0;

	if (!doc)
		return plumb_err_oom(err, "audit report");
	switch (f) {
	case VIEW_AUDIT_JSON:
		rc = jsonio_dump(doc, out, err);
		break;
	case VIEW_AUDIT_MD:
		rc = render_md(doc, out) ? buf_err(err, "audit report") : 0;
		break;
	case VIEW_AUDIT_HTML:
		rc = render_html(doc, out) ? buf_err(err, "audit report") : 0;
		break;
	default:
		rc = render_text(doc, out) ? buf_err(err, "audit report") : 0;
		break;
	}
	json_decref(doc);
	return rc;
}
