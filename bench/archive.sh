#!/bin/sh
# bench/archive.sh: the archive's speed with a years-old index (issue 7).
#
#   bench/archive.sh [N]      (run from the build folder; N defaults to 100000)
#
# Fills an archive with N bundles' rows through the real insert path
# (bench/archive-fill, linked with libplumb.a; rows only, no files), then
# times, as whole `plumb` processes:
#   archive list --bench X --last 100        target < 100 ms
#   archive baseline show NAME               target < 20 ms
#   archive trend X over 1,000 points        target < 100 ms
#   archive add of a small bundle            target < 50 ms
#   PRAGMA quick_check, which every writer runs once before it writes (in the add)
# and prints archive.db bytes per bundle.  Each figure is the median of 9
# runs: wall time and CPU time (user + sys) of the process, next to the
# same for `plumb --version` (process start-up alone), because on a busy
# machine wall time is mostly waiting for a core.
set -eu

N=${1:-100000}
BUILD=$(pwd)
PLUMB=${PLUMB:-$BUILD/plumb}
FILL=$BUILD/bench/archive-fill
SRC=$(cd "$(dirname "$0")/.." && pwd)

test -x "$PLUMB" || { echo "archive.sh: no $PLUMB; run make first" >&2; exit 1; }
if ! test -x "$FILL"; then
	make -s bench/archive-fill >/dev/null || { echo "archive.sh: cannot build $FILL" >&2; exit 1; }
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-archive.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
A=$WORK/archive

echo "filling $N bundles' rows (3 benchmarks, 2 labels each; 100 hosts)..."
start=$(date +%s)
"$FILL" "$A" "$N"
echo "  filled in $(( $(date +%s) - start )) s"

. "$(dirname "$0")/measure.sh"

# Without --host the trend lists every host class ("classes"); the first is
# the one with the most results.
FP=$("$PLUMB" archive trend interp --json --archive-dir "$A" |
	python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["classes"][0]["host"] if "classes" in j else j["host"])')
ID=$("$PLUMB" archive list --last 1 --json --archive-dir "$A" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
"$PLUMB" archive baseline set nightly "$ID" --archive-dir "$A" >/dev/null
POINTS=$("$PLUMB" archive trend interp --host "$FP" --json --archive-dir "$A" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["points"]))')

echo
echo "timings (median of 9), $N bundles in the index:"
row "plumb --version (start-up only)" "$PLUMB" --version
row "archive list --bench b3 --last 100" "$PLUMB" archive list --bench b3 --last 100 --archive-dir "$A"
row "archive list --bench interp --last 100" "$PLUMB" archive list --bench interp --last 100 --archive-dir "$A"
row "archive baseline show nightly" "$PLUMB" archive baseline show nightly --archive-dir "$A"
row "archive trend interp --host FP ($POINTS pts)" "$PLUMB" archive trend interp --host "$FP" --archive-dir "$A"
row "archive trend interp (default host)" "$PLUMB" archive trend interp --archive-dir "$A"

echo
echo "the same inside one process (open, query, render; no start-up), median of 21:"
"$FILL" --time "$A" "$FP"
echo

# add: a small real bundle, packed by plumb itself, added and removed in turn.
if "$PLUMB" help bundle pack >/dev/null 2>&1; then
	mkdir -p "$WORK/in"
	cp "$SRC/tests/fixtures/archive/bundle/manifest.json" "$SRC/tests/fixtures/archive/bundle/samples.tsv" "$WORK/in/"
	"$PLUMB" bundle pack "$WORK/in" -o "$WORK/small.plumb" >/dev/null
	SMALL_ID=$("$PLUMB" archive add "$WORK/small.plumb" --archive-dir "$A" | cut -c1-64)
	"$PLUMB" archive rm "$SMALL_ID" --archive-dir "$A" >/dev/null
	# Time the add alone: the rm that resets it runs outside the measurement.
	python3 - "$PLUMB" "$WORK/small.plumb" "$A" "$SMALL_ID" <<'EOF'
import os, resource, statistics, subprocess, sys, time
plumb, bundle, archive, bid = sys.argv[1:]
walls, cpus = [], []
for _ in range(9):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([plumb, "archive", "add", bundle, "--archive-dir", archive],
                   stdout=subprocess.DEVNULL, check=True)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    walls.append((t1 - t0) * 1000)
    cpus.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
    subprocess.run([plumb, "archive", "rm", bid, "--archive-dir", archive],
                   stdout=subprocess.DEVNULL, check=True)
print("%-44s wall %6.1f ms  cpu %6.1f ms" % ("archive add (%d-byte bundle)" % os.path.getsize(bundle),
      statistics.median(walls), statistics.median(cpus)))
EOF
	row "archive add of a bundle already there" "$PLUMB" archive add "$WORK/small.plumb" --archive-dir "$A"
else
	echo "archive add: skipped (this plumb has no 'bundle pack' to make a bundle)"
fi

# Fold the WAL into the database first, so the file holds everything.
python3 - "$A/archive.db" "$N" <<'EOF'
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
size = os.path.getsize(sys.argv[1])
print()
print("archive.db: %d bytes for %s bundles = %.0f bytes per bundle" % (size, sys.argv[2], size / int(sys.argv[2])))
EOF
