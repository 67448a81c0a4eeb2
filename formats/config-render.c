/*
 * formats/config-render.c: the effective configuration rendered back, as
 * plumb.conf text (plumb run --dry-run) and as JSON (the bundle's spec,
 * without this machine's lock, cache and archive).  Both walk
 * config_keys[] and write each key by the kind of its value
 * (config_key_value()), so a new key renders without an edit here.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "formats/config-internal.h"
#include "common/banned.h"

/* A value as git-config text: bare when safe, else quoted with escapes. */
static int add_value(struct buf *out, const char *v)
{
	size_t len = strlen(v);
	bool quote = len == 0 || v[0] == ' ' || v[0] == '\t' ||
		     v[len - 1] == ' ' || v[len - 1] == '\t' ||
		     strpbrk(v, ";#\"\\\n\t") != NULL;

	if (!quote)
		return buf_addstr(out, v);
	if (buf_addch(out, '"') < 0)
		return -1;
	for (const char *p = v; *p; p++) {
		int rc;

		switch (*p) {
		case '"': rc = buf_addstr(out, "\\\""); break;
		case '\\': rc = buf_addstr(out, "\\\\"); break;
		case '\n': rc = buf_addstr(out, "\\n"); break;
		case '\t': rc = buf_addstr(out, "\\t"); break;
		default: rc = buf_addch(out, *p); break;
		}
		if (rc < 0)
			return -1;
	}
	return buf_addch(out, '"');
}

static int add_kv(struct buf *out, const char *key, const char *v)
{
	if (buf_printf(out, "\t%s = ", key) < 0 || add_value(out, v) < 0)
		return -1;
	return buf_addch(out, '\n');
}

static int add_words(struct buf *out, const char *key, char *const *v, size_t n)
{
	struct buf line;
	int rc = 0;

	buf_init(&line, 64 * 1024);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = buf_printf(&line, "%s%s", i ? " " : "", v[i]);
	if (rc == 0)
		rc = add_kv(out, key, buf_cstr(&line));
	buf_release(&line);
	return rc;
}

/* One key as plumb.conf text: "\tname = value\n", or a comment saying why not. */
static int text_key(struct buf *out, const char *name, const struct key_value *v)
{
	char d[32];
	struct buf tmp;
	int rc = 0;

	switch (v->kind) {
	case V_NONE:
		return buf_printf(out, "\t; %s: %s\n", name, v->note);
	case V_STR:
		if (!v->s)
			return buf_printf(out, "\t; %s: not set\n", name);
		return add_kv(out, name, v->s);
	case V_U64:
		return buf_printf(out, "\t%s = %" PRIu64 "\n", name, v->n);
	case V_BOOL:
		return add_kv(out, name, v->flag ? "true" : "false");
	case V_DURATION:
		config_duration_text((long)v->n, d, sizeof(d));
		return add_kv(out, name, d);
	case V_WORDS:
		if (v->nwords == 0 && v->note)
			return buf_printf(out, "\t; %s: %s\n", name, v->note);
		return add_words(out, name, v->words, v->nwords);
	case V_CPUS:
		buf_init(&tmp, 16 * 1024);
		rc = config_cpus_text(v->cpus, v->ncpus, &tmp);
		if (rc == 0)
			rc = add_kv(out, name, buf_cstr(&tmp));
		buf_release(&tmp);
		return rc;
	case V_LABELS:
		if (v->nlabels == 0)
			return buf_printf(out, "\t; %s: %s\n", name, v->note);
		for (size_t i = 0; i < v->nlabels && rc == 0; i++) {
			buf_init(&tmp, 1024);
			rc = buf_printf(&tmp, "%s=%s", v->labels[i].key, v->labels[i].value);
			if (rc == 0)
				rc = add_kv(out, name, buf_cstr(&tmp));
			buf_release(&tmp);
		}
		return rc;
	}
	return -1;
}

/* The keys of section sec (or of bench b) as plumb.conf text, in config_keys[] order. */
static int text_section(const struct plumb_config *cfg, const struct config_bench *b,
			const char *sec, struct buf *out)
{
	struct key_value v;

	for (size_t i = 0; i < N_OF(config_keys); i++) {
		if (strcmp(config_keys[i].pub.section, sec) != 0)
			continue;
		config_key_value(cfg, b, (enum key_id)i, &v);
		if (text_key(out, config_keys[i].pub.name, &v) < 0)
			return -1;
	}
	return 0;
}

static int render_text(const struct plumb_config *cfg, struct buf *out)
{
	if (buf_addstr(out, "# plumb.conf: the effective configuration (see plumb.conf(5))\n") < 0)
		return -1;
	for (size_t i = 0; i < CONFIG_NSECTIONS; i++) {
		if (strcmp(config_sections[i], "bench") == 0)
			continue;
		if (buf_printf(out, "[%s]\n", config_sections[i]) < 0 ||
		    text_section(cfg, NULL, config_sections[i], out) < 0)
			return -1;
	}
	for (size_t i = 0; i < cfg->nbenches; i++) {
		const struct config_bench *b = &cfg->benches[i];

		if (buf_printf(out, "[bench \"%s\"]\n", b->name) < 0 ||
		    text_section(cfg, b, "bench", out) < 0)
			return -1;
	}
	return 0;
}

int config_to_text(const struct plumb_config *cfg, struct buf *out,
		   struct plumb_err *err)
{
	size_t mark = out->len;

	if (render_text(cfg, out) < 0) {
		int rc = buf_err(err, "configuration text");

		out->len = mark;
		if (out->data)
			out->data[mark] = '\0';
		return rc;
	}
	return 0;
}

/* JSON building with one failure flag, so every call need not be checked. */
struct jb {
	bool failed;
};

static json_t *jb_check(struct jb *jb, json_t *v)
{
	if (!v)
		jb->failed = true;
	return v;
}

/* obj[key] = v, taking v; a NULL v or obj marks the build failed. */
static void jb_set(struct jb *jb, json_t *obj, const char *key, json_t *v)
{
	if (!v || !obj) {
		json_decref(v);
		jb->failed = true;
		return;
	}
	if (json_object_set_new(obj, key, v) < 0)
		jb->failed = true;
}

/* Append v to array a, taking v. */
static void jb_append(struct jb *jb, json_t *a, json_t *v)
{
	if (!v || !a) {
		json_decref(v);
		jb->failed = true;
		return;
	}
	if (json_array_append_new(a, v) < 0)
		jb->failed = true;
}

/* A new object or array set as obj[key]; borrowed, NULL on failure. */
static json_t *jb_child(struct jb *jb, json_t *obj, const char *key, json_t *v)
{
	jb_set(jb, obj, key, v);
	return jb->failed ? NULL : v;
}

static json_t *jb_str(struct jb *jb, const char *s)
{
	return s ? jb_check(jb, json_string(s)) : jb_check(jb, json_null());
}

static json_t *jb_int(struct jb *jb, uint64_t v)
{
	return jb_check(jb, json_integer((json_int_t)v));
}

static json_t *jb_words(struct jb *jb, char *const *v, size_t n)
{
	json_t *a = jb_check(jb, json_array());

	for (size_t i = 0; a && i < n; i++)
		jb_append(jb, a, jb_str(jb, v[i]));
	return a;
}

/* One key as a JSON value (a new reference, NULL marking jb failed). */
static json_t *json_key(struct jb *jb, const struct key_value *v)
{
	json_t *o;

	switch (v->kind) {
	case V_NONE:
		return jb_check(jb, json_null());
	case V_STR:
		return jb_str(jb, v->s);
	case V_U64:
	case V_DURATION:
		return jb_int(jb, v->n);
	case V_BOOL:
		return jb_check(jb, json_boolean(v->flag));
	case V_WORDS:
		return jb_words(jb, v->words, v->nwords);
	case V_CPUS:
		o = jb_check(jb, json_array());
		for (size_t i = 0; o && i < v->ncpus; i++)
			jb_append(jb, o, jb_int(jb, (uint64_t)v->cpus[i]));
		return o;
	case V_LABELS:
		o = jb_check(jb, json_object());
		for (size_t i = 0; o && i < v->nlabels; i++)
			jb_set(jb, o, v->labels[i].key, jb_str(jb, v->labels[i].value));
		return o;
	}
	jb->failed = true;
	return NULL;
}

/* The keys of section sec (or of bench b) into obj, in config_keys[] order. */
static void json_section(struct jb *jb, const struct plumb_config *cfg,
			 const struct config_bench *b, const char *sec, json_t *obj)
{
	struct key_value v;

	for (size_t i = 0; i < N_OF(config_keys) && !jb->failed; i++) {
		/* This machine's lock, cache and archive are not how it measured. */
		if (strcmp(config_keys[i].pub.section, sec) != 0 || config_keys[i].local)
			continue;
		config_key_value(cfg, b, (enum key_id)i, &v);
		jb_set(jb, obj, config_keys[i].pub.name, json_key(jb, &v));
	}
}

/* A section with a key the spec records (not only this machine's). */
static bool section_recorded(const char *sec)
{
	for (size_t i = 0; i < N_OF(config_keys); i++)
		if (strcmp(config_keys[i].pub.section, sec) == 0 && !config_keys[i].local)
			return true;
	return false;
}

json_t *config_to_json(const struct plumb_config *cfg)
{
	struct jb jb = { false };
	json_t *root = jb_check(&jb, json_object());
	json_t *benches = NULL;

	for (size_t i = 0; i < CONFIG_NSECTIONS && !jb.failed; i++) {
		/* Where the bundle goes is not how it was measured (nor a password to record). */
		if (!section_recorded(config_sections[i]))
			continue;
		if (strcmp(config_sections[i], "bench") == 0) {
			benches = jb_child(&jb, root, "bench", json_array());
			continue;
		}
		json_section(&jb, cfg, NULL, config_sections[i],
			     jb_child(&jb, root, config_sections[i], json_object()));
	}
	for (size_t i = 0; i < cfg->nbenches && !jb.failed; i++) {
		const struct config_bench *b = &cfg->benches[i];
		json_t *o = json_object();

		jb_append(&jb, benches, o);
		if (jb.failed)
			break;
		jb_set(&jb, o, "name", jb_str(&jb, b->name));
		json_section(&jb, cfg, b, "bench", o);
	}
	if (jb.failed) {
		json_decref(root);
		return NULL;
	}
	return root;
}
