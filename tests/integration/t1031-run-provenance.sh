#!/bin/sh
test_description='plumb run records what a re-run needs: environment values (secrets redacted), working folder, commands, input hashes, toolchain, plumb, remote'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"

test_expect_success 'set up a project with a remote, an input file and secrets in the environment' '
	make_project proj &&
	git -C proj remote add origin https://git.example.invalid/team/proj.git &&
	printf "some input\n" >input.dat &&
	run_conf proj/plumb.conf "bench.b.command={artifact} $TRASH/input.dat missing.dat" \
		"run.env=PATH HOME SHOWN MY_API_TOKEN db_password AWS_SECRET_ACCESS_KEY" &&
	git config -f proj/plumb.conf bench.c.command "{artifact} $TRASH/input.dat" &&
	git config -f proj/plumb.conf bench.c.hot run
'

test_expect_success 'a run records them in the manifest' '
	SHOWN="a value" MY_API_TOKEN=tok-123 db_password=hunter2 AWS_SECRET_ACCESS_KEY=xyz \
		run_plumb -c proj/plumb.conf -o p.plumb >/dev/null 2>err &&
	manifest p.plumb p &&
	! grep -e tok-123 -e hunter2 -e xyz p/manifest.json
'

test_expect_success PYTHON 'environment values, with secret-looking names redacted' '
	test_json p/manifest.json "j[\"provenance\"][\"environment\"] == {
		\"PATH\": \"$PATH\", \"HOME\": \"$HOME\", \"SHOWN\": \"a value\",
		\"MY_API_TOKEN\": \"(redacted)\", \"db_password\": \"(redacted)\",
		\"AWS_SECRET_ACCESS_KEY\": \"(redacted)\"}"
'

test_expect_success PYTHON 'the working folder and every command per variant, expanded' '
	test_json p/manifest.json "j[\"provenance\"][\"workdir\"] == \"$TRASH\"" &&
	test_json p/manifest.json "(len(j[\"provenance\"][\"commands\"]) == 10 and
		sorted(set(c[\"bench\"] for c in j[\"provenance\"][\"commands\"])) == [\"b\", \"c\"] and
		all(c[\"line\"].endswith(\"/bench $TRASH/input.dat missing.dat\") and \"{artifact}\" not in c[\"line\"]
		    for c in j[\"provenance\"][\"commands\"] if c[\"bench\"] == \"b\") and
		sorted(c[\"variant\"] for c in j[\"provenance\"][\"commands\"] if c[\"bench\"] == \"c\") ==
		    [\"base/0\", \"base/1\", \"candidate/0\", \"candidate/1\", \"control/0\"])"
'

test_expect_success PYTHON 'an input file is recorded once with its size and SHA-256; a missing one is not' '
	sum=$(sha256sum input.dat | cut -d" " -f1) &&
	test_json p/manifest.json "j[\"provenance\"][\"inputs\"] == [{\"path\": \"$TRASH/input.dat\", \"size\": 11, \"sha256\": \"$sum\"}]"
'

test_expect_success PYTHON 'toolchain, plumb and the remote URL' '
	test_json p/manifest.json "j[\"provenance\"][\"remote\"] == \"https://git.example.invalid/team/proj.git\"" &&
	test_json p/manifest.json "(j[\"provenance\"][\"plumb\"][\"version\"] == j[\"tool\"][\"version\"] and
		len(j[\"provenance\"][\"plumb\"][\"commit\"]) > 0)" &&
	if command -v make >/dev/null; then
		test_json p/manifest.json "j[\"provenance\"][\"toolchain\"][\"make\"] is not None"
	fi &&
	test_json p/manifest.json "set(j[\"provenance\"][\"toolchain\"]) == {\"make\", \"linker\", \"libc\"}"
'

test_expect_success 'the audit shows them, and the provenance part passes' '
	plumb audit p.plumb >out &&
	test_grep "^Provenance: pass" out &&
	test_grep "^  env SHOWN  *a value$" out &&
	test_grep "^  env MY_API_TOKEN  *(redacted)$" out &&
	test_grep "^  input $TRASH/input.dat  *11 bytes, sha256 [0-9a-f]\{64\}$" out &&
	test_grep "^  remote  *https://git.example.invalid/team/proj.git$" out &&
	test_grep "^  run b base/0  *.*/bench $TRASH/input.dat missing.dat$" out
'

test_expect_success PYTHON 'a manifest whose provenance has the wrong types is refused' '
	python3 - p/manifest.json bad/manifest.json <<-\PY &&
	import json, os, sys
	m = json.load(open(sys.argv[1]))
	m["provenance"]["inputs"][0]["size"] = "eleven"
	os.makedirs("bad")
	json.dump(m, open(sys.argv[2], "w"))
	PY
	cp p/samples.tsv bad/ &&
	test_expect_code 3 plumb bundle pack bad -o bad.plumb 2>err &&
	test_grep "provenance.inputs\[0\]: expected an object with path" err
'

test_done
