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
python3 - "$out/.analyze.json" >"$out/manifest.json" <<\PY
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
def side(s):
    out = {"pads": [p["median"] for p in s["pads"]], "center": s["center"],
           "min": s["min"], "max": s["max"], "rounds": s["min_rounds"]}
    if s.get("spread") is not None:
        out["spread"] = s["spread"]
    return out
b = {"name": r["bench"], "mode": "samples", "metric": "wall",
     "sides": {k: side(r["sides"][k]) for k in ("base", "candidate")},
     "verdict": r["verdict"]}
if r["ratio"] is not None:
    b["ratio"] = r["ratio"]
if r["verdict"] == "unswept":
    b["direction"] = r["direction"]
json.dump({
  "format": "plumb-bundle", "version": 1,
  "tool": {"name": "plumb-bench", "version": "1"},
  "created": "2026-01-01T00:00:00Z",
  "spec": {},
  "repo": {
    "base": {"ref": "v1", "commit": "1" * 40},
    "candidate": {"ref": "HEAD", "commit": "2" * 40}},
  "build": {"method": "link", "padBytes": 16, "variants": []},
  "host": {"start": {}},
  "run": {"seed": 1, "rounds": 10, "warmup": {"runs": 0, "policy": "auto"}},
  "benches": [b]}, sys.stdout, indent=1)
PY

rm -f "$out/.analyze.json"
