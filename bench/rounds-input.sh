#!/bin/sh
# bench/rounds-input.sh N DIR [RULE]: the input of bench/bundle.sh's rounds
# axis, a run of N distinct rounds (the limit of a bundle is 1,000,000):
#   DIR/in/          manifest.json and samples.tsv of one process-mode
#                    benchmark, 4 pads a side, N / 8 rounds, judged by
#                    RULE (shift, the default of plumb run, or margin,
#                    whose bootstrap resamples every round 2000 times),
#                    the figures those plumb analyze gives;
#   DIR/base.json, DIR/candidate.json
#                    hyperfine exports of N / 2 runs each, which plumb
#                    import turns into a bundle of N rounds (one pad a side).
# Each value is a wall time in ns around 1.18 ms, a pad offset of up to
# 1 % and uniform noise of 2 %.
set -eu
n=$1
out=$2
rule=${3:-shift}
plumb=${PLUMB:-./plumb}
mkdir -p "$out/in"

echo "generating $n rounds..." >&2
awk -v n="$n" 'BEGIN {
	srand(1);
	OFS = "\t";
	print "bench", "side", "pad", "round", "iter", "metric", "value";
	for (r = 1; r <= int(n / 8); r++)
		for (s = 0; s < 2; s++)
			for (pad = 0; pad < 4; pad++) {
				v = (s ? 1165000 : 1180000) * (1 + 0.01 * pad / 3);
				v *= 1 + 0.02 * (rand() - 0.5);
				print "interp", (s ? "candidate" : "base"), pad, r, "-", "wall", int(v);
			}
}' >"$out/in/samples.tsv"

"$plumb" analyze --json --rule "$rule" "$out/in/samples.tsv" >"$out/analyze.json"
python3 "$(dirname "$0")/bundle-manifest.py" "$out/analyze.json" process $((n / 8)) \
	>"$out/in/manifest.json"
# The hyperfine exports.
python3 - "$n" "$out" <<\PY
import json, random, sys
n, out = int(sys.argv[1]), sys.argv[2]
random.seed(1)
for name, center in (("base", 0.00118), ("candidate", 0.001165)):
    t = [round(center * (1 + 0.02 * (random.random() - 0.5)), 9) for _ in range(n // 2)]
    s = sorted(t)
    json.dump({"results": [{"command": "interp", "mean": sum(t) / len(t), "stddev": 0,
                            "median": s[len(s) // 2], "user": 0, "system": 0,
                            "min": s[0], "max": s[-1], "times": t,
                            "exit_codes": [0] * len(t)}]},
              open("%s/%s.json" % (out, name), "w"))
PY
rm -f "$out/analyze.json"
