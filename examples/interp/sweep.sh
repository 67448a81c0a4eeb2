#!/bin/sh
# examples/interp/sweep.sh: a pad sweep of interp by hand, the way plumb
# does it (DESIGN §5.2), to see its placement sensitivity without plumb.
#
#   ./sweep.sh [-p PADS] [-b BYTES] [-r ROUNDS] [-n N] [-k]
#
# Builds interp at PADS pads (default 4) of BYTES bytes (default 16): an
# assembly file with K*BYTES bytes of nops in .text.unlikely.plumb_pad,
# assembled with $CC -c and put first in LDFLAGS.  Checks with nm that run()
# moved by exactly K*BYTES.  Adds a control: a second copy of the pad-0
# binary, whose difference from pad 0 is run-to-run noise.  Then times
# `interp N` in ROUNDS rounds (default 15), each round running every
# variant once with `hyperfine -N --runs 1`, the order rotated per round so
# that drift in the machine's load hits every variant alike.
#
# Prints one row per variant: run()'s address, the median and min-max of
# the wall time and of the CPU time (user + sys, as hyperfine reports it),
# then the spread of the pad medians, the control's distance from pad 0,
# and the load average before and after.  Needs make, nm, hyperfine and
# python3.  Builds in a temporary folder (kept with -k).
set -eu

pads=4 bytes=16 rounds=15 n=12000000 keep=
while getopts p:b:r:n:k opt; do
	case $opt in
	p) pads=$OPTARG ;;
	b) bytes=$OPTARG ;;
	r) rounds=$OPTARG ;;
	n) n=$OPTARG ;;
	k) keep=1 ;;
	*) echo "usage: sweep.sh [-p PADS] [-b BYTES] [-r ROUNDS] [-n N] [-k]" >&2; exit 2 ;;
	esac
done
src=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
for tool in make nm hyperfine python3; do
	command -v $tool >/dev/null 2>&1 || { echo "sweep.sh: needs $tool" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/interp-sweep.XXXXXX")
if [ -z "$keep" ]; then
	trap 'rm -rf "$work"' EXIT
else
	echo "sweep.sh: keeping $work" >&2
fi

addr() {
	nm "$1" | awk '$3 == "run" { print $1 }'
}

base=
k=0
while [ $k -lt "$pads" ]; do
	d="$work/pad$k"
	mkdir -p "$d"
	cp "$src/interp.c" "$src/Makefile" "$d/"
	{
		printf '\t.section .text.unlikely.plumb_pad,"ax",@progbits\n'
		[ $k = 0 ] || printf '\t.skip %d, 0x90\n' $((k * bytes))
		printf '\t.section .note.GNU-stack,"",@progbits\n'
	} >"$d/pad.s"
	$cc -c -o "$d/pad.o" "$d/pad.s"
	make -s -C "$d" CC="$cc" LDFLAGS="$d/pad.o" bench >/dev/null
	a=$(addr "$d/interp")
	[ -n "$base" ] || base=$a
	shift_bytes=$(( 0x$a - 0x$base ))
	if [ "$shift_bytes" != $((k * bytes)) ]; then
		echo "sweep.sh: pad $k: run() moved by $shift_bytes bytes, not $((k * bytes))" >&2
		exit 1
	fi
	echo "pad$k $a" >>"$work/addr"
	k=$((k + 1))
done
mkdir -p "$work/control"
cp "$work/pad0/interp" "$work/control/interp"
echo "control $(addr "$work/control/interp")" >>"$work/addr"

names=
k=0
while [ $k -lt "$pads" ]; do names="$names pad$k"; k=$((k + 1)); done
names="$names control"
# shellcheck disable=SC2086
set -- $names
count=$#

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
r=0
while [ $r -lt "$rounds" ]; do
	# Rotate the order by the round number.
	# shellcheck disable=SC2086
	set -- $names
	i=0
	while [ $i -lt $((r % count)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		i=$((i + 1))
	done
	# Turn the names into commands, one argument each.
	i=0
	while [ $i -lt $count ]; do
		v=$1
		shift
		set -- "$@" "$work/$v/interp $n"
		i=$((i + 1))
	done
	hyperfine -N --runs 1 --style none --export-json "$work/round$r.json" "$@" >/dev/null
	r=$((r + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work" "$rounds" "$pads" "$bytes" "$n" "$load_before" "$load_after" <<'EOF'
import json, statistics, sys
work, rounds, pads, nbytes, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
load_before, load_after = sys.argv[6], sys.argv[7]
addr = dict(line.split() for line in open(work + "/addr"))
wall, cpu = {}, {}
for r in range(rounds):
    for res in json.load(open("%s/round%d.json" % (work, r)))["results"]:
        v = res["command"].split("/")[-2]
        wall.setdefault(v, []).extend(t * 1e3 for t in res["times"])
        cpu.setdefault(v, []).append((res["user"] + res["system"]) * 1e3)
names = ["pad%d" % k for k in range(pads)] + ["control"]
print("interp %s, %d pads x %d bytes, %d rounds (ms)" % (n, pads, nbytes, rounds))
print("| variant | run() | wall median | wall min-max | cpu median | cpu min-max |")
print("|---|---|---|---|---|---|")
for v in names:
    w, c = sorted(wall[v]), sorted(cpu[v])
    print("| %s | 0x%s | %.1f | %.1f-%.1f | %.1f | %.1f-%.1f |" % (
        v, addr[v].lstrip("0"), statistics.median(w), w[0], w[-1], statistics.median(c), c[0], c[-1]))
for label, d in (("wall", wall), ("cpu", cpu)):
    meds = [statistics.median(d["pad%d" % k]) for k in range(pads)]
    lo, hi = min(meds), max(meds)
    noise = abs(statistics.median(d["control"]) - statistics.median(d["pad0"]))
    print("%s: pad medians %.1f-%.1f ms, spread %.1f%%; control vs pad 0: %.1f ms (%.1f%%)" % (
        label, lo, hi, 100 * (hi - lo) / lo, noise, 100 * noise / statistics.median(d["pad0"])))
print("load average before: %s, after: %s" % (load_before, load_after))
EOF
