/*
 * runner/run-provenance.c: what a person needs to redo a run, beyond the
 * configuration and the commits: the manifest's optional provenance
 * object (formats/bundle-v1.md, "provenance").
 *
 *   environment  the values of the variables the benchmarks were given
 *                (run.env), those whose names look like secrets (*TOKEN*,
 *                *SECRET*, *PASSWORD*, *KEY*) recorded as "(redacted)";
 *                PLUMB_ARTIFACT, each variant's own, is left out;
 *   workdir      the folder the benchmarks ran in;
 *   commands     every benchmark's command line per variant, expanded;
 *   inputs       every file a command names that exists (outside the run's
 *                work folder, which holds the artifacts): path, size and
 *                SHA-256, each file hashed once per run;
 *   toolchain    the first line of `make --version` and `ld --version`, and
 *                the C library's version (the compiler's is a host fact);
 *   plumb        this plumb's version and the source commit it was
 *                configured from;
 *   remote       the URL of the repository's remote origin.
 *
 * Why a file of its own: run-manifest.c is shared by several changes; this
 * is called from it with one line and owns its whole member.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/git2.h"
#include "common/url.h"
#include "formats/config.h"
#include "formats/digest.h"
#include "formats/manifest.h"
#include "runner/cmdline.h"
#include "runner/host-probe.h"
#include "runner/run-types.h"
#include "runner/run-internal.h"
#include "common/banned.h"

#ifndef PLUMB_SOURCE_COMMIT
#define PLUMB_SOURCE_COMMIT "unknown"
#endif

#define REDACTED "(redacted)"

int run_provenance_secret(const char *name)
{
	static const char *const words[] = { "TOKEN", "SECRET", "PASSWORD", "KEY" };
	size_t n = strcspn(name, "=");

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		size_t w = strlen(words[i]);
		for (size_t k = 0; k + w <= n; k++)
			if (strncasecmp(name + k, words[i], w) == 0)
				return 1;
	}
	return 0;
}

struct prov {
	json_t *root;
	int bad;
	json_t *inputs;
	char **seen;          /* input paths already hashed */
	size_t nseen;
	const char *run_dir;  /* files under it are the run's own (artifacts) */
	const char *cwd;
};

static void set(struct prov *p, json_t *o, const char *key, json_t *v)
{
	if (!o || !v || json_object_set_new(o, key, v) < 0)
		p->bad = 1;
}

/* A string a child or the system gave: kept only as valid UTF-8. */
static json_t *jtext(const char *s)
{
	json_t *v;

	if (!s)
		return json_null();
	v = json_string(s);
	return v ? v : json_string("(not UTF-8 text)");
}

static void environment(struct prov *p, const struct envlist *env)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < env->n; i++) {
		const char *eq = strchr(env->v[i], '=');
		char name[256];
		if (!eq || (size_t)(eq - env->v[i]) >= sizeof(name))
			continue;
		memcpy(name, env->v[i], (size_t)(eq - env->v[i]));
		name[eq - env->v[i]] = '\0';
		if (strcmp(name, "PLUMB_ARTIFACT") == 0)
			continue;   /* each variant's own: its command line shows it */
		set(p, o, name, jtext(run_provenance_secret(name) ? REDACTED : eq + 1));
	}
	set(p, p->root, "environment", o);
}

/* Hash one file; -1 with errno when it cannot be read. */
static int hash_file(const char *path, char hex[DIGEST_HEX], uint64_t *size)
{
	unsigned char buf[65536], h[DIGEST_BYTES];
	struct plumb_err e;
	struct digest d;
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    digest_init(&d, (uint64_t)st.st_size >= ((uint64_t)4 << 20), &e) < 0) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (digest_update(&d, buf, (size_t)n, &e) < 0)
			break;
	close(fd);
	if (n != 0) {
		digest_release(&d);
		return -1;
	}
	if (digest_final(&d, h, &e) < 0)
		return -1;
	digest_hex(h, hex);
	*size = (uint64_t)st.st_size;
	return 0;
}

/* A word of a command line that names an existing file outside the run: an input. */
static void maybe_input(struct prov *p, const char *word)
{
	char hex[DIGEST_HEX], **v;
	struct stat st;
	uint64_t size;
	size_t rl = strlen(p->run_dir);
	json_t *o;

	if (!*word || word[0] == '-' || strchr(word, '=') || stat(word, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return;
	if (word[0] == '/' && strncmp(word, p->run_dir, rl) == 0 && word[rl] == '/')
		return;   /* an artifact: the variants record those */
	for (size_t i = 0; i < p->nseen; i++)
		if (strcmp(p->seen[i], word) == 0)
			return;
	if (!(v = realloc(p->seen, (p->nseen + 1) * sizeof(*v))) || !(v[p->nseen] = strdup(word))) {
		if (v)
			p->seen = v;
		p->bad = 1;
		return;
	}
	p->seen = v;
	p->nseen++;
	if (hash_file(word, hex, &size) < 0)
		return;   /* unreadable: not an input it could have read either */
	o = json_object();
	set(p, o, "path", jtext(word));
	set(p, o, "size", json_integer((json_int_t)size));
	set(p, o, "sha256", json_string(hex));
	if (!o || json_array_append_new(p->inputs, o) < 0)
		p->bad = 1;
}

/* The words of a shell line, split on blanks with simple quotes removed. */
static void shell_inputs(struct prov *p, const char *text)
{
	struct buf w;

	buf_init(&w, 1 << 16);
	for (const char *s = text;; s++) {
		if (*s == '\0' || *s == ' ' || *s == '\t' || *s == '\n' || *s == ';' ||
		    *s == '|' || *s == '&' || *s == '<' || *s == '>') {
			if (w.len)
				maybe_input(p, buf_cstr(&w));
			w.len = 0;
			if (w.data)
				w.data[0] = '\0';
			if (!*s)
				break;
		} else if (*s != '\'' && *s != '"') {
			if (buf_addch(&w, *s) < 0)
				p->bad = 1;
		}
	}
	buf_release(&w);
}

static void commands(struct prov *p, const struct run_state *st)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < st->cfg->nbenches; i++) {
		const struct bench_state *b = &st->benches[i];
		for (size_t v = 0; b->cl && v < st->build.nvariants; v++) {
			const struct cmdline *cl = &b->cl[v];
			json_t *o = json_object();
			if (!cl->text)
				continue;
			set(p, o, "bench", jtext(b->cb->name));
			set(p, o, "variant", jtext(st->labels[v]));
			set(p, o, "line", jtext(cl->text));
			set(p, o, "shell", json_boolean(cl->shell));
			if (!o || json_array_append_new(a, o) < 0)
				p->bad = 1;
			if (cl->shell)
				shell_inputs(p, cl->text);
			else
				for (size_t k = 0; cl->argv[k]; k++)
					maybe_input(p, cl->argv[k]);
		}
	}
	set(p, p->root, "commands", a);
}

/* The first line of `<tool> --version`, or null. */
static json_t *tool_version(const char *tool)
{
	char *version = NULL, *why = NULL;
	json_t *v;

	(void)host_probe_compiler(tool, &version, &why);
	v = jtext(version);
	free(version);
	free(why);
	return v;
}

static void toolchain(struct prov *p)
{
	json_t *o = json_object();
	char libc[128] = "";

#ifdef _CS_GNU_LIBC_VERSION
	if (confstr(_CS_GNU_LIBC_VERSION, libc, sizeof(libc)) == 0)
		libc[0] = '\0';
#endif
	set(p, o, "make", tool_version("make"));
	set(p, o, "linker", tool_version("ld"));
	set(p, o, "libc", libc[0] ? jtext(libc) : json_null());
	set(p, p->root, "toolchain", o);
}

/*
 * The URL of the repository's remote "origin", read from its configuration
 * (git_remote_list() would match every remote's key with a regular
 * expression, which leaks inside libgit2 1.5's PCRE2 use).
 */
static void remote(struct prov *p, const struct plumb_config *cfg)
{
	git_repository *repo = NULL;
	git_config *gc = NULL;
	git_buf url = { NULL, 0, 0 };
	struct plumb_err e;
	struct buf dir;

	if (!cfg->repo.path)
		return;   /* repo.url: the URL is recorded as repo.url already */
	buf_init(&dir, 1 << 16);
	plumb_err_clear(&e);
	if (config_repo_dir(cfg, &dir, &e) == 0 && git_libgit2_init() >= 0) {
		if (git_repository_open_ext(&repo, buf_cstr(&dir), 0, NULL) == 0 &&
		    git_repository_config(&gc, repo) == 0 &&
		    git_config_get_string_buf(&url, gc, "remote.origin.url") == 0 && url.ptr) {
			/* Never a password into a bundle that may be published. */
			char *shown = url_redact(url.ptr);
			set(p, p->root, "remote", jtext(shown ? shown : "(unknown)"));
			free(shown);
		}
		git_buf_dispose(&url);
		git_config_free(gc);
		git_repository_free(repo);
		git_libgit2_shutdown();
	}
	buf_release(&dir);
}

int run_provenance(struct run_state *st, struct manifest *m, struct plumb_err *err)
{
	struct prov p = { json_object(), 0, json_array(), NULL, 0, NULL, st->cwd };
	json_t *tool = json_object();

	p.run_dir = st->build.workdir ? st->build.workdir : "/nonexistent";
	if (st->benches && st->cfg->nbenches)
		environment(&p, &st->benches[0].env);
	set(&p, p.root, "workdir", jtext(st->cwd));
	commands(&p, st);
	set(&p, p.root, "inputs", p.inputs);
	p.inputs = NULL;
	toolchain(&p);
	set(&p, tool, "version", jtext(PACKAGE_VERSION));
	set(&p, tool, "commit", jtext(PLUMB_SOURCE_COMMIT));
	set(&p, p.root, "plumb", tool);
	remote(&p, st->cfg);
	for (size_t i = 0; i < p.nseen; i++)
		free(p.seen[i]);
	free(p.seen);
	json_decref(p.inputs);
	if (p.bad) {
		json_decref(p.root);
		return plumb_err_oom(err, "manifest provenance");
	}
	json_decref(m->provenance);
	m->provenance = p.root;
	return 0;
}
