/*
 * runner/host-probe.c: facts learnt by trying: perf_event_open on a cycles
 * counter (runner/perf.c's probe), and the first line of `$CC --version`
 * from a child run by sys/proc.c with a timeout and an allowlisted
 * environment.  Only used for the live machine (the cycles probe) or
 * always (the compiler, which a fake PLUMB_SYSROOT tree cannot describe).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "runner/envlist.h"
#include "runner/host-parse.h"
#include "runner/host-probe.h"
#include "runner/perf.h"
#include "sys/proc.h"
#include "common/banned.h"

#define CC_MAX_ARGS 32
#define CC_OUTPUT_MAX 4096
/* SIGTERM to SIGKILL for a compiler past its timeout: it is not measured. */
#define CC_GRACE_NS (100ull * 1000000ull)

const char *host_probe_perf_cycles(void)
{
	int e = perf_probe_errno(&perf_hw_events[PERF_CYCLES]);

	if (e == 0)
		return "available";
	if (e == EACCES || e == EPERM)
		return "not permitted";
	/* ENOENT, ENODEV, EOPNOTSUPP, ENOSYS, EINVAL: no PMU to count with. */
	return "not supported";
}

/* Split cc on blanks into argv (pointing into copy), adding "--version". */
static int split_command(char *copy, char **argv)
{
	int argc = 0;
	char *save = NULL;

	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (argc == CC_MAX_ARGS - 2)
			return -1;
		argv[argc++] = w;
	}
	if (argc == 0)
		return -1;
	argv[argc++] = "--version";
	argv[argc] = NULL;
	return argc;
}

/*
 * The compiler's environment: these names with plumb's values, nothing
 * else.  PATH finds the compiler and its passes; the locale names keep
 * its messages in the language the user reads; the GCC_/COMPILER_ names
 * are how a cross or relocated toolchain finds itself.
 */
static const char *const cc_env_names[] = {
	"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_MESSAGES",
	"GCC_EXEC_PREFIX", "COMPILER_PATH",
};

int host_probe_compiler(const char *cc, char **version, char **why)
{
	char *argv[CC_MAX_ARGS];
	char *copy;
	struct envlist env;
	struct proc_spec spec;
	struct proc_result res;
	struct plumb_err err;
	int rc;

	*version = NULL;
	*why = NULL;
	plumb_err_clear(&err);
	copy = strdup(cc && *cc ? cc : "cc");
	if (!copy)
		return -2;
	if (split_command(copy, argv) < 0) {
		free(copy);
		return 1;
	}
	if (envlist_init(&env, &err) < 0) {
		free(copy);
		return -2;
	}
	for (size_t i = 0; i < sizeof(cc_env_names) / sizeof(cc_env_names[0]); i++) {
		const char *v = getenv(cc_env_names[i]);
		if (v && envlist_set(&env, cc_env_names[i], v, &err) < 0) {
			envlist_release(&env);
			free(copy);
			return -2;
		}
	}

	proc_spec_init(&spec);
	spec.argv = argv;
	spec.env = env.v;
	spec.timeout_ns = (uint64_t)HOST_CC_TIMEOUT_MS * 1000000ull;
	spec.grace_ns = CC_GRACE_NS;
	spec.out.kind = PROC_SINK_MEM;
	spec.out.cap = 2 * CC_OUTPUT_MAX;   /* the first CC_OUTPUT_MAX bytes are kept whole */
	spec.err.kind = PROC_SINK_NULL;
	rc = proc_run(&spec, &res, &err);
	envlist_release(&env);
	free(copy);
	if (rc < 0) {
		proc_result_release(&res);
		*why = strdup(err.msg);
		return *why ? 1 : -2;
	}
	if (res.timed_out) {
		proc_result_release(&res);
		*why = strdup("timed out");
		return *why ? 1 : -2;
	}
	if (!res.exited || res.status != 0 || res.spawn_errno) {
		int signalled = !res.exited;
		proc_result_release(&res);
		if (signalled) {
			*why = strdup("killed by a signal");
			return *why ? 1 : -2;
		}
		return 1;  /* no such compiler, or it failed: the fact is unknown */
	}
	{
		char line[CC_OUTPUT_MAX + 1];
		size_t len = res.out_mem.len < CC_OUTPUT_MAX ? res.out_mem.len : CC_OUTPUT_MAX;
		char *nl;
		if (len)
			memcpy(line, res.out_mem.data, len);
		line[len] = '\0';
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		proc_result_release(&res);
		rc = host_parse_line(line, version);
	}
	if (rc == -2)
		return -2;
	return rc == 0 ? 0 : 1;
}
