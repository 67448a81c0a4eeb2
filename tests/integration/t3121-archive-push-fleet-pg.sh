#!/bin/sh
test_description='a fleet on PostgreSQL: 8 hosts pushing at once into one shared index on a server started here (files in a shared store folder), and a push killed (SIGKILL) at each publication retried to completion with no duplicate and no loss'
. "$(dirname "$0")/test-lib.sh"
. "$TEST_SRCDIR/tests/integration/lib-archive.sh"
# The server helper of the PostgreSQL tests.
. "$TEST_SRCDIR/tests/integration/lib-pg.sh"

HOSTS=8
EACH=4
PLUMB_ARCHIVE_STORE="$TRASH/store"
export PLUMB_ARCHIVE_STORE

count() {
	pg_sql "$1" "SELECT count(*) || ' ' || count(DISTINCT id) FROM bundles"
}

# whole DB STORE: every row of DB has its file in STORE, and it verifies.
whole() {
	pg_sql "$1" "SELECT id FROM bundles" >ids.txt || return 1
	while read -r id; do
		plumb bundle verify "$2/bundles/$(printf %.2s "$id")/$id.plumb" >/dev/null ||
			{ echo "row $id: no whole file in $2" >&2; return 1; }
	done <ids.txt
}

test_expect_success POSTGRESQL 'a server, and 8 hosts of their own class with 4 bundles each and one in common' '
	pg_start &&
	make_bundle 999 common.plumb &&
	h=1 &&
	while test $h -le $HOSTS; do
		k=1 &&
		while test $k -le $EACH; do
			BUNDLE_FP=5ca1ab1e0000020$h make_bundle $((h * 100 + k)) h$h.$k.plumb || return 1
			k=$((k + 1))
		done &&
		plumb archive add h$h.*.plumb common.plumb --archive-dir host$h >/dev/null || return 1
		h=$((h + 1))
	done
'

test_expect_success POSTGRESQL "$HOSTS pushes at once into one PostgreSQL index all succeed, nothing twice, nothing lost" '
	url=$(pg_url fleet) &&
	push_at_once "$url" &&
	test "$(count fleet)" = "$((HOSTS * EACH + 1)) $((HOSTS * EACH + 1))" &&
	! grep -q not-a-secret push.*.err &&
	test "$(pg_sql fleet "SELECT count(DISTINCT host) FROM bundles")" = $((HOSTS + 1)) &&
	whole fleet "$TRASH/store" &&
	plumb archive verify --archive-dir "$url" >/dev/null &&
	plumb archive pull --archive-dir reader --from "$url" --host 5ca1ab1e00000203 --json >pull.json &&
	test_json pull.json "len(j[\"sent\"]) == $EACH"
'

test_expect_success POSTGRESQL,STRACE 'a push into PostgreSQL killed at each publication of a file, run again, completes' '
	n=1 kills=0 &&
	while :; do
		db=kill$n && url=$(pg_url $db) &&
		PLUMB_ARCHIVE_STORE="$TRASH/kstore$n" &&
		under_strace -f -o /dev/null -e trace=linkat,rename -e inject=linkat,rename:signal=KILL:when=$n \
			"$PLUMB" archive push --archive-dir host1 --to "$url" >/dev/null 2>kill.err
		st=$?
		test $st = 0 && break
		test $st = 137 || { echo "#$n: exited $st" >&2; cat kill.err >&2; return 1; }
		kills=$((kills + 1))
		"$PLUMB" archive push --archive-dir host1 --to "$url" --json >rerun.json 2>rerun.err ||
			{ cat rerun.err >&2; return 1; }
		test_json rerun.json "len(j[\"sent\"]) + len(j[\"present\"]) == $((EACH + 1))" &&
		test "$(count $db)" = "$((EACH + 1)) $((EACH + 1))" &&
		whole $db "$PLUMB_ARCHIVE_STORE" &&
		"$PLUMB" archive verify --archive-dir "$url" >verify.out 2>&1 ||
			{ echo "after a kill at #$n" >&2; cat verify.out >&2; return 1; }
		n=$((n + 1))
		test $n -le 20 || return 1
	done &&
	PLUMB_ARCHIVE_STORE="$TRASH/store" &&
	test $kills -ge $((EACH + 1))
'

test_done
