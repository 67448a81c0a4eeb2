/*
 * tests/unit/test-exit.c: cli/exit.c, the one table of exit statuses,
 * against docs/plumb.1 and the codes of common/err.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "cli/exit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "formats/bisect.h"
#include "reports/report.h"
#include "reports/trend.h"
#include "reports/words.h"
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
	struct report_result rr = { .withheld = 1, .failon_matched = 2, .message = "hosts not comparable" };

	assert_int_equal(cli_report_status(&rr, 1), 3);
	rr.withheld = 0;
	assert_int_equal(cli_report_status(&rr, 1), 1);
	rr.failon_matched = 0;
	rr.message[0] = '\0';
	assert_int_equal(cli_report_status(&rr, 1), 0);
}

/*
 * One situation of plumb(1) GATING, built as the code meets it: a
 * compared model with one benchmark (report_result_of()), or a trend of
 * two points (trend_gate()).
 */
static int gate_of(const char *found, const char *command, enum report_fail_on f)
{
	struct report_bench b;
	struct report r;
	struct report_result rr;

	memset(&b, 0, sizeof(b));
	memset(&r, 0, sizeof(r));
	b.name = "b";
	b.verdict = VERDICT_PLACEMENT;
	r.benches = &b;
	r.n_benches = 1;
	if (strcmp(command, "bisect") == 0) {
		/* plumb bisect has no --fail-on: the option is a usage error. */
		if (f != REPORT_FAIL_NEVER)
			return PLUMB_EXIT_USAGE;
		for (int o = BISECT_FOUND; o <= BISECT_UNCONFIRMED; o++)
			if (strcmp(found, bisect_outcome_name((enum bisect_outcome)o)) == 0)
				return cli_bisect_status(o);
		return -1;
	}
	if (strcmp(command, "trend") == 0) {
		struct trend_point p[2];
		char why[PLUMB_ERR_MAX];
		memset(p, 0, sizeof(p));
		p[0].min = 10, p[0].max = 11;
		if (strcmp(found, "shift-up") == 0)
			p[1].min = 12, p[1].max = 13, p[1].shift = 1;
		else if (strcmp(found, "shift-down") == 0)
			p[1].min = 8, p[1].max = 9, p[1].shift = -1;
		else if (strcmp(found, "change-up") == 0)
			p[1].min = 10.5, p[1].max = 11.5, p[1].change = 1;
		else if (strcmp(found, "change-down") == 0)
			p[1].min = 9.5, p[1].max = 10.5, p[1].change = -1;
		else if (strcmp(found, "host-up") == 0)
			p[1].min = 10.5, p[1].max = 11.5, p[1].change = 1, p[1].change_host = 1;
		else if (strcmp(found, "host-down") == 0)
			p[1].min = 9.5, p[1].max = 10.5, p[1].change = -1, p[1].change_host = 1;
		else
			return -1;
		memset(&rr, 0, sizeof(rr));
		rr.failon_matched = (size_t)trend_gate(p, 2, f, why, sizeof(why));
		return cli_gate_status(&rr, f != REPORT_FAIL_NEVER, CLI_GATE_REPORT);
	}
	/* What a bundle's report and run accept (cli/cmd-report.c, cli/cmd-run.c parse so). */
	if (f != REPORT_FAIL_NEVER && report_fail_on_parse(report_fail_on_name(f), &f) < 0)
		return PLUMB_EXIT_USAGE;
	if (strcmp(found, "withheld") == 0) {
		r.withheld = 1;
		b.withheld = 1;
		b.verdict = VERDICT_SLOWER;
	} else if (strcmp(found, "failed") == 0) {
		b.failure = "exit status 1";
		b.verdict = VERDICT_UNSET;
	} else if (strcmp(found, "slower") == 0) {
		b.verdict = VERDICT_SLOWER;
	} else if (strcmp(found, "faster") == 0) {
		b.verdict = VERDICT_FASTER;
	} else if (strcmp(found, "noisy") == 0) {
		b.verdict = VERDICT_NOISY;
	} else if (strcmp(found, "nothing") != 0) {
		return -1;
	}
	report_result_of(&r, f, &rr);
	if (strcmp(command, "run") == 0)
		return cli_gate_status(&rr, f != REPORT_FAIL_NEVER, CLI_GATE_RUN);
	if (strcmp(command, "report") == 0)
		return cli_gate_status(&rr, f != REPORT_FAIL_NEVER, CLI_GATE_REPORT);
	return -1;
}

/* plumb(1) GATING, row by row and column by column, is what the code does. */
PLUMB_TEST(exit_gating_table_is_what_the_code_does)
{
	static const enum report_fail_on cols[] = {
		REPORT_FAIL_NEVER, REPORT_FAIL_SLOWER, REPORT_FAIL_NOISY, REPORT_FAIL_ANY,
		REPORT_FAIL_CHANGE
	};
	char path[4096], line[256];
	struct buf text;
	struct plumb_err err;
	const char *at, *end;
	size_t rows = 0;

	snprintf(path, sizeof(path), "%s/docs/plumb.1", unit_srcdir());
	buf_init(&text, 1 << 22);
	plumb_err_clear(&err);
	assert_int_equal(file_read(path, 1 << 22, &text, &err), 0);
	at = strstr(buf_cstr(&text), "\n.SH GATING\n");
	assert_non_null(at);
	at = strstr(at, "\nfound ");
	assert_non_null(at);
	/* The header names the columns in the order of cols[]. */
	at = strchr(at + 1, '\n');
	end = strstr(at, "\n.ft\n");
	assert_non_null(at);
	assert_non_null(end);
	while (at && at < end) {
		char found[32], command[32];
		int want[5], n;
		const char *nl = strchr(at + 1, '\n');
		size_t len = (size_t)(nl - at - 1);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, at + 1, len);
		line[len] = '\0';
		at = nl;
		if (nl > end)
			break;
		n = sscanf(line, "%31s %31s %d %d %d %d %d", found, command, &want[0], &want[1],
			   &want[2], &want[3], &want[4]);
		if (n != 7)
			fail_msg("plumb.1 GATING: a row that does not read: \"%s\"", line);
		for (size_t c = 0; c < 5; c++) {
			int got = gate_of(found, command, cols[c]);
			if (got < 0)
				fail_msg("plumb.1 GATING: unknown situation \"%s\" for \"%s\"", found, command);
			if (got != want[c])
				fail_msg("plumb.1 GATING: %s under %s with --fail-on %s: plumb(1) says %d, the code %d",
					 found, command, report_fail_on_name(cols[c]) ? report_fail_on_name(cols[c]) : "(none)",
					 want[c], got);
		}
		rows++;
	}
	assert_true(rows >= 16);
	buf_release(&text);
}

/* The check above fails when the code and the page drift: one row edited. */
PLUMB_TEST(exit_gating_a_drifted_row_is_seen)
{
	assert_int_equal(gate_of("faster", "report", REPORT_FAIL_ANY), 1);
	assert_int_not_equal(gate_of("faster", "report", REPORT_FAIL_SLOWER), 1);
	assert_int_equal(gate_of("failed", "report", REPORT_FAIL_ANY), 5);
	assert_int_equal(gate_of("failed", "report", REPORT_FAIL_NEVER), 0);
	assert_int_equal(gate_of("bogus", "report", REPORT_FAIL_ANY), -1);
	assert_int_equal(gate_of("change-up", "trend", REPORT_FAIL_CHANGE), 1);
	assert_int_equal(gate_of("change-up", "trend", REPORT_FAIL_SLOWER), 1);
	assert_int_equal(gate_of("change-down", "trend", REPORT_FAIL_SLOWER), 0);
	assert_int_equal(gate_of("shift-up", "trend", REPORT_FAIL_SLOWER), 0);
	assert_int_equal(gate_of("slower", "report", REPORT_FAIL_CHANGE), 2);
}

/* cli_fail() shows a message as untrusted text: no escape reaches stderr. */
PLUMB_TEST(exit_fail_escapes_the_message)
{
	struct plumb_err err;
	char got[256];
	FILE *f = tmpfile();
	size_t n;
	int saved;

	assert_non_null(f);
	plumb_err_clear(&err);
	plumb_err_set(&err, PLUMB_EINPUT, "bench \033[31mred\033]8;;http://x/\a\x9b: bad");
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(f), 2) == 2);
	assert_int_equal(cli_fail(&err), PLUMB_EXIT_INPUT);
	fflush(stderr);
	assert_true(dup2(saved, 2) == 2);
	close(saved);
	rewind(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	assert_string_equal(got, "plumb: bench ?[31mred?]8;;http://x/??: bad\n");
}

/* cli_fail() writes its line in one write(): a second process appending
 * to the same log cannot land in the middle of it.  A SOCK_SEQPACKET
 * pair keeps each write a message of its own, so the first recv() is the
 * first write whole. */
PLUMB_TEST(exit_fail_writes_one_line_at_once)
{
	struct plumb_err err;
	char got[512];
	int sv[2], saved;
	ssize_t n;

	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	plumb_err_clear(&err);
	plumb_err_set(&err, PLUMB_EINPUT, "bad.plumb: not a zstd \033stream");
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(sv[1], 2) == 2);
	assert_int_equal(cli_fail(&err), PLUMB_EXIT_INPUT);
	assert_true(dup2(saved, 2) == 2);
	close(saved);
	close(sv[1]);
	n = recv(sv[0], got, sizeof(got) - 1, 0);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, "plumb: bad.plumb: not a zstd ?stream\n");
	n = recv(sv[0], got, sizeof(got), 0);
	assert_int_equal(n, 0);
	close(sv[0]);
}
