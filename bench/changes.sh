#!/bin/sh
# bench/changes.sh: the speed of change point detection over a big archive
# (docs/changes.md).
#
#   bench/changes.sh [NIGHTS] [BENCHES]   (run from the build folder;
#                                          defaults 2000 and 50)
#
# Fills an archive, through the real insert path
# (tests/integration/archive-nights; rows only, no files), with NIGHTS
# nights of BENCHES benchmarks on one host: 2,000 nights of 50 benchmarks
# are 100,000 archived nights of a benchmark, each with 4 pad medians and
# 5% placement noise, and three planted steps.  Then times, as whole
# `plumb` processes (median of 9, wall and CPU):
#   archive changes                     target < 1 s
#   archive trend b0 (NIGHTS points)
#   report --trend b0 --fail-on change
# and checks that exactly the planted steps were found.
set -eu

NIGHTS=${1:-2000}
BENCHES=${2:-50}
BUILD=$(pwd)
PLUMB=${PLUMB:-$BUILD/plumb}
FILL=$BUILD/tests/integration/archive-nights

test -x "$PLUMB" || { echo "changes.sh: no $PLUMB; run make first" >&2; exit 1; }
if ! test -x "$FILL"; then
	make -s tests/integration/archive-nights >/dev/null ||
		{ echo "changes.sh: cannot build $FILL" >&2; exit 1; }
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-changes.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
A=$WORK/archive

echo "filling $NIGHTS nights of $BENCHES benchmarks ($((NIGHTS * BENCHES)) archived nights)..."
start=$(date +%s)
"$FILL" "$A" "$NIGHTS" "$BENCHES" b0@$((NIGHTS / 3)):3 b0@$((NIGHTS * 2 / 3)):10 b7@$((NIGHTS / 2)):-5
echo "  filled in $(( $(date +%s) - start )) s"

. "$(dirname "$0")/measure.sh"
# report --trend --fail-on change exits 1 when the latest nights start a change.
MEASURE_OK="0 1"

FOUND=$("$PLUMB" archive changes --json --archive-dir "$A" |
	python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["nights"], len(j["changes"]), " ".join(c["bench"] + ":" + c["direction"] for c in j["changes"]))')
echo "archive changes: $FOUND (nights tested, change points, which; planted: b0 up twice, b7 down)"

echo
echo "timings (median of 9):"
row "plumb --version (start-up only)" "$PLUMB" --version
row "archive changes ($((NIGHTS * BENCHES)) nights)" "$PLUMB" archive changes --archive-dir "$A"
row "archive trend b0 ($NIGHTS points)" "$PLUMB" archive trend b0 --archive-dir "$A"
row "report --trend b0 --fail-on change" "$PLUMB" report --trend b0 --fail-on change --archive-dir "$A"
