/*
 * runner/run-capacity.c: whether a run of this configuration can end in a
 * bundle at all, estimated before anything is built.
 */


#include <stdint.h>

#include "common/err.h"
#include "formats/bundle.h"
#include "formats/config.h"
#include "runner/run-internal.h"
#include "common/banned.h"

/*
 * The manifest grows with every round (run.order, run.conditions) and
 * with every variant and hot symbol; a bundle holds a manifest of at most
 * BUNDLE_MAX_MANIFEST bytes and BUNDLE_MAX_JSON_VALUES values.  Checked
 * before anything is built, with generous per-item sizes, so that a long
 * run cannot end in a bundle that cannot be written.
 */
int run_check_capacity(const struct plumb_config *cfg, struct plumb_err *err)
{
	unsigned pads = cfg->run.pads_auto ? cfg->run.max_pads : cfg->run.pads;
	uint64_t nv = 2 * (uint64_t)pads + (cfg->run.control ? 1 : 0);
	uint64_t nsym = 0, bytes, values, per_bytes, per_values, most, rounds = cfg->run.rounds;
	/* pads = auto: the first sweep and each extension (one look each) run
	 * run.rounds rounds (runner/run-sweep.c). */
	rounds *= config_sweep_looks(cfg);

	for (size_t i = 0; i < cfg->nbenches; i++)
		nsym += cfg->benches[i].nhot;
	if (nsym == 0)
		nsym = 1;   /* main, for the shift check */
	bytes = 64 * 1024 + cfg->nbenches * (8 * 1024 + nsym * 160) + nv * (600 + nsym * 260);
	values = 2000 + cfg->nbenches * (120 + nsym * 6) + nv * (20 + nsym * 6);
	per_bytes = 24 + nv * 24 + 160;
	per_values = nv + 12;
	if (bytes >= BUNDLE_MAX_MANIFEST || values >= BUNDLE_MAX_JSON_VALUES)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "run.pads: %llu variants with %llu hot symbols make a manifest larger than a bundle may hold",
				     (unsigned long long)nv, (unsigned long long)nsym);
	most = (BUNDLE_MAX_MANIFEST - bytes) / per_bytes;
	if ((BUNDLE_MAX_JSON_VALUES - values) / per_values < most)
		most = (BUNDLE_MAX_JSON_VALUES - values) / per_values;
	if (rounds > most)
		return plumb_err_set(err, PLUMB_EINPUT,
				     "run.rounds: %llu rounds of %llu variants make a manifest larger than a bundle may hold "
				     "(%llu bytes, %u JSON values); at most %llu rounds fit%s",
				     (unsigned long long)rounds, (unsigned long long)nv,
				     (unsigned long long)BUNDLE_MAX_MANIFEST, BUNDLE_MAX_JSON_VALUES,
				     (unsigned long long)most,
				     cfg->run.pads_auto ? " (run.pads = auto: counted at run.maxPads)" : "");
	return 0;
}
