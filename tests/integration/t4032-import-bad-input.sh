#!/bin/sh
test_description='plumb import: bad input exits 3 naming the file, the JSON path, line and column; usage errors exit 2; the limits hold; nothing half-written; hostile variants never crash it'
. "$(dirname "$0")/test-lib.sh"

src="$FIXTURES/import"

# nothing_left: no bundle and no scratch file of one in this folder.
nothing_left() {
	! test -e out.plumb && ! ls -a | grep -q "^\.out\.plumb\."
}

test_expect_success 'fixtures' '
	cp "$src"/*.json "$src"/*.gz .
'

test_expect_success 'usage: no file, no -o, three files, one of --base/--candidate, a bad --metric' '
	test_expect_code 2 plumb import -o out.plumb 2>err &&
	test_expect_code 2 plumb import hyperfine-base.json 2>err &&
	test_grep "\-o OUT.plumb is needed" err &&
	test_expect_code 2 plumb import hyperfine-base.json hyperfine-base.json hyperfine-base.json -o out.plumb 2>err &&
	test_grep "3 files: an import takes one file" err &&
	test_expect_code 2 plumb import hyperfine-params.json --base "sleep 0.002" -o out.plumb 2>err &&
	test_grep "\-\-base and \-\-candidate go together" err &&
	test_expect_code 2 plumb import gbench-base.json gbench-candidate.json --metric cycles -o out.plumb 2>err &&
	test_grep "\-\-metric takes wall or cpu, not .cycles." err &&
	nothing_left
'

test_expect_success 'one file without --base/--candidate lists what it holds' '
	test_expect_code 2 plumb import hyperfine-params.json -o out.plumb 2>err &&
	test_grep "one file: say which of its benchmarks are compared with --base NAME --candidate NAME (hyperfine-params.json has .sleep 0.002., .sleep 0.004.)" err &&
	test_expect_code 2 plumb import hyperfine-params.json --base nope --candidate "sleep 0.004" -o out.plumb 2>err &&
	test_grep "\-\-base .nope.: hyperfine-params.json has no benchmark of that name" err &&
	nothing_left
'

test_expect_success 'two tools, a metric the source lacks, nothing in common' '
	test_expect_code 2 plumb import hyperfine-base.json pyperf-telco.json -o out.plumb 2>err &&
	test_grep "hyperfine-base.json is hyperfine output and pyperf-telco.json is pyperf output" err &&
	test_expect_code 2 plumb import hyperfine-base.json hyperfine-candidate.json --metric cpu -o out.plumb 2>err &&
	test_grep "\-\-metric cpu: hyperfine records no cpu time per run" err &&
	test_expect_code 3 plumb import hyperfine-base.json hyperfine-params.json -o out.plumb 2>err &&
	test_grep "no benchmark of hyperfine-base.json is also in hyperfine-params.json" err &&
	nothing_left
'

test_expect_success 'a benchmark in one file only is left out, and said' '
	python3 -c "import json; d=json.load(open(\"hyperfine-base.json\")); d[\"results\"].pop(); json.dump(d, open(\"one.json\", \"w\"))" &&
	plumb import one.json hyperfine-candidate.json -o part.plumb 2>err &&
	test_grep "left out: .sleep 0.01. is only in hyperfine-candidate.json" err &&
	plumb bundle extract part.plumb p >/dev/null &&
	test_json p/manifest.json "len(j[\"benches\"]) == 1 and j[\"source\"][\"skipped\"] == [\"\x27sleep 0.01\x27 is only in hyperfine-candidate.json\"]"
'

test_expect_success 'a file of no known kind exits 3 naming it and what was expected' '
	printf "bench\tside\n" >table.tsv &&
	test_expect_code 3 plumb import table.tsv hyperfine-base.json -o out.plumb 2>err &&
	test_grep "table.tsv: not a result file plumb imports: expected hyperfine --export-json" err &&
	test_grep "pyperf JSON" err && test_grep "Google Benchmark --benchmark_out JSON" err &&
	echo "{\"a\": 1}" >other.json &&
	test_expect_code 3 plumb import other.json -o out.plumb 2>err &&
	test_grep "other.json: not a result file plumb imports" err &&
	test_expect_code 3 plumb import missing.json -o out.plumb 2>err &&
	test_grep "missing.json" err &&
	nothing_left
'

test_expect_success 'malformed JSON names the file, the JSON path, line and column' '
	sed "5s/,\$/,,/" hyperfine-base.json >bad.json &&
	test_expect_code 3 plumb import bad.json hyperfine-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: bad.json: results\[0\]: " err && test_grep "line 5" err && test_grep "column" err &&
	python3 -c "import json; d=json.load(open(\"hyperfine-base.json\")); d[\"results\"][1][\"times\"][3]=\"x\"; json.dump(d, open(\"type.json\", \"w\"))" &&
	test_expect_code 3 plumb import type.json hyperfine-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: type.json: results\[1\].times\[3\]: expected number$" err &&
	nothing_left
'

test_expect_success 'limits: file size, gzip size, JSON depth, JSON values' '
	truncate -s 65M big.json &&
	test_expect_code 3 plumb import big.json -o out.plumb 2>err &&
	test_grep "big.json: larger than" err &&
	head -c 70000000 /dev/zero | gzip -1 >bomb.json.gz &&
	test_expect_code 3 plumb import bomb.json.gz -o out.plumb 2>err &&
	test_grep "bomb.json.gz: unpacks to more than 67108864 bytes" err &&
	python3 -c "print(\"{\\\"results\\\": \" + \"[\" * 40 + \"]\" * 40 + \"}\")" >deep.json &&
	test_expect_code 3 plumb import deep.json -o out.plumb 2>err &&
	test_grep "deep.json: " err && test_grep "nest" err &&
	python3 -c "print(\"{\\\"results\\\": [{\\\"command\\\": \\\"a\\\", \\\"times\\\": [\" + \"0,\" * 2000001 + \"0]}]}\")" >many.json &&
	test_expect_code 3 plumb import many.json -o out.plumb 2>err &&
	test_grep "many.json: more than 2000000 JSON values" err &&
	head -c 200 pyperf-telco.json.gz >cut.json.gz &&
	test_expect_code 3 plumb import cut.json.gz -o out.plumb 2>err &&
	test_grep "cut.json.gz: not a readable gzip stream: truncated gzip input" err &&
	nothing_left
'

test_expect_success 'the limits docs/import.md states are the ones the messages give' '
	sed -n "/^## Limits/,/^## /p" "$TEST_SRCDIR/docs/import.md" >limits &&
	json=$(sed -n "s/^| JSON values of a file.* | \([0-9,]*\) |$/\1/p" limits | tr -d ,) &&
	bytes=$(sed -n "s/^| bytes of a file | 64 MiB (\([0-9,]*\)).*/\1/p" limits | tr -d ,) &&
	test -n "$json" && test -n "$bytes" &&
	plumb import many.json -o out.plumb 2>err; test_grep "more than $json JSON values" err &&
	plumb import bomb.json.gz -o out.plumb 2>err; test_grep "unpacks to more than $bytes bytes" err
'

# gzip's own checks, through zlib: a byte changed in the data (stored, so
# the deflate stream stays valid: only the CRC-32 finds it), in the CRC,
# in the length, bytes after the trailer.  Two members one after the
# other are one file, as gzip -d reads them.
test_expect_success PYTHON 'a gzip file whose CRC-32, length or end is wrong exits 3 naming it' '
	python3 - hyperfine-base.json <<-\PY &&
	import gzip, sys
	raw = open(sys.argv[1], "rb").read()
	z = bytearray(gzip.compress(raw, compresslevel=0, mtime=0))
	open("good.json.gz", "wb").write(z)
	i = z.index(b"0.0", 20)
	flip = bytearray(z); flip[i] = ord("9")
	open("digit.json.gz", "wb").write(flip)
	crc = bytearray(z); crc[-8] ^= 0x01
	open("crc.json.gz", "wb").write(crc)
	isize = bytearray(z); isize[-2] ^= 0x01
	open("isize.json.gz", "wb").write(isize)
	open("tail.json.gz", "wb").write(z + b"\0\0\0")
	half = len(raw) // 2
	open("two.json.gz", "wb").write(gzip.compress(raw[:half], mtime=0) + gzip.compress(raw[half:], mtime=0))
	PY
	plumb import good.json.gz hyperfine-candidate.json -o good.plumb >/dev/null &&
	plumb import two.json.gz hyperfine-candidate.json -o two.plumb >/dev/null &&
	for f in digit crc; do
		test_expect_code 3 plumb import $f.json.gz hyperfine-candidate.json -o out.plumb 2>err &&
		test_grep "^plumb: $f.json.gz: damaged gzip stream: incorrect data check$" err || return 1
	done &&
	test_expect_code 3 plumb import isize.json.gz hyperfine-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: isize.json.gz: damaged gzip stream: incorrect length check$" err &&
	test_expect_code 3 plumb import tail.json.gz hyperfine-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: tail.json.gz: damaged gzip stream: 3 bytes after the end of its data" err &&
	nothing_left
'

# Numbers of the sources' facts are typed and bounded, named by JSON path.
test_expect_success PYTHON 'Google Benchmark repetition_index and num_cpus, pyperf cpu_count: bounded and typed' '
	python3 - <<-\PY &&
	import json
	g = json.load(open("gbench-base.json"))
	g["benchmarks"][1]["repetition_index"] = -1
	json.dump(g, open("rep.json", "w"))
	g = json.load(open("gbench-base.json"))
	g["benchmarks"][0]["repetition_index"] = 1.5
	json.dump(g, open("rep2.json", "w"))
	g = json.load(open("gbench-base.json"))
	g["context"]["num_cpus"] = -7
	json.dump(g, open("cpus.json", "w"))
	p = json.load(open("pyperf-mult_list_py37.json"))
	p.setdefault("metadata", {})["cpu_count"] = "lots"
	json.dump(p, open("lots.json", "w"))
	p = json.load(open("pyperf-mult_list_py37.json"))
	p["benchmarks"][0].setdefault("metadata", {})["cpu_count"] = 0
	json.dump(p, open("zero.json", "w"))
	PY
	test_expect_code 3 plumb import rep.json gbench-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: rep.json: benchmarks\[1\].repetition_index: expected a whole number from 0 to 999998, not -1$" err &&
	test_expect_code 3 plumb import rep2.json gbench-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: rep2.json: benchmarks\[0\].repetition_index: expected a whole number" err &&
	test_expect_code 3 plumb import cpus.json gbench-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: cpus.json: context.num_cpus: expected a whole number of at least 1, not -7$" err &&
	test_expect_code 3 plumb import lots.json pyperf-mult_list_py38.json -o out.plumb 2>err &&
	test_grep "^plumb: lots.json: metadata.cpu_count: expected a whole number of at least 1, found string$" err &&
	test_expect_code 3 plumb import zero.json pyperf-mult_list_py38.json -o out.plumb 2>err &&
	test_grep "^plumb: zero.json: benchmarks\[0\].metadata.cpu_count: expected a whole number of at least 1, not 0$" err &&
	nothing_left
'

# A figure that cannot be written (the ratio of a base of 5e-324 s) is
# named with the bundle it would have gone into.
test_expect_success PYTHON 'a value the bundle cannot hold names the bundle' '
	python3 -c "import json; d=json.load(open(\"hyperfine-base.json\")); [r.update(times=[5e-324] * len(r[\"times\"])) for r in d[\"results\"]]; json.dump(d, open(\"tiny.json\", \"w\"))" &&
	test_expect_code 3 plumb import tiny.json hyperfine-candidate.json -o out.plumb 2>err &&
	test_grep "^plumb: out.plumb: manifest.json: benches\[0\].ratio: not a finite number$" err &&
	nothing_left
'

test_expect_success 'Google Benchmark with aggregates only is refused, saying how to rerun' '
	test_expect_code 3 plumb import gbench-aggregates.json -o out.plumb 2>err &&
	test_grep "aggregates only (run it without --benchmark_report_aggregates_only)" err
'

test_expect_success PYTHON 'hostile variants of every fixture: exit 0, 2 or 3, never a crash; what is written verifies' '
	python3 "$TEST_SRCDIR/tests/integration/import-mutate.py" 17 240 hyperfine-base.json \
		hyperfine-params.json pyperf-telco.json pyperf-mult_list_py37.json gbench-base.json gbench-single.json &&
	ok=0 &&
	for f in mut-*.json; do
		for args in "$f $f" "$f"; do
			rc=0
			plumb import $args -o m.plumb >/dev/null 2>m.err || rc=$?
			case $rc in
			0) plumb bundle verify m.plumb >/dev/null || { echo "$f: written but does not verify" >&2; return 1; }
			   ok=$((ok + 1)); rm -f m.plumb ;;
			2|3) test -s m.err || { echo "$f: exit $rc without a message" >&2; return 1; } ;;
			*) echo "$f: exit $rc" >&2; cat m.err >&2; return 1 ;;
			esac
		done
	done &&
	say "$ok variants imported" &&
	test $ok -gt 2
'

test_done
