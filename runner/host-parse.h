/*
 * runner/host-parse.h: pure parsers for the text formats of /proc and /sys
 * (CPU lists, bracketed choices, "key: value" files, os-release, the
 * kernel command line), kept apart from the file reading so unit tests
 * can feed them strings.
 *
 * Ownership: every char * these functions return through an out parameter
 * is malloc'd and owned by the caller (free()); inputs are only read.
 * Functions returning int give 0 on success, -1 when the text is malformed
 * and -2 when memory runs out, unless stated otherwise.
 */
#ifndef PLUMB_RUNNER_HOST_PARSE_H
#define PLUMB_RUNNER_HOST_PARSE_H

#include <stddef.h>

/* Largest CPU number accepted in a CPU list (the kernel's NR_CPUS limit). */
#define HOST_MAX_CPU 8191

/* A sorted set of CPU numbers. */
struct cpuset {
	int *v;
	size_t n;
};

void cpuset_release(struct cpuset *s);

/* Parse "0-3,8,10-11" (surrounding blanks allowed; "" is the empty set). */
int host_parse_cpulist(const char *s, struct cpuset *out);

/* Format as the kernel does: "0-3,8"; "" for the empty set. */
int host_format_cpulist(const int *cpus, size_t n, char **out);

/* A whole number, blanks around it allowed. */
int host_parse_ll(const char *s, long long *out);

/* One word of [A-Za-z0-9_.:+-], blanks around it allowed. */
int host_parse_token(const char *s, char **out);

/* One line of printable UTF-8 (no control characters), trimmed. */
int host_parse_line(const char *s, char **out);

/* The one [bracketed] word of "always [madvise] never". */
int host_parse_bracketed(const char *s, char **out);

/*
 * The value of the first "key<tabs>: value" line of /proc/cpuinfo text.
 * Returns 1 and sets *out when found, 0 when absent, -1/-2 as usual.
 */
int host_cpuinfo_field(const char *text, const char *key, char **out);

/* How many "processor" lines /proc/cpuinfo text has. */
long long host_cpuinfo_count(const char *text);

/*
 * Physical cores and packages from the "physical id"/"core id" lines:
 * 0, or -1 when some processor lacks them (then the counts are unknown).
 */
int host_cpuinfo_cores(const char *text, long long *cores, long long *packages);

/* Nonzero when the first "flags" line holds word; -1 with no flags line. */
int host_cpuinfo_has_flag(const char *text, const char *word);

/*
 * A parameter of the kernel command line (words before a lone "--"):
 * returns 1 and the value of the last "name=value" (double quotes
 * removed), 0 when absent.
 */
int host_cmdline_param(const char *cmdline, const char *name, char **out);

/* A KEY=value of os-release (quotes and backslash escapes resolved): 1/0/-1/-2. */
int host_os_release_field(const char *text, const char *key, char **out);

/* The three load averages of /proc/loadavg. */
int host_parse_loadavg(const char *text, double load[3]);

/* "Key:   1234 kB" of /proc/meminfo: 1 found, 0 absent, -1 malformed. */
int host_meminfo_kb(const char *text, const char *key, long long *out);

/*
 * Summarize per-CPU values (vals[i] for cpus[i], NULL when unknown): NULL
 * when all are unknown, the value when all agree, else
 * "v1:0-3 v2:4-7 unknown:8" in order of first CPU.  *out is NULL or a new
 * string.  Returns 0 or -2.
 */
int host_summarize(char *const *vals, const int *cpus, size_t n, char **out);

#endif
