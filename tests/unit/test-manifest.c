/*
 * tests/unit/test-manifest.c: formats/manifest (model, reader, writer) and
 * formats/jsonio (bounded loading, stable printing).
 *
 * Most error cases start from the valid fixture and change one thing, so
 * each test names exactly the rule it breaks.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/units.h"
#include "formats/jsonio.h"
#include "formats/manifest.h"
#include "formats/manifest-range.h"
#include "common/banned.h"

/* Read tests/fixtures/manifest/<name> into b. */
static void fixture(const char *name, struct buf *b)
{
	char path[4096];
	struct plumb_err err;

	plumb_err_clear(&err);
	snprintf(path, sizeof(path), "%s/tests/fixtures/manifest/%s", unit_srcdir(), name);
	buf_init(b, 1 << 24);
	if (file_read(path, 1 << 24, b, &err) < 0)
		fail_msg("%s", err.msg);
}

/* Parse text; expect failure whose message starts with want. */
static void expect_parse_error(const char *text, size_t len, const char *want)
{
	struct manifest m;
	struct plumb_err err;

	plumb_err_clear(&err);
	if (manifest_parse(&m, text, len, &err) == 0) {
		manifest_release(&m);
		fail_msg("parse succeeded, wanted: %s", want);
	}
	assert_int_equal(err.code, PLUMB_EINPUT);
	if (strncmp(err.msg, want, strlen(want)) != 0)
		fail_msg("got:    %s\nwanted: %s...", err.msg, want);
	/* A failed parse leaves an empty manifest that releases cleanly. */
	assert_null(m.benches);
	assert_null(m.spec);
	manifest_release(&m);
}

/* The fixture as a jansson tree, for editing. */
static json_t *fixture_tree(void)
{
	struct buf b;
	json_error_t jerr;
	json_t *j;

	fixture("valid.json", &b);
	j = json_loadb(b.data, b.len, 0, &jerr);
	buf_release(&b);
	assert_non_null(j);
	return j;
}

/* Dump an edited tree and expect the parse to fail with want. */
static void expect_tree_error(json_t *j, const char *want)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	assert_non_null(text);
	expect_parse_error(text, strlen(text), want);
	free(text);
	json_decref(j);
}

/* obj.key for a chain of keys, e.g. get(j, "repo", "base", NULL). */
static json_t *get(json_t *j, ...)
{
	va_list ap;
	const char *k;

	va_start(ap, j);
	while ((k = va_arg(ap, const char *)))
		j = json_object_get(j, k);
	va_end(ap);
	assert_non_null(j);
	return j;
}

static json_t *bench(json_t *j, size_t i)
{
	json_t *b = json_array_get(json_object_get(j, "benches"), i);

	assert_non_null(b);
	return b;
}

PLUMB_TEST(manifest_fixture_round_trip_is_byte_identical)
{
	struct buf in, out, again;
	struct manifest m, m2;
	struct plumb_err err;

	plumb_err_clear(&err);
	fixture("valid.json", &in);
	assert_int_equal(manifest_parse(&m, in.data, in.len, &err), 0);
	buf_init(&out, 1 << 24);
	assert_int_equal(manifest_write(&m, &out, &err), 0);
	assert_int_equal(out.len, in.len);
	assert_memory_equal(out.data, in.data, in.len);
	/* And once more from the written text. */
	assert_int_equal(manifest_parse(&m2, out.data, out.len, &err), 0);
	buf_init(&again, 1 << 24);
	assert_int_equal(manifest_write(&m2, &again, &err), 0);
	assert_string_equal(again.data, out.data);
	manifest_release(&m);
	manifest_release(&m2);
	buf_release(&in);
	buf_release(&out);
	buf_release(&again);
}

PLUMB_TEST(manifest_write_is_canonical_whatever_the_input_order)
{
	struct buf in, want, out;
	struct manifest m;
	struct plumb_err err;

	plumb_err_clear(&err);
	fixture("unordered.json", &in);
	fixture("valid.json", &want);
	assert_int_equal(manifest_parse(&m, in.data, in.len, &err), 0);
	buf_init(&out, 1 << 24);
	assert_int_equal(manifest_write(&m, &out, &err), 0);
	assert_string_equal(out.data, want.data);
	manifest_release(&m);
	buf_release(&in);
	buf_release(&want);
	buf_release(&out);
}

PLUMB_TEST(manifest_parse_fills_the_model)
{
	struct buf in;
	struct manifest m;
	struct plumb_err err;
	const struct manifest_bench *b;
	const struct manifest_variant *v;
	char label[MANIFEST_LABEL_MAX];

	plumb_err_clear(&err);
	fixture("valid.json", &in);
	assert_int_equal(manifest_parse(&m, in.data, in.len, &err), 0);
	assert_int_equal(m.version_minor, 1);
	assert_string_equal(m.tool.name, "plumb");
	assert_string_equal(m.repo.base.commit, "3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6d7e8f901");
	assert_int_equal(m.repo.base.dirty, 0);
	assert_int_equal(m.repo.candidate.dirty, 1);
	assert_int_equal(m.build.method, MANIFEST_METHOD_LINK);
	assert_int_equal(m.build.pad_bytes, 16);
	assert_int_equal(m.build.n_variants, 7);
	v = manifest_find_variant(&m, MANIFEST_SIDE_BASE, 1);
	assert_non_null(v);
	assert_int_equal(v->n_hot, 1);
	assert_int_equal(v->hot[0].address, 4198416);
	assert_int_equal(v->build_ns, 912345678);
	v = manifest_find_variant(&m, MANIFEST_SIDE_BASE, 2);
	assert_int_equal(v->n_hot, 0);
	assert_null(manifest_find_variant(&m, MANIFEST_SIDE_CONTROL, 1));
	assert_true(json_is_object(m.host.start));
	assert_string_equal(json_string_value(json_object_get(m.host.start, "governor")),
			    "performance");
	assert_int_equal(m.run.rounds, 5);
	assert_int_equal(m.run.n_order, 5);
	assert_int_equal(m.run.order[0].n, 7);
	manifest_variant_label(&m.build.variants[m.run.order[0].variants[0]], label);
	assert_string_equal(label, "base/1");
	assert_int_equal(m.run.warmup_runs, 1);
	assert_string_equal(m.run.warmup_policy, "auto");
	assert_int_equal(m.run.counters_available, 0);
	assert_int_equal(m.run.n_labels, 2);
	assert_int_equal(m.n_benches, 3);

	b = manifest_find_bench(&m, "interp");
	assert_non_null(b);
	assert_int_equal(b->verdict, VERDICT_FASTER);
	assert_int_equal(b->direction, MANIFEST_DIRECTION_UNSET);
	assert_int_equal(b->base.n_pads, 3);
	assert_true(b->base.pads[1] == 99875000.5);
	assert_true(b->control.present);
	assert_true(isnan(b->control.spread));
	assert_true(isnan(b->base.p99));
	assert_true(b->noise.present);
	assert_int_equal(b->noise.too_noisy, 0);
	assert_int_equal(b->hot.identical, 0);
	assert_string_equal(metric_unit(b->metric), "ns");

	b = manifest_find_bench(&m, "parse");
	assert_int_equal(b->mode, MANIFEST_MODE_SAMPLES);
	assert_true(b->base.co_p99 == 2410.75);
	assert_int_equal(b->steady.window, 50);
	assert_int_equal(b->checksum.consistent, 1);
	assert_false(b->control.present);
	assert_false(b->noise.present);

	b = manifest_find_bench(&m, "startup");
	assert_non_null(b->failure);
	assert_false(b->base.present);
	assert_int_equal(b->verdict, VERDICT_UNSET);
	assert_null(manifest_find_bench(&m, "nope"));
	manifest_release(&m);
	buf_release(&in);
}

PLUMB_TEST(manifest_wrong_type_names_the_path)
{
	json_t *j = fixture_tree();

	json_array_set_new(get(bench(j, 1), "sides", "base", "pads", NULL), 1, json_string("x"));
	expect_tree_error(j, "benches[1].sides.base.pads[1]: expected number, found string");

	j = fixture_tree();
	json_object_set_new(get(j, "run", NULL), "seed", json_real(1.5));
	expect_tree_error(j, "run.seed: expected integer, found number with a fraction");

	j = fixture_tree();
	json_object_set_new(get(j, "repo", "candidate", NULL), "dirty", json_string("yes"));
	expect_tree_error(j, "repo.candidate.dirty: expected boolean, found string");

	j = fixture_tree();
	json_object_set_new(get(j, "host", NULL), "start", json_array());
	expect_tree_error(j, "host.start: expected object, found array");

	j = fixture_tree();
	json_array_set_new(get(j, "run", "order", NULL), 2, json_integer(3));
	expect_tree_error(j, "run.order[2]: expected array, found integer");

	j = fixture_tree();
	json_object_set_new(get(j, "run", "labels", NULL), "job", json_integer(3));
	expect_tree_error(j, "run.labels.job: expected string, found integer");
}

PLUMB_TEST(manifest_missing_field_names_the_path)
{
	json_t *j = fixture_tree();

	json_object_del(get(j, "repo", "base", NULL), "commit");
	expect_tree_error(j, "repo.base.commit: missing required field");

	j = fixture_tree();
	json_object_del(j, "spec");
	expect_tree_error(j, "spec: missing required field");

	j = fixture_tree();
	json_object_del(get(bench(j, 0), "sides", NULL), "candidate");
	expect_tree_error(j, "benches[0].sides.candidate: missing required field");

	j = fixture_tree();
	json_object_del(bench(j, 1), "verdict");
	expect_tree_error(j, "benches[1].verdict: missing required field");

	j = fixture_tree();
	json_object_set_new(get(j, "repo", "base", NULL), "commit", json_null());
	expect_tree_error(j, "repo.base.commit: expected string, found null");
}

PLUMB_TEST(manifest_null_optional_counts_as_absent)
{
	json_t *j = fixture_tree();
	struct manifest m;
	struct plumb_err err;
	char *text;

	plumb_err_clear(&err);
	json_object_set_new(get(j, "repo", "base", NULL), "tree", json_null());
	text = json_dumps(j, 0);
	assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
	assert_null(m.repo.base.tree);
	manifest_release(&m);
	free(text);
	json_decref(j);
}

PLUMB_TEST(manifest_unknown_major_version_is_refused_first)
{
	json_t *j = fixture_tree();
	const char *v2 = "{\"format\": \"plumb-bundle\", \"version\": 2, \"everything\": \"else\"}";

	json_object_set_new(j, "version", json_integer(2));
	expect_tree_error(j, "version: major version 2 is not supported");
	/* Nothing else is looked at: a v2 manifest may look nothing like v1. */
	expect_parse_error(v2, strlen(v2), "version: major version 2 is not supported");

	j = fixture_tree();
	json_object_set_new(j, "version", json_string("1.0"));
	expect_tree_error(j, "version: expected integer, found string");

	j = fixture_tree();
	json_object_set_new(j, "format", json_string("pyperf"));
	expect_tree_error(j, "format: expected \"plumb-bundle\", found \"pyperf\"");

	expect_parse_error("[1]", 3, "(root): expected object, found array");
}

PLUMB_TEST(manifest_newer_minor_and_unknown_fields_are_accepted)
{
	json_t *j = fixture_tree();
	struct buf want, out;
	struct manifest m;
	struct plumb_err err;
	char *text;

	plumb_err_clear(&err);
	json_object_set_new(j, "minorVersion", json_integer(7));
	json_object_set_new(j, "comingSoon", json_pack("{s:[i,i]}", "x", 1, 2));
	json_object_set_new(bench(j, 0), "energy", json_real(1.5));
	json_object_set_new(get(bench(j, 0), "sides", "base", NULL), "p999", json_integer(3));
	text = json_dumps(j, JSON_PRESERVE_ORDER);
	assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
	assert_int_equal(m.version_minor, 7);
	/* Written back as this version, without the unknown members. */
	fixture("valid.json", &want);
	buf_init(&out, 1 << 24);
	assert_int_equal(manifest_write(&m, &out, &err), 0);
	assert_string_equal(out.data, want.data);
	manifest_release(&m);
	buf_release(&want);
	buf_release(&out);
	free(text);
	json_decref(j);
}

/* Replace the first occurrence of from in text by to (a new string). */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n;
	char *s;

	assert_non_null(at);
	n = strlen(text) - strlen(from) + strlen(to);
	s = malloc(n + 1);
	assert_non_null(s);
	memcpy(s, text, (size_t)(at - text));
	memcpy(s + (at - text), to, strlen(to));
	memcpy(s + (at - text) + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
	return s;
}

PLUMB_TEST(manifest_duplicate_key_names_the_path)
{
	struct buf in;
	char *text;

	fixture("valid.json", &in);
	text = replace(in.data, "\"name\": \"parse\",", "\"name\": \"parse\", \"name\": \"again\",");
	expect_parse_error(text, strlen(text), "benches[1].name: duplicate object key");
	free(text);
	text = replace(in.data, "\"governor\": \"performance\",",
		       "\"governor\": \"performance\", \"governor\": \"powersave\",");
	expect_parse_error(text, strlen(text), "host.start.governor: duplicate object key");
	free(text);
	buf_release(&in);
}

PLUMB_TEST(manifest_depth_over_the_limit_names_the_path)
{
	struct buf in, deep, want;
	char *text;
	int i;

	/* spec is depth 2, its member "deep" opens depth 3: 30 more arrays reach 33. */
	buf_init(&deep, 4096);
	buf_init(&want, 4096);
	assert_int_equal(buf_addstr(&deep, "\"spec\": {\"deep\": "), 0);
	assert_int_equal(buf_addstr(&want, "spec.deep"), 0);
	for (i = 0; i < 31; i++)
		assert_int_equal(buf_addch(&deep, '['), 0);
	for (i = 0; i < 31; i++)
		assert_int_equal(buf_addch(&deep, ']'), 0);
	assert_int_equal(buf_addstr(&deep, ", \"x\": 1},\n  \"spec_old\": "), 0);
	for (i = 0; i < 30; i++)
		assert_int_equal(buf_addstr(&want, "[0]"), 0);
	assert_int_equal(buf_addstr(&want, ": nested deeper than 32 levels"), 0);
	fixture("valid.json", &in);
	text = replace(in.data, "\"spec\": ", deep.data);
	expect_parse_error(text, strlen(text), want.data);
	free(text);

	/* 32 levels are fine for the loader. */
	buf_reset(&deep);
	for (i = 0; i < 32; i++)
		assert_int_equal(buf_addch(&deep, '['), 0);
	for (i = 0; i < 32; i++)
		assert_int_equal(buf_addch(&deep, ']'), 0);
	expect_parse_error(deep.data, deep.len, "(root): expected object, found array");
	buf_release(&in);
	buf_release(&deep);
	buf_release(&want);
}

PLUMB_TEST(manifest_size_over_the_limit_is_refused)
{
	size_t n = MANIFEST_MAX_BYTES + 1;
	char *big = malloc(n), want[128];

	assert_non_null(big);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	snprintf(want, sizeof(want), "(root): %zu bytes, more than the limit of %zu bytes",
		 n, MANIFEST_MAX_BYTES);
	expect_parse_error(big, n, want);
	free(big);
}

PLUMB_TEST(manifest_syntax_error_names_path_and_line)
{
	struct buf in;
	struct manifest m;
	struct plumb_err err;
	char *text;

	plumb_err_clear(&err);
	fixture("valid.json", &in);
	text = replace(in.data, "\"rounds\": 5,\n    \"start\"", "\"rounds\": 5,,\n    \"start\"");
	assert_int_equal(manifest_parse(&m, text, strlen(text), &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, "run: string or '}' expected"));
	assert_non_null(strstr(err.msg, "(line "));
	free(text);
	/* Truncated anywhere: an error, never a crash. */
	for (size_t cut = 0; cut < in.len - 2; cut += 97) {
		plumb_err_clear(&err);
		assert_int_equal(manifest_parse(&m, in.data, cut, &err), PLUMB_EINPUT);
		assert_true(err.msg[0] != '\0');
	}
	expect_parse_error("{\"a\": \"\\u0000\"}", 15, "a: \\u0000 is not allowed");
	buf_release(&in);
}

PLUMB_TEST(manifest_semantic_rules_name_the_path)
{
	json_t *j = fixture_tree();

	json_object_set_new(get(j, "build", NULL), "method", json_string("lto"));
	expect_tree_error(j, "build.method: unknown value 'lto' (expected one of: link, env, none)");

	j = fixture_tree();
	json_object_set_new(get(j, "run", NULL), "rounds", json_integer(-1));
	expect_tree_error(j, "run.rounds: must be at least 0, found -1");

	j = fixture_tree();
	json_array_set_new(json_array_get(get(j, "run", "order", NULL), 1), 3, json_string("base/9"));
	expect_tree_error(j, "run.order[1][3]: no variant 'base/9' in build.variants");

	j = fixture_tree();
	json_array_set_new(json_array_get(get(j, "run", "order", NULL), 1), 3, json_string("left/0"));
	expect_tree_error(j, "run.order[1][3]: 'left/0' is not a variant label like base/0");

	j = fixture_tree();
	json_array_set_new(json_array_get(get(j, "run", "order", NULL), 1), 3, json_string("base/0"));
	expect_tree_error(j, "run.order[1][3]: variant 'base/0' runs twice in one round");

	j = fixture_tree();
	json_object_set_new(get(j, "run", NULL), "rounds", json_integer(4));
	expect_tree_error(j, "run.order: 5 rounds listed, run.rounds is 4");

	j = fixture_tree();
	json_object_set_new(get(bench(j, 0), "sides", "base", NULL), "min", json_real(1.0));
	expect_tree_error(j, "benches[0].sides.base.min: 1 is not the smallest pad median");

	j = fixture_tree();
	json_object_set_new(get(bench(j, 0), "sides", "base", NULL), "pads", json_array());
	expect_tree_error(j, "benches[0].sides.base.pads: needs at least one pad");

	j = fixture_tree();
	json_object_set_new(bench(j, 2), "name", json_string("interp"));
	expect_tree_error(j, "benches[2].name: benchmark 'interp' is listed twice (also benches[0])");

	j = fixture_tree();
	json_object_set_new(bench(j, 1), "verdict", json_string("unswept"));
	expect_tree_error(j, "benches[1].direction: missing required field (verdict is unswept)");

	j = fixture_tree();
	json_object_set_new(get(j, "repo", "base", NULL), "commit", json_string("3F2A"));
	expect_tree_error(j, "repo.base.commit: '3F2A' is not a full lower-case hex object id");

	j = fixture_tree();
	json_object_set_new(j, "created", json_string("2024-05-01 12:34:56"));
	expect_tree_error(j, "created: '2024-05-01 12:34:56' is not an RFC 3339 UTC time");

	j = fixture_tree();
	json_array_append_new(get(j, "build", "variants", NULL),
			      json_pack("{s:s,s:i}", "side", "candidate", "pad", 1));
	expect_tree_error(j, "build.variants[7]: variant 'candidate/1' is listed twice (also build.variants[4])");

	j = fixture_tree();
	json_object_del(get(json_array_get(get(j, "build", "variants", NULL), 2), "artifact", NULL), "sha256");
	expect_tree_error(j, "build.variants[2].artifact.sha256: missing required field");
}

PLUMB_TEST(manifest_bad_fixtures_give_their_messages)
{
	struct buf list, in;
	char *save = NULL, *line;

	/* Each line: file TAB expected message prefix. */
	fixture("bad-expected.txt", &list);
	for (line = strtok_r(list.data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');

		assert_non_null(tab);
		*tab = '\0';
		fixture(line, &in);
		expect_parse_error(in.data, in.len, tab + 1);
		buf_release(&in);
	}
	buf_release(&list);
}

/* A small manifest made through the builders, as the runner makes one. */
static void build_small(struct manifest *m)
{
	struct manifest_variant *v;
	struct manifest_bench *b;
	struct plumb_err err;
	static const double base[] = { 10.5, 10.25, 11.0 };
	int side, pad;

	plumb_err_clear(&err);
	manifest_init(m);
	assert_int_equal(manifest_set_str(&m->tool.name, "plumb"), 0);
	assert_int_equal(manifest_set_str(&m->tool.version, "0.1.0"), 0);
	assert_int_equal(manifest_set_str(&m->created, "2024-01-02T03:04:05Z"), 0);
	m->spec = json_pack("{s:{s:i,s:s}}", "run", "pads", 3, "aslr", "on");
	assert_int_equal(manifest_set_str(&m->repo.base.ref, "v1"), 0);
	assert_int_equal(manifest_set_str(&m->repo.base.commit,
					  "0123456789abcdef0123456789abcdef01234567"), 0);
	assert_int_equal(manifest_set_str(&m->repo.candidate.ref, "HEAD"), 0);
	assert_int_equal(manifest_set_str(&m->repo.candidate.commit,
					  "89abcdef0123456789abcdef0123456789abcdef"), 0);
	m->build.method = MANIFEST_METHOD_ENV;
	m->build.pad_bytes = 64;
	for (side = 0; side < 2; side++)
		for (pad = 0; pad < 3; pad++) {
			v = manifest_add_variant(m, (enum manifest_side)side, pad, &err);
			assert_non_null(v);
		}
	m->host.start = json_pack("{s:s,s:i}", "kernel", "6.1", "cores", 2);
	m->run.seed = 42;
	m->run.rounds = 3;
	b = manifest_add_bench(m, "fib", &err);
	assert_non_null(b);
	b->mode = MANIFEST_MODE_PROCESS;
	b->metric = METRIC_INSTRUCTIONS;
	b->base.present = b->candidate.present = 1;
	b->base.pads = malloc(sizeof(base));
	b->candidate.pads = malloc(sizeof(base));
	assert_non_null(b->base.pads);
	assert_non_null(b->candidate.pads);
	memcpy(b->base.pads, base, sizeof(base));
	memcpy(b->candidate.pads, base, sizeof(base));
	b->base.n_pads = b->candidate.n_pads = 3;
	b->base.center = b->candidate.center = 10.5;
	b->base.min = b->candidate.min = 10.25;
	b->base.max = b->candidate.max = 11.0;
	b->ratio = 1.0;
	b->verdict = VERDICT_PLACEMENT;
}

PLUMB_TEST(manifest_builders_write_and_read_back)
{
	struct manifest m, back;
	struct buf out;
	struct plumb_err err;

	plumb_err_clear(&err);
	build_small(&m);
	buf_init(&out, 1 << 20);
	assert_int_equal(manifest_write(&m, &out, &err), 0);
	assert_non_null(strstr(out.data, "\"metric\": \"instructions\""));
	assert_non_null(strstr(out.data, "\"pads\": [10.5, 10.25, 11.0]"));
	assert_non_null(strstr(out.data, "\"ratio\": 1.0,"));
	assert_null(strstr(out.data, "\"order\""));
	assert_int_equal(manifest_parse(&back, out.data, out.len, &err), 0);
	assert_int_equal(back.build.n_variants, 6);
	assert_int_equal(back.benches[0].metric, METRIC_INSTRUCTIONS);
	assert_string_equal(metric_unit(back.benches[0].metric), "count");
	assert_int_equal(back.run.warmup_runs, -1);
	manifest_release(&back);
	manifest_release(&m);
	buf_release(&out);
}

PLUMB_TEST(manifest_write_refuses_what_it_could_not_read)
{
	struct manifest m;
	struct buf out;
	struct plumb_err err;

	plumb_err_clear(&err);
	build_small(&m);
	buf_init(&out, 1 << 20);
	assert_int_equal(buf_addstr(&out, "keep"), 0);

	m.benches[0].base.center = NAN;
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "benches[0].sides.base.center: missing required field");
	m.benches[0].base.center = INFINITY;
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "benches[0].sides.base.center: not a finite number");
	m.benches[0].base.center = 10.5;

	assert_int_equal(manifest_set_str(&m.repo.candidate.subject, "caf\xe9 latin-1"), 0);
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "repo.candidate.subject: not valid UTF-8");
	assert_int_equal(manifest_set_str(&m.repo.candidate.subject, NULL), 0);

	free(m.repo.base.commit);
	m.repo.base.commit = NULL;
	assert_int_equal(manifest_write(&m, &out, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "repo.base.commit: missing required field");
	assert_string_equal(out.data, "keep");

	/* A buffer too small: refused, and left as it was. */
	assert_int_equal(manifest_set_str(&m.repo.base.commit,
					  "0123456789abcdef0123456789abcdef01234567"), 0);
	out.max = 100;
	assert_true(manifest_write(&m, &out, &err) < 0);
	assert_string_equal(out.data, "keep");
	manifest_release(&m);
	buf_release(&out);
}

PLUMB_TEST(manifest_write_ignores_the_locale)
{
	struct manifest m;
	struct buf a, b;
	struct plumb_err err;
	const char *old = setlocale(LC_NUMERIC, NULL);
	char saved[64];

	snprintf(saved, sizeof(saved), "%s", old ? old : "C");
	plumb_err_clear(&err);
	build_small(&m);
	buf_init(&a, 1 << 20);
	buf_init(&b, 1 << 20);
	assert_int_equal(manifest_write(&m, &a, &err), 0);
	/* A decimal-comma locale, when the machine has one. */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
		assert_int_equal(manifest_write(&m, &b, &err), 0);
		setlocale(LC_NUMERIC, saved);
		assert_string_equal(a.data, b.data);
	}
	manifest_release(&m);
	buf_release(&a);
	buf_release(&b);
}

PLUMB_TEST(manifest_time_parse_and_format)
{
	char s[MANIFEST_TIME_MAX];
	int64_t t;

	assert_int_equal(manifest_time_format(0, s), 0);
	assert_string_equal(s, "1970-01-01T00:00:00Z");
	assert_int_equal(manifest_time_format(1714566896, s), 0);
	assert_string_equal(s, "2024-05-01T12:34:56Z");
	assert_int_equal(manifest_time_parse(s, &t), 0);
	assert_int_equal(t, 1714566896);
	assert_int_equal(manifest_time_parse("2024-02-29T23:59:59.123456789Z", &t), 0);
	assert_int_equal(t, 1709251199);
	assert_int_equal(manifest_time_parse("1969-12-31T23:59:59Z", &t), 0);
	assert_int_equal(t, -1);
	assert_int_equal(manifest_time_parse("2023-02-29T00:00:00Z", &t), -1);
	assert_int_equal(manifest_time_parse("2024-05-01T24:00:00Z", &t), -1);
	assert_int_equal(manifest_time_parse("2024-05-01T12:00:00", &t), -1);
	assert_int_equal(manifest_time_parse("2024-05-01T12:00:00+01:00", &t), -1);
	assert_int_equal(manifest_time_parse("2024-05-01T12:00:00.Z", &t), -1);
	assert_int_equal(manifest_time_parse("2024-05-01T12:00:00Zjunk", &t), -1);
	assert_int_equal(manifest_time_parse("", &t), -1);
}

PLUMB_TEST(jsonio_reals_are_short_and_exact)
{
	char s[UNITS_EXACT_MAX];
	uint64_t x = 0x9E3779B97F4A7C15ull;
	double d;
	int i;

	assert_true(units_exact(0.1, UNITS_EXACT_REAL, s) > 0);
	assert_string_equal(s, "0.1");
	assert_true(units_exact(1500.0, UNITS_EXACT_REAL, s) > 0);
	assert_string_equal(s, "1500.0");
	assert_true(units_exact(0.1 + 0.2, UNITS_EXACT_REAL, s) > 0);
	assert_string_equal(s, "0.30000000000000004");
	assert_true(units_exact(1e300, UNITS_EXACT_REAL, s) > 0);
	assert_string_equal(s, "1e+300");
	assert_true(units_exact(-0.0, UNITS_EXACT_REAL, s) > 0);
	assert_string_equal(s, "-0.0");
	assert_int_equal(units_exact(NAN, UNITS_EXACT_REAL, s), -1);
	assert_int_equal(units_exact(-INFINITY, UNITS_EXACT_REAL, s), -1);
	/* Random finite doubles read back exactly. */
	for (i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(&d, &x, sizeof(d));
		if (!isfinite(d))
			continue;
		assert_true(units_exact(d, UNITS_EXACT_REAL, s) > 0);
		assert_true(strtod(s, NULL) == d);
	}
}

PLUMB_TEST(jsonio_dump_escapes_and_sorts)
{
	json_t *v = json_pack("{s:s,s:[],s:{},s:n,s:b,s:[{s:i}]}", "z", "a\"b\\c\n\x01\x7f\xc3\xa9",
			      "e", "o", "n", "t", 1, "a", "k", -3);
	json_t *sorted = jsonio_sorted_copy(v);
	struct buf out;
	struct plumb_err err;

	plumb_err_clear(&err);
	buf_init(&out, 4096);
	assert_int_equal(jsonio_dump(sorted, &out, &err), 0);
	assert_string_equal(out.data,
			    "{\n"
			    "  \"a\": [\n"
			    "    {\n"
			    "      \"k\": -3\n"
			    "    }\n"
			    "  ],\n"
			    "  \"e\": [],\n"
			    "  \"n\": null,\n"
			    "  \"o\": {},\n"
			    "  \"t\": true,\n"
			    "  \"z\": \"a\\\"b\\\\c\\n\\u0001\\u007f\xc3\xa9\"\n"
			    "}\n");
	json_decref(v);
	json_decref(sorted);
	buf_release(&out);
}

PLUMB_TEST(jsonio_path_quotes_odd_keys)
{
	struct jsonio_path p;
	size_t old;
	char longkey[100];

	jsonio_path_init(&p);
	assert_string_equal(jsonio_path_str(&p), "(root)");
	jsonio_path_key(&p, "host");
	old = jsonio_path_key(&p, "cpu.model");
	assert_string_equal(jsonio_path_str(&p), "host[\"cpu.model\"]");
	jsonio_path_restore(&p, old);
	jsonio_path_index(&p, 3);
	jsonio_path_key(&p, "a\"b\n");
	assert_string_equal(jsonio_path_str(&p), "host[3][\"a\\\"b?\"]");
	jsonio_path_init(&p);
	memset(longkey, 'k', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	jsonio_path_key(&p, longkey);
	assert_int_equal(p.len, JSONIO_PATH_KEY_MAX + 3);
	assert_non_null(strstr(p.s, "kkk..."));
	/* Indexes as "[%zu]" prints them. */
	jsonio_path_init(&p);
	jsonio_path_index(&p, 0);
	jsonio_path_index(&p, 10);
	jsonio_path_index(&p, 999999);
	old = jsonio_path_index(&p, (size_t)-1);
	{
		char want[64];
		snprintf(want, sizeof(want), "[0][10][999999][%zu]", (size_t)-1);
		assert_string_equal(jsonio_path_str(&p), want);
	}
	jsonio_path_restore(&p, old);
	assert_string_equal(jsonio_path_str(&p), "[0][10][999999]");
}

/* The shared builders: an unknown (NULL, NAN, infinity, text that is not UTF-8) is null. */
PLUMB_TEST(jsonio_builders_make_unknowns_null)
{
	json_t *o = json_object(), *v;

	assert_true(json_is_null(jsonio_str(NULL)));
	assert_true(json_is_null(jsonio_str("caf\xe9")));
	v = jsonio_str("café");
	assert_string_equal(json_string_value(v), "café");
	json_decref(v);
	assert_true(json_is_null(jsonio_real(NAN)));
	assert_true(json_is_null(jsonio_real(INFINITY)));
	v = jsonio_real(2.5);
	assert_true(json_is_real(v) && json_real_value(v) == 2.5);
	json_decref(v);
	/* Stored JSON text comes back as its value; text that is not JSON, as a string. */
	assert_true(json_is_null(jsonio_text(NULL)));
	v = jsonio_text("[1, 2.5]");
	assert_int_equal(json_array_size(v), 2);
	assert_true(json_is_integer(json_array_get(v, 0)));
	json_decref(v);
	v = jsonio_text("[1, oops");
	assert_string_equal(json_string_value(v), "[1, oops");
	json_decref(v);
	/* A number as units_exact()'s plain form writes it: whole below 2^53 an integer, else a real. */
	v = jsonio_plain(95);
	assert_true(json_is_integer(v) && json_integer_value(v) == 95);
	json_decref(v);
	v = jsonio_plain(-0.0);
	assert_true(json_is_integer(v) && json_integer_value(v) == 0);
	json_decref(v);
	v = jsonio_plain(0.25);
	assert_true(json_is_real(v) && json_real_value(v) == 0.25);
	json_decref(v);
	v = jsonio_plain(1e300);
	assert_true(json_is_real(v) && json_real_value(v) == 1e300);
	json_decref(v);
	assert_true(json_is_null(jsonio_plain(NAN)));
	/* jsonio_set takes v whatever happens; a NULL value or object fails. */
	assert_int_equal(jsonio_set(o, "a", json_string("x")), 0);
	assert_int_equal(jsonio_set(o, "b", json_real(1.5)), 0);
	assert_int_equal(jsonio_set(o, "c", NULL), -1);
	assert_int_equal(jsonio_set(NULL, "c", json_string("y")), -1);
	assert_int_equal(json_object_size(o), 2);
	assert_string_equal(jsonio_get_str(o, "a", "-"), "x");
	assert_string_equal(jsonio_get_str(o, "b", "-"), "-");
	assert_null(jsonio_get_str(o, "nmae", NULL));
	assert_true(jsonio_get_num(o, "b") == 1.5);
	assert_true(isnan(jsonio_get_num(o, "a")));
	assert_true(isnan(jsonio_get_num(NULL, "b")));
	json_decref(o);
}

/* 1.1 added the verdict noisy: written as 1.1, read from 1.0 and 1.1 alike. */
PLUMB_TEST(manifest_noisy_reads_in_minor_0_and_1)
{
	struct manifest m;
	struct plumb_err err;
	struct buf out;

	for (int minor = 0; minor <= 1; minor++) {
		json_t *j = fixture_tree();
		char *text;
		plumb_err_clear(&err);
		json_object_set_new(j, "minorVersion", json_integer(minor));
		json_object_set_new(bench(j, 0), "verdict", json_string("noisy"));
		json_object_set_new(bench(j, 0), "direction", json_string("faster"));
		text = json_dumps(j, JSON_PRESERVE_ORDER);
		assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
		assert_int_equal(m.version_minor, minor);
		assert_int_equal(m.benches[0].verdict, VERDICT_NOISY);
		buf_init(&out, 1 << 24);
		assert_int_equal(manifest_write(&m, &out, &err), 0);
		assert_non_null(strstr(out.data, "\"minorVersion\": 1,"));
		buf_release(&out);
		manifest_release(&m);
		free(text);
		json_decref(j);
	}
	assert_int_equal(MANIFEST_VERSION_MINOR_SHIFT, 3);
}

/* 1.4 added mode gbench and benches[].gbench: together or not at all, written
 * as 1.4 (a 1.3 reader does not know the mode), each member required. */
PLUMB_TEST(manifest_gbench_mode_round_trips_as_minor_4)
{
	struct manifest m;
	struct plumb_err err;
	struct buf out;
	json_t *j = fixture_tree(), *g = json_object();
	char *text;

	json_object_set_new(g, "section", json_string("micro"));
	json_object_set_new(g, "name", json_string("BM_x/8"));
	json_object_set_new(g, "family", json_string("BM_x"));
	json_object_set_new(bench(j, 0), "mode", json_string("gbench"));
	json_object_set_new(bench(j, 0), "gbench", g);
	text = json_dumps(j, JSON_PRESERVE_ORDER);
	plumb_err_clear(&err);
	assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
	assert_int_equal(m.benches[0].mode, MANIFEST_MODE_GBENCH);
	assert_string_equal(manifest_mode_name(m.benches[0].mode), "gbench");
	assert_true(m.benches[0].gbench.present);
	assert_string_equal(m.benches[0].gbench.section, "micro");
	assert_string_equal(m.benches[0].gbench.name, "BM_x/8");
	assert_string_equal(m.benches[0].gbench.family, "BM_x");
	buf_init(&out, 1 << 24);
	assert_int_equal(manifest_write(&m, &out, &err), 0);
	assert_non_null(strstr(out.data, "\"minorVersion\": 4,"));
	assert_non_null(strstr(out.data, "\"metric\": \"wall\",\n      \"gbench\": {\n"
			       "        \"section\": \"micro\",\n        \"name\": \"BM_x/8\",\n"
			       "        \"family\": \"BM_x\"\n      },"));
	buf_release(&out);
	manifest_release(&m);
	free(text);

	/* One without the other, or a member missing, names the path. */
	json_object_del(json_object_get(bench(j, 0), "gbench"), "family");
	expect_tree_error(json_deep_copy(j), "benches[0].gbench.family: missing required field");
	json_object_del(bench(j, 0), "gbench");
	expect_tree_error(json_deep_copy(j), "benches[0].gbench: missing required field (mode gbench)");
	json_object_set_new(bench(j, 0), "mode", json_string("process"));
	json_object_set_new(bench(j, 0), "gbench", json_pack("{s:s,s:s,s:s}", "section", "s",
							     "name", "n", "family", "f"));
	expect_tree_error(json_deep_copy(j), "benches[0].gbench: only in mode gbench");
	json_decref(j);
	assert_int_equal(MANIFEST_VERSION_MINOR, 5);
}

/* The member range (run --range): read back as written, every rule named. */
PLUMB_TEST(manifest_range_member_round_trips_and_is_checked)
{
	const char *parent = "0123456789abcdef0123456789abcdef01234567";
	struct manifest_range in = { "job1", "v1..main", 3, 1, 3, 7, parent, NULL }, out;
	struct plumb_err err;
	struct manifest m;
	struct buf b;
	char *text;
	json_t *j = fixture_tree();

	json_object_set_new(j, "range", manifest_range_new(&in));
	text = json_dumps(j, 0);
	assert_non_null(text);
	plumb_err_clear(&err);
	assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
	free(text);
	json_decref(j);
	assert_non_null(m.range);
	assert_int_equal(manifest_range_read(m.range, &out, &err), 0);
	assert_string_equal(out.id, "job1");
	assert_string_equal(out.spec, "v1..main");
	assert_string_equal(out.parent, parent);
	assert_true(out.step == 3 && out.index == 1 && out.count == 3 && out.total == 7);
	buf_init(&b, 1 << 24);
	assert_int_equal(manifest_write(&m, &b, &err), 0);
	assert_non_null(strstr(b.data, "\"range\": {"));
	buf_release(&b);
	manifest_release(&m);

	j = fixture_tree();
	in.index = 3;
	json_object_set_new(j, "range", manifest_range_new(&in));
	expect_tree_error(j, "range.index: 3 is not below range.count 3");
	in.index = 1;
	j = fixture_tree();
	in.count = 8;
	json_object_set_new(j, "range", manifest_range_new(&in));
	expect_tree_error(j, "range.count: 8 is more than range.total 7");
	in.count = 3;
	j = fixture_tree();
	in.parent = "main";
	json_object_set_new(j, "range", manifest_range_new(&in));
	expect_tree_error(j, "range.parent: expected a commit id");
	in.parent = parent;
	j = fixture_tree();
	in.id = "Job-1";
	json_object_set_new(j, "range", manifest_range_new(&in));
	expect_tree_error(j, "range.id: only digits and lower-case letters");
	in.id = "job1";
	j = fixture_tree();
	in.step = 0;
	json_object_set_new(j, "range", manifest_range_new(&in));
	expect_tree_error(j, "range.step: must be at least 1");
	j = fixture_tree();
	json_object_set_new(j, "range", json_pack("{s:s}", "id", "x"));
	expect_tree_error(j, "range.spec: missing required field");
	j = fixture_tree();
	json_object_set_new(j, "range", json_array());
	expect_tree_error(j, "range: expected object");
}

/* build.variants[].reused: a bisect's control reused from an earlier
 * comparison reads, writes back, and is only ever the control's. */
PLUMB_TEST(manifest_reused_control_round_trips_and_is_checked)
{
	struct plumb_err err;
	struct manifest m;
	struct buf b;
	char *text;
	json_t *j = fixture_tree(), *ctl;

	ctl = json_array_get(get(j, "build", "variants", NULL), 6);
	json_object_set_new(ctl, "reused", json_pack("{s:s,s:i}", "bisect", "20261201T162500Z-4242",
						     "comparison", 1));
	json_object_set_new(ctl, "buildNs", json_integer(0));
	text = json_dumps(j, 0);
	assert_non_null(text);
	plumb_err_clear(&err);
	assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
	free(text);
	json_decref(j);
	assert_int_equal(m.build.variants[6].side, MANIFEST_SIDE_CONTROL);
	assert_string_equal(m.build.variants[6].reused_bisect, "20261201T162500Z-4242");
	assert_int_equal(m.build.variants[6].reused_comparison, 1);
	assert_null(m.build.variants[0].reused_bisect);
	buf_init(&b, 1 << 24);
	assert_int_equal(manifest_write(&m, &b, &err), 0);
	assert_non_null(strstr(b.data, "\"reused\": {\n"));
	assert_non_null(strstr(b.data, "\"bisect\": \"20261201T162500Z-4242\""));
	buf_release(&b);
	manifest_release(&m);

	j = fixture_tree();
	json_object_set_new(json_array_get(get(j, "build", "variants", NULL), 0), "reused",
			    json_pack("{s:s,s:i}", "bisect", "b", "comparison", 1));
	expect_tree_error(j, "build.variants[0].reused: only the control is reused, and never from the build cache");
	j = fixture_tree();
	ctl = json_array_get(get(j, "build", "variants", NULL), 6);
	json_object_set_new(ctl, "reused", json_pack("{s:s,s:i}", "bisect", "b", "comparison", 0));
	expect_tree_error(j, "build.variants[6].reused: bisect and comparison go together");
	j = fixture_tree();
	ctl = json_array_get(get(j, "build", "variants", NULL), 6);
	json_object_set_new(ctl, "reused", json_pack("{s:s}", "bisect", "b"));
	expect_tree_error(j, "build.variants[6].reused.comparison: missing required field");
	j = fixture_tree();
	ctl = json_array_get(get(j, "build", "variants", NULL), 6);
	json_object_set_new(ctl, "reused", json_pack("{s:s,s:i}", "bisect", "", "comparison", 2));
	expect_tree_error(j, "build.variants[6].reused: an empty bisect id or a comparison below 1");
}

/* 1.5 added the shift rule version 4: a bundle it judged is written as 1.5
 * (a 1.4 reader does not know the version), one judged by version 3 as 1.3,
 * and a 1.4 reader's message names both versions the rule has. */
PLUMB_TEST(manifest_shift_version_4_is_written_as_minor_5)
{
	struct manifest m;
	struct plumb_err err;
	struct buf out;

	for (int version = 3; version <= 5; version++) {
		json_t *j = fixture_tree();
		char *text;
		json_object_set_new(bench(j, 0), "rule", json_pack("{s:s,s:i,s:f,s:f}", "name", "shift",
								   "version", version, "confidence", 0.99,
								   "minEffect", 0.01));
		text = json_dumps(j, JSON_PRESERVE_ORDER);
		plumb_err_clear(&err);
		if (version == 5) {
			assert_true(manifest_parse(&m, text, strlen(text), &err) < 0);
			assert_non_null(strstr(err.msg, "benches[0].rule: unknown rule"));
			assert_non_null(strstr(err.msg, "shift versions 3 and 4"));
		} else {
			assert_int_equal(manifest_parse(&m, text, strlen(text), &err), 0);
			buf_init(&out, 1 << 24);
			assert_int_equal(manifest_write(&m, &out, &err), 0);
			assert_non_null(strstr(out.data, version == 4 ? "\"minorVersion\": 5,"
								      : "\"minorVersion\": 3,"));
			buf_release(&out);
			manifest_release(&m);
		}
		free(text);
		json_decref(j);
	}
}
