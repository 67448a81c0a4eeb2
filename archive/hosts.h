/*
 * archive/hosts.h: the read side of the archive by host class (host
 * fingerprint): every class with its counts, the classes that measured
 * one benchmark, the benchmarks of one class.  Plain SQL over the tables
 * of archive/SCHEMA.md; views and reports build on these lists, so results
 * of two CPU models are never put in one series.
 *
 * Ownership: a json_t returned through *out belongs to the caller
 * (json_decref); the arguments are only borrowed.
 */
#ifndef PLUMB_ARCHIVE_HOSTS_H
#define PLUMB_ARCHIVE_HOSTS_H

#include <jansson.h>

#include "archive/store.h"

struct plumb_err;

/*
 * Every host class in fingerprint order: a JSON array of {fingerprint,
 * facts (the object first seen with it, or null), bundles, benchmarks
 * (distinct names), first, last (RFC 3339: the creation times of its
 * oldest and newest bundle, null without bundles)}.
 */
int hosts_list(struct store *st, json_t **out, struct plumb_err *err);

/*
 * The fingerprints of the classes that measured bench (with metric, NULL:
 * any), most results first, then the latest, then by fingerprint: a JSON
 * array of strings, empty when none did.
 */
int hosts_of_bench(struct store *st, const char *bench, const char *metric, const char *project,
		   json_t **out, struct plumb_err *err);

/* The fingerprints of the classes with at least one result, in fingerprint order. */
int hosts_classes(struct store *st, json_t **out, struct plumb_err *err);

/*
 * The series measured on the class fp (full fingerprint): objects
 * {"project", "bench"} in project then name order, project "" for results
 * without one.
 */
int hosts_benches(struct store *st, const char *fp, json_t **out, struct plumb_err *err);

#endif
