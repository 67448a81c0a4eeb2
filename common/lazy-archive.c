/*
 * common/lazy-archive.c: the table of archive's functions (common/lazy-archive.h).
 */
#define PLUMB_LAZY_ARCHIVE_IMPL
#include "common/lazy-archive.h"
#include "common/banned.h"

struct plumb_archive_fns plumb_archive;

#define PLUMB_ARCHIVE_NAME(f) #f,
static const char *const names[] = { PLUMB_ARCHIVE_FUNCS(PLUMB_ARCHIVE_NAME) };
_Static_assert(sizeof(plumb_archive) == sizeof(names) / sizeof(names[0]) * sizeof(void (*)(void)),
	       "one function pointer per name");

struct lazy_lib plumb_archive_lib = {
	.name = "libarchive",
	.soname = PLUMB_ARCHIVE_SONAME,
	.path = PLUMB_ARCHIVE_PATH,
	.symbols = names,
	.table = &plumb_archive,
	.n = sizeof(names) / sizeof(names[0]),
};

int archive_load(struct plumb_err *err)
{
	return lazy_load(&plumb_archive_lib, err);
}
