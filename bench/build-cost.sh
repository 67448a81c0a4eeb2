#!/usr/bin/env bash
# bench/build-cost.sh: what the builds of a 4-pad sweep cost, against one
# clean build of one side (issue 5's speed target: 4 pads x 2 sides +
# control with build.reuse = relink within 2.5 x one clean build), and what
# the build cache saves a nightly run (issue 20's target: an unchanged base
# against a new candidate within 0.6 x the same run without the cache).
#
# Generates a make-based C project of at least 20,000 lines in a git
# repository (base = v1, candidate = a commit that changes one function),
# times one clean build of one side with the same build command, then
# `plumb run --build-only --no-cache` with reuse = relink, with reuse =
# relink and no control, and with reuse = none.  Then the nightly case:
# the cache filled by one run, a new candidate commit, and the run of the
# new candidate timed with the cache and with --no-cache, interleaved
# (NIGHTS times each; medians).  Then the builds one at a time against side
# by side (build.jobs; REPS times each, medians).  Prints the wall times and
# the ratios.
#
#   bench/build-cost.sh                 (from the build tree; PLUMB=path/to/plumb)
#   FILES=120 JOBS=2 bench/build-cost.sh
#   ONLY=parallel REPS=3 bench/build-cost.sh   (only the parallel builds)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PLUMB=${PLUMB:-$here/../plumb}
FILES=${FILES:-70}           # C files of about 320 lines each
JOBS=${JOBS:-$(nproc)}       # make -jJOBS, for the clean build and for plumb's builds
PADS=${PADS:-4}
NIGHTS=${NIGHTS:-3}          # nightly runs timed with and without the cache
REPS=${REPS:-2}              # parallel builds: sweeps timed with --jobs 1 and with the CPUs
PAR_COMMAND=${PAR_COMMAND:-make}   # the build command of the parallel-builds part
ONLY=${ONLY:-}               # ONLY=parallel: only the parallel-builds part
[ -x "$PLUMB" ] || { echo "build-cost.sh: no plumb at $PLUMB (set PLUMB=)" >&2; exit 2; }
for t in git make cc python3; do
	command -v "$t" >/dev/null || { echo "build-cost.sh: needs $t" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plumb-build-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset MAKEFLAGS MFLAGS MAKELEVEL LDFLAGS || true
export XDG_CACHE_HOME="$tmp/cache"   # a cache of its own, never the user's

now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }
ratio() { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }

# ---- the project -----------------------------------------------------------
proj=$tmp/proj
mkdir -p "$proj"
cd "$proj"
git init -q -b main .
{
	echo '#ifndef COMMON_H'
	echo '#define COMMON_H'
	echo 'long mix(long a, long b);'
	for ((i = 0; i < FILES; i++)); do printf 'long module_%03d(long n);\n' "$i"; done
	echo '#endif'
} >common.h
for ((i = 0; i < FILES; i++)); do
	awk -v m="$i" 'BEGIN {
		printf "/* module %03d: generated arithmetic, enough to keep a compiler busy */\n", m
		print "#include \"common.h\""
		print ""
		for (f = 0; f < 10; f++) {
			printf "static long step_%03d_%d(long x, long y)\n{\n", m, f
			print "\tlong acc = x ^ y;"
			for (k = 0; k < 8; k++) {
				printf "\tacc = acc * %d + (y >> %d);\n", 3 + 2 * k + f, (k + f) % 7 + 1
				printf "\tif (acc & %d)\n\t\tacc ^= x + %d;\n", 1 + k * 4, k + m
			}
			print "\treturn acc + mix(acc, y);"
			print "}"
			print ""
		}
		printf "long module_%03d(long n)\n{\n\tlong s = %d;\n", m, m
		for (f = 0; f < 10; f++)
			printf "\ts = step_%03d_%d(s, n + %d);\n", m, f, f
		print "\treturn s;"
		print "}"
	}' >"m$(printf %03d "$i").c"
done
{
	echo '#include <stdio.h>'
	echo '#include "common.h"'
	echo 'long mix(long a, long b) { return (a * 31) ^ (b + 7); }'
	echo '__attribute__((noinline)) long run(long n)'
	echo '{'
	echo '	long s = 0;'
	for ((i = 0; i < FILES; i++)); do printf '\ts += module_%03d(n + s);\n' "$i"; done
	echo '	return s;'
	echo '}'
	echo 'int main(void) { printf("%ld\n", run(1000)); return 0; }'
} >main.c
{
	echo 'CFLAGS = -O2 -g'
	echo 'SRCS = main.c $(wildcard m[0-9][0-9][0-9].c)'
	echo 'OBJS = $(SRCS:.c=.o)'
	echo 'bench: $(OBJS)'
	printf '\t$(CC) $(LDFLAGS) -o $@ $(OBJS)\n'
	echo '$(OBJS): common.h'
} >Makefile
printf 'bench\n*.o\n' >.gitignore
git add -A
git commit -q -m "generated project"
git tag v1
sed -i 's/return (a \* 31) ^ (b + 7);/return (a * 33) ^ (b + 7);/' main.c
git commit -q -a -m "candidate: change one function"
lines=$(cat ./*.c ./*.h Makefile | wc -l)
if [ "$lines" -lt 20000 ]; then
	echo "build-cost.sh: only $lines lines; raise FILES" >&2
	exit 2
fi

command="make -j$JOBS"
conf() {   # conf FILE CONTROL REUSE
	cat >"$1" <<CONF
[repo]
	path = $proj
[run]
	base = v1
	candidate = main
	pads = $PADS
	control = $2
[build]
	command = $command
	artifact = bench
	reuse = $3
[bench "gen"]
	command = {artifact}
	hot = run
CONF
}
conf "$tmp/relink.conf" true relink
conf "$tmp/relink-nocontrol.conf" false relink
conf "$tmp/none.conf" true none

echo "project: $FILES files, $lines lines of C and make; build command: $command; $(nproc) CPUs"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- one clean build of one side --------------------------------------------
# Measured again before each sweep: on a shared machine the load drifts, and
# each sweep is compared with the clean build timed just before it.
clean_build() {
	local t0 t1
	rm -rf "$tmp/clean"
	mkdir "$tmp/clean"
	git -C "$proj" archive v1 | tar -x -C "$tmp/clean"
	t0=$(now)
	(cd "$tmp/clean" && $command >/dev/null)
	t1=$(now)
	elapsed "$t0" "$t1"
}

# ---- sweeps -----------------------------------------------------------------
if [ "$ONLY" != parallel ]; then
sweep() {   # sweep LABEL CONF
	local t0 t1 total clean
	clean=$(clean_build)
	t0=$(now)
	"$PLUMB" run --build-only --no-cache --json --workdir "$tmp/wd" -c "$2" \
		>"$tmp/out.json" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	t1=$(now)
	total=$(elapsed "$t0" "$t1")
	python3 - "$tmp/out.json" "$1" "$total" "$clean" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
label, total, clean = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
v = j["variants"]
full = [x for x in v if not x["relinked"]]
rel = [x for x in v if x["relinked"]]
fsum = sum(x["build_seconds"] for x in full)
print("%s" % label)
print("    one clean build just before: %6.2f s" % clean)
print("    plumb run --build-only:      %6.2f s = %.2f x that clean build" % (total, total / clean))
print("    %d variants: %d full builds (%.2f s, mean %.2f s), %d relinks (%.2f s), copies %.2f s;"
      % (len(v), len(full), fsum, fsum / len(full), len(rel),
         sum(x["build_seconds"] for x in rel), sum(x["prepare_seconds"] for x in v)))
print("    = %.2f x the mean full build inside the sweep; shift check: %s"
      % (total / (fsum / len(full)), j["shift"]["status"]))
PY
}
sweep "$PADS pads x 2 sides + control, reuse = relink" "$tmp/relink.conf"
sweep "$PADS pads x 2 sides, no control, reuse = relink" "$tmp/relink-nocontrol.conf"
sweep "$PADS pads x 2 sides + control, reuse = none" "$tmp/none.conf"

# ---- the nightly case: an unchanged base, a new candidate ----------------------
timed() {   # timed ARGS...: wall seconds of one plumb run --build-only
	local t0 t1
	t0=$(now)
	"$PLUMB" run --build-only --workdir "$tmp/wd" -c "$tmp/relink.conf" "$@" \
		>"$tmp/night.out" 2>"$tmp/night.err" || { cat "$tmp/night.err" >&2; exit 1; }
	t1=$(now)
	elapsed "$t0" "$t1"
}
"$PLUMB" cache prune --all >/dev/null
timed >/dev/null   # last night: fills the cache with v1 and main
cached=() uncached=()
for ((n = 1; n <= NIGHTS; n++)); do
	sed -i "s/return (a \* [0-9]*) ^ (b + 7);/return (a * $((33 + 2 * n))) ^ (b + 7);/" "$proj/main.c"
	git -C "$proj" commit -q -a -m "candidate of night $n"
	# Each night's candidate is new to both runs: the uncached run first,
	# then the cached one (which builds the candidate and restores the base).
	uncached+=("$(timed --no-cache)")
	cached+=("$(timed)")
	grep -q "b00: restored from the build cache" "$tmp/night.err" ||
		{ echo "build-cost.sh: the nightly run did not restore the base" >&2; exit 1; }
	if grep -q "c00: restored" "$tmp/night.err"; then
		echo "build-cost.sh: the new candidate was restored" >&2
		exit 1
	fi
done
python3 - "${uncached[*]}" "${cached[*]}" <<'PY'
import statistics, sys
u = [float(x) for x in sys.argv[1].split()]
c = [float(x) for x in sys.argv[2].split()]
mu, mc = statistics.median(u), statistics.median(c)
print("nightly case: base v1 unchanged (restored from the cache), a new candidate each night")
print("    without the cache (--no-cache): %s s, median %.2f s" % (" ".join("%.2f" % x for x in u), mu))
print("    with the cache:                 %s s, median %.2f s" % (" ".join("%.2f" % x for x in c), mc))
print("    = %.2f x the uncached run (target: at most 0.60)" % (mc / mu))
PY
fi

# ---- parallel builds: build.jobs = 1 against build.jobs = CPUs ------------------
# The same sweep (no cache) with the builds one after another and side by
# side, taking turns, REPS times each; with PAR_COMMAND (default: plain
# make, one compiler at a time, as many projects' builds are) so that the
# sides' builds have CPUs to share.
par_timed() {   # par_timed CONF JOBS: wall seconds of plumb run --build-only
	local t0 t1
	t0=$(now)
	"$PLUMB" run --build-only --no-cache --jobs "$2" --workdir "$tmp/wd" -c "$1" \
		>"$tmp/par.out" 2>"$tmp/par.err" || { cat "$tmp/par.err" >&2; exit 1; }
	t1=$(now)
	elapsed "$t0" "$t1"
}
command=$PAR_COMMAND
conf "$tmp/par-relink.conf" true relink
conf "$tmp/par-none.conf" true none
echo "parallel builds: build command $command, $PADS pads x 2 sides + control, --jobs 1 against --jobs $(nproc), $REPS times each, taking turns"
echo "    load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for reuse in relink none; do
	one=() many=()
	for ((n = 1; n <= REPS; n++)); do
		if ((n % 2)); then
			one+=("$(par_timed "$tmp/par-$reuse.conf" 1)")
			many+=("$(par_timed "$tmp/par-$reuse.conf" "$(nproc)")")
		else
			many+=("$(par_timed "$tmp/par-$reuse.conf" "$(nproc)")")
			one+=("$(par_timed "$tmp/par-$reuse.conf" 1)")
		fi
	done
	python3 - "$reuse" "${one[*]}" "${many[*]}" <<'PY'
import statistics, sys
reuse, a, b = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
ma, mb = statistics.median(a), statistics.median(b)
print("    reuse = %s: one at a time %s s (median %.2f), side by side %s s (median %.2f): %.2f x faster"
      % (reuse, " ".join("%.2f" % x for x in a), ma, " ".join("%.2f" % x for x in b), mb, ma / mb))
PY
	echo "    load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
