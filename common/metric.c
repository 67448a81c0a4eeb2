/*
 * common/metric.c: the metric table of common/metric.h, expanded into rows
 * and lookups.  Every stage reads it: plumb.conf's bench.NAME.metric, the
 * recorder of samples.tsv, the perf events, the manifest and the
 * renderers.
 */
#include <string.h>

#include "common/metric.h"
#include "common/banned.h"

#define ROW_(id, name_, unit_, dim_, src, k, type, config, bench_, key_, words_) \
	[METRIC_##id] = { name_, unit_, dim_, METRIC_SRC_##src, k, bench_, key_, words_ },
const struct metric_def metric_table[METRIC_COUNT] = { METRIC_TABLE(ROW_) };
#undef ROW_

#define BENCH_NAME_(id, name_, unit_, dim_, src, k, type, config, bench_, ...) \
	[METRIC_##id] = (bench_) ? name_ : "",
const char *const metric_bench_names[METRIC_COUNT + 1] = {
	METRIC_TABLE(BENCH_NAME_)
	[METRIC_COUNT] = NULL
};
#undef BENCH_NAME_

#define DET_NAME_CLOCK(name_)
#define DET_NAME_RUSAGE(name_)
#define DET_NAME_COUNTER(name_)
#define DET_NAME_VALGRIND(name_) name_,
#define DET_NAME_(id, name_, unit_, dim_, src, ...) DET_NAME_##src(name_)
const char *const metric_deterministic_names[] = { METRIC_TABLE(DET_NAME_) NULL };
#undef DET_NAME_

bool metric_deterministic(enum metric_id m)
{
	return (unsigned)m < METRIC_COUNT && metric_table[m].source == METRIC_SRC_VALGRIND;
}

bool metric_deterministic_named(const char *name, size_t len)
{
	for (const char *const *d = metric_deterministic_names; *d; d++)
		if (strlen(*d) == len && memcmp(*d, name, len) == 0)
			return true;
	return false;
}

const char *metric_name(enum metric_id m)
{
	return (unsigned)m < METRIC_COUNT ? metric_table[m].name : "?";
}

const char *metric_unit(enum metric_id m)
{
	return (unsigned)m < METRIC_COUNT ? metric_table[m].unit : "?";
}

enum units_dim metric_dim(enum metric_id m)
{
	return (unsigned)m < METRIC_COUNT ? metric_table[m].dim : UNITS_COUNT;
}

int metric_parse(const char *name, enum metric_id *out)
{
	for (int i = 0; i < METRIC_COUNT; i++)
		if (metric_table[i].bench && strcmp(name, metric_table[i].name) == 0) {
			*out = (enum metric_id)i;
			return 0;
		}
	return -1;
}

enum metric_id metric_of_counter(int k)
{
	for (int i = 0; i < METRIC_COUNT; i++)
		if (metric_table[i].source == METRIC_SRC_COUNTER && metric_table[i].counter == k)
			return (enum metric_id)i;
	return METRIC_COUNT;
}

const struct metric_def *metric_counter(int k)
{
	enum metric_id m = metric_of_counter(k);

	return m < METRIC_COUNT ? &metric_table[m] : NULL;
}
