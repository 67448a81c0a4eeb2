/*
 * formats/fingerprint.c: the host fingerprint from the facts' JSON (see
 * fingerprint.h).  Changing this text changes every fingerprint: bump the
 * first line when it must change, and docs/host-facts.md with it.
 */
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "formats/digest.h"
#include "formats/fingerprint.h"
#include "common/banned.h"

static const json_t *fact(const json_t *facts, const char *group, const char *key)
{
	return json_object_get(json_object_get(facts, group), key);
}

static const char *text_of(const json_t *v)
{
	return json_is_string(v) ? json_string_value(v) : "null";
}

static const char *int_of(const json_t *v, char out[32])
{
	if (!json_is_integer(v))
		return "null";
	snprintf(out, 32, "%lld", (long long)json_integer_value(v));
	return out;
}

static const char *bool_of(const json_t *v)
{
	return json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null";
}

int fingerprint_input(const json_t *facts, struct buf *out)
{
	char logical[32], cores[32];

	return buf_printf(out,
			  "plumb-host-fingerprint 1\n"
			  "cpu.model=%s\n"
			  "cpu.logical=%s\n"
			  "cpu.physical_cores=%s\n"
			  "cpu.smt=%s\n"
			  "kernel.release=%s\n"
			  "cpufreq.governor=%s\n"
			  "cpufreq.turbo=%s\n",
			  text_of(fact(facts, "cpu", "model")),
			  int_of(fact(facts, "cpu", "logical"), logical),
			  int_of(fact(facts, "cpu", "physical_cores"), cores),
			  bool_of(fact(facts, "cpu", "smt")),
			  text_of(fact(facts, "kernel", "release")),
			  text_of(fact(facts, "cpufreq", "governor")),
			  bool_of(fact(facts, "cpufreq", "turbo")));
}

int fingerprint_of(const json_t *facts, char out[FINGERPRINT_HEX])
{
	unsigned char hash[DIGEST_BYTES];
	char hex[DIGEST_HEX];
	struct buf b;

	buf_init(&b, 64 * 1024);
	if (fingerprint_input(facts, &b) < 0) {
		buf_release(&b);
		return -1;
	}
	digest_buffer(b.data, b.len, hash);
	buf_release(&b);
	digest_hex(hash, hex);
	memcpy(out, hex, FINGERPRINT_HEX - 1);
	out[FINGERPRINT_HEX - 1] = '\0';
	return 0;
}

int fingerprint_checkable(const json_t *facts)
{
	return json_is_object(facts) && json_is_integer(json_object_get(facts, "version"));
}
