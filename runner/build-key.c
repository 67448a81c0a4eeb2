/*
 * runner/build-key.c: what decides a variant's bytes, written out as the
 * build cache's key material (runner/buildcache.h): the tree, the build
 * command as expanded (the work folder in it written as {workdir}), the
 * pad (method, bytes, the pad object's own bytes and plumb's pad object
 * format), the reuse mode, the compiler and the linker (each: the program
 * found in PATH, its SHA-256 and the first line of its --version), and the
 * values of the environment variables that steer a build (the list below,
 * and every $NAME the command names).  Nothing in it names where the work
 * folder, the cache or the repository is, so none of them moving (another
 * --workdir or XDG_CACHE_HOME, repo.url for repo.path) misses: a commit's
 * variants build in a folder named by its tree (runner/build.c), the same
 * in every run of a work folder.  Separate from build.c: this decides what
 * a cache hit may stand for, and nothing else.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "runner/build-internal.h"
#include "runner/cmdline.h"
#include "runner/envlist.h"
#include "runner/pad.h"
#include "sys/proc.h"
#include "common/banned.h"

#define KEY_FORMAT "plumb build cache key 2"
#define VERSION_TIMEOUT_NS (30ull * 1000000000ull)

/* The variables of a build's environment that may change its bytes. */
static const char *const key_env[] = {
	"CC", "CXX", "CPP", "LD", "AR", "AS", "NM", "RANLIB", "STRIP", "OBJCOPY",
	"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "LIBS",
	"PATH", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "CPATH", "C_INCLUDE_PATH",
	"CPLUS_INCLUDE_PATH", "LIBRARY_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH",
	"SOURCE_DATE_EPOCH", "LANG", "LC_ALL",
};

/* A line of key material: no newline can end it early. */
static int add_line(struct buf *b, const char *name, const char *value)
{
	if (buf_printf(b, "%s ", name) < 0)
		return -1;
	for (const char *p = value ? value : ""; *p; p++)
		if ((*p == '\n' ? buf_addstr(b, "\\n") : *p == '\\' ? buf_addstr(b, "\\\\")
								     : buf_addch(b, *p)) < 0)
			return -1;
	return buf_addch(b, '\n');
}

/* The program argv0 runs, looked up in PATH as the harness does; "" when not found. */
static void find_program(const char *argv0, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char real[PATH_MAX];

	out[0] = '\0';
	if (strchr(argv0, '/')) {
		if (realpath(argv0, real))
			snprintf(out, size, "%s", real);
		return;
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char cand[4096];
		if (len && snprintf(cand, sizeof(cand), "%.*s/%s", (int)len, p, argv0) < (int)sizeof(cand) &&
		    access(cand, X_OK) == 0) {
			if (realpath(cand, real))
				snprintf(out, size, "%s", real);
			return;
		}
		p += len + (colon ? 1 : 0);
		if (!colon)
			break;
	}
}

/*
 * What describe_tool() found, per program, for as long as the program's
 * file is the same one (device, inode, size, modification and change
 * times): one process that runs many builds (a bisect, a range) hashes
 * the compiler and runs its --version once, not once per run, and still
 * sees a compiler replaced meanwhile.
 */
#define TOOL_MEMO 8
static struct tool_memo {
	char prog[4096];
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	char sha[65], line[512];
} tool_memo[TOOL_MEMO];
static unsigned tool_memo_next;

static struct tool_memo *memo_find(const char *prog, const struct stat *st)
{
	for (unsigned i = 0; i < TOOL_MEMO; i++) {
		struct tool_memo *m = &tool_memo[i];
		if (m->prog[0] && strcmp(m->prog, prog) == 0 && m->dev == st->st_dev && m->ino == st->st_ino &&
		    m->size == st->st_size && m->mtime.tv_sec == st->st_mtim.tv_sec &&
		    m->mtime.tv_nsec == st->st_mtim.tv_nsec && m->ctime.tv_sec == st->st_ctim.tv_sec &&
		    m->ctime.tv_nsec == st->st_ctim.tv_nsec)
			return m;
	}
	return NULL;
}

static void memo_keep(const char *prog, const struct stat *st, const char *sha, const char *line)
{
	struct tool_memo *m = &tool_memo[tool_memo_next++ % TOOL_MEMO];

	snprintf(m->prog, sizeof(m->prog), "%s", prog);
	m->dev = st->st_dev;
	m->ino = st->st_ino;
	m->size = st->st_size;
	m->mtime = st->st_mtim;
	m->ctime = st->st_ctim;
	snprintf(m->sha, sizeof(m->sha), "%s", sha);
	snprintf(m->line, sizeof(m->line), "%s", line);
}

/* "<path> <sha256> <first line of --version>" of the program argv0 names. */
static int describe_tool(const char *argv0, char **env, struct buf *b, const char *name,
			 struct plumb_err *err)
{
	char prog[4096], sha[65] = "-", line[512] = "";
	char *argv[] = { (char *)argv0, (char *)"--version", NULL };
	struct tool_memo *memo = NULL;
	struct proc_spec spec;
	struct proc_result pr;
	struct stat st;
	struct buf text;
	uint64_t size;
	int r, have_st;

	find_program(argv0, prog, sizeof(prog));
	have_st = prog[0] && stat(prog, &st) == 0;
	if (have_st && (memo = memo_find(prog, &st)) != NULL) {
		snprintf(sha, sizeof(sha), "%s", memo->sha);
		snprintf(line, sizeof(line), "%s", memo->line);
	} else if (prog[0]) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		if (build_artifact_digest(prog, sha, &size, &ignored) < 0)
			snprintf(sha, sizeof(sha), "-");
		memset(&pr, 0, sizeof(pr));
		proc_spec_init(&spec);
		spec.argv = argv;
		spec.env = env;
		spec.timeout_ns = VERSION_TIMEOUT_NS;
		spec.out.kind = PROC_SINK_MEM;
		spec.out.cap = 4096;
		spec.err.kind = PROC_SINK_STDOUT;
		if ((r = proc_run(&spec, &pr, err)) < 0)
			return r;
		if (pr.out_mem.len) {
			const char *t = buf_cstr(&pr.out_mem);
			size_t n = strcspn(t, "\n");
			snprintf(line, sizeof(line), "%.*s", (int)(n < 400 ? n : 400), t);
		}
		proc_result_release(&pr);
		if (have_st)
			memo_keep(prog, &st, sha, line);
	}
	buf_init(&text, 1 << 14);
	r = buf_printf(&text, "%s %s %s", prog[0] ? prog : argv0, sha, line) < 0 ||
	    add_line(b, name, text.data) < 0;
	buf_release(&text);
	return r ? buf_err(err, "build cache key") : 0;
}

int build_key_toolchain(const struct plumb_config *cfg, struct buf *out, struct plumb_err *err)
{
	struct envlist env = { 0 };
	const char *cc = getenv("CC");
	char first[1024];
	int r;

	if (!cc || !*cc)
		cc = cfg->build.cc;
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(cc, " \t"), cc);
	if ((r = envlist_init(&env, err)) < 0 || (r = envlist_inherit(&env, err)) < 0)
		goto out;
	if (buf_addstr(out, KEY_FORMAT "\n") < 0) {
		r = buf_err(err, "build cache key");
		goto out;
	}
	if ((r = describe_tool(first, env.v, out, "compiler", err)) < 0 ||
	    (r = describe_tool("ld", env.v, out, "linker", err)) < 0)
		goto out;
	/* The variables of the list, and every $NAME or ${NAME} the command names. */
	for (size_t i = 0; i < sizeof(key_env) / sizeof(key_env[0]); i++) {
		const char *v = getenv(key_env[i]);
		char name[64];
		snprintf(name, sizeof(name), "env %s", key_env[i]);
		if (add_line(out, name, v ? v : "(unset)") < 0) {
			r = buf_err(err, "build cache key");
			goto out;
		}
	}
	for (const char *p = cfg->build.command; (p = strchr(p, '$')) != NULL;) {
		char name[64], line[80];
		size_t n;
		p++;
		if (*p == '{')
			p++;
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (n == 0 || n >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		snprintf(line, sizeof(line), "env $%s", name);
		if (add_line(out, line, getenv(name) ? getenv(name) : "(unset)") < 0) {
			r = buf_err(err, "build cache key");
			goto out;
		}
		p += n;
	}
	r = 0;
out:
	envlist_release(&env);
	return r;
}

int build_key_material(const struct plumb_config *cfg, const struct runner_result *res,
		       const struct runner_variant *v, const char *toolchain,
		       const char *object, struct buf *out, struct plumb_err *err)
{
	char sha[65] = "-", n[64];
	uint64_t size;
	int r = 0;

	if (object) {
		struct plumb_err ignored;
		plumb_err_clear(&ignored);
		if (build_artifact_digest(object, sha, &size, &ignored) < 0)
			return plumb_err_set(err, PLUMB_EINTERNAL, "%s: cannot read the pad object", object);
	}
	r |= buf_addstr(out, toolchain) < 0;
	snprintf(n, sizeof(n), "%d", PAD_OBJECT_FORMAT);
	r |= add_line(out, "padObjectFormat", n) < 0;
	r |= add_line(out, "tree", res->side[v->side].tree) < 0;
	r |= add_line(out, "artifact", cfg->build.artifact) < 0;
	{
		/* The pad objects' paths are in the work folder: the key holds
		 * their bytes (padObject), not where they are. */
		struct buf cmd;
		const char *p = v->command, *at;
		size_t wl = res->workdir ? strlen(res->workdir) : 0;
		buf_init(&cmd, 1 << 20);
		while (wl && (at = strstr(p, res->workdir)) != NULL) {
			r |= buf_add(&cmd, p, (size_t)(at - p)) < 0 || buf_addstr(&cmd, "{workdir}") < 0;
			p = at + wl;
		}
		r |= buf_addstr(&cmd, p) < 0 || add_line(out, "command", buf_cstr(&cmd)) < 0;
		buf_release(&cmd);
	}
	r |= add_line(out, "shell", v->shell ? "yes" : "no") < 0;
	r |= add_line(out, "pad", config_pad_name(cfg->build.pad)) < 0;
	snprintf(n, sizeof(n), "%u", v->pad);
	r |= add_line(out, "padIndex", n) < 0;
	snprintf(n, sizeof(n), "%llu", (unsigned long long)v->pad_bytes);
	r |= add_line(out, "padBytes", n) < 0;
	r |= add_line(out, "padObject", sha) < 0;
	r |= add_line(out, "reuse", config_reuse_name(cfg->build.reuse)) < 0;
	r |= add_line(out, "relinked", v->relinked ? "yes" : "no") < 0;
	return r ? buf_err(err, "build cache key") : 0;
}
