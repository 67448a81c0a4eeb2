/*
 * tests/unit/test-measure.c: the measurement harness (runner/measure.c),
 * hardware counters (runner/perf.c) and the round schedule
 * (runner/schedule.c), with real child processes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "runner/host.h"
#include "runner/measure.h"
#include "runner/perf.h"
#include "runner/schedule.h"
#include "common/banned.h"

static char *const test_env[] = { "PATH=/usr/local/bin:/usr/bin:/bin", "LC_ALL=C",
				  "PLUMB_SAMPLES_FD=3", NULL };

/* Run `sh -c script` once with the given options. */
static int run_sh(const char *script, int samples, uint64_t max_samples,
		  uint64_t timeout_ns, struct measure_result *res)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct measure_spec spec;
	struct plumb_err err;
	int r;

	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.env = test_env;
	spec.timeout_ns = timeout_ns;
	spec.samples_fd = samples ? 3 : -1;
	spec.max_samples = max_samples;
	spec.checksum = 1;
	plumb_err_clear(&err);
	r = measure_run(&spec, res, &err);
	if (r < 0)
		print_message("measure_run: %s\n", err.msg);
	return r;
}

/* ---- schedule ------------------------------------------------------------- */

PLUMB_TEST(schedule_splitmix64_reference)
{
	/* The reference outputs of Vigna's splitmix64.c for seed 1234567. */
	uint64_t s = 1234567;

	assert_true(schedule_splitmix64(&s) == 6457827717110365317ull);
	assert_true(schedule_splitmix64(&s) == 3203168211198807973ull);
	assert_true(schedule_splitmix64(&s) == 9817491932198370423ull);
}

PLUMB_TEST(schedule_golden_orders)
{
	/* Computed from the definition in schedule.h by an independent script. */
	static const size_t want1[3][5] = {
		{ 2, 1, 4, 3, 0 }, { 2, 4, 3, 0, 1 }, { 1, 3, 4, 2, 0 } };
	static const size_t want42[2][9] = {
		{ 7, 4, 8, 2, 5, 6, 0, 3, 1 }, { 8, 0, 2, 7, 3, 4, 5, 6, 1 } };
	struct schedule s;
	size_t perm[9];

	schedule_init(&s, 1, 5);
	for (int r = 0; r < 3; r++) {
		schedule_next(&s, perm);
		for (int k = 0; k < 5; k++)
			assert_int_equal(perm[k], want1[r][k]);
	}
	schedule_init(&s, 42, 9);
	for (int r = 0; r < 2; r++) {
		schedule_next(&s, perm);
		for (int k = 0; k < 9; k++)
			assert_int_equal(perm[k], want42[r][k]);
	}
}

PLUMB_TEST(schedule_permutations_and_seeds)
{
	struct schedule a, b, c;
	size_t pa[9], pb[9], pc[9];
	int differ = 0;

	schedule_init(&a, 7, 9);
	schedule_init(&b, 7, 9);
	schedule_init(&c, 8, 9);
	for (int r = 0; r < 50; r++) {
		int seen[9] = { 0 };
		schedule_next(&a, pa);
		schedule_next(&b, pb);
		schedule_next(&c, pc);
		for (int k = 0; k < 9; k++) {
			assert_true(pa[k] < 9);
			seen[pa[k]]++;
			assert_int_equal(pa[k], pb[k]);
			if (pa[k] != pc[k])
				differ = 1;
		}
		for (int k = 0; k < 9; k++)
			assert_int_equal(seen[k], 1);
	}
	assert_true(differ);
	/* One variant: always itself. */
	schedule_init(&a, 3, 1);
	schedule_next(&a, pa);
	assert_int_equal(pa[0], 0);
}

PLUMB_TEST(schedule_every_position_reached)
{
	/* Over many rounds each variant runs first about equally often. */
	struct schedule s;
	size_t perm[4];
	int first[4] = { 0 };

	schedule_init(&s, 1, 4);
	for (int r = 0; r < 4000; r++) {
		schedule_next(&s, perm);
		first[perm[0]]++;
	}
	for (int k = 0; k < 4; k++)
		assert_true(first[k] > 850 && first[k] < 1150);
}

/* ---- line parsing ----------------------------------------------------------- */

PLUMB_TEST(measure_parse_lines)
{
	char hex[MEASURE_CHECKSUM_MAX + 1];
	double v = -1;

	assert_int_equal(measure_parse_line("1234", 4, &v, hex), 1);
	assert_true(v == 1234.0);
	assert_int_equal(measure_parse_line("12.5\r", 5, &v, hex), 1);
	assert_true(v == 12.5);
	assert_int_equal(measure_parse_line("  7 ", 4, &v, hex), 1);
	assert_true(v == 7.0);
	assert_int_equal(measure_parse_line("", 0, &v, hex), 0);
	assert_int_equal(measure_parse_line("  ", 2, &v, hex), 0);
	assert_int_equal(measure_parse_line("checksum=00FFab", 15, &v, hex), 2);
	assert_string_equal(hex, "00ffab");
	assert_int_equal(measure_parse_line("-1", 2, &v, hex), -1);
	assert_int_equal(measure_parse_line("+1", 2, &v, hex), -1);
	assert_int_equal(measure_parse_line("1e5", 3, &v, hex), -1);
	assert_int_equal(measure_parse_line("0x10", 4, &v, hex), -1);
	assert_int_equal(measure_parse_line("inf", 3, &v, hex), -1);
	assert_int_equal(measure_parse_line("nan", 3, &v, hex), -1);
	assert_int_equal(measure_parse_line("1.", 2, &v, hex), -1);
	assert_int_equal(measure_parse_line(".5", 2, &v, hex), -1);
	assert_int_equal(measure_parse_line("1 2", 3, &v, hex), -1);
	assert_int_equal(measure_parse_line("checksum=", 9, &v, hex), -1);
	assert_int_equal(measure_parse_line("checksum=xyz", 12, &v, hex), -1);
	assert_int_equal(measure_parse_line("check", 5, &v, hex), -1);
}

/* ---- runs -------------------------------------------------------------------- */

PLUMB_TEST(measure_process_run)
{
	struct measure_result res;

	assert_int_equal(run_sh("i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; "
				"echo warming >&2; echo checksum=ABC123", 0, 0, 0, &res), 0);
	assert_false(res.failed);
	assert_int_equal(res.proc.exited, 1);
	assert_int_equal(res.proc.status, 0);
	assert_true(res.proc.wall_ns > 0);
	assert_true(res.proc.user_ns + res.proc.sys_ns > 0);
	assert_true(res.proc.maxrss_kb > 0);
	assert_string_equal(res.checksum, "abc123");
	assert_false(res.checksum_conflict);
	assert_string_equal(buf_cstr(&res.proc.err_mem), "warming\n");
	assert_int_equal(res.nsamples, 0);
	measure_result_release(&res);
}

/*
 * A result reused from a failed run with a conflict and counts comes back
 * as new: measure_run() zeroes the fields and empties the texts of the
 * struct it is given, whatever was there.
 */
PLUMB_TEST(measure_result_reused_starts_empty)
{
	struct measure_result res;

	assert_int_equal(run_sh("echo checksum=aa; echo checksum=bb; exit 3", 0, 0, 0, &res), 0);
	assert_true(res.failed);
	assert_true(res.checksum_conflict);
	assert_string_equal(res.other_checksum, "bb");
	measure_result_release(&res);
	memset(&res, 0xa5, sizeof(res));
	assert_int_equal(run_sh("true", 0, 0, 0, &res), 0);
	assert_false(res.failed);
	assert_string_equal(res.why, "");
	assert_string_equal(res.checksum, "");
	assert_false(res.checksum_conflict);
	assert_string_equal(res.other_checksum, "");
	assert_string_equal(res.counters_error, "");
	assert_null(res.samples);
	assert_int_equal(res.nsamples, 0);
	for (int i = 0; i < PERF_NCOUNTERS; i++)
		assert_false(res.counts.have[i]);
	assert_int_equal(res.counts.scaled, 0);
	assert_int_equal(res.proc.err_mem.len, 0);
	assert_int_equal(res.proc.left_behind, 0);
	measure_result_release(&res);
}

PLUMB_TEST(measure_samples_fd)
{
	struct measure_result res;

	assert_int_equal(run_sh("printf '10\\n20\\n\\n30.5\\nchecksum=beef\\n' >&$PLUMB_SAMPLES_FD; "
				"printf 40 >&3", 1, 100, 0, &res), 0);
	assert_false(res.failed);
	assert_int_equal(res.nsamples, 4);
	assert_true(res.samples[0] == 10.0 && res.samples[1] == 20.0);
	assert_true(res.samples[2] == 30.5 && res.samples[3] == 40.0);
	assert_string_equal(res.checksum, "beef");
	measure_result_release(&res);
}

PLUMB_TEST(measure_samples_only_fds_0_to_2_and_3)
{
	struct measure_result res;
	int leak = open("/etc/passwd", O_RDONLY);   /* inheritable on purpose */
	int seen[4] = { 0, 0, 0, 0 }, others = 0;
	char *line, *save = NULL;

	assert_true(leak >= 0);
	/* ls lists its own descriptors (its open folder among them). */
	assert_int_equal(run_sh("exec ls -l /proc/self/fd >&2", 1, 100, 0, &res), 0);
	close(leak);
	assert_false(res.failed);
	for (line = strtok_r(res.proc.err_mem.data, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *arrow = strstr(line, " -> "), *p;
		long fd;
		if (!arrow)
			continue;
		for (p = arrow; p > line && p[-1] != ' '; p--)
			;
		fd = strtol(p, NULL, 10);
		if (fd >= 0 && fd <= 3)
			seen[fd] = 1;
		else if (strncmp(arrow + 4, "/proc/", 6) != 0)
			others++;
	}
	for (int i = 0; i < 4; i++)
		assert_true(seen[i]);
	assert_int_equal(others, 0);
	measure_result_release(&res);
}

PLUMB_TEST(measure_samples_limit)
{
	struct measure_result res;

	assert_int_equal(run_sh("i=0; while [ $i -lt 50 ]; do echo $i >&3; i=$((i+1)); done",
				1, 10, 0, &res), 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.why, "more than maxSamples (10)"));
	assert_int_equal(res.nsamples, 10);
	measure_result_release(&res);

	/* A flood without newlines is cut at the line limit. */
	assert_int_equal(run_sh("head -c 100000 /dev/zero | tr '\\0' 1 >&3", 1, 10, 0, &res), 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.why, "samples fd line 1: a line of 100000 bytes, longer "
			       "than the limit of 160 bytes"));
	measure_result_release(&res);
}

PLUMB_TEST(measure_samples_malformed)
{
	struct measure_result res;

	assert_int_equal(run_sh("echo 5 >&3; echo 'abc' >&3; sleep 5", 1, 100,
				3000000000ull, &res), 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.why, "samples fd line 2: 'abc'"));
	/* The child was stopped, not waited for. */
	assert_true(res.proc.wall_ns < 2000000000ull);
	measure_result_release(&res);
}

PLUMB_TEST(measure_failures)
{
	struct measure_result res;
	struct buf tail;

	assert_int_equal(run_sh("echo one >&2; echo two >&2; echo three >&2; exit 3", 0, 0, 0, &res), 0);
	assert_true(res.failed);
	assert_string_equal(res.why, "exit status 3");
	buf_init(&tail, 4096);
	assert_int_equal(measure_stderr_tail(&res, 2, "| ", &tail), 0);
	assert_string_equal(buf_cstr(&tail), "| two\n| three\n");
	buf_release(&tail);
	measure_result_release(&res);

	assert_int_equal(run_sh("kill -SEGV $$", 0, 0, 0, &res), 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.why, "killed by signal 11"));
	measure_result_release(&res);

	assert_int_equal(run_sh("sleep 10", 0, 0, 200000000ull, &res), 0);
	assert_true(res.failed);
	assert_true(res.proc.timed_out);
	assert_non_null(strstr(res.why, "timed out"));
	measure_result_release(&res);

	assert_int_equal(run_sh("echo checksum=1; echo checksum=2 >&3", 1, 10, 0, &res), 0);
	assert_false(res.failed);
	assert_true(res.checksum_conflict);
	measure_result_release(&res);
}

/* A checksum line over the limit is an error with its length and the limit. */
PLUMB_TEST(measure_checksum_too_long)
{
	struct measure_result res;

	/* 1,000,000 hex digits on stdout: cut off in the scanner. */
	assert_int_equal(run_sh("printf checksum=; head -c 1000000 /dev/zero | tr '\\0' a; echo",
				0, 0, 0, &res), 0);
	assert_true(res.failed);
	assert_string_equal(res.checksum, "");
	assert_string_equal(res.why, "stdout line 1: a checksum= line of 1000009 bytes, over "
			    "the limit of 128 hex digits (137 bytes with \"checksum=\")");
	measure_result_release(&res);

	/* The same line in one write (no separate "checksum=" piece): the
	 * scanner sees its kind from the kept start, whatever the pieces. */
	assert_int_equal(run_sh("head -c 1000000 /dev/zero | tr '\\0' a | sed 's/^/checksum=/'; echo",
				0, 0, 0, &res), 0);
	assert_true(res.failed);
	assert_string_equal(res.checksum, "");
	assert_non_null(strstr(res.why, "stdout line 1: a checksum= line of 1000009 bytes, over"));
	measure_result_release(&res);

	/* 129 digits fit in the line buffer, one digit too many; no newline. */
	assert_int_equal(run_sh("echo x; printf checksum=; head -c 129 /dev/zero | tr '\\0' b",
				0, 0, 0, &res), 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.why, "stdout line 2: a checksum= line of 138 bytes, over"));
	measure_result_release(&res);

	/* The samples fd says the same. */
	assert_int_equal(run_sh("echo 5 >&3; (printf checksum=; head -c 5000 /dev/zero | tr '\\0' c; echo) >&3",
				1, 10, 0, &res), 0);
	assert_true(res.failed);
	assert_non_null(strstr(res.why, "samples fd line 2: a checksum= line of 5009 bytes, over "
			       "the limit of 128 hex digits"));
	measure_result_release(&res);

	/* 128 digits are still a checksum. */
	assert_int_equal(run_sh("printf checksum=; head -c 128 /dev/zero | tr '\\0' d; echo",
				0, 0, 0, &res), 0);
	assert_false(res.failed);
	assert_int_equal(strlen(res.checksum), 128);
	measure_result_release(&res);
}

/* out_cap: standard output kept whole for the caller, not scanned; more than the cap fails. */
PLUMB_TEST(measure_stdout_kept_under_a_cap)
{
	char *argv[] = { "sh", "-c", "echo '{\"a\": 1}'; echo checksum=ab", NULL };
	struct measure_spec spec;
	struct measure_result res;
	struct plumb_err err;

	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.env = test_env;
	spec.samples_fd = -1;
	spec.checksum = 1;
	spec.out_cap = 64;
	plumb_err_clear(&err);
	assert_int_equal(measure_run(&spec, &res, &err), 0);
	assert_false(res.failed);
	assert_string_equal(buf_cstr(&res.proc.out_mem), "{\"a\": 1}\nchecksum=ab\n");
	assert_string_equal(res.checksum, "");
	measure_result_release(&res);

	argv[2] = "head -c 65 /dev/zero";
	assert_int_equal(measure_run(&spec, &res, &err), 0);
	assert_true(res.failed);
	assert_string_equal(res.why, "wrote 65 bytes to standard output, more than the 64 kept");
	measure_result_release(&res);
}

PLUMB_TEST(measure_pinning_and_aslr)
{
	char *argv[] = { "sh", "-c", "grep Cpus_allowed_list /proc/self/status >&2; "
			 "cat /proc/self/personality >&2", NULL };
	struct measure_spec spec;
	struct measure_result res;
	struct plumb_err err;
	int cpus[1];
	cpu_set_t mine;
	char want[64];
	unsigned long pers;

	/* Pin to a CPU this process may use. */
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	cpus[0] = -1;
	for (int c = 0; c < CPU_SETSIZE && cpus[0] < 0; c++)
		if (CPU_ISSET(c, &mine))
			cpus[0] = c;
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.env = test_env;
	spec.samples_fd = -1;
	spec.cpus = cpus;
	spec.ncpus = 1;
	spec.no_aslr = 1;
	plumb_err_clear(&err);
	assert_int_equal(measure_run(&spec, &res, &err), 0);
	assert_false(res.failed);
	snprintf(want, sizeof(want), "Cpus_allowed_list:\t%d\n", cpus[0]);
	assert_non_null(strstr(buf_cstr(&res.proc.err_mem), want));
	{
		const char *p = strchr(buf_cstr(&res.proc.err_mem), '\n');
		assert_non_null(p);
		pers = strtoul(p + 1, NULL, 16);
		assert_true(pers & ADDR_NO_RANDOMIZE);
	}
	measure_result_release(&res);
}

/* ---- counters ------------------------------------------------------------------ */

PLUMB_TEST(perf_unavailable_has_reason)
{
	/* An event no kernel has: the unavailable path, with its reason. */
	static const struct perf_event_desc bogus[] = {
		{ "bogus", PERF_TYPE_MAX + 7, 0 } };
	char reason[512];

	assert_int_equal(perf_probe(bogus, 1, HOST_NA, reason, sizeof(reason)), 0);
	assert_non_null(strstr(reason, "perf_event_open(bogus): "));
	assert_true(strlen(reason) > strlen("perf_event_open(bogus): "));
	/* An unknown paranoid level is not named. */
	assert_null(strstr(reason, "perf_event_paranoid"));
}

PLUMB_TEST(perf_reason_reads_paranoid_under_sysroot)
{
	/* The paranoid level in the reason, as plumb run reads it for the
	 * probe (host_perf_paranoid()), is the one under PLUMB_SYSROOT, as
	 * every other host fact, not the live machine's. */
	static const struct perf_event_desc bogus[] = {
		{ "bogus", PERF_TYPE_MAX + 7, 0 } };
	char root[] = "/tmp/plumb-unit-XXXXXX", path[512], reason[512];
	const char *dirs[] = { "/proc", "/proc/sys", "/proc/sys/kernel" };
	FILE *f;

	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/perf_event_paranoid", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("-7\n", f);
	fclose(f);
	assert_int_equal(setenv("PLUMB_SYSROOT", root, 1), 0);
	assert_int_equal(perf_probe(bogus, 1, host_perf_paranoid(), reason, sizeof(reason)), 0);
	unsetenv("PLUMB_SYSROOT");
	assert_non_null(strstr(reason, "; perf_event_paranoid is -7"));
	unlink(path);
	for (size_t i = 3; i-- > 0; ) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		rmdir(path);
	}
	rmdir(root);
}

PLUMB_TEST(perf_hardware_counters)
{
	/* Counted where the kernel offers them; elsewhere unavailable with a
	 * reason and no number.  (t1007 reports the path not taken as a SKIP.) */
	char reason[512], *argv[] = { "sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done", NULL };
	struct measure_spec spec;
	struct measure_result res;
	struct plumb_err err;
	int avail = perf_probe(perf_hw_events, PERF_NCOUNTERS, host_perf_paranoid(), reason,
			       sizeof(reason));

	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.env = test_env;
	spec.samples_fd = -1;
	spec.events = perf_hw_events;
	spec.nevents = PERF_NCOUNTERS;
	plumb_err_clear(&err);
	assert_int_equal(measure_run(&spec, &res, &err), 0);
	assert_false(res.failed);
	if (!avail) {
		print_message("# hardware counters unavailable here: %s\n", reason);
		assert_non_null(strstr(reason, "perf_event_open("));
		assert_non_null(strstr(res.counters_error, "perf_event_open("));
		for (int i = 0; i < PERF_NCOUNTERS; i++)
			assert_false(res.counts.have[i]);
	} else {
		assert_string_equal(res.counters_error, "");
		assert_true(res.counts.have[PERF_CYCLES] && res.counts.value[PERF_CYCLES] > 1e6);
		assert_true(res.counts.have[PERF_INSTRUCTIONS] && res.counts.value[PERF_INSTRUCTIONS] > 1e6);
		assert_true(res.counts.have[PERF_BRANCH_MISSES]);
	}
	measure_result_release(&res);
}

PLUMB_TEST(perf_software_counter_on_child)
{
	/* The attach-at-the-gate, enable-on-exec, inherit and read path, with
	 * a software event every Linux kernel offers (task-clock, ns). */
	static const struct perf_event_desc clock_ev[] = {
		{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK } };
	char reason[512];
	char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done", NULL };
	struct measure_spec spec;
	struct measure_result res;
	struct plumb_err err;

	/* Software events exist wherever perf_event_open does. */
	if (!perf_probe(clock_ev, 1, host_perf_paranoid(), reason, sizeof(reason)))
		fail_msg("software counters unavailable: %s", reason);
	memset(&spec, 0, sizeof(spec));
	spec.argv = argv;
	spec.env = test_env;
	spec.samples_fd = -1;
	spec.events = clock_ev;
	spec.nevents = 1;
	plumb_err_clear(&err);
	assert_int_equal(measure_run(&spec, &res, &err), 0);
	assert_false(res.failed);
	assert_string_equal(res.counters_error, "");
	assert_true(res.counts.have[0]);
	/* The child's own CPU time, as the kernel counted it: close to rusage. */
	assert_true(res.counts.value[0] > 0.5 * (double)res.proc.user_ns);
	assert_true(res.counts.value[0] < 2.0 * (double)(res.proc.user_ns + res.proc.sys_ns) + 2e7);
	measure_result_release(&res);
}
