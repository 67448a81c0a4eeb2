/*
 * formats/init.h: a project's first plumb.conf (`plumb init`): which build
 * system a folder uses, and a commented configuration for it with the pad
 * flags where that build system takes them (docs/build-systems.md).
 *
 * Detection looks only at the folder's top-level files, in this order:
 * CMakeLists.txt (cmake), meson.build (meson), configure.ac or configure
 * (autotools), GNUmakefile, makefile or Makefile (make).  A CMake or Meson
 * project's first executable target (add_executable(NAME ...) or
 * executable('NAME', ...)) names the artifact; otherwise it is "bench", to
 * be edited.
 *
 * Ownership: init_render() appends to a caller's struct buf; nothing else
 * allocates beyond the call.
 */
#ifndef PLUMB_FORMATS_INIT_H
#define PLUMB_FORMATS_INIT_H

struct buf;
struct plumb_err;

enum init_build {
	INIT_BUILD_NONE,        /* nothing recognised */
	INIT_BUILD_MAKE,
	INIT_BUILD_CMAKE,
	INIT_BUILD_MESON,
	INIT_BUILD_AUTOTOOLS
};

#define INIT_NAME_MAX 128

/* What init found (or was told) about a project folder. */
struct init_project {
	enum init_build build;
	char artifact[INIT_NAME_MAX];   /* the program name, without the build folder */
	int artifact_found;             /* 1: read from the build files */
};

/* "make", "cmake", "meson", "autotools"; NULL for NONE. */
const char *init_build_name(enum init_build b);
/* By name; INIT_BUILD_NONE for any other. */
enum init_build init_build_from_name(const char *name);

/* Detect the build system of dir and its first executable target. */
void init_detect(const char *dir, struct init_project *p);

/* Append the plumb.conf text for p; -1 when out is full. */
int init_render(const struct init_project *p, struct buf *out);

/*
 * Write text to dir/plumb.conf, which must not exist: created with
 * O_CREAT | O_EXCL, so an existing file is never touched.  Returns 0, or
 * PLUMB_EINPUT when it exists (naming it), PLUMB_EIO on a failed write
 * (the partial file removed).
 */
int init_write(const char *dir, const char *text, struct plumb_err *err);

#endif
