/*
 * tests/unit/test-host.c: runner/host-parse.c (the /proc and /sys text
 * parsers), the fingerprint text, the check rules on hand-made facts, and
 * the compiler probe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/unit.h"
#include "common/buf.h"
#include "common/err.h"
#include "common/fileio.h"
#include "common/utf8.h"
#include "runner/host.h"
#include "runner/host-check.h"
#include "runner/host-json.h"
#include "runner/host-parse.h"
#include "runner/host-probe.h"
#include "common/banned.h"

PLUMB_TEST(host_cpulist_parse_and_format)
{
	struct cpuset s;
	char *text;

	assert_int_equal(host_parse_cpulist("0-3,8,10-11\n", &s), 0);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.v[4], 8);
	assert_int_equal(host_format_cpulist(s.v, s.n, &text), 0);
	assert_string_equal(text, "0-3,8,10-11");
	free(text);
	cpuset_release(&s);

	/* Overlaps and disorder come out sorted and unique. */
	assert_int_equal(host_parse_cpulist("5,0-2,1", &s), 0);
	assert_int_equal(host_format_cpulist(s.v, s.n, &text), 0);
	assert_string_equal(text, "0-2,5");
	free(text);
	cpuset_release(&s);

	/* The empty list (no isolated CPUs) is a valid, empty set. */
	assert_int_equal(host_parse_cpulist("\n", &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(host_format_cpulist(s.v, s.n, &text), 0);
	assert_string_equal(text, "");
	free(text);

	assert_int_equal(host_parse_cpulist("3-2", &s), -1);
	assert_int_equal(host_parse_cpulist("zero-one", &s), -1);
	assert_int_equal(host_parse_cpulist("1,,2", &s), -1);
	assert_int_equal(host_parse_cpulist("0-99999", &s), -1);
	assert_int_equal(host_parse_cpulist("1 2", &s), -1);
	assert_int_equal(host_parse_cpulist("0-", &s), -1);
}

PLUMB_TEST(host_parse_numbers_and_words)
{
	long long v;
	char *s;

	assert_int_equal(host_parse_ll(" 4600000\n", &v), 0);
	assert_int_equal(v, 4600000);
	assert_int_equal(host_parse_ll("-1\n", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(host_parse_ll("fast\n", &v), -1);
	assert_int_equal(host_parse_ll("12 kB", &v), -1);
	assert_int_equal(host_parse_ll("", &v), -1);
	assert_int_equal(host_parse_ll("99999999999999999999999", &v), -1);

	assert_int_equal(host_parse_token("powersave\n", &s), 0);
	assert_string_equal(s, "powersave");
	free(s);
	assert_int_equal(host_parse_token("tsc hpet\n", &s), -1);
	assert_int_equal(host_parse_token("\001\002junk\n", &s), -1);
	assert_int_equal(host_parse_token("\n", &s), -1);

	assert_int_equal(host_parse_bracketed("always [madvise] never\n", &s), 0);
	assert_string_equal(s, "madvise");
	free(s);
	assert_int_equal(host_parse_bracketed("always madvise never\n", &s), -1);
	assert_int_equal(host_parse_bracketed("[always] [madvise]\n", &s), -1);
	assert_int_equal(host_parse_bracketed("[a b] c\n", &s), -1);
}

PLUMB_TEST(host_text_is_utf8_without_controls)
{
	char *s;

	assert_true(utf8_ok("Intel(R) Core", 13, UTF8_NAME));
	assert_true(utf8_ok("caf\xc3\xa9", 5, UTF8_NAME));
	assert_false(utf8_ok("Bad\007CPU", 7, UTF8_NAME));
	assert_false(utf8_ok("caf\xc3", 4, UTF8_NAME));          /* truncated */
	assert_false(utf8_ok("\xc0\xaf", 2, UTF8_NAME));         /* overlong */
	assert_false(utf8_ok("\xed\xa0\x80", 3, UTF8_NAME));     /* surrogate */
	assert_false(utf8_ok("\xff", 1, UTF8_NAME));
	assert_int_equal(host_parse_line("  hello world \n", &s), 0);
	assert_string_equal(s, "hello world");
	free(s);
	assert_int_equal(host_parse_line("\n", &s), -1);
}

static const char cpuinfo2[] =
	"processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU @ 1GHz\n"
	"microcode\t: 0x4e\nphysical id\t: 0\ncore id\t\t: 0\n"
	"flags\t\t: fpu hypervisorx ht\n\n"
	"processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU @ 1GHz\n"
	"microcode\t: 0x4e\nphysical id\t: 0\ncore id\t\t: 0\n"
	"flags\t\t: fpu hypervisorx ht\n\n";

PLUMB_TEST(host_cpuinfo_fields)
{
	long long cores, pkgs;
	char *s;

	assert_int_equal(host_cpuinfo_field(cpuinfo2, "model name", &s), 1);
	assert_string_equal(s, "Test CPU @ 1GHz");
	free(s);
	assert_int_equal(host_cpuinfo_field(cpuinfo2, "microcode", &s), 1);
	assert_string_equal(s, "0x4e");
	free(s);
	assert_int_equal(host_cpuinfo_field(cpuinfo2, "cpu MHz", &s), 0);
	assert_int_equal(host_cpuinfo_count(cpuinfo2), 2);
	/* Two hardware threads of one core. */
	assert_int_equal(host_cpuinfo_cores(cpuinfo2, &cores, &pkgs), 0);
	assert_int_equal(cores, 1);
	assert_int_equal(pkgs, 1);
	/* A word match, not a prefix match. */
	assert_int_equal(host_cpuinfo_has_flag(cpuinfo2, "hypervisor"), 0);
	assert_int_equal(host_cpuinfo_has_flag(cpuinfo2, "ht"), 1);
	assert_int_equal(host_cpuinfo_has_flag("processor\t: 0\nFeatures\t: fp\n", "hypervisor"), -1);
	/* Without "core id" lines the counts are unknown, not guessed. */
	assert_int_equal(host_cpuinfo_cores("processor\t: 0\nmodel name\t: x\n", &cores, &pkgs), -1);
}

PLUMB_TEST(host_cmdline_params)
{
	char *v;

	assert_int_equal(host_cmdline_param("ro quiet isolcpus=nohz,domain,2-3 nohz_full=2-3\n",
					    "isolcpus", &v), 1);
	assert_string_equal(v, "nohz,domain,2-3");
	free(v);
	assert_int_equal(host_cmdline_param("ro quiet\n", "isolcpus", &v), 0);
	assert_null(v);
	/* The last one wins; words after "--" belong to init. */
	assert_int_equal(host_cmdline_param("isolcpus=1 isolcpus=2 -- isolcpus=3", "isolcpus", &v), 1);
	assert_string_equal(v, "2");
	free(v);
	/* A prefix is not the parameter. */
	assert_int_equal(host_cmdline_param("xisolcpus=1 isolcpusx=2", "isolcpus", &v), 0);
	/* Double quotes keep blanks inside one parameter. */
	assert_int_equal(host_cmdline_param("a=\"x y\" b=1", "a", &v), 1);
	assert_string_equal(v, "x y");
	free(v);
}

PLUMB_TEST(host_os_release)
{
	const char *t = "NAME=\"Fedora Linux\"\nID=fedora\nVERSION_ID=44\n"
			"PRETTY_NAME=\"Fedora \\\"44\\\"\"\nX='single quoted'\nBAD=\"open\n";
	char *v;

	assert_int_equal(host_os_release_field(t, "ID", &v), 1);
	assert_string_equal(v, "fedora");
	free(v);
	assert_int_equal(host_os_release_field(t, "PRETTY_NAME", &v), 1);
	assert_string_equal(v, "Fedora \"44\"");
	free(v);
	assert_int_equal(host_os_release_field(t, "X", &v), 1);
	assert_string_equal(v, "single quoted");
	free(v);
	assert_int_equal(host_os_release_field(t, "BAD", &v), -1);
	assert_int_equal(host_os_release_field(t, "VERSION", &v), 0);
}

PLUMB_TEST(host_loadavg_and_meminfo)
{
	const char *mi = "MemTotal:       32562848 kB\nSwapTotal:       8388604 kB\n"
			 "SwapFree:        lots kB\n";
	double l[3];
	long long kb = -1;

	assert_int_equal(host_parse_loadavg("0.42 0.55 0.61 1/1432 98231\n", l), 0);
	assert_true(l[0] == 0.42 && l[1] == 0.55 && l[2] == 0.61);
	assert_int_equal(host_parse_loadavg("garbage\n", l), -1);
	assert_int_equal(host_parse_loadavg("1.0 2.0\n", l), -1);
	assert_int_equal(host_parse_loadavg("1.0x 2.0 3.0\n", l), -1);
	assert_int_equal(host_meminfo_kb(mi, "MemTotal", &kb), 1);
	assert_int_equal(kb, 32562848);
	assert_int_equal(host_meminfo_kb(mi, "SwapFree", &kb), -1);
	assert_int_equal(host_meminfo_kb(mi, "MemAvailable", &kb), 0);
}

PLUMB_TEST(host_summarize_per_cpu)
{
	char *same[] = { "powersave", "powersave", "powersave" };
	char *mixed[] = { "performance", "powersave", "performance", NULL };
	char *none[] = { NULL, NULL };
	int cpus[] = { 0, 1, 2, 3 };
	char *out;

	assert_int_equal(host_summarize(same, cpus, 3, &out), 0);
	assert_string_equal(out, "powersave");
	free(out);
	assert_int_equal(host_summarize(mixed, cpus, 4, &out), 0);
	assert_string_equal(out, "performance:0,2 powersave:1 unknown:3");
	free(out);
	assert_int_equal(host_summarize(none, cpus, 2, &out), 0);
	assert_null(out);
}

/* Facts of a fully tuned machine: the check finds nothing. */
static void tuned(struct host_facts *hf)
{
	host_facts_init(hf);
	hf->governor = strdup("performance");
	hf->turbo = HOST_NO;
	hf->smt = HOST_NO;
	hf->aslr = 0;
	hf->has_load = 1;
	hf->logical_cpus = 8;
	hf->perf_cycles = strdup("available");
	hf->virtualized = HOST_NO;
	hf->isolated_cpus = strdup("6-7");
	hf->thp = strdup("madvise");
	hf->swap_total_kb = hf->swap_free_kb = 1024;
	hf->core_throttle = hf->package_throttle = 0;
}

PLUMB_TEST(host_check_rules)
{
	struct host_facts hf;
	struct host_check hc;
	struct plumb_err err;

	plumb_err_clear(&err);
	tuned(&hf);
	host_check_init(&hc);
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.n, 0);
	host_check_release(&hc);

	/* Load: the limit is a quarter of the CPUs, but never below 1.0. */
	hf.load[0] = 1.99;
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.warnings, 0);
	host_check_release(&hc);
	hf.load[0] = 2.0;
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.warnings, 1);
	assert_string_equal(hc.items[0].id, "load");
	assert_string_equal(hc.items[0].message, "the load average is 2.00, high for 8 CPUs (limit 2.00)");
	host_check_release(&hc);
	hf.load[0] = 0;

	/* ASLR on is a note, never a warning. */
	hf.aslr = 2;
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.warnings, 0);
	assert_int_equal(hc.notes, 1);
	assert_int_equal(hc.items[0].level, HOST_NOTE);
	host_check_release(&hc);

	/* A single CPU cannot be isolated from itself: no isolation warning. */
	free(hf.isolated_cpus);
	hf.isolated_cpus = strdup("");
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.warnings, 1);
	assert_string_equal(hc.items[1].id, "isolation");
	host_check_release(&hc);
	hf.logical_cpus = 1;
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.warnings, 0);
	host_check_release(&hc);

	host_facts_release(&hf);
}

PLUMB_TEST(host_fingerprint_text_is_canonical)
{
	struct host_facts hf;
	struct plumb_err err;
	struct buf b;
	char fp[HOST_FINGERPRINT_LEN];

	plumb_err_clear(&err);
	host_facts_init(&hf);
	hf.cpu_model = strdup("Test CPU");
	hf.logical_cpus = 16;
	hf.physical_cores = 8;
	hf.smt = HOST_YES;
	hf.kernel_release = strdup("7.1.3-200.fc44.x86_64");
	hf.governor = strdup("powersave");
	hf.turbo = HOST_UNKNOWN;
	buf_init(&b, 4096);
	assert_int_equal(host_fingerprint_input(&hf, &b), 0);
	assert_string_equal(buf_cstr(&b),
			    "plumb-host-fingerprint 1\n"
			    "cpu.model=Test CPU\n"
			    "cpu.logical=16\n"
			    "cpu.physical_cores=8\n"
			    "cpu.smt=true\n"
			    "kernel.release=7.1.3-200.fc44.x86_64\n"
			    "cpufreq.governor=powersave\n"
			    "cpufreq.turbo=null\n");
	buf_release(&b);
	assert_int_equal(host_fingerprint_update(&hf, &err), 0);
	assert_int_equal(strlen(host_fingerprint(&hf)), 16);
	memcpy(fp, hf.fingerprint, sizeof(fp));

	/* Facts outside the fingerprint do not move it; facts inside do. */
	hf.aslr = 2;
	hf.hostname = strdup("elsewhere");
	assert_int_equal(host_fingerprint_update(&hf, &err), 0);
	assert_string_equal(hf.fingerprint, fp);
	hf.turbo = HOST_NO;
	assert_int_equal(host_fingerprint_update(&hf, &err), 0);
	assert_string_not_equal(hf.fingerprint, fp);
	host_facts_release(&hf);
}

/* dir (a fresh temporary folder) and cc, an executable dir/fakecc of script. */
static void fake_cc(char *dir, char *cc, size_t size, const char *script)
{
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(cc, size, "%s/fakecc", dir);
	f = fopen(cc, "w");
	assert_non_null(f);
	fputs(script, f);
	fclose(f);
	assert_int_equal(chmod(cc, 0755), 0);
}

PLUMB_TEST(host_probe_compiler_first_line)
{
	char dir[] = "/tmp/plumb-unit-XXXXXX";
	char cc[300], cmd[400];
	char *v, *why;

	fake_cc(dir, cc, sizeof(cc), "#!/bin/sh\necho \"fakecc $*\"\necho second line\necho oops >&2\n");

	/* The first line of stdout, with $CC's arguments kept in order. */
	snprintf(cmd, sizeof(cmd), "%s -m32  -O2", cc);
	assert_int_equal(host_probe_compiler(cmd, &v, &why), 0);
	assert_string_equal(v, "fakecc -m32 -O2 --version");
	assert_null(why);
	free(v);
	/* No such program, or one that fails: unknown, no note. */
	assert_int_equal(host_probe_compiler("/nonexistent/cc", &v, &why), 1);
	assert_null(v);
	assert_null(why);
	assert_int_equal(host_probe_compiler("false", &v, &why), 1);
	assert_null(v);
	assert_int_equal(host_probe_compiler("   ", &v, &why), 1);
	assert_null(v);
	unlink(cc);
	rmdir(dir);
}

PLUMB_TEST(host_probe_compiler_gets_an_allowlisted_environment)
{
	/* The compiler sees PATH and the locale from plumb, not the rest of
	 * plumb's environment. */
	char dir[] = "/tmp/plumb-unit-XXXXXX";
	char cc[300];
	char *v, *why;

	fake_cc(dir, cc, sizeof(cc),
		"#!/bin/sh\necho \"fakecc [$PLUMB_UNIT_SECRET] [$LC_ALL] [${PATH:+path}]\"\n");
	assert_int_equal(setenv("PLUMB_UNIT_SECRET", "leaked", 1), 0);
	assert_int_equal(setenv("LC_ALL", "C", 1), 0);
	assert_int_equal(host_probe_compiler(cc, &v, &why), 0);
	unsetenv("PLUMB_UNIT_SECRET");
	assert_string_equal(v, "fakecc [] [C] [path]");
	assert_null(why);
	free(v);
	unlink(cc);
	rmdir(dir);
}

/* docs/host-facts.md's readiness table names exactly the ids --allow takes, in order. */
PLUMB_TEST(host_check_ids_are_the_documented_ones)
{
	char path[4096], id[64];
	struct buf text, got;
	struct plumb_err err;
	const char *at, *end;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/docs/host-facts.md", unit_srcdir());
	buf_init(&text, 1 << 20);
	buf_init(&got, 4096);
	plumb_err_clear(&err);
	assert_int_equal(file_read(path, 1 << 20, &text, &err), 0);
	at = strstr(buf_cstr(&text), "| id | level | raised when |");
	assert_non_null(at);
	end = strstr(at, "\n\n");
	assert_non_null(end);
	/* Each row "| `id` | ...": the distinct ids, in the order they come. */
	for (const char *p = strstr(at, "\n| `"); p && p < end; p = strstr(p + 1, "\n| `")) {
		const char *q = strchr(p + 4, '`');
		assert_non_null(q);
		snprintf(id, sizeof(id), "%.*s", (int)(q - p - 4), p + 4);
		if (n && strcmp(id, host_check_ids[n - 1]) == 0)
			continue;   /* the same id at another level */
		if (n >= host_check_nids || strcmp(id, host_check_ids[n]) != 0)
			fail_msg("docs/host-facts.md lists check '%s' where the code has '%s'", id,
				 n < host_check_nids ? host_check_ids[n] : "(none)");
		n++;
	}
	assert_int_equal(n, host_check_nids);
	buf_release(&text);
	buf_release(&got);
}

/* --allow marks warnings allowed, never notes; an unknown name is refused, escaped. */
PLUMB_TEST(host_check_allow_marks_and_refuses)
{
	struct host_facts hf;
	struct host_check hc;
	struct plumb_err err;

	host_facts_init(&hf);
	host_check_init(&hc);
	plumb_err_clear(&err);
	hf.virtualized = HOST_YES;
	hf.smt = HOST_YES;
	hf.turbo = HOST_UNKNOWN;
	assert_int_equal(host_check_run(&hf, &hc, &err), 0);
	assert_int_equal(hc.warnings, 2);
	assert_int_equal(host_check_allow(&hc, "--allow", "virt, turbo", &err), 0);
	assert_int_equal(hc.warnings, 1);
	assert_int_equal(hc.allowed, 1);
	assert_int_equal(host_check_allow(&hc, "--allow", "virt,smt", &err), 0);
	assert_int_equal(hc.warnings, 0);
	assert_int_equal(hc.allowed, 2);
	assert_int_equal(host_check_allow(&hc, "--allow", "virt,vrit\033]0;x", &err), PLUMB_EARG);
	assert_non_null(strstr(err.msg, "--allow: 'vrit?]0;x' is not the id of a check (governor, "));
	assert_null(strchr(err.msg, '\033'));
	host_check_release(&hc);
	host_facts_release(&hf);
}
