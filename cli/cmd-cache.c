/*
 * cli/cmd-cache.c: `plumb cache list|prune`, the build cache that `plumb
 * run` restores unchanged variants from (runner/buildcache.h).  list prints
 * the entries, most recently used first (views/cache.c); prune removes the
 * least recently used until the rest fit in --size (default build.cacheSize's
 * default), or everything with --all.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/config.h"
#include "runner/buildcache.h"
#include "views/cache.h"
#include "common/banned.h"

static const struct plumb_cmd cmd_cache_list, cmd_cache_prune;

static struct {
	const char *dir;
	int json;
} list_args;

static struct {
	const char *dir, *size;
	int all, json;
} prune_args;

static const struct plumb_opt list_opts[] = {
	OPT_STRING_("cache-dir", 0, "DIR", "the build cache (default $XDG_CACHE_HOME/plumb/builds)",
		    &list_args.dir),
	OPT_FLAG_("json", 0, "print JSON for machines", &list_args.json),
	OPT_END_()
};

static int print_buf(struct buf *out)
{
	fputs(buf_cstr(out), stdout);
	buf_release(out);
	return PLUMB_EXIT_OK;
}

static int list_exec(int argc, char **argv)
{
	struct buildcache_meta *v = NULL;
	struct buildcache bc;
	struct plumb_err err;
	struct buf out;
	size_t n = 0;
	int status;

	(void)argv;
	if (argc > 0) {
		cmd_print_usage(&cmd_cache_list, "cache list", stderr);
		return PLUMB_EXIT_USAGE;
	}
	plumb_err_clear(&err);
	if (buildcache_open(&bc, list_args.dir, 0, &err) < 0)
		return cli_fail(&err);
	if (buildcache_list(&bc, &v, &n, &err) < 0) {
		buildcache_close(&bc);
		return cli_fail(&err);
	}
	if (list_args.json) {
		json_t *j = cacheview_list_json(&bc, v, n);
		status = cli_print_json(j, "build cache");
		json_decref(j);
	} else {
		buf_init(&out, 1 << 24);
		if (cacheview_list_text(&bc, v, n, &out) < 0) {
			buf_release(&out);
			status = cli_fail(&err);
		} else {
			status = print_buf(&out);
		}
	}
	buildcache_list_free(v);
	buildcache_close(&bc);
	return status;
}

static const struct plumb_cmd cmd_cache_list = {
	.name = "list",
	.summary = "list the build cache's entries, most recently used first",
	.usage = "cache list [--cache-dir DIR] [--json]",
	.description =
		"Print every entry of the build cache: its key (the SHA-256 of what decides\n"
		"the build's bytes), when it was last used and built, its size, how long its\n"
		"build took, and which variant of which tree it is.  A cache folder that is\n"
		"not yours, or that others may write, is refused (exit 3).",
	.opts = list_opts,
	.exec = list_exec,
};

static const struct plumb_opt prune_opts[] = {
	OPT_STRING_("cache-dir", 0, "DIR", "the build cache (default $XDG_CACHE_HOME/plumb/builds)",
		    &prune_args.dir),
	OPT_STRING_("size", 0, "SIZE", "keep the most recently used entries within SIZE (default 4G)",
		    &prune_args.size),
	OPT_FLAG_("all", 0, "remove every entry", &prune_args.all),
	OPT_FLAG_("json", 0, "print what was removed and what is left as JSON", &prune_args.json),
	OPT_END_()
};

static int prune_exec(int argc, char **argv)
{
	struct buildcache_meta *v = NULL;
	struct buildcache bc;
	struct plumb_err err;
	uint64_t limit = BUILDCACHE_SIZE_DEFAULT, freed = 0, left = 0;
	size_t removed = 0, n = 0;
	char text[32];
	struct buf out;

	(void)argv;
	plumb_err_clear(&err);
	if (argc > 0 || (prune_args.all && prune_args.size)) {
		if (argc == 0)
			fprintf(stderr, "plumb cache prune: --all and --size exclude each other\n");
		cmd_print_usage(&cmd_cache_prune, "cache prune", stderr);
		return PLUMB_EXIT_USAGE;
	}
	if (prune_args.size && config_parse_size("--size", prune_args.size, &limit, text,
						 sizeof(text), &err) < 0) {
		err.code = PLUMB_EARG;
		return cli_fail(&err);
	}
	if (prune_args.all)
		limit = 0;
	if (buildcache_open(&bc, prune_args.dir, 0, &err) < 0)
		return cli_fail(&err);
	if (buildcache_prune(&bc, limit, &removed, &freed, &err) < 0 ||
	    buildcache_list(&bc, &v, &n, &err) < 0) {
		buildcache_close(&bc);
		return cli_fail(&err);
	}
	for (size_t i = 0; i < n; i++)
		left += v[i].bytes;
	buf_init(&out, 1 << 16);
	if (prune_args.json) {
		json_t *j = cacheview_prune_json(&bc, removed, freed, n, left);
		int s = cli_print_json(j, "cache JSON");
		json_decref(j);
		buf_release(&out);
		buildcache_close(&bc);
		return s;
	}
	if (cacheview_prune_text(&bc, removed, freed, n, left, &out) < 0) {
		buf_release(&out);
		plumb_err_oom(&err, "output");
		buildcache_list_free(v);
		buildcache_close(&bc);
		return cli_fail(&err);
	}
	buildcache_list_free(v);
	buildcache_close(&bc);
	return print_buf(&out);
}

static const struct plumb_cmd cmd_cache_prune = {
	.name = "prune",
	.summary = "shrink the build cache to a size, least recently used entries first",
	.usage = "cache prune [--cache-dir DIR] [--size SIZE | --all] [--json]",
	.description =
		"Remove the least recently used entries until the others fit in --size\n"
		"(default 4G; plumb run does the same with build.cacheSize after every\n"
		"build it keeps), or every entry with --all; also what runs that were\n"
		"killed while storing left behind.  A cache folder that is not yours, or\n"
		"that others may write, is refused (exit 3) and left as it is.",
	.opts = prune_opts,
	.exec = prune_exec,
};

static const struct plumb_cmd *const cache_subs[] = {
	&cmd_cache_list,
	&cmd_cache_prune,
	NULL
};

const struct plumb_cmd cmd_cache = {
	.name = "cache",
	.summary = "list and prune the build cache",
	.usage = "cache list [--cache-dir DIR] [--json]\n"
		 "cache prune [--cache-dir DIR] [--size SIZE | --all]",
	.description =
		"plumb run keeps every variant it builds (not the control) in the build\n"
		"cache, $XDG_CACHE_HOME/plumb/builds, under the key of everything that\n"
		"decides its bytes, and restores it instead of building it again once it\n"
		"has proved the entry: the folder and the entry yours and nobody else's to\n"
		"write, no links, and every file the size, mode and SHA-256 its manifest\n"
		"lists.  An entry that fails, then or at a later check of the run, is\n"
		"evicted and built again, with a warning naming it.  See BUILD CACHE in\n"
		"plumb(1).",
	.subs = cache_subs,
};
