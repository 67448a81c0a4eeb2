#!/bin/sh
test_description='archive verify finds planted damage; gc removes leftovers, adopts orphans, moves strays to lost/'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

test_expect_success 'an archive of six bundles verifies clean' '
	for i in 1 2 3 4 5 6; do
		make_bundle $i b$i.plumb &&
		bundle_id b$i.plumb >id$i || return 1
	done &&
	plumb archive add b1.plumb b2.plumb b3.plumb b4.plumb b5.plumb b6.plumb --archive-dir A >/dev/null &&
	plumb archive verify --archive-dir A >out &&
	test_grep "^ok: 6 bundles and 6 files checked (slice 1/1), database intact" out
'
for i in 1 2 3 4 5 6; do eval "ID$i=\$(cat id$i 2>/dev/null)"; done

test_expect_success 'plant: a flipped byte, a deleted file, a stray file, a wrong size, a temporary leftover, an orphan' '
	f1=$(stored_path A "$ID1") && chmod u+w "$f1" &&
	python3 -c "import sys; p=sys.argv[1]; b=bytearray(open(p,\"rb\").read()); b[len(b)//2] ^= 0x10; open(p,\"wb\").write(b)" "$f1" &&
	rm "$(stored_path A "$ID2")" &&
	echo "hello" >A/bundles/stray.txt &&
	mkdir -p A/bundles/zz A/bundles/0f && echo "x" >A/bundles/zz/notes &&
	echo "y" >A/bundles/0f/notes.txt &&
	f4=$(stored_path A "$ID4") && chmod u+w "$f4" && echo "tail" >>"$f4" &&
	echo partial >"A/bundles/$(printf %.2s "$ID5")/.$ID5.plumb.tmp.AbC123" &&
	plumb archive rm "$ID6" --archive-dir A >/dev/null &&
	cp b6.plumb "$(stored_path A "$ID6")" &&
	mkdir -p A/bundles/ab &&
	echo "not a bundle" >"A/bundles/ab/abababababababababababababababababababababababababababababababab.plumb"
'

test_expect_success 'verify names each problem and exits 3' '
	test_expect_code 3 plumb archive verify --archive-dir A >out 2>err &&
	test_grep "$(stored_path A "$ID1"): wrong SHA-256" out &&
	test_grep "$(stored_path A "$ID1"): no longer verifies" out &&
	test_grep "^$ID2: row without file" out &&
	test_grep "A/bundles/stray.txt: stray file" out &&
	test_grep "A/bundles/zz: stray file" out &&
	test_grep "A/bundles/0f/notes.txt: stray file" out &&
	test_grep "$(stored_path A "$ID4"): wrong size: " out &&
	test_grep "$ID5.plumb.tmp.AbC123: leftover temporary file" out &&
	test_grep "$(stored_path A "$ID6"): file without rows" out &&
	test_grep "abababababab.*\.plumb: file without rows" out &&
	test_grep "problems found" err &&
	test_must_fail grep "$ID3" out
'

test_expect_success 'verify --subset n/t: the slices together find the same, each bundle once' '
	test_expect_code 3 plumb archive verify --archive-dir A >all 2>/dev/null &&
	: >slices &&
	for n in 1 2 3; do
		plumb archive verify --subset $n/3 --archive-dir A >>slices 2>/dev/null || test $? = 3 || return 1
	done &&
	grep -v -e "^ok:" -e "^FAILED:" -e "integrity" all | sort >expect &&
	grep -v -e "^ok:" -e "^FAILED:" -e "integrity" slices | sort >actual &&
	test_cmp expect actual &&
	sed -n "s/^[a-zA-Z]*: \([0-9]*\) bundle.*/\1/p" slices >counts &&
	test "$(wc -l <counts)" = 3 &&
	test "$(($(paste -sd+ counts)))" = 5
'

test_expect_success 'gc removes the temporary file, adopts the orphan, moves the rest to lost/' '
	test_expect_code 3 plumb archive gc --archive-dir A >out 2>err &&
	test_grep "\.tmp\.AbC123: removed leftover temporary file" out &&
	test_grep "$(stored_path A "$ID6"): adopted bundle $ID6" out &&
	test_grep "A/bundles/stray.txt: stray file, moved to .*A/lost/stray.txt" out &&
	test_grep "A/bundles/zz: stray file, moved to .*A/lost/zz" out &&
	test_grep "A/bundles/0f/notes.txt: stray file, moved to .*A/lost/0f_notes.txt" out &&
	test_grep "abababab.*moved to .*A/lost/ab_abab" out &&
	test_grep "^$ID2: row without file" out &&
	test_grep "1 problem left" err &&
	test -f A/lost/stray.txt && test -f A/lost/zz/notes && test -f A/lost/0f_notes.txt &&
	no_temp_files A &&
	plumb archive show "$ID6" --archive-dir A >/dev/null
'

test_expect_success 'after gc, verify reports only what gc leaves to a person' '
	test_expect_code 3 plumb archive verify --archive-dir A >out 2>err &&
	grep -v "^ok:" out >problems &&
	test_grep "$ID1" problems &&
	test_grep "$ID2" problems &&
	test_grep "$ID4" problems &&
	test_must_fail grep -e stray -e temporary -e "without rows" problems
'

test_expect_success 'repair by hand: add restores wrong sizes and missing files, rm + add the flipped one' '
	plumb archive add b2.plumb b4.plumb --archive-dir A >out &&
	test_grep "^$ID2  restored" out &&
	test_grep "^$ID4  restored" out &&
	plumb archive rm "$ID1" --archive-dir A &&
	plumb archive add b1.plumb --archive-dir A &&
	plumb archive verify --archive-dir A >out &&
	test_grep "^ok: 6 bundles" out &&
	plumb archive gc --archive-dir A >out &&
	test_grep "^gc: 6 files looked at, 0 bundles adopted" out
'

test_expect_success SQLITE3,SQLITE_INDEX 'verify reports a damaged database' '
	cp -a A D &&
	python3 "$TEST_SRCDIR/tests/integration/damage-index.py" D/archive.db bundles_created &&
	test_expect_code 3 plumb archive verify --archive-dir D >out 2>err &&
	test_grep "archive.db: integrity check: " out
'

test_done
