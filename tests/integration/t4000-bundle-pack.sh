#!/bin/sh
test_description='plumb bundle pack, verify, show and extract: the round trip'
. "$(dirname "$0")/test-lib.sh"

command -v zstd >/dev/null 2>&1 && test_set_prereq ZSTD

test_expect_success 'pack a folder of results' '
	cp -R "$FIXTURES/bundle/run" run && chmod -R u+w run &&
	plumb bundle pack run -o run.plumb >out &&
	test -f run.plumb &&
	test_grep "^run.plumb: bundle [0-9a-f]\{64\}$" out
'

test_expect_success 'verify accepts it and shows the id' '
	plumb bundle verify run.plumb >out &&
	test_grep "^run.plumb: ok$" out &&
	test_grep "^id  *[0-9a-f]\{64\}$" out &&
	test_grep "^members  *7$" out &&
	test_grep "^samples  *155$" out &&
	test_grep "^signature  *none$" out
'

test_expect_success ZSTD 'the id is the SHA-256 of SHA256SUMS, and stock tools read the bundle' '
	mkdir stock &&
	(cd stock && zstd -q -d <../run.plumb | tar -xf - && sha256sum -c SHA256SUMS >../sums.out) &&
	test_grep "samples.tsv: OK" sums.out &&
	test_grep "manifest.json: OK" sums.out &&
	test_grep "logs/build-base-0.log: OK" sums.out &&
	id=$(sha256sum stock/SHA256SUMS | cut -c1-64) &&
	plumb bundle verify run.plumb >out &&
	test_grep "^id  *$id$" out
'

test_expect_success ZSTD 'the members are the packed files, byte for byte' '
	cmp run/manifest.json stock/manifest.json &&
	cmp run/samples.tsv stock/samples.tsv &&
	cmp run/logs/build-base-0.log stock/logs/build-base-0.log &&
	cmp run/logs/bench-interp-candidate-1.log stock/logs/bench-interp-candidate-1.log
'

test_expect_success ZSTD 'the tar entries are sorted, owned by 0, with fixed modes' '
	zstd -q -d <run.plumb | tar -tvf - >listing &&
	cat >expect <<-\EOF &&
	-rw-r--r-- 0/0 README.txt
	-rw-r--r-- 0/0 SHA256SUMS
	drwxr-xr-x 0/0 logs/
	-rw-r--r-- 0/0 logs/bench-interp-candidate-1.log
	-rw-r--r-- 0/0 logs/build-base-0.log
	-rw-r--r-- 0/0 manifest.json
	-rw-r--r-- 0/0 samples.tsv
	EOF
	awk "{ print \$1, \$2, \$6 }" listing >actual &&
	test_cmp expect actual
'

test_expect_success ZSTD 'README.txt says what the file is and gives the commands' '
	test_grep "plumb result bundle, format plumb-bundle version 1" stock/README.txt &&
	test_grep "written by plumb [0-9]" stock/README.txt &&
	test_grep "zstd -d < ../NAME.plumb | tar -xf -" stock/README.txt &&
	test_grep "sha256sum -c SHA256SUMS" stock/README.txt &&
	test_grep "minisign -Vm SHA256SUMS -x SHA256SUMS.sig -p KEY.pub" stock/README.txt &&
	test_grep "formats/bundle-v1.md" stock/README.txt
'

test_expect_success 'show summarizes commits, benchmarks and verdicts' '
	plumb bundle show run.plumb >out &&
	test_grep "^id  *[0-9a-f]\{64\}$" out &&
	test_grep "^repo  *\/srv\/src\/interp$" out &&
	test_grep "^base  *v1.2.0 3f2a9c0d1e4b  Release 1.2.0$" out &&
	test_grep "^candidate  *HEAD 9e8d7c6b5a4f .*(dirty working copy)$" out &&
	test_grep "^interp .* 0.942  faster$" out &&
	test_grep "^interp .* [0-9.]* ms .* [0-9.]* ms .*faster$" out &&
	test_grep_not "e+0" out &&
	test_grep "^parse .*placement$" out &&
	test_grep "^startup .*failed: " out &&
	test_grep "^host  *Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz, fingerprint c0ffee0123456789$" out &&
	test_grep "^signature  *none$" out
'

test_expect_success PYTHON 'show --json holds the id, the members and the manifest' '
	plumb bundle show --json run.plumb >show.json &&
	id=$(plumb bundle verify run.plumb | sed -n "s/^id  *//p") &&
	test_json show.json "j[\"id\"] == \"$id\"" &&
	test_json show.json "j[\"samples\"] == 155" &&
	test_json show.json "j[\"signature\"][\"state\"] == \"none\"" &&
	test_json show.json "[m[\"name\"] for m in j[\"members\"]][0] == \"README.txt\"" &&
	test_json show.json "j[\"manifest\"][\"benches\"][0][\"verdict\"] == \"faster\"" &&
	test_json show.json "j[\"manifest\"][\"repo\"][\"base\"][\"ref\"] == \"v1.2.0\""
'

test_expect_success 'extract writes the members into a new folder' '
	plumb bundle extract run.plumb out-dir >out &&
	test_grep "^run.plumb: bundle [0-9a-f]\{64\}: extracted 7 members into out-dir$" out &&
	cmp run/manifest.json out-dir/manifest.json &&
	cmp run/samples.tsv out-dir/samples.tsv &&
	cmp run/logs/build-base-0.log out-dir/logs/build-base-0.log &&
	(cd out-dir && sha256sum -c SHA256SUMS >/dev/null) &&
	! ls -a out-dir | grep -q plumb-extract
'

test_expect_success 'extract refuses a folder that is not empty, unless --force' '
	test_expect_code 2 plumb bundle extract run.plumb out-dir 2>err &&
	test_grep "out-dir: not empty" err &&
	echo old >out-dir/manifest.json &&
	echo mine >out-dir/notes.txt &&
	plumb bundle extract --force run.plumb out-dir &&
	cmp run/manifest.json out-dir/manifest.json &&
	test "$(cat out-dir/notes.txt)" = mine
'

test_expect_success 'pack, verify, show and extract need their arguments' '
	test_expect_code 2 plumb bundle pack run 2>err &&
	test_grep "needs one folder and -o FILE" err &&
	test_expect_code 2 plumb bundle verify 2>err &&
	test_expect_code 2 plumb bundle extract run.plumb 2>err &&
	test_expect_code 2 plumb bundle 2>err &&
	test_grep "a subcommand is needed" err &&
	test_expect_code 2 plumb bundle frob 2>err &&
	test_expect_code 2 plumb bundle verify --require-signature run.plumb 2>err &&
	test_grep "needs -p" err
'

test_expect_success 'a missing bundle is bad input, exit 3' '
	test_expect_code 3 plumb bundle verify nosuch.plumb 2>err &&
	test_grep "nosuch.plumb" err &&
	test_expect_code 3 plumb bundle show . 2>err &&
	test_grep "not a regular file" err
'

test_expect_success 'pack refuses a folder with anything unexpected, writing nothing' '
	cp -R "$FIXTURES/bundle/run" odd && chmod -R u+w odd &&
	echo x >odd/notes.txt &&
	test_expect_code 3 plumb bundle pack odd -o odd.plumb 2>err &&
	test_grep "odd/notes.txt: unexpected file" err &&
	rm odd/notes.txt &&
	echo x >odd/logs/build.txt &&
	test_expect_code 3 plumb bundle pack odd -o odd.plumb 2>err &&
	test_grep "odd/logs/build.txt: not a log name" err &&
	rm odd/logs/build.txt &&
	ln -s ../manifest.json odd/logs/link.log &&
	test_expect_code 3 plumb bundle pack odd -o odd.plumb 2>err &&
	test_grep "odd/logs/link.log: not a regular file" err &&
	rm odd/logs/link.log &&
	rm odd/samples.tsv &&
	test_expect_code 3 plumb bundle pack odd -o odd.plumb 2>err &&
	test_grep "odd: no samples.tsv" err &&
	test_expect_code 3 plumb bundle pack nosuch -o odd.plumb 2>err &&
	! test -e odd.plumb &&
	! ls -a | grep -q "\.odd\.plumb\.tmp"
'

# pack_fails DIR PATTERN: exit 3, the message matches, no bundle, no temporary file.
pack_fails() {
	test_expect_code 3 plumb bundle pack "$1" -o bad.plumb 2>err &&
	test_grep "$2" err &&
	! test -e bad.plumb &&
	! ls -a | grep -q "bad\.plumb\.tmp"
}

for what in type missing duplicate depth major; do
	test_expect_success "pack refuses a manifest with a bad $what (JSON path named)" '
		cp -R "$FIXTURES/bundle/small" m-'$what' && chmod -R u+w m-'$what' &&
		cp "$FIXTURES/manifest/bad-'$what'.json" m-'$what'/manifest.json &&
		msg=$(grep "^bad-'$what'.json" "$FIXTURES/manifest/bad-expected.txt" | cut -f2-) &&
		test -n "$msg" &&
		pack_fails m-'$what' "m-'$what'/manifest.json: " &&
		grep -F -e "$msg" err
	'
done

test_expect_success 'pack refuses bad TSV rows, naming line and column' '
	cp -R "$FIXTURES/bundle/small" t1 && chmod -R u+w t1 &&
	printf "b\tbase\t0\t4\t-\twall\t-5\n" >>t1/samples.tsv &&
	pack_fails t1 "t1/samples.tsv: line 8: column .value.: negative value" &&
	cp -R "$FIXTURES/bundle/small" t2 && chmod -R u+w t2 &&
	printf "b\tsideways\t0\t4\t-\twall\t5\n" >>t2/samples.tsv &&
	pack_fails t2 "t2/samples.tsv: line 8: column .side.: unknown side" &&
	cp -R "$FIXTURES/bundle/small" t3 && chmod -R u+w t3 &&
	printf "b\tbase\t0\t4\n" >>t3/samples.tsv &&
	pack_fails t3 "t3/samples.tsv: line 8: column .iter.: missing" &&
	cp -R "$FIXTURES/bundle/small" t4 && chmod -R u+w t4 &&
	printf "nothing\n" >t4/samples.tsv &&
	pack_fails t4 "t4/samples.tsv: line 1: column 1: expected header"
'

test_expect_success 'a failed write leaves no bundle and no temporary file (exit 74)' '
	(
		trap "" XFSZ &&
		ulimit -f 2 &&
		test_expect_code 74 plumb bundle pack run -o big.plumb 2>err
	) &&
	test_grep "big.plumb" err &&
	! test -e big.plumb &&
	! ls -a | grep -q "big\.plumb\.tmp"
'

test_done
