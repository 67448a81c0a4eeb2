/*
 * common/path.h: the two path operations every folder needs, written once.
 *
 * Ownership: both return a malloc'd string the caller frees, or NULL when
 * memory runs out.
 */
#ifndef PLUMB_COMMON_PATH_H
#define PLUMB_COMMON_PATH_H

/*
 * The folder part of path, as dirname(1) says it for a path without a
 * trailing slash: "a/b" -> "a", "/b" -> "/", "b" -> ".".
 */
char *path_dirname(const char *path);

/* a and b joined by one '/' (trailing slashes of a dropped; "/" stays "/"). */
char *path_join(const char *a, const char *b);

#endif
