/*
 * tests/unit/test-exit.c: cli/exit.c, the one table of exit statuses,
 * against docs/plumb.1 and the codes of common/err.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/unit.h"
#include "cli/exit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "reports/report.h"
#include "common/banned.h"

/* Every row is in plumb(1)'s EXIT STATUS: ".B N", then a line starting with its words. */
PLUMB_TEST(exit_table_is_what_plumb1_documents)
{
	char path[4096], tag[32];
	struct buf text;
	struct plumb_err err;
	const char *section;

	snprintf(path, sizeof(path), "%s/docs/plumb.1", unit_srcdir());
	buf_init(&text, 1 << 22);
	plumb_err_clear(&err);
	assert_int_equal(file_read(path, 1 << 22, &text, &err), 0);
	section = strstr(buf_cstr(&text), ".SH EXIT STATUS\n");
	assert_non_null(section);
	for (size_t i = 0; i < cli_exit_rows; i++) {
		const char *at;
		snprintf(tag, sizeof(tag), "\n.B %d\n", cli_exit_table[i].status);
		at = strstr(section, tag);
		if (!at || strncmp(at + strlen(tag), cli_exit_table[i].words,
				   strlen(cli_exit_table[i].words)) != 0)
			fail_msg("plumb.1 does not document status %d as \"%s\"",
				 cli_exit_table[i].status, cli_exit_table[i].words);
	}
	buf_release(&text);
}

/* Codes say what went wrong; no code is its exit status negated any more. */
PLUMB_TEST(exit_codes_and_results_map_through_the_table)
{
	assert_int_equal(cli_exit_status(PLUMB_OK), 0);
	assert_int_equal(cli_exit_status(PLUMB_EARG), 2);
	assert_int_equal(cli_exit_status(PLUMB_EINPUT), 3);
	assert_int_equal(cli_exit_status(PLUMB_EBUILD), 4);
	assert_int_equal(cli_exit_status(PLUMB_EBENCH), 5);
	assert_int_equal(cli_exit_status(PLUMB_EINTERNAL), 70);
	assert_int_equal(cli_exit_status(PLUMB_EIO), 74);
	assert_int_equal(cli_exit_status(PLUMB_ELOCKED), 75);
	assert_int_equal(cli_exit_status(-999), 70);
	assert_int_equal(cli_result_status(CLI_RESULT_OK), 0);
	assert_int_equal(cli_result_status(CLI_RESULT_FAIL_ON), 1);
	assert_int_equal(cli_result_status(CLI_RESULT_WITHHELD), 3);
	assert_int_equal(cli_result_status(CLI_RESULT_BENCH_FAILED), 5);
	for (size_t i = 0; i < cli_exit_rows; i++)
		if (cli_exit_table[i].code)
			assert_int_not_equal(-cli_exit_table[i].code, cli_exit_table[i].status);
}

PLUMB_TEST(exit_report_results_withheld_before_fail_on)
{
	struct report_result rr = { 1, 2, "hosts not comparable" };

	assert_int_equal(cli_report_status(&rr), 3);
	rr.withheld = 0;
	assert_int_equal(cli_report_status(&rr), 1);
	rr.failon_matched = 0;
	rr.message[0] = '\0';
	assert_int_equal(cli_report_status(&rr), 0);
}
