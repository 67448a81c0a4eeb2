/*
 * runner/run-checksum.c: the checksum oracle of `plumb run`: every run of
 * one side (base with its control, or candidate) must print the same
 * checksum= line, or none at all; bench.NAME.checksum says whether one
 * is required.  Base and candidate may differ: that is a note in the
 * manifest (run-manifest.c), not a failure.
 */
#include <stdio.h>
#include <string.h>

#include "formats/config.h"
#include "runner/build-variant.h"
#include "runner/measure.h"
#include "runner/run-internal.h"
#include "common/banned.h"

/* The checksum oracle after one run; a non-empty *why on a mismatch. */
void run_check_checksum(struct run_state *st, struct bench_state *b, size_t vi,
			   const struct measure_result *m, char *why, size_t size)
{
	const struct runner_variant *v = &st->build.variants[vi];
	struct side_ck *ck = &b->ck[v->side];
	char a[96], o[96];

	why[0] = '\0';
	if (b->cb->checksum == CONFIG_CHECKSUM_OFF)
		return;
	if (m->checksum_conflict) {
		snprintf(why, size, "printed two different checksums in one run: %s and %s",
			 m->checksum, m->other_checksum);
		return;
	}
	if (!m->checksum[0] && b->cb->checksum == CONFIG_CHECKSUM_REQUIRED) {
		snprintf(why, size, "printed no checksum= line (bench.%s.checksum = required)",
			 b->cb->name);
		return;
	}
	run_variant_label(st, vi, a, sizeof(a));
	if (!m->checksum[0]) {
		if (ck->value[0]) {
			run_variant_label(st, ck->from, o, sizeof(o));
			snprintf(why, size, "checksum mismatch within %s: %s printed none, %s printed %s",
				 runner_side_name(v->side), a, o, ck->value);
			return;
		}
		if (!ck->none) {
			ck->none = 1;
			ck->none_from = vi;
		}
		ck->any = 1;
		return;
	}
	if (ck->none) {
		run_variant_label(st, ck->none_from, o, sizeof(o));
		snprintf(why, size, "checksum mismatch within %s: %s printed %s, %s printed none",
			 runner_side_name(v->side), a, m->checksum, o);
		return;
	}
	if (ck->value[0] && strcmp(ck->value, m->checksum) != 0) {
		run_variant_label(st, ck->from, o, sizeof(o));
		snprintf(why, size, "checksum mismatch within %s: %s printed %s, %s printed %s",
			 runner_side_name(v->side), o, ck->value, a, m->checksum);
		return;
	}
	if (!ck->value[0]) {
		snprintf(ck->value, sizeof(ck->value), "%s", m->checksum);
		ck->from = vi;
	}
	ck->any = 1;
}
