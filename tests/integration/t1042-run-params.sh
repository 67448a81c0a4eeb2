#!/bin/sh
test_description='run: bench.NAME.params expands to one benchmark per combination, {param:NAME} substituted, recorded and reported'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test_expect_success 'set up a project whose benchmark leaves a trace of its parameters' '
	make_project proj &&
	run_conf proj/plumb.conf run.pads=1 run.control=false &&
	git config -f proj/plumb.conf --remove-section bench.b &&
	git config -f proj/plumb.conf bench.zip.params "size=1M,64M level=1,9" &&
	git config -f proj/plumb.conf bench.zip.command \
		"{artifact} >/dev/null && echo {param:level} >>$TRASH/seen-{param:size} && echo level {param:level} >&2" &&
	git config -f proj/plumb.conf bench.zip.hot run
'

test_expect_success 'the dry run lists one benchmark per combination, last parameter fastest' '
	plumb run --dry-run -c proj/plumb.conf >dry &&
	sed -n "s/^\[bench \"\(.*\)\"\]$/\1/p" dry >actual &&
	printf "%s\n" zip/size=1M,level=1 zip/size=1M,level=9 zip/size=64M,level=1 \
		zip/size=64M,level=9 >expect &&
	test_cmp expect actual &&
	test_grep "echo 9 >>$TRASH/seen-64M" dry &&
	test_grep "params = \"size=64M;level=9\"" dry
'

test_expect_success '--bench NAME keeps every combination, --bench NAME/... one' '
	plumb run --dry-run -c proj/plumb.conf --bench zip | grep -c "^\[bench " >n &&
	echo 4 >expect && test_cmp expect n &&
	plumb run --dry-run -c proj/plumb.conf --bench zip/size=1M,level=9 >one &&
	sed -n "s/^\[bench \"\(.*\)\"\]$/\1/p" one >actual &&
	echo zip/size=1M,level=9 >expect && test_cmp expect actual
'

test_expect_success 'a run measures each combination with its own command' '
	run_plumb -c proj/plumb.conf -o m.plumb >out 2>err &&
	manifest m.plumb m &&
	python3 - m/manifest.json <<-\PY &&
	import json, sys
	m = json.load(open(sys.argv[1]))
	names = [b["name"] for b in m["benches"]]
	assert names == ["zip/size=1M,level=1", "zip/size=1M,level=9",
	                 "zip/size=64M,level=1", "zip/size=64M,level=9"], names
	spec = {b["name"]: b for b in m["spec"]["bench"]}
	assert spec["zip/size=64M,level=1"]["params"] == "size=64M;level=1", spec
	assert "echo 1 >>" in spec["zip/size=64M,level=1"]["command"]
	PY
	cut -f1 m/samples.tsv | sort -u >benches &&
	test_grep "^zip/size=64M,level=9$" benches &&
	# 2 variants x 3 rounds per combination, each writing its level.
	sort seen-1M | uniq -c | sed "s/^ *//" >actual &&
	printf "%s\n" "6 1" "6 9" >expect &&
	test_cmp expect actual &&
	sort seen-64M | uniq -c | sed "s/^ *//" >actual &&
	test_cmp expect actual &&
	ls m/logs >logs &&
	test_grep "^bench-zip--size-1M_level-9-b00.log$" logs &&
	test_grep "level 9" m/logs/bench-zip--size-1M_level-9-b00.log
'

test_expect_success 'the recorded configuration runs again as it was (run --from)' '
	plumb run --from m.plumb --dry-run >from 2>err &&
	sed -n "s/^\[bench \"\(.*\)\"\]$/\1/p" from >actual &&
	sed -n "s/^\[bench \"\(.*\)\"\]$/\1/p" dry >expect &&
	test_cmp expect actual
'

test_expect_success 'reports list the combinations in order and escape nothing away' '
	plumb report m.plumb >report &&
	test_grep "zip/size=64M,level=9" report &&
	plumb report m.plumb --format csv >csv &&
	test "$(grep -c "^\"zip/size=" csv)" = 8
'

test_expect_success 'a parameter the section does not have is an error naming the key' '
	cp proj/plumb.conf bad.conf &&
	git config -f bad.conf bench.zip.command "{artifact} {param:lvl}" &&
	test_expect_code 3 plumb run --dry-run -c bad.conf 2>err &&
	test_grep "bench.zip.command: .{param:lvl}.: no such parameter" err
'

test_done
