/*
 * runner/host-probe.h: the two host facts that come from doing something
 * on this machine rather than reading a file: whether a cycles counter
 * can be opened, and the compiler's version line.
 *
 * Ownership: strings returned through out parameters are malloc'd and
 * owned by the caller; the perf answer is a static string.
 */
#ifndef PLUMB_RUNNER_HOST_PROBE_H
#define PLUMB_RUNNER_HOST_PROBE_H

/* Seconds `$CC --version` may take before its process group is killed. */
#define HOST_CC_TIMEOUT_MS 5000

/*
 * Open (and close) a user-space cycles counter on this process
 * (perf_probe_errno()): "available", "not permitted" (EACCES/EPERM) or "not supported".
 */
const char *host_probe_perf_cycles(void);

/*
 * Run `<cc> --version` (cc is split on blanks; "cc" when NULL or empty)
 * through sys/proc.h, with stdin and stderr on /dev/null and an
 * environment of only PATH, HOME, TMPDIR, LANG, LC_ALL, LC_MESSAGES,
 * GCC_EXEC_PREFIX and COMPILER_PATH (plumb's values), and keep the first
 * line of its output.  Returns 0 with *version set, 1 when the
 * compiler could not be run or printed nothing (*version NULL), 1 with
 * *why set when something is worth a note (a timeout, a crash), -2 when
 * memory ran out.
 */
int host_probe_compiler(const char *cc, char **version, char **why);

#endif
