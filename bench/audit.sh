#!/bin/sh
# bench/audit.sh: the speed of `plumb audit` without --remeasure (issue 14):
# on a bundle of 10,000,000 samples (target: at most 2 s and 64 MB), made
# as bench/bundle.sh makes its bundle (bench/bundle-input.sh), and on the
# bundle `plumb demo` writes (target: under 100 ms), each in every format.
#
#   bench/audit.sh [SAMPLES]        (run from a built tree; default 10000000)
#
# Needs python3, awk, make, a C compiler and /usr/bin/time (Debian package
# `time`).
set -eu
n=${1:-10000000}
plumb=${PLUMB:-./plumb}
test -x "$plumb" || { echo "bench/audit.sh: run from a built tree (no $plumb)" >&2; exit 1; }
test -x /usr/bin/time || { echo "bench/audit.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
plumb=$(cd "$(dirname "$plumb")" && pwd)/$(basename "$plumb")
dir=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-audit.XXXXXX")
trap 'rm -rf "$dir"' EXIT

PLUMB="$plumb" "$(dirname "$0")/bundle-input.sh" "$n" "$dir/in"
"$plumb" bundle pack "$dir/in" -o "$dir/big.plumb" >/dev/null
echo "making the demo bundle..." >&2
(cd "$dir" && HOME="$dir" "$plumb" demo demo >/dev/null 2>&1)

. "$(dirname "$0")/time-of.sh"

# best_ms CMD...: the fastest of 10 runs, in ms (wall, from the shell's clock).
best_ms() {
	python3 - "$@" <<-\PY
	import subprocess, sys, time
	best = None
	for _ in range(10):
	    t = time.perf_counter()
	    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
	    d = time.perf_counter() - t
	    best = d if best is None or d < best else best
	print("%.1f ms" % (best * 1000))
	PY
}

sync
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average:        $load, on $(nproc) CPUs"
echo "big bundle:          $n samples, $(wc -c <"$dir/big.plumb") bytes"
/usr/bin/time -v "$plumb" bundle verify "$dir/big.plumb" >/dev/null 2>"$dir/verify.time"
echo "bundle verify:         $(time_of "$dir/verify.time")   (what every reader pays; for comparison)"
for f in text json; do
	/usr/bin/time -v "$plumb" audit "$dir/big.plumb" --format $f >/dev/null 2>"$dir/$f.time"
	echo "audit --format $f:   $(time_of "$dir/$f.time")   (targets <= 2 s, <= 64 MB)"
done
for f in text md html json; do
	echo "demo audit $f:        $(best_ms "$plumb" audit "$dir/demo/demo.plumb" --format $f)   (fastest of 10; target < 100 ms)"
done
