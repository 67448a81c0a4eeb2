#!/usr/bin/env bash
# bench/bisect.sh: what `plumb bisect` of the 128-commit history costs
# (issue 16's speed target: its builds within ceil(log2 N) + 3 clean
# builds' worth of time; the total wall time printed).
#
# Generates the history of t1050 (tests/integration/lib-bisect.sh: 128
# commits after the good end, one planted slowdown, code moves and comment
# changes), times one clean build of one commit as plumb builds it (every
# pad variant, from an empty build cache: `plumb run --build-only
# --no-cache` of two commits, halved, the median of CLEAN=5), then runs
# the bisect from an empty cache and prints its wall time, the time its builds took (check-out and
# builds, restores from the cache included), how many variants it built
# and restored, and the builds' time against ceil(log2 N) + 3 clean builds.
# Then where that time went (the bisect JSON's builds members): before the
# builds (host facts), check-outs, fresh builds, the controls (built, and
# reused from an earlier comparison of the bisect), restores from the
# build cache, and the rest (pad objects, build workers, the checks of the
# artifacts).  The parts are each variant's own time, summed: two build at
# once, so they can add up to more than the wall time they took.
#
#   bench/bisect.sh                      (from the build tree; PLUMB=path/to/plumb)
#   METRIC=wall PADS=auto bench/bisect.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
PLUMB=${PLUMB:-$here/../plumb}
case $PLUMB in /*) ;; */*) PLUMB=$(cd "$(dirname "$PLUMB")" && pwd)/$(basename "$PLUMB") ;; esac
N=${N:-128}
PLANT=${PLANT:-79}
METRIC=${METRIC:-instructions}   # counts do not move with a shared machine's load
PADS=${PADS:-6}
ROUNDS=${ROUNDS:-3}
[ -x "$PLUMB" ] || { echo "bisect.sh: no plumb at $PLUMB (set PLUMB=)" >&2; exit 2; }
for t in git make cc python3; do
	command -v "$t" >/dev/null || { echo "bisect.sh: needs $t" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bisect.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset MAKEFLAGS MFLAGS MAKELEVEL LDFLAGS || true
export XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" XDG_DATA_HOME="$tmp/data"
export PLUMB_LOCK="$tmp/lock"

now() { date +%s.%N; }
sub() { python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }

cd "$tmp"
. "$src/tests/integration/lib-bisect.sh"
make_history repo "$N" "$PLANT" >/dev/null
bisect_conf plumb.conf repo.path=repo run.pads="$PADS" run.rounds="$ROUNDS" run.warmupRuns=0 \
	bench.loop.metric="$METRIC" "bench.loop.command={artifact} 1000000"
echo "history: $N commits after the good end, the slowdown planted at commit $PLANT"
echo "config: metric $METRIC, run.pads = $PADS, run.rounds = $ROUNDS; load $(cut -d' ' -f1-3 /proc/loadavg)"

# One clean build of one commit, every pad variant, nothing cached: two
# commits (plus the control, a relink) built with --no-cache, halved; the
# median of CLEAN such builds (default 5; one alone moves by a third with
# the machine's load), each in a work folder of its own, none the bisect's
# (the bisect assembles its own pad objects).
CLEAN=${CLEAN:-5}
# A bisect's step builds one new commit, its pads one after another in the
# commit's one folder: the yardstick builds its two commits one after the
# other too (CLEAN_JOBS=1), not side by side, which would halve to less
# than one commit's clean build on two cores (CLEAN_JOBS=2 shows that one).
CLEAN_JOBS=${CLEAN_JOBS:-1}
: >clean.txt
i=0
while [ "$i" -lt "$CLEAN" ]; do
	t0=$(now)
	"$PLUMB" run --build-only --no-cache --jobs "$CLEAN_JOBS" --workdir "$tmp/wd-clean-$i" \
		--base good --candidate main --json >clean.json 2>/dev/null
	t1=$(now)
	python3 -c "import json, sys; print((float(sys.argv[2]) - float(sys.argv[1])) / 2, json.load(open('clean.json'))['seconds'] / 2)" \
		"$t0" "$t1" >>clean.txt
	i=$((i + 1))
done
set -- $(python3 -c "import statistics; r = [l.split() for l in open('clean.txt')]; print('%.3f %.3f' % (statistics.median(float(a) for a, _ in r), statistics.median(float(b) for _, b in r)))")
clean=$1 stage=$2
echo "one clean build of one commit ($PADS pads): ${clean} s, the median of $CLEAN (plumb run --jobs $CLEAN_JOBS of two commits, the whole process, halved; its build stage alone ${stage} s)"

t0=$(now)
status=0
"$PLUMB" bisect --good good --bad main --workdir "$tmp/wd" -o "$tmp/out" --format json >bisect.json \
	2>bisect.err || status=$?
t1=$(now)
wall=$(sub "$t0" "$t1")
python3 - bisect.json "$wall" "$clean" "$N" "$status" "$stage" <<'PY'
import json, math, sys
j = json.load(open(sys.argv[1]))
wall, clean, n, status = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
stage = float(sys.argv[6])
r = j["result"]
b = r["builds"]
builds = b["buildNs"] / 1e9
limit = math.ceil(math.log2(n)) + 3
print("bisect: exit %d, %s" % (status, r["summary"]))
print("comparisons: %d (at most %d)" % (r["comparisons"], r["limit"]))
print("total wall time: %.2f s" % wall)
print("builds: %.2f s (%d variants built, %d restored from the cache)" % (builds, b["built"], b["cached"]))
print("measuring: %.2f s" % (sum(s["measureNs"] for s in j["steps"]) / 1e9))
print("builds / clean build: %.2f (target: at most ceil(log2 %d) + 3 = %d): %s" %
      (builds / clean, n, limit, "met" if builds <= limit * clean else "NOT met"))
# The same question with both sides measured alike: plumb's build stage
# (check-out, pad objects, builds, restores, checks) in the bisect, without
# the host facts each comparison reads first, against the build stage of
# the clean build (its "seconds"), without plumb's start-up.
staged = (b["buildNs"] - b["setupNs"]) / 1e9
print("build stage / clean build stage: %.2f (%.2f s against %.3f s): %s" %
      (staged / stage, staged, stage, "met" if staged <= limit * stage else "NOT met"))
ms = lambda k: b[k] / 1e6
print("where the builds' time went (each variant's own time, summed):")
print("  before the builds (host facts): %7.1f ms" % ms("setupNs"))
print("  check-outs (%2d):                %7.1f ms" % (2 * r["comparisons"], ms("checkoutNs")))
print("  fresh builds (%3d variants):    %7.1f ms" % (b["built"] - b["controls"], ms("freshNs")))
print("  controls built (%2d; %d reused): %7.1f ms" % (b["controls"], b["controlsReused"], ms("controlNs")))
print("  restores (%3d):                 %7.1f ms" % (b["cached"] + b["controlsReused"], ms("restoreNs")))
print("  the rest (pad objects, workers, checks): %.1f ms" %
      (ms("buildNs") - ms("setupNs") - ms("checkoutNs") - ms("freshNs") - ms("controlNs") - ms("restoreNs")))
PY
