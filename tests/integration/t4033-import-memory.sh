#!/bin/sh
test_description='plumb import: the largest files the limits allow are read within the memory bundle-v1.md promises, and a file of many small objects is refused within it'
. "$(dirname "$0")/test-lib.sh"

test_have_prereq PYTHON && test -x /usr/bin/time && test_set_prereq PYTHON_TIME

# in_budget KIND ARGS...: plumb import ARGS exits as KIND says (0, or the
# exit code), and its peak RSS stays within the 64 MB bundle-v1.md
# section 11 promises for any input.  In a sanitizer build the RSS also
# holds AddressSanitizer's runtime, shadow memory and redzones, which the
# promise is not about: there the growth over an import of the small
# fixtures is bounded instead, by the 48 MB the 64 leave once plumb is
# loaded; freed blocks, which ASan holds in quarantine, are not counted.
in_budget() {
	want=$1 &&
	shift &&
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
		/usr/bin/time -f "%M" -o rss0 "$PLUMB" import small-base.json small-candidate.json \
		-o small.plumb >/dev/null &&
	rc=0 &&
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0" \
		/usr/bin/time -f "%M" -o rss "$PLUMB" import "$@" >out 2>err || rc=$? &&
	test "$rc" = "$want" &&
	kb0=$(tail -n 1 rss0) && kb=$(tail -n 1 rss) &&
	echo "peak RSS $kb KiB, $kb0 KiB for the small import" &&
	if sanitized; then test $((kb - kb0)) -lt 49152; else test "$kb" -lt 65536; fi
}

test_expect_success PYTHON_TIME 'fixtures: 999,980 hyperfine runs, 1,000,000 pyperf values and a Google Benchmark file' '
	cp "$FIXTURES/import/hyperfine-base.json" small-base.json &&
	cp "$FIXTURES/import/hyperfine-candidate.json" small-candidate.json &&
	python3 - <<-\PY
	import gzip, json
	def times(center, n):
	    return [round(center * (0.99 + (i * 7919 % 1000) / 50000), 9) for i in range(n)]
	# One file, two commands: 999,980 runs with their exit codes, as
	# many as the 2,000,000 JSON values of a file allow.
	json.dump({"results": [{"command": name, "mean": c, "stddev": 0, "median": c,
	                        "user": 0, "system": 0, "min": c, "max": c,
	                        "times": times(c, 499990), "exit_codes": [0] * 499990}
	                       for name, c in (("a", 0.00118), ("b", 0.001165))]},
	          open("runs.json", "w"))
	# pyperf, sorted keys as pyperf writes them: 2 benchmarks of 1000
	# runs of 500 values, gzipped.
	suite = {"version": "1.0", "metadata": {"cpu_count": 2, "hostname": "h"},
	         "benchmarks": [{"metadata": {"name": name, "unit": "second"},
	                         "runs": [{"metadata": {"date": "2024-01-01", "uptime": 1.5},
	                                   "warmups": [[1, c]], "values": times(c, 500)}
	                                  for r in range(1000)]}
	                        for name, c in (("a", 0.00118), ("b", 0.001165))]}
	with gzip.open("values.json.gz", "wt") as f:
	    json.dump(suite, f, sort_keys=True)
	# Google Benchmark: 2 x 60,000 repetitions (1,560,000 JSON values of
	# the 2,000,000 a file may hold).
	json.dump({"context": {"date": "2024-01-01", "host_name": "h", "num_cpus": 2,
	                       "mhz_per_cpu": 3000, "caches": [], "load_avg": [0.5, 0.4, 0.3],
	                       "library_build_type": "release"},
	           "benchmarks": [{"name": name, "run_name": name, "run_type": "iteration",
	                           "repetitions": 60000, "repetition_index": i, "threads": 1,
	                           "iterations": 1000, "real_time": c * 1e9, "cpu_time": c * 1e9,
	                           "time_unit": "ns"}
	                          for name, c in (("BM_a", 0.00118), ("BM_b", 0.001165))
	                          for i in range(60000)]},
	          open("gbench.json", "w"))
	# 495,000 small objects in 4 MB: 187 MB as one tree.
	with open("objects.json", "w") as f:
	    f.write("{\"results\": [{\"command\": \"a\", \"times\": [1], \"x\": [")
	    f.write(",".join(["{\"a\":1}"] * 495000))
	    f.write("]}]}")
	PY
'

# Reading is measured alone: one file without --base/--candidate is
# read whole, then refused (exit 2) saying what it holds.  What the
# bundle stage adds (the judgement of every round) is bench/bundle.sh's
# "import" row.
test_expect_success PYTHON_TIME '999,980 hyperfine runs of one file are read within the budget' '
	in_budget 2 runs.json -o runs.plumb &&
	test_grep "one file: say which of its benchmarks are compared with --base NAME --candidate NAME (runs.json has .a., .b.)" err
'

test_expect_success PYTHON_TIME '1,000,000 pyperf values (.json.gz, sorted keys) are read within the budget' '
	in_budget 2 values.json.gz -o values.plumb &&
	test_grep "(values.json.gz has .a., .b.)" err
'

test_expect_success PYTHON_TIME 'a Google Benchmark file near the JSON value limit is read within the budget' '
	in_budget 2 gbench.json -o gbench.plumb &&
	test_grep "(gbench.json has .BM_a., .BM_b.)" err
'

# The whole import too: the rows written, the series' values are let go,
# and the analysis of every round is let go before the bundle is
# compressed, so the stages' peaks do not add up.
test_expect_success PYTHON_TIME 'the whole import of 999,980 runs, a bundle of as many rounds, stays within the budget' '
	in_budget 0 runs.json --base a --candidate b -o runs.plumb &&
	plumb bundle verify runs.plumb >verified &&
	test_grep "^samples  *999980$" verified
'

test_expect_success PYTHON_TIME 'what was read one element at a time is every value' '
	plumb import values.json.gz --base a --candidate b -o values.plumb >/dev/null &&
	plumb bundle verify values.plumb >verified &&
	test_grep "^samples  *1000000$" verified &&
	plumb import gbench.json --base BM_a --candidate BM_b -o gbench.plumb >/dev/null &&
	plumb bundle verify gbench.plumb >verified &&
	test_grep "^samples  *240000$" verified
'

test_expect_success PYTHON_TIME '495,000 small objects are refused within the budget, naming the file and the limit' '
	in_budget 3 objects.json --base a --candidate a -o objects.plumb &&
	test_grep "^plumb: objects.json: results\[0\]\.x\[[0-9]*\]: more than 16777216 bytes of JSON held outside the sample arrays (the limit of an imported file)$" err &&
	! test -e objects.plumb
'

test_done
