#!/bin/sh
# bench/analyze.sh: how fast `plumb analyze` judges a big samples.tsv, and
# in how much memory.
#
# Generates one benchmark's per-iteration samples: base and candidate x 4
# pads x 10 rounds x 125,000 iterations = 10,000,000 rows (about 330 MB):
# ns values around 42-47 with a warmup transient, noise, and rare stalls.
# Then runs `plumb analyze` on it under /usr/bin/time -v (Debian package
# `time`) and prints the wall time and the peak RSS.  Targets: under 5 s
# and under 400 MB on a 2-core machine.
#
#   bench/analyze.sh [PLUMB]      (default: ./plumb in the build tree)
#   BENCH_ITERS=N                 iterations per round (default 125000)
#   BENCH_KEEP=1                  keep the generated file (path printed)
set -u

plumb=${1:-./plumb}
iters=${BENCH_ITERS:-125000}
[ -x "$plumb" ] || { echo "bench/analyze.sh: no plumb at $plumb (build first)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/analyze.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench-analyze.XXXXXX") || exit 1
[ -n "${BENCH_KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT INT TERM
tsv="$dir/samples.tsv"

echo "generating $tsv: 2 sides x 4 pads x 10 rounds x $iters iterations"
start=$(date +%s.%N)
awk -v iters="$iters" 'BEGIN {
	srand(1);
	print "bench\tside\tpad\tround\titer\tmetric\tvalue";
	split("base candidate", sides, " ");
	for (round = 1; round <= 10; round++)
		for (s = 1; s <= 2; s++)
			for (pad = 0; pad < 4; pad++) {
				level = 42 + (s == 2 ? 3 : 0) + pad * 0.7;
				for (i = 0; i < iters; i++) {
					v = level * (1 + 2 * exp(-i / 40)) + 4 * (rand() + rand() + rand() - 1.5);
					r = rand();
					if (r < 0.0002)
						v = v * (20 + 1000 * rand());       # a stall
					else if (r < 0.01)
						v = v * (1.2 + rand());             # a slow iteration
					printf "codec\t%s\t%d\t%d\t%d\tns\t%d\n", sides[s], pad, round, i, v + 0.5;
				}
			}
}' >"$tsv" || exit 1
end=$(date +%s.%N)
rows=$(($(wc -l <"$tsv") - 1))
size=$(du -m "$tsv" | cut -f1)
echo "generated $rows rows, $size MB, in $(awk "BEGIN { printf \"%.1f\", $end - $start }") s"

echo "running: /usr/bin/time -v $plumb analyze $tsv"
/usr/bin/time -v "$plumb" analyze "$tsv" >"$dir/out.txt" 2>"$dir/time.txt"
status=$?
if [ "$status" != 0 ]; then
	cat "$dir/time.txt" >&2
	echo "bench/analyze.sh: plumb analyze exited $status" >&2
	exit 1
fi
wall=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
rss_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$dir/time.txt")
user=$(sed -n 's/^[[:space:]]*User time (seconds): //p' "$dir/time.txt")
sys=$(sed -n 's/^[[:space:]]*System time (seconds): //p' "$dir/time.txt")
grep -E "verdict|^  ratio" "$dir/out.txt" | sed 's/^ */result: /'
echo "rows:        $rows"
echo "wall time:   $wall (m:ss; user $user s, sys $sys s)   target < 5 s"
echo "max RSS:     $((rss_kb / 1024)) MB ($rss_kb kB)   target < 400 MB"
[ -n "${BENCH_KEEP:-}" ] && echo "kept: $tsv"
exit 0
