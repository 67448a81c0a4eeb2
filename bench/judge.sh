#!/bin/sh
# bench/judge.sh: how long the rule takes to judge one benchmark, by
# shape (pads a side x rounds a pad), on the vector path (8 bootstrap
# draws at a time with AVX-512, where the CPU has it) and the scalar one.
# The judgement is what `plumb run` pays once its measuring is done, and
# what `plumb bundle verify` and every report pay again; nearly all of it
# is the bootstrap (2000 replicates of every round of every pad).  Both
# paths must give the same interval, bit for bit: the helper exits 1 if
# they do not.
#
#   bench/judge.sh [REPEAT]     (run in the build tree; default 21)
set -eu
test -x ./plumb || { echo "judge.sh: run it in the build tree, after make" >&2; exit 2; }
make -s bench/judge-cost >/dev/null || { echo "judge.sh: cannot build bench/judge-cost" >&2; exit 1; }
echo "load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
./bench/judge-cost "${1:-21}"
