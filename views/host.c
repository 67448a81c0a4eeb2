/*
 * views/host.c: what `plumb host` prints: the facts as an aligned table
 * (unknown facts read "unknown"; frequencies shown the way cpupower shows
 * them, 800 MHz, 4.60 GHz), the check's findings, or one JSON object; see
 * host.h.  The facts were read from files and a child's output: every row
 * is escaped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "common/buf.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/units.h"
#include "formats/jsonio.h"
#include "runner/host-check.h"
#include "runner/host-json.h"
#include "views/host.h"
#include "common/banned.h"

static int row(struct buf *out, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int row(struct buf *out, const char *label, const char *fmt, ...)
{
	va_list ap;
	int rc;

	struct buf text;

	/* The label in 18 columns, then the value. */
	if (buf_printf(out, "%-18s ", label) < 0)
		return -1;
	buf_init(&text, out->max);
	va_start(ap, fmt);
	rc = buf_vprintf(&text, fmt, ap);
	va_end(ap);
	if (rc == 0)
		rc = esc_text(out, buf_cstr(&text));
	buf_release(&text);
	if (rc < 0)
		return -1;
	return buf_addch(out, '\n');
}

static const char *or_unknown(const char *s)
{
	return s ? s : "unknown";
}

static void freq_text(char out[UNITS_MAX], long long khz)
{
	if (khz == HOST_NA)
		snprintf(out, UNITS_MAX, "unknown");
	else
		units_khz(khz, out);
}

static void range_text(char *out, size_t size, long long lo, long long hi)
{
	char a[UNITS_MAX], b[UNITS_MAX];

	if (lo == HOST_NA && hi == HOST_NA) {
		snprintf(out, size, "unknown");
		return;
	}
	freq_text(a, lo);
	freq_text(b, hi);
	if (lo == hi)
		snprintf(out, size, "%s", a);
	else
		snprintf(out, size, "%s - %s", a, b);
}

static void count_text(char *out, size_t size, long long n)
{
	if (n == HOST_NA)
		snprintf(out, size, "unknown");
	else
		snprintf(out, size, "%lld", n);
}

static void kb_text(char out[UNITS_MAX], long long kb)
{
	if (kb == HOST_NA)
		snprintf(out, UNITS_MAX, "unknown");
	else
		units_kib(kb, out);
}

static const char *tri_word(int t, const char *yes, const char *no)
{
	return t == HOST_YES ? yes : t == HOST_NO ? no : "unknown";
}

int view_host_facts(const struct host_facts *hf, struct buf *out, struct plumb_err *err)
{
	char a[64], b[64], c[64], d[128];
	int bad = 0;

	bad |= row(out, "fingerprint", "%s", hf->fingerprint);
	bad |= row(out, "hostname", "%s", or_unknown(hf->hostname));
	bad |= row(out, "os", "%s", or_unknown(hf->os_name));
	bad |= row(out, "kernel", "%s", or_unknown(hf->kernel_release));
	bad |= row(out, "cpu", "%s", or_unknown(hf->cpu_model));
	count_text(a, sizeof(a), hf->logical_cpus);
	count_text(b, sizeof(b), hf->physical_cores);
	count_text(c, sizeof(c), hf->packages);
	bad |= row(out, "cpus", "%s logical, %s physical cores, %s package%s (online: %s)",
		   a, b, c, hf->packages == 1 ? "" : "s", or_unknown(hf->online_cpus));
	bad |= row(out, "smt", "%s (control: %s)", tri_word(hf->smt, "on", "off"),
		   or_unknown(hf->smt_control));
	bad |= row(out, "microcode", "%s", or_unknown(hf->microcode));
	if (hf->pstate_status)
		bad |= row(out, "cpufreq driver", "%s (status: %s)", or_unknown(hf->driver),
			   hf->pstate_status);
	else
		bad |= row(out, "cpufreq driver", "%s", or_unknown(hf->driver));
	bad |= row(out, "governor", "%s", or_unknown(hf->governor));
	bad |= row(out, "energy pref", "%s", or_unknown(hf->epp));
	range_text(d, sizeof(d), hf->min_khz, hf->max_khz);
	bad |= row(out, "hardware limits", "%s", d);
	range_text(d, sizeof(d), hf->scaling_min_khz, hf->scaling_max_khz);
	bad |= row(out, "policy limits", "%s", d);
	range_text(d, sizeof(d), hf->cur_min_khz, hf->cur_max_khz);
	bad |= row(out, "current freq", "%s", d);
	if (hf->turbo_source)
		bad |= row(out, "turbo/boost", "%s (%s)", tri_word(hf->turbo, "on", "off"),
			   hf->turbo_source);
	else
		bad |= row(out, "turbo/boost", "%s", tri_word(hf->turbo, "on", "off"));
	{
		const char *iso = hf->isolated_cpus;
		bad |= row(out, "isolated cpus", "%s (isolcpus: %s, nohz_full: %s)",
			   iso ? (*iso ? iso : "none") : "unknown",
			   hf->isolcpus ? (*hf->isolcpus ? hf->isolcpus : "not set") : "unknown",
			   hf->nohz_full ? (*hf->nohz_full ? hf->nohz_full : "not set") : "unknown");
	}
	if (hf->virtualized == HOST_YES)
		bad |= row(out, "virtualized", "yes (%s)",
			   hf->hypervisor_type ? hf->hypervisor_type : "hypervisor CPU flag");
	else
		bad |= row(out, "virtualized", "%s", tri_word(hf->virtualized, "yes", "no"));
	bad |= row(out, "clock source", "%s", or_unknown(hf->clocksource));
	if (hf->aslr == HOST_NA)
		bad |= row(out, "aslr", "unknown");
	else
		bad |= row(out, "aslr", "%lld (%s)", hf->aslr,
			   hf->aslr == 0 ? "off" : hf->aslr == 1 ? "conservative" : "full");
	count_text(a, sizeof(a), hf->perf_paranoid);
	bad |= row(out, "perf counters", "%s (perf_event_paranoid: %s)",
		   or_unknown(hf->perf_cycles), a);
	bad |= row(out, "huge pages", "%s", or_unknown(hf->thp));
	if (hf->has_load) {
		char l[3][UNITS_MAX];

		for (int i = 0; i < 3; i++)
			units_load(hf->load[i], l[i]);
		bad |= row(out, "load average", "%s %s %s", l[0], l[1], l[2]);
	} else {
		bad |= row(out, "load average", "unknown");
	}
	kb_text(a, hf->mem_total_kb);
	kb_text(b, hf->mem_available_kb);
	bad |= row(out, "memory", "%s total, %s available", a, b);
	if (hf->swap_total_kb == 0)
		bad |= row(out, "swap", "none");
	else {
		kb_text(a, hf->swap_total_kb);
		if (hf->swap_total_kb != HOST_NA && hf->swap_free_kb != HOST_NA)
			kb_text(b, hf->swap_total_kb - hf->swap_free_kb);
		else
			kb_text(b, HOST_NA);
		bad |= row(out, "swap", "%s total, %s used", a, b);
	}
	if (hf->core_throttle == HOST_NA && hf->package_throttle == HOST_NA)
		bad |= row(out, "thermal throttle", "unknown");
	else {
		count_text(a, sizeof(a), hf->core_throttle);
		count_text(b, sizeof(b), hf->package_throttle);
		bad |= row(out, "thermal throttle", "%s core, %s package events since boot", a, b);
	}
	bad |= row(out, "compiler", "%s", or_unknown(hf->compiler));
	for (size_t i = 0; i < hf->nnotes; i++)
		bad |= row(out, "note", "%s", hf->notes[i]);
	if (bad)
		return buf_err(err, "host facts");
	return 0;
}

int view_host_check(const struct host_check *hc, struct buf *out, struct plumb_err *err)
{
	int bad = 0;

	for (size_t i = 0; i < hc->n; i++) {
		const struct host_finding *f = &hc->items[i];
		bad |= buf_printf(out, "%s: %s: ", f->allowed ? "allowed" :
				  f->level == HOST_WARNING ? "warning" : "note", f->id) < 0;
		bad |= esc_text(out, f->message) < 0 || buf_addstr(out, "\n  fix: ") < 0;
		bad |= esc_text(out, f->fix) < 0 || buf_addch(out, '\n') < 0;
	}
	bad |= buf_printf(out, "%zu warning%s, ", hc->warnings, hc->warnings == 1 ? "" : "s") < 0;
	if (hc->allowed)
		bad |= buf_printf(out, "%zu allowed, ", hc->allowed) < 0;
	bad |= buf_printf(out, "%zu note%s\n", hc->notes, hc->notes == 1 ? "" : "s") < 0;
	return bad ? buf_err(err, "host check") : 0;
}

int view_host(const struct host_facts *hf, const struct host_check *hc, int json,
	      struct buf *out, struct plumb_err *err)
{
	json_t *j, *c;
	int rc;

	if (!json) {
		rc = view_host_facts(hf, out, err);
		if (!rc && hc)
			rc = buf_addch(out, '\n') < 0 ? buf_err(err, "host check")
						      : view_host_check(hc, out, err);
		return rc;
	}
	j = host_facts_to_json(hf);
	if (j && hc) {
		c = host_check_to_json(hc);
		if (!c || json_object_set_new(j, "check", c) < 0) {
			json_decref(j);
			j = NULL;
		}
	}
	if (!j)
		return plumb_err_oom(err, "host facts JSON");
	rc = jsonio_dump(j, out, err);
	json_decref(j);
	return rc;
}
