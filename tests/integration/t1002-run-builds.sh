#!/bin/sh
test_description='plumb run --build-only: variant folders, logs, relink reuse, digests, the control'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"

test_expect_success 'set up a project' '
	make_project proj &&
	write_conf proj/plumb.conf run.pads=3
'

test_expect_success 'a build-only run prints every variant and the checks' '
	run_build -c proj/plumb.conf --keep >out 2>progress &&
	for v in b00 b01 b02 c00 c01 c02 k00; do
		test_grep "^$v " out || return 1
	done &&
	test_grep "^shift check: ok: every pad moved run by exactly its offset (spread: distinct multiples of 16 bytes within 4096)" out &&
	test_grep "^reproducible: yes: the control (k00), built again in a copy of base pad 0.s built folder, is byte-identical to base pad 0 (b00)" out &&
	test_grep "^  run: identical" out &&
	test_grep "b01: built in" progress
'

test_expect_success 'every variant folder path has the same length' '
	run=$(ls -d wd/run-*) &&
	for v in b00 b01 b02 c00 c01 c02 k00; do
		test -d "$run/v/$v" || return 1
		echo "$run/v/$v" | wc -c
	done | sort -u >lengths &&
	test_line_count() { test $(wc -l <"$2") -eq "$1"; } &&
	test_line_count 1 lengths
'

test_expect_success 'each variant has its own log naming it' '
	run=$(ls -d wd/run-*) &&
	for v in b00 b01 b02 c00 c01 c02 k00; do
		test_grep "($v) in " "$run/log/$v.log" || return 1
	done &&
	test_grep "cc -O2 -g *-c -o main.o main.c" "$run/log/b00.log" &&
	test_grep "pad/00/plumb_pad.o" "$run/log/b00.log" &&
	test_grep "pad/02/plumb_pad.o" "$run/log/c02.log"
'

test_expect_success 'relink reuse: later pads and the control only link, their objects are pad 0s' '
	run=$(ls -d wd/run-*) &&
	for v in b01 b02 c01 c02 k00; do
		test_grep_not " -c -o " "$run/log/$v.log" &&
		test_grep "plumb_pad.o -o bench main.o work.o" "$run/log/$v.log" || return 1
	done &&
	test "$(stat -c %Y.%y "$run/v/b00/work.o")" = "$(stat -c %Y.%y "$run/v/b02/work.o")" &&
	test "$(stat -c %y "$run/v/c00/main.o")" = "$(stat -c %y "$run/v/c01/main.o")" &&
	cmp "$run/v/b00/work.o" "$run/v/b01/work.o" &&
	test "$(stat -c %y "$run/v/b00/main.o")" = "$(stat -c %y "$run/v/k00/main.o")"
'

test_expect_success 'relink copies share the checkout files by hard links and copy the outputs' '
	run=$(ls -d wd/run-*) &&
	test "$(stat -c %i "$run/v/b00/main.c")" = "$(stat -c %i "$run/v/b02/main.c")" &&
	test "$(stat -c %i "$run/v/c00/work.c")" = "$(stat -c %i "$run/v/c01/work.c")" &&
	test "$(stat -c %i "$run/v/b00/main.c")" = "$(stat -c %i "$run/v/k00/main.c")" &&
	test "$(stat -c %i "$run/v/b00/main.o")" != "$(stat -c %i "$run/v/b01/main.o")" &&
	test "$(stat -c %i "$run/v/b00/Makefile")" != "$(stat -c %i "$run/v/c00/Makefile")"
'

test_expect_success PYTHON 'the JSON summary records sizes, digests, times and addresses' '
	run_build -c proj/plumb.conf --keep --no-cache --json >s.json &&
	python3 - s.json <<-\EOF
	import hashlib, json, os, sys
	j = json.load(open(sys.argv[1]))
	v = {x["id"]: x for x in j["variants"]}
	assert sorted(v) == ["b00", "b01", "b02", "c00", "c01", "c02", "k00"], sorted(v)
	for x in j["variants"]:
	    data = open(x["artifact"], "rb").read()
	    assert x["size"] == len(data), x
	    assert x["sha256"] == hashlib.sha256(data).hexdigest(), x
	    assert x["build_seconds"] > 0, x
	    assert x["log"].endswith("/log/%s.log" % x["id"]), x
	    assert x["relinked"] == (x["pad"] > 0 or x["control"]), x
	    assert x["pad_bytes"] % 16 == 0 and (x["pad_bytes"] == 0) == (x["pad"] == 0), x
	    assert x["pad_bytes"] == v["b%02d" % x["pad"]]["pad_bytes"] < 4096, x
	for side in "bc":
	    base = int(v[side + "00"]["symbols"]["run"], 16)
	    for k in (1, 2):
	        w = v["%s%02d" % (side, k)]
	        assert int(w["symbols"]["run"], 16) == base + w["pad_bytes"], w
	assert v["k00"]["control"] and v["k00"]["sha256"] == v["b00"]["sha256"]
	assert j["shift"]["status"] == "exact" and j["shift"]["symbols"] == ["run"]
	assert j["reproducible"]["value"] is True
	assert j["hot"][0]["symbol"] == "run"
	EOF
'

test_expect_success 'the run folder is removed at the end without --keep' '
	rm -rf wd &&
	run_build -c proj/plumb.conf >out &&
	ls wd >left &&
	test_grep "^lock$" left &&
	test_grep_not "^run-" left
'

test_expect_success 'reuse = none compiles every variant from a clean tree' '
	write_conf proj/none.conf run.pads=2 build.reuse=none run.control=false &&
	run_build -c proj/none.conf --keep >out &&
	run=$(ls -d wd/run-* | tail -n 1) &&
	test_grep "cc -O2 -g *-c -o work.o work.c" "$run/log/b01.log" &&
	test_grep "cc -O2 -g *-c -o work.o work.c" "$run/log/c01.log" &&
	test_grep_not "(relinked)" out &&
	! test -d "$run/v/k00" &&
	test_grep "^reproducible: not checked" out &&
	rm -rf wd
'

test_expect_success 'reuse = none compiles the control again from its sources' '
	write_conf proj/nonek.conf run.pads=1 build.reuse=none &&
	run_build -c proj/nonek.conf --keep >out &&
	run=$(ls -d wd/run-* | tail -n 1) &&
	test_grep "cc -O2 -g *-c -o work.o work.c" "$run/log/k00.log" &&
	test_grep "^reproducible: yes: the control (k00), built again from its sources, is byte-identical to base pad 0 (b00)" out &&
	rm -rf wd
'

test_expect_success 'a build that stamps the time is not reproducible, and says where' '
	(
		cd proj &&
		cat >stamp.sh <<-\EOF &&
		#!/bin/sh
		echo "const char stamp[] = \"$(date +%s%N)\";" >stamp.c
		EOF
		chmod +x stamp.sh &&
		git add stamp.sh && git commit -q -m "stamp"
	) &&
	write_conf proj/stamp.conf run.pads=1 run.base=main \
		"build.command=./stamp.sh && make && cc -c stamp.c && cc -o bench main.o work.o stamp.o" &&
	run_build -c proj/stamp.conf >out &&
	test_grep "^reproducible: no: the control (k00) differs from base pad 0 (b00) in: .*\.rodata" out
'

test_expect_success 'an artifact folder is hashed and searched for the hot code' '
	write_conf proj/dir.conf run.pads=2 run.base=main \
		"build.command=rm -f bench && make && mkdir -p out/bin && cp bench out/bin/ && echo data >out/README" \
		build.artifact=out &&
	run_build -c proj/dir.conf --json >d.json &&
	test_json d.json "j[\"variants\"][0][\"elf\"].endswith(\"/v/b00/out/bin/bench\") and j[\"shift\"][\"status\"] == \"exact\""
'

test_done
