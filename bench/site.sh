#!/bin/sh
# bench/site.sh: the speed and size of `plumb report --archive-index`
# (docs/archive-index.md) over a big archive of several host classes.
#
#   bench/site.sh [NIGHTS] [BENCHES] [CLASSES]   (run from the build folder;
#                                                 defaults 365, 50 and 3)
#
# Fills an archive through the real insert path
# (tests/integration/archive-nights; rows only) with NIGHTS nights of
# BENCHES benchmarks on each of CLASSES host classes, then times, as whole
# `plumb` processes (median of 9, wall and CPU):
#   archive hosts
#   report --archive-index -o DIR/   (CLASSES * BENCHES + CLASSES + 1 pages)
# and prints the folder's size.
set -eu

NIGHTS=${1:-365}
BENCHES=${2:-50}
CLASSES=${3:-3}
BUILD=$(pwd)
PLUMB=${PLUMB:-$BUILD/plumb}
FILL=$BUILD/tests/integration/archive-nights

test -x "$PLUMB" || { echo "site.sh: no $PLUMB; run make first" >&2; exit 1; }
if ! test -x "$FILL"; then
	make -s tests/integration/archive-nights >/dev/null ||
		{ echo "site.sh: cannot build $FILL" >&2; exit 1; }
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-site.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
A=$WORK/archive

echo "filling $CLASSES classes of $NIGHTS nights of $BENCHES benchmarks..."
start=$(date +%s)
c=0
while test $c -lt "$CLASSES"; do
	"$FILL" "$A" "$NIGHTS" "$BENCHES" -s $((c + 1)) -H "$(printf 'c1a55%011x' $c)" \
		-c "CPU model $c" -i $((c * NIGHTS + 1)) b0@$((NIGHTS / 2)):10
	c=$((c + 1))
done
echo "  filled in $(( $(date +%s) - start )) s"

. "$(dirname "$0")/measure.sh"

"$PLUMB" report --archive-index -o "$WORK/site" --archive-dir "$A"
echo "  $(du -sk "$WORK/site" | cut -f1) kB"

echo
echo "timings (median of 9):"
row "archive hosts ($CLASSES classes)" "$PLUMB" archive hosts --archive-dir "$A"
row "report --archive-index ($((CLASSES * BENCHES)) series of $NIGHTS nights)" \
	"$PLUMB" report --archive-index -o "$WORK/site" --archive-dir "$A"
