/*
 * formats/init.c: the first plumb.conf of a project; see init.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/init.h"
#include "common/banned.h"

/* The most of a build file read to find its first executable. */
#define INIT_SCAN_MAX (1u << 20)

static const char *const build_names[] = {
	[INIT_BUILD_NONE] = NULL, [INIT_BUILD_MAKE] = "make", [INIT_BUILD_CMAKE] = "cmake",
	[INIT_BUILD_MESON] = "meson", [INIT_BUILD_AUTOTOOLS] = "autotools",
};

const char *init_build_name(enum init_build b)
{
	return (unsigned)b < sizeof(build_names) / sizeof(build_names[0]) ? build_names[b] : NULL;
}

enum init_build init_build_from_name(const char *name)
{
	for (size_t b = 1; name && b < sizeof(build_names) / sizeof(build_names[0]); b++)
		if (strcmp(build_names[b], name) == 0)
			return (enum init_build)b;
	return INIT_BUILD_NONE;
}

static int has_file(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return 0;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * The first NAME after `call` followed by '(' (a word of letters, digits,
 * '_', '-', '.', optionally in quotes) in the file dir/name, into out.
 */
static int first_target(const char *dir, const char *name, const char *call, char *out,
			size_t size)
{
	char path[4096];
	struct buf text;
	struct plumb_err err;
	const char *p;
	int found = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return 0;
	buf_init(&text, INIT_SCAN_MAX);
	plumb_err_clear(&err);
	if (file_read(path, INIT_SCAN_MAX, &text, &err) < 0) {
		buf_release(&text);
		return 0;
	}
	for (p = buf_cstr(&text); (p = strstr(p, call)) != NULL && !found; p += strlen(call)) {
		const char *q = p + strlen(call);
		size_t n = 0;
		/* A whole word: not the tail of another name. */
		if (p > buf_cstr(&text) && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
			continue;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q++ != '(')
			continue;
		while (isspace((unsigned char)*q))
			q++;
		if (*q == '\'' || *q == '"')
			q++;
		while ((isalnum((unsigned char)q[n]) || strchr("_-.", q[n])) && q[n] && n + 1 < size)
			n++;
		if (n == 0 || q[0] == '$')
			continue;
		memcpy(out, q, n);
		out[n] = '\0';
		found = 1;
	}
	buf_release(&text);
	return found;
}

void init_detect(const char *dir, struct init_project *p)
{
	memset(p, 0, sizeof(*p));
	if (has_file(dir, "CMakeLists.txt")) {
		p->build = INIT_BUILD_CMAKE;
		p->artifact_found = first_target(dir, "CMakeLists.txt", "add_executable",
						 p->artifact, sizeof(p->artifact));
	} else if (has_file(dir, "meson.build")) {
		p->build = INIT_BUILD_MESON;
		p->artifact_found = first_target(dir, "meson.build", "executable",
						 p->artifact, sizeof(p->artifact));
	} else if (has_file(dir, "configure.ac") || has_file(dir, "configure")) {
		p->build = INIT_BUILD_AUTOTOOLS;
	} else if (has_file(dir, "GNUmakefile") || has_file(dir, "makefile") ||
		   has_file(dir, "Makefile")) {
		p->build = INIT_BUILD_MAKE;
	}
	if (!p->artifact_found)
		snprintf(p->artifact, sizeof(p->artifact), "bench");
}

/* The comment after an artifact init could not find: every build system's. */
static const char *edit_artifact(const struct init_project *p)
{
	return p->artifact_found ? "" : "\t\t; edit: the program the build makes";
}

/* The [build] section of each build system (docs/build-systems.md). */
static int build_section(const struct init_project *p, struct buf *out)
{
	const char *a = p->artifact;

	switch (p->build) {
	case INIT_BUILD_CMAKE:
		return buf_printf(out,
			"\t; CMake links with CMAKE_EXE_LINKER_FLAGS (executables) and\n"
			"\t; CMAKE_SHARED_LINKER_FLAGS (a library the benchmark links): both get\n"
			"\t; the pad, so the library's code moves with the program's.\n"
			"\tcommand = cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "
			"'-DCMAKE_EXE_LINKER_FLAGS={pad_ldflags}' "
			"'-DCMAKE_SHARED_LINKER_FLAGS={pad_ldflags}' && cmake --build build -j 2\n"
			"\tartifact = build/%s%s\n", a, edit_artifact(p));
	case INIT_BUILD_MESON:
		return buf_printf(out,
			"\t; Meson takes link flags per language: c_link_args and cpp_link_args.\n"
			"\tcommand = meson setup build --buildtype=release "
			"'-Dc_link_args={pad_ldflags}' '-Dcpp_link_args={pad_ldflags}' && "
			"meson compile -C build\n"
			"\tartifact = build/%s%s\n", a, edit_artifact(p));
	case INIT_BUILD_AUTOTOOLS:
		return buf_printf(out,
			"\t; configure keeps LDFLAGS for every link; the tree is configured once\n"
			"\t; per variant, in its own copy.\n"
			"\tcommand = (test -x configure || autoreconf -fi) && "
			"./configure LDFLAGS='{pad_ldflags}' && make -j2\n"
			"\tartifact = %s%s\n", a, edit_artifact(p));
	case INIT_BUILD_MAKE:
	case INIT_BUILD_NONE:
		break;
	}
	return buf_printf(out,
		"\t; LDFLAGS on make's command line reaches every link of a Makefile that\n"
		"\t; links with $(LDFLAGS); {pad_ldflags} keeps the LDFLAGS plumb inherited.\n"
		"\tcommand = make -j2 LDFLAGS='{pad_ldflags}'\n"
		"\tartifact = %s%s\n", a, edit_artifact(p));
}

int init_render(const struct init_project *p, struct buf *out)
{
	int rc = 0;

	rc |= buf_printf(out,
		"# plumb.conf: made by `plumb init` for a project built with %s; every key is in\n"
		"# plumb.conf(5), and `plumb run --dry-run` shows what a run would do.\n"
		"[run]\n"
		"\t; the two commits compared: any revision git understands\n"
		"\tbase = HEAD~1\n"
		"\tcandidate = HEAD\n"
		"\t; pads = auto (the default) sweeps more pads while the verdict is open\n"
		"[build]\n", init_build_name(p->build) ? init_build_name(p->build) : "make");
	rc |= build_section(p, out);
	rc |= buf_printf(out,
		"[bench \"main\"]\n"
		"\t; one benchmark: a command that runs the program once per round.\n"
		"\t; {artifact} is the program of the variant measured; the command runs\n"
		"\t; in the folder plumb was started from.\n"
		"\tcommand = {artifact}\n");
	return rc ? -1 : 0;
}

int init_write(const char *dir, const char *text, struct plumb_err *err)
{
	char path[4096];
	int fd, rc;

	if (snprintf(path, sizeof(path), "%s/plumb.conf", dir) >= (int)sizeof(path))
		return plumb_err_set(err, PLUMB_EINPUT, "%s: path too long", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return plumb_err_set(err, PLUMB_EINPUT, "%s: exists; plumb init never overwrites "
				     "it (remove it, or edit it)", path);
	if (fd < 0)
		return plumb_err_set(err, PLUMB_EIO, "%s: cannot create: %s", path, strerror(errno));
	rc = write_all(fd, text, strlen(text), path, err);
	if (rc == 0 && fsync(fd) < 0)
		rc = plumb_err_set(err, PLUMB_EIO, "%s: fsync: %s", path, strerror(errno));
	if (close(fd) < 0 && rc == 0)
		rc = plumb_err_set(err, PLUMB_EIO, "%s: close: %s", path, strerror(errno));
	if (rc < 0)
		unlink(path);
	return rc;
}
