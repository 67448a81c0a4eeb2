/*
 * tests/unit/test-metric.c: the metric table (common/metric.h) and the
 * stages that read it: plumb.conf's bench.NAME.metric, the perf events,
 * and the documents that list the metrics; and the checklist of the
 * verdict table (common/verdict.h): the documents that list the verdicts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/metric.h"
#include "common/verdict.h"
#include "formats/config.h"
#include "runner/perf.h"
#include "common/banned.h"

PLUMB_TEST(metric_rows_are_whole)
{
	int counters = 0;

	for (int i = 0; i < METRIC_COUNT; i++) {
		const struct metric_def *m = &metric_table[i];

		assert_non_null(m->name);
		assert_true(m->name[0] != '\0');
		assert_non_null(m->unit);
		assert_non_null(m->words);
		for (int j = 0; j < i; j++)
			assert_string_not_equal(m->name, metric_table[j].name);
		if (m->source == METRIC_SRC_COUNTER) {
			/* Counter k is named once: runner/perf.c expands the same row (string
			 * literals need not be merged, so compare the text). */
			assert_true(m->counter >= 0 && m->counter < METRIC_NCOUNTERS);
			assert_int_equal(metric_of_counter(m->counter), i);
			assert_string_equal(perf_hw_events[m->counter].name, m->name);
			assert_non_null(m->key);
			counters++;
		} else {
			assert_int_equal(m->counter, -1);
			assert_null(m->key);
		}
		assert_string_equal(metric_bench_names[i], m->bench ? m->name : "");
	}
	assert_int_equal(counters, METRIC_NCOUNTERS);
	assert_int_equal(PERF_NCOUNTERS, METRIC_NCOUNTERS);
	assert_null(metric_bench_names[METRIC_COUNT]);
}

PLUMB_TEST(metric_bench_choices_come_from_the_table)
{
	struct plumb_config cfg;
	struct plumb_err err;
	struct buf list;

	buf_init(&list, 1024);
	for (int i = 0; i < METRIC_COUNT; i++) {
		const struct metric_def *m = &metric_table[i];
		enum metric_id id;
		int rc;

		assert_int_equal(config_init(&cfg, &err), 0);
		plumb_err_clear(&err);
		rc = config_set(&cfg, "bench.b.metric", m->name, "--test", &err);
		if (m->bench) {
			assert_int_equal(rc, 0);
			assert_int_equal(cfg.benches[0].metric, i);
			assert_int_equal(metric_parse(m->name, &id), 0);
			assert_int_equal(id, i);
			assert_int_equal(buf_printf(&list, "%s%s", list.len ? ", " : "", m->name), 0);
		} else {
			assert_int_equal(rc, PLUMB_EINPUT);
			assert_int_equal(metric_parse(m->name, &id), -1);
		}
		config_release(&cfg);
	}
	/* The refusal lists exactly the table's bench metrics. */
	assert_int_equal(config_init(&cfg, &err), 0);
	assert_int_equal(config_set(&cfg, "bench.b.metric", "joules", "--test", &err), PLUMB_EINPUT);
	assert_non_null(strstr(err.msg, buf_cstr(&list)));
	config_release(&cfg);
	buf_release(&list);
}

/* path under the source tree read into out. */
static void read_doc(const char *rel, struct buf *out)
{
	char path[4096];
	struct plumb_err err;

	snprintf(path, sizeof(path), "%s/%s", unit_srcdir(), rel);
	plumb_err_clear(&err);
	assert_int_equal(file_read(path, 1 << 20, out, &err), 0);
}

PLUMB_TEST(metric_documents_name_every_row)
{
	struct buf spec, page;
	const char *entry;

	buf_init(&spec, 1 << 20);
	buf_init(&page, 1 << 20);
	read_doc("formats/bundle-v1.md", &spec);
	read_doc("docs/plumb.conf.5", &page);
	/* plumb.conf(5)'s bench.NAME.metric entry, up to the next entry. */
	entry = strstr(buf_cstr(&page), ".B bench.\\fINAME\\fB.metric\n");
	assert_non_null(entry);
	for (int i = 0; i < METRIC_COUNT; i++) {
		const struct metric_def *m = &metric_table[i];
		char word[96];
		const char *end = strstr(entry + 1, "\n.TP");

		/* Every metric is in the samples.tsv section of the specification. */
		snprintf(word, sizeof(word), "`%s`", m->name);
		if (!strstr(buf_cstr(&spec), word))
			fail_msg("formats/bundle-v1.md does not name the metric %s", m->name);
		if (!m->bench)
			continue;
		snprintf(word, sizeof(word), "\n.B %s\n", m->name);
		{
			const char *at = strstr(entry, word);
			if (!at || (end && at > end))
				fail_msg("plumb.conf(5) bench.NAME.metric does not name %s", m->name);
		}
	}
	buf_release(&spec);
	buf_release(&page);
}

/* The text of doc from the first occurrence of from up to the next until (or the end). */
static const char *doc_part(const char *doc, const char *from, const char *until, size_t *len)
{
	const char *at = strstr(doc, from), *end;

	if (!at)
		return NULL;
	end = strstr(at + strlen(from), until);
	*len = end ? (size_t)(end - at) : strlen(at);
	return at;
}

/* Step 3 of common/verdict.h's checklist: every row's name is in the
 * specification's benches[].verdict row and in plumb(1)'s VERDICTS. */
PLUMB_TEST(verdict_documents_name_every_row)
{
	struct buf spec, page;
	const char *row, *sect;
	size_t nrow, nsect;

	buf_init(&spec, 1 << 20);
	buf_init(&page, 1 << 20);
	read_doc("formats/bundle-v1.md", &spec);
	read_doc("docs/plumb.1", &page);
	row = doc_part(buf_cstr(&spec), "| `benches[i].verdict` |", "\n", &nrow);
	sect = doc_part(buf_cstr(&page), "\n.SH VERDICTS\n", "\n.SH ", &nsect);
	assert_non_null(row);
	assert_non_null(sect);
	for (int v = VERDICT_UNSET + 1; v < VERDICT_COUNT; v++) {
		const char *name = verdict_table[v].name;
		char word[96];
		const char *at;

		snprintf(word, sizeof(word), "`%s`", name);
		at = strstr(row, word);
		if (!at || at >= row + nrow)
			fail_msg("formats/bundle-v1.md benches[].verdict does not name %s", name);
		snprintf(word, sizeof(word), "\n.B %s\n", name);
		at = strstr(sect, word);
		if (!at || at >= sect + nsect)
			fail_msg("plumb(1) VERDICTS does not name %s", name);
	}
	buf_release(&spec);
	buf_release(&page);
}
