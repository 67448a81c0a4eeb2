/*
 * tests/unit/test-config.c: plumb.conf (formats/config.c).
 *
 * Bad configurations are data: tests/fixtures/config/bad/NAME.conf, whose
 * first line "# error: {file}: ..." is the exact message expected.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/unit/unit.h"
#include "cli/exit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/config.h"
#include "formats/config-internal.h"
#include "common/banned.h"

/* ---- helpers ---------------------------------------------------------- */

struct tmp {
	char dir[256];
	char path[512];   /* <dir>/plumb.conf */
};

static void tmp_make(struct tmp *t)
{
	const char *base = getenv("TMPDIR");

	snprintf(t->dir, sizeof(t->dir), "%s/plumb-config-XXXXXX",
		 base && *base ? base : "/tmp");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/plumb.conf", t->dir);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Remove dir and everything in it (one level of sub-folders is enough here). */
static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[1024];

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_tree(p);
		else
			unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

static const char *minimal =
	"[run]\n\tbase = v1\n"
	"[build]\n\tcommand = make\n\tartifact = prog\n"
	"[bench \"b\"]\n\tcommand = {artifact}\n";

/* Load text as <tmp>/plumb.conf with overrides ov; returns config_load's code. */
static int load_text(struct tmp *t, const char *text,
		     const struct config_overrides *ov,
		     struct plumb_config *cfg, struct plumb_err *err)
{
	tmp_make(t);
	write_file(t->path, text);
	plumb_err_clear(err);
	return config_load(cfg, t->path, ov, err);
}

/* text must fail to load with exactly "<path><suffix>". */
static void expect_error(const char *text, const struct config_overrides *ov,
			 const char *suffix)
{
	struct tmp t;
	struct plumb_config cfg;
	struct plumb_err err;
	char want[PLUMB_ERR_MAX];

	assert_int_equal(load_text(&t, text, ov, &cfg, &err), PLUMB_EINPUT);
	snprintf(want, sizeof(want), "%s%s", t.path, suffix);
	assert_string_equal(err.msg, want);
	assert_int_equal(cli_exit_status(err.code), 3);
	rm_tree(t.dir);
}

/* minimal plus extra must load; the result is left in cfg. */
static void load_ok(const char *extra, const struct config_overrides *ov,
		    struct plumb_config *cfg)
{
	struct tmp t;
	struct plumb_err err;
	struct buf text;
	int rc;

	buf_init(&text, 1 << 20);
	assert_int_equal(buf_printf(&text, "%s%s", minimal, extra ? extra : ""), 0);
	rc = load_text(&t, buf_cstr(&text), ov, cfg, &err);
	if (rc != 0)
		fail_msg("load failed: %s", err.msg);
	rm_tree(t.dir);
	buf_release(&text);
}

static char *fixture(const char *name)
{
	size_t n = strlen(unit_srcdir()) + strlen(name) + 64;
	char *p = malloc(n);

	assert_non_null(p);
	snprintf(p, n, "%s/tests/fixtures/config/%s", unit_srcdir(), name);
	return p;
}

/* The text rendering of cfg, as a fresh string. */
static char *render(const struct plumb_config *cfg)
{
	struct buf b;
	struct plumb_err err;

	buf_init(&b, 1 << 20);
	assert_int_equal(config_to_text(cfg, &b, &err), 0);
	return buf_detach(&b, NULL);
}

/* ---- defaults --------------------------------------------------------- */

PLUMB_TEST(config_defaults)
{
	struct plumb_config cfg;
	const struct config_bench *b;

	load_ok(NULL, NULL, &cfg);
	assert_string_equal(cfg.repo.path, ".");
	assert_null(cfg.repo.url);
	assert_string_equal(cfg.run.base, "v1");
	assert_string_equal(cfg.run.candidate, "HEAD");
	/* The adaptive sweep from 6 pads, up to 18, in 15 minutes: 3 looks. */
	assert_true(cfg.run.pads_auto);
	assert_int_equal(cfg.run.pads, 6);
	assert_int_equal(CONFIG_PADS_AUTO_START, 6);
	assert_int_equal(cfg.run.max_pads, 18);
	assert_int_equal(config_sweep_looks(&cfg), 3);
	assert_int_equal(cfg.run.budget, 900);
	assert_int_equal(cfg.run.rounds, 10);
	assert_int_equal(cfg.run.seed, 1);
	assert_true(cfg.run.control);
	assert_int_equal(cfg.run.warmup_runs, 1);
	assert_int_equal(cfg.run.ncpus, 0);
	assert_null(cfg.run.cpus);
	assert_true(cfg.run.aslr);
	assert_int_equal(cfg.run.nenv, 3);
	assert_string_equal(cfg.run.env[0], "PATH");
	assert_string_equal(cfg.run.env[1], "HOME");
	assert_string_equal(cfg.run.env[2], "LANG");
	assert_int_equal(cfg.run.nlabels, 0);
	assert_string_equal(cfg.build.command, "make");
	assert_string_equal(cfg.build.artifact, "prog");
	assert_int_equal(cfg.build.pad, CONFIG_PAD_LINK);
	assert_int_equal(cfg.build.pad_bytes, 16);
	assert_int_equal(cfg.build.pad_offsets, CONFIG_OFFSETS_SPREAD);
	assert_int_equal(cfg.build.reuse, CONFIG_REUSE_RELINK);
	assert_int_equal(cfg.build.timeout, 1800);
	assert_string_equal(cfg.build.cc, "cc");
	assert_int_equal(cfg.nbenches, 1);
	b = &cfg.benches[0];
	assert_string_equal(b->name, "b");
	assert_string_equal(b->command, "{artifact}");
	assert_int_equal(b->mode, CONFIG_MODE_PROCESS);
	assert_int_equal(b->warmup, CONFIG_WARMUP_AUTO);
	assert_int_equal(b->metric, METRIC_WALL);
	assert_int_equal(b->nhot, 0);
	assert_int_equal(b->timeout, 300);
	assert_int_equal(b->max_samples, 10000000);
	assert_int_equal(b->checksum, CONFIG_CHECKSUM_AUTO);
	assert_null(cfg.workdir);
	assert_false(cfg.keep);
	assert_false(cfg.keep_going);
	assert_ptr_equal(config_bench_find(&cfg, "b"), b);
	assert_null(config_bench_find(&cfg, "B"));
	config_release(&cfg);
}

/*
 * The key table's default text and config_init() agree: setting every
 * key to its documented default changes nothing.
 */
/* The looks of the sweep: the first sweep and every extension run.maxPads
 * allows (the last one shorter); a fixed run.pads looks once. */
PLUMB_TEST(config_sweep_looks_counts_every_step)
{
	static const struct { const char *max; unsigned looks; } cases[] = {
		{ "6", 1 }, { "7", 2 }, { "12", 2 }, { "13", 3 }, { "16", 3 }, { "18", 3 },
		{ "19", 4 }, { "64", 11 },
	};
	struct plumb_config cfg;
	struct plumb_err err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		load_ok(NULL, NULL, &cfg);
		assert_int_equal(config_set(&cfg, "run.maxPads", cases[i].max, "t", &err), 0);
		assert_int_equal(config_sweep_looks(&cfg), cases[i].looks);
		config_release(&cfg);
	}
	load_ok(NULL, NULL, &cfg);
	assert_int_equal(config_set(&cfg, "run.pads", "8", "t", &err), 0);
	assert_int_equal(config_sweep_looks(&cfg), 1);
	config_release(&cfg);
}

PLUMB_TEST(config_table_defaults_match_init)
{
	struct plumb_config a, b;
	struct plumb_err err;
	json_t *ja, *jb;
	const struct config_key *k;

	assert_int_equal(config_init(&a, &err), 0);
	assert_int_equal(config_init(&b, &err), 0);
	assert_int_equal(config_set(&a, "bench.x.command", "run", "t", &err), 0);
	assert_int_equal(config_set(&b, "bench.x.command", "run", "t", &err), 0);
	assert_int_equal(config_set(&a, "bench.y.command", "run", "t", &err), 0);
	assert_int_equal(config_set(&b, "bench.y.command", "run", "t", &err), 0);
	assert_int_equal(config_set(&b, "bench.y.mode", "samples", "t", &err), 0);
	assert_int_equal(config_set(&a, "bench.y.mode", "samples", "t", &err), 0);
	for (size_t i = 0; (k = config_key_at(i)); i++) {
		char name[128];

		if (!k->def)
			continue;
		snprintf(name, sizeof(name), "%s.%s%s", k->section,
			 strcmp(k->section, "bench") == 0 ? "y." : "", k->name);
		/* y stays in samples mode: its mode is the one key not reset. */
		if (strcmp(name, "bench.y.mode") != 0 &&
		    config_set(&b, name, k->def, "t", &err) != 0)
			fail_msg("%s = %s: %s", name, k->def, err.msg);
		if (strcmp(k->section, "bench") == 0) {
			snprintf(name, sizeof(name), "bench.x.%s", k->name);
			if (strcmp(k->name, "warmup") != 0 && strcmp(k->name, "maxSamples") != 0 &&
			    config_set(&b, name, k->def, "t", &err) != 0)
				fail_msg("%s = %s: %s", name, k->def, err.msg);
		}
	}
	ja = config_to_json(&a);
	jb = config_to_json(&b);
	assert_non_null(ja);
	assert_non_null(jb);
	if (!json_equal(ja, jb)) {
		char *da = json_dumps(ja, JSON_COMPACT), *db = json_dumps(jb, JSON_COMPACT);

		fail_msg("defaults differ:\n%s\n%s", da, db);
	}
	json_decref(ja);
	json_decref(jb);
	config_release(&a);
	config_release(&b);
}

PLUMB_TEST(config_design_example_reads)
{
	struct plumb_config cfg;
	struct plumb_err err;
	char *p = fixture("design-example.conf");

	if (config_load(&cfg, p, NULL, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(cfg.run.base, "v1.2.0");
	assert_int_equal(cfg.run.ncpus, 1);
	assert_int_equal(cfg.run.cpus[0], 1);
	assert_string_equal(cfg.build.command, "make -j2 bench");
	assert_string_equal(cfg.build.artifact, "bench/interp");
	assert_int_equal(cfg.nbenches, 1);
	assert_string_equal(cfg.benches[0].command, "{artifact} 30000000");
	assert_int_equal(cfg.benches[0].nhot, 1);
	assert_string_equal(cfg.benches[0].hot[0], "run");
	assert_string_equal(cfg.file, p);
	config_release(&cfg);
	free(p);
}

/* Every key given a non-default value, in odd case, with split sections. */
PLUMB_TEST(config_full_reads_every_key)
{
	struct plumb_config cfg;
	struct plumb_err err;
	const struct config_bench *b;
	char *p = fixture("full.conf");

	if (config_load(&cfg, p, NULL, &err) != 0)
		fail_msg("%s", err.msg);
	assert_null(cfg.repo.path);
	assert_string_equal(cfg.repo.url, "https://example.org/project.git");
	assert_string_equal(cfg.run.candidate, "WORKTREE-not-really~2");
	assert_int_equal(cfg.run.pads, 8);
	assert_int_equal(cfg.run.rounds, 31);
	assert_true(cfg.run.seed == UINT64_C(9223372036854775807));
	assert_false(cfg.run.control);
	assert_int_equal(cfg.run.warmup_runs, 0);
	assert_int_equal(cfg.run.ncpus, 4);
	assert_int_equal(cfg.run.cpus[0], 1);
	assert_int_equal(cfg.run.cpus[1], 2);
	assert_int_equal(cfg.run.cpus[2], 3);
	assert_int_equal(cfg.run.cpus[3], 7);
	assert_false(cfg.run.aslr);
	assert_int_equal(cfg.run.nenv, 3);
	assert_string_equal(cfg.run.env[2], "_X1");
	assert_int_equal(cfg.run.nlabels, 2);
	assert_string_equal(cfg.run.labels[0].key, "host");
	assert_string_equal(cfg.run.labels[0].value, "ci-1");
	assert_string_equal(cfg.run.labels[1].key, "note");
	assert_string_equal(cfg.run.labels[1].value, "a ; b # c");
	assert_string_equal(cfg.build.command,
			    "make -j2  LDFLAGS='{pad_ldflags}' CFLAGS=\"-O2\" \\\n\techo done");
	assert_string_equal(cfg.build.artifact, "out/bin/prog");
	assert_int_equal(cfg.build.pad, CONFIG_PAD_ENV);
	assert_int_equal(cfg.build.pad_bytes, 64);
	assert_int_equal(cfg.build.reuse, CONFIG_REUSE_NONE);
	assert_int_equal(cfg.build.timeout, 5400);
	assert_string_equal(cfg.build.cc, "clang --target=x86_64-linux-gnu");
	/* File order, first appearance; the split section added up. */
	assert_int_equal(cfg.nbenches, 3);
	b = &cfg.benches[0];
	assert_string_equal(b->name, "samples.one");
	assert_string_equal(b->command, "{artifact} --samples");   /* ';' starts a comment */
	assert_int_equal(b->mode, CONFIG_MODE_SAMPLES);
	assert_int_equal(b->warmup, CONFIG_WARMUP_COUNT);
	assert_int_equal(b->warmup_count, 25);
	assert_int_equal(b->nhot, 3);
	assert_string_equal(b->hot[2], "_ZN3foo3barEv");
	assert_int_equal(b->max_samples, 5000);
	assert_int_equal(b->timeout, 7200);
	assert_int_equal(b->checksum, CONFIG_CHECKSUM_OFF);
	b = &cfg.benches[1];
	assert_string_equal(b->name, "Proc-2");
	assert_string_equal(b->command, "  {artifact} 100  ");
	assert_int_equal(b->metric, METRIC_INSTRUCTIONS);
	assert_int_equal(b->timeout, 90);
	assert_int_equal(b->checksum, CONFIG_CHECKSUM_REQUIRED);
	assert_int_equal(b->counter, CONFIG_COUNTER_BOTH);
	b = &cfg.benches[2];
	assert_string_equal(b->name, "cold");
	assert_int_equal(b->warmup, CONFIG_WARMUP_NONE);
	assert_int_equal(b->counter, CONFIG_COUNTER_AUTO);
	config_release(&cfg);
	free(p);
}

/* ---- values ----------------------------------------------------------- */

PLUMB_TEST(config_values_accepted)
{
	struct plumb_config cfg;

	load_ok("[run]\n\tpads = 1\n\trounds = 100000\n\tseed = 0\n\tcontrol\n"
		"\taslr = OFF\n\tenv =\n\tcpu =\n\twarmupRuns = 1000\n"
		"[build]\n\tpad = NONE\n\tpadBytes = 65536\n\ttimeout = 168h\n"
		"[bench \"s\"]\n\tcommand = awk '{print}' {artifact}\n\tmode = samples\n"
		"\twarmup = 0\n\tmaxSamples = 1000000000\n\ttimeout = 1\n"
		"\tmetric = wall\n", NULL, &cfg);
	assert_int_equal(cfg.run.pads, 1);
	assert_int_equal(cfg.run.rounds, 100000);
	assert_int_equal(cfg.run.seed, 0);
	assert_true(cfg.run.control);      /* a key without '=' is true */
	assert_false(cfg.run.aslr);
	assert_int_equal(cfg.run.nenv, 0);
	assert_int_equal(cfg.run.ncpus, 0);
	assert_int_equal(cfg.run.warmup_runs, 1000);
	assert_int_equal(cfg.build.pad, CONFIG_PAD_NONE);
	assert_int_equal(cfg.build.pad_bytes, 65536);
	assert_int_equal(cfg.build.timeout, 168 * 3600);
	assert_int_equal(cfg.nbenches, 2);
	assert_string_equal(cfg.benches[1].command, "awk '{print}' {artifact}");
	assert_int_equal(cfg.benches[1].warmup, CONFIG_WARMUP_NONE);
	assert_int_equal(cfg.benches[1].max_samples, 1000000000);
	assert_int_equal(cfg.benches[1].timeout, 1);
	config_release(&cfg);

	load_ok("[run]\n\tcontrol = \"\"\n\taslr = on\n", NULL, &cfg);
	assert_false(cfg.run.control);     /* an empty value is false, as in git */
	assert_true(cfg.run.aslr);
	config_release(&cfg);
}

PLUMB_TEST(config_durations)
{
	static const struct { const char *text; long s; const char *bad; } cases[] = {
		{ "90", 90, NULL }, { "90s", 90, NULL }, { "30m", 1800, NULL },
		{ "2h", 7200, NULL }, { "1h30m", 5400, NULL }, { "1h1m1s", 3661, NULL },
		{ "2H", 7200, NULL }, { "168h", 604800, NULL },
		{ NULL, 0, "0" }, { NULL, 0, "169h" }, { NULL, 0, "30m1h" },
		{ NULL, 0, "1h30" }, { NULL, 0, "5d" }, { NULL, 0, "m" },
		{ NULL, 0, "1.5h" }, { NULL, 0, "1m1m" }, { NULL, 0, "99999999999999999999" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plumb_config cfg;
		struct plumb_err err;

		assert_int_equal(config_init(&cfg, &err), 0);
		if (cases[i].text) {
			if (config_set(&cfg, "build.timeout", cases[i].text, "t", &err) != 0)
				fail_msg("%s: %s", cases[i].text, err.msg);
			assert_int_equal(cfg.build.timeout, cases[i].s);
		} else {
			char want[256];

			assert_int_equal(config_set(&cfg, "build.timeout", cases[i].bad, "t", &err),
					 PLUMB_EINPUT);
			snprintf(want, sizeof(want),
				 "t: build.timeout: '%s' is not a duration (like 90s, 30m or 2h) from 1s to 168h",
				 cases[i].bad);
			assert_string_equal(err.msg, want);
		}
		config_release(&cfg);
	}
}

PLUMB_TEST(config_cpu_lists)
{
	struct plumb_config cfg;
	char *text;

	load_ok("[run]\n\tcpu = 5, 0-2,1, 4\n", NULL, &cfg);
	assert_int_equal(cfg.run.ncpus, 5);
	assert_int_equal(cfg.run.cpus[0], 0);
	assert_int_equal(cfg.run.cpus[3], 4);
	assert_int_equal(cfg.run.cpus[4], 5);
	text = render(&cfg);
	assert_non_null(strstr(text, "\tcpu = 0-2,4,5\n"));
	free(text);
	config_release(&cfg);

	load_ok("[run]\n\tcpu = 1023\n", NULL, &cfg);
	assert_int_equal(cfg.run.ncpus, 1);
	assert_int_equal(cfg.run.cpus[0], 1023);
	config_release(&cfg);
}

/* Section and key names in any case; benchmark names keep theirs. */
PLUMB_TEST(config_case)
{
	struct plumb_config cfg;

	load_ok("[RUN]\n\tPADS = 2\n[Build]\n\tPadBytes = 32\n"
		"[bench \"B\"]\n\tCOMMAND = x\n", NULL, &cfg);
	assert_int_equal(cfg.run.pads, 2);
	assert_int_equal(cfg.build.pad_bytes, 32);
	assert_int_equal(cfg.nbenches, 2);
	assert_string_equal(cfg.benches[0].name, "b");
	assert_string_equal(cfg.benches[1].name, "B");
	config_release(&cfg);
}

/* Files edited elsewhere: CRLF line ends and a UTF-8 byte-order mark read the same. */
PLUMB_TEST(config_crlf_and_bom)
{
	struct plumb_config a, b;
	struct plumb_err err;
	struct tmp t1, t2;
	struct buf crlf;
	json_t *ja, *jb;

	buf_init(&crlf, 1 << 16);
	assert_int_equal(buf_addstr(&crlf, "\xef\xbb\xbf"), 0);
	for (const char *p = minimal; *p; p++)
		assert_int_equal(*p == '\n' ? buf_addstr(&crlf, "\r\n") : buf_addch(&crlf, *p), 0);
	assert_int_equal(load_text(&t1, minimal, NULL, &a, &err), 0);
	if (load_text(&t2, buf_cstr(&crlf), NULL, &b, &err) != 0)
		fail_msg("%s", err.msg);
	ja = config_to_json(&a);
	jb = config_to_json(&b);
	assert_true(json_equal(ja, jb));
	json_decref(ja);
	json_decref(jb);
	config_release(&a);
	config_release(&b);
	buf_release(&crlf);
	rm_tree(t1.dir);
	rm_tree(t2.dir);
}

/* ---- errors ----------------------------------------------------------- */

/* Every tests/fixtures/config/bad/NAME.conf fails with its "# error:" line. */
PLUMB_TEST(config_bad_fixtures)
{
	char *dir = fixture("bad");
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d))) {
		struct plumb_config cfg;
		struct plumb_err err;
		struct buf text, want;
		char path[1024];
		const char *line, *end, *mark;
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".conf") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		buf_init(&text, 1 << 20);
		buf_init(&want, 4096);
		plumb_err_clear(&err);
		if (file_read(path, 1 << 20, &text, &err) != 0)
			fail_msg("%s", err.msg);
		line = buf_cstr(&text);
		if (strncmp(line, "# error: ", 9) != 0)
			fail_msg("%s: first line is not '# error: ...'", e->d_name);
		line += 9;
		end = strchr(line, '\n');
		mark = strstr(line, "{file}");
		assert_non_null(mark);
		assert_int_equal(buf_add(&want, line, (size_t)(mark - line)), 0);
		assert_int_equal(buf_addstr(&want, path), 0);
		assert_int_equal(buf_add(&want, mark + 6, (size_t)(end - mark - 6)), 0);
		if (config_load(&cfg, path, NULL, &err) != PLUMB_EINPUT)
			fail_msg("%s: loaded, or not exit 3 (%d: %s)", e->d_name, err.code, err.msg);
		if (strcmp(err.msg, buf_cstr(&want)) != 0)
			fail_msg("%s:\n  got:  %s\n  want: %s", e->d_name, err.msg, buf_cstr(&want));
		buf_release(&text);
		buf_release(&want);
		n++;
	}
	closedir(d);
	free(dir);
	assert_true(n >= 40);
}

PLUMB_TEST(config_missing_file)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp t;

	tmp_make(&t);
	assert_int_equal(config_load(&cfg, t.path, NULL, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, t.path));
	assert_non_null(strstr(err.msg, ": cannot read: No such file or directory"));
	/* A folder is not a configuration. */
	assert_int_equal(config_load(&cfg, t.dir, NULL, &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, ": not a regular file"));
	rm_tree(t.dir);
}

PLUMB_TEST(config_limits)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp t;
	struct buf big;
	char want[PLUMB_ERR_MAX];

	/* The file size limit. */
	buf_init(&big, 2 * CONFIG_FILE_MAX);
	assert_int_equal(buf_addstr(&big, minimal), 0);
	while (big.len <= CONFIG_FILE_MAX)
		assert_int_equal(buf_addstr(&big, "# padding padding padding padding\n"), 0);
	assert_int_equal(load_text(&t, buf_cstr(&big), NULL, &cfg, &err), PLUMB_EINPUT);
	snprintf(want, sizeof(want), "%s: larger than %d bytes", t.path, CONFIG_FILE_MAX);
	assert_string_equal(err.msg, want);
	rm_tree(t.dir);

	/* Too many benchmarks. */
	buf_reset(&big);
	assert_int_equal(buf_addstr(&big, minimal), 0);
	for (int i = 0; i < CONFIG_BENCHES_MAX; i++)
		assert_int_equal(buf_printf(&big, "[bench \"x%d\"]\n\tcommand = y\n", i), 0);
	assert_int_equal(load_text(&t, buf_cstr(&big), NULL, &cfg, &err), PLUMB_EINPUT);
	snprintf(want, sizeof(want), "%s: more than %d benchmarks", t.path, CONFIG_BENCHES_MAX);
	assert_string_equal(err.msg, want);
	rm_tree(t.dir);

	/* A value over 4096 bytes. */
	buf_reset(&big);
	assert_int_equal(buf_printf(&big, "%s[build]\n\tcc = ", minimal), 0);
	for (int i = 0; i < 4097; i++)
		assert_int_equal(buf_addch(&big, 'c'), 0);
	assert_int_equal(buf_addch(&big, '\n'), 0);
	assert_int_equal(load_text(&t, buf_cstr(&big), NULL, &cfg, &err), PLUMB_EINPUT);
	snprintf(want, sizeof(want), "%s: build.cc: value longer than 4096 bytes", t.path);
	assert_string_equal(err.msg, want);
	rm_tree(t.dir);
	buf_release(&big);
}

/* A long, odd value is shown cut and escaped, never raw. */
PLUMB_TEST(config_message_shows_value_safely)
{
	struct plumb_config cfg;
	struct plumb_err err;

	assert_int_equal(config_init(&cfg, &err), 0);
	assert_int_equal(config_set(&cfg, "run.pads", "1\n2\x01xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
				    "t", &err), PLUMB_EINPUT);
	assert_null(strchr(err.msg, '\n'));
	assert_null(strchr(err.msg, '\x01'));
	assert_non_null(strstr(err.msg, "t: run.pads: '1\\n2\\x01xxx"));
	assert_non_null(strstr(err.msg, "...' is not a whole number from 1 to 64"));
	config_release(&cfg);
}

/* The commit's $HOME/.gitconfig, XDG and system files must not leak in. */
PLUMB_TEST(config_home_gitconfig_does_not_leak)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp home, t;
	char p[600], *old_home = NULL, *old_xdg = NULL;

	tmp_make(&home);
	snprintf(p, sizeof(p), "%s/.gitconfig", home.dir);
	write_file(p, "[run]\n\tpads = 7\n\tlabel = leaked=yes\n"
		   "[bench \"leak\"]\n\tcommand = x\n[include]\n\tpath = other\n");
	snprintf(p, sizeof(p), "%s/git", home.dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/git/config", home.dir);
	write_file(p, "[run]\n\trounds = 77\n");
	if (getenv("HOME"))
		old_home = strdup(getenv("HOME"));
	if (getenv("XDG_CONFIG_HOME"))
		old_xdg = strdup(getenv("XDG_CONFIG_HOME"));
	setenv("HOME", home.dir, 1);
	setenv("XDG_CONFIG_HOME", home.dir, 1);

	assert_int_equal(load_text(&t, minimal, NULL, &cfg, &err), 0);
	assert_true(cfg.run.pads_auto);
	assert_int_equal(cfg.run.pads, CONFIG_PADS_AUTO_START);
	assert_int_equal(cfg.run.rounds, 10);
	assert_int_equal(cfg.run.nlabels, 0);
	assert_int_equal(cfg.nbenches, 1);
	config_release(&cfg);
	rm_tree(t.dir);

	/* Not through an include either. */
	expect_error("[include]\n\tpath = ~/.gitconfig\n[run]\n\tbase = v1\n",
		     NULL, ":1: [include]: includes are not supported (plumb.conf is one self-contained file)");

	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	if (old_xdg)
		setenv("XDG_CONFIG_HOME", old_xdg, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(old_home);
	free(old_xdg);
	rm_tree(home.dir);
}

/* An include is refused before anything is opened: a FIFO would hang. */
PLUMB_TEST(config_include_fifo_not_opened)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp t;
	char fifo[600], text[900];

	tmp_make(&t);
	snprintf(fifo, sizeof(fifo), "%s/fifo", t.dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(text, sizeof(text), "%s[include]\n\tpath = %s\n", minimal, fifo);
	plumb_err_clear(&err);
	alarm(10);   /* libgit2 opening the FIFO would block here */
	assert_int_equal(load_text(&t, text, NULL, &cfg, &err), PLUMB_EINPUT);
	alarm(0);
	assert_non_null(strstr(err.msg, "[include]: includes are not supported"));
	rm_tree(t.dir);
}

PLUMB_TEST(config_set_names_origin)
{
	struct plumb_config cfg;
	struct plumb_err err;

	assert_int_equal(config_init(&cfg, &err), 0);
	assert_int_equal(config_set(&cfg, "run.rounds", "x", "-c", &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "-c: run.rounds: 'x' is not a whole number from 1 to 100000");
	assert_int_equal(config_set(&cfg, "bench.a.maxsamples", "0", "-c", &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "-c: bench.a.maxSamples: '0' is not a whole number from 1 to 1000000000");
	assert_int_equal(config_set(&cfg, "pads", "1", "-c", &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "-c: pads: unknown section 'pads' (sections: repo, run, build, verdict, host, archive, bench)");
	/* A later set replaces (config_set is not a file: no "given twice"). */
	assert_int_equal(config_set(&cfg, "run.pads", "2", "-c", &err), 0);
	assert_int_equal(config_set(&cfg, "run.pads", "3", "-c", &err), 0);
	assert_int_equal(cfg.run.pads, 3);
	/* Before config_check: nothing required is there yet. */
	assert_int_equal(config_check(&cfg, &err), PLUMB_EINPUT);
	assert_string_equal(err.msg, "plumb.conf: run.base: missing (required)");
	config_release(&cfg);
}

/* ---- overrides -------------------------------------------------------- */

PLUMB_TEST(config_overrides_apply)
{
	struct plumb_config cfg;
	const char *benches[] = { "c", "a" };
	const char *labels[] = { "host=ci-2", "nightly=yes", "host=ci-3" };
	struct config_overrides ov = {
		.base = "v2", .candidate = "WORKTREE", .pads = "2", .rounds = "5",
		.seed = "42", .benches = benches, .nbenches = 2,
		.labels = labels, .nlabels = 3, .workdir = "/var/tmp/w",
		.keep = true, .keep_going = true,
	};

	load_ok("[run]\n\tlabel = host=ci-1\n\tlabel = os=debian\n"
		"[bench \"a\"]\n\tcommand = x\n[bench \"c\"]\n\tcommand = y\n", &ov, &cfg);
	assert_string_equal(cfg.run.base, "v2");
	assert_string_equal(cfg.run.candidate, "WORKTREE");
	assert_int_equal(cfg.run.pads, 2);
	assert_int_equal(cfg.run.rounds, 5);
	assert_int_equal(cfg.run.seed, 42);
	/* File order kept, "b" dropped. */
	assert_int_equal(cfg.nbenches, 2);
	assert_string_equal(cfg.benches[0].name, "a");
	assert_string_equal(cfg.benches[1].name, "c");
	/* Labels: the file's order, --label replacing the same key, new ones after. */
	assert_int_equal(cfg.run.nlabels, 3);
	assert_string_equal(cfg.run.labels[0].key, "host");
	assert_string_equal(cfg.run.labels[0].value, "ci-3");
	assert_string_equal(cfg.run.labels[1].key, "os");
	assert_string_equal(cfg.run.labels[2].key, "nightly");
	assert_string_equal(cfg.workdir, "/var/tmp/w");
	assert_true(cfg.keep);
	assert_true(cfg.keep_going);
	config_release(&cfg);
}

PLUMB_TEST(config_overrides_supply_required_base)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp t;
	struct config_overrides ov = { .base = "v9" };

	assert_int_equal(load_text(&t, "[build]\n\tcommand = make\n\tartifact = p\n"
				   "[bench \"b\"]\n\tcommand = x\n", &ov, &cfg, &err), 0);
	assert_string_equal(cfg.run.base, "v9");
	config_release(&cfg);
	rm_tree(t.dir);
}

/* text with ov must fail with exactly want ("{file}" stands for the path). */
static void expect_override_error(const char *text, const struct config_overrides *ov,
				  const char *want)
{
	struct tmp t;
	struct plumb_config cfg;
	struct plumb_err err;
	struct buf w;
	const char *mark = strstr(want, "{file}");

	buf_init(&w, 4096);
	assert_int_equal(load_text(&t, text, ov, &cfg, &err), PLUMB_EINPUT);
	if (mark) {
		assert_int_equal(buf_add(&w, want, (size_t)(mark - want)), 0);
		assert_int_equal(buf_printf(&w, "%s%s", t.path, mark + 6), 0);
	} else {
		assert_int_equal(buf_addstr(&w, want), 0);
	}
	assert_string_equal(err.msg, buf_cstr(&w));
	buf_release(&w);
	rm_tree(t.dir);
}

PLUMB_TEST(config_overrides_checked)
{
	const char *bench_typo[] = { "b", "intrp" };
	const char *bench_case[] = { "B" };
	const char *bench_far[] = { "zzzzzz" };
	const char *bad_label[] = { "=x" };
	const char *bad_utf8[] = { "k=\xc3(" };
	const char *text = "[run]\n\tbase = v1\n[build]\n\tcommand = make\n\tartifact = p\n"
			   "[bench \"b\"]\n\tcommand = x\n[bench \"interp\"]\n\tcommand = x\n";

	expect_override_error(text, &(struct config_overrides){ .pads = "0" },
			      "--pads: '0' is not a whole number from 1 to 64");
	expect_override_error(text, &(struct config_overrides){ .pads = "four" },
			      "--pads: 'four' is not a whole number from 1 to 64");
	expect_override_error(text, &(struct config_overrides){ .rounds = "1e3" },
			      "--rounds: '1e3' is not a whole number from 1 to 100000");
	expect_override_error(text, &(struct config_overrides){ .seed = "-1" },
			      "--seed: '-1' is not a whole number from 0 to 9223372036854775807");
	expect_override_error(text, &(struct config_overrides){ .base = "" },
			      "--base: '' is not a revision (a tag, branch, HEAD~N, commit id or WORKTREE)");
	expect_override_error(text, &(struct config_overrides){ .candidate = "a b" },
			      "--candidate: 'a b' is not a revision (a tag, branch, HEAD~N, commit id or WORKTREE)");
	expect_override_error(text, &(struct config_overrides){ .benches = bench_typo, .nbenches = 2 },
			      "--bench: no benchmark 'intrp' in {file} (did you mean 'interp'?)");
	expect_override_error(text, &(struct config_overrides){ .benches = bench_case, .nbenches = 1 },
			      "--bench: no benchmark 'B' in {file} (did you mean 'b'?)");
	expect_override_error(text, &(struct config_overrides){ .benches = bench_far, .nbenches = 1 },
			      "--bench: no benchmark 'zzzzzz' in {file}");
	expect_override_error(text, &(struct config_overrides){ .labels = bad_label, .nlabels = 1 },
			      "--label: '=x' is not KEY=VALUE (KEY: up to 64 letters, digits, '.', '_' or '-'; "
			      "VALUE: up to 256 characters)");
	expect_override_error(text, &(struct config_overrides){ .labels = bad_utf8, .nlabels = 1 },
			      "--label: 'k=\\xc3(' is not KEY=VALUE (KEY: up to 64 letters, digits, '.', '_' or '-'; "
			      "VALUE: up to 256 characters)");
	expect_override_error(text, &(struct config_overrides){ .workdir = "" },
			      "--workdir: empty value");
	/* Overrides are checked like the file: WORKTREE against a url. */
	expect_override_error("[repo]\n\turl = https://example.org/r.git\n[build]\n\tcommand = make\n"
			      "\tartifact = p\n[bench \"b\"]\n\tcommand = x\n",
			      &(struct config_overrides){ .base = "WORKTREE" },
			      "{file}: run.base: WORKTREE needs repo.path (a repository given by url has no working copy)");
}

/* ---- rendering -------------------------------------------------------- */

/* The names of obj's keys, in order, joined by spaces. */
static void json_keys(json_t *obj, char *out, size_t size)
{
	const char *k;
	json_t *v;
	size_t o = 0;

	out[0] = '\0';
	json_object_foreach(obj, k, v) {
		(void)v;
		o += (size_t)snprintf(out + o, size - o, "%s%s", o ? " " : "", k);
		assert_true(o < size);
	}
}

PLUMB_TEST(config_json_layout)
{
	struct plumb_config cfg;
	json_t *j, *b;
	char keys[1024];
	char *dump;

	load_ok("[run]\n\tcpu = 2-3\n\tlabel = host=x\n"
		"[bench \"s\"]\n\tcommand = y\n\tmode = samples\n\twarmup = 7\n\thot = f g\n",
		NULL, &cfg);
	j = config_to_json(&cfg);
	assert_non_null(j);
	json_keys(j, keys, sizeof(keys));
	assert_string_equal(keys, "repo run build verdict host bench");
	json_keys(json_object_get(j, "verdict"), keys, sizeof(keys));
	assert_string_equal(keys, "rule confidence minEffect");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "verdict"), "rule")),
			    "shift");
	json_keys(json_object_get(j, "repo"), keys, sizeof(keys));
	assert_string_equal(keys, "path url releaseTags");
	json_keys(json_object_get(j, "run"), keys, sizeof(keys));
	assert_string_equal(keys, "base candidate pads maxPads budget rounds seed control warmupRuns cpu aslr env keepArtifacts label setup cleanup project");
	json_keys(json_object_get(j, "build"), keys, sizeof(keys));
	assert_string_equal(keys, "command artifact pad padBytes padOffsets reuse timeout cc jobs");
	b = json_object_get(j, "bench");
	assert_int_equal(json_array_size(b), 2);
	json_keys(json_array_get(b, 0), keys, sizeof(keys));
	assert_string_equal(keys, "name command mode filter warmup metric hot hotCoverage timeout maxSamples checksum counter params prepare setup cleanup");

	dump = json_dumps(j, JSON_COMPACT);
	assert_non_null(dump);
	assert_string_equal(dump,
		"{\"repo\":{\"path\":\".\",\"url\":null,\"releaseTags\":null},"
		"\"run\":{\"base\":\"v1\",\"candidate\":\"HEAD\",\"pads\":\"auto\",\"maxPads\":18,\"budget\":900,\"rounds\":10,\"seed\":1,"
		"\"control\":true,\"warmupRuns\":1,\"cpu\":[2,3],\"aslr\":\"on\","
		"\"env\":[\"PATH\",\"HOME\",\"LANG\"],\"keepArtifacts\":\"pad0\",\"label\":{\"host\":\"x\"},\"setup\":null,\"cleanup\":null,\"project\":null},"
		"\"build\":{\"command\":\"make\",\"artifact\":\"prog\",\"pad\":\"link\",\"padBytes\":16,\"padOffsets\":\"spread\","
		"\"reuse\":\"relink\",\"timeout\":1800,\"cc\":\"cc\",\"jobs\":\"auto\"},"
		"\"verdict\":{\"rule\":\"shift\",\"confidence\":\"auto\",\"minEffect\":\"0.01\"},"
		"\"host\":{\"allow\":null},"
		"\"bench\":[{\"name\":\"b\",\"command\":\"{artifact}\",\"mode\":\"process\",\"filter\":null,\"warmup\":null,"
		"\"metric\":\"wall\",\"hot\":[],\"hotCoverage\":\"0.95\",\"timeout\":300,\"maxSamples\":null,\"checksum\":\"auto\",\"counter\":\"auto\",\"params\":null,\"prepare\":null,\"setup\":null,\"cleanup\":null},"
		"{\"name\":\"s\",\"command\":\"y\",\"mode\":\"samples\",\"filter\":null,\"warmup\":7,\"metric\":\"wall\","
		"\"hot\":[\"f\",\"g\"],\"hotCoverage\":\"0.95\",\"timeout\":300,\"maxSamples\":10000000,\"checksum\":\"auto\",\"counter\":\"auto\",\"params\":null,\"prepare\":null,\"setup\":null,\"cleanup\":null}]}");
	free(dump);
	json_decref(j);
	config_release(&cfg);
}

/* Every key of the table is in the JSON, under its section, by its name. */
PLUMB_TEST(config_json_has_every_key)
{
	struct plumb_config cfg;
	const struct config_key *k;
	json_t *j;

	load_ok(NULL, NULL, &cfg);
	j = config_to_json(&cfg);
	assert_non_null(j);
	/* Where a bundle goes is not part of its spec (nor is a password), nor
	 * this machine's lock and cache. */
	assert_null(json_object_get(j, "archive"));
	assert_null(json_object_get(json_object_get(j, "run"), "lock"));
	assert_null(json_object_get(json_object_get(j, "build"), "cacheSize"));
	for (size_t i = 0; (k = config_key_at(i)); i++) {
		if (strcmp(k->section, "archive") == 0 ||
		    (strcmp(k->section, "run") == 0 && strcmp(k->name, "lock") == 0) ||
		    (strcmp(k->section, "build") == 0 && strcmp(k->name, "cacheSize") == 0))
			continue;
		json_t *sec = strcmp(k->section, "bench") == 0
			? json_array_get(json_object_get(j, "bench"), 0)
			: json_object_get(j, k->section);

		assert_non_null(sec);
		if (!json_object_get(sec, k->name))
			fail_msg("%s.%s is not in the JSON", k->section, k->name);
	}
	json_decref(j);
	config_release(&cfg);
}

/* A bundle's spec may not set this machine's lock, cache or archive; nothing else is refused. */
PLUMB_TEST(config_spec_keys_of_this_machine_are_refused)
{
	static const char *const refused[] = { "run.lock", "build.cacheSize", "archive.url", "RUN.LOCK" };
	const struct config_key *k;
	struct plumb_err err;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		plumb_err_clear(&err);
		assert_int_equal(config_spec_key_check(refused[i], "/tmp/elsewhere", "b.plumb: spec", &err),
				 PLUMB_EINPUT);
		assert_non_null(strstr(err.msg, "b.plumb: spec: "));
		assert_non_null(strstr(err.msg, "refused"));
		/* Not set, or the default: nothing is chosen. */
		assert_int_equal(config_spec_key_check(refused[i], NULL, "b.plumb: spec", &err), 0);
	}
	assert_int_equal(config_spec_key_check("build.cacheSize", "4G", "b.plumb: spec", &err), 0);
	for (size_t i = 0; (k = config_key_at(i)); i++) {
		char name[128];
		int local = strcmp(k->section, "archive") == 0 ||
			    (strcmp(k->section, "run") == 0 && strcmp(k->name, "lock") == 0) ||
			    (strcmp(k->section, "build") == 0 && strcmp(k->name, "cacheSize") == 0);
		snprintf(name, sizeof(name), strcmp(k->section, "bench") == 0 ? "%s.b.%s" : "%s.%s",
			 k->section, k->name);
		assert_int_equal(config_spec_key_check(name, "/tmp/elsewhere", "s", &err),
				 local ? PLUMB_EINPUT : 0);
	}
}

/* Render, read back, render again: same text, same JSON. */
static void round_trip(const char *path)
{
	struct plumb_config a, b;
	struct plumb_err err;
	struct tmp t;
	char *ta, *tb;
	json_t *ja, *jb;

	if (config_load(&a, path, NULL, &err) != 0)
		fail_msg("%s", err.msg);
	ta = render(&a);
	tmp_make(&t);
	write_file(t.path, ta);
	if (config_load(&b, t.path, NULL, &err) != 0)
		fail_msg("reading back %s: %s\n%s", path, err.msg, ta);
	tb = render(&b);
	assert_string_equal(ta, tb);
	ja = config_to_json(&a);
	jb = config_to_json(&b);
	assert_non_null(ja);
	assert_non_null(jb);
	if (!json_equal(ja, jb)) {
		char *da = json_dumps(ja, 0), *db = json_dumps(jb, 0);

		fail_msg("json differs:\n%s\n%s", da, db);
	}
	json_decref(ja);
	json_decref(jb);
	free(ta);
	free(tb);
	config_release(&a);
	config_release(&b);
	rm_tree(t.dir);
}

PLUMB_TEST(config_text_round_trip)
{
	static const char *const names[] = {
		"minimal.conf", "design-example.conf", "full.conf"
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *p = fixture(names[i]);

		round_trip(p);
		free(p);
	}
}

/* With overrides applied, the text still reads back to the same thing. */
PLUMB_TEST(config_text_round_trip_overrides)
{
	struct plumb_config a, b;
	struct plumb_err err;
	struct tmp t;
	const char *labels[] = { "why=\"quoted\" \\ ; #" };
	const char *benches[] = { "cold" };
	struct config_overrides ov = { .pads = "3", .labels = labels, .nlabels = 1,
				       .benches = benches, .nbenches = 1 };
	char *p = fixture("full.conf");
	char *ta, *tb;

	assert_int_equal(config_load(&a, p, &ov, &err), 0);
	ta = render(&a);
	assert_non_null(strstr(ta, "\tpads = 3\n"));
	assert_non_null(strstr(ta, "\tlabel = \"why=\\\"quoted\\\" \\\\ ; #\"\n"));
	assert_null(strstr(ta, "samples.one"));
	tmp_make(&t);
	write_file(t.path, ta);
	if (config_load(&b, t.path, NULL, &err) != 0)
		fail_msg("%s\n%s", err.msg, ta);
	tb = render(&b);
	assert_string_equal(ta, tb);
	assert_string_equal(b.run.labels[2].value, "\"quoted\" \\ ; #");
	free(ta);
	free(tb);
	free(p);
	config_release(&a);
	config_release(&b);
	rm_tree(t.dir);
}

PLUMB_TEST(config_text_layout)
{
	struct plumb_config cfg;
	char *text;

	load_ok(NULL, NULL, &cfg);
	text = render(&cfg);
	assert_string_equal(text,
		"# plumb.conf: the effective configuration (see plumb.conf(5))\n"
		"[repo]\n\tpath = .\n\t; url: not set\n\t; releaseTags: not set (every tag)\n"
		"[run]\n\tbase = v1\n\tcandidate = HEAD\n\tpads = auto\n"
		"\tmaxPads = 18\n\tbudget = 15m\n\trounds = 10\n\tseed = 1\n"
		"\tcontrol = true\n\twarmupRuns = 1\n\t; cpu: not set (no pinning)\n\taslr = on\n"
		"\tenv = PATH HOME LANG\n\tkeepArtifacts = pad0\n\t; label: none\n\t; setup: not set\n\t; cleanup: not set\n"
		"\t; lock: not set (/run/lock/plumb, /var/lock/plumb or $XDG_RUNTIME_DIR/plumb.lock)\n"
		"\t; project: not set (the remote URL, else the first commit id)\n"
		"[build]\n\tcommand = make\n\tartifact = prog\n\tpad = link\n\tpadBytes = 16\n\tpadOffsets = spread\n"
		"\treuse = relink\n\ttimeout = 30m\n\tcc = cc\n\tcacheSize = 4G\n\tjobs = auto\n"
		"[verdict]\n\trule = shift\n\tconfidence = auto\n\tminEffect = 0.01\n"
		"[host]\n\t; allow: none\n"
		"[archive]\n\t; url: not set ($PLUMB_ARCHIVE, else $XDG_DATA_HOME/plumb)\n"
		"[bench \"b\"]\n\tcommand = {artifact}\n\tmode = process\n\t; filter: mode = gbench only\n"
		"\t; warmup: samples mode only\n\tmetric = wall\n\t; hot: not set (main is checked)\n"
		"\thotCoverage = 0.95\n"
		"\ttimeout = 5m\n\t; maxSamples: samples mode only\n\tchecksum = auto\n\tcounter = auto\n"
		"\t; params: not set\n\t; prepare: not set\n\t; setup: not set\n\t; cleanup: not set\n");
	free(text);
	config_release(&cfg);
}

/* git itself reads the rendered text to the same values (when git is installed). */
PLUMB_TEST(config_text_is_git_config)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp t;
	char *p = fixture("full.conf");
	char *text, cmd[1200], line[4096];
	FILE *f;
	int found = 0;

	if (system("git --version >/dev/null 2>&1") != 0) {
		free(p);
		skip();
	}
	assert_int_equal(config_load(&cfg, p, NULL, &err), 0);
	text = render(&cfg);
	tmp_make(&t);
	write_file(t.path, text);
	snprintf(cmd, sizeof(cmd), "git config -f '%s' --get-all run.label", t.path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (strcmp(line, "host=ci-1\n") == 0 || strcmp(line, "note=a ; b # c\n") == 0)
			found++;
	}
	assert_int_equal(pclose(f), 0);
	assert_int_equal(found, 2);
	snprintf(cmd, sizeof(cmd), "git config -f '%s' bench.Proc-2.command", t.path);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "  {artifact} 100  \n");
	assert_int_equal(pclose(f), 0);
	free(text);
	free(p);
	config_release(&cfg);
	rm_tree(t.dir);
}

/* ---- the man page ----------------------------------------------------- */

/* Drop groff font escapes (\fB \fI \fR \fP) and "\-" -> "-" in place. */
static void strip_groff(char *s)
{
	char *o = s;

	for (char *p = s; *p;) {
		if (p[0] == '\\' && p[1] == 'f' && p[2]) {
			p += 3;
		} else if (p[0] == '\\' && p[1] == '-') {
			*o++ = '-';
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
}

/*
 * A row's bounds ("1 to 64"), its "auto" and its choices are what its doc
 * line (k->values) and its paragraph of docs/plumb.conf.5 say.
 */
static void key_doc_agrees(const struct key_def *kd, const struct config_key *k,
			   const char *name, const char *para)
{
	char want[256] = "";
	size_t len = 0;

	switch (kd->kind) {
	case KIND_UINT:
	case KIND_U64:
		snprintf(want, sizeof(want), "%" PRIu64 " to %" PRIu64, kd->min, kd->max);
		break;
	case KIND_REAL:
		snprintf(want, sizeof(want), "%s to %s", kd->lo, kd->hi);
		break;
	case KIND_CHOICE:
	case KIND_BOOL:   /* run.control is true | false; run.aslr on | off */
		if (!kd->choices)
			return;
		for (size_t c = 0; c < kd->nchoices; c++) {
			if (!kd->choices[c][0])
				continue;
			if (!strstr(para, kd->choices[c]))
				fail_msg("%s: the page does not name its value '%s'", name, kd->choices[c]);
			len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%s",
						len ? " | " : "", kd->choices[c]);
		}
		if (strcmp(k->values, want) != 0)
			fail_msg("%s: the doc line '%s' is not its choices '%s'", name, k->values, want);
		return;
	default:
		return;
	}
	if (strncmp(k->values, want, strlen(want)) != 0)
		fail_msg("%s: the doc line '%s' does not start with its bounds '%s'", name, k->values, want);
	if (!strstr(para, want))
		fail_msg("%s: the page does not give its bounds '%s'", name, want);
	if (kd->auto_ok && (!strstr(k->values, "auto") || !strstr(para, "auto")))
		fail_msg("%s: takes auto, but its doc line or page does not say so", name);
}

/*
 * docs/plumb.conf.5 documents exactly the parser's keys (".TP" then
 * ".B section.key", bench keys as bench.NAME.key), each with its default
 * ("Default: X") or "Required", its bounds and its choices as the key
 * table has them.
 */
PLUMB_TEST(config_man_page_matches_keys)
{
	char path[1024];
	struct buf page;
	struct plumb_err err;
	const struct config_key *k;
	char *line, *save = NULL, *text;
	char (*names)[96] = calloc(64, sizeof(*names));
	char **paras = calloc(64, sizeof(*paras));
	size_t n = 0;
	bool after_tp = false, in_para = false;

	assert_non_null(names);
	assert_non_null(paras);
	snprintf(path, sizeof(path), "%s/docs/plumb.conf.5", unit_srcdir());
	buf_init(&page, 1 << 20);
	if (file_read(path, 1 << 20, &page, &err) != 0)
		fail_msg("%s", err.msg);
	text = buf_detach(&page, NULL);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		strip_groff(line);
		if (after_tp && strncmp(line, ".B ", 3) == 0 &&
		    (strncmp(line + 3, "repo.", 5) == 0 || strncmp(line + 3, "run.", 4) == 0 ||
		     strncmp(line + 3, "build.", 6) == 0 || strncmp(line + 3, "verdict.", 8) == 0 ||
		     strncmp(line + 3, "host.", 5) == 0 || strncmp(line + 3, "archive.", 8) == 0 ||
		     strncmp(line + 3, "bench.", 6) == 0)) {
			assert_true(n < 64);
			snprintf(names[n], sizeof(names[n]), "%s", line + 3);
			paras[n] = calloc(1, 8192);
			assert_non_null(paras[n]);
			n++;
			in_para = true;
		} else if (strncmp(line, ".TP", 3) == 0 || strncmp(line, ".SS", 3) == 0 ||
			   strncmp(line, ".SH", 3) == 0) {
			in_para = false;
		} else if (in_para) {
			size_t len = strlen(paras[n - 1]);

			snprintf(paras[n - 1] + len, 8192 - len, "%s ", line);
		}
		after_tp = strncmp(line, ".TP", 3) == 0;
	}
	/* Every documented key is known, with its default or "Required". */
	for (size_t i = 0; i < n; i++) {
		char sec[32], key[64];
		const char *dot = strchr(names[i], '.');
		const char *last = strrchr(names[i], '.');
		bool found = false;

		snprintf(sec, sizeof(sec), "%.*s", (int)(dot - names[i]), names[i]);
		snprintf(key, sizeof(key), "%s", last + 1);
		if (strcmp(sec, "bench") == 0 && strncmp(dot, ".NAME.", 6) != 0)
			fail_msg("%s: bench keys are documented as bench.NAME.key", names[i]);
		for (size_t j = 0; (k = config_key_at(j)); j++) {
			char want[128];

			if (strcmp(k->section, sec) != 0 || strcmp(k->name, key) != 0)
				continue;
			found = true;
			key_doc_agrees(&config_keys[j], k, names[i], paras[i]);
			if (k->def) {
				snprintf(want, sizeof(want), "Default: %s", k->def);
				if (!strstr(paras[i], want))
					fail_msg("%s: no '%s' in: %s", names[i], want, paras[i]);
			} else if (k->required && !strstr(paras[i], "Required")) {
				fail_msg("%s: required, but the page does not say so", names[i]);
			}
		}
		if (!found)
			fail_msg("docs/plumb.conf.5 documents %s, which the parser does not know", names[i]);
	}
	/* Every known key is documented, once. */
	for (size_t j = 0; (k = config_key_at(j)); j++) {
		char want[96];
		int seen = 0;

		snprintf(want, sizeof(want), "%s.%s%s", k->section,
			 strcmp(k->section, "bench") == 0 ? "NAME." : "", k->name);
		for (size_t i = 0; i < n; i++)
			seen += strcmp(names[i], want) == 0;
		if (seen != 1)
			fail_msg("%s is documented %d times in docs/plumb.conf.5", want, seen);
	}
	for (size_t i = 0; i < n; i++)
		free(paras[i]);
	free(paras);
	free(names);
	free(text);
}

/* ---- paths ------------------------------------------------------------ */

PLUMB_TEST(config_repo_dir_relative_to_file)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct tmp t;
	struct buf out;
	char sub[600], path[700], want[800];

	tmp_make(&t);
	snprintf(sub, sizeof(sub), "%s/sub", t.dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/plumb.conf", sub);
	buf_init(&out, 4096);

	write_file(path, minimal);
	assert_int_equal(config_load(&cfg, path, NULL, &err), 0);
	assert_string_equal(cfg.dir, sub);
	assert_int_equal(config_repo_dir(&cfg, &out, &err), 0);
	assert_string_equal(buf_cstr(&out), sub);
	config_release(&cfg);

	buf_reset(&out);
	snprintf(want, sizeof(want), "%s[repo]\n\tpath = ../repo\n", minimal);
	write_file(path, want);
	assert_int_equal(config_load(&cfg, path, NULL, &err), 0);
	assert_int_equal(config_repo_dir(&cfg, &out, &err), 0);
	snprintf(want, sizeof(want), "%s/../repo", sub);
	assert_string_equal(buf_cstr(&out), want);
	config_release(&cfg);

	buf_reset(&out);
	snprintf(want, sizeof(want), "%s[repo]\n\tpath = /srv/repo\n", minimal);
	write_file(path, want);
	assert_int_equal(config_load(&cfg, path, NULL, &err), 0);
	assert_int_equal(config_repo_dir(&cfg, &out, &err), 0);
	assert_string_equal(buf_cstr(&out), "/srv/repo");
	config_release(&cfg);

	snprintf(want, sizeof(want), "%s[repo]\n\turl = https://example.org/r.git\n", minimal);
	write_file(path, want);
	assert_int_equal(config_load(&cfg, path, NULL, &err), 0);
	assert_null(cfg.repo.path);
	assert_int_equal(config_repo_dir(&cfg, &out, &err), PLUMB_EINPUT);
	config_release(&cfg);

	buf_release(&out);
	rm_tree(t.dir);
}

PLUMB_TEST(config_verdict_rule)
{
	struct plumb_config cfg;
	struct plumb_err err;

	load_ok("[verdict]\n\trule = overlap\n\tconfidence = 0.99\n", NULL, &cfg);
	assert_string_equal(cfg.verdict.rule, "overlap");
	assert_true(cfg.verdict.confidence == 0.99);
	config_release(&cfg);
	load_ok("", NULL, &cfg);
	assert_string_equal(cfg.verdict.rule, "shift");
	assert_true(cfg.verdict.confidence == 0);   /* auto: the rule's own */
	assert_true(cfg.verdict.min_effect == 0.01);
	config_release(&cfg);
	assert_int_equal(config_init(&cfg, &err), 0);
	assert_true(config_set(&cfg, "verdict.rule", "strict", "plumb.conf", &err) < 0);
	assert_non_null(strstr(err.msg, "verdict.rule"));
	assert_non_null(strstr(err.msg, "shift, margin, overlap"));
	assert_true(config_set(&cfg, "verdict.confidence", "2", "plumb.conf", &err) < 0);
	assert_non_null(strstr(err.msg, "verdict.confidence"));
	config_release(&cfg);
}

/* bench.NAME.params: one benchmark per combination, the last parameter
 * fastest, {param:NAME} substituted, each recording its combination. */
PLUMB_TEST(config_params_expand_and_substitute)
{
	struct plumb_config cfg;

	load_ok("[bench \"zip\"]\n\tparams = size=1M,64M level=1,9\n"
		"\tcommand = {artifact} -{param:level} in-{param:size} x{param:level}\n"
		"\ttimeout = 7s\n"
		"[bench \"after\"]\n\tcommand = {artifact} x\n", NULL, &cfg);
	assert_int_equal(cfg.nbenches, 6);
	assert_string_equal(cfg.benches[0].name, "b");
	assert_string_equal(cfg.benches[1].name, "zip/size=1M,level=1");
	assert_string_equal(cfg.benches[2].name, "zip/size=1M,level=9");
	assert_string_equal(cfg.benches[3].name, "zip/size=64M,level=1");
	assert_string_equal(cfg.benches[4].name, "zip/size=64M,level=9");
	assert_string_equal(cfg.benches[5].name, "after");
	assert_string_equal(cfg.benches[2].command, "{artifact} -9 in-1M x9");
	assert_string_equal(cfg.benches[3].command, "{artifact} -1 in-64M x1");
	assert_string_equal(cfg.benches[4].params, "size=64M;level=9");
	assert_int_equal(cfg.benches[4].timeout, 7);
	assert_null(cfg.benches[5].params);
	config_release(&cfg);

	/* Quoted, ';' separates as the issue writes it. */
	load_ok("[bench \"z\"]\n\tparams = \"a=1;b=2,3\"\n\tcommand = {artifact} {param:b}\n",
		NULL, &cfg);
	assert_int_equal(cfg.nbenches, 3);
	assert_string_equal(cfg.benches[2].name, "z/a=1,b=3");
	assert_string_equal(cfg.benches[2].command, "{artifact} 3");
	config_release(&cfg);
}

PLUMB_TEST(config_params_bench_selects_a_family)
{
	struct plumb_config cfg;
	const char *names[] = { "zip" };
	struct config_overrides ov = { .benches = names, .nbenches = 1 };
	const char *one[] = { "zip/level=9" };
	struct config_overrides ov1 = { .benches = one, .nbenches = 1 };

	load_ok("[bench \"zip\"]\n\tparams = level=1,9\n\tcommand = {artifact} {param:level}\n",
		&ov, &cfg);
	assert_int_equal(cfg.nbenches, 2);
	assert_string_equal(cfg.benches[1].name, "zip/level=9");
	config_release(&cfg);
	load_ok("[bench \"zip\"]\n\tparams = level=1,9\n\tcommand = {artifact} {param:level}\n",
		&ov1, &cfg);
	assert_int_equal(cfg.nbenches, 1);
	assert_string_equal(cfg.benches[0].name, "zip/level=9");
	config_release(&cfg);
}

PLUMB_TEST(config_params_errors_name_the_key)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s[bench \"z\"]\n\tparams = size=1M;level=1\n"
		 "\tcommand = {artifact} {param:level}\n", minimal);
	/* Unquoted, the ';' started a comment: the message says so. */
	expect_error(text, NULL, ": bench.z.command: '{param:level}': no such parameter in its "
		     "params (a ';' in plumb.conf starts a comment: quote the value, or separate "
		     "parameters by spaces)");
	snprintf(text, sizeof(text), "%s[bench \"z\"]\n\tcommand = {artifact} {param:n}\n", minimal);
	expect_error(text, NULL, ": bench.z.command: '{param:n}' but the benchmark has no params "
		     "(bench.NAME.params = NAME=V1,V2;...)");
	snprintf(text, sizeof(text), "%s[bench \"z\"]\n\tparams = n=1,1\n\tcommand = x\n", minimal);
	expect_error(text, NULL, ": bench.z.params: parameter 'n': value '1' given twice");
	snprintf(text, sizeof(text), "%s[bench \"z\"]\n\tparams = n=1 n=2\n\tcommand = x\n", minimal);
	expect_error(text, NULL, ": bench.z.params: parameter 'n' given twice");
	snprintf(text, sizeof(text), "%s[bench \"z\"]\n\tparams = n=a/b\n\tcommand = x\n", minimal);
	expect_error(text, NULL, ": bench.z.params: 'n=a/b' is not NAME=V1,V2;NAME=V1,... (names of "
		     "letters, digits and '_' up to 32, values also '.', '-', '+' up to 32)");
	snprintf(text, sizeof(text), "%s[bench \"z\"]\n\tparams = a=1,2,3,4,5,6,7 b=1,2,3,4,5,6,7 "
		 "c=1,2,3,4,5,6\n\tcommand = x\n", minimal);
	expect_error(text, NULL, ": bench.z.params: more than 256 combinations");
}

/* The effective configuration of an expansion reads back as it ran. */
PLUMB_TEST(config_params_render_reads_back)
{
	struct plumb_config cfg, again;
	struct tmp t;
	struct plumb_err err;
	char *text, *text2;

	load_ok("[bench \"zip\"]\n\tparams = level=1,9\n\tcommand = {artifact} {param:level}\n",
		NULL, &cfg);
	text = render(&cfg);
	assert_non_null(strstr(text, "[bench \"zip/level=9\"]\n\tcommand = {artifact} 9\n"));
	assert_int_equal(load_text(&t, text, NULL, &again, &err), 0);
	text2 = render(&again);
	assert_string_equal(text, text2);
	assert_int_equal(again.nbenches, 3);
	free(text);
	free(text2);
	config_release(&cfg);
	config_release(&again);
	rm_tree(t.dir);
}
