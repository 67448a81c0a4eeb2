#!/bin/sh
test_description='plumb run keeps the measured executables in the bundle (run.keepArtifacts), and every reader checks them'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-project.sh"
. "$TEST_SRCDIR/tests/integration/lib-run.sh"
craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"

test_expect_success 'set up a project' '
	make_project proj &&
	run_conf proj/plumb.conf
'

test_expect_success 'by default base and candidate pad 0 are stored, byte for byte as built' '
	run_plumb -c proj/plumb.conf --keep -o p.plumb >/dev/null 2>err &&
	manifest p.plumb p &&
	ls p/artifacts >list &&
	printf "b00\nc00\n" >expect &&
	test_cmp expect list &&
	cmp p/artifacts/b00 wd/run-*/v/b00/bench &&
	cmp p/artifacts/c00 wd/run-*/v/c00/bench &&
	test -x p/artifacts/b00 && test -x p/artifacts/c00 &&
	test ! -x p/manifest.json
'

test_expect_success PYTHON 'provenance.artifacts records each with the hash build.variants has' '
	b=$(sha256sum p/artifacts/b00 | cut -d" " -f1) &&
	c=$(sha256sum p/artifacts/c00 | cut -d" " -f1) &&
	test_json p/manifest.json "j[\"provenance\"][\"artifacts\"] == [
		{\"variant\": \"b00\", \"member\": \"artifacts/b00\", \"size\": $(wc -c <p/artifacts/b00), \"sha256\": \"$b\"},
		{\"variant\": \"c00\", \"member\": \"artifacts/c00\", \"size\": $(wc -c <p/artifacts/c00), \"sha256\": \"$c\"}]" &&
	test_json p/manifest.json "[v[\"artifact\"][\"sha256\"] for v in j[\"build\"][\"variants\"]
		if v[\"pad\"] == 0 and v[\"side\"] != \"control\"] == [\"$b\", \"$c\"]"
'

test_expect_success 'the audit lists them, and the folder verifies and packs to the same bundle' '
	plumb audit p.plumb >out &&
	test_grep "^  artifacts  *2 stored, each matching" out &&
	test_grep "^  kept b00  *artifacts/b00, [0-9]* bytes, sha256 [0-9a-f]\{64\}$" out &&
	plumb audit p/ >out2 &&
	test_grep "^Integrity: pass" out2 &&
	plumb bundle pack p -o again.plumb >/dev/null &&
	cmp p.plumb again.plumb
'

test_expect_success 'run.keepArtifacts = none stores nothing; all every variant but the control' '
	git config -f proj/plumb.conf run.keepArtifacts none &&
	run_plumb -c proj/plumb.conf -o n.plumb >/dev/null 2>err &&
	manifest n.plumb n &&
	test ! -e n/artifacts &&
	test_grep_not artifacts n/SHA256SUMS &&
	git config -f proj/plumb.conf run.keepArtifacts all &&
	run_plumb -c proj/plumb.conf -o a.plumb >/dev/null 2>err &&
	manifest a.plumb a &&
	ls a/artifacts >list &&
	printf "b00\nb01\nc00\nc01\n" >expect &&
	test_cmp expect list
'

test_expect_success 'a bad run.keepArtifacts value is refused naming the key' '
	git config -f proj/plumb.conf run.keepArtifacts some &&
	test_expect_code 3 plumb run -c proj/plumb.conf --dry-run >/dev/null 2>err &&
	test_grep "run.keepArtifacts" err &&
	git config -f proj/plumb.conf run.keepArtifacts pad0
'

test_expect_success PYTHON 'an artifact above the size cap is left out and the manifest says why; the run succeeds' '
	cp proj/plumb.conf big.conf &&
	git config -f big.conf repo.path proj &&
	git config -f big.conf build.command "make && if grep -q longer work.c; then truncate -s 65M bench; fi" &&
	git config -f big.conf run.pads 1 &&
	git config -f big.conf run.control false &&
	run_plumb -c big.conf -o big.plumb >/dev/null 2>err &&
	manifest big.plumb big &&
	ls big/artifacts >list &&
	echo b00 >expect &&
	test_cmp expect list &&
	test_json big/manifest.json "j[\"provenance\"][\"artifacts\"][1] == {\"variant\": \"c00\",
		\"omitted\": \"68157440 bytes, above the limit of 67108864 bytes for one artifact\"}" &&
	plumb audit big.plumb >out &&
	test_grep "^  kept c00  *not stored: 68157440 bytes, above the limit" out
'

test_expect_success PYTHON 'a folder artifact is left out and said' '
	cp proj/plumb.conf dir.conf &&
	git config -f dir.conf repo.path proj &&
	git config -f dir.conf build.command "make && mkdir -p out && cp bench out/" &&
	git config -f dir.conf build.artifact out &&
	git config -f dir.conf bench.b.command "{artifact}/bench" &&
	git config -f dir.conf run.pads 1 &&
	git config -f dir.conf run.control false &&
	run_plumb -c dir.conf -o dir.plumb >/dev/null 2>err &&
	manifest dir.plumb dir &&
	test ! -e dir/artifacts &&
	test_json dir/manifest.json "([e.get(\"omitted\") for e in j[\"provenance\"][\"artifacts\"]] ==
		[\"not a regular file (a folder or a link is not kept)\"] * 2)"
'

test_expect_success 'a tampered artifact fails verify and audit naming the member' '
	rm -rf t && cp -R p t &&
	printf X | dd of=t/artifacts/c00 bs=1 seek=200 conv=notrunc 2>/dev/null &&
	test_expect_code 3 plumb audit t/ >out &&
	test_grep "^Integrity: FAIL (t/: member .artifacts/c00.: checksum mismatch" out &&
	(cd t && sha256sum README.txt artifacts/* logs/* manifest.json samples.tsv |
		LC_ALL=C sort -k2 >SHA256SUMS) &&
	test_expect_code 3 plumb audit t/ >out &&
	test_grep "member .artifacts/c00.: [0-9]* bytes hashing to [0-9a-f]*\.\.\., not what provenance.artifacts\[1\] records" out &&
	test_expect_code 3 plumb bundle pack t -o t.plumb 2>err &&
	test_grep "artifacts/c00" err &&
	test ! -e t.plumb &&
	"$craft" t2.plumb --from p.plumb --file artifacts/c00=@t/artifacts/c00 --resum &&
	test_expect_code 3 plumb bundle verify t2.plumb 2>err &&
	test_grep "member .artifacts/c00.: .*not what provenance.artifacts\[1\] records" err
'

test_expect_success PYTHON 'an artifact whose manifest entry was edited to match still fails: build.variants recorded another hash' '
	python3 - t/manifest.json t/artifacts/c00 <<-\PY &&
	import hashlib, json, sys
	m = json.load(open(sys.argv[1]))
	m["provenance"]["artifacts"][1]["sha256"] = hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
	json.dump(m, open(sys.argv[1], "w"))
	PY
	rm t/SHA256SUMS &&
	test_expect_code 3 plumb bundle pack t -o t.plumb 2>err &&
	test_grep "member .artifacts/c00.: its SHA-256 [0-9a-f]*\.\.\. is not the artifact hash build.variants records for c00" err
'

test_expect_success 'hostile names under artifacts/ are refused' '
	for name in artifacts/evil.sh artifacts/B00 artifacts/k00 artifacts/b000 artifacts/sub/b00; do
		"$craft" h.plumb --from p.plumb --file "$name=x" --resum &&
		test_expect_code 3 plumb bundle verify h.plumb 2>err &&
		test_grep "member .$name.: not an artifact name" err || return 1
	done &&
	rm -rf h && cp -R p h && rm h/SHA256SUMS &&
	echo x >h/artifacts/run.sh &&
	test_expect_code 3 plumb bundle pack h -o h2.plumb 2>err &&
	test_grep "h/artifacts/run.sh: not an artifact name" err
'

test_expect_success PYTHON 'an artifacts entry that names another member is refused' '
	python3 - p/manifest.json e/manifest.json <<-\PY &&
	import json, os, sys
	m = json.load(open(sys.argv[1]))
	m["provenance"]["artifacts"][0]["member"] = "artifacts/../logs/x"
	os.makedirs("e")
	json.dump(m, open(sys.argv[2], "w"))
	PY
	cp p/samples.tsv e/ &&
	test_expect_code 3 plumb bundle pack e -o e.plumb 2>err &&
	test_grep "provenance.artifacts\[0\]: expected an object with variant" err
'

test_expect_success 'a stored artifact the manifest does not list is refused' '
	"$craft" u.plumb --from n.plumb --file artifacts/b00=@p/artifacts/b00 --resum &&
	test_expect_code 3 plumb bundle verify u.plumb 2>err &&
	test_grep "member .artifacts/b00. is not listed in provenance.artifacts" err &&
	"$craft" m.plumb --from p.plumb --drop artifacts/c00 --resum &&
	test_expect_code 3 plumb bundle verify m.plumb 2>err &&
	test_grep "provenance.artifacts\[1\]: member .artifacts/c00. is missing" err
'

test_done
