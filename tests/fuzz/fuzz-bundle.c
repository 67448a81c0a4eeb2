/*
 * tests/fuzz/fuzz-bundle.c: libFuzzer target for the bundle reader: the
 * whole verification of a bundle held in memory (zstd, tar, names, types,
 * limits, SHA256SUMS, signature text, manifest, samples.tsv).
 *
 * Built as tests/fuzz/fuzz-bundle with ./configure CC=clang
 * --enable-fuzzing; every build also links it with tests/fuzz/replay.c
 * into tests/fuzz/replay-bundle, which `make check` runs over the corpus
 * (tests/fuzz/corpus/bundle) and the saved crash inputs
 * (tests/fuzz/crashes/bundle).
 *
 * The limits are the format's, except the total sizes, which are smaller
 * so that a generated decompression bomb costs milliseconds, not seconds.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/err.h"
#include "formats/bundle.h"
#include "common/banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bundle_read_opts opts = { .limits = NULL };
	struct bundle_limits lim;
	struct bundle_info info;
	struct plumb_err err;

	bundle_limits_default(&lim);
	lim.max_file = (uint64_t)16 << 20;
	lim.max_total = (uint64_t)16 << 20;
	opts.limits = &lim;
	bundle_info_init(&info);
	plumb_err_clear(&err);
	if (bundle_verify_mem(data, size, "fuzz.plumb", &opts, &info, &err) == 0) {
		/* What the commands print must be there. */
		if (info.id[0] == '\0' || !info.manifest.created)
			__builtin_trap();
	} else if (err.code == 0 || err.msg[0] == '\0') {
		__builtin_trap();   /* every failure says why */
	}
	bundle_info_release(&info);
	return 0;
}
