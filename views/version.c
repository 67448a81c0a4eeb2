/*
 * views/version.c: the lines of `plumb --version` (version.h), from the
 * version numbers and strings the libraries report.
 */
#include "views/version.h"
#include "common/buf.h"
#include "common/banned.h"

int view_version(struct buf *out, const struct view_versions *v)
{
	unsigned long ssl = v->libcrypto;

	return buf_printf(out, "plumb %s\n", v->plumb) |
	       buf_printf(out, "libgit2 %d.%d.%d\n", v->libgit2[0], v->libgit2[1], v->libgit2[2]) |
	       buf_printf(out, "%s\n", v->libarchive) |
	       buf_printf(out, "capstone %d.%d\n", v->capstone[0], v->capstone[1]) |
	       /* PQlibVersion(): major * 10000 + minor since PostgreSQL 10. */
	       buf_printf(out, "libpq %d.%d\n", v->libpq / 10000, v->libpq % 10000) |
	       /* OpenSSL_version_num(): 0xMNN00PP0 (major, minor, patch) since 3.0,
		* 0xMNNFFPPS (major, minor, fix, patch letter) before. */
	       buf_printf(out, "libcrypto %lu.%lu.%lu\n", ssl >> 28, ssl >> 20 & 0xff,
			  ssl >> 28 >= 3 ? ssl >> 4 & 0xff : ssl >> 12 & 0xff) |
	       buf_printf(out, "sqlite %s\nzstd %s\nzlib %s\njansson %s\nlibsodium %s\n", v->sqlite,
			  v->zstd, v->zlib, v->jansson, v->libsodium) |
	       buf_printf(out, "libelf 0.%d\n", v->libelf);
}
