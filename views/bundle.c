/*
 * views/bundle.c: what `plumb bundle show` and `verify` print about a
 * bundle; see bundle.h.  Every string of the bundle is untrusted and
 * escaped; values print as plumb report prints them (common/units.h).
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
#include "formats/digest.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "views/bundle.h"
#include "common/banned.h"

const char *view_bundle_sig(const struct bundle_info *info, char *out, size_t size)
{
	switch (info->sig) {
	case BUNDLE_SIG_GOOD:
		snprintf(out, size, "good, key %s", info->sig_keyid);
		break;
	case BUNDLE_SIG_UNCHECKED:
		snprintf(out, size, "present (key %s), not checked: no public key given (-p)",
			 info->sig_keyid);
		break;
	default:
		snprintf(out, size, "none");
		break;
	}
	return out;
}

static const char *sig_state_name(enum bundle_sig_state s)
{
	switch (s) {
	case BUNDLE_SIG_GOOD: return "good";
	case BUNDLE_SIG_UNCHECKED: return "unchecked";
	default: return "none";
	}
}

/* A string of the bundle, escaped (common/escape.h): "?" for NULL. */
static int put(struct buf *out, const char *s)
{
	return esc_text(out, s ? s : "?");
}

/* A value of the bundle with its unit, or in scale sc; "-" when absent. */
static const char *value(double v, enum units_dim dim, const struct units_scale *sc,
			 char c[UNITS_MAX])
{
	if (isnan(v))
		snprintf(c, UNITS_MAX, "-");
	else if (sc)
		units_number(v, sc, c);
	else
		units_value(v, dim, 0, c);
	return c;
}

static int show_commit(struct buf *out, const char *label, const struct manifest_commit *c)
{
	char id[13];

	snprintf(id, sizeof(id), "%s", c->commit ? c->commit : "?");
	return buf_printf(out, "%-10s ", label) | put(out, c->ref) | buf_addch(out, ' ') |
	       put(out, id) | (c->subject ? buf_addstr(out, "  ") | put(out, c->subject) : 0) |
	       buf_addstr(out, c->dirty == 1 ? "  (dirty working copy)\n" : "\n");
}

/* A string host fact ("cpu", "model"), or NULL. */
static const char *host_fact(const json_t *facts, const char *group, const char *key)
{
	const json_t *v = facts;

	if (group)
		v = json_object_get(v, group);
	v = json_object_get(v, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/*
 * The text of bundle show into out.  Every string of the bundle is
 * untrusted and escaped; values print as plumb report prints them.
 */
int view_bundle_text(const char *path, const struct bundle_info *info, struct buf *out,
		     struct plumb_err *err)
{
	const struct manifest *m = &info->manifest;
	const json_t *h = m->host.start;
	const char *facts[4][2] = {
		{ "", host_fact(h, NULL, "hostname") }, { "", host_fact(h, "cpu", "model") },
		{ "kernel ", host_fact(h, "kernel", "release") },
		{ "governor ", host_fact(h, "cpufreq", "governor") },
	};
	struct table t;
	char sig[200];
	int bad = 0;

	bad |= buf_addstr(out, "bundle     ") | put(out, path) | buf_addch(out, '\n');
	bad |= buf_printf(out, "id         %s\n", info->id);
	bad |= buf_addstr(out, "created    ") | put(out, m->created) | buf_addstr(out, " by ") |
	       put(out, m->tool.name) | buf_addch(out, ' ') | put(out, m->tool.version) |
	       buf_addch(out, '\n');
	if (m->repo.url)
		bad |= buf_addstr(out, "repo       ") | put(out, m->repo.url) | buf_addch(out, '\n');
	bad |= show_commit(out, "base", &m->repo.base);
	bad |= show_commit(out, "candidate", &m->repo.candidate);
	if (facts[0][1] || facts[1][1] || facts[2][1] || facts[3][1] || m->host.fingerprint) {
		const char *sep = " ";
		bad |= buf_addstr(out, "host      ");
		for (size_t i = 0; i < 4; i++) {
			if (!facts[i][1])
				continue;
			bad |= buf_printf(out, "%s%s", sep, facts[i][0]) | put(out, facts[i][1]);
			sep = ", ";
		}
		if (m->host.fingerprint)
			bad |= buf_printf(out, "%sfingerprint ", sep) | put(out, m->host.fingerprint);
		bad |= buf_addch(out, '\n');
	}
	bad |= buf_printf(out, "run        %lld rounds, seed %lld, %zu variants, build method %s\n",
			  (long long)m->run.rounds, (long long)m->run.seed, m->build.n_variants,
			  manifest_method_name(m->build.method));
	bad |= buf_printf(out, "samples    %llu\n", (unsigned long long)info->samples_rows);
	bad |= buf_addstr(out, "signature  ") | put(out, view_bundle_sig(info, sig, sizeof(sig))) |
	       buf_addch(out, '\n');
	table_init(&t, 9, "lllrrrrrl");
	table_row(&t, "bench", "mode", "metric", "base", "candidate", "cand. min", "cand. max",
		  "ratio", "verdict");
	for (size_t i = 0; i < m->n_benches; i++) {
		const struct manifest_bench *b = &m->benches[i];
		const char *v = verdict_name(b->verdict);
		const char *d = manifest_direction_name(b->direction);
		enum units_dim dim = metric_dim(b->metric);
		const struct manifest_side_stats *c = &b->candidate;
		char x[4][UNITS_MAX], r[UNITS_MAX];
		struct units_scale sc;

		table_cell(&t, b->name);
		table_cell(&t, manifest_mode_name(b->mode));
		table_cell(&t, metric_name(b->metric));
		if (b->failure) {
			for (int k = 0; k < 5; k++)
				table_cell(&t, "-");
			table_cellf(&t, "failed: %s", b->failure);
			table_end_row(&t, NULL);
			continue;
		}
		units_scale(c->present ? c->center : 0, dim, 0, &sc);
		table_cell(&t, value(b->base.present ? b->base.center : NAN, dim, NULL, x[0]));
		table_cell(&t, value(c->present ? c->center : NAN, dim, NULL, x[1]));
		table_cell(&t, value(c->present ? c->min : NAN, dim, &sc, x[2]));
		table_cell(&t, value(c->present ? c->max : NAN, dim, &sc, x[3]));
		if (isnan(b->ratio))
			snprintf(r, sizeof(r), "-");
		else
			units_ratio(b->ratio, r);
		table_cell(&t, r);
		table_cellf(&t, "%s%s%s%s", v ? v : "-", d ? " (" : "", d ? d : "", d ? ")" : "");
		table_end_row(&t, NULL);
	}
	if (m->n_benches > 0)
		bad |= buf_addch(out, '\n') | table_render(&t, out);
	table_release(&t);
	return bad ? buf_err(err, "bundle show") : 0;
}

int view_bundle_json(const char *path, const struct bundle_info *info, struct buf *out,
		     struct plumb_err *err)
{
	json_t *o = json_object(), *members = json_array(), *sig = json_object();
	json_t *man = NULL;
	struct buf mtext;
	int rc = 0;

	buf_init(&mtext, (size_t)64 << 20);
	if (!o || !members || !sig) {
		rc = plumb_err_oom(err, "json");
		goto done;
	}
	rc = manifest_write(&info->manifest, &mtext, err);
	if (rc < 0) {
		plumb_err_prefix(err, "%s: manifest.json", path);
		goto done;
	}
	man = json_loadb(mtext.data, mtext.len, 0, NULL);
	if (!man) {
		rc = plumb_err_set(err, PLUMB_EINTERNAL, "manifest: cannot read back");
		goto done;
	}
	for (size_t i = 0; i < info->n_members; i++) {
		const struct bundle_member *m = &info->members[i];
		char hex[DIGEST_HEX];
		json_t *e = json_object();
		if (!e) {
			rc = plumb_err_oom(err, "json");
			goto done;
		}
		json_object_set_new(e, "name", json_string(m->name));
		json_object_set_new(e, "type", json_string(m->is_dir ? "folder" : "file"));
		json_object_set_new(e, "size", json_integer((json_int_t)m->size));
		if (!m->is_dir) {
			digest_hex(m->sha256, hex);
			json_object_set_new(e, "sha256", json_string(hex));
		}
		json_array_append_new(members, e);
	}
	json_object_set_new(sig, "state", json_string(sig_state_name(info->sig)));
	if (info->sig != BUNDLE_SIG_NONE) {
		json_object_set_new(sig, "keyId", json_string(info->sig_keyid));
		json_object_set_new(sig, "trustedComment", json_string(info->sig_comment));
	}
	json_object_set_new(o, "bundle", json_string(path));
	json_object_set_new(o, "id", json_string(info->id));
	json_object_set_new(o, "fileBytes", json_integer((json_int_t)info->file_bytes));
	json_object_set_new(o, "tarBytes", json_integer((json_int_t)info->tar_bytes));
	json_object_set_new(o, "samples", json_integer((json_int_t)info->samples_rows));
	json_object_set_new(o, "signature", sig);
	sig = NULL;
	json_object_set_new(o, "members", members);
	members = NULL;
	json_object_set_new(o, "manifest", man);
	man = NULL;
	rc = jsonio_dump(o, out, err);
done:
	json_decref(o);
	json_decref(members);
	json_decref(sig);
	json_decref(man);
	buf_release(&mtext);
	return rc;
}


int view_bundle_packed(struct buf *out, const char *path, const char *id, int sign)
{
	return put(out, path) | buf_printf(out, ": bundle %s%s\n", id, sign ? " (signed)" : "");
}

int view_bundle_verified(struct buf *out, const char *path, const struct bundle_info *info)
{
	char sig[200];

	return put(out, path) | buf_printf(out, ": ok\nid         %s\nmembers    %zu\n", info->id,
					   info->n_members) |
	       buf_printf(out, "samples    %llu\nsize       %llu bytes (%llu uncompressed)\n",
			  (unsigned long long)info->samples_rows,
			  (unsigned long long)info->file_bytes, (unsigned long long)info->tar_bytes) |
	       buf_addstr(out, "signature  ") | put(out, view_bundle_sig(info, sig, sizeof(sig))) |
	       buf_addch(out, '\n');
}

int view_bundle_extracted(struct buf *out, const char *path, const struct bundle_info *info,
			  const char *dir)
{
	return put(out, path) |
	       buf_printf(out, ": bundle %s: extracted %zu members into ", info->id,
			  info->n_members) |
	       put(out, dir) | buf_addch(out, '\n');
}

int view_bundle_keygen(struct buf *out, const char *name, const char *keyid)
{
	return put(out, name) | buf_addstr(out, ".key: secret key (mode 0600, not encrypted)\n") |
	       put(out, name) | buf_printf(out, ".pub: public key %s\n", keyid);
}

int view_bundle_signed(struct buf *out, const char *path, const struct bundle_info *info)
{
	return put(out, path) | buf_printf(out, ": bundle %s: signed with key ", info->id) |
	       put(out, info->sig_keyid) | buf_addch(out, '\n');
}
