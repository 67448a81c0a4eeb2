#!/bin/sh
test_description='plumb bundle verify and extract refuse hostile members, writing nothing'
. "$(dirname "$0")/test-lib.sh"

craft="$TEST_SRCDIR/tests/integration/bundle-craft.py"
command -v zstd >/dev/null 2>&1 && test_have_prereq PYTHON && test_set_prereq CRAFT

# rejects BUNDLE PATTERN: verify, show and extract exit 3 with a message
# matching PATTERN; extract changes nothing in its folder or outside it,
# and does not create a missing folder.
rejects() {
	test_expect_code 3 plumb bundle verify "$1" 2>err &&
	test_grep "$2" err &&
	test_expect_code 3 plumb bundle show "$1" >/dev/null 2>err &&
	test_grep "$2" err &&
	rm -rf dest new && mkdir dest && echo keep >dest/sentinel &&
	ls -laR dest >before &&
	test_expect_code 3 plumb bundle extract --force "$1" dest 2>err &&
	test_grep "$2" err &&
	ls -laR dest >after &&
	test_cmp before after &&
	test_expect_code 3 plumb bundle extract "$1" new 2>err &&
	! test -e new &&
	! test -e x && ! test -e evil && ! test -e ../x
}

test_expect_success CRAFT 'a good bundle, and the same rebuilt by the crafting tool' '
	plumb bundle pack "$FIXTURES/bundle/small" -o good.plumb >/dev/null &&
	python3 "$craft" same.plumb --from good.plumb &&
	plumb bundle verify same.plumb >out &&
	test_grep "^members  *4$" out
'

for name in ../x /abs a/../../x ./x a//b; do
	test_expect_success CRAFT "a member named '$name' is refused" '
		python3 "$craft" bad.plumb --from good.plumb --file "'$name'=evil" --resum &&
		rejects bad.plumb "member '"'$name'"': "
	'
done

test_expect_success CRAFT 'the member names say why' '
	python3 "$craft" bad.plumb --from good.plumb --file "../x=evil" &&
	rejects bad.plumb "member .\.\./x.: path escapes the bundle" &&
	python3 "$craft" bad.plumb --from good.plumb --file "/abs=evil" &&
	rejects bad.plumb "member ./abs.: absolute path" &&
	python3 "$craft" bad.plumb --from good.plumb --file "a/../../x=evil" &&
	rejects bad.plumb "member .a/\.\./\.\./x.: path escapes the bundle"
'

test_expect_success CRAFT 'an empty member name is refused' '
	python3 "$craft" bad.plumb --from good.plumb --file "=evil" &&
	rejects bad.plumb "member .*: empty name"
'

test_expect_success CRAFT 'a name over 4 KiB is refused; one of 4 KiB is fine' '
	comp=$(printf "%0200d" 0) &&
	n=$comp && while test ${#n} -lt 4000; do n="$n/$comp"; done &&
	ok=$n/$(printf "%0$((4096 - ${#n} - 1))d" 0) &&
	test ${#ok} = 4096 &&
	python3 "$craft" long-ok.plumb --from good.plumb --file "$ok=fine" --resum &&
	plumb bundle verify long-ok.plumb >/dev/null &&
	python3 "$craft" bad.plumb --from good.plumb --file "${ok}x=evil" --resum &&
	rejects bad.plumb "name longer than 4096 bytes"
'

test_expect_success CRAFT 'a name component over 255 bytes, or an odd character, is refused' '
	python3 "$craft" bad.plumb --from good.plumb --file "$(printf "%0256d" 0)=evil" --resum &&
	rejects bad.plumb "path component longer than 255 bytes" &&
	python3 "$craft" bad.plumb --from good.plumb --file "we ird=evil" --resum &&
	rejects bad.plumb "character outside" &&
	python3 "$craft" bad.plumb --from good.plumb --file "$(printf "a\033[2Jb")=evil" --resum &&
	rejects bad.plumb "member .a\\\\x1b\[2Jb.: character outside"
'

test_expect_success CRAFT 'symbolic links are refused' '
	python3 "$craft" bad.plumb --from good.plumb --symlink "evil=../../etc/passwd" &&
	rejects bad.plumb "member .evil.: symbolic link" &&
	python3 "$craft" bad.plumb --from good.plumb --symlink "x=/tmp" &&
	rejects bad.plumb "member .x.: symbolic link"
'

test_expect_success CRAFT 'hard links are refused' '
	python3 "$craft" bad.plumb --from good.plumb --hardlink "evil=README.txt" &&
	rejects bad.plumb "member .evil.: hard link"
'

test_expect_success CRAFT 'devices and FIFOs are refused' '
	python3 "$craft" bad.plumb --from good.plumb --chr evil &&
	rejects bad.plumb "member .evil.: character device" &&
	python3 "$craft" bad.plumb --from good.plumb --blk evil &&
	rejects bad.plumb "member .evil.: block device" &&
	python3 "$craft" bad.plumb --from good.plumb --fifo evil &&
	rejects bad.plumb "member .evil.: FIFO"
'

test_expect_success CRAFT 'an entry of type Z is refused, not read as a file' '
	python3 "$craft" bad.plumb --from good.plumb --type Z:evil=hi &&
	rejects bad.plumb "member .evil.: tar entry type .Z."
'

test_expect_success CRAFT 'an entry of type NUL (an old-style file) is refused' '
	python3 "$craft" bad.plumb --from good.plumb --type NUL:evil=hi &&
	rejects bad.plumb "member .evil.: tar entry type NUL"
'

test_expect_success CRAFT 'a GNU volume header is refused, not skipped' '
	python3 "$craft" bad.plumb --from good.plumb --format gnu --type V:evil= &&
	rejects bad.plumb "member .evil.: GNU volume header"
'

test_expect_success CRAFT 'a GNU sparse entry with an empty map is refused' '
	python3 "$craft" bad.plumb --from good.plumb --format gnu --type S:evil= &&
	rejects bad.plumb "member .evil.: GNU sparse file"
'

test_expect_success CRAFT 'a pax path record holding a NUL is refused, not cut at the NUL' '
	python3 "$craft" bad.plumb --from good.plumb --pax "evil=path=evil\\x00x" &&
	rejects bad.plumb "member .evil.: a NUL byte in its name"
'

test_expect_success CRAFT 'duplicate names are refused' '
	python3 "$craft" bad.plumb --from good.plumb --append "samples.tsv=@$FIXTURES/bundle/small/samples.tsv" &&
	rejects bad.plumb "member .samples.tsv.: duplicate name" &&
	python3 "$craft" bad.plumb --from good.plumb --dir logs --dir logs &&
	rejects bad.plumb "member .logs.: duplicate name"
'

test_expect_success CRAFT 'a file cannot also be a folder' '
	python3 "$craft" bad.plumb --from good.plumb --file logs=x --file logs/a.log=y --resum &&
	rejects bad.plumb "member .logs/a.log.: clashes with member .logs."
'

test_expect_success CRAFT 'a member not listed in SHA256SUMS is refused' '
	python3 "$craft" bad.plumb --from good.plumb --file extra.txt=hello &&
	rejects bad.plumb "member .extra.txt. is not listed in SHA256SUMS"
'

test_expect_success CRAFT 'a listed member that is missing is refused' '
	python3 "$craft" bad.plumb --from good.plumb --drop samples.tsv &&
	rejects bad.plumb "member .samples.tsv. is listed in SHA256SUMS but missing"
'

test_expect_success CRAFT 'a checksum mismatch is refused, naming the member' '
	sed "s/othertool/evil-tool/" "$FIXTURES/bundle/small/manifest.json" >m.json &&
	python3 "$craft" bad.plumb --from good.plumb --file manifest.json=@m.json &&
	rejects bad.plumb "member .manifest.json.: checksum mismatch"
'

test_expect_success CRAFT 'required members must be there' '
	python3 "$craft" bad.plumb --from good.plumb --drop README.txt --resum &&
	rejects bad.plumb "no README.txt member" &&
	python3 "$craft" bad.plumb --from good.plumb --drop SHA256SUMS &&
	rejects bad.plumb "no SHA256SUMS member" &&
	python3 "$craft" bad.plumb --from good.plumb --drop manifest.json --resum &&
	rejects bad.plumb "no manifest.json member"
'

test_expect_success CRAFT 'malformed SHA256SUMS lines are refused, naming the line' '
	mkdir x.d && (cd x.d && zstd -q -d <../good.plumb | tar -xf -) &&
	sed "1s/  / /" x.d/SHA256SUMS >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: line 1: malformed line" &&
	sed "2y/abcdef/ABCDEF/" x.d/SHA256SUMS >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: line 2: malformed checksum" &&
	tac x.d/SHA256SUMS >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: line 2: not sorted" &&
	printf "%s" "$(cat x.d/SHA256SUMS)" >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: the last line does not end with a newline" &&
	{ cat x.d/SHA256SUMS && tail -n 1 x.d/SHA256SUMS; } >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: line 4: member listed twice" &&
	{ cat x.d/SHA256SUMS && echo "0000000000000000000000000000000000000000000000000000000000000000  ../x"; } >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: line 4: path escapes the bundle" &&
	{ echo "0000000000000000000000000000000000000000000000000000000000000000  SHA256SUMS" && cat x.d/SHA256SUMS; } >sums &&
	python3 "$craft" bad.plumb --from good.plumb --file SHA256SUMS=@sums &&
	rejects bad.plumb "SHA256SUMS: line 1: lists itself"
'

for what in type missing duplicate depth major; do
	test_expect_success CRAFT "a manifest with a bad $what is refused, naming the JSON path" '
		msg=$(grep "^bad-'$what'.json" "$FIXTURES/manifest/bad-expected.txt" | cut -f2-) &&
		test -n "$msg" &&
		python3 "$craft" bad.plumb --from good.plumb \
			--file "manifest.json=@$FIXTURES/manifest/bad-'$what'.json" --resum &&
		rejects bad.plumb "bad.plumb: manifest.json: " &&
		grep -F -e "$msg" err
	'
done

test_expect_success CRAFT 'a samples.tsv with a bad row is refused, naming line and column' '
	cp "$FIXTURES/bundle/small/samples.tsv" s.tsv &&
	printf "b\tbase\t0\t4\t-\twall\tfast\n" >>s.tsv &&
	python3 "$craft" bad.plumb --from good.plumb --file samples.tsv=@s.tsv --resum &&
	rejects bad.plumb "bad.plumb: samples.tsv: line 8: column .value.: not a number" &&
	printf "bench\tside\n" >s.tsv &&
	python3 "$craft" bad.plumb --from good.plumb --file samples.tsv=@s.tsv --resum &&
	rejects bad.plumb "bad.plumb: samples.tsv: line 1: column 3: header .pad. missing"
'

test_expect_success CRAFT 'a damaged member is reported as a checksum mismatch, not a parse error' '
	cp "$FIXTURES/bundle/small/samples.tsv" s.tsv &&
	printf "b\tbase\t0\t4\t-\twall\tfast\n" >>s.tsv &&
	python3 "$craft" bad.plumb --from good.plumb --file samples.tsv=@s.tsv &&
	rejects bad.plumb "member .samples.tsv.: checksum mismatch"
'

test_expect_success CRAFT 'other members, folders, GNU headers and any order are fine' '
	python3 "$craft" ok1.plumb --from good.plumb --dir notes --file notes/a.txt=hello --resum &&
	plumb bundle verify ok1.plumb >out &&
	test_grep "^members  *6$" out &&
	python3 "$craft" ok2.plumb --from good.plumb --format gnu &&
	plumb bundle verify ok2.plumb >/dev/null &&
	python3 "$craft" ok3.plumb --from good.plumb --drop README.txt \
		--file "README.txt=@x.d/README.txt" &&
	plumb bundle verify ok3.plumb >/dev/null &&
	plumb bundle extract ok1.plumb ok1.d >/dev/null &&
	test "$(cat ok1.d/notes/a.txt)" = hello
'

test_done
