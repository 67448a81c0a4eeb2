/*
 * cli/cmd-init.c: `plumb init [DIR]`: write a first plumb.conf for the
 * project in DIR (default the current folder), for the build system found
 * there or named by --build (formats/init.h), and print the next commands
 * (views/init.c).  An existing plumb.conf is never overwritten.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "common/buf.h"
#include "common/err.h"
#include "formats/init.h"
#include "views/init.h"
#include "common/banned.h"

static struct {
	const char *build;
	const char *artifact;
} o;

static const struct plumb_opt init_opts[] = {
	OPT_STRING_("build", 0, "SYSTEM", "make, cmake, meson or autotools (default: found in "
		    "the folder)", &o.build),
	OPT_STRING_("artifact", 0, "NAME", "the program the build makes (default: the first "
		    "executable target found, else bench)", &o.artifact),
	OPT_END_()
};

static int init_exec(int argc, char **argv)
{
	const char *dir = argc ? argv[0] : ".";
	struct init_project p;
	struct plumb_err err;
	struct buf text, path, out;
	int status = PLUMB_EXIT_OK;

	if (argc > 1) {
		fprintf(stderr, "plumb init: one folder at most\n");
		cmd_print_usage(&cmd_init, "init", stderr);
		return PLUMB_EXIT_USAGE;
	}
	init_detect(dir, &p);
	if (o.build) {
		enum init_build b = init_build_from_name(o.build);
		if (b == INIT_BUILD_NONE) {
			fprintf(stderr, "plumb init: --build takes make, cmake, meson or autotools\n");
			return PLUMB_EXIT_USAGE;
		}
		p.build = b;
	}
	if (o.artifact) {
		if (!*o.artifact || strlen(o.artifact) >= sizeof(p.artifact) ||
		    strchr(o.artifact, '\n') || strchr(o.artifact, '\\') || strchr(o.artifact, '"')) {
			fprintf(stderr, "plumb init: --artifact: a program name, without newlines, "
				"backslashes or quotes\n");
			return PLUMB_EXIT_USAGE;
		}
		snprintf(p.artifact, sizeof(p.artifact), "%s", o.artifact);
		p.artifact_found = 1;
	}
	plumb_err_clear(&err);
	buf_init(&text, 1 << 16);
	buf_init(&path, 4096);
	buf_init(&out, 1 << 16);
	if (init_render(&p, &text) < 0 || buf_printf(&path, "%s/plumb.conf", dir) < 0) {
		buf_err(&err, "plumb.conf");
		status = cli_fail(&err);
	} else if (init_write(dir, buf_cstr(&text), &err) < 0) {
		status = cli_fail(&err);
	} else if (initview_text(buf_cstr(&path), &p, &out) < 0) {
		buf_err(&err, "output");
		status = cli_fail(&err);
	} else {
		fputs(buf_cstr(&out), stdout);
	}
	buf_release(&text);
	buf_release(&path);
	buf_release(&out);
	return status;
}

const struct plumb_cmd cmd_init = {
	.name = "init",
	.summary = "write a first plumb.conf for the project in a folder",
	.usage = "init [--build SYSTEM] [--artifact NAME] [DIR]",
	.description = "Finds the build system of DIR (default: the current folder) -- "
		       "CMakeLists.txt, meson.build, configure.ac or a Makefile -- and writes "
		       "DIR/plumb.conf: the last commit against its parent, the build command "
		       "with the pad flags where that build system takes them, and one "
		       "benchmark that runs {artifact}. It never overwrites a plumb.conf. "
		       "docs/build-systems.md explains each recipe.",
	.opts = init_opts,
	.exec = init_exec,
};
