#!/bin/sh
# bench/report.sh: the speed of `plumb report` (issue 8).
#
#   bench/report.sh [NIGHTS_BUNDLES]   (run from the build folder)
#
# 1. Makes two bundles with 50 benchmarks, 4 pads a side, 10 rounds and a
#    control: "process" (all 50 in process mode: 4,400 samples.tsv rows)
#    and "samples" (10 of them in samples mode, 1,000 iterations a round:
#    803,600 rows), packed with `plumb bundle pack`.  For each, times
#      - the report stage in-process (bench/report-render): one load, then
#        report_render() in each format, as `plumb run` calls it;
#      - `plumb report` as whole processes, in each format and all four in
#        a row, on the packed bundle (complete verification and the per-pad
#        distributions included), on the folder and on the bare manifest.
#                                                  target: all four < 1 s
#    And "many": 1,000,000 rows over 8,000 series (2,000 samples-mode
#    benchmarks, 2 pads a side), the case a series lookup per row made
#    quadratic (73 s for one HTML report).       target: each format < 2 s
# 2. Fills an archive through the real insert path (bench/archive-fill,
#    NIGHTS_BUNDLES bundles' rows over 100 hosts, default 100,000: 1,000
#    nights of "interp" per host) and times `plumb report --trend interp`
#    over the 1,000 points of one host in each format.   target: < 1 s
# Process figures are the median of 5 runs: the wall time of the whole
# process and its CPU time (user + sys), beside `plumb --version` (start-up
# alone): on a busy machine wall time is mostly waiting for a core.
set -eu

N=${1:-100000}
BUILD=$(pwd)
PLUMB=${PLUMB:-$BUILD/plumb}
FILL=$BUILD/bench/archive-fill
RENDER=$BUILD/bench/report-render
SRC=$(cd "$(dirname "$0")/.." && pwd)

test -x "$PLUMB" || { echo "report.sh: no $PLUMB; run make first" >&2; exit 1; }
for helper in "$FILL" "$RENDER"; do
	if ! test -x "$helper"; then
		make -s "bench/${helper##*/}" >/dev/null 2>&1 ||
			{ echo "report.sh: cannot build $helper" >&2; exit 1; }
	fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-report.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM

for kind in process samples many; do
	echo "making the $kind bundle..."
	PLUMB="$PLUMB" python3 "$SRC/bench/report-inputs.py" "$WORK/$kind" "$kind"
	"$PLUMB" bundle pack "$WORK/$kind" -o "$WORK/$kind.plumb" >/dev/null
	echo "  bundle: $(wc -c <"$WORK/$kind.plumb") bytes"
done

# Median wall and CPU milliseconds of 5 runs of a shell command line.
measure() {
	python3 - "$1" <<'PY'
import resource, statistics, subprocess, sys, time
walls, cpus = [], []
for _ in range(5):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(sys.argv[1], shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, sys.argv[1], p.stderr.decode()))
    walls.append((t1 - t0) * 1000)
    cpus.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
print("wall %7.1f ms  cpu %7.1f ms" % (statistics.median(walls), statistics.median(cpus)))
PY
}

row() {
	printf '  %-46s %s\n' "$1" "$(measure "$2")"
}

# The command line of four reports in a row, one per format.
all4() {
	echo "for f in text md json html; do \"$PLUMB\" report $1 --format \$f >/dev/null; done"
}

for kind in process samples many; do
	echo
	echo "report stage in-process, the $kind bundle (median of 21 renders):"
	"$RENDER" "$WORK/$kind.plumb" | sed "s/^/  /"
	echo
	echo "plumb report, the $kind bundle, whole processes (median of 5):"
	row "plumb --version (start-up only)" "\"$PLUMB\" --version"
	for src in "bundle:$WORK/$kind.plumb" "folder:$WORK/$kind" \
		   "manifest:$WORK/$kind/manifest.json"; do
		name=${src%%:*}
		path=${src#*:}
		for f in text md json html; do
			row "$name --format $f" "\"$PLUMB\" report \"$path\" --format $f"
		done
		row "$name: all four formats, one after another" "$(all4 "\"$path\"")"
	done
done

echo
echo "filling an archive with $N bundles' rows (100 hosts)..."
start=$(date +%s)
"$FILL" "$WORK/archive" "$N" >/dev/null
echo "  filled in $(( $(date +%s) - start )) s"
POINTS=$("$PLUMB" report --trend interp --format json --archive-dir "$WORK/archive" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["points"]))')
echo
echo "plumb report --trend interp, $POINTS points, whole processes (median of 5):"
row "plumb --version (start-up only)" "\"$PLUMB\" --version"
for f in text md json html; do
	row "--trend --format $f" "\"$PLUMB\" report --trend interp --format $f --archive-dir \"$WORK/archive\""
done
row "--trend: all four formats, one after another" \
	"$(all4 "--trend interp --archive-dir \"$WORK/archive\"")"
