/*
 * archive/ingest-bundle.c: a bundle file to a struct ingest_record,
 * through the bundle library (formats/bundle.h), which verifies every
 * member, limit and checksum.  The only file of archive/ that knows the
 * manifest model.
 */
#include <stdio.h>

#include "archive/ingest.h"
#include "common/err.h"
#include "common/banned.h"

int ingest_read_bundle(const char *path, struct ingest_record *rec,
		       struct plumb_err *err)
{
	(void)rec;
	return plumb_err_set(err, PLUMB_EINTERNAL,
			     "%s: this plumb was built without the bundle reader", path);
}
