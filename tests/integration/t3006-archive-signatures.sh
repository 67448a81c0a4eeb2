#!/bin/sh
test_description='plumb archive add compares signatures: a properly signed copy replaces an unsigned or wrongly signed one; archive show says who signed what is stored'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"

A="$TRASH/archive"

# keyid KEY.pub: the key id as plumb bundle verify prints it ("good, key K").
keyid() {
	plumb bundle verify "$2" -p "$1" | sed -n "s/^signature  *good, key \([0-9A-Fa-f]*\).*/\1/p"
}

test_expect_success 'one bundle: unsigned, signed with the right key, signed with another' '
	plumb bundle keygen -o right >/dev/null &&
	plumb bundle keygen -o wrong >/dev/null &&
	plumb bundle pack "$FIXTURES/reports/inputs/slower" -o plain.plumb >/dev/null &&
	cp plain.plumb good.plumb && plumb bundle sign good.plumb -k right.key >/dev/null &&
	cp plain.plumb bad.plumb && plumb bundle sign bad.plumb -k wrong.key >/dev/null &&
	id=$(plumb bundle verify plain.plumb | sed -n "s/^id  *//p") &&
	test "$(plumb bundle verify good.plumb | sed -n "s/^id  *//p")" = "$id" &&
	echo "$id" >id &&
	keyid right.pub good.plumb >right.id && test -s right.id &&
	keyid wrong.pub bad.plumb >wrong.id && test -s wrong.id
'

test_expect_success PYTHON 'the wrongly signed copy first: the properly signed one replaces it' '
	id=$(cat id) &&
	plumb archive add bad.plumb --archive-dir "$A" >out &&
	test_grep "^$id  added$" out &&
	plumb archive show "$id" --archive-dir "$A" >show &&
	test_grep "^signature  *present, key $(cat wrong.id)" show &&
	test_expect_code 3 plumb archive add good.plumb -p wrong.pub --archive-dir "$A" 2>err &&
	plumb archive add good.plumb -p right.pub --archive-dir "$A" >out &&
	test_grep "^$id  replaced: the stored copy was signed by key $(cat wrong.id), this one is signed by key $(cat right.id)$" out &&
	stored=$(plumb archive show "$id" --archive-dir "$A" --json | python3 -c "import json,sys; print(json.load(sys.stdin)[\"path\"])") &&
	plumb bundle verify -p right.pub "$stored" >/dev/null &&
	cmp "$stored" good.plumb &&
	plumb archive show "$id" --archive-dir "$A" >show &&
	test_grep "^signature  *verified, key $(cat right.id) (.*bundle:$id.*); the stored file replaced 1 time by a better signed copy$" show &&
	plumb archive verify --archive-dir "$A" >/dev/null &&
	plumb archive add good.plumb -p right.pub --archive-dir "$A" >out &&
	test_grep "^$id  already in the archive$" out &&
	plumb archive add bad.plumb --archive-dir "$A" >out &&
	test_grep "^$id  already in the archive$" out &&
	cmp "$stored" good.plumb
'

test_expect_success SQLITE3 'an unsigned copy first: any signed copy replaces it, an unsigned one does not' '
	id=$(cat id) && B="$TRASH/b" &&
	plumb archive add plain.plumb --archive-dir "$B" >out &&
	plumb archive show "$id" --archive-dir "$B" >show &&
	test_grep "^signature  *none$" show &&
	plumb archive add plain.plumb --archive-dir "$B" >out &&
	test_grep "already in the archive" out &&
	plumb archive add good.plumb --archive-dir "$B" >out &&
	test_grep "^$id  replaced: the stored copy was unsigned, this one is signed by key $(cat right.id)$" out &&
	plumb archive show "$id" --archive-dir "$B" >show &&
	test_grep "^signature  *present, key $(cat right.id)" show &&
	plumb archive add bad.plumb --archive-dir "$B" >out &&
	test_grep "already in the archive" out &&
	test "$(index_sql "$B" "SELECT old_signature || '"' '"' || new_signature FROM replacements")" = "none present"
'

test_done
