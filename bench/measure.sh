# bench/measure.sh: sourced by bench scripts.  measure CMD...: the median
# wall and CPU milliseconds (user + sys) of 9 runs of a command, output
# thrown away; an exit status outside $MEASURE_OK (default "0") stops it.
# row LABEL CMD...: the same after a label, one aligned line.
measure() {
	MEASURE_OK=${MEASURE_OK:-0} python3 - "$@" <<'PY'
import os, resource, statistics, subprocess, sys, time
ok = [int(s) for s in os.environ["MEASURE_OK"].split()]
walls, cpus = [], []
for _ in range(9):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in ok:
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(sys.argv[1:]), p.stderr.decode()))
    walls.append((t1 - t0) * 1000)
    cpus.append((r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1000)
print("wall %6.1f ms  cpu %6.1f ms" % (statistics.median(walls), statistics.median(cpus)))
PY
}

row() {
	label=$1
	shift
	printf '%-44s %s\n' "$label" "$(measure "$@")"
}
