#!/bin/sh
# bench/bundle.sh: write and verify a bundle of 10,000,000 samples and
# print the figures the bundle format promises (issue 4): writing under
# 3 s, verifying under 2 s, at most 3 bytes per sample, verify's peak RSS
# under 64 MB; and, for comparison, the size of the same samples stored
# as pyperf stores them (JSON, values in seconds, gzip level 9).  Pack and
# verify run three times with each SHA-256 backend, interleaved
# (PLUMB_DIGEST=libsodium, then the default libcrypto); the figures are
# the medians, and the ratio is libsodium's time over libcrypto's.
#
#   bench/bundle.sh [SAMPLES]        (run from a built tree; default 10000000)
#
# Needs python3, awk and /usr/bin/time (Debian package `time`).  The input
# is generated here: one benchmark in samples mode, base and candidate,
# 4 pads, 10 rounds, SAMPLES / 80 iterations per round; each value is a
# per-iteration time in ns around 1.18 us with a pad offset of up to 1 %,
# a per-round drift of 0.3 %, log-normal noise of 2 % and 0.1 % outliers
# of 2x to 20x (timer interrupts, page faults), as integers.
set -eu
n=${1:-10000000}
plumb=${PLUMB:-./plumb}
test -x "$plumb" || { echo "bench/bundle.sh: run from a built tree (no $plumb)" >&2; exit 1; }
test -x /usr/bin/time || { echo "bench/bundle.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-bundle.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/in"

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
}' >"$dir/in/samples.tsv"
rows=$(($(wc -l <"$dir/in/samples.tsv") - 1))

# The manifest's figures are those the samples give (bundle verify
# recomputes them), taken from plumb analyze.
"$plumb" analyze --json "$dir/in/samples.tsv" >"$dir/analyze.json"
python3 - "$dir/analyze.json" >"$dir/in/manifest.json" <<\PY
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

# time_of FILE: wall time, CPU time (both threads) and peak RSS from `time -v`.
time_of() {
	awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
			for (k = 1; k <= n; k++) s = s * 60 + t[k]; el = s }
		/User time/ { u = $2 } /System time/ { sy = $2 }
		/Maximum resident set size/ { rss = $2 }
		END { printf "%.2f s wall (%.2f s CPU), peak RSS %.1f MB", el, u + sy, rss / 1024 }' "$1"
}

sync
load=$(cut -d' ' -f1-3 /proc/loadavg)
# wall FILE: the elapsed seconds of a `time -v` report.
wall() {
	awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
		for (k = 1; k <= n; k++) s = s * 60 + t[k]; print s }' "$1"
}
for i in 1 2 3; do
	for backend in libsodium libcrypto; do
		rm -f "$dir/b.plumb"
		PLUMB_DIGEST=$backend /usr/bin/time -v "$plumb" bundle pack "$dir/in" -o "$dir/b.plumb" \
			>/dev/null 2>"$dir/pack.$backend.$i.time"
		PLUMB_DIGEST=$backend /usr/bin/time -v "$plumb" bundle verify "$dir/b.plumb" \
			>/dev/null 2>"$dir/verify.$backend.$i.time"
	done
done
# median STAGE BACKEND: the run (1-3) with the median wall time, as its time file.
median() {
	for i in 1 2 3; do echo "$(wall "$dir/$1.$2.$i.time") $i"; done | sort -n | sed -n 2p |
		{ read -r _ i; echo "$dir/$1.$2.$i.time"; }
}
for stage in pack verify; do
	for backend in libsodium libcrypto; do
		cp "$(median $stage $backend)" "$dir/$stage.$backend.time"
	done
done
cp "$dir/pack.libcrypto.time" "$dir/pack.time"
cp "$dir/verify.libcrypto.time" "$dir/verify.time"
size=$(wc -c <"$dir/b.plumb")
tsv=$(wc -c <"$dir/in/samples.tsv")

echo "pyperf-style JSON + gzip of the same samples..." >&2
python3 - "$dir/in/samples.tsv" "$dir/pyperf.json.gz" <<\PY
import csv, gzip, json, sys
runs = {}
with open(sys.argv[1]) as f:
    r = csv.reader(f, delimiter="\t")
    next(r)
    for bench, side, pad, rnd, it, metric, value in r:
        runs.setdefault((bench, side), {}).setdefault((pad, rnd), []).append(int(value) * 1e-9)
suite = {"version": "1.0", "metadata": {}, "benchmarks": []}
for (bench, side), by_run in runs.items():
    suite["benchmarks"].append({
        "metadata": {"name": "%s-%s" % (bench, side), "unit": "second"},
        "runs": [{"metadata": {"pad": int(p), "round": int(k)}, "values": v}
                 for (p, k), v in by_run.items()]})
with gzip.open(sys.argv[2], "wt", compresslevel=9) as f:
    json.dump(suite, f)
PY
gz=$(wc -c <"$dir/pyperf.json.gz")

echo "load average:        $load before packing, on $(nproc) CPUs"
echo "samples:             $rows ($tsv bytes of samples.tsv)"
echo "bundle pack:         $(time_of "$dir/pack.time")   (target < 3 s)"
echo "bundle verify:       $(time_of "$dir/verify.time")   (targets < 2 s, < 64 MB)"
for stage in pack verify; do
	s=$(wall "$dir/$stage.libsodium.time") c=$(wall "$dir/$stage.libcrypto.time")
	awk -v st="$stage" -v s="$s" -v c="$c" 'BEGIN {
		printf "SHA-256 in %-7s   libsodium %.2f s, libcrypto %.2f s: %.2fx (medians of 3, interleaved)\n",
			st ":", s, c, (c > 0 ? s / c : 0) }'
done
awk -v s="$size" -v g="$gz" -v n="$rows" 'BEGIN {
	printf "bundle size:         %d bytes, %.2f bytes/sample   (target <= 3)\n", s, s / n;
	printf "pyperf JSON + gzip:  %d bytes, %.2f bytes/sample   (%.1fx the bundle)\n", g, g / n, g / s }'
