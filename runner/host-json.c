/*
 * runner/host-json.c: the host facts as JSON (the object run manifests
 * keep as host.start and host.end) and the comparability fingerprint.
 * The keys are a contract: docs/host-facts.md lists every one, and
 * t5003-host-live.sh fails when code and document disagree.
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "formats/fingerprint.h"
#include "runner/host-json.h"
#include "common/banned.h"

const char *host_fingerprint(const struct host_facts *hf)
{
	return hf->fingerprint;
}

/*
 * The text the fingerprint hashes is formats/fingerprint.c's recipe over
 * the facts' JSON, so that the bundle consistency check recomputes exactly
 * what was recorded.
 */
int host_fingerprint_input(const struct host_facts *hf, struct buf *out)
{
	json_t *j = host_facts_to_json(hf);
	int rc;

	if (!j)
		return -1;
	rc = fingerprint_input(j, out);
	json_decref(j);
	return rc;
}

int host_fingerprint_update(struct host_facts *hf, struct plumb_err *err)
{
	json_t *j = host_facts_to_json(hf);
	int rc;

	if (!j)
		return plumb_err_oom(err, "host fingerprint");
	rc = fingerprint_of(j, hf->fingerprint);
	json_decref(j);
	if (rc < 0)
		return plumb_err_oom(err, "host fingerprint");
	return 0;
}

/* Constructors that turn "unknown" into JSON null. */
static json_t *j_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *j_int(long long v)
{
	return v == HOST_NA ? json_null() : json_integer((json_int_t)v);
}

static json_t *j_tri(int t)
{
	return t == HOST_UNKNOWN ? json_null() : json_boolean(t == HOST_YES);
}

/* Set key on obj, stealing value; a NULL value (out of memory) fails. */
static int put(json_t *obj, const char *key, json_t *value)
{
	if (!value)
		return -1;
	return json_object_set_new(obj, key, value);
}

static json_t *system_json(const struct host_facts *hf, const char *part)
{
	json_t *o = json_object();
	int bad = !o;

	if (bad)
		return NULL;
	if (strcmp(part, "os") == 0) {
		bad |= put(o, "name", j_str(hf->os_name));
		bad |= put(o, "id", j_str(hf->os_id));
		bad |= put(o, "version_id", j_str(hf->os_version_id));
	} else if (strcmp(part, "kernel") == 0) {
		bad |= put(o, "release", j_str(hf->kernel_release));
		bad |= put(o, "cmdline", j_str(hf->cmdline));
		bad |= put(o, "isolcpus", j_str(hf->isolcpus));
		bad |= put(o, "nohz_full", j_str(hf->nohz_full));
		bad |= put(o, "isolated_cpus", j_str(hf->isolated_cpus));
	} else if (strcmp(part, "cpu") == 0) {
		bad |= put(o, "vendor", j_str(hf->cpu_vendor));
		bad |= put(o, "model", j_str(hf->cpu_model));
		bad |= put(o, "microcode", j_str(hf->microcode));
		bad |= put(o, "online", j_str(hf->online_cpus));
		bad |= put(o, "logical", j_int(hf->logical_cpus));
		bad |= put(o, "physical_cores", j_int(hf->physical_cores));
		bad |= put(o, "packages", j_int(hf->packages));
		bad |= put(o, "smt", j_tri(hf->smt));
		bad |= put(o, "smt_control", j_str(hf->smt_control));
	} else if (strcmp(part, "cpufreq") == 0) {
		bad |= put(o, "driver", j_str(hf->driver));
		bad |= put(o, "governor", j_str(hf->governor));
		bad |= put(o, "epp", j_str(hf->epp));
		bad |= put(o, "pstate_status", j_str(hf->pstate_status));
		bad |= put(o, "min_khz", j_int(hf->min_khz));
		bad |= put(o, "max_khz", j_int(hf->max_khz));
		bad |= put(o, "scaling_min_khz", j_int(hf->scaling_min_khz));
		bad |= put(o, "scaling_max_khz", j_int(hf->scaling_max_khz));
		bad |= put(o, "cur_min_khz", j_int(hf->cur_min_khz));
		bad |= put(o, "cur_max_khz", j_int(hf->cur_max_khz));
		bad |= put(o, "turbo", j_tri(hf->turbo));
		bad |= put(o, "turbo_source", j_str(hf->turbo_source));
	} else if (strcmp(part, "virt") == 0) {
		bad |= put(o, "virtualized", j_tri(hf->virtualized));
		bad |= put(o, "hypervisor_flag", j_tri(hf->hypervisor_flag));
		bad |= put(o, "hypervisor_type", j_str(hf->hypervisor_type));
	} else if (strcmp(part, "perf") == 0) {
		bad |= put(o, "paranoid", j_int(hf->perf_paranoid));
		bad |= put(o, "cycles", j_str(hf->perf_cycles));
	} else if (strcmp(part, "load") == 0) {
		static const char *keys[] = { "avg1", "avg5", "avg15" };
		for (int i = 0; i < 3; i++)
			bad |= put(o, keys[i], hf->has_load ? json_real(hf->load[i]) : json_null());
	} else if (strcmp(part, "memory") == 0) {
		bad |= put(o, "total_kb", j_int(hf->mem_total_kb));
		bad |= put(o, "available_kb", j_int(hf->mem_available_kb));
		bad |= put(o, "swap_total_kb", j_int(hf->swap_total_kb));
		bad |= put(o, "swap_free_kb", j_int(hf->swap_free_kb));
	} else if (strcmp(part, "thermal") == 0) {
		bad |= put(o, "core_throttle_count", j_int(hf->core_throttle));
		bad |= put(o, "package_throttle_count", j_int(hf->package_throttle));
	} else if (strcmp(part, "compiler") == 0) {
		bad |= put(o, "command", j_str(hf->compiler_command));
		bad |= put(o, "version", j_str(hf->compiler));
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *host_facts_to_json(const struct host_facts *hf)
{
	static const char *parts[] = {
		"os", "kernel", "cpu", "cpufreq", "virt", "perf", "load",
		"memory", "thermal", "compiler"
	};
	json_t *o = json_object();
	json_t *notes = json_array();
	int bad = !o || !notes;

	if (!bad) {
		bad |= put(o, "version", json_integer(HOST_FACTS_VERSION));
		bad |= put(o, "fingerprint", json_string(hf->fingerprint));
		bad |= put(o, "hostname", j_str(hf->hostname));
	}
	for (size_t i = 0; !bad && i < sizeof(parts) / sizeof(parts[0]); i++) {
		bad |= put(o, parts[i], system_json(hf, parts[i]));
		if (i == 4) {
			bad |= put(o, "clocksource", j_str(hf->clocksource));
			bad |= put(o, "aslr", j_int(hf->aslr));
			bad |= put(o, "thp", j_str(hf->thp));
		}
	}
	for (size_t i = 0; !bad && i < hf->nnotes; i++) {
		json_t *n = json_string(hf->notes[i]);
		if (!n)  /* not UTF-8 (a note quoting $CC): still say something */
			n = json_string("a note that is not UTF-8 text");
		bad |= json_array_append_new(notes, n);
	}
	if (!bad) {
		bad |= json_object_set_new(o, "notes", notes);
		notes = NULL;
	}
	json_decref(notes);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}
