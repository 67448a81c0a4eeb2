/*
 * views/build-summary.c: rendering a runner_result as text and JSON; see
 * build-summary.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/table.h"
#include "common/units.h"
#include "formats/config.h"
#include "runner/build-types.h"
#include "runner/build-variant.h"
#include "runner/cmdline.h"
#include "views/build-summary.h"
#include "common/banned.h"

/* "2026-11-30 10:00:00 +0100" in the commit's own zone. */
static void commit_time(const struct checkout_side *s, char *out, size_t size)
{
	time_t t = (time_t)s->time + (time_t)s->tz_minutes * 60;
	struct tm tm;
	int off = s->tz_minutes < 0 ? -s->tz_minutes : s->tz_minutes;

	if (!gmtime_r(&t, &tm)) {
		snprintf(out, size, "?");
		return;
	}
	strftime(out, size, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(out + strlen(out), size - strlen(out), " %c%02d%02d",
		 s->tz_minutes < 0 ? '-' : '+', off / 60, off % 60);
}

static const char *variant_side(const struct runner_variant *v)
{
	return v->control ? "control" : runner_side_name(v->side);
}

/*
 * The variants' table: id, side, pad, pad bytes, build time, size, the
 * artifact's SHA-256 (12 digits), the address of every symbol, the folder.
 */
static int variants_table(const struct runner_result *res, struct buf *out)
{
	static const size_t fixed_min[7] = { 7, 9, 3, 6, 9, 10, 12 };
	static const size_t fixed_gap[7] = { 0, 1, 1, 1, 1, 1, 2 };
	size_t cols = 8 + res->nsymbols;
	size_t *min = calloc(cols, sizeof(*min)), *gap = calloc(cols, sizeof(*gap));
	char *align = calloc(cols + 1, 1);
	struct table t;
	int r = 0;

	if (!min || !gap || !align) {
		free(min);
		free(gap);
		free(align);
		return -1;
	}
	memcpy(min, fixed_min, sizeof(fixed_min));
	memcpy(gap, fixed_gap, sizeof(fixed_gap));
	memcpy(align, "llrrrrl", 7);
	for (size_t k = 0; k < res->nsymbols; k++) {
		min[7 + k] = 14;
		gap[7 + k] = 1;
		align[7 + k] = 'r';
	}
	gap[cols - 1] = 2;
	align[cols - 1] = 'l';
	table_init(&t, cols, align);
	t.min = min;
	t.gap = gap;
	table_cell(&t, "variant");
	table_cell(&t, "side");
	table_cell(&t, "pad");
	table_cell(&t, "bytes");
	table_cell(&t, "build");
	table_cell(&t, "size");
	table_cell(&t, "sha256");
	for (size_t k = 0; k < res->nsymbols; k++)
		table_cell(&t, res->symbols[k]);
	table_cell(&t, "folder");
	table_end_row(&t, NULL);
	for (size_t i = 0; i < res->nvariants; i++) {
		const struct runner_variant *v = &res->variants[i];
		char took[UNITS_MAX], sha[13];
		units_seconds((double)v->build_ns / 1e9, took);
		snprintf(sha, sizeof(sha), "%.12s", v->sha256);
		table_cell(&t, v->id);
		table_cell(&t, variant_side(v));
		table_cellf(&t, "%u", v->pad);
		table_cellf(&t, "%" PRIu64, v->pad_bytes);
		table_cell(&t, took);
		table_cellf(&t, "%" PRIu64, v->size);
		table_cell(&t, sha);
		for (size_t k = 0; k < res->nsymbols; k++) {
			if (v->addr)
				table_cellf(&t, "%#" PRIx64, v->addr[k]);
			else
				table_cell(&t, "-");
		}
		table_cellf(&t, "%s%s%s%s%s%s", v->dir, v->relinked ? " (relinked)" : "",
			    v->cached ? " (cached)" : "", v->same_as[0] ? " (copy of " : "",
			    v->same_as, v->same_as[0] ? ")" : "");
		table_end_row(&t, NULL);
	}
	r = table_render(&t, out);
	table_release(&t);
	free(min);
	free(gap);
	free(align);
	return r;
}

static int summary_text(const struct plumb_config *cfg, const struct runner_result *res,
			struct buf *out, struct plumb_err *err)
{
	int r = 0;

	r |= buf_printf(out, "repository  %s\n", res->repo ? res->repo : "?");
	for (int s = 0; s < 2; s++) {
		const struct checkout_side *c = &res->side[s];
		char when[64];
		commit_time(c, when, sizeof(when));
		r |= buf_printf(out, "%-11s %s = %.12s (tree %.12s)%s\n", s == 0 ? "base" : "candidate",
				c->ref ? c->ref : "?", c->commit[0] ? c->commit : "(no commit)", c->tree,
				c->dirty ? " with uncommitted changes" : "");
		if (c->commit[0])
			r |= buf_printf(out, "            \"%s\", %s, %s\n", c->subject ? c->subject : "",
					c->author ? c->author : "", when);
	}
	r |= buf_printf(out, "build       pad = %s, %u bytes per pad, reuse = %s; artifact %s\n",
			config_pad_name(cfg->build.pad), cfg->build.pad_bytes,
			config_reuse_name(cfg->build.reuse), cfg->build.artifact);
	r |= buf_printf(out, "run folder  %s (%s)\n\n", res->run_dir ? res->run_dir : "?",
			res->keep ? "kept" : "removed at exit; --keep keeps it");

	r |= variants_table(res, out);

	r |= buf_printf(out, "\nshift check: %s: %s\n",
			res->shift == RUNNER_SHIFT_EXACT ? "ok" :
			res->shift == RUNNER_SHIFT_MOVED ? "moved" : "not checked",
			res->shift_note[0] ? res->shift_note : "-");
	if (res->control)
		r |= buf_printf(out, "reproducible: %s: %s\n", res->reproducible ? "yes" : "no",
				res->repro_note);
	else
		r |= buf_printf(out, "reproducible: not checked (run.control = false)\n");
	if (res->nhot) {
		r |= buf_printf(out, "hot code, base pad 0 against candidate pad 0:\n");
		for (size_t i = 0; i < res->nhot; i++) {
			const struct runner_hot *h = &res->hot[i];
			r |= buf_printf(out, "  %s: %s", h->symbol, hotcode_verdict_name(h->cmp.verdict));
			if (h->cmp.verdict == HOTCODE_IDENTICAL)
				r |= buf_printf(out, " (%" PRIu64 " bytes)\n", h->cmp.base_size);
			else if (h->cmp.verdict == HOTCODE_SAME_EXCEPT_ADDRESSES)
				r |= buf_printf(out, " (%" PRIu64 " bytes; %zu of %zu instructions normalized)\n",
						h->cmp.base_size, h->cmp.normalized, h->cmp.instructions);
			else
				r |= buf_printf(out, " (%" PRIu64 " bytes in base, %" PRIu64 " in candidate; %s)\n",
						h->cmp.base_size, h->cmp.cand_size, h->cmp.detail);
		}
	} else {
		r |= buf_printf(out, "hot code: not compared (no bench names its hot symbols)\n");
	}
	return r < 0 ? buf_err(err, "summary") : 0;
}

static json_t *side_json(const struct checkout_side *c)
{
	return json_pack("{s:s?, s:s?, s:s, s:s?, s:s?, s:I, s:i, s:b, s:I}",
			 "ref", c->ref, "commit", c->commit[0] ? c->commit : NULL, "tree", c->tree,
			 "subject", c->subject, "author", c->author, "time", (json_int_t)c->time,
			 "tz_minutes", c->tz_minutes, "dirty", c->dirty, "files", (json_int_t)c->files);
}

/* The text, escaped line by line: subjects, folders and symbols are untrusted. */
int runner_summary_text(const struct plumb_config *cfg, const struct runner_result *res,
			struct buf *out, struct plumb_err *err)
{
	struct buf raw;
	int rc;

	buf_init(&raw, out->max);
	rc = summary_text(cfg, res, &raw, err);
	if (rc == 0 && raw.len && esc_text_lines(out, buf_cstr(&raw)) < 0)
		rc = buf_err(err, "summary");
	buf_release(&raw);
	return rc;
}

json_t *runner_summary_json(const struct plumb_config *cfg, const struct runner_result *res)
{
	json_t *root, *vars, *hot, *syms;
	char hex[32];

	root = json_pack("{s:s?, s:s?, s:b, s:o, s:o, s:{s:s, s:i, s:s, s:s}}",
			 "repository", res->repo, "run_dir", res->run_dir, "kept", res->keep,
			 "base", side_json(&res->side[0]), "candidate", side_json(&res->side[1]),
			 "build", "pad", config_pad_name(cfg->build.pad), "padBytes", (int)cfg->build.pad_bytes,
			 "reuse", config_reuse_name(cfg->build.reuse), "artifact", cfg->build.artifact);
	vars = json_array();
	hot = json_array();
	syms = json_array();
	if (!root || !vars || !hot || !syms)
		goto fail;
	for (size_t k = 0; k < res->nsymbols; k++)
		json_array_append_new(syms, json_string(res->symbols[k]));
	for (size_t i = 0; i < res->nvariants; i++) {
		const struct runner_variant *v = &res->variants[i];
		json_t *addrs = json_object(), *o;
		if (!addrs)
			goto fail;
		for (size_t k = 0; v->addr && k < res->nsymbols; k++) {
			snprintf(hex, sizeof(hex), "%#" PRIx64, v->addr[k]);
			json_object_set_new(addrs, res->symbols[k], json_string(hex));
		}
		o = json_pack("{s:s, s:s, s:b, s:i, s:I, s:s, s:s, s:s?, s:s, s:s?, s:b, s:b, s:b, s:s?, s:f, s:f, s:I, s:s, s:o}",
			      "id", v->id, "side", runner_side_name(v->side), "control", v->control,
			      "pad", (int)v->pad, "pad_bytes", (json_int_t)v->pad_bytes, "folder", v->dir,
			      "artifact", v->artifact, "elf", v->elf, "log", v->log,
			      "command", v->command, "shell", v->shell, "relinked", v->relinked,
			      "cached", v->cached, "copy_of", v->same_as[0] ? v->same_as : NULL,
			      "prepare_seconds", (double)v->prepare_ns / 1e9,
			      "build_seconds", (double)v->build_ns / 1e9, "size", (json_int_t)v->size,
			      "sha256", v->sha256, "symbols", addrs);
		if (!o || json_array_append_new(vars, o) < 0)
			goto fail;
	}
	for (size_t i = 0; i < res->nhot; i++) {
		const struct runner_hot *h = &res->hot[i];
		json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:s?}",
				      "symbol", h->symbol, "verdict", hotcode_verdict_name(h->cmp.verdict),
				      "base_size", (json_int_t)h->cmp.base_size,
				      "candidate_size", (json_int_t)h->cmp.cand_size,
				      "instructions", (json_int_t)h->cmp.instructions,
				      "normalized", (json_int_t)h->cmp.normalized,
				      "detail", h->cmp.detail[0] ? h->cmp.detail : NULL);
		if (!o || json_array_append_new(hot, o) < 0)
			goto fail;
	}
	if (json_object_set_new(root, "variants", vars) < 0)
		goto fail_root;
	vars = NULL;
	if (json_object_set_new(root, "shift", json_pack("{s:s, s:o, s:s}",
			"status", res->shift == RUNNER_SHIFT_EXACT ? "exact" :
				  res->shift == RUNNER_SHIFT_MOVED ? "moved" : "not checked",
			"symbols", syms, "note", res->shift_note)) < 0)
		goto fail_root;
	syms = NULL;
	if (json_object_set_new(root, "reproducible", res->control ?
			json_pack("{s:b, s:s}", "value", res->reproducible, "note", res->repro_note) :
			json_null()) < 0)
		goto fail_root;
	if (json_object_set_new(root, "hot", hot) < 0)
		goto fail_root;
	if (json_object_set_new(root, "seconds", json_real((double)res->total_ns / 1e9)) < 0)
		goto fail_root;
	return root;
fail:
	json_decref(vars);
	json_decref(syms);
	json_decref(hot);
	json_decref(root);
	return NULL;
fail_root:
	json_decref(root);
	return NULL;
}

/* One command as it will be split: the words in brackets, or the shell's line. */
static int command_line(struct buf *raw, const char *key, const char *tmpl,
			const struct cmdline_var *vars, size_t nvars, struct plumb_err *err)
{
	struct cmdline cl = { 0 };
	size_t n = 0;
	int r;

	if ((r = cmdline_expand(&cl, tmpl, vars, nvars, key, err)) < 0)
		return r;
	while (cl.argv[n])
		n++;
	if (cl.shell) {
		r = buf_printf(raw, "# %s runs through /bin/sh -c (shell syntax): %s\n", key, cl.text);
	} else {
		r = buf_printf(raw, "# %s runs %zu word%s:", key, n, n == 1 ? "" : "s");
		for (size_t i = 0; i < n && r >= 0; i++)
			r = buf_printf(raw, " [%s]", cl.argv[i]);
		if (r >= 0)
			r = buf_addch(raw, '\n');
	}
	cmdline_release(&cl);
	return r < 0 ? buf_err(err, key) : 0;
}

/* A hook of bench b ("prepare", ...), when set. */
static int bench_hook(struct buf *raw, const struct config_bench *b, const char *hook,
		      const char *tmpl, const struct cmdline_var *vars, struct plumb_err *err)
{
	char key[128];

	if (!tmpl)
		return 0;
	snprintf(key, sizeof(key), "bench.%.64s.%s", b->name, hook);
	return command_line(raw, key, tmpl, vars, 1, err);
}

int runner_commands_text(const struct plumb_config *cfg, struct buf *out, struct plumb_err *err)
{
	static const struct cmdline_var build_vars[] = {
		{ "pad", "{pad}" }, { "pad_bytes", "{pad_bytes}" },
		{ "pad_object", "{pad_object}" }, { "pad_ldflags", "{pad_ldflags}" },
	};
	static const struct cmdline_var bench_vars[] = { { "artifact", "{artifact}" } };
	struct buf raw;
	int r = 0;

	buf_init(&raw, out->max);
	/* In the order they run: the fetch, the pad object, the builds, then
	 * the job's hooks around every benchmark's. */
	if (cfg->repo.url && buf_printf(&raw, "# repo.url is fetched (libgit2, no command): %s\n",
					cfg->repo.url) < 0)
		r = buf_err(err, "commands");
	if (r == 0 && cfg->build.pad == CONFIG_PAD_LINK && cfg->build.cc) {
		char *cc = buf_strdupf("%s -c plumb_pad.s -o plumb_pad.o", cfg->build.cc);
		r = cc ? command_line(&raw, "build.cc", cc, NULL, 0, err) : buf_err(err, "build.cc");
		free(cc);
	}
	if (r == 0 && cfg->build.command)
		r = command_line(&raw, "build.command", cfg->build.command, build_vars, 4, err);
	if (r == 0 && cfg->run.setup)
		r = command_line(&raw, "run.setup", cfg->run.setup, NULL, 0, err);
	for (size_t i = 0; i < cfg->nbenches && r == 0; i++) {
		const struct config_bench *b = &cfg->benches[i];
		if ((r = bench_hook(&raw, b, "setup", b->setup, bench_vars, err)) == 0 &&
		    (r = bench_hook(&raw, b, "prepare", b->prepare, bench_vars, err)) == 0 &&
		    (r = bench_hook(&raw, b, "command", b->command, bench_vars, err)) == 0)
			r = bench_hook(&raw, b, "cleanup", b->cleanup, bench_vars, err);
	}
	if (r == 0 && cfg->run.cleanup)
		r = command_line(&raw, "run.cleanup", cfg->run.cleanup, NULL, 0, err);
	if (r == 0 && raw.len && esc_text_lines(out, buf_cstr(&raw)) < 0)
		r = buf_err(err, "commands");
	buf_release(&raw);
	return r;
}

void runner_config_warnings(const struct plumb_config *cfg, FILE *f)
{
	for (size_t i = 0; i < cfg->nwarnings; i++) {
		struct buf line;
		buf_init(&line, 1 << 20);
		if (esc_text(&line, cfg->warnings[i]) == 0)
			fprintf(f, "plumb: warning: %s\n", buf_cstr(&line));
		buf_release(&line);
	}
}
