/*
 * reports/hostclass.c: the host classes of an archive with their deciding
 * facts (hostclass.h).  The facts are read through hostdiff_lookup(), the
 * one reader of host.start objects, by the keys of docs/host-facts.md.
 */
#include <jansson.h>

#include "archive/hosts.h"
#include "common/err.h"
#include "reports/hostclass.h"
#include "reports/hostdiff.h"
#include "common/banned.h"

/* The JSON member and the host fact it shows, in output order. */
static const struct {
	const char *member, *fact;
} shown[] = {
	{ "cpuModel", "cpu.model" },
	{ "cpus", "cpu.logical" },
	{ "cores", "cpu.physical_cores" },
	{ "kernel", "kernel.release" },
	{ "governor", "cpufreq.governor" },
	{ "turbo", "cpufreq.turbo" },
	{ "smt", "cpu.smt" },
};

static int add_facts(json_t *h)
{
	const json_t *facts = json_object_get(h, "facts");
	json_t *o = json_object();

	if (!o)
		return -1;
	if (json_object_set_new(o, "fingerprint", json_incref(json_object_get(h, "fingerprint"))))
		goto bad;
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		const json_t *v = hostdiff_lookup(facts, shown[i].fact);
		if (json_object_set_new(o, shown[i].member, v ? json_deep_copy(v) : json_null()))
			goto bad;
	}
	if (json_object_update_missing(o, h) || json_object_clear(h) || json_object_update(h, o))
		goto bad;
	json_decref(o);
	return 0;
bad:
	json_decref(o);
	return -1;
}

int hostclass_list(struct store *st, json_t **out, struct plumb_err *err)
{
	json_t *hosts, *m;
	int r;

	*out = NULL;
	if ((r = hosts_list(st, &hosts, err)) < 0)
		return r;
	for (size_t i = 0; i < json_array_size(hosts); i++)
		if (add_facts(json_array_get(hosts, i)) < 0) {
			json_decref(hosts);
			return plumb_err_oom(err, "hosts");
		}
	m = json_pack("{s:s, s:i, s:o}", "format", "plumb-hosts", "version", HOSTCLASS_JSON_VERSION,
		      "hosts", hosts);
	if (!m)
		return plumb_err_oom(err, "hosts");
	*out = m;
	return 0;
}
