#!/usr/bin/env bash
# bench/valgrind.sh: what counting under Valgrind costs, and how exact it
# is (issue 18's speed figures).
#
# Builds the examples interp and fnv in a git repository (base = v1,
# candidate = a commit that only changes a cold function), then for each:
#   - a wall-clock 4-pad sweep of both sides (plumb run, bench.NAME.counter
#     = hardware, so nothing runs under valgrind),
#   - the same sweep with bench.NAME.counter = valgrind: the wall-clock
#     rounds plus one valgrind run per variant, pad 0 twice,
# and prints both wall times, their ratio, the time the valgrind runs took
# (run.valgrind.ns), and the instruction counts' run-to-run difference:
# every pad 0 runs twice in a sweep ("in job", target: exactly 0), and the
# whole sweep is repeated REPEAT times ("jobs": the same variant across
# sweeps, whose run folders may differ in name length).
#
#   bench/valgrind.sh                      (from the build tree; PLUMB=path/to/plumb)
#   N=3000 ROUNDS=5 REPEAT=3 bench/valgrind.sh
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
PLUMB=${PLUMB:-$here/../plumb}
N=${N:-200000}              # interp's loop count
FNV_N=${FNV_N:-200}          # fnv's
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-2}
[ -x "$PLUMB" ] || { echo "valgrind.sh: no plumb at $PLUMB (set PLUMB=)" >&2; exit 2; }
for t in git make cc python3 valgrind; do
	command -v "$t" >/dev/null || { echo "valgrind.sh: needs $t" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plumb-valgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
unset MAKEFLAGS MFLAGS MAKELEVEL LDFLAGS || true

now() { date +%s.%N; }

# ---- the projects ----------------------------------------------------------
setup() {   # setup NAME ARTIFACT: the example in a repository, v1 and a second commit
	local name=$1
	mkdir -p "$tmp/$name"
	cp "$src/examples/$name/"*.c "$src/examples/$name/Makefile" "$tmp/$name/"
	chmod u+w "$tmp/$name"/*
	(
		cd "$tmp/$name"
		git init -q -b main .
		printf '%s\n' "$2" >.gitignore
		git add -A && git commit -q -m v1 && git tag v1
		printf '\n/* a later commit: a comment only */\n' >>"$name.c"
		git commit -q -a -m "a comment"
	)
}
setup interp interp
setup fnv fnv

conf() {   # conf NAME ARTIFACT ARGS COUNTER
	cat >"$tmp/$1-$4.conf" <<-EOF
	[repo]
		path = $tmp/$1
	[run]
		base = v1
		candidate = main
		pads = 4
		rounds = $ROUNDS
		warmupRuns = 1
	[build]
		command = make bench
		artifact = $2
	[bench "$1"]
		command = {artifact} $3
		counter = $4
	EOF
}

printf '%-7s %-9s %10s %10s %7s %8s %8s %8s %10s\n' bench counter "wall s" "valgrind s" ratio \
	"vg runs" "in job" "jobs" "Ir"
for spec in "interp interp $N" "fnv fnv $FNV_N"; do
	set -- $spec
	conf "$1" "$2" "$3" hardware
	conf "$1" "$2" "$3" valgrind
	t0=$(now)
	"$PLUMB" run --quiet -c "$tmp/$1-hardware.conf" --workdir "$tmp/wd" -o "$tmp/$1-hw.plumb" \
		>/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	t1=$(now)
	rm -rf "$tmp/vg.tsv"
	for ((k = 0; k < REPEAT; k++)); do
		t2=$(now)
		"$PLUMB" run --quiet -c "$tmp/$1-valgrind.conf" --workdir "$tmp/wd" -o "$tmp/$1-vg.plumb" \
			>/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		t3=$(now)
		rm -rf "$tmp/x" && "$PLUMB" bundle extract "$tmp/$1-vg.plumb" "$tmp/x" >/dev/null
		awk -F '\t' -v job="$k" '$6 == "vg-instructions" { print job "\t" $0 }' \
			"$tmp/x/samples.tsv" >>"$tmp/vg.tsv"
	done
	python3 - "$1" "$t0" "$t1" "$t2" "$t3" "$tmp/x/manifest.json" "$tmp/vg.tsv" <<-\EOF
	import json, sys
	name, t0, t1, t2, t3, mf, tsv = sys.argv[1:]
	wall = float(t1) - float(t0)
	vg = float(t3) - float(t2)
	m = json.load(open(mf))
	runs = m["run"]["valgrind"]["runs"]
	by, job = {}, {}
	for line in open(tsv):
	    k, b, side, pad, rnd, it, met, val = line.rstrip("\n").split("\t")
	    by.setdefault((side, pad), []).append(float(val))
	    job.setdefault((k, side, pad), []).append(float(val))
	within = max(max(v) - min(v) for v in job.values())
	spread = max(max(v) - min(v) for v in by.values())
	ir = sorted({v for vs in by.values() for v in vs})
	print("%-7s %-9s %10.2f %10s %7s %8s %8s %8s %10s" % (name, "hardware", wall, "-", "-", "-", "-", "-", "-"))
	print("%-7s %-9s %10.2f %10.2f %7.2f %8d %8.0f %8.0f %10.0f" % (name, "valgrind", vg,
	      m["run"]["valgrind"]["ns"] / 1e9, vg / wall, runs, within, spread, ir[0]))
	EOF
done
echo "in job: largest max - min of vg-instructions of one variant within one sweep (pad 0 runs twice)"
echo "jobs: the same over all $REPEAT sweeps (their run folders' names, and so the artifact's"
echo "      argument and environment sizes, may differ in length between jobs)"
