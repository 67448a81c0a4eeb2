#!/bin/sh
# bench/bundle-input.sh N DIR: write DIR/samples.tsv (N samples) and a
# DIR/manifest.json whose figures are those the samples give, the input of
# bench/bundle.sh and bench/audit.sh.  One benchmark in samples mode, base
# and candidate, 4 pads, 10 rounds, N / 80 iterations per round; each value
# is a per-iteration time in ns around 1.18 us with a pad offset of up to
# 1 %, a per-round drift of 0.3 %, log-normal noise of 2 % and 0.1 %
# outliers of 2x to 20x (timer interrupts, page faults), as integers.
set -eu
n=$1
out=$2
plumb=${PLUMB:-./plumb}
mkdir -p "$out"

echo "generating $n samples..." >&2
awk -v n="$n" 'BEGIN {
	srand(1);
	per = int(n / 80);
	OFS = "\t";
	print "bench", "side", "pad", "round", "iter", "metric", "value";
	for (s = 0; s < 2; s++) {
		side = s ? "candidate" : "base";
		base = s ? 1165.0 : 1180.0;
		for (pad = 0; pad < 4; pad++) {
			pb = base * (1 + 0.01 * (pad % 2 ? -pad : pad) / 3);
			for (r = 1; r <= 10; r++) {
				u1 = rand(); u2 = rand();
				rb = pb * (1 + 0.003 * sqrt(-2 * log(1 - u1)) * cos(6.283185307 * u2));
				for (i = 0; i < per; i++) {
					u1 = rand(); u2 = rand();
					v = rb * exp(0.02 * sqrt(-2 * log(1 - u1)) * cos(6.283185307 * u2));
					if (rand() < 0.001)
						v *= 2 + 18 * rand();
					print "interp", side, pad, r, i, "wall", int(v);
				}
			}
		}
	}
}' >"$out/samples.tsv"

# The manifest's figures are those the samples give (bundle verify
# recomputes them), taken from plumb analyze.
"$plumb" analyze --json "$out/samples.tsv" >"$out/.analyze.json"
python3 "$(dirname "$0")/bundle-manifest.py" "$out/.analyze.json" samples 10 >"$out/manifest.json"
rm -f "$out/.analyze.json"
