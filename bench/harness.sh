#!/bin/sh
# bench/harness.sh: what plumb's measuring costs and how faithful it is,
# against hyperfine (Debian's, `apt-get install hyperfine`).
#
#   bench/harness.sh [PLUMB]        (default: ./plumb of this tree)
#
# 1. Overhead: plumb measures /bin/true for 1000 rounds (2 variants, so
#    2000 runs) and `hyperfine -N --runs 1000 true` does the same; printed:
#    wall time per measured run of each (plumb: the measuring phase, and the
#    whole command including its two builds).  Target: plumb's per-run wall
#    time at most hyperfine's.
# 2. Fidelity: the same CPU-bound binary (about 20 ms of work) timed by both,
#    three times each (plumb: median over rounds; hyperfine: its median);
#    printed: each tool's medians, their spread (max - min of the three),
#    and whether the two tools' medians agree within that spread.
# 3. The demo: `plumb demo` in a fresh folder; its whole sweep time.
#
# Everything is generated in a temporary folder, removed at the end.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
PLUMB=${1:-$here/plumb}
command -v hyperfine >/dev/null 2>&1 || { echo "harness.sh: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "harness.sh: needs python3" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/plumb-harness.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
export XDG_CACHE_HOME="$work/cache" GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b \
	GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b
now() { python3 -c 'import time; print(time.monotonic_ns())'; }

# A project with a CPU-bound program: spin N iterations of an LCG.
mkdir proj && cd proj
git init -q .
cat >spin.c <<'SRC'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000, x = 1;
	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	printf("checksum=%016llx\n", (unsigned long long)x);
	return 0;
}
SRC
printf 'spin: spin.c\n\t$(CC) -O2 $(LDFLAGS) -o $@ spin.c\n' >Makefile
git add -A && git commit -q -m one && git commit -q --allow-empty -m two
cat >true.conf <<'CONF'
[run]
	base = HEAD~1
	candidate = HEAD
	pads = 1
	control = false
	warmupRuns = 0
	rounds = 1000
[build]
	command = make
	artifact = spin
	pad = none
[bench "true"]
	command = /bin/true
	checksum = off
CONF
cd ..

echo "== overhead: /bin/true"
t0=$(now)
"$PLUMB" run -c proj/true.conf -o true.plumb --json >true.json 2>/dev/null
t1=$(now)
hyperfine -N --runs 1000 --export-json hf-true.json true >/dev/null 2>&1
t2=$(now)
python3 - "$t0" "$t1" "$t2" <<'PY'
import json, sys
t0, t1, t2 = map(int, sys.argv[1:])
p = json.load(open("true.json"))
h = json.load(open("hf-true.json"))["results"][0]
runs = p["runs"]
plumb_run = p["measureNs"] / runs / 1e3
plumb_all = (t1 - t0) / runs / 1e3
hf_all = (t2 - t1) / 1000 / 1e3
print("plumb: %d runs; measuring phase %.1f us per run; whole command %.1f us per run "
      "(builds %.2f s)" % (runs, plumb_run, plumb_all, p["buildNs"] / 1e9))
print("plumb: median time of /bin/true as measured: %.1f us" %
      (p["benches"][0]["sides"]["base"]["center"] / 1e3))
print("hyperfine -N --runs 1000 true: whole command %.1f us per run; its median %.1f us" %
      (hf_all, h["median"] * 1e6))
print("overhead target (plumb per-run wall <= hyperfine's): %s" %
      ("met" if plumb_run <= hf_all else "NOT met"))
PY

echo "== fidelity: spin 30000000 (CPU-bound)"
sed -e 's|command = /bin/true|command = {artifact} 30000000|' -e 's/rounds = 1000/rounds = 15/' \
	-e 's/checksum = off/checksum = auto/' proj/true.conf >proj/spin.conf
( cd proj && make -s spin >/dev/null )
for i in 1 2 3; do
	"$PLUMB" run -c proj/spin.conf -o spin$i.plumb --json >spin$i.json 2>/dev/null
	hyperfine -N --warmup 1 --runs 15 --export-json hf-spin$i.json "proj/spin 30000000" >/dev/null 2>&1
done
python3 - <<'PY'
import json
p = [json.load(open("spin%d.json" % i))["benches"][0]["sides"]["base"]["center"] / 1e6 for i in (1, 2, 3)]
h = [json.load(open("hf-spin%d.json" % i))["results"][0]["median"] * 1e3 for i in (1, 2, 3)]
sp, sh = max(p) - min(p), max(h) - min(h)
mp, mh = sorted(p)[1], sorted(h)[1]
print("plumb medians (ms):     " + "  ".join("%.2f" % x for x in p) + "   spread %.2f" % sp)
print("hyperfine medians (ms): " + "  ".join("%.2f" % x for x in h) + "   spread %.2f" % sh)
print("middle medians: plumb %.2f ms, hyperfine %.2f ms, difference %.2f ms; "
      "agree within the larger spread (%.2f ms): %s" %
      (mp, mh, abs(mp - mh), max(sp, sh), "yes" if abs(mp - mh) <= max(sp, sh) else "no"))
PY

echo "== the demo"
# The example sources of this tree (a VPATH build keeps them in the source folder).
PLUMB_EXAMPLES=${PLUMB_EXAMPLES:-$here/examples}
export PLUMB_EXAMPLES
mkdir demo && ( cd demo && "$PLUMB" demo d >out 2>err ) || { cat demo/err >&2; exit 1; }
grep "the whole sweep" demo/err | sed 's/^plumb demo: //'
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
