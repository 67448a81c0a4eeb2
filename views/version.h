/*
 * views/version.h: what `plumb --version` prints: plumb's version, then
 * one line per library it links, with the version that library reports
 * at run time (cli/main.c asks each library; this file only writes).
 *
 * Ownership: struct view_versions and its strings are borrowed; text is
 * appended to the caller's struct buf.
 */
#ifndef PLUMB_VIEWS_VERSION_H
#define PLUMB_VIEWS_VERSION_H

struct buf;

struct view_versions {
	const char *plumb;          /* PACKAGE_VERSION */
	int libgit2[3];             /* git_libgit2_version(): major, minor, revision */
	const char *libarchive;     /* archive_version_string(): "libarchive X.Y.Z" */
	int capstone[2];            /* cs_version(): major, minor */
	int libpq;                  /* PQlibVersion(): major * 10000 + minor */
	unsigned long libcrypto;    /* OpenSSL_version_num() */
	const char *sqlite;         /* sqlite3_libversion() */
	const char *zstd;           /* ZSTD_versionString() */
	const char *zlib;           /* zlibVersion() */
	const char *jansson;        /* jansson_version_str() */
	const char *libsodium;      /* sodium_version_string() */
	int libelf;                 /* _ELFUTILS_VERSION: the minor of 0.N */
};

/* "plumb V", then "NAME VERSION" per library; 0, or -1 when out could not grow. */
int view_version(struct buf *out, const struct view_versions *v);

#endif
