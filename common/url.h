/*
 * common/url.h: the archive's database URLs (postgresql://...): telling
 * one from a folder name, and showing one without its password.
 *
 * Ownership: url_redact() returns a malloc'd string the caller frees.
 */
#ifndef PLUMB_COMMON_URL_H
#define PLUMB_COMMON_URL_H

/* Nonzero when s names a PostgreSQL database (postgresql:// or postgres://). */
int url_is_postgres(const char *s);

/*
 * url with its password replaced by "***" (the user:password@ part and a
 * password= parameter), for every message and output; NULL without memory.
 */
char *url_redact(const char *url);

#endif
