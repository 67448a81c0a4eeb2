#!/bin/sh
test_description='plumb run --from BUNDLE: the recorded configuration is complete; --dry-run prints it as plumb.conf, which round-trips'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test_expect_success 'a bundle of a small run' '
	make_project proj &&
	run_conf proj/plumb.conf run.seed=5 "run.env=PATH HOME LANG" &&
	git config -f proj/plumb.conf --add run.label team=perf &&
	git config -f proj/plumb.conf bench.b.timeout 90s &&
	run_plumb -c proj/plumb.conf -o one.plumb >/dev/null 2>&1
'

test_expect_success '--dry-run --from prints the recorded configuration as plumb.conf, and it round-trips' '
	plumb run --from one.plumb --dry-run >from.conf &&
	test_grep "^	seed = 5$" from.conf &&
	test_grep "^	path = $TRASH/proj$" from.conf &&
	test_grep "^\[bench \"b\"\]$" from.conf &&
	plumb run -c from.conf --dry-run >again.conf &&
	test_cmp from.conf again.conf
'

test_expect_success PYTHON 'it is the configuration of the run, key for key (the repository as the run found it)' '
	plumb run -c proj/plumb.conf --dry-run --json >orig.json &&
	plumb run --from one.plumb --dry-run --json >from.json &&
	python3 - orig.json from.json <<-\PY
	import json, sys
	a, b = (json.load(open(p)) for p in sys.argv[1:])
	assert b["repo"]["path"].endswith("/proj"), b["repo"]
	a["repo"]["path"] = b["repo"]["path"] = None
	assert a == b, (a, b)
	PY
'

test_expect_success 'flags apply over it; -c does not go with it' '
	plumb run --from one.plumb --rounds 4 --dry-run >r4.conf &&
	test_grep "^	rounds = 4$" r4.conf &&
	test_expect_code 2 plumb run --from one.plumb -c proj/plumb.conf --dry-run 2>err &&
	test_grep "not go together" err
'

test_expect_success PYTHON 'run --from measures again and records the same configuration' '
	run_plumb --from one.plumb --trust-commands -o two.plumb >/dev/null 2>&1 &&
	manifest one.plumb one && manifest two.plumb two &&
	python3 - one/manifest.json two/manifest.json <<-\PY
	import json, sys
	a, b = (json.load(open(p)) for p in sys.argv[1:])
	a["spec"]["repo"]["path"] = b["spec"]["repo"]["path"] = None
	assert a["spec"] == b["spec"], (a["spec"], b["spec"])
	assert a["repo"]["base"]["commit"] == b["repo"]["base"]["commit"]
	assert a["repo"]["candidate"]["commit"] == b["repo"]["candidate"]["commit"]
	PY
'

test_expect_success 'a bundle that does not verify is not run' '
	test_expect_code 3 plumb run --from missing.plumb --dry-run 2>err &&
	test_grep "missing.plumb" err &&
	printf x >>one.plumb &&
	test_expect_code 3 plumb run --from one.plumb --dry-run 2>err
'

test_done
